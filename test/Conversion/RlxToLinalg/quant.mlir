// RUN: rlx-opt %s --rlx-to-linalg --canonicalize -split-input-file | FileCheck %s

// Each quantization op is one parallel generic whose body is the op's
// formula; per-channel parameters are read through the map that keeps the
// channel loop, per-tensor ones through the map that keeps none. The
// rounded quotient x * (1 / scale) becomes an i64 (NaN to 0, saturated to
// +-2^32) and the zero point is added in i64.

// CHECK-DAG:   #[[ID:map[0-9]*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG:   #[[SCALAR:map[0-9]*]] = affine_map<(d0, d1) -> ()>
// CHECK-LABEL: func.func @quantize_per_tensor(
// CHECK-SAME:    %[[X:[a-z0-9]+]]: tensor<?x8xf32>, %[[S:[a-z0-9]+]]: tensor<f32>, %[[Z:[a-z0-9]+]]: tensor<i32>)
// CHECK:         %[[E:.*]] = tensor.empty(%{{.*}}) : tensor<?x8xi8>
// CHECK:         linalg.generic {indexing_maps = [#[[ID]], #[[SCALAR]], #[[SCALAR]], #[[ID]]], iterator_types = ["parallel", "parallel"]} ins(%[[X]], %[[S]], %[[Z]] : tensor<?x8xf32>, tensor<f32>, tensor<i32>) outs(%[[E]] : tensor<?x8xi8>)
// CHECK:           arith.extsi %{{.*}} : i32 to i64
// CHECK:           arith.divf %{{.*}}, %{{.*}} : f32
// CHECK:           arith.mulf %{{.*}}, %{{.*}} : f32
// CHECK:           math.roundeven %{{.*}} : f32
// CHECK:           arith.fptosi %{{.*}} : f32 to i64
// CHECK:           arith.addi %{{.*}}, %{{.*}} : i64
// CHECK:           arith.maxsi %{{.*}}, %c-128_i64 : i64
// CHECK:           arith.minsi %{{.*}}, %c127_i64 : i64
// CHECK:           arith.trunci %{{.*}} : i64 to i8
// CHECK:           linalg.yield %{{.*}} : i8
func.func @quantize_per_tensor(%x: tensor<?x8xf32>, %s: tensor<f32>, %z: tensor<i32>) -> tensor<?x8xi8> {
  %0 = rlx.quantize %x, %s, %z : (tensor<?x8xf32>, tensor<f32>, tensor<i32>) -> tensor<?x8xi8>
  return %0 : tensor<?x8xi8>
}

// -----

// Unsigned storage saturates to [0, 255] before the truncation to i8.
// CHECK-DAG:   #[[ID:map[0-9]*]] = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-DAG:   #[[CHANNEL:map[0-9]*]] = affine_map<(d0, d1, d2) -> (d1)>
// CHECK-LABEL: func.func @quantize_per_channel_unsigned(
// CHECK-SAME:    %[[X:[a-z0-9]+]]: tensor<2x3x4xf16>, %[[S:[a-z0-9]+]]: tensor<3xf32>, %[[Z:[a-z0-9]+]]: tensor<3xi32>)
// CHECK:         linalg.generic {indexing_maps = [#[[ID]], #[[CHANNEL]], #[[CHANNEL]], #[[ID]]], iterator_types = ["parallel", "parallel", "parallel"]} ins(%[[X]], %[[S]], %[[Z]] : tensor<2x3x4xf16>, tensor<3xf32>, tensor<3xi32>)
// CHECK:           arith.extf %{{.*}} : f16 to f32
// CHECK:           math.roundeven %{{.*}} : f32
// CHECK:           arith.minsi %{{.*}}, %c255_i64 : i64
// CHECK:           arith.trunci %{{.*}} : i64 to i8
func.func @quantize_per_channel_unsigned(%x: tensor<2x3x4xf16>, %s: tensor<3xf32>, %z: tensor<3xi32>) -> tensor<2x3x4xi8> {
  %0 = rlx.quantize %x, %s, %z axis = 1 unsigned : (tensor<2x3x4xf16>, tensor<3xf32>, tensor<3xi32>) -> tensor<2x3x4xi8>
  return %0 : tensor<2x3x4xi8>
}

