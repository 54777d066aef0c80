// RUN: rlx-opt %s --rlx-to-linalg -split-input-file | FileCheck %s

// argmax is one reduction generic with two accumulators: the best value so
// far (f16 widened to f32), starting at -inf, and its index (the result's
// type), starting past the row. An element is taken when it ranks strictly
// before the accumulator: larger, or NaN over a number, or equal (NaN equal
// to NaN) with a smaller index. keep_dim expands the axis back.

// CHECK-DAG:   #[[IN:map[0-9]*]] = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-DAG:   #[[ROW:map[0-9]*]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK-LABEL: func.func @argmax_keep_dim(
// CHECK-SAME:      %[[ARG:.*]]: tensor<2x3x4xf16>) -> tensor<2x1x4xi32>
// CHECK-DAG:     %[[NEGINF:.*]] = arith.constant 0xFF800000 : f32
// CHECK-DAG:     %[[PAST:.*]] = arith.constant 3 : i32
// CHECK-DAG:     %[[VINIT:.*]] = linalg.fill ins(%[[NEGINF]] : f32) outs(%{{.*}} : tensor<2x4xf32>)
// CHECK-DAG:     %[[IINIT:.*]] = linalg.fill ins(%[[PAST]] : i32) outs(%{{.*}} : tensor<2x4xi32>)
// CHECK:         %[[R:.*]]:2 = linalg.generic
// CHECK-SAME:        indexing_maps = [#[[IN]], #[[ROW]], #[[ROW]]]
// CHECK-SAME:        iterator_types = ["parallel", "reduction", "parallel"]
// CHECK-SAME:        ins(%[[ARG]] : tensor<2x3x4xf16>) outs(%[[VINIT]], %[[IINIT]] : tensor<2x4xf32>, tensor<2x4xi32>)
// CHECK:         ^bb0(%[[X:[a-z0-9_]+]]: f16, %[[V:[a-z0-9_]+]]: f32, %[[I:[a-z0-9_]+]]: i32):
// CHECK:           %[[XF:.*]] = arith.extf %[[X]] : f16 to f32
// CHECK:           %[[POS:.*]] = linalg.index 1 : index
// CHECK:           %[[J:.*]] = arith.index_cast %[[POS]] : index to i32
// CHECK:           %[[GT:.*]] = arith.cmpf ogt, %[[XF]], %[[V]] : f32
// CHECK:           %[[EQ:.*]] = arith.cmpf oeq, %[[XF]], %[[V]] : f32
// CHECK:           %[[XNAN:.*]] = arith.cmpf une, %[[XF]], %[[XF]] : f32
// CHECK:           %[[VNAN:.*]] = arith.cmpf une, %[[V]], %[[V]] : f32
// CHECK:           %[[NANWINS:.*]] = arith.cmpi ugt, %[[XNAN]], %[[VNAN]] : i1
// CHECK:           %[[BETTER:.*]] = arith.ori %[[GT]], %[[NANWINS]] : i1
// CHECK:           %[[BOTHNAN:.*]] = arith.andi %[[XNAN]], %[[VNAN]] : i1
// CHECK:           %[[SAME:.*]] = arith.ori %[[EQ]], %[[BOTHNAN]] : i1
// CHECK:           %[[EARLIER:.*]] = arith.cmpi slt, %[[J]], %[[I]] : i32
// CHECK:           %[[TIE:.*]] = arith.andi %[[SAME]], %[[EARLIER]] : i1
// CHECK:           %[[TAKE:.*]] = arith.ori %[[BETTER]], %[[TIE]] : i1
// CHECK:           %[[NV:.*]] = arith.select %[[TAKE]], %[[XF]], %[[V]] : f32
// CHECK:           %[[NI:.*]] = arith.select %[[TAKE]], %[[J]], %[[I]] : i32
// CHECK:           linalg.yield %[[NV]], %[[NI]] : f32, i32
// CHECK:         %[[E:.*]] = tensor.expand_shape %[[R]]#1 {{\[\[}}0, 1], [2]] output_shape [2, 1, 4] : tensor<2x4xi32> into tensor<2x1x4xi32>
// CHECK:         return %[[E]]
func.func @argmax_keep_dim(%a: tensor<2x3x4xf16>) -> tensor<2x1x4xi32> {
  %0 = rlx.argmax %a axis = 1 keep_dim : tensor<2x3x4xf16> -> tensor<2x1x4xi32>
  return %0 : tensor<2x1x4xi32>
}

// -----

// argmin of integers starts at the type's maximum and compares signed; no
// NaN logic.

// CHECK-LABEL: func.func @argmin_i8(
// CHECK-DAG:     %[[MAX:.*]] = arith.constant 127 : i8
// CHECK-DAG:     %[[PAST:.*]] = arith.constant 5 : i64
// CHECK:         linalg.generic
// CHECK-SAME:        iterator_types = ["reduction"]
// CHECK:         ^bb0(%[[X:[a-z0-9_]+]]: i8, %[[V:[a-z0-9_]+]]: i8, %[[I:[a-z0-9_]+]]: i64):
// CHECK:           arith.cmpi slt, %[[X]], %[[V]] : i8
// CHECK-NEXT:      arith.cmpi eq, %[[X]], %[[V]] : i8
// CHECK-NOT:       arith.cmpf
// CHECK:           linalg.yield
func.func @argmin_i8(%a: tensor<5xi8>) -> tensor<i64> {
  %0 = rlx.argmin %a axis = 0 : tensor<5xi8> -> tensor<i64>
  return %0 : tensor<i64>
}

// -----

