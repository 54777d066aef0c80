// RUN: rlx-opt %s --rlx-to-linalg --canonicalize -split-input-file | FileCheck %s

// rlx.dequant_matmul is one contraction generic whose body reads the packed
// weight byte and its group's scale (and zero point) and dequantizes the
// value next to the multiply-add: K is split into the group loop and the
// loops within a group (the input and the weight are expanded to match),
// so every indexing map is a plain affine map and no float weight tensor
// exists. qmatmul accumulates in i32 and requantizes in a parallel
// generic; scaled_matmul decodes FP8 by bit arithmetic inside its
// contraction.

// Q4_0: blocks of 18 bytes; loops (m, n, block, h, j): h (d3) selects the low or high
// nibble, bytes 0 and 1 of the block are the f16 scale.
// CHECK-DAG:   #[[X:map[0-9]*]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d2, d3, d4)>
// CHECK-DAG:   #[[Q:map[0-9]*]] = affine_map<(d0, d1, d2, d3, d4) -> (d1, d2, d4 + 2)>
// CHECK-DAG:   #[[D0:map[0-9]*]] = affine_map<(d0, d1, d2, d3, d4) -> (d1, d2, 0)>
// CHECK-DAG:   #[[D1:map[0-9]*]] = affine_map<(d0, d1, d2, d3, d4) -> (d1, d2, 1)>
// CHECK-DAG:   #[[OUT:map[0-9]*]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1)>
// CHECK-LABEL: func.func @q4_0(
// CHECK-SAME:    %[[ARG0:.*]]: tensor<?x64xf32>, %[[ARG1:.*]]: tensor<7x36xi8>)
// CHECK-NOT:     tensor<7x64xf32>
// CHECK:         %[[XE:.*]] = tensor.expand_shape %[[ARG0]] {{\[}}[0], [1, 2, 3]] output_shape [%{{.*}}, 2, 2, 16] : tensor<?x64xf32> into tensor<?x2x2x16xf32>
// CHECK:         %[[WE:.*]] = tensor.expand_shape %[[ARG1]] {{\[}}[0], [1, 2]] output_shape [7, 2, 18] : tensor<7x36xi8> into tensor<7x2x18xi8>
// CHECK-NOT:     tensor<7x64xf32>
// CHECK:         %[[R:.*]] = linalg.generic {indexing_maps = [#[[X]], #[[Q]], #[[D0]], #[[D1]], #[[OUT]]], iterator_types = ["parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%[[XE]], %[[WE]], %[[WE]], %[[WE]] : tensor<?x2x2x16xf32>, tensor<7x2x18xi8>, tensor<7x2x18xi8>, tensor<7x2x18xi8>) outs(%{{.*}} : tensor<?x7xf32>)
// CHECK-NEXT:    ^bb0(%[[IN:.*]]: f32, %[[BYTE:.*]]: i8, %[[LO:.*]]: i8, %[[HI:.*]]: i8, %[[ACC:.*]]: f32):
// CHECK:           linalg.index 3 : index
// CHECK:           arith.extui %[[BYTE]] : i8 to i32
// CHECK:           arith.shrui
// CHECK:           arith.andi
// CHECK:           arith.bitcast %{{.*}} : i16 to f16
// CHECK:           arith.extf %{{.*}} : f16 to f32
// CHECK:           arith.subi
// CHECK:           %[[V:.*]] = arith.sitofp %{{.*}} : i32 to f32
// CHECK:           %[[W:.*]] = arith.mulf %[[V]], %{{.*}} : f32
// CHECK:           %[[P:.*]] = arith.mulf %[[IN]], %[[W]] : f32
// CHECK:           %[[S:.*]] = arith.addf %[[ACC]], %[[P]] : f32
// CHECK:           linalg.yield %[[S]] : f32
// CHECK-NOT:     linalg.generic
// CHECK:         return %[[R]]
func.func @q4_0(%x: tensor<?x64xf32>, %w: tensor<7x36xi8>) -> tensor<?x7xf32> {
  %y = rlx.dequant_matmul %x, %w scheme = "q4_0" : (tensor<?x64xf32>, tensor<7x36xi8>) -> tensor<?x7xf32>
  return %y : tensor<?x7xf32>
}

// -----

