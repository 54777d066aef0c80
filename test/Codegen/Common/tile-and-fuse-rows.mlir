// RUN: rlx-opt %s --rlx-tile-and-fuse --canonicalize -split-input-file | FileCheck %s

// rlx.rows tiled by its lowering_config and decomposed per tile. One row
// per thread tile: per row, each stage of dependent reductions is one
// reduction generic over the row slice, finished (the mean's division by 8)
// by a generic over the kept dimensions (one value per row). The centered
// row is read by the second stage and by the result, so it is computed once
// (staged); the final generic writes the row's slice of the result.
// CHECK-DAG:   #[[ID:map[0-9]*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG:   #[[ACC:map[0-9]*]] = affine_map<(d0, d1) -> (d0)>
// CHECK-DAG:   #[[ROW:map[0-9]*]] = affine_map<(d0) -> (d0)>
// CHECK-LABEL: func.func @row_center(
// CHECK-SAME:      %[[X:[a-z0-9]+]]: tensor<4x8xf32>)
// CHECK-NOT:     rlx.
// CHECK:         %[[FORALL:.*]] = scf.forall (%[[I:.*]]) in (4) shared_outs(%[[OUT:.*]] = %{{.*}}) -> (tensor<4x8xf32>) {
// CHECK:           %[[XR:.*]] = tensor.extract_slice %[[X]][%[[I]], 0] [1, 8] [1, 1] : tensor<4x8xf32> to tensor<1x8xf32>
// CHECK:           %[[OUTR:.*]] = tensor.extract_slice %[[OUT]][%[[I]], 0] [1, 8] [1, 1]
// CHECK:           %[[SUM:.*]] = linalg.generic
// CHECK-SAME:          indexing_maps = [#[[ID]], #[[ACC]]], iterator_types = ["parallel", "reduction"]
// CHECK-SAME:          ins(%[[XR]] : tensor<1x8xf32>) outs(%{{.*}} : tensor<1xf32>)
// CHECK:             arith.addf
// CHECK:           %[[MEAN:.*]] = linalg.generic
// CHECK-SAME:          indexing_maps = [#[[ROW]], #[[ROW]]], iterator_types = ["parallel"]
// CHECK-SAME:          ins(%[[SUM]] : tensor<1xf32>) outs(%{{.*}} : tensor<1xf32>)
// CHECK:             arith.divf %{{.*}}, %{{.*}} : f32
// CHECK:           %[[CEN:.*]] = linalg.generic
// CHECK-SAME:          indexing_maps = [#[[ID]], #[[ACC]], #[[ID]]]
// CHECK-SAME:          ins(%[[XR]], %[[MEAN]] : tensor<1x8xf32>, tensor<1xf32>)
// CHECK:             arith.subf
// CHECK:           %[[SQ:.*]] = linalg.generic
// CHECK-SAME:          iterator_types = ["parallel", "reduction"]
// CHECK-SAME:          ins(%[[CEN]] : tensor<1x8xf32>)
// CHECK:             %[[M:.*]] = arith.mulf %[[C:.*]], %[[C]] : f32
// CHECK:             arith.addf %{{.*}}, %[[M]] : f32
// CHECK:           %[[R:.*]] = linalg.generic
// CHECK-SAME:          indexing_maps = [#[[ID]], #[[ACC]], #[[ID]]]
// CHECK-SAME:          ins(%[[CEN]], %[[SQ]] : tensor<1x8xf32>, tensor<1xf32>) outs(%[[OUTR]] : tensor<1x8xf32>)
// CHECK:             arith.divf
// CHECK:           scf.forall.in_parallel {
// CHECK-NEXT:        tensor.parallel_insert_slice %[[R]] into %[[OUT]][%[[I]], 0] [1, 8] [1, 1] : tensor<1x8xf32> into tensor<4x8xf32>
// CHECK:         return %[[FORALL]] : tensor<4x8xf32>
func.func @row_center(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  %r = rlx.rows ins(%x : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) attributes {rlx.lowering_config = #rlx.lowering_config<distribution = [1, 0], cache = [0, 0], vector = [0, 0]>} {
  ^bb0(%a: tensor<4x8xf32>):
    %0 = rlx.reduce mean %a axes = [1] keep_dim : tensor<4x8xf32> -> tensor<4x1xf32>
    %1 = rlx.sub %a, %0 : (tensor<4x8xf32>, tensor<4x1xf32>) -> tensor<4x8xf32>
    %2 = rlx.mul %1, %1 : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
    %3 = rlx.reduce sum %2 axes = [1] keep_dim : tensor<4x8xf32> -> tensor<4x1xf32>
    %4 = rlx.div %1, %3 : (tensor<4x8xf32>, tensor<4x1xf32>) -> tensor<4x8xf32>
    rlx.yield %4 : tensor<4x8xf32>
  } -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}

