// RUN: rlx-opt %s --rlx-to-linalg -split-input-file | FileCheck %s
// RUN: rlx-opt %s --canonicalize -split-input-file | FileCheck %s --check-prefix=FOLD

// Shapes past 2^32 elements that fit in a 64-bit index verify, fold and
// lower in time and memory independent of their size: nothing here builds
// a constant or an attribute per element. (4 x 2^32 logits: 2^34 elements.)

// The class index is a generic of linalg.index (an rlx.iota), in i64 since
// an i32 label cannot count 2^32 classes; the loss and its backward alike.
// CHECK-LABEL: func.func @cross_entropy_labels(
// CHECK-NOT:     arith.constant dense<[
// CHECK:         arith.extsi %{{.*}} : i32 to i64
// CHECK:         linalg.generic {{.*}} outs(%{{.*}} : tensor<4294967296xi64>)
// CHECK-NEXT:      ^bb0(%{{.*}}: i64):
// CHECK-NEXT:        linalg.index 0 : index
// CHECK:         rlx.rows ins({{.*}}tensor<4x4294967296xf32>{{.*}}) outs(%{{.*}} : tensor<4x1xf32>)
// CHECK-LABEL: func.func @cross_entropy_labels_backward(
// CHECK-NOT:     arith.constant dense<[
// CHECK:         linalg.index 0 : index
// CHECK:         rlx.rows ins({{.*}}) outs(%{{.*}} : tensor<4x4294967296xf32>)
func.func @cross_entropy_labels(%l: tensor<4x4294967296xf32>, %y: tensor<4xi32>) -> tensor<4xf32> {
  %0 = rlx.softmax_cross_entropy_with_labels %l, %y : (tensor<4x4294967296xf32>, tensor<4xi32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
func.func @cross_entropy_labels_backward(%l: tensor<4x4294967296xf32>, %y: tensor<4xi64>, %d: tensor<4xf32>) -> tensor<4x4294967296xf32> {
  %0 = rlx.softmax_cross_entropy_with_labels_backward %l, %y, %d : (tensor<4x4294967296xf32>, tensor<4xi64>, tensor<4xf32>) -> tensor<4x4294967296xf32>
  return %0 : tensor<4x4294967296xf32>
}

// -----

// Splats fold at any size (one stored element); the 4096-element cap is for
// non-splat constants.
// FOLD-LABEL: func.func @fold_huge_splats(
// FOLD-NEXT:    %[[C:.*]] = rlx.constant dense<3.000000e+00> : tensor<65536x65536x4xf32>
// FOLD-NEXT:    %[[E:.*]] = rlx.constant dense<1.000000e+00> : tensor<65536x65536x4xf32>
// FOLD-NEXT:    %[[H:.*]] = rlx.constant dense<1.000000e+00> : tensor<65536x65536x4xf16>
// FOLD-NEXT:    return %[[C]], %[[E]], %[[H]]
func.func @fold_huge_splats() -> (tensor<65536x65536x4xf32>, tensor<65536x65536x4xf32>, tensor<65536x65536x4xf16>) {
  %a = rlx.constant dense<1.0> : tensor<65536x65536x4xf32>
  %b = rlx.constant dense<2.0> : tensor<f32>
  %0 = rlx.add %a, %b : (tensor<65536x65536x4xf32>, tensor<f32>) -> tensor<65536x65536x4xf32>
  %s = rlx.constant dense<1.0> : tensor<1x65536x1xf32>
  %1 = rlx.expand %s : tensor<1x65536x1xf32> -> tensor<65536x65536x4xf32>
  %2 = rlx.cast %a : tensor<65536x65536x4xf32> -> tensor<65536x65536x4xf16>
  return %0, %1, %2 : tensor<65536x65536x4xf32>, tensor<65536x65536x4xf32>, tensor<65536x65536x4xf16>
}
