// RUN: rlx-opt %s --rlx-to-linalg --rlx-interchange-reductions -split-input-file | FileCheck %s

// matmul (m, n, k) becomes a generic iterating (m, k, n): the inner loop
// walks a row of the right-hand side and of the result. Maps keep their
// meaning: lhs[m, k], rhs[k, n], out[m, n] with loops renumbered.
// CHECK-DAG:   #[[LHS:.*]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-DAG:   #[[RHS:.*]] = affine_map<(d0, d1, d2) -> (d1, d2)>
// CHECK-DAG:   #[[OUT:.*]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK-LABEL: func.func @matmul(
// CHECK-NOT:     linalg.matmul
// CHECK:         linalg.generic {indexing_maps = [#[[LHS]], #[[RHS]], #[[OUT]]], iterator_types = ["parallel", "reduction", "parallel"]}
// CHECK:           arith.mulf
// CHECK:           arith.addf
func.func @matmul(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>) -> tensor<4x16xf32> {
  %0 = rlx.matmul %a, %b : (tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>
  return %0 : tensor<4x16xf32>
}

// -----

// A row reduction reads its input with the row loop in the first dimension:
// moving that loop innermost would stride through memory, so it stays.
// CHECK-LABEL: func.func @row_sum(
// CHECK:         linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]
func.func @row_sum(%x: tensor<4x8xf32>) -> tensor<4xf32> {
  %0 = rlx.reduce sum %x axes = [1] : tensor<4x8xf32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// Elementwise ops have no reduction loop to move.
// CHECK-LABEL: func.func @elementwise(
// CHECK:         linalg.generic {{.*}} iterator_types = ["parallel", "parallel"]
func.func @elementwise(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = rlx.exp %x : tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

// A batched matmul lowers to a contraction generic, which is interchanged
// as it is: (b, m, n, k) becomes (b, m, k, n).
// CHECK-LABEL: func.func @batched_matmul(
// CHECK:         linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "reduction", "parallel"]
func.func @batched_matmul(%a: tensor<2x4x8xf32>, %b: tensor<8x16xf32>) -> tensor<2x4x16xf32> {
  %0 = rlx.matmul %a, %b : (tensor<2x4x8xf32>, tensor<8x16xf32>) -> tensor<2x4x16xf32>
  return %0 : tensor<2x4x16xf32>
}

