// RUN: rlx-opt %s --rlx-to-linalg -split-input-file | FileCheck %s

// An elementwise rlx.region becomes exactly one linalg.generic over its
// iteration shape: one indexing map per input (numpy broadcasting: dropped
// leading dims, constant 0 for size-1 dims), an identity map per result, and
// the body ops' scalar formulas chained in its body, with no intermediate
// tensor. Every intermediate of a narrow float type is rounded to it
// (truncf) and widened back (extf), as the unfused ops store it.
// Row, reduction and contraction regions are at the end of the file.

// CHECK-DAG:   #[[ID:map[0-9]*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG:   #[[ROW:map[0-9]*]] = affine_map<(d0, d1) -> (d1)>
// CHECK-DAG:   #[[COL:map[0-9]*]] = affine_map<(d0, d1) -> (d0, 0)>
// CHECK-DAG:   #[[SCALAR:map[0-9]*]] = affine_map<(d0, d1) -> ()>
// CHECK-LABEL: func.func @broadcast(
// CHECK-SAME:      %[[X:[a-z0-9]+]]: tensor<4x8xf32>, %[[B:[a-z0-9]+]]: tensor<8xf32>, %[[C:[a-z0-9]+]]: tensor<4x1xf32>, %[[S:[a-z0-9]+]]: tensor<f32>)
// CHECK-NOT:     rlx.
// CHECK:         %[[INIT:.*]] = tensor.empty() : tensor<4x8xf32>
// CHECK-NEXT:    %[[R:.*]] = linalg.generic
// CHECK-SAME:        indexing_maps = [#[[ID]], #[[ROW]], #[[COL]], #[[SCALAR]], #[[ID]]]
// CHECK-SAME:        iterator_types = ["parallel", "parallel"]
// CHECK-SAME:        ins(%[[X]], %[[B]], %[[C]], %[[S]] : tensor<4x8xf32>, tensor<8xf32>, tensor<4x1xf32>, tensor<f32>)
// CHECK-SAME:        outs(%[[INIT]] : tensor<4x8xf32>)
// CHECK-NEXT:    ^bb0(%[[I0:[a-z0-9_]+]]: f32, %[[I1:[a-z0-9_]+]]: f32, %[[I2:[a-z0-9_]+]]: f32, %[[I3:[a-z0-9_]+]]: f32, %{{[a-z0-9_]+}}: f32):
// CHECK-NEXT:      %[[V0:.*]] = arith.addf %[[I0]], %[[I1]] : f32
// CHECK-NEXT:      %[[V1:.*]] = arith.mulf %[[V0]], %[[I2]] : f32
// CHECK-NEXT:      %[[V2:.*]] = arith.subf %[[V1]], %[[I3]] : f32
// CHECK-NEXT:      %[[V3:.*]] = math.exp %[[V2]] : f32
// CHECK-NEXT:      linalg.yield %[[V3]] : f32
// CHECK-NEXT:    } -> tensor<4x8xf32>
// CHECK-NOT:     linalg.generic
// CHECK-NOT:     rlx.
// CHECK:         return %[[R]] : tensor<4x8xf32>
func.func @broadcast(%x: tensor<4x8xf32>, %b: tensor<8xf32>, %c: tensor<4x1xf32>, %s: tensor<f32>) -> tensor<4x8xf32> {
  %r = rlx.region elementwise ins(%x, %b, %c, %s : tensor<4x8xf32>, tensor<8xf32>, tensor<4x1xf32>, tensor<f32>) -> tensor<4x8xf32> {
  ^bb0(%a0: tensor<4x8xf32>, %a1: tensor<8xf32>, %a2: tensor<4x1xf32>, %a3: tensor<f32>):
    %0 = rlx.add %a0, %a1 : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
    %1 = rlx.mul %0, %a2 : (tensor<4x8xf32>, tensor<4x1xf32>) -> tensor<4x8xf32>
    %2 = rlx.sub %1, %a3 : (tensor<4x8xf32>, tensor<f32>) -> tensor<4x8xf32>
    %3 = rlx.exp %2 : tensor<4x8xf32>
    rlx.yield %3 : tensor<4x8xf32>
  }
  return %r : tensor<4x8xf32>
}

// -----

