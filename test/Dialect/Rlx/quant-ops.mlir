// RUN: rlx-opt %s | rlx-opt | FileCheck %s
// RUN: rlx-opt %s --mlir-print-op-generic | rlx-opt | FileCheck %s

// Round trip of the quantization ops through the custom and the generic
// form: per-tensor and per-channel parameters (negative axes kept as
// written), `unsigned`, `?` sizes, f16/bf16/f64 floats; grad_factor is not
// printed at its default.

// CHECK-LABEL: func.func @quantize(
// CHECK-SAME:    %[[X:[a-z0-9]+]]: tensor<4x?xf32>, %[[S:[a-z0-9]+]]: tensor<f32>, %[[Z:[a-z0-9]+]]: tensor<i32>, %[[SC:[a-z0-9]+]]: tensor<4xf64>, %[[ZC:[a-z0-9]+]]: tensor<4xi32>, %[[H:[a-z0-9]+]]: tensor<bf16>)
// CHECK-NEXT:    %{{.*}} = rlx.quantize %[[X]], %[[S]], %[[Z]] : (tensor<4x?xf32>, tensor<f32>, tensor<i32>) -> tensor<4x?xi8>
// CHECK-NEXT:    %{{.*}} = rlx.quantize %[[X]], %[[S]], %[[Z]] unsigned : (tensor<4x?xf32>, tensor<f32>, tensor<i32>) -> tensor<4x?xi8>
// CHECK-NEXT:    %{{.*}} = rlx.quantize %[[X]], %[[SC]], %[[ZC]] axis = 0 : (tensor<4x?xf32>, tensor<4xf64>, tensor<4xi32>) -> tensor<4x?xi8>
// CHECK-NEXT:    %{{.*}} = rlx.quantize %[[X]], %[[SC]], %[[ZC]] axis = -2 unsigned : (tensor<4x?xf32>, tensor<4xf64>, tensor<4xi32>) -> tensor<4x?xi8>
// CHECK-NEXT:    %{{.*}} = rlx.quantize %[[H]], %[[S]], %[[Z]] : (tensor<bf16>, tensor<f32>, tensor<i32>) -> tensor<i8>
// CHECK-NEXT:    return
func.func @quantize(%x: tensor<4x?xf32>, %s: tensor<f32>, %z: tensor<i32>, %sc: tensor<4xf64>, %zc: tensor<4xi32>, %h: tensor<bf16>) {
  %0 = rlx.quantize %x, %s, %z : (tensor<4x?xf32>, tensor<f32>, tensor<i32>) -> tensor<4x?xi8>
  %1 = rlx.quantize %x, %s, %z unsigned : (tensor<4x?xf32>, tensor<f32>, tensor<i32>) -> tensor<4x?xi8>
  %2 = rlx.quantize %x, %sc, %zc axis = 0 : (tensor<4x?xf32>, tensor<4xf64>, tensor<4xi32>) -> tensor<4x?xi8>
  %3 = rlx.quantize %x, %sc, %zc axis = -2 unsigned : (tensor<4x?xf32>, tensor<4xf64>, tensor<4xi32>) -> tensor<4x?xi8>
  %4 = rlx.quantize %h, %s, %z : (tensor<bf16>, tensor<f32>, tensor<i32>) -> tensor<i8>
  return
}

// The result takes the scale's float type; a `?` channel axis takes `?`
// parameters.
// CHECK-LABEL: func.func @dequantize(
// CHECK-SAME:    %[[Q:[a-z0-9]+]]: tensor<?x8xi8>, %[[S:[a-z0-9]+]]: tensor<f16>, %[[Z:[a-z0-9]+]]: tensor<i32>, %[[SC:[a-z0-9]+]]: tensor<?xf32>, %[[ZC:[a-z0-9]+]]: tensor<?xi32>)
// CHECK-NEXT:    %{{.*}} = rlx.dequantize %[[Q]], %[[S]], %[[Z]] unsigned : (tensor<?x8xi8>, tensor<f16>, tensor<i32>) -> tensor<?x8xf16>
// CHECK-NEXT:    %{{.*}} = rlx.dequantize %[[Q]], %[[SC]], %[[ZC]] axis = 0 : (tensor<?x8xi8>, tensor<?xf32>, tensor<?xi32>) -> tensor<?x8xf32>
// CHECK-NEXT:    return
func.func @dequantize(%q: tensor<?x8xi8>, %s: tensor<f16>, %z: tensor<i32>, %sc: tensor<?xf32>, %zc: tensor<?xi32>) {
  %0 = rlx.dequantize %q, %s, %z unsigned : (tensor<?x8xi8>, tensor<f16>, tensor<i32>) -> tensor<?x8xf16>
  %1 = rlx.dequantize %q, %sc, %zc axis = 0 : (tensor<?x8xi8>, tensor<?xf32>, tensor<?xi32>) -> tensor<?x8xf32>
  return
}