// int4 with zero points, group 64, f16 input and a batch: loops
// (b, m, n, g, j, h), byte j of the group holds k = 2j (low) and 2j + 1
// (high nibble, h); the scale and zero point of the group (n, g); the f32
// accumulator is rounded to f16 once, after the contraction.
// CHECK-DAG:   #[[X:map[0-9]*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d3, d4, d5)>
// CHECK-DAG:   #[[Q:map[0-9]*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d2, d3, d4)>
// CHECK-DAG:   #[[G:map[0-9]*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d2, d3)>
// CHECK-DAG:   #[[OUT:map[0-9]*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2)>
// CHECK-LABEL: func.func @int4(
// CHECK:         tensor.expand_shape %{{.*}} {{\[}}[0], [1], [2, 3, 4]] output_shape [3, %{{.*}}, 2, 32, 2] : tensor<3x?x128xf16> into tensor<3x?x2x32x2xf16>
// CHECK:         tensor.expand_shape %{{.*}} {{\[}}[0], [1, 2]] output_shape [7, 2, 32] : tensor<7x64xi8> into tensor<7x2x32xi8>
// CHECK:         %[[R:.*]] = linalg.generic {indexing_maps = [#[[X]], #[[Q]], #[[G]], #[[G]], #[[OUT]]], iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins({{.*}} : tensor<3x?x2x32x2xf16>, tensor<7x2x32xi8>, tensor<7x2xf32>, tensor<7x2xi8>) outs(%{{.*}} : tensor<3x?x7xf32>)
// CHECK-NEXT:    ^bb0(%{{.*}}: f16, %{{.*}}: i8, %{{.*}}: f32, %[[Z:.*]]: i8, %{{.*}}: f32):
// CHECK:           arith.extf %{{.*}} : f16 to f32
// CHECK:           linalg.index 5 : index
// CHECK:           arith.extsi %[[Z]] : i8 to i32
// CHECK:           arith.subi
// CHECK:           linalg.yield
// CHECK:         linalg.generic
// CHECK:           arith.truncf %{{.*}} : f32 to f16
func.func @int4(%x: tensor<3x?x128xf16>, %w: tensor<7x64xi8>, %s: tensor<7x2xf32>, %z: tensor<7x2xi8>) -> tensor<3x?x7xf16> {
  %y = rlx.dequant_matmul %x, %w, %s zero_points %z scheme = "int4" group_size = 64 : (tensor<3x?x128xf16>, tensor<7x64xi8>, tensor<7x2xf32>, tensor<7x2xi8>) -> tensor<3x?x7xf16>
  return %y : tensor<3x?x7xf16>
}

// -----

// int8, group 32, without zero points: (q) * scale, q sign-extended.
// CHECK-LABEL: func.func @int8(
// CHECK:         linalg.generic {{.*}} ins({{.*}} : tensor<5x2x32xf32>, tensor<7x2x32xi8>, tensor<7x2xf16>) outs(%{{.*}} : tensor<5x7xf32>)
// CHECK:           arith.extsi %{{.*}} : i8 to i32
// CHECK:           arith.extf %{{.*}} : f16 to f32
// CHECK-NOT:       arith.subi
// CHECK:           linalg.yield
func.func @int8(%x: tensor<5x64xf32>, %w: tensor<7x64xi8>, %s: tensor<7x2xf16>) -> tensor<5x7xf32> {
  %y = rlx.dequant_matmul %x, %w, %s scheme = "int8" : (tensor<5x64xf32>, tensor<7x64xi8>, tensor<7x2xf16>) -> tensor<5x7xf32>
  return %y : tensor<5x7xf32>
}

// -----

// Q8_0 through dequant_weight (the gradient's materialized weight): one
// parallel generic over (n, block, i), collapsed to [N, K].
// CHECK-DAG:   #[[Q:map[0-9]*]] = affine_map<(d0, d1, d2) -> (d0, d1, d2 + 2)>
// CHECK-DAG:   #[[D0:map[0-9]*]] = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
// CHECK-DAG:   #[[D1:map[0-9]*]] = affine_map<(d0, d1, d2) -> (d0, d1, 1)>
// CHECK-LABEL: func.func @q8_0_weight(
// CHECK:         tensor.expand_shape %{{.*}} {{\[}}[0], [1, 2]] output_shape [7, 2, 34] : tensor<7x68xi8> into tensor<7x2x34xi8>
// CHECK:         %[[G:.*]] = linalg.generic {indexing_maps = [#[[Q]], #[[D0]], #[[D1]], #{{.*}}], iterator_types = ["parallel", "parallel", "parallel"]}
// CHECK:           arith.extsi %{{.*}} : i8 to i32
// CHECK:           arith.bitcast %{{.*}} : i16 to f16
// CHECK:         tensor.collapse_shape %[[G]] {{\[}}[0], [1, 2]] : tensor<7x2x32xf32> into tensor<7x64xf32>
func.func @q8_0_weight(%w: tensor<7x68xi8>) -> tensor<7x64xf32> {
  %y = rlx.dequant_weight %w scheme = "q8_0" : (tensor<7x68xi8>) -> tensor<7x64xf32>
  return %y : tensor<7x64xf32>
}

