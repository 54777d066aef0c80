// RUN: rlx-opt %s --rlx-to-linalg -split-input-file | FileCheck %s

// A rank-2 product is a linalg.matmul accumulating into a zero-filled tensor.

// CHECK-LABEL: func.func @matmul_2d(
// CHECK-SAME:      %[[A:.*]]: tensor<2x3xf32>, %[[B:.*]]: tensor<3x4xf32>) -> tensor<2x4xf32>
// CHECK-DAG:     %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-DAG:     %[[EMPTY:.*]] = tensor.empty() : tensor<2x4xf32>
// CHECK:         %[[ACC:.*]] = linalg.fill ins(%[[ZERO]] : f32) outs(%[[EMPTY]] : tensor<2x4xf32>) -> tensor<2x4xf32>
// CHECK:         %[[MM:.*]] = linalg.matmul ins(%[[A]], %[[B]] : tensor<2x3xf32>, tensor<3x4xf32>) outs(%[[ACC]] : tensor<2x4xf32>) -> tensor<2x4xf32>
// CHECK-NOT:     linalg.generic
// CHECK:         return %[[MM]] : tensor<2x4xf32>
func.func @matmul_2d(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>) -> tensor<2x4xf32> {
  %0 = rlx.matmul %a, %b : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

// f16 accumulates in f32 (linalg.matmul extends its f16 operands to the f32
// accumulator) and rounds once at the end.

// CHECK-DAG:   #[[ID:map[0-9]*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @matmul_2d_f16(
// CHECK-SAME:      %[[A:.*]]: tensor<2x3xf16>, %[[B:.*]]: tensor<3x4xf16>) -> tensor<2x4xf16>
// CHECK-DAG:     %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-DAG:     %[[EMPTY:.*]] = tensor.empty() : tensor<2x4xf32>
// CHECK:         %[[ACC:.*]] = linalg.fill ins(%[[ZERO]] : f32) outs(%[[EMPTY]] : tensor<2x4xf32>)
// CHECK:         %[[MM:.*]] = linalg.matmul ins(%[[A]], %[[B]] : tensor<2x3xf16>, tensor<3x4xf16>) outs(%[[ACC]] : tensor<2x4xf32>) -> tensor<2x4xf32>
// CHECK:         %[[OUT:.*]] = tensor.empty() : tensor<2x4xf16>
// CHECK:         %[[R:.*]] = linalg.generic
// CHECK-SAME:        indexing_maps = [#[[ID]], #[[ID]]]
// CHECK-SAME:        iterator_types = ["parallel", "parallel"]
// CHECK-SAME:        ins(%[[MM]] : tensor<2x4xf32>) outs(%[[OUT]] : tensor<2x4xf16>)
// CHECK:         ^bb0(%[[X:[a-z0-9_]+]]: f32, %{{[a-z0-9_]+}}: f16):
// CHECK:           %[[T:.*]] = arith.truncf %[[X]] : f32 to f16
// CHECK-NEXT:      linalg.yield %[[T]] : f16
// CHECK:         return %[[R]] : tensor<2x4xf16>
func.func @matmul_2d_f16(%a: tensor<2x3xf16>, %b: tensor<3x4xf16>) -> tensor<2x4xf16> {
  %0 = rlx.matmul %a, %b : (tensor<2x3xf16>, tensor<3x4xf16>) -> tensor<2x4xf16>
  return %0 : tensor<2x4xf16>
}

// -----

// Integers accumulate in their own type: no rounding generic afterwards.

// CHECK-LABEL: func.func @matmul_2d_i8(
// CHECK:         %[[ZERO:.*]] = arith.constant 0 : i8
// CHECK:         %[[ACC:.*]] = linalg.fill ins(%[[ZERO]] : i8) outs(%{{.*}} : tensor<4x5xi8>)
// CHECK:         %[[MM:.*]] = linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<4x3xi8>, tensor<3x5xi8>) outs(%[[ACC]] : tensor<4x5xi8>)
// CHECK-NEXT:    return %[[MM]] : tensor<4x5xi8>
func.func @matmul_2d_i8(%a: tensor<4x3xi8>, %b: tensor<3x5xi8>) -> tensor<4x5xi8> {
  %0 = rlx.matmul %a, %b : (tensor<4x3xi8>, tensor<3x5xi8>) -> tensor<4x5xi8>
  return %0 : tensor<4x5xi8>
}

// -----

// Batched with equal batch dimensions: loops (b, m, n, k), k is the reduction.

// CHECK-DAG:   #[[LHS:map[0-9]*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>
// CHECK-DAG:   #[[RHS:map[0-9]*]] = affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>
// CHECK-DAG:   #[[OUT:map[0-9]*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
// CHECK-LABEL: func.func @bmm(
// CHECK-SAME:      %[[A:.*]]: tensor<2x3x4xf32>, %[[B:.*]]: tensor<2x4x5xf32>) -> tensor<2x3x5xf32>
// CHECK-DAG:     %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-DAG:     %[[EMPTY:.*]] = tensor.empty() : tensor<2x3x5xf32>
// CHECK:         %[[ACC:.*]] = linalg.fill ins(%[[ZERO]] : f32) outs(%[[EMPTY]] : tensor<2x3x5xf32>)
// CHECK-NOT:     linalg.matmul
// CHECK:         %[[R:.*]] = linalg.generic
// CHECK-SAME:        indexing_maps = [#[[LHS]], #[[RHS]], #[[OUT]]]
// CHECK-SAME:        iterator_types = ["parallel", "parallel", "parallel", "reduction"]
// CHECK-SAME:        ins(%[[A]], %[[B]] : tensor<2x3x4xf32>, tensor<2x4x5xf32>)
// CHECK-SAME:        outs(%[[ACC]] : tensor<2x3x5xf32>)
// CHECK:         ^bb0(%[[X:[a-z0-9_]+]]: f32, %[[Y:[a-z0-9_]+]]: f32, %[[S:[a-z0-9_]+]]: f32):
// CHECK:           %[[P:.*]] = arith.mulf %[[X]], %[[Y]] : f32
// CHECK:           %[[N:.*]] = arith.addf %[[S]], %[[P]] : f32
// CHECK:           linalg.yield %[[N]] : f32
// CHECK:         return %[[R]] : tensor<2x3x5xf32>
func.func @bmm(%a: tensor<2x3x4xf32>, %b: tensor<2x4x5xf32>) -> tensor<2x3x5xf32> {
  %0 = rlx.matmul %a, %b : (tensor<2x3x4xf32>, tensor<2x4x5xf32>) -> tensor<2x3x5xf32>
  return %0 : tensor<2x3x5xf32>
}

// -----

// Broadcast batch dimensions: a size-1 batch dimension reads index 0 and a
// missing leading one is dropped. bf16 accumulates in f32, then rounds.
// Loops: (b0, b1, m, n, k).

// CHECK-DAG:   #[[LHS:map[0-9]*]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, 0, d2, d4)>
// CHECK-DAG:   #[[RHS:map[0-9]*]] = affine_map<(d0, d1, d2, d3, d4) -> (d1, d4, d3)>
// CHECK-DAG:   #[[OUT:map[0-9]*]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>
// CHECK-DAG:   #[[ID:map[0-9]*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// CHECK-LABEL: func.func @bmm_broadcast_bf16(
// CHECK-DAG:     %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-DAG:     %[[EMPTY:.*]] = tensor.empty() : tensor<5x7x2x4xf32>
// CHECK:         %[[ACC:.*]] = linalg.fill ins(%[[ZERO]] : f32) outs(%[[EMPTY]] : tensor<5x7x2x4xf32>)
// CHECK:         %[[MM:.*]] = linalg.generic
// CHECK-SAME:        indexing_maps = [#[[LHS]], #[[RHS]], #[[OUT]]]
// CHECK-SAME:        iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]
// CHECK-SAME:        ins(%{{.*}}, %{{.*}} : tensor<5x1x2x3xbf16>, tensor<7x3x4xbf16>)
// CHECK-SAME:        outs(%[[ACC]] : tensor<5x7x2x4xf32>)
// CHECK:         ^bb0(%[[X:[a-z0-9_]+]]: bf16, %[[Y:[a-z0-9_]+]]: bf16, %[[S:[a-z0-9_]+]]: f32):
// CHECK:           %[[XE:.*]] = arith.extf %[[X]] : bf16 to f32
// CHECK:           %[[YE:.*]] = arith.extf %[[Y]] : bf16 to f32
// CHECK:           %[[P:.*]] = arith.mulf %[[XE]], %[[YE]] : f32
// CHECK:           %[[N:.*]] = arith.addf %[[S]], %[[P]] : f32
// CHECK:           linalg.yield %[[N]] : f32
// CHECK:         } -> tensor<5x7x2x4xf32>
// CHECK:         %[[R:.*]] = linalg.generic
// CHECK-SAME:        indexing_maps = [#[[ID]], #[[ID]]]
// CHECK-SAME:        ins(%[[MM]] : tensor<5x7x2x4xf32>)
// CHECK:           arith.truncf %{{.*}} : f32 to bf16
// CHECK:         } -> tensor<5x7x2x4xbf16>
// CHECK:         return %[[R]] : tensor<5x7x2x4xbf16>
func.func @bmm_broadcast_bf16(%a: tensor<5x1x2x3xbf16>, %b: tensor<7x3x4xbf16>) -> tensor<5x7x2x4xbf16> {
  %0 = rlx.matmul %a, %b : (tensor<5x1x2x3xbf16>, tensor<7x3x4xbf16>) -> tensor<5x7x2x4xbf16>
  return %0 : tensor<5x7x2x4xbf16>
}

// -----

// A rank-2 operand against a batched one is broadcast over the batch.
// Loops: (b, m, n, k).

// CHECK-DAG:   #[[LHS:map[0-9]*]] = affine_map<(d0, d1, d2, d3) -> (d1, d3)>
// CHECK-DAG:   #[[RHS:map[0-9]*]] = affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>
// CHECK-DAG:   #[[OUT:map[0-9]*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
// CHECK-LABEL: func.func @bmm_rank2_lhs_i32(
// CHECK:         %[[ZERO:.*]] = arith.constant 0 : i32
// CHECK:         %[[ACC:.*]] = linalg.fill ins(%[[ZERO]] : i32) outs(%{{.*}} : tensor<6x2x4xi32>)
// CHECK:         %[[R:.*]] = linalg.generic
// CHECK-SAME:        indexing_maps = [#[[LHS]], #[[RHS]], #[[OUT]]]
// CHECK-SAME:        iterator_types = ["parallel", "parallel", "parallel", "reduction"]
// CHECK-SAME:        outs(%[[ACC]] : tensor<6x2x4xi32>)
// CHECK:         ^bb0(%[[X:[a-z0-9_]+]]: i32, %[[Y:[a-z0-9_]+]]: i32, %[[S:[a-z0-9_]+]]: i32):
// CHECK:           %[[P:.*]] = arith.muli %[[X]], %[[Y]] : i32
// CHECK:           %[[N:.*]] = arith.addi %[[S]], %[[P]] : i32
// CHECK:           linalg.yield %[[N]] : i32
// CHECK:         } -> tensor<6x2x4xi32>
// CHECK-NEXT:    return %[[R]] : tensor<6x2x4xi32>
func.func @bmm_rank2_lhs_i32(%a: tensor<2x3xi32>, %b: tensor<6x3x4xi32>) -> tensor<6x2x4xi32> {
  %0 = rlx.matmul %a, %b : (tensor<2x3xi32>, tensor<6x3x4xi32>) -> tensor<6x2x4xi32>
  return %0 : tensor<6x2x4xi32>
}
