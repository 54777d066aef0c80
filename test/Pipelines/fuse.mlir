// RUN: rlx-opt %s --rlx-fuse | FileCheck %s
// RUN: rlx-opt %s --rlx-fuse --rlx-unfuse | FileCheck %s --check-prefix=UNFUSED

// `rlx-fuse` is the fusion pipeline the CPU pipeline runs first.
// CHECK-LABEL: func.func @bias_gelu(
// CHECK-SAME:    %[[X:.*]]: tensor<4x8xf32>, %[[B:.*]]: tensor<8xf32>)
// CHECK:         %[[R:.*]] = rlx.region elementwise ins(%[[X]], %[[B]] : tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32> {
// CHECK:           rlx.add
// CHECK:           rlx.gelu
// CHECK:           rlx.yield
// CHECK:         }
// CHECK:         return %[[R]]
// UNFUSED-LABEL: func.func @bias_gelu(
// UNFUSED-NOT:   rlx.region
// UNFUSED:       %[[S:.*]] = rlx.add
// UNFUSED:       %[[G:.*]] = rlx.gelu %[[S]]
// UNFUSED:       return %[[G]]
func.func @bias_gelu(%x: tensor<4x8xf32>, %b: tensor<8xf32>) -> tensor<4x8xf32> {
  %0 = rlx.add %x, %b : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
  %1 = rlx.gelu %0 : tensor<4x8xf32>
  return %1 : tensor<4x8xf32>
}
