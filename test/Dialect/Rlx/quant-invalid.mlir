// RUN: rlx-opt %s -split-input-file -verify-diagnostics

// One case per verifier rule of the quantization ops.

func.func @per_tensor_rank(%x: tensor<4x5xf32>, %s: tensor<4xf32>, %z: tensor<4xi32>) {
  // expected-error @+2 {{per-tensor scale and zero_point must have rank 0 (an axis makes them per-channel), got scale [4] and zero_point [4]}}
  // expected-error @+1 {{'rlx.quantize' op failed to infer returned types}}
  %0 = rlx.quantize %x, %s, %z : (tensor<4x5xf32>, tensor<4xf32>, tensor<4xi32>) -> tensor<4x5xi8>
  return
}

// -----

func.func @per_tensor_zero_point_rank(%x: tensor<4x5xf32>, %s: tensor<f32>, %z: tensor<1xi32>) {
  // expected-error @+2 {{per-tensor scale and zero_point must have rank 0 (an axis makes them per-channel), got scale [] and zero_point [1]}}
  // expected-error @+1 {{'rlx.fake_quantize' op failed to infer returned types}}
  %0 = rlx.fake_quantize %x, %s, %z quant_min = -128 quant_max = 127 : (tensor<4x5xf32>, tensor<f32>, tensor<1xi32>) -> tensor<4x5xf32>
  return
}

// -----

func.func @axis_range(%q: tensor<4x5xi8>, %s: tensor<4xf32>, %z: tensor<4xi32>) {
  // expected-error @+2 {{axis 2 is out of range for rank 2}}
  // expected-error @+1 {{'rlx.dequantize' op failed to infer returned types}}
  %0 = rlx.dequantize %q, %s, %z axis = 2 : (tensor<4x5xi8>, tensor<4xf32>, tensor<4xi32>) -> tensor<4x5xf32>
  return
}

// -----

func.func @axis_scalar_input(%x: tensor<f32>, %s: tensor<1xf32>, %z: tensor<1xi32>) {
  // expected-error @+2 {{axis 0 is out of range for rank 0}}
  // expected-error @+1 {{'rlx.quantize' op failed to infer returned types}}
  %0 = rlx.quantize %x, %s, %z axis = 0 : (tensor<f32>, tensor<1xf32>, tensor<1xi32>) -> tensor<i8>
  return
}

// -----

func.func @per_channel_rank(%x: tensor<4x5xf32>, %s: tensor<f32>, %z: tensor<i32>) {
  // expected-error @+2 {{per-channel scale and zero_point must have rank 1, got scale [] and zero_point []}}
  // expected-error @+1 {{'rlx.quantize' op failed to infer returned types}}
  %0 = rlx.quantize %x, %s, %z axis = 0 : (tensor<4x5xf32>, tensor<f32>, tensor<i32>) -> tensor<4x5xi8>
  return
}

// -----

func.func @per_channel_scale_size(%x: tensor<4x5xf32>, %s: tensor<5xf32>, %z: tensor<4xi32>) {
  // expected-error @+2 {{scale [5] must have the size of axis 0 of the input [4, 5], 4}}
  // expected-error @+1 {{'rlx.quantize' op failed to infer returned types}}
  %0 = rlx.quantize %x, %s, %z axis = 0 : (tensor<4x5xf32>, tensor<5xf32>, tensor<4xi32>) -> tensor<4x5xi8>
  return
}

// -----

func.func @per_channel_zero_point_size(%x: tensor<4x?xf32>, %s: tensor<?xf32>, %z: tensor<3xi32>) {
  // expected-error @+2 {{zero_point [3] must have the size of axis -2 of the input [4, ?], 4}}
  // expected-error @+1 {{'rlx.fake_quantize' op failed to infer returned types}}
  %0 = rlx.fake_quantize %x, %s, %z quant_min = 0 quant_max = 255 axis = -2 : (tensor<4x?xf32>, tensor<?xf32>, tensor<3xi32>) -> tensor<4x?xf32>
  return
}