// -----

// Unsigned storage is zero-extended; the product is rounded once to bf16.
// CHECK-DAG:   #[[ID:map[0-9]*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG:   #[[CHANNEL:map[0-9]*]] = affine_map<(d0, d1) -> (d0)>
// CHECK-LABEL: func.func @dequantize(
// CHECK:         linalg.generic {indexing_maps = [#[[ID]], #[[CHANNEL]], #[[CHANNEL]], #[[ID]]], iterator_types = ["parallel", "parallel"]}
// CHECK:           arith.extui %{{.*}} : i8 to i64
// CHECK:           arith.subi %{{.*}}, %{{.*}} : i64
// CHECK:           arith.sitofp %{{.*}} : i64 to f32
// CHECK:           arith.mulf %{{.*}}, %{{.*}} : f32
// CHECK:           arith.truncf %{{.*}} : f32 to bf16
// CHECK:           linalg.yield %{{.*}} : bf16
func.func @dequantize(%q: tensor<5x7xi8>, %s: tensor<5xbf16>, %z: tensor<5xi32>) -> tensor<5x7xbf16> {
  %0 = rlx.dequantize %q, %s, %z axis = 0 unsigned : (tensor<5x7xi8>, tensor<5xbf16>, tensor<5xi32>) -> tensor<5x7xbf16>
  return %0 : tensor<5x7xbf16>
}

// -----

// CHECK-LABEL: func.func @fake_quantize(
// CHECK:         linalg.generic
// CHECK-SAME:      iterator_types = ["parallel", "parallel"]
// CHECK:           math.roundeven %{{.*}} : f32
// CHECK:           arith.maxsi %{{.*}}, %{{.*}} : i64
// CHECK:           arith.minsi %{{.*}}, %{{.*}} : i64
// CHECK:           arith.sitofp %{{.*}} : i64 to f32
// CHECK:           arith.mulf %{{.*}}, %{{.*}} : f32
// CHECK:           linalg.yield %{{.*}} : f32
// CHECK-NOT:     linalg.generic
func.func @fake_quantize(%x: tensor<?x16xf32>, %s: tensor<f32>, %z: tensor<i32>) -> tensor<?x16xf32> {
  %0 = rlx.fake_quantize %x, %s, %z quant_min = -8 quant_max = 7 : (tensor<?x16xf32>, tensor<f32>, tensor<i32>) -> tensor<?x16xf32>
  return %0 : tensor<?x16xf32>
}

// -----

// The straight-through mask selects dy as stored.
// CHECK-LABEL: func.func @fake_quantize_backward(
// CHECK:         linalg.generic
// CHECK:           arith.cmpi slt, %{{.*}}, %{{.*}} : i64
// CHECK:           arith.cmpi sgt, %{{.*}}, %{{.*}} : i64
// CHECK:           arith.ori %{{.*}}, %{{.*}} : i1
// CHECK:           arith.select %{{.*}}, %{{.*}}, %{{.*}} : f16
// CHECK:           linalg.yield %{{.*}} : f16
func.func @fake_quantize_backward(%dy: tensor<4x6xf16>, %x: tensor<4x6xf16>, %s: tensor<6xf32>, %z: tensor<6xi32>) -> tensor<4x6xf16> {
  %0 = rlx.fake_quantize_backward %dy, %x, %s, %z quant_min = 0 quant_max = 255 axis = -1 : (tensor<4x6xf16>, tensor<4x6xf16>, tensor<6xf32>, tensor<6xi32>) -> tensor<4x6xf16>
  return %0 : tensor<4x6xf16>
}

// -----

// The learned zero point is rounded half to even and clamped to the range.
// CHECK-LABEL: func.func @fake_quantize_lsq(
// CHECK:         linalg.generic
// CHECK:           math.roundeven %{{.*}} : f32
// CHECK:           linalg.yield %{{.*}} : f32
func.func @fake_quantize_lsq(%x: tensor<8x?xf32>, %s: tensor<8xf32>, %z: tensor<8xf32>) -> tensor<8x?xf32> {
  %0 = rlx.fake_quantize_lsq %x, %s, %z quant_min = -8 quant_max = 7 axis = 0 : (tensor<8x?xf32>, tensor<8xf32>, tensor<8xf32>) -> tensor<8x?xf32>
  return %0 : tensor<8x?xf32>
}