// Scans become rlx.associative_scan, which code generation tiles and writes as loops:
// the axis normalized, the identity and the combiner in the computation type
// (f32 for f16, the element read and widened in the combiner), the
// exclusive flag kept, a lowering_config on the op carried over.

// CHECK-LABEL: func.func @cumsum_exclusive(
// CHECK-SAME:      %[[ARG:.*]]: tensor<5x2xf16>) -> tensor<5x2xf16>
// CHECK:         %[[INIT:.*]] = tensor.empty() : tensor<5x2xf16>
// CHECK:         %[[SCAN:.*]] = rlx.associative_scan axis = 0 exclusive identity = 0.000000e+00 : f32 ins(%[[ARG]] : tensor<5x2xf16>) outs(%[[INIT]] : tensor<5x2xf16>) attributes {rlx.lowering_config = #rlx.lowering_config<distribution = [0, 1], cache = [0, 0], vector = [0, 0]>} {
// CHECK-NEXT:    ^bb0(%[[ACC:[a-z0-9_]+]]: f32, %[[X:[a-z0-9_]+]]: f16):
// CHECK-NEXT:      %[[XF:.*]] = arith.extf %[[X]] : f16 to f32
// CHECK-NEXT:      %[[NEXT:.*]] = arith.addf %[[ACC]], %[[XF]] : f32
// CHECK-NEXT:      rlx.yield %[[NEXT]] : f32
// CHECK-NEXT:    } -> tensor<5x2xf16>
// CHECK:         return %[[SCAN]]
func.func @cumsum_exclusive(%a: tensor<5x2xf16>) -> tensor<5x2xf16> {
  %0 = rlx.cumsum %a axis = -2 exclusive {rlx.lowering_config = #rlx.lowering_config<distribution = [0, 1], cache = [0, 0], vector = [0, 0]>} : tensor<5x2xf16>
  return %0 : tensor<5x2xf16>
}

// -----

// cumprod starts at 1 and multiplies; cummax starts at the type's minimum
// (-inf for floats) and takes the maximum, NaN propagating.

// CHECK-LABEL: func.func @cumprod_i32(
// CHECK:         rlx.associative_scan axis = 0 identity = 1 : i32 ins(%{{.*}} : tensor<4x3xi32>)
// CHECK-NEXT:    ^bb0(%[[ACC:[a-z0-9_]+]]: i32, %[[X:[a-z0-9_]+]]: i32):
// CHECK-NEXT:      %[[NEXT:.*]] = arith.muli %[[ACC]], %[[X]] : i32
// CHECK-NEXT:      rlx.yield %[[NEXT]] : i32
func.func @cumprod_i32(%a: tensor<4x3xi32>) -> tensor<4x3xi32> {
  %0 = rlx.cumprod %a axis = 0 : tensor<4x3xi32>
  return %0 : tensor<4x3xi32>
}

// CHECK-LABEL: func.func @cummax_i8(
// CHECK:         rlx.associative_scan axis = 1 identity = -128 : i8 ins(%{{.*}} : tensor<6x2xi8>)
// CHECK:           arith.maxsi
func.func @cummax_i8(%a: tensor<6x2xi8>) -> tensor<6x2xi8> {
  %0 = rlx.cummax %a axis = 1 : tensor<6x2xi8>
  return %0 : tensor<6x2xi8>
}

// CHECK-LABEL: func.func @cummax_f32(
// CHECK:         rlx.associative_scan axis = 0 identity = 0xFF800000 : f32 ins(%{{.*}} : tensor<6xf32>)
// CHECK:           arith.maximumf
func.func @cummax_f32(%a: tensor<6xf32>) -> tensor<6xf32> {
  %0 = rlx.cummax %a axis = 0 : tensor<6xf32>
  return %0 : tensor<6xf32>
}

// An empty tensor has nothing to scan.
// CHECK-LABEL: func.func @cumsum_empty(
// CHECK-NOT:     rlx.associative_scan
// CHECK:         tensor.empty() : tensor<0x3xf32>
func.func @cumsum_empty(%a: tensor<0x3xf32>) -> tensor<0x3xf32> {
  %0 = rlx.cumsum %a axis = 1 : tensor<0x3xf32>
  return %0 : tensor<0x3xf32>
}

// -----

// Without elements there is nothing to compute (and a slice of the empty
// dimension would be out of bounds): the results are empty tensors. (The
// lowering of topk is tested with the sorts, sort.mlir.)

// CHECK-LABEL: func.func @no_elements(
// CHECK-NOT:     scf.for
// CHECK-DAG:     %[[SCAN:.*]] = tensor.empty() : tensor<0x4xf32>
// CHECK-DAG:     %[[VALS:.*]] = tensor.empty() : tensor<2x0x2xi32>
// CHECK-DAG:     %[[IDXS:.*]] = tensor.empty() : tensor<2x0x2xi64>
// CHECK-NOT:     scf.for
// CHECK:         return %[[SCAN]], %[[VALS]], %[[IDXS]]
func.func @no_elements(%a: tensor<0x4xf32>, %b: tensor<2x0x5xi32>) -> (tensor<0x4xf32>, tensor<2x0x2xi32>, tensor<2x0x2xi64>) {
  %0 = rlx.cummax %a axis = 1 exclusive : tensor<0x4xf32>
  %1:2 = rlx.topk %b k = 2 : tensor<2x0x5xi32> -> tensor<2x0x2xi32>, tensor<2x0x2xi64>
  return %0, %1#0, %1#1 : tensor<0x4xf32>, tensor<2x0x2xi32>, tensor<2x0x2xi64>
}