// -----

// Rows as cache tiles (steps of an scf.for on the calling thread), over the
// kept axes around the reduced middle one. Per-row values live in tensors
// over the kept dimensions ([1, 1] per tile); the per-row result is
// expanded back to the row's [1, 1, 1] and inserted next to the row's
// elements; a broadcast input (%s, one value per row) is sliced like the
// rows and read by the per-row generic with its row axis pinned to 0.
// CHECK-DAG:   #[[KEPT:map[0-9]*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG:   #[[SROW:map[0-9]*]] = affine_map<(d0, d1) -> (d0, 0, d1)>
// CHECK-LABEL: func.func @row_middle_axis(
// CHECK-SAME:      %[[X:[a-z0-9]+]]: tensor<2x5x3xf32>, %[[S:[a-z0-9]+]]: tensor<2x1x1xf32>)
// CHECK:         scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[OUT0:.*]] = %{{.*}}, %[[OUT1:.*]] = %{{.*}})
// CHECK:           scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[OUT2:.*]] = %[[OUT0]], %[[OUT3:.*]] = %[[OUT1]])
// CHECK-DAG:         tensor.extract_slice %[[X]][%[[I]], 0, %[[J]]] [1, 5, 1] [1, 1, 1] : tensor<2x5x3xf32> to tensor<1x5x1xf32>
// CHECK-DAG:         %[[SR:.*]] = tensor.extract_slice %[[S]][%[[I]], 0, 0] [1, 1, 1] [1, 1, 1]
// CHECK:             %[[SUM:.*]] = linalg.generic
// CHECK-SAME:            iterator_types = ["parallel", "reduction", "parallel"]
// CHECK-SAME:            outs(%{{.*}} : tensor<1x1xf32>)
// CHECK:             %[[ROW:.*]] = linalg.generic
// CHECK-SAME:            indexing_maps = [#[[KEPT]], #[[SROW]], #[[KEPT]]]
// CHECK-SAME:            ins(%[[SUM]], %[[SR]] : tensor<1x1xf32>, tensor<1x1x1xf32>) outs(%{{.*}} : tensor<1x1xf32>)
// CHECK:               arith.mulf
// CHECK:             %[[ELEM:.*]] = linalg.generic
// CHECK-SAME:            iterator_types = ["parallel", "parallel", "parallel"]
// CHECK-SAME:            ins(%{{.*}}, %[[ROW]] : tensor<1x5x1xf32>, tensor<1x1xf32>)
// CHECK:             %[[ROW3:.*]] = tensor.expand_shape %[[ROW]] {{\[\[}}0, 1], [2]] output_shape [1, 1, 1]
// CHECK:             tensor.insert_slice %[[ELEM]] into %[[OUT2]][%[[I]], 0, %[[J]]] [1, 5, 1]
// CHECK:             tensor.insert_slice %[[ROW3]] into %[[OUT3]][%[[I]], 0, %[[J]]] [1, 1, 1]
func.func @row_middle_axis(%x: tensor<2x5x3xf32>, %s: tensor<2x1x1xf32>) -> (tensor<2x5x3xf32>, tensor<2x1x3xf32>) {
  %e0 = tensor.empty() : tensor<2x5x3xf32>
  %e1 = tensor.empty() : tensor<2x1x3xf32>
  %r:2 = rlx.rows ins(%x, %s : tensor<2x5x3xf32>, tensor<2x1x1xf32>) outs(%e0, %e1 : tensor<2x5x3xf32>, tensor<2x1x3xf32>) attributes {rlx.lowering_config = #rlx.lowering_config<distribution = [0, 0, 0], cache = [1, 0, 1], vector = [0, 0, 0]>} {
  ^bb0(%a: tensor<2x5x3xf32>, %b: tensor<2x1x1xf32>):
    %0 = rlx.reduce sum %a axes = [1] keep_dim : tensor<2x5x3xf32> -> tensor<2x1x3xf32>
    %1 = rlx.mul %0, %b : (tensor<2x1x3xf32>, tensor<2x1x1xf32>) -> tensor<2x1x3xf32>
    %2 = rlx.mul %a, %1 : (tensor<2x5x3xf32>, tensor<2x1x3xf32>) -> tensor<2x5x3xf32>
    rlx.yield %2, %1 : tensor<2x5x3xf32>, tensor<2x1x3xf32>
  } -> tensor<2x5x3xf32>, tensor<2x1x3xf32>
  return %r#0, %r#1 : tensor<2x5x3xf32>, tensor<2x1x3xf32>
}

