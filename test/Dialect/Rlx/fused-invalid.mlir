// RUN: rlx-opt %s -split-input-file -verify-diagnostics

func.func @swiglu_odd(%a: tensor<4x7xf32>) {
  // expected-error @+2 {{the last axis holds [up, gate] halves and must have even length, got 7}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = rlx.swiglu %a : tensor<4x7xf32> -> tensor<4x3xf32>
  return
}

// -----

func.func @swiglu_rank0(%a: tensor<f32>) {
  // expected-error @+2 {{input must have rank >= 1}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = rlx.swiglu %a : tensor<f32> -> tensor<f32>
  return
}

// -----

func.func @swiglu_result_type(%a: tensor<4x8xf32>) {
  // expected-error @+2 {{inferred type(s) 'tensor<4x4xf32>' are incompatible with return type(s) of operation 'tensor<4x8xf32>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = rlx.swiglu %a : tensor<4x8xf32> -> tensor<4x8xf32>
  return
}

// -----

func.func @swiglu_int(%a: tensor<4x8xi32>) {
  // expected-error @+1 {{operand #0 must be ranked tensor of floating-point values}}
  %0 = rlx.swiglu %a : tensor<4x8xi32> -> tensor<4x4xi32>
  return
}

// -----

func.func @matmul_bias_act_contracting(%a: tensor<4x8xf32>, %b: tensor<7x6xf32>, %bias: tensor<6xf32>) {
  // expected-error @+2 {{contracting dimensions differ: lhs [4, 8] has K = 8, rhs [7, 6] has K = 7}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = rlx.matmul_bias_act %a, %b, %bias : (tensor<4x8xf32>, tensor<7x6xf32>, tensor<6xf32>) -> tensor<4x6xf32>
  return
}

// -----

func.func @matmul_bias_act_bias_shape(%a: tensor<4x8xf32>, %b: tensor<8x6xf32>, %bias: tensor<1x6xf32>) {
  // expected-error @+2 {{bias [1, 6] must have shape [6] (N of the contraction result)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = rlx.matmul_bias_act %a, %b, %bias : (tensor<4x8xf32>, tensor<8x6xf32>, tensor<1x6xf32>) -> tensor<4x6xf32>
  return
}

// -----

func.func @matmul_bias_act_element_type(%a: tensor<4x8xf32>, %b: tensor<8x6xf32>, %bias: tensor<6xf16>) {
  // expected-error @+1 {{requires the same element type for all operands and results}}
  %0 = rlx.matmul_bias_act %a, %b, %bias : (tensor<4x8xf32>, tensor<8x6xf32>, tensor<6xf16>) -> tensor<4x6xf32>
  return
}

// -----

func.func @matmul_bias_act_int(%a: tensor<4x8xi32>, %b: tensor<8x6xi32>, %bias: tensor<6xi32>) {
  // expected-error @+1 {{operand #0 must be ranked tensor of floating-point values}}
  %0 = rlx.matmul_bias_act %a, %b, %bias : (tensor<4x8xi32>, tensor<8x6xi32>, tensor<6xi32>) -> tensor<4x6xi32>
  return
}

// -----

func.func @matmul_bias_act_activation(%a: tensor<4x8xf32>, %b: tensor<8x6xf32>, %bias: tensor<6xf32>) {
  // expected-error @+1 {{expected string or keyword containing one of the following enum values for attribute 'activation' [gelu, gelu_approx, silu, relu, sigmoid, tanh, elu, mish, softplus, hard_swish, hard_sigmoid, softsign, log_sigmoid, exp, log, sqrt, rsqrt, neg, abs, sin, cos, tan, atan, recip, round, floor, ceil, sign, erf]}}
  %0 = rlx.matmul_bias_act %a, %b, %bias activation = clamp : (tensor<4x8xf32>, tensor<8x6xf32>, tensor<6xf32>) -> tensor<4x6xf32>
  return
}

// -----

