// RUN: rlx-opt %s --rlx-to-linalg -split-input-file | FileCheck %s

// gather: the indices are read through a map onto the result dims they
// occupy; the table is read with tensor.extract at the wrapped (index + n
// when negative) and clamped ([0, n - 1]) coordinate.

// CHECK-DAG:   #[[IDX:map[0-9]*]] = affine_map<(d0, d1, d2, d3) -> (d1, d2)>
// CHECK-DAG:   #[[ID:map[0-9]*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// CHECK-LABEL: func.func @gather(
// CHECK-SAME:      %[[T:.*]]: tensor<3x10x4xf32>, %[[I:.*]]: tensor<2x5xi32>)
// CHECK:         %[[E:.*]] = tensor.empty() : tensor<3x2x5x4xf32>
// CHECK:         %[[R:.*]] = linalg.generic {indexing_maps = [#[[IDX]], #[[ID]]], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%[[I]] : tensor<2x5xi32>) outs(%[[E]] : tensor<3x2x5x4xf32>)
// CHECK-NEXT:    ^bb0(%[[IN:.*]]: i32, %{{.*}}: f32):
// CHECK-NEXT:      %[[D0:.*]] = linalg.index 0 : index
// CHECK-NEXT:      %[[CAST:.*]] = arith.index_cast %[[IN]] : i32 to index
// CHECK:           %[[NEG:.*]] = arith.cmpi slt, %[[CAST]], %{{.*}} : index
// CHECK:           %[[C10:.*]] = arith.constant 10 : index
// CHECK:           %[[UP:.*]] = arith.addi %[[CAST]], %[[C10]] : index
// CHECK:           %[[WRAP:.*]] = arith.select %[[NEG]], %[[UP]], %[[CAST]] : index
// CHECK:           %[[LO:.*]] = arith.maxsi %[[WRAP]], %{{.*}} : index
// CHECK:           %[[C9:.*]] = arith.constant 9 : index
// CHECK:           %[[AT:.*]] = arith.minsi %[[LO]], %[[C9]] : index
// CHECK:           %[[D3:.*]] = linalg.index 3 : index
// CHECK:           %[[X:.*]] = tensor.extract %[[T]][%[[D0]], %[[AT]], %[[D3]]] : tensor<3x10x4xf32>
// CHECK:           linalg.yield %[[X]] : f32
// CHECK:         return %[[R]]
func.func @gather(%t: tensor<3x10x4xf32>, %i: tensor<2x5xi32>) -> tensor<3x2x5x4xf32> {
  %0 = rlx.gather %t, %i axis = 1 : (tensor<3x10x4xf32>, tensor<2x5xi32>) -> tensor<3x2x5x4xf32>
  return %0 : tensor<3x2x5x4xf32>
}

// -----

// A rank-0 index is read through a map without results.

// CHECK-DAG:   #[[SCALAR:map[0-9]*]] = affine_map<(d0) -> ()>
// CHECK-LABEL: func.func @gather_rank0_index(
// CHECK:         linalg.generic {indexing_maps = [#[[SCALAR]], #{{.*}}]
// CHECK-SAME:      ins(%{{.*}} : tensor<i64>) outs(%{{.*}} : tensor<4xf16>)
// CHECK:           %[[D0:.*]] = linalg.index 0 : index
// CHECK:           %[[C5:.*]] = arith.constant 5 : index
// CHECK:           %[[AT:.*]] = arith.minsi %{{.*}}, %[[C5]] : index
// CHECK:           tensor.extract %{{.*}}[%[[D0]], %[[AT]]] : tensor<4x6xf16>
func.func @gather_rank0_index(%t: tensor<4x6xf16>, %i: tensor<i64>) -> tensor<4xf16> {
  %0 = rlx.gather %t, %i axis = 1 : (tensor<4x6xf16>, tensor<i64>) -> tensor<4xf16>
  return %0 : tensor<4xf16>
}

// -----

// gather_elements iterates over the indices; only the axis coordinate comes
// from them.