// -----

// qmatmul: (lhs - zp) * (rhs - zp[n]) accumulated in i32 from zero; the
// requantize epilogue: the multiplier in f64 rounded to f32, the f32
// product rounded half to even, the zero point added in i64, saturated.
// CHECK-DAG:   #[[A:map[0-9]*]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK-DAG:   #[[B:map[0-9]*]] = affine_map<(d0, d1, d2) -> (d2, d1)>
// CHECK-DAG:   #[[S:map[0-9]*]] = affine_map<(d0, d1, d2) -> ()>
// CHECK-DAG:   #[[N:map[0-9]*]] = affine_map<(d0, d1, d2) -> (d1)>
// CHECK-DAG:   #[[C:map[0-9]*]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-LABEL: func.func @qmatmul(
// CHECK:         %[[ACC:.*]] = linalg.generic {indexing_maps = [#[[A]], #[[B]], #[[S]], #[[N]], #[[C]]], iterator_types = ["parallel", "parallel", "reduction"]}
// CHECK:           arith.extui %{{.*}} : i8 to i32
// CHECK:           arith.extsi %{{.*}} : i8 to i32
// CHECK:           arith.muli
// CHECK:           arith.addi
// CHECK:         linalg.generic {{.*}} ins(%[[ACC]], {{.*}} : tensor<?x7xi32>, tensor<f32>, tensor<7xf64>, tensor<f32>, tensor<i32>) outs(%{{.*}} : tensor<?x7xi8>)
// CHECK:           arith.mulf %{{.*}}, %{{.*}} : f64
// CHECK:           arith.divf %{{.*}}, %{{.*}} : f64
// CHECK:           arith.truncf %{{.*}} : f64 to f32
// CHECK:           arith.sitofp %{{.*}} : i32 to f32
// CHECK:           math.roundeven %{{.*}} : f32
// CHECK:           arith.fptosi %{{.*}} : f32 to i64
// CHECK:           arith.addi %{{.*}}, %{{.*}} : i64
// CHECK:           arith.trunci %{{.*}} : i64 to i8
func.func @qmatmul(%a: tensor<?x37xi8>, %b: tensor<37x7xi8>, %az: tensor<i32>, %bz: tensor<7xi32>, %as: tensor<f32>, %bs: tensor<7xf64>, %os: tensor<f32>, %oz: tensor<i32>) -> tensor<?x7xi8> {
  %y = rlx.qmatmul %a, %b, %az, %bz requantize %as, %bs, %os, %oz lhs_unsigned output_unsigned : (tensor<?x37xi8>, tensor<37x7xi8>, tensor<i32>, tensor<7xi32>, tensor<f32>, tensor<7xf64>, tensor<f32>, tensor<i32>) -> tensor<?x7xi8>
  return %y : tensor<?x7xi8>
}

// -----

// scaled_matmul: FP8 reinterpreted from bytes, decoded to f32 inside the
// contraction (e5m2 as the high byte of an f16), then scaled.
// CHECK-LABEL: func.func @scaled(
// CHECK:         linalg.generic
// CHECK:           arith.bitcast %{{.*}} : i8 to f8E4M3FN
// CHECK:         linalg.generic
// CHECK:           arith.bitcast %{{.*}} : i8 to f8E5M2
// CHECK:         linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "reduction"]} ins({{.*}} : tensor<4x16xf8E4M3FN>, tensor<16x5xf8E5M2>) outs(%{{.*}} : tensor<4x5xf32>)
// CHECK:           arith.bitcast %{{.*}} : f8E4M3FN to i8
// CHECK:           arith.select
// CHECK:           arith.bitcast %{{.*}} : f8E5M2 to i8
// CHECK:           arith.bitcast %{{.*}} : i16 to f16
// CHECK:           arith.mulf
// CHECK:           arith.addf
// CHECK:         linalg.generic
// CHECK:           arith.mulf
// CHECK:           arith.mulf
func.func @scaled(%a: tensor<4x16xi8>, %b: tensor<16x5xi8>, %sa: tensor<f32>, %sb: tensor<f32>) -> tensor<4x5xf32> {
  %fa = rlx.fp8_from_bits %a format = "e4m3fn" : (tensor<4x16xi8>) -> tensor<4x16xf8E4M3FN>
  %fb = rlx.fp8_from_bits %b format = "e5m2" : (tensor<16x5xi8>) -> tensor<16x5xf8E5M2>
  %y = rlx.scaled_matmul %fa, %fb, %sa, %sb : (tensor<4x16xf8E4M3FN>, tensor<16x5xf8E5M2>, tensor<f32>, tensor<f32>) -> tensor<4x5xf32>
  return %y : tensor<4x5xf32>
}