// -----

// A row axis of size 1, untiled: every value is one per row, so there is no
// reduction generic; one generic over the kept dimension computes exp, the
// sum (a combine with the identity 0) and the quotient, rounding each f16
// intermediate as the unfused ops store it, and yields only the result.
// CHECK-LABEL: func.func @row_size_one(
// CHECK-SAME:      %[[X:[a-z0-9]+]]: tensor<4x1xf16>)
// CHECK-NOT:     scf.forall
// CHECK:         %[[R:.*]] = linalg.generic
// CHECK-SAME:        iterator_types = ["parallel"]
// CHECK-SAME:        ins(%[[X]] : tensor<4x1xf16>) outs(%{{.*}} : tensor<4xf16>)
// CHECK:           %[[VE:.*]] = arith.extf %{{.*}} : f16 to f32
// CHECK:           %[[E:.*]] = math.exp %[[VE]] : f32
// CHECK:           %[[EH:.*]] = arith.truncf %[[E]] : f32 to f16
// CHECK:           %[[EE:.*]] = arith.extf %[[EH]] : f16 to f32
// CHECK:           %[[S:.*]] = arith.addf %[[EE]], %{{.*}} : f32
// CHECK:           %[[SH:.*]] = arith.truncf %[[S]] : f32 to f16
// CHECK:           %[[SE:.*]] = arith.extf %[[SH]] : f16 to f32
// CHECK:           %[[Q:.*]] = arith.divf %[[EE]], %[[SE]] : f32
// CHECK:           %[[QH:.*]] = arith.truncf %[[Q]] : f32 to f16
// CHECK:           linalg.yield %[[QH]] : f16
// CHECK:         %[[R2:.*]] = tensor.expand_shape %[[R]] {{\[\[}}0, 1]] output_shape [4, 1]
// CHECK:         return %[[R2]]
func.func @row_size_one(%x: tensor<4x1xf16>) -> tensor<4x1xf16> {
  %e = tensor.empty() : tensor<4x1xf16>
  %r = rlx.rows ins(%x : tensor<4x1xf16>) outs(%e : tensor<4x1xf16>) attributes {rlx.lowering_config = #rlx.lowering_config<distribution = [0, 0], cache = [0, 0], vector = [0, 0]>} {
  ^bb0(%a: tensor<4x1xf16>):
    %ex = rlx.exp %a : tensor<4x1xf16>
    %0 = rlx.reduce sum %ex axes = [1] keep_dim : tensor<4x1xf16> -> tensor<4x1xf16>
    %1 = rlx.div %ex, %0 : (tensor<4x1xf16>, tensor<4x1xf16>) -> tensor<4x1xf16>
    rlx.yield %1 : tensor<4x1xf16>
  } -> tensor<4x1xf16>
  return %r : tensor<4x1xf16>
}

// -----