// -----

// Per channel on a middle axis: dx is one parallel generic over [2, 3, 4];
// the parameter gradients one reduction over the input collapsed to
// [N, C, M] (the channel loop parallel), accumulated from zero.
// CHECK-DAG:   #[[CHANNEL:map[0-9]*]] = affine_map<(d0, d1, d2) -> (d1)>
// CHECK-LABEL: func.func @lsq_backward_per_channel(
// CHECK-SAME:    %[[DY:[a-z0-9]+]]: tensor<2x3x4xf32>, %[[X:[a-z0-9]+]]: tensor<2x3x4xf32>, %[[S:[a-z0-9]+]]: tensor<3xf32>, %[[Z:[a-z0-9]+]]: tensor<3xf32>)
// CHECK:         %[[DX:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "parallel"]} ins(%[[DY]], %[[X]], %[[S]], %[[Z]] : {{.*}}) outs(%{{.*}} : tensor<2x3x4xf32>)
// CHECK:         linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<3xf32>)
// CHECK:         %[[SUMS:.*]]:2 = linalg.generic {indexing_maps = [#{{.*}}, #{{.*}}, #[[CHANNEL]], #[[CHANNEL]], #[[CHANNEL]], #[[CHANNEL]]], iterator_types = ["reduction", "parallel", "reduction"]}
// CHECK:           arith.addf
// CHECK:           arith.addf
// CHECK:           linalg.yield %{{.*}}, %{{.*}} : f32, f32
// CHECK:         return %[[DX]], %[[SUMS]]#0, %[[SUMS]]#1
func.func @lsq_backward_per_channel(%dy: tensor<2x3x4xf32>, %x: tensor<2x3x4xf32>, %s: tensor<3xf32>, %z: tensor<3xf32>) -> (tensor<2x3x4xf32>, tensor<3xf32>, tensor<3xf32>) {
  %0:3 = rlx.fake_quantize_lsq_backward %dy, %x, %s, %z quant_min = -8 quant_max = 7 axis = 1 grad_factor = 0.5 : (tensor<2x3x4xf32>, tensor<2x3x4xf32>, tensor<3xf32>, tensor<3xf32>) -> (tensor<2x3x4xf32>, tensor<3xf32>, tensor<3xf32>)
  return %0#0, %0#1, %0#2 : tensor<2x3x4xf32>, tensor<3xf32>, tensor<3xf32>
}

// -----

// Per tensor: the sums run over the input collapsed to one dimension (one
// reduction loop), in f32 for f16 parameters, rounded once to f16.
// CHECK-LABEL: func.func @lsq_backward_per_tensor(
// CHECK:         linalg.generic {{.*}} iterator_types = ["parallel", "parallel"]}
// CHECK:         tensor.collapse_shape %{{.*}} {{\[}}[0, 1]] : tensor<?x8xf16> into tensor<?xf16>
// CHECK:         linalg.generic {{.*}} iterator_types = ["reduction"]}
// CHECK:           linalg.yield %{{.*}}, %{{.*}} : f32, f32
// CHECK:         arith.truncf %{{.*}} : f32 to f16
func.func @lsq_backward_per_tensor(%dy: tensor<?x8xf16>, %x: tensor<?x8xf16>, %s: tensor<f16>, %z: tensor<f16>) -> (tensor<?x8xf16>, tensor<f16>, tensor<f16>) {
  %0:3 = rlx.fake_quantize_lsq_backward %dy, %x, %s, %z quant_min = 0 quant_max = 255 : (tensor<?x8xf16>, tensor<?x8xf16>, tensor<f16>, tensor<f16>) -> (tensor<?x8xf16>, tensor<f16>, tensor<f16>)
  return %0#0, %0#1, %0#2 : tensor<?x8xf16>, tensor<f16>, tensor<f16>
}