// -----

func.func @quantize_integer_input(%x: tensor<4xi8>, %s: tensor<f32>, %z: tensor<i32>) {
  // expected-error @+1 {{'rlx.quantize' op operand #0 must be ranked tensor of floating-point values, but got 'tensor<4xi8>'}}
  %0 = rlx.quantize %x, %s, %z : (tensor<4xi8>, tensor<f32>, tensor<i32>) -> tensor<4xi8>
  return
}

// -----

func.func @quantize_float_zero_point(%x: tensor<4xf32>, %s: tensor<f32>, %z: tensor<f32>) {
  // expected-error @+1 {{'rlx.quantize' op operand #2 must be ranked tensor of 32-bit signless integer values, but got 'tensor<f32>'}}
  %0 = rlx.quantize %x, %s, %z : (tensor<4xf32>, tensor<f32>, tensor<f32>) -> tensor<4xi8>
  return
}

// -----

func.func @quantize_integer_scale(%x: tensor<4xf32>, %s: tensor<i32>, %z: tensor<i32>) {
  // expected-error @+1 {{'rlx.quantize' op operand #1 must be ranked tensor of floating-point values, but got 'tensor<i32>'}}
  %0 = rlx.quantize %x, %s, %z : (tensor<4xf32>, tensor<i32>, tensor<i32>) -> tensor<4xi8>
  return
}

// -----

func.func @quantize_wide_result(%x: tensor<4xf32>, %s: tensor<f32>, %z: tensor<i32>) {
  // expected-error @+1 {{'rlx.quantize' op result #0 must be ranked tensor of 8-bit signless integer values, but got 'tensor<4xi32>'}}
  %0 = rlx.quantize %x, %s, %z : (tensor<4xf32>, tensor<f32>, tensor<i32>) -> tensor<4xi32>
  return
}

// -----

func.func @quantize_result_shape(%x: tensor<4x?xf32>, %s: tensor<f32>, %z: tensor<i32>) {
  // expected-error @+2 {{'rlx.quantize' op inferred type(s) 'tensor<4x?xi8>' are incompatible with return type(s) of operation 'tensor<4x8xi8>'}}
  // expected-error @+1 {{'rlx.quantize' op failed to infer returned types}}
  %0 = rlx.quantize %x, %s, %z : (tensor<4x?xf32>, tensor<f32>, tensor<i32>) -> tensor<4x8xi8>
  return
}

// -----

func.func @dequantize_float_input(%q: tensor<4xf32>, %s: tensor<f32>, %z: tensor<i32>) {
  // expected-error @+1 {{'rlx.dequantize' op operand #0 must be ranked tensor of 8-bit signless integer values, but got 'tensor<4xf32>'}}
  %0 = rlx.dequantize %q, %s, %z : (tensor<4xf32>, tensor<f32>, tensor<i32>) -> tensor<4xf32>
  return
}

// -----

func.func @dequantize_result_type(%q: tensor<4xi8>, %s: tensor<f16>, %z: tensor<i32>) {
  // expected-error @+2 {{'rlx.dequantize' op inferred type(s) 'tensor<4xf16>' are incompatible with return type(s) of operation 'tensor<4xf32>'}}
  // expected-error @+1 {{'rlx.dequantize' op failed to infer returned types}}
  %0 = rlx.dequantize %q, %s, %z : (tensor<4xi8>, tensor<f16>, tensor<i32>) -> tensor<4xf32>
  return
}

// -----

func.func @fake_quantize_range_order(%x: tensor<4xf32>, %s: tensor<f32>, %z: tensor<i32>) {
  // expected-error @+1 {{'rlx.fake_quantize' op needs quant_min <= quant_max within the i32 range, got [5, 4]}}
  %0 = rlx.fake_quantize %x, %s, %z quant_min = 5 quant_max = 4 : (tensor<4xf32>, tensor<f32>, tensor<i32>) -> tensor<4xf32>
  return
}