func.func @matmul_bias_act_result_type(%a: tensor<4x8xf32>, %b: tensor<8x6xf32>, %bias: tensor<6xf32>) {
  // expected-error @+2 {{inferred type(s) 'tensor<4x6xf32>' are incompatible with return type(s) of operation 'tensor<6x4xf32>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = rlx.matmul_bias_act %a, %b, %bias : (tensor<4x8xf32>, tensor<8x6xf32>, tensor<6xf32>) -> tensor<6x4xf32>
  return
}

// -----

func.func @matmul_residual_shape(%a: tensor<4x8xf32>, %b: tensor<8x6xf32>, %r: tensor<1x6xf32>) {
  // expected-error @+2 {{residual [1, 6] must have the shape of the contraction result [4, 6]}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = rlx.matmul_residual %a, %b, %r : (tensor<4x8xf32>, tensor<8x6xf32>, tensor<1x6xf32>) -> tensor<4x6xf32>
  return
}

// -----

func.func @matmul_residual_batch(%a: tensor<2x4x8xf32>, %b: tensor<3x8x6xf32>, %r: tensor<2x4x6xf32>) {
  // expected-error @+2 {{batch dimensions are not broadcast compatible: [2] and [3]}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = rlx.matmul_residual %a, %b, %r : (tensor<2x4x8xf32>, tensor<3x8x6xf32>, tensor<2x4x6xf32>) -> tensor<2x4x6xf32>
  return
}

// -----

func.func @conv_bias_act_groups(%x: tensor<1x4x8x8xf32>, %w: tensor<6x4x3x3xf32>, %bias: tensor<6xf32>) {
  // expected-error @+2 {{'groups' (4) must divide the output channels (weight dimension 0 = 6)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = rlx.conv_bias_act %x, %w, %bias stride = [1, 1] padding = [0, 0, 0, 0] dilation = [1, 1] groups = 4 : (tensor<1x4x8x8xf32>, tensor<6x4x3x3xf32>, tensor<6xf32>) -> tensor<1x6x6x6xf32>
  return
}

// -----

func.func @conv_bias_act_stride(%x: tensor<1x4x8x8xf32>, %w: tensor<6x4x3x3xf32>, %bias: tensor<6xf32>) {
  // expected-error @+2 {{'stride' must have 2 entries, got 1: [1]}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = rlx.conv_bias_act %x, %w, %bias stride = [1] padding = [0, 0, 0, 0] dilation = [1, 1] groups = 1 : (tensor<1x4x8x8xf32>, tensor<6x4x3x3xf32>, tensor<6xf32>) -> tensor<1x6x6x6xf32>
  return
}

// -----

func.func @conv_bias_act_bias_shape(%x: tensor<1x4x8x8xf32>, %w: tensor<6x4x3x3xf32>, %bias: tensor<1x6x1x1xf32>) {
  // expected-error @+2 {{bias [1, 6, 1, 1] must have shape [6] (C_out of the contraction result)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = rlx.conv_bias_act %x, %w, %bias stride = [1, 1] padding = [0, 0, 0, 0] dilation = [1, 1] groups = 1 : (tensor<1x4x8x8xf32>, tensor<6x4x3x3xf32>, tensor<1x6x1x1xf32>) -> tensor<1x6x6x6xf32>
  return
}

// -----

func.func @conv_bias_act_residual_shape(%x: tensor<1x4x8x8xf32>, %w: tensor<6x4x3x3xf32>, %bias: tensor<6xf32>, %r: tensor<1x6x8x8xf32>) {
  // expected-error @+2 {{residual [1, 6, 8, 8] must have the shape of the contraction result [1, 6, 6, 6]}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = rlx.conv_bias_act %x, %w, %bias, %r stride = [1, 1] padding = [0, 0, 0, 0] dilation = [1, 1] groups = 1 activation = relu : (tensor<1x4x8x8xf32>, tensor<6x4x3x3xf32>, tensor<6xf32>, tensor<1x6x8x8xf32>) -> tensor<1x6x6x6xf32>
  return
}

// -----