// Several results, each with its own init and identity map; an i1
// intermediate result next to an f32 one; one generic for all.
// CHECK-DAG:   #[[ID:map[0-9]*]] = affine_map<(d0) -> (d0)>
// CHECK-LABEL: func.func @multi_result(
// CHECK-SAME:      %[[X:[a-z0-9]+]]: tensor<3xf32>, %[[Y:[a-z0-9]+]]: tensor<3xf32>)
// CHECK-DAG:     %[[INIT0:.*]] = tensor.empty() : tensor<3xi1>
// CHECK-DAG:     %[[INIT1:.*]] = tensor.empty() : tensor<3xf32>
// CHECK-COUNT-1: linalg.generic
// CHECK-SAME:        indexing_maps = [#[[ID]], #[[ID]], #[[ID]], #[[ID]]]
// CHECK-SAME:        ins(%[[X]], %[[Y]] : tensor<3xf32>, tensor<3xf32>)
// CHECK-SAME:        outs(%[[INIT0]], %[[INIT1]] : tensor<3xi1>, tensor<3xf32>)
// CHECK-NEXT:    ^bb0(%[[A:[a-z0-9_]+]]: f32, %[[B:[a-z0-9_]+]]: f32, %{{[a-z0-9_]+}}: i1, %{{[a-z0-9_]+}}: f32):
// CHECK-NEXT:      %[[GT:.*]] = arith.cmpf ogt, %[[A]], %[[B]] : f32
// CHECK-NEXT:      %[[W:.*]] = arith.select %[[GT]], %[[A]], %[[B]] : f32
// CHECK-NEXT:      linalg.yield %[[GT]], %[[W]] : i1, f32
// CHECK-NEXT:    } -> (tensor<3xi1>, tensor<3xf32>)
// CHECK-NOT:     linalg.generic
// CHECK:         return
func.func @multi_result(%x: tensor<3xf32>, %y: tensor<3xf32>) -> (tensor<3xi1>, tensor<3xf32>) {
  %r:2 = rlx.region elementwise ins(%x, %y : tensor<3xf32>, tensor<3xf32>) -> tensor<3xi1>, tensor<3xf32> {
  ^bb0(%a: tensor<3xf32>, %b: tensor<3xf32>):
    %c = rlx.gt %a, %b : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xi1>
    %w = rlx.where %c, %a, %b : (tensor<3xi1>, tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
    rlx.yield %c, %w : tensor<3xi1>, tensor<3xf32>
  }
  return %r#0, %r#1 : tensor<3xi1>, tensor<3xf32>
}

// -----

// f16 computes in f32 like the unfused ops, and rounds every intermediate
// to f16 (truncf) before the next op reads it back (extf). The cast to f32
// result is the widened f16 value.
// CHECK-DAG:   #[[ID:map[0-9]*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG:   #[[COL:map[0-9]*]] = affine_map<(d0, d1) -> (d0, 0)>
// CHECK-LABEL: func.func @f16(
// CHECK-SAME:      %[[X:[a-z0-9]+]]: tensor<2x5xf16>, %[[B:[a-z0-9]+]]: tensor<2x1xf16>)
// CHECK-COUNT-1: linalg.generic
// CHECK-SAME:        indexing_maps = [#[[ID]], #[[COL]], #[[ID]], #[[ID]]]
// CHECK-SAME:        ins(%[[X]], %[[B]] : tensor<2x5xf16>, tensor<2x1xf16>)
// CHECK-NEXT:    ^bb0(%[[A:[a-z0-9_]+]]: f16, %[[C:[a-z0-9_]+]]: f16, %{{[a-z0-9_]+}}: f16, %{{[a-z0-9_]+}}: f32):
// CHECK-NEXT:      %[[AE:.*]] = arith.extf %[[A]] : f16 to f32
// CHECK-NEXT:      %[[CE:.*]] = arith.extf %[[C]] : f16 to f32
// CHECK-NEXT:      %[[D:.*]] = arith.subf %[[AE]], %[[CE]] : f32
// CHECK-NEXT:      %[[DH:.*]] = arith.truncf %[[D]] : f32 to f16
// CHECK-NEXT:      %[[DE:.*]] = arith.extf %[[DH]] : f16 to f32
// CHECK-NEXT:      %[[M:.*]] = arith.mulf %[[DE]], %[[DE]] : f32
// CHECK-NEXT:      %[[MH:.*]] = arith.truncf %[[M]] : f32 to f16
// CHECK-NEXT:      %[[ME:.*]] = arith.extf %[[MH]] : f16 to f32
// CHECK-NEXT:      linalg.yield %[[MH]], %[[ME]] : f16, f32
// CHECK-NEXT:    } -> (tensor<2x5xf16>, tensor<2x5xf32>)
// CHECK-NOT:     linalg.generic
// CHECK:         return
func.func @f16(%x: tensor<2x5xf16>, %b: tensor<2x1xf16>) -> (tensor<2x5xf16>, tensor<2x5xf32>) {
  %r:2 = rlx.region elementwise ins(%x, %b : tensor<2x5xf16>, tensor<2x1xf16>) -> tensor<2x5xf16>, tensor<2x5xf32> {
  ^bb0(%a: tensor<2x5xf16>, %c: tensor<2x1xf16>):
    %0 = rlx.sub %a, %c : (tensor<2x5xf16>, tensor<2x1xf16>) -> tensor<2x5xf16>
    %1 = rlx.mul %0, %0 : (tensor<2x5xf16>, tensor<2x5xf16>) -> tensor<2x5xf16>
    %2 = rlx.cast %1 : tensor<2x5xf16> -> tensor<2x5xf32>
    rlx.yield %1, %2 : tensor<2x5xf16>, tensor<2x5xf32>
  }
  return %r#0, %r#1 : tensor<2x5xf16>, tensor<2x5xf32>
}

// -----

// bf16 intermediates are rounded the same way.
// CHECK-LABEL: func.func @bf16_chain(
// CHECK-COUNT-1: linalg.generic
// CHECK:           %[[E:.*]] = math.exp %{{.*}} : f32
// CHECK-NEXT:      %[[EH:.*]] = arith.truncf %[[E]] : f32 to bf16
// CHECK-NEXT:      %[[EE:.*]] = arith.extf %[[EH]] : bf16 to f32
// CHECK-NEXT:      %[[N:.*]] = arith.negf %[[EE]] : f32
// CHECK-NEXT:      %[[NH:.*]] = arith.truncf %[[N]] : f32 to bf16
// CHECK:           linalg.yield %[[NH]] : bf16
// CHECK-NOT:     linalg.generic
// CHECK:         return
func.func @bf16_chain(%x: tensor<3xbf16>) -> tensor<3xbf16> {
  %r = rlx.region elementwise ins(%x : tensor<3xbf16>) -> tensor<3xbf16> {
  ^bb0(%a: tensor<3xbf16>):
    %0 = rlx.exp %a : tensor<3xbf16>
    %1 = rlx.neg %0 : tensor<3xbf16>
    rlx.yield %1 : tensor<3xbf16>
  }
  return %r : tensor<3xbf16>
}

// -----

// A row region becomes an rlx.rows with the same body and a tensor.empty
// destination per result, which the codegen layer tiles by rows and
// decomposes (test/Codegen/Common/tile-and-fuse-rows.mlir).
// CHECK-LABEL: func.func @row_center(
// CHECK-SAME:      %[[X:[a-z0-9]+]]: tensor<4x8xf32>)
// CHECK:         %[[EMPTY:.*]] = tensor.empty() : tensor<4x8xf32>
// CHECK:         %[[ROWS:.*]] = rlx.rows ins(%[[X]] : tensor<4x8xf32>) outs(%[[EMPTY]] : tensor<4x8xf32>) {
// CHECK-NEXT:    ^bb0(%[[A:.*]]: tensor<4x8xf32>):
// CHECK-NEXT:      %[[MEAN:.*]] = rlx.reduce mean %[[A]] axes = [1] keep_dim
// CHECK:           rlx.yield
// CHECK-NEXT:    } -> tensor<4x8xf32>
// CHECK-NEXT:    return %[[ROWS]] : tensor<4x8xf32>
func.func @row_center(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %r = rlx.region row ins(%x : tensor<4x8xf32>) -> tensor<4x8xf32> {
  ^bb0(%a: tensor<4x8xf32>):
    %0 = rlx.reduce mean %a axes = [1] keep_dim : tensor<4x8xf32> -> tensor<4x1xf32>
    %1 = rlx.sub %a, %0 : (tensor<4x8xf32>, tensor<4x1xf32>) -> tensor<4x8xf32>
    %2 = rlx.mul %1, %1 : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
    %3 = rlx.reduce sum %2 axes = [1] keep_dim : tensor<4x8xf32> -> tensor<4x1xf32>
    %4 = rlx.div %1, %3 : (tensor<4x8xf32>, tensor<4x1xf32>) -> tensor<4x8xf32>
    rlx.yield %4 : tensor<4x8xf32>
  }
  return %r : tensor<4x8xf32>
}

// -----

// Several results: one destination each, per-element and per-row.
// CHECK-LABEL: func.func @row_middle_axis(
// CHECK-DAG:     %[[E0:.*]] = tensor.empty() : tensor<2x5x3xf32>
// CHECK-DAG:     %[[E1:.*]] = tensor.empty() : tensor<2x1x3xf32>
// CHECK:         %[[ROWS:.*]]:2 = rlx.rows ins(%{{.*}} : tensor<2x5x3xf32>) outs(%[[E0]], %[[E1]] : tensor<2x5x3xf32>, tensor<2x1x3xf32>)
// CHECK:         } -> tensor<2x5x3xf32>, tensor<2x1x3xf32>
// CHECK-NEXT:    return %[[ROWS]]#0, %[[ROWS]]#1
func.func @row_middle_axis(%x: tensor<2x5x3xf32>) -> (tensor<2x5x3xf32>, tensor<2x1x3xf32>) {
  %r:2 = rlx.region row ins(%x : tensor<2x5x3xf32>) -> tensor<2x5x3xf32>, tensor<2x1x3xf32> {
  ^bb0(%a: tensor<2x5x3xf32>):
    %0 = rlx.reduce sum %a axes = [1] keep_dim : tensor<2x5x3xf32> -> tensor<2x1x3xf32>
    %1 = rlx.mul %a, %0 : (tensor<2x5x3xf32>, tensor<2x1x3xf32>) -> tensor<2x5x3xf32>
    rlx.yield %1, %0 : tensor<2x5x3xf32>, tensor<2x1x3xf32>
  }
  return %r#0, %r#1 : tensor<2x5x3xf32>, tensor<2x1x3xf32>
}

// -----

// A reduction region: the elementwise chain (sub, mul) is computed inside
// one reduction generic that carries both accumulators (sum from 0, max
// from -inf); each result gets its finishing generic, and the keep_dim one
// an expand_shape.
// CHECK-DAG:   #[[ID:map[0-9]*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG:   #[[ACC:map[0-9]*]] = affine_map<(d0, d1) -> (d1)>
// CHECK-LABEL: func.func @reduction_two_results(
// CHECK-SAME:      %[[X:[a-z0-9]+]]: tensor<3x5xf32>, %[[Y:[a-z0-9]+]]: tensor<3x5xf32>)
// CHECK-NOT:     rlx.
// CHECK:         %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK:         %[[SINIT:.*]] = linalg.fill ins(%[[ZERO]] : f32) outs(%{{.*}} : tensor<5xf32>)
// CHECK:         %[[NEGINF:.*]] = arith.constant 0xFF800000 : f32
// CHECK:         %[[MINIT:.*]] = linalg.fill ins(%[[NEGINF]] : f32) outs(%{{.*}} : tensor<5xf32>)
// CHECK:         %[[RED:.*]]:2 = linalg.generic
// CHECK-SAME:        indexing_maps = [#[[ID]], #[[ID]], #[[ACC]], #[[ACC]]]
// CHECK-SAME:        iterator_types = ["reduction", "parallel"]
// CHECK-SAME:        ins(%[[X]], %[[Y]] : tensor<3x5xf32>, tensor<3x5xf32>) outs(%[[SINIT]], %[[MINIT]] : tensor<5xf32>, tensor<5xf32>)
// CHECK-NEXT:    ^bb0(%[[A:[a-z0-9_]+]]: f32, %[[B:[a-z0-9_]+]]: f32, %[[SACC:[a-z0-9_]+]]: f32, %[[MACC:[a-z0-9_]+]]: f32):
// CHECK-NEXT:      %[[D:.*]] = arith.subf %[[A]], %[[B]] : f32
// CHECK-NEXT:      %[[D2:.*]] = arith.mulf %[[D]], %[[D]] : f32
// CHECK-NEXT:      %[[S:.*]] = arith.addf %[[SACC]], %[[D2]] : f32
// CHECK-NEXT:      %[[M:.*]] = arith.maximumf %[[MACC]], %[[D]] : f32
// CHECK-NEXT:      linalg.yield %[[S]], %[[M]] : f32, f32
// CHECK-NEXT:    } -> (tensor<5xf32>, tensor<5xf32>)
// CHECK:         %[[FS:.*]] = linalg.generic {{.*}} ins(%[[RED]]#0 : tensor<5xf32>)
// CHECK:         %[[FM:.*]] = linalg.generic {{.*}} ins(%[[RED]]#1 : tensor<5xf32>)
// CHECK:         %[[E:.*]] = tensor.expand_shape %[[FM]] {{\[\[}}0, 1]] output_shape [1, 5] : tensor<5xf32> into tensor<1x5xf32>
// CHECK:         return %[[FS]], %[[E]] : tensor<5xf32>, tensor<1x5xf32>
func.func @reduction_two_results(%x: tensor<3x5xf32>, %y: tensor<3x5xf32>) -> (tensor<5xf32>, tensor<1x5xf32>) {
  %r:2 = rlx.region reduction ins(%x, %y : tensor<3x5xf32>, tensor<3x5xf32>) -> tensor<5xf32>, tensor<1x5xf32> {
  ^bb0(%a: tensor<3x5xf32>, %b: tensor<3x5xf32>):
    %0 = rlx.sub %a, %b : (tensor<3x5xf32>, tensor<3x5xf32>) -> tensor<3x5xf32>
    %1 = rlx.mul %0, %0 : (tensor<3x5xf32>, tensor<3x5xf32>) -> tensor<3x5xf32>
    %2 = rlx.reduce sum %1 axes = [0] : tensor<3x5xf32> -> tensor<5xf32>
    %3 = rlx.reduce max %0 axes = [0] keep_dim : tensor<3x5xf32> -> tensor<1x5xf32>
    rlx.yield %2, %3 : tensor<5xf32>, tensor<1x5xf32>
  }
  return %r#0, %r#1 : tensor<5xf32>, tensor<1x5xf32>
}

// -----

// A contraction region: the matmul lowers to linalg.fill + linalg.matmul and
// the epilogue (bias add, gelu) is one elementwise generic reading the
// matmul's result and the bias.
// CHECK-DAG:   #[[ID:map[0-9]*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG:   #[[BIAS:map[0-9]*]] = affine_map<(d0, d1) -> (d1)>
// CHECK-LABEL: func.func @contraction_epilogue(
// CHECK-SAME:      %[[X:[a-z0-9]+]]: tensor<4x8xf32>, %[[W:[a-z0-9]+]]: tensor<8x16xf32>, %[[B:[a-z0-9]+]]: tensor<16xf32>)
// CHECK-NOT:     rlx.
// CHECK:         %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK:         %[[INIT:.*]] = linalg.fill ins(%[[ZERO]] : f32) outs(%{{.*}} : tensor<4x16xf32>)
// CHECK:         %[[MM:.*]] = linalg.matmul ins(%[[X]], %[[W]] : tensor<4x8xf32>, tensor<8x16xf32>) outs(%[[INIT]] : tensor<4x16xf32>)
// CHECK:         %[[R:.*]] = linalg.generic
// CHECK-SAME:        indexing_maps = [#[[BIAS]], #[[ID]], #[[ID]]]
// CHECK-SAME:        iterator_types = ["parallel", "parallel"]
// CHECK-SAME:        ins(%[[B]], %[[MM]] : tensor<16xf32>, tensor<4x16xf32>)
// CHECK-NEXT:    ^bb0(%[[IB:[a-z0-9_]+]]: f32, %[[IM:[a-z0-9_]+]]: f32, %{{[a-z0-9_]+}}: f32):
// CHECK-NEXT:      %[[A:.*]] = arith.addf %[[IM]], %[[IB]] : f32
// CHECK:           math.erf
// CHECK:           linalg.yield
// CHECK-NEXT:    } -> tensor<4x16xf32>
// CHECK-NOT:     linalg.generic
// CHECK:         return %[[R]] : tensor<4x16xf32>
func.func @contraction_epilogue(%x: tensor<4x8xf32>, %w: tensor<8x16xf32>, %b: tensor<16xf32>) -> tensor<4x16xf32> {
  %r = rlx.region contraction ins(%x, %w, %b : tensor<4x8xf32>, tensor<8x16xf32>, tensor<16xf32>) -> tensor<4x16xf32> {
  ^bb0(%a: tensor<4x8xf32>, %c: tensor<8x16xf32>, %d: tensor<16xf32>):
    %0 = rlx.matmul %a, %c : (tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>
    %1 = rlx.add %0, %d : (tensor<4x16xf32>, tensor<16xf32>) -> tensor<4x16xf32>
    %2 = rlx.gelu %1 : tensor<4x16xf32>
    rlx.yield %2 : tensor<4x16xf32>
  }
  return %r : tensor<4x16xf32>
}