// Guarded `?` rows (min_parallel_iterations): the rows and their
// elementwise consumer are versioned together, so that the version with
// thread tiles computes the consumer's tile in the same iteration; the
// other version steps through the rows on the calling thread and leaves
// the consumer to be tiled on its own. Nothing is left before the scf.if.
// CHECK-LABEL: func.func @guarded_rows_and_consumer(
// CHECK:         %[[PARALLEL:.*]] = arith.cmpi uge
// CHECK-NOT:     linalg.
// CHECK:         %[[RESULT:.*]] = scf.if %[[PARALLEL]] -> (tensor<?x8xf32>) {
// CHECK:           scf.forall (%{{.*}}) in (%{{.*}})
// CHECK:             arith.divf
// CHECK:             math.exp
// CHECK:             scf.forall.in_parallel
// CHECK:         } else {
// CHECK-NOT:       scf.forall
// CHECK:           scf.for
// CHECK:             arith.divf
// CHECK:           math.exp
// CHECK:         return %[[RESULT]]
#id2 = affine_map<(i, j) -> (i, j)>
func.func @guarded_rows_and_consumer(%x: tensor<?x8xf32>) -> tensor<?x8xf32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?x8xf32>
  %e = tensor.empty(%n) : tensor<?x8xf32>
  %r = rlx.rows ins(%x : tensor<?x8xf32>) outs(%e : tensor<?x8xf32>) attributes {rlx.lowering_config = #rlx.lowering_config<distribution = [1, 0], cache = [1, 0], vector = [0, 0], min_parallel_iterations = 1024>} {
  ^bb0(%a: tensor<?x8xf32>):
    %0 = rlx.reduce sum %a axes = [1] keep_dim : tensor<?x8xf32> -> tensor<?x1xf32>
    %1 = rlx.div %a, %0 : (tensor<?x8xf32>, tensor<?x1xf32>) -> tensor<?x8xf32>
    rlx.yield %1 : tensor<?x8xf32>
  } -> tensor<?x8xf32>
  %out = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%r : tensor<?x8xf32>) outs(%e : tensor<?x8xf32>)
      attrs = {rlx.lowering_config = #rlx.lowering_config<distribution = [1, 0], cache = [0, 0], vector = [1, 8], min_parallel_iterations = 1024>} {
  ^bb0(%v: f32, %o: f32):
    %s = math.exp %v : f32
    linalg.yield %s : f32
  } -> tensor<?x8xf32>
  return %out : tensor<?x8xf32>
}

// -----

// The same rows whose consumer is the left prologue of a guarded matmul
// (an RMS norm's scaling before a projection): the rows' versions leave the
// consumer out, and the matmul's version with thread tiles computes it per
// tile, as a static matmul does.
// CHECK-LABEL: func.func @guarded_rows_and_matmul_prologue(
// CHECK:         scf.if
// CHECK:           scf.forall
// CHECK-NOT:         math.exp
// CHECK:             scf.forall.in_parallel
// CHECK:         } else {
// CHECK-NOT:       math.exp
// CHECK:         }
// CHECK:         scf.if
// CHECK:           scf.forall
// CHECK:             math.exp
// CHECK:             linalg.matmul
// CHECK:             scf.forall.in_parallel
#pro = affine_map<(i, j) -> (i, j)>
func.func @guarded_rows_and_matmul_prologue(%x: tensor<?x8xf32>, %w: tensor<8x16xf32>) -> tensor<?x16xf32> {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %n = tensor.dim %x, %c0 : tensor<?x8xf32>
  %e = tensor.empty(%n) : tensor<?x8xf32>
  %r = rlx.rows ins(%x : tensor<?x8xf32>) outs(%e : tensor<?x8xf32>) attributes {rlx.lowering_config = #rlx.lowering_config<distribution = [1, 0], cache = [1, 0], vector = [0, 0], min_parallel_iterations = 1024>} {
  ^bb0(%a: tensor<?x8xf32>):
    %0 = rlx.reduce sum %a axes = [1] keep_dim : tensor<?x8xf32> -> tensor<?x1xf32>
    %1 = rlx.div %a, %0 : (tensor<?x8xf32>, tensor<?x1xf32>) -> tensor<?x8xf32>
    rlx.yield %1 : tensor<?x8xf32>
  } -> tensor<?x8xf32>
  %scaled = linalg.generic {indexing_maps = [#pro, #pro], iterator_types = ["parallel", "parallel"]}
      ins(%r : tensor<?x8xf32>) outs(%e : tensor<?x8xf32>)
      attrs = {rlx.lowering_config = #rlx.lowering_config<distribution = [1, 0], cache = [0, 0], vector = [1, 8], min_parallel_iterations = 1024>} {
  ^bb0(%v: f32, %o: f32):
    %s = math.exp %v : f32
    linalg.yield %s : f32
  } -> tensor<?x8xf32>
  %init = tensor.empty(%n) : tensor<?x16xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%init : tensor<?x16xf32>) -> tensor<?x16xf32>
  %out = linalg.matmul {rlx.lowering_config = #rlx.lowering_config<distribution = [4, 0, 0], cache = [0, 0, 0], vector = [1, 16, 1], min_parallel_iterations = 1024>}
      ins(%scaled, %w : tensor<?x8xf32>, tensor<8x16xf32>) outs(%acc : tensor<?x16xf32>) -> tensor<?x16xf32>
  return %out : tensor<?x16xf32>
}