// -----

func.func @fake_quantize_range_width(%x: tensor<4xf32>, %s: tensor<f32>, %z: tensor<i32>) {
  // expected-error @+1 {{'rlx.fake_quantize' op needs quant_min <= quant_max within the i32 range, got [0, 4294967296]}}
  %0 = rlx.fake_quantize %x, %s, %z quant_min = 0 quant_max = 4294967296 : (tensor<4xf32>, tensor<f32>, tensor<i32>) -> tensor<4xf32>
  return
}

// -----

func.func @fake_quantize_result_type(%x: tensor<4xf32>, %s: tensor<f32>, %z: tensor<i32>) {
  // expected-error @+2 {{'rlx.fake_quantize' op inferred type(s) 'tensor<4xf32>' are incompatible with return type(s) of operation 'tensor<4xf16>'}}
  // expected-error @+1 {{'rlx.fake_quantize' op failed to infer returned types}}
  %0 = rlx.fake_quantize %x, %s, %z quant_min = -8 quant_max = 7 : (tensor<4xf32>, tensor<f32>, tensor<i32>) -> tensor<4xf16>
  return
}

// -----

func.func @fake_quantize_backward_dy(%dy: tensor<4xf16>, %x: tensor<4xf32>, %s: tensor<f32>, %z: tensor<i32>) {
  // expected-error @+1 {{'rlx.fake_quantize_backward' op failed to verify that all of {dy, input} have same type}}
  %0 = rlx.fake_quantize_backward %dy, %x, %s, %z quant_min = -8 quant_max = 7 : (tensor<4xf16>, tensor<4xf32>, tensor<f32>, tensor<i32>) -> tensor<4xf32>
  return
}

// -----

func.func @fake_quantize_backward_range(%dy: tensor<4xf32>, %x: tensor<4xf32>, %s: tensor<f32>, %z: tensor<i32>) {
  // expected-error @+1 {{'rlx.fake_quantize_backward' op needs quant_min <= quant_max within the i32 range, got [-4294967296, 7]}}
  %0 = rlx.fake_quantize_backward %dy, %x, %s, %z quant_min = -4294967296 quant_max = 7 : (tensor<4xf32>, tensor<4xf32>, tensor<f32>, tensor<i32>) -> tensor<4xf32>
  return
}

// -----

func.func @lsq_element_types(%x: tensor<4xf32>, %s: tensor<f16>, %z: tensor<f32>) {
  // expected-error @+1 {{'rlx.fake_quantize_lsq' op failed to verify that all of {input, scale, zero_point} have same element type}}
  %0 = rlx.fake_quantize_lsq %x, %s, %z quant_min = 0 quant_max = 255 : (tensor<4xf32>, tensor<f16>, tensor<f32>) -> tensor<4xf32>
  return
}

// -----

func.func @lsq_integer_zero_point(%x: tensor<4xf32>, %s: tensor<f32>, %z: tensor<i32>) {
  // expected-error @+1 {{'rlx.fake_quantize_lsq' op operand #2 must be ranked tensor of floating-point values, but got 'tensor<i32>'}}
  %0 = rlx.fake_quantize_lsq %x, %s, %z quant_min = 0 quant_max = 255 : (tensor<4xf32>, tensor<f32>, tensor<i32>) -> tensor<4xf32>
  return
}

// -----

func.func @lsq_range(%x: tensor<4xf32>, %s: tensor<f32>, %z: tensor<f32>) {
  // expected-error @+1 {{'rlx.fake_quantize_lsq' op needs quant_min <= quant_max within the i32 range, got [1, 0]}}
  %0 = rlx.fake_quantize_lsq %x, %s, %z quant_min = 1 quant_max = 0 : (tensor<4xf32>, tensor<f32>, tensor<f32>) -> tensor<4xf32>
  return
}

