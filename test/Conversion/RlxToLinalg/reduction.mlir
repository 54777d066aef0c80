// RUN: rlx-opt %s --rlx-to-linalg -split-input-file | FileCheck %s

// A standalone rlx.reduce is wrapped into a one-op `rlx.region reduction`,
// which lowers to one linalg.generic: reduced axes are "reduction" loops,
// the output map keeps the other dimensions, and the accumulator is filled
// with the combiner's identity (f16/bf16 accumulate in f32). A finishing
// parallel generic follows: the mean's division by the element count and/or
// the conversion to the storage type (it is a plain copy otherwise, which
// only --canonicalize erases). keep_dim re-inserts the reduced axes with one
// tensor.expand_shape of the finished value.

// CHECK-DAG:   #[[IN:map[0-9]*]] = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-DAG:   #[[OUT:map[0-9]*]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK-DAG:   #[[ID2:map[0-9]*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @sum_middle(
// CHECK-SAME:      %[[ARG:.*]]: tensor<2x3x4xf32>) -> tensor<2x4xf32>
// CHECK-NOT:     rlx.
// CHECK-DAG:     %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-DAG:     %[[EMPTY:.*]] = tensor.empty() : tensor<2x4xf32>
// CHECK:         %[[INIT:.*]] = linalg.fill ins(%[[ZERO]] : f32) outs(%[[EMPTY]] : tensor<2x4xf32>)
// CHECK:         %[[R:.*]] = linalg.generic
// CHECK-SAME:        indexing_maps = [#[[IN]], #[[OUT]]]
// CHECK-SAME:        iterator_types = ["parallel", "reduction", "parallel"]
// CHECK-SAME:        ins(%[[ARG]] : tensor<2x3x4xf32>) outs(%[[INIT]] : tensor<2x4xf32>)
// CHECK:         ^bb0(%[[X:[a-z0-9_]+]]: f32, %[[ACC:[a-z0-9_]+]]: f32):
// CHECK:           %[[S:.*]] = arith.addf %[[ACC]], %[[X]] : f32
// CHECK-NEXT:      linalg.yield %[[S]] : f32
// CHECK:         %[[FIN:.*]] = linalg.generic
// CHECK-SAME:        indexing_maps = [#[[ID2]], #[[ID2]]]
// CHECK-SAME:        iterator_types = ["parallel", "parallel"]
// CHECK-SAME:        ins(%[[R]] : tensor<2x4xf32>)
// CHECK-NEXT:    ^bb0(%[[V:[a-z0-9_]+]]: f32, %{{[a-z0-9_]+}}: f32):
// CHECK-NEXT:      linalg.yield %[[V]] : f32
// CHECK:         return %[[FIN]] : tensor<2x4xf32>
func.func @sum_middle(%a: tensor<2x3x4xf32>) -> tensor<2x4xf32> {
  %0 = rlx.reduce sum %a axes = [1] : tensor<2x3x4xf32> -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

// Negative axes count from the end. prod starts at 1.

// CHECK-DAG:   #[[OUT:map[0-9]*]] = affine_map<(d0, d1) -> (d0)>
// CHECK-LABEL: func.func @prod_i32(
// CHECK:         %[[ONE:.*]] = arith.constant 1 : i32
// CHECK:         %[[INIT:.*]] = linalg.fill ins(%[[ONE]] : i32) outs(%{{.*}} : tensor<2xi32>)
// CHECK:         %[[P:.*]] = linalg.generic
// CHECK-SAME:        indexing_maps = [#{{map[0-9]*}}, #[[OUT]]]
// CHECK-SAME:        iterator_types = ["parallel", "reduction"]
// CHECK-SAME:        outs(%[[INIT]] : tensor<2xi32>)
// CHECK:         ^bb0(%[[X:[a-z0-9_]+]]: i32, %[[ACC:[a-z0-9_]+]]: i32):
// CHECK:           %[[M:.*]] = arith.muli %[[ACC]], %[[X]] : i32
// CHECK-NEXT:      linalg.yield %[[M]] : i32
// CHECK:         %[[FIN:.*]] = linalg.generic
// CHECK-SAME:        ins(%[[P]] : tensor<2xi32>)
// CHECK:         return %[[FIN]] : tensor<2xi32>
func.func @prod_i32(%a: tensor<2x3xi32>) -> tensor<2xi32> {
  %0 = rlx.reduce prod %a axes = [-1] : tensor<2x3xi32> -> tensor<2xi32>
  return %0 : tensor<2xi32>
}

// -----

// max starts at -inf and propagates NaN; f16 accumulates in f32 (extf in the
// reduction body) and the finishing generic rounds once to f16.

// CHECK-DAG:   #[[OUT:map[0-9]*]] = affine_map<(d0, d1) -> (d1)>
// CHECK-DAG:   #[[ID1:map[0-9]*]] = affine_map<(d0) -> (d0)>
// CHECK-LABEL: func.func @max_f16(
// CHECK-DAG:     %[[NEGINF:.*]] = arith.constant 0xFF800000 : f32
// CHECK-DAG:     %[[EMPTY:.*]] = tensor.empty() : tensor<3xf32>
// CHECK:         %[[INIT:.*]] = linalg.fill ins(%[[NEGINF]] : f32) outs(%[[EMPTY]] : tensor<3xf32>)
// CHECK:         %[[MAX:.*]] = linalg.generic
// CHECK-SAME:        indexing_maps = [#{{map[0-9]*}}, #[[OUT]]]
// CHECK-SAME:        iterator_types = ["reduction", "parallel"]
// CHECK-SAME:        ins(%{{.*}} : tensor<2x3xf16>) outs(%[[INIT]] : tensor<3xf32>)
// CHECK:         ^bb0(%[[X:[a-z0-9_]+]]: f16, %[[ACC:[a-z0-9_]+]]: f32):
// CHECK:           %[[XE:.*]] = arith.extf %[[X]] : f16 to f32
// CHECK:           %[[M:.*]] = arith.maximumf %[[ACC]], %[[XE]] : f32
// CHECK-NEXT:      linalg.yield %[[M]] : f32
// CHECK:         %[[R:.*]] = linalg.generic
// CHECK-SAME:        indexing_maps = [#[[ID1]], #[[ID1]]]
// CHECK-SAME:        ins(%[[MAX]] : tensor<3xf32>) outs(%{{.*}} : tensor<3xf16>)
// CHECK:           %[[T:.*]] = arith.truncf %{{.*}} : f32 to f16
// CHECK-NEXT:      linalg.yield %[[T]] : f16
// CHECK:         return %[[R]] : tensor<3xf16>
func.func @max_f16(%a: tensor<2x3xf16>) -> tensor<3xf16> {
  %0 = rlx.reduce max %a axes = [0] : tensor<2x3xf16> -> tensor<3xf16>
  return %0 : tensor<3xf16>
}

// -----

// min starts at +inf; f64 needs no conversion.

// CHECK-LABEL: func.func @min_f64(
// CHECK:         %[[INF:.*]] = arith.constant 0x7FF0000000000000 : f64
// CHECK:         linalg.fill ins(%[[INF]] : f64) outs(%{{.*}} : tensor<2xf64>)
// CHECK:         linalg.generic
// CHECK:           arith.minimumf %{{.*}}, %{{.*}} : f64
// CHECK-NOT:     arith.truncf
// CHECK:         return
func.func @min_f64(%a: tensor<2x3xf64>) -> tensor<2xf64> {
  %0 = rlx.reduce min %a axes = [1] : tensor<2x3xf64> -> tensor<2xf64>
  return %0 : tensor<2xf64>
}

// -----

// Integer max starts at the signed minimum, min at the signed maximum; the
// accumulator keeps the integer type.

// CHECK-LABEL: func.func @max_i8(
// CHECK:         %[[INIT:.*]] = arith.constant -128 : i8
// CHECK:         linalg.fill ins(%[[INIT]] : i8) outs(%{{.*}} : tensor<2xi8>)
// CHECK:         linalg.generic
// CHECK-SAME:        iterator_types = ["parallel", "reduction"]
// CHECK:           arith.maxsi %{{.*}}, %{{.*}} : i8
func.func @max_i8(%a: tensor<2x3xi8>) -> tensor<2xi8> {
  %0 = rlx.reduce max %a axes = [1] : tensor<2x3xi8> -> tensor<2xi8>
  return %0 : tensor<2xi8>
}
// CHECK-LABEL: func.func @min_i8(
// CHECK:         %[[INIT:.*]] = arith.constant 127 : i8
// CHECK:         linalg.fill ins(%[[INIT]] : i8)
// CHECK:           arith.minsi %{{.*}}, %{{.*}} : i8
func.func @min_i8(%a: tensor<2x3xi8>) -> tensor<2xi8> {
  %0 = rlx.reduce min %a axes = [1] : tensor<2x3xi8> -> tensor<2xi8>
  return %0 : tensor<2xi8>
}
// CHECK-LABEL: func.func @max_i64(
// CHECK:         %[[INIT:.*]] = arith.constant -9223372036854775808 : i64
// CHECK:         linalg.fill ins(%[[INIT]] : i64)
// CHECK:           arith.maxsi %{{.*}}, %{{.*}} : i64
func.func @max_i64(%a: tensor<2x3xi64>) -> tensor<2xi64> {
  %0 = rlx.reduce max %a axes = [1] : tensor<2x3xi64> -> tensor<2xi64>
  return %0 : tensor<2xi64>
}
// CHECK-LABEL: func.func @min_i64(
// CHECK:         %[[INIT:.*]] = arith.constant 9223372036854775807 : i64
// CHECK:         linalg.fill ins(%[[INIT]] : i64)
// CHECK:           arith.minsi %{{.*}}, %{{.*}} : i64
func.func @min_i64(%a: tensor<2x3xi64>) -> tensor<2xi64> {
  %0 = rlx.reduce min %a axes = [1] : tensor<2x3xi64> -> tensor<2xi64>
  return %0 : tensor<2xi64>
}
// CHECK-LABEL: func.func @sum_i16(
// CHECK:         %[[INIT:.*]] = arith.constant 0 : i16
// CHECK:         linalg.fill ins(%[[INIT]] : i16)
// CHECK:           arith.addi %{{.*}}, %{{.*}} : i16
func.func @sum_i16(%a: tensor<2x3xi16>) -> tensor<2xi16> {
  %0 = rlx.reduce sum %a axes = [1] : tensor<2x3xi16> -> tensor<2xi16>
  return %0 : tensor<2xi16>
}

// -----

// mean sums (in f32 for bf16); the finishing generic divides by the number
// of reduced elements (2 * 4 = 8) and then rounds to bf16. Axes may be given
// in any order.

// CHECK-DAG:   #[[IN:map[0-9]*]] = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-DAG:   #[[OUT:map[0-9]*]] = affine_map<(d0, d1, d2) -> (d1)>
// CHECK-DAG:   #[[ID1:map[0-9]*]] = affine_map<(d0) -> (d0)>
// CHECK-LABEL: func.func @mean_bf16(
// CHECK:         %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK:         %[[INIT:.*]] = linalg.fill ins(%[[ZERO]] : f32) outs(%{{.*}} : tensor<3xf32>)
// CHECK:         %[[SUM:.*]] = linalg.generic
// CHECK-SAME:        indexing_maps = [#[[IN]], #[[OUT]]]
// CHECK-SAME:        iterator_types = ["reduction", "parallel", "reduction"]
// CHECK-SAME:        outs(%[[INIT]] : tensor<3xf32>)
// CHECK:         ^bb0(%[[X:[a-z0-9_]+]]: bf16, %[[ACC:[a-z0-9_]+]]: f32):
// CHECK:           %[[XE:.*]] = arith.extf %[[X]] : bf16 to f32
// CHECK:           arith.addf %[[ACC]], %[[XE]] : f32
// CHECK:         %[[R:.*]] = linalg.generic
// CHECK-SAME:        indexing_maps = [#[[ID1]], #[[ID1]]]
// CHECK-SAME:        ins(%[[SUM]] : tensor<3xf32>) outs(%{{.*}} : tensor<3xbf16>)
// CHECK-NEXT:    ^bb0(%[[S:[a-z0-9_]+]]: f32, %{{[a-z0-9_]+}}: bf16):
// CHECK:           %[[N:.*]] = arith.constant 8.000000e+00 : f32
// CHECK:           %[[Q:.*]] = arith.divf %[[S]], %[[N]] : f32
// CHECK-NEXT:      %[[T:.*]] = arith.truncf %[[Q]] : f32 to bf16
// CHECK-NEXT:      linalg.yield %[[T]] : bf16
// CHECK:         return %[[R]] : tensor<3xbf16>
func.func @mean_bf16(%a: tensor<2x3x4xbf16>) -> tensor<3xbf16> {
  %0 = rlx.reduce mean %a axes = [2, 0] : tensor<2x3x4xbf16> -> tensor<3xbf16>
  return %0 : tensor<3xbf16>
}

// -----

// keep_dim re-inserts the reduced axes as size-1 dimensions with one
// expand_shape of the finished value. A leading reduced axis joins the
// group of the first kept axis; a later one joins the group of the kept
// axis before it.

// CHECK-LABEL: func.func @keep_dim_leading(
// CHECK:         %[[SUM:.*]] = linalg.generic
// CHECK-SAME:        iterator_types = ["reduction", "parallel", "reduction", "parallel"]
// CHECK:         } -> tensor<3x5xf32>
// CHECK:         %[[FIN:.*]] = linalg.generic
// CHECK-SAME:        ins(%[[SUM]] : tensor<3x5xf32>)
// CHECK:         %[[R:.*]] = tensor.expand_shape %[[FIN]] {{\[}}[0, 1, 2], [3]] output_shape [1, 3, 1, 5] : tensor<3x5xf32> into tensor<1x3x1x5xf32>
// CHECK:         return %[[R]]
func.func @keep_dim_leading(%a: tensor<2x3x4x5xf32>) -> tensor<1x3x1x5xf32> {
  %0 = rlx.reduce sum %a axes = [0, 2] keep_dim : tensor<2x3x4x5xf32> -> tensor<1x3x1x5xf32>
  return %0 : tensor<1x3x1x5xf32>
}

// CHECK-LABEL: func.func @keep_dim_trailing(
// CHECK:         %[[SUM:.*]] = linalg.generic
// CHECK-SAME:        iterator_types = ["parallel", "parallel", "reduction", "reduction"]
// CHECK:         } -> tensor<2x3xi32>
// CHECK:         %[[FIN:.*]] = linalg.generic
// CHECK-SAME:        ins(%[[SUM]] : tensor<2x3xi32>)
// CHECK:         %[[R:.*]] = tensor.expand_shape %[[FIN]] {{\[}}[0], [1, 2, 3]] output_shape [2, 3, 1, 1] : tensor<2x3xi32> into tensor<2x3x1x1xi32>
// CHECK:         return %[[R]]
func.func @keep_dim_trailing(%a: tensor<2x3x4x5xi32>) -> tensor<2x3x1x1xi32> {
  %0 = rlx.reduce sum %a axes = [3, 2] keep_dim : tensor<2x3x4x5xi32> -> tensor<2x3x1x1xi32>
  return %0 : tensor<2x3x1x1xi32>
}

// -----

// Reducing every axis gives a rank-0 accumulator (and a rank-0 finishing
// generic); keep_dim expands it with an empty reassociation.

// CHECK-DAG:   #[[ID:map[0-9]*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG:   #[[SCALAR:map[0-9]*]] = affine_map<(d0, d1) -> ()>
// CHECK-DAG:   #[[ID0:map[0-9]*]] = affine_map<() -> ()>
// CHECK-LABEL: func.func @sum_all(
// CHECK:         %[[EMPTY:.*]] = tensor.empty() : tensor<f32>
// CHECK:         %[[INIT:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%[[EMPTY]] : tensor<f32>) -> tensor<f32>
// CHECK:         %[[S:.*]] = linalg.generic
// CHECK-SAME:        indexing_maps = [#[[ID]], #[[SCALAR]]]
// CHECK-SAME:        iterator_types = ["reduction", "reduction"]
// CHECK-SAME:        outs(%[[INIT]] : tensor<f32>)
// CHECK:         } -> tensor<f32>
// CHECK:         %[[R:.*]] = linalg.generic
// CHECK-SAME:        indexing_maps = [#[[ID0]], #[[ID0]]]
// CHECK-SAME:        iterator_types = []
// CHECK-SAME:        ins(%[[S]] : tensor<f32>)
// CHECK:         } -> tensor<f32>
// CHECK-NEXT:    return %[[R]] : tensor<f32>
func.func @sum_all(%a: tensor<2x3xf32>) -> tensor<f32> {
  %0 = rlx.reduce sum %a axes = [0, 1] : tensor<2x3xf32> -> tensor<f32>
  return %0 : tensor<f32>
}

// CHECK-LABEL: func.func @sum_all_keep_dim(
// CHECK:         %[[SUM:.*]] = linalg.generic
// CHECK-SAME:        iterator_types = ["reduction", "reduction"]
// CHECK:         } -> tensor<f32>
// CHECK:         %[[FIN:.*]] = linalg.generic
// CHECK-SAME:        ins(%[[SUM]] : tensor<f32>)
// CHECK:         %[[R:.*]] = tensor.expand_shape %[[FIN]] [] output_shape [1, 1] : tensor<f32> into tensor<1x1xf32>
// CHECK:         return %[[R]] : tensor<1x1xf32>
func.func @sum_all_keep_dim(%a: tensor<2x3xf32>) -> tensor<1x1xf32> {
  %0 = rlx.reduce sum %a axes = [1, 0] keep_dim : tensor<2x3xf32> -> tensor<1x1xf32>
  return %0 : tensor<1x1xf32>
}

// -----

// mean with keep_dim: divide first, then expand.

// CHECK-LABEL: func.func @mean_keep_dim(
// CHECK:         %[[SUM:.*]] = linalg.generic
// CHECK-SAME:        iterator_types = ["parallel", "reduction"]
// CHECK:         %[[MEAN:.*]] = linalg.generic
// CHECK-SAME:        ins(%[[SUM]] : tensor<4xf32>)
// CHECK:           %[[N:.*]] = arith.constant 6.000000e+00 : f32
// CHECK:           arith.divf %{{.*}}, %[[N]] : f32
// CHECK:         } -> tensor<4xf32>
// CHECK:         %[[R:.*]] = tensor.expand_shape %[[MEAN]] {{\[}}[0, 1]] output_shape [4, 1] : tensor<4xf32> into tensor<4x1xf32>
// CHECK:         return %[[R]]
func.func @mean_keep_dim(%a: tensor<4x6xf32>) -> tensor<4x1xf32> {
  %0 = rlx.reduce mean %a axes = [1] keep_dim : tensor<4x6xf32> -> tensor<4x1xf32>
  return %0 : tensor<4x1xf32>
}

// -----

// softmax = exp(x - max) / sum(exp(x - max)) becomes an rlx.rows whose
// body is the decomposition (RowOps.cpp), which the codegen layer tiles by
// rows and lowers stage by stage (test/Codegen/Common/tile-and-fuse-rows.mlir).
// CHECK-LABEL: func.func @softmax(
// CHECK-SAME:      %[[X:.*]]: tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK:         %[[EMPTY:.*]] = tensor.empty() : tensor<2x3xf32>
// CHECK:         %[[ROWS:.*]] = rlx.rows ins(%[[X]] : tensor<2x3xf32>) outs(%[[EMPTY]] : tensor<2x3xf32>) {
// CHECK-NEXT:    ^bb0(%[[A:.*]]: tensor<2x3xf32>):
// CHECK-NEXT:      %[[MAX:.*]] = rlx.reduce max %[[A]] axes = [1] keep_dim
// CHECK-NEXT:      %[[D:.*]] = rlx.sub %[[A]], %[[MAX]]
// CHECK-NEXT:      %[[E:.*]] = rlx.exp %[[D]]
// CHECK-NEXT:      %[[SUM:.*]] = rlx.reduce sum %[[E]] axes = [1] keep_dim
// CHECK-NEXT:      %[[Q:.*]] = rlx.div %[[E]], %[[SUM]]
// CHECK-NEXT:      rlx.yield %[[Q]] : tensor<2x3xf32>
// CHECK:         return %[[ROWS]] : tensor<2x3xf32>
func.func @softmax(%a: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = rlx.softmax %a axis = -1 : tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// log_softmax = (x - max) - log(sum(exp(x - max))), along a middle axis:
// the rows are the (d0, d2) pairs. f16 is widened once at the start and
// rounded once at the end; the arithmetic is in f32.
// CHECK-LABEL: func.func @log_softmax_f16(
// CHECK-SAME:      %[[X:.*]]: tensor<2x3x4xf16>) -> tensor<2x3x4xf16>
// CHECK:         %[[ROWS:.*]] = rlx.rows ins(%[[X]] : tensor<2x3x4xf16>) outs(%{{.*}} : tensor<2x3x4xf16>) {
// CHECK-NEXT:    ^bb0(%[[A:.*]]: tensor<2x3x4xf16>):
// CHECK-NEXT:      %[[XF:.*]] = rlx.cast %[[A]] : tensor<2x3x4xf16> -> tensor<2x3x4xf32>
// CHECK-NEXT:      %[[MAX:.*]] = rlx.reduce max %[[XF]] axes = [1] keep_dim : tensor<2x3x4xf32> -> tensor<2x1x4xf32>
// CHECK-NEXT:      %[[SH:.*]] = rlx.sub %[[XF]], %[[MAX]]
// CHECK-NEXT:      %[[E:.*]] = rlx.exp %[[SH]]
// CHECK-NEXT:      %[[SUM:.*]] = rlx.reduce sum %[[E]] axes = [1] keep_dim
// CHECK-NEXT:      %[[LOG:.*]] = rlx.log %[[SUM]] : tensor<2x1x4xf32>
// CHECK-NEXT:      %[[R:.*]] = rlx.sub %[[SH]], %[[LOG]]
// CHECK-NEXT:      %[[RH:.*]] = rlx.cast %[[R]] : tensor<2x3x4xf32> -> tensor<2x3x4xf16>
// CHECK-NEXT:      rlx.yield %[[RH]] : tensor<2x3x4xf16>
// CHECK:         return %[[ROWS]] : tensor<2x3x4xf16>
func.func @log_softmax_f16(%a: tensor<2x3x4xf16>) -> tensor<2x3x4xf16> {
  %0 = rlx.log_softmax %a axis = 1 : tensor<2x3x4xf16>
  return %0 : tensor<2x3x4xf16>
}