func.func @conv_bias_act_residual_element_type(%x: tensor<1x4x8x8xf32>, %w: tensor<6x4x3x3xf32>, %bias: tensor<6xf32>, %r: tensor<1x6x6x6xf16>) {
  // expected-error @+1 {{requires the same element type for all operands and results}}
  %0 = rlx.conv_bias_act %x, %w, %bias, %r stride = [1, 1] padding = [0, 0, 0, 0] dilation = [1, 1] groups = 1 : (tensor<1x4x8x8xf32>, tensor<6x4x3x3xf32>, tensor<6xf32>, tensor<1x6x6x6xf16>) -> tensor<1x6x6x6xf32>
  return
}

// -----

func.func @residual_norm_residual_type(%x: tensor<4x8xf32>, %r: tensor<1x8xf32>, %g: tensor<8xf32>, %b: tensor<8xf32>) {
  // expected-error @+1 {{failed to verify that all of {input, residual, result, sum} have same type}}
  %0:2 = rlx.residual_layer_norm %x, %r, %g, %b axis = -1 eps = 1.0e-5 : (tensor<4x8xf32>, tensor<1x8xf32>, tensor<8xf32>, tensor<8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>)
  return
}

// -----

func.func @residual_norm_gamma(%x: tensor<4x8xf32>, %g: tensor<4xf32>) {
  // expected-error @+1 {{gamma must be [8] (the size of the normalized axis), got [4]}}
  %0:2 = rlx.residual_rms_norm %x, %x, %g axis = 1 eps = 1.0e-5 : (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>)
  return
}

// -----

func.func @residual_norm_axis(%x: tensor<4x8xf32>, %g: tensor<8xf32>) {
  // expected-error @+1 {{axis 2 is out of range for rank 2}}
  %0:2 = rlx.residual_rms_norm %x, %x, %g axis = 2 eps = 1.0e-5 : (tensor<4x8xf32>, tensor<4x8xf32>, tensor<8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>)
  return
}

// -----

func.func @residual_norm_eps(%x: tensor<4x8xf32>, %g: tensor<8xf32>, %b: tensor<8xf32>) {
  // expected-error @+1 {{eps must be finite and non-negative, got -1.000000e+00}}
  %0:2 = rlx.residual_layer_norm %x, %x, %g, %b axis = 1 eps = -1.0 : (tensor<4x8xf32>, tensor<4x8xf32>, tensor<8xf32>, tensor<8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>)
  return
}

// -----

func.func @lora_matmul_rank(%x: tensor<4x8xf32>, %w: tensor<8x6xf32>, %a: tensor<8x2xf32>, %b: tensor<2x6xf32>) {
  // expected-error @+2 {{lora_matmul's adapter [2, 6] x [2, 6] does not fit the weight [8, 6]: needs [K, R] x [R, N]}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = "rlx.lora_matmul"(%x, %w, %b, %b) <{scale = 1.0 : f64}> : (tensor<4x8xf32>, tensor<8x6xf32>, tensor<2x6xf32>, tensor<2x6xf32>) -> tensor<4x6xf32>
  return
}

// -----

func.func @lora_matmul_adapter_rank(%x: tensor<4x8xf32>, %w: tensor<8x6xf32>, %a: tensor<8x2xf32>, %b: tensor<2x2x6xf32>) {
  // expected-error @+2 {{lora_matmul needs a [K, N] weight and a [K, R], [R, N] adapter, got ranks 2, 2, 3}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = rlx.lora_matmul %x, %w, %a, %b scale = 1.0 : (tensor<4x8xf32>, tensor<8x6xf32>, tensor<8x2xf32>, tensor<2x2x6xf32>) -> tensor<4x6xf32>
  return
}

// -----

func.func @lora_matmul_element_types(%x: tensor<4x8xf32>, %w: tensor<8x6xf32>, %a: tensor<8x2xf16>, %b: tensor<2x6xf32>) {
  // expected-error @+1 {{'rlx.lora_matmul' op requires the same element type for all operands and results}}
  %0 = rlx.lora_matmul %x, %w, %a, %b scale = 1.0 : (tensor<4x8xf32>, tensor<8x6xf32>, tensor<8x2xf16>, tensor<2x6xf32>) -> tensor<4x6xf32>
  return
}