// -----

func.func @lsq_grad_factor(%x: tensor<4xf32>, %s: tensor<f32>, %z: tensor<f32>) {
  // expected-error @+1 {{'rlx.fake_quantize_lsq' op needs a finite grad_factor, got}}
  %0 = rlx.fake_quantize_lsq %x, %s, %z quant_min = 0 quant_max = 255 grad_factor = 0x7FF0000000000000 : (tensor<4xf32>, tensor<f32>, tensor<f32>) -> tensor<4xf32>
  return
}

// -----

func.func @lsq_per_channel_size(%x: tensor<2x3xf32>, %s: tensor<2xf32>, %z: tensor<2xf32>) {
  // expected-error @+2 {{scale [2] must have the size of axis 1 of the input [2, 3], 3}}
  // expected-error @+1 {{'rlx.fake_quantize_lsq' op failed to infer returned types}}
  %0 = rlx.fake_quantize_lsq %x, %s, %z quant_min = -8 quant_max = 7 axis = 1 : (tensor<2x3xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @lsq_backward_grad_factor(%dy: tensor<4xf32>, %x: tensor<4xf32>, %s: tensor<f32>, %z: tensor<f32>) {
  // expected-error @+1 {{'rlx.fake_quantize_lsq_backward' op needs a finite grad_factor, got}}
  %0:3 = rlx.fake_quantize_lsq_backward %dy, %x, %s, %z quant_min = 0 quant_max = 15 grad_factor = 0x7FF8000000000000 : (tensor<4xf32>, tensor<4xf32>, tensor<f32>, tensor<f32>) -> (tensor<4xf32>, tensor<f32>, tensor<f32>)
  return
}

// -----

func.func @lsq_backward_range(%dy: tensor<4xf32>, %x: tensor<4xf32>, %s: tensor<f32>, %z: tensor<f32>) {
  // expected-error @+1 {{'rlx.fake_quantize_lsq_backward' op needs quant_min <= quant_max within the i32 range, got [8, -8]}}
  %0:3 = rlx.fake_quantize_lsq_backward %dy, %x, %s, %z quant_min = 8 quant_max = -8 : (tensor<4xf32>, tensor<4xf32>, tensor<f32>, tensor<f32>) -> (tensor<4xf32>, tensor<f32>, tensor<f32>)
  return
}

// -----

func.func @lsq_backward_dscale_type(%dy: tensor<4xf32>, %x: tensor<4xf32>, %s: tensor<f32>, %z: tensor<f32>) {
  // expected-error @+2 {{'rlx.fake_quantize_lsq_backward' op inferred type(s) 'tensor<4xf32>', 'tensor<f32>', 'tensor<f32>' are incompatible with return type(s) of operation 'tensor<4xf32>', 'tensor<1xf32>', 'tensor<f32>'}}
  // expected-error @+1 {{'rlx.fake_quantize_lsq_backward' op failed to infer returned types}}
  %0:3 = rlx.fake_quantize_lsq_backward %dy, %x, %s, %z quant_min = 0 quant_max = 15 : (tensor<4xf32>, tensor<4xf32>, tensor<f32>, tensor<f32>) -> (tensor<4xf32>, tensor<1xf32>, tensor<f32>)
  return
}

// -----

func.func @lsq_backward_dy(%dy: tensor<5xf32>, %x: tensor<4xf32>, %s: tensor<f32>, %z: tensor<f32>) {
  // expected-error @+1 {{'rlx.fake_quantize_lsq_backward' op failed to verify that all of {dy, input} have same type}}
  %0:3 = rlx.fake_quantize_lsq_backward %dy, %x, %s, %z quant_min = 0 quant_max = 15 : (tensor<5xf32>, tensor<4xf32>, tensor<f32>, tensor<f32>) -> (tensor<4xf32>, tensor<f32>, tensor<f32>)
  return
}