// CHECK-DAG:   #[[ID:map[0-9]*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @gather_elements(
// CHECK-SAME:      %[[X:.*]]: tensor<3x4xf32>, %[[I:.*]]: tensor<2x3xi64>)
// CHECK:         linalg.generic {indexing_maps = [#[[ID]], #[[ID]]], {{.*}}} ins(%[[I]] : tensor<2x3xi64>) outs(%{{.*}} : tensor<2x3xf32>)
// CHECK:           %[[D0:.*]] = linalg.index 0 : index
// CHECK:           arith.index_cast %{{.*}} : i64 to index
// CHECK:           %[[C3:.*]] = arith.constant 3 : index
// CHECK:           %[[AT:.*]] = arith.minsi %{{.*}}, %[[C3]] : index
// CHECK:           tensor.extract %[[X]][%[[D0]], %[[AT]]] : tensor<3x4xf32>
func.func @gather_elements(%x: tensor<3x4xf32>, %i: tensor<2x3xi64>) -> tensor<2x3xf32> {
  %0 = rlx.gather_elements %x, %i axis = 1 : (tensor<3x4xf32>, tensor<2x3xi64>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// Constant padding is tensor.pad yielding the value in the element type.

// CHECK-LABEL: func.func @pad_constant(
// CHECK-SAME:      %[[X:.*]]: tensor<2x5xi32>)
// CHECK:         %[[V:.*]] = arith.constant 7 : i32
// CHECK:         %[[R:.*]] = tensor.pad %[[X]] low[1, 0] high[0, 3]
// CHECK:           tensor.yield %[[V]] : i32
// CHECK:         } : tensor<2x5xi32> to tensor<3x8xi32>
// CHECK:         return %[[R]]
func.func @pad_constant(%x: tensor<2x5xi32>) -> tensor<3x8xi32> {
  %0 = rlx.pad constant %x pads = [1, 0, 0, 3] value = 7.0 : tensor<2x5xi32> -> tensor<3x8xi32>
  return %0 : tensor<3x8xi32>
}

// -----

// Negative pads crop first: a slice of what they leave, then tensor.pad.
// CHECK-DAG: #[[LEFT:.*]] = affine_map<()[s0] -> (s0 - 1)>
// CHECK-LABEL: func.func @pad_crop(
// CHECK-SAME:      %[[X:.*]]: tensor<?x5xf32>)
// CHECK:         %[[N:.*]] = tensor.dim %[[X]], %c0
// CHECK:         %[[LEFTN:.*]] = affine.apply #[[LEFT]]()[%[[N]]]
// CHECK:         %[[S:.*]] = tensor.extract_slice %[[X]][1, 0] [%[[LEFTN]], 3] [1, 1]
// CHECK:         tensor.pad %[[S]] low[0, 1] high[2, 0]
// CHECK:         } : tensor<?x3xf32> to tensor<?x4xf32>
func.func @pad_crop(%x: tensor<?x5xf32>) -> tensor<?x4xf32> {
  %0 = rlx.pad constant %x pads = [-1, 2, 1, -2] : tensor<?x5xf32> -> tensor<?x4xf32>
  return %0 : tensor<?x4xf32>
}

// -----

// A crop to nothing is an empty tensor.
// CHECK-LABEL: func.func @pad_crop_to_nothing(
// CHECK:         %[[E:.*]] = tensor.empty() : tensor<2x0xf32>
// CHECK-NEXT:    return %[[E]]
func.func @pad_crop_to_nothing(%x: tensor<2x3xf32>) -> tensor<2x0xf32> {
  %0 = rlx.pad constant %x pads = [0, 0, -2, -1] : tensor<2x3xf32> -> tensor<2x0xf32>
  return %0 : tensor<2x0xf32>
}

// -----

// CHECK-LABEL: func.func @pad_constant_default(
// CHECK:         %[[V:.*]] = arith.constant 0.000000e+00 : bf16
// CHECK:         tensor.pad %{{.*}} low[2] high[1]
// CHECK:           tensor.yield %[[V]] : bf16
func.func @pad_constant_default(%x: tensor<3xbf16>) -> tensor<6xbf16> {
  %0 = rlx.pad constant %x pads = [2, 1] : tensor<3xbf16> -> tensor<6xbf16>
  return %0 : tensor<6xbf16>
}

// -----

// Reflect: i = out - lo; a = max(i, -i); source = min(a, 2 (n - 1) - a).
// Unpadded dims read the loop index directly.

// CHECK-LABEL: func.func @pad_reflect(
// CHECK-SAME:      %[[X:.*]]: tensor<2x5xf32>)
// CHECK:         linalg.generic {indexing_maps = [#{{.*}}], iterator_types = ["parallel", "parallel"]} outs(%{{.*}} : tensor<2x9xf32>)
// CHECK:           %[[D0:.*]] = linalg.index 0 : index
// CHECK:           %[[D1:.*]] = linalg.index 1 : index
// CHECK:           %[[C1:.*]] = arith.constant 1 : index
// CHECK:           %[[I:.*]] = arith.subi %[[D1]], %[[C1]] : index
// CHECK:           %[[NEGI:.*]] = arith.subi %{{.*}}, %[[I]] : index
// CHECK:           %[[A:.*]] = arith.maxsi %[[I]], %[[NEGI]] : index
// CHECK:           %[[C8:.*]] = arith.constant 8 : index
// CHECK:           %[[B:.*]] = arith.subi %[[C8]], %[[A]] : index
// CHECK:           %[[S:.*]] = arith.minsi %[[A]], %[[B]] : index
// CHECK:           tensor.extract %[[X]][%[[D0]], %[[S]]] : tensor<2x5xf32>
func.func @pad_reflect(%x: tensor<2x5xf32>) -> tensor<2x9xf32> {
  %0 = rlx.pad reflect %x pads = [0, 0, 1, 3] : tensor<2x5xf32> -> tensor<2x9xf32>
  return %0 : tensor<2x9xf32>
}

// -----

// Replicate clamps out - lo to [0, n - 1].

// CHECK-LABEL: func.func @pad_replicate(
// CHECK:           %[[D0:.*]] = linalg.index 0 : index
// CHECK:           %[[C2:.*]] = arith.constant 2 : index
// CHECK:           %[[I:.*]] = arith.subi %[[D0]], %[[C2]] : index
// CHECK:           %[[C3:.*]] = arith.constant 3 : index
// CHECK:           %[[LO:.*]] = arith.maxsi %[[I]], %{{.*}} : index
// CHECK:           %[[S:.*]] = arith.minsi %[[LO]], %[[C3]] : index
// CHECK:           tensor.extract %{{.*}}[%[[S]]] : tensor<4xi8>
func.func @pad_replicate(%x: tensor<4xi8>) -> tensor<11xi8> {
  %0 = rlx.pad replicate %x pads = [2, 5] : tensor<4xi8> -> tensor<11xi8>
  return %0 : tensor<11xi8>
}

// -----

// Circular: (out - lo + n) rem n.

// CHECK-LABEL: func.func @pad_circular(
// CHECK:           %[[D0:.*]] = linalg.index 0 : index
// CHECK:           %[[C4:.*]] = arith.constant 4 : index
// CHECK:           %[[I:.*]] = arith.subi %[[D0]], %[[C4]] : index
// CHECK:           %[[N:.*]] = arith.constant 4 : index
// CHECK:           %[[UP:.*]] = arith.addi %[[I]], %[[N]] : index
// CHECK:           %[[S:.*]] = arith.remsi %[[UP]], %{{.*}} : index
// CHECK:           tensor.extract %{{.*}}[%[[S]]] : tensor<4xf64>
func.func @pad_circular(%x: tensor<4xf64>) -> tensor<9xf64> {
  %0 = rlx.pad circular %x pads = [4, 1] : tensor<4xf64> -> tensor<9xf64>
  return %0 : tensor<9xf64>
}

// -----

// tile, reverse and roll are copies through an affine read map.

// CHECK-DAG:   #[[TILE:map[0-9]*]] = affine_map<(d0, d1) -> (d0 mod 2, d1)>
// CHECK-DAG:   #[[ID:map[0-9]*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @tile(
// CHECK-SAME:      %[[X:.*]]: tensor<2x3xf32>)
// CHECK:         linalg.generic {indexing_maps = [#[[TILE]], #[[ID]]], {{.*}}} ins(%[[X]] : tensor<2x3xf32>) outs(%{{.*}} : tensor<6x3xf32>)
// CHECK-NEXT:    ^bb0(%[[IN:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT:      linalg.yield %[[IN]] : f32
func.func @tile(%x: tensor<2x3xf32>) -> tensor<6x3xf32> {
  %0 = rlx.tile %x reps = [3, 1] : tensor<2x3xf32> -> tensor<6x3xf32>
  return %0 : tensor<6x3xf32>
}

// -----

// An empty result reads nothing.

// CHECK-LABEL: func.func @tile_zero_reps(
// CHECK-NEXT:    %[[E:.*]] = tensor.empty() : tensor<0x3xf32>
// CHECK-NEXT:    return %[[E]]
func.func @tile_zero_reps(%x: tensor<2x3xf32>) -> tensor<0x3xf32> {
  %0 = rlx.tile %x reps = [0, 1] : tensor<2x3xf32> -> tensor<0x3xf32>
  return %0 : tensor<0x3xf32>
}

// -----

// CHECK-DAG:   #[[REV:map[0-9]*]] = affine_map<(d0, d1, d2) -> (-d0 + 1, d1, -d2 + 3)>
// CHECK-LABEL: func.func @reverse(
// CHECK:         linalg.generic {indexing_maps = [#[[REV]], #{{.*}}]
func.func @reverse(%x: tensor<2x3x4xi1>) -> tensor<2x3x4xi1> {
  %0 = rlx.reverse %x axes = [0, -1] : tensor<2x3x4xi1>
  return %0 : tensor<2x3x4xi1>
}

// -----

// Shifts 1 and -7 on sizes 4 and 5 are net shifts 1 and 3.

// CHECK-DAG:   #[[ROLL:map[0-9]*]] = affine_map<(d0, d1) -> ((d0 + 3) mod 4, (d1 + 2) mod 5)>
// CHECK-LABEL: func.func @roll(
// CHECK:         linalg.generic {indexing_maps = [#[[ROLL]], #{{.*}}]
func.func @roll(%x: tensor<4x5xf32>) -> tensor<4x5xf32> {
  %0 = rlx.roll %x shifts = [1, -7] dims = [0, 1] : tensor<4x5xf32>
  return %0 : tensor<4x5xf32>
}

// -----

// trilu compares column - row with the diagonal on the last two loop dims.

// CHECK-LABEL: func.func @trilu_upper(
// CHECK-SAME:      %[[X:.*]]: tensor<2x3x4xi32>)
// CHECK:         linalg.generic {{.*}} ins(%[[X]] : tensor<2x3x4xi32>)
// CHECK-NEXT:    ^bb0(%[[IN:.*]]: i32, %{{.*}}: i32):
// CHECK-NEXT:      %[[ROW:.*]] = linalg.index 1 : index
// CHECK-NEXT:      %[[COL:.*]] = linalg.index 2 : index
// CHECK-NEXT:      %[[OFF:.*]] = arith.subi %[[COL]], %[[ROW]] : index
// CHECK-NEXT:      %[[DIAG:.*]] = arith.constant 2 : index
// CHECK-NEXT:      %[[KEEP:.*]] = arith.cmpi sge, %[[OFF]], %[[DIAG]] : index
// CHECK-NEXT:      %[[ZERO:.*]] = arith.constant 0 : i32
// CHECK-NEXT:      %[[Y:.*]] = arith.select %[[KEEP]], %[[IN]], %[[ZERO]] : i32
// CHECK-NEXT:      linalg.yield %[[Y]] : i32
func.func @trilu_upper(%x: tensor<2x3x4xi32>) -> tensor<2x3x4xi32> {
  %0 = rlx.trilu upper %x diagonal = 2 : tensor<2x3x4xi32>
  return %0 : tensor<2x3x4xi32>
}

// -----

// CHECK-LABEL: func.func @trilu_lower(
// CHECK:           %[[DIAG:.*]] = arith.constant -1 : index
// CHECK:           arith.cmpi sle, %{{.*}}, %[[DIAG]] : index
// CHECK:           %[[FALSE:.*]] = arith.constant false
// CHECK:           arith.select %{{.*}}, %{{.*}}, %[[FALSE]] : i1
func.func @trilu_lower(%x: tensor<3x3xi1>) -> tensor<3x3xi1> {
  %0 = rlx.trilu lower %x diagonal = -1 : tensor<3x3xi1>
  return %0 : tensor<3x3xi1>
}

// -----

// kv_append: the runtime position is clamped to [0, S - L] = [0, 5] and
// becomes the dynamic offset of an insert_slice into the cache.

// CHECK-LABEL: func.func @kv_append(
// CHECK-SAME:      %[[C:.*]]: tensor<2x8x4xf32>, %[[U:.*]]: tensor<2x3x4xf32>, %[[P:.*]]: tensor<i32>)
// CHECK:         %[[RAW:.*]] = tensor.extract %[[P]][] : tensor<i32>
// CHECK:         %[[POS:.*]] = arith.index_cast %[[RAW]] : i32 to index
// CHECK:         %[[C5:.*]] = arith.constant 5 : index
// CHECK:         %[[LO:.*]] = arith.maxsi %[[POS]], %{{.*}} : index
// CHECK:         %[[AT:.*]] = arith.minsi %[[LO]], %[[C5]] : index
// CHECK:         %[[R:.*]] = tensor.insert_slice %[[U]] into %[[C]][0, %[[AT]], 0] [2, 3, 4] [1, 1, 1] : tensor<2x3x4xf32> into tensor<2x8x4xf32>
// CHECK:         return %[[R]]
func.func @kv_append(%c: tensor<2x8x4xf32>, %u: tensor<2x3x4xf32>, %p: tensor<i32>) -> tensor<2x8x4xf32> {
  %0 = rlx.kv_append %c, %u at %p axis = 1 : tensor<2x8x4xf32>, tensor<2x3x4xf32>, tensor<i32>
  return %0 : tensor<2x8x4xf32>
}

// -----

// dot_general: loops (batch, lhs free, rhs free, contracting); bf16
// accumulates in f32 and rounds once.

// CHECK-DAG:   #[[LHS:map[0-9]*]] = affine_map<(d0, d1, d2, d3) -> (d3, d1, d0)>
// CHECK-DAG:   #[[RHS:map[0-9]*]] = affine_map<(d0, d1, d2, d3) -> (d2, d0, d3)>
// CHECK-DAG:   #[[OUT:map[0-9]*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
// CHECK-LABEL: func.func @dot_general_bf16(
// CHECK-SAME:      %[[A:.*]]: tensor<4x3x2xbf16>, %[[B:.*]]: tensor<5x2x4xbf16>)
// CHECK:         %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK:         %[[ACC:.*]] = linalg.fill ins(%[[ZERO]] : f32) outs(%{{.*}} : tensor<2x3x5xf32>)
// CHECK:         %[[SUM:.*]] = linalg.generic {indexing_maps = [#[[LHS]], #[[RHS]], #[[OUT]]], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%[[A]], %[[B]] : tensor<4x3x2xbf16>, tensor<5x2x4xbf16>) outs(%[[ACC]] : tensor<2x3x5xf32>)
// CHECK-NEXT:    ^bb0(%[[L:.*]]: bf16, %[[R:.*]]: bf16, %[[O:.*]]: f32):
// CHECK-NEXT:      %[[LX:.*]] = arith.extf %[[L]] : bf16 to f32
// CHECK-NEXT:      %[[RX:.*]] = arith.extf %[[R]] : bf16 to f32
// CHECK-NEXT:      %[[M:.*]] = arith.mulf %[[LX]], %[[RX]] : f32
// CHECK-NEXT:      %[[S:.*]] = arith.addf %[[O]], %[[M]] : f32
// CHECK-NEXT:      linalg.yield %[[S]] : f32
// CHECK:         linalg.generic {{.*}} ins(%[[SUM]] : tensor<2x3x5xf32>) outs(%{{.*}} : tensor<2x3x5xbf16>)
// CHECK:           arith.truncf %{{.*}} : f32 to bf16
func.func @dot_general_bf16(%a: tensor<4x3x2xbf16>, %b: tensor<5x2x4xbf16>) -> tensor<2x3x5xbf16> {
  %0 = rlx.dot_general %a, %b batching_dims = [2] x [1], contracting_dims = [0] x [2] : (tensor<4x3x2xbf16>, tensor<5x2x4xbf16>) -> tensor<2x3x5xbf16>
  return %0 : tensor<2x3x5xbf16>
}

// -----

// A full contraction has a rank-0 result; integers accumulate in their type.

// CHECK-DAG:   #[[V:map[0-9]*]] = affine_map<(d0) -> (d0)>
// CHECK-DAG:   #[[S:map[0-9]*]] = affine_map<(d0) -> ()>
// CHECK-LABEL: func.func @dot_general_full(
// CHECK:         %[[R:.*]] = linalg.generic {indexing_maps = [#[[V]], #[[V]], #[[S]]], iterator_types = ["reduction"]} {{.*}} outs(%{{.*}} : tensor<i32>)
// CHECK:           arith.muli
// CHECK:           arith.addi
// CHECK-NOT:     linalg.generic
// CHECK:         return %[[R]] : tensor<i32>
func.func @dot_general_full(%a: tensor<7xi32>, %b: tensor<7xi32>) -> tensor<i32> {
  %0 = rlx.dot_general %a, %b batching_dims = [] x [], contracting_dims = [0] x [0] : (tensor<7xi32>, tensor<7xi32>) -> tensor<i32>
  return %0 : tensor<i32>
}

// -----

// iota: a generic without inputs yielding linalg.index of the axis.

// CHECK-DAG:   #[[ID:map[0-9]*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @iota(
// CHECK:         %[[E:.*]] = tensor.empty() : tensor<3x5xi32>
// CHECK:         %[[R:.*]] = linalg.generic {indexing_maps = [#[[ID]]], iterator_types = ["parallel", "parallel"]} outs(%[[E]] : tensor<3x5xi32>)
// CHECK-NEXT:    ^bb0(%{{.*}}: i32):
// CHECK-NEXT:      %[[I:.*]] = linalg.index 1 : index
// CHECK-NEXT:      %[[C:.*]] = arith.index_cast %[[I]] : index to i32
// CHECK-NEXT:      linalg.yield %[[C]] : i32
// CHECK:         return %[[R]]
func.func @iota() -> tensor<3x5xi32> {
  %0 = rlx.iota axis = -1 : tensor<3x5xi32>
  return %0 : tensor<3x5xi32>
}