// CHECK-LABEL: func.func @fake_quantize(
// CHECK-SAME:    %[[X:[a-z0-9]+]]: tensor<?x3x5xf32>, %[[S:[a-z0-9]+]]: tensor<f32>, %[[Z:[a-z0-9]+]]: tensor<i32>, %[[SC:[a-z0-9]+]]: tensor<3xf32>, %[[ZC:[a-z0-9]+]]: tensor<3xi32>, %[[DY:[a-z0-9]+]]: tensor<?x3x5xf32>)
// CHECK-NEXT:    %{{.*}} = rlx.fake_quantize %[[X]], %[[S]], %[[Z]] quant_min = -128 quant_max = 127 : (tensor<?x3x5xf32>, tensor<f32>, tensor<i32>) -> tensor<?x3x5xf32>
// CHECK-NEXT:    %{{.*}} = rlx.fake_quantize %[[X]], %[[SC]], %[[ZC]] quant_min = 0 quant_max = 15 axis = 1 : (tensor<?x3x5xf32>, tensor<3xf32>, tensor<3xi32>) -> tensor<?x3x5xf32>
// CHECK-NEXT:    %{{.*}} = rlx.fake_quantize_backward %[[DY]], %[[X]], %[[SC]], %[[ZC]] quant_min = 0 quant_max = 15 axis = 1 : (tensor<?x3x5xf32>, tensor<?x3x5xf32>, tensor<3xf32>, tensor<3xi32>) -> tensor<?x3x5xf32>
// CHECK-NEXT:    return
func.func @fake_quantize(%x: tensor<?x3x5xf32>, %s: tensor<f32>, %z: tensor<i32>, %sc: tensor<3xf32>, %zc: tensor<3xi32>, %dy: tensor<?x3x5xf32>) {
  %0 = rlx.fake_quantize %x, %s, %z quant_min = -128 quant_max = 127 : (tensor<?x3x5xf32>, tensor<f32>, tensor<i32>) -> tensor<?x3x5xf32>
  %1 = rlx.fake_quantize %x, %sc, %zc quant_min = 0 quant_max = 15 axis = 1 : (tensor<?x3x5xf32>, tensor<3xf32>, tensor<3xi32>) -> tensor<?x3x5xf32>
  %2 = rlx.fake_quantize_backward %dy, %x, %sc, %zc quant_min = 0 quant_max = 15 axis = 1 : (tensor<?x3x5xf32>, tensor<?x3x5xf32>, tensor<3xf32>, tensor<3xi32>) -> tensor<?x3x5xf32>
  return
}

// CHECK-LABEL: func.func @fake_quantize_lsq(
// CHECK-SAME:    %[[W:[a-z0-9]+]]: tensor<8x?xf16>, %[[SC:[a-z0-9]+]]: tensor<8xf16>, %[[ZC:[a-z0-9]+]]: tensor<8xf16>, %[[X:[a-z0-9]+]]: tensor<2x4xf64>, %[[S:[a-z0-9]+]]: tensor<f64>, %[[Z:[a-z0-9]+]]: tensor<f64>, %[[DW:[a-z0-9]+]]: tensor<8x?xf16>)
// CHECK-NEXT:    %{{.*}} = rlx.fake_quantize_lsq %[[W]], %[[SC]], %[[ZC]] quant_min = -8 quant_max = 7 axis = 0 : (tensor<8x?xf16>, tensor<8xf16>, tensor<8xf16>) -> tensor<8x?xf16>
// CHECK-NEXT:    %{{.*}} = rlx.fake_quantize_lsq %[[X]], %[[S]], %[[Z]] quant_min = 0 quant_max = 255 grad_factor = 5.000000e-01 : (tensor<2x4xf64>, tensor<f64>, tensor<f64>) -> tensor<2x4xf64>
// CHECK-NEXT:    %{{.*}}, %{{.*}}, %{{.*}} = rlx.fake_quantize_lsq_backward %[[DW]], %[[W]], %[[SC]], %[[ZC]] quant_min = -8 quant_max = 7 axis = 0 grad_factor = 2.500000e-01 : (tensor<8x?xf16>, tensor<8x?xf16>, tensor<8xf16>, tensor<8xf16>) -> (tensor<8x?xf16>, tensor<8xf16>, tensor<8xf16>)
// CHECK-NEXT:    return
func.func @fake_quantize_lsq(%w: tensor<8x?xf16>, %sc: tensor<8xf16>, %zc: tensor<8xf16>, %x: tensor<2x4xf64>, %s: tensor<f64>, %z: tensor<f64>, %dw: tensor<8x?xf16>) {
  %0 = rlx.fake_quantize_lsq %w, %sc, %zc quant_min = -8 quant_max = 7 axis = 0 grad_factor = 1.0 : (tensor<8x?xf16>, tensor<8xf16>, tensor<8xf16>) -> tensor<8x?xf16>
  %1 = rlx.fake_quantize_lsq %x, %s, %z quant_min = 0 quant_max = 255 grad_factor = 0.5 : (tensor<2x4xf64>, tensor<f64>, tensor<f64>) -> tensor<2x4xf64>
  %2:3 = rlx.fake_quantize_lsq_backward %dw, %w, %sc, %zc quant_min = -8 quant_max = 7 axis = 0 grad_factor = 0.25 : (tensor<8x?xf16>, tensor<8x?xf16>, tensor<8xf16>, tensor<8xf16>) -> (tensor<8x?xf16>, tensor<8xf16>, tensor<8xf16>)
  return
}
