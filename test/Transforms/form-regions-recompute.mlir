// RUN: rlx-opt %s --rlx-form-regions="recompute=true row=false" -split-input-file | FileCheck %s
// RUN: rlx-opt %s --rlx-form-regions="row=false" -split-input-file | FileCheck %s --check-prefix=NORECOMPUTE

// %g feeds a softmax before the chain's end, so it cannot be a region result
// read there. With recompute, the second region computes its own copy of
// add+gelu from the original inputs, and the originals form their own region
// for the softmax.
// CHECK-LABEL: func.func @shared_producer(
// CHECK-SAME:    %[[X:.*]]: tensor<4x8xf32>, %[[B:.*]]: tensor<8xf32>)
// CHECK:         %[[FIRST:.*]] = rlx.region elementwise ins(%[[X]], %[[B]] : {{.*}}) -> tensor<4x8xf32> {
// CHECK:           rlx.add
// CHECK:           rlx.gelu
// CHECK:         }
// CHECK:         %[[S:.*]] = rlx.softmax %[[FIRST]]
// CHECK:         %[[SECOND:.*]] = rlx.region elementwise ins(%[[X]], %[[B]], %[[S]] : {{.*}}) -> tensor<4x8xf32> {
// CHECK:           rlx.add
// CHECK:           rlx.gelu
// CHECK:           rlx.mul
// CHECK:           rlx.add
// CHECK:         }
// CHECK:         return %[[SECOND]]

// Without it the shared gelu stays with its first region and the second
// region reads its result.
// NORECOMPUTE-LABEL: func.func @shared_producer(
// NORECOMPUTE:         %[[FIRST:.*]] = rlx.region elementwise
// NORECOMPUTE:         %[[S:.*]] = rlx.softmax %[[FIRST]]
// NORECOMPUTE:         rlx.region elementwise ins(%[[FIRST]], %{{.*}}, %[[S]] :
// NORECOMPUTE-NOT:       rlx.gelu
// NORECOMPUTE:           rlx.mul
func.func @shared_producer(%x: tensor<4x8xf32>, %b: tensor<8xf32>) -> tensor<4x8xf32> {
  %0 = rlx.add %x, %b : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
  %g = rlx.gelu %0 : tensor<4x8xf32>
  %s = rlx.softmax %g axis = 1 : tensor<4x8xf32>
  %1 = rlx.mul %g, %x : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %2 = rlx.add %1, %s : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return %2 : tensor<4x8xf32>
}
