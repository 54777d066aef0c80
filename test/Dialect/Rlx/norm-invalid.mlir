// RUN: rlx-opt %s -split-input-file -verify-diagnostics

// Every verifier rule of the normalization, rotary embedding and loss ops.

func.func @layer_norm_axis(%x: tensor<2x4xf32>, %g: tensor<4xf32>) {
  // expected-error @+1 {{'rlx.layer_norm' op axis 2 is out of range for rank 2}}
  %0 = rlx.layer_norm %x, %g, %g axis = 2 eps = 1.0e-5 : (tensor<2x4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<2x4xf32>
  return
}

// -----

func.func @layer_norm_axis_negative(%x: tensor<2x4xf32>, %g: tensor<4xf32>) {
  // expected-error @+1 {{'rlx.layer_norm' op axis -3 is out of range for rank 2}}
  %0 = rlx.layer_norm %x, %g, %g axis = -3 eps = 1.0e-5 : (tensor<2x4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<2x4xf32>
  return
}

// -----

func.func @layer_norm_gamma(%x: tensor<2x4xf32>, %g: tensor<4xf32>) {
  // expected-error @+1 {{'rlx.layer_norm' op gamma must be [2] (the size of the normalized axis), got [4]}}
  %0 = rlx.layer_norm %x, %g, %g axis = 0 eps = 1.0e-5 : (tensor<2x4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<2x4xf32>
  return
}

// -----

func.func @layer_norm_beta(%x: tensor<2x4xf32>, %g: tensor<4xf32>, %b: tensor<1x4xf32>) {
  // expected-error @+1 {{'rlx.layer_norm' op beta must be [4] (the size of the normalized axis), got [1, 4]}}
  %0 = rlx.layer_norm %x, %g, %b axis = 1 eps = 1.0e-5 : (tensor<2x4xf32>, tensor<4xf32>, tensor<1x4xf32>) -> tensor<2x4xf32>
  return
}

// -----

func.func @layer_norm_eps(%x: tensor<2x4xf32>, %g: tensor<4xf32>) {
  // expected-error @+1 {{'rlx.layer_norm' op eps must be finite and non-negative, got -1.000000e-05}}
  %0 = rlx.layer_norm %x, %g, %g axis = 1 eps = -1.0e-5 : (tensor<2x4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<2x4xf32>
  return
}

// -----

func.func @layer_norm_eps_nan(%x: tensor<2x4xf32>, %g: tensor<4xf32>) {
  // expected-error @+1 {{'rlx.layer_norm' op eps must be finite and non-negative, got nan}}
  %0 = rlx.layer_norm %x, %g, %g axis = 1 eps = 0x7FF8000000000000 : (tensor<2x4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<2x4xf32>
  return
}

// -----

func.func @layer_norm_element_types(%x: tensor<2x4xf32>, %g: tensor<4xf16>) {
  // expected-error @+1 {{'rlx.layer_norm' op failed to verify that all of {input, gamma, result} have same element type}}
  %0 = rlx.layer_norm %x, %g, %g axis = 1 eps = 1.0e-5 : (tensor<2x4xf32>, tensor<4xf16>, tensor<4xf16>) -> tensor<2x4xf32>
  return
}

// -----

func.func @layer_norm_integer(%x: tensor<2x4xi32>, %g: tensor<4xi32>) {
  // expected-error @+1 {{'rlx.layer_norm' op operand #0 must be ranked tensor of floating-point values, but got 'tensor<2x4xi32>'}}
  %0 = rlx.layer_norm %x, %g, %g axis = 1 eps = 1.0e-5 : (tensor<2x4xi32>, tensor<4xi32>, tensor<4xi32>) -> tensor<2x4xi32>
  return
}

// -----

func.func @layer_norm_result(%x: tensor<2x4xf32>, %g: tensor<4xf32>) {
  // expected-error @+2 {{'rlx.layer_norm' op inferred type(s) 'tensor<2x4xf32>' are incompatible with return type(s) of operation 'tensor<4x2xf32>'}}
  // expected-error @+1 {{'rlx.layer_norm' op failed to infer returned types}}
  %0 = rlx.layer_norm %x, %g, %g axis = 1 eps = 1.0e-5 : (tensor<2x4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<4x2xf32>
  return
}

// -----

func.func @layer_norm_beta_element(%x: tensor<2x4xf32>, %g: tensor<4xf32>, %b: tensor<4xf64>) {
  // expected-error @+1 {{'rlx.layer_norm' op beta must have the element type of input, 'f32', got 'f64'}}
  %0 = rlx.layer_norm %x, %g, %b axis = 1 eps = 1.0e-5 : (tensor<2x4xf32>, tensor<4xf32>, tensor<4xf64>) -> tensor<2x4xf32>
  return
}

// -----

func.func @layer_norm_statistics_missing(%x: tensor<2x4xf16>, %g: tensor<4xf16>) {
  // expected-error @+2 {{'rlx.layer_norm' op inferred type(s) 'tensor<2x4xf16>', 'tensor<2x1xf32>', 'tensor<2x1xf32>' are incompatible with return type(s) of operation 'tensor<2x4xf16>'}}
  // expected-error @+1 {{'rlx.layer_norm' op failed to infer returned types}}
  %0 = rlx.layer_norm %x, %g, %g axis = 1 eps = 1.0e-5 with_statistics : (tensor<2x4xf16>, tensor<4xf16>, tensor<4xf16>) -> tensor<2x4xf16>
  return
}

// -----

func.func @layer_norm_statistics_type(%x: tensor<2x4xf16>, %g: tensor<4xf16>) {
  // expected-error @+2 {{'rlx.layer_norm' op inferred type(s) 'tensor<2x4xf16>', 'tensor<2x1xf32>', 'tensor<2x1xf32>' are incompatible with return type(s) of operation 'tensor<2x4xf16>', 'tensor<2x1xf16>', 'tensor<2x1xf16>'}}
  // expected-error @+1 {{'rlx.layer_norm' op failed to infer returned types}}
  %0:3 = rlx.layer_norm %x, %g, %g axis = 1 eps = 1.0e-5 with_statistics : (tensor<2x4xf16>, tensor<4xf16>, tensor<4xf16>) -> (tensor<2x4xf16>, tensor<2x1xf16>, tensor<2x1xf16>)
  return
}

// -----

func.func @layer_norm_statistics_unrequested(%x: tensor<2x4xf32>, %g: tensor<4xf32>) {
  // expected-error @+2 {{'rlx.layer_norm' op inferred type(s) 'tensor<2x4xf32>' are incompatible with return type(s) of operation 'tensor<2x4xf32>', 'tensor<2x1xf32>', 'tensor<2x1xf32>'}}
  // expected-error @+1 {{'rlx.layer_norm' op failed to infer returned types}}
  %0:3 = rlx.layer_norm %x, %g, %g axis = 1 eps = 1.0e-5 : (tensor<2x4xf32>, tensor<4xf32>, tensor<4xf32>) -> (tensor<2x4xf32>, tensor<2x1xf32>, tensor<2x1xf32>)
  return
}

// -----

// Inferring the statistics' shape must not trust the axis either.
func.func @layer_norm_statistics_axis(%x: tensor<2x4xf32>, %g: tensor<4xf32>) {
  // expected-error @+1 {{'rlx.layer_norm' op axis 2 is out of range for rank 2}}
  %0:3 = rlx.layer_norm %x, %g, %g axis = 2 eps = 1.0e-5 with_statistics : (tensor<2x4xf32>, tensor<4xf32>, tensor<4xf32>) -> (tensor<2x4xf32>, tensor<2x1xf32>, tensor<2x1xf32>)
  return
}

// -----

func.func @rms_norm_statistics_count(%x: tensor<2x4xf32>, %g: tensor<4xf32>) {
  // expected-error @+2 {{'rlx.rms_norm' op inferred type(s) 'tensor<2x4xf32>', 'tensor<2x1xf32>' are incompatible with return type(s) of operation 'tensor<2x4xf32>', 'tensor<2x1xf32>', 'tensor<2x1xf32>'}}
  // expected-error @+1 {{'rlx.rms_norm' op failed to infer returned types}}
  %0:3 = rlx.rms_norm %x, %g axis = 1 eps = 1.0e-5 with_statistics : (tensor<2x4xf32>, tensor<4xf32>) -> (tensor<2x4xf32>, tensor<2x1xf32>, tensor<2x1xf32>)
  return
}

// -----

func.func @rms_norm_beta_element(%x: tensor<2x4xf32>, %g: tensor<4xf32>, %b: tensor<4xf16>) {
  // expected-error @+1 {{'rlx.rms_norm' op beta must have the element type of input, 'f32', got 'f16'}}
  %0 = rlx.rms_norm %x, %g, %b axis = 1 eps = 1.0e-5 : (tensor<2x4xf32>, tensor<4xf32>, tensor<4xf16>) -> tensor<2x4xf32>
  return
}

// -----

func.func @rms_norm_axis(%x: tensor<2x4xf32>, %g: tensor<4xf32>) {
  // expected-error @+1 {{'rlx.rms_norm' op axis 5 is out of range for rank 2}}
  %0 = rlx.rms_norm %x, %g axis = 5 eps = 1.0e-5 : (tensor<2x4xf32>, tensor<4xf32>) -> tensor<2x4xf32>
  return
}

// -----

func.func @rms_norm_gamma(%x: tensor<2x4xf32>, %g: tensor<3xf32>) {
  // expected-error @+1 {{'rlx.rms_norm' op gamma must be [4] (the size of the normalized axis), got [3]}}
  %0 = rlx.rms_norm %x, %g axis = -1 eps = 1.0e-5 : (tensor<2x4xf32>, tensor<3xf32>) -> tensor<2x4xf32>
  return
}

// -----

func.func @rms_norm_beta(%x: tensor<2x4xf32>, %g: tensor<4xf32>, %b: tensor<2xf32>) {
  // expected-error @+1 {{'rlx.rms_norm' op beta must be [4] (the size of the normalized axis), got [2]}}
  %0 = rlx.rms_norm %x, %g, %b axis = -1 eps = 1.0e-5 : (tensor<2x4xf32>, tensor<4xf32>, tensor<2xf32>) -> tensor<2x4xf32>
  return
}

// -----

func.func @rms_norm_eps(%x: tensor<2x4xf32>, %g: tensor<4xf32>) {
  // expected-error @+1 {{'rlx.rms_norm' op eps must be finite and non-negative, got INF}}
  %0 = rlx.rms_norm %x, %g axis = -1 eps = 0x7FF0000000000000 : (tensor<2x4xf32>, tensor<4xf32>) -> tensor<2x4xf32>
  return
}

// -----

func.func @group_norm_rank(%x: tensor<6xf32>, %g: tensor<6xf32>) {
  // expected-error @+1 {{'rlx.group_norm' op input must have rank >= 2 ([N, C, ...]), got [6]}}
  %0 = rlx.group_norm %x, %g, %g groups = 2 eps = 1.0e-5 : (tensor<6xf32>, tensor<6xf32>, tensor<6xf32>) -> tensor<6xf32>
  return
}

// -----

func.func @group_norm_gamma(%x: tensor<2x6x3xf32>, %g: tensor<3xf32>, %b: tensor<6xf32>) {
  // expected-error @+1 {{'rlx.group_norm' op gamma must be [6] (the size of the channel axis 1), got [3]}}
  %0 = rlx.group_norm %x, %g, %b groups = 2 eps = 1.0e-5 : (tensor<2x6x3xf32>, tensor<3xf32>, tensor<6xf32>) -> tensor<2x6x3xf32>
  return
}

// -----

func.func @group_norm_beta(%x: tensor<2x6x3xf32>, %g: tensor<6xf32>, %b: tensor<2xf32>) {
  // expected-error @+1 {{'rlx.group_norm' op beta must be [6] (the size of the channel axis 1), got [2]}}
  %0 = rlx.group_norm %x, %g, %b groups = 2 eps = 1.0e-5 : (tensor<2x6x3xf32>, tensor<6xf32>, tensor<2xf32>) -> tensor<2x6x3xf32>
  return
}

// -----

func.func @group_norm_groups_divide(%x: tensor<2x6x3xf32>, %g: tensor<6xf32>) {
  // expected-error @+1 {{'rlx.group_norm' op groups must be positive and divide the 6 channels, got 4}}
  %0 = rlx.group_norm %x, %g, %g groups = 4 eps = 1.0e-5 : (tensor<2x6x3xf32>, tensor<6xf32>, tensor<6xf32>) -> tensor<2x6x3xf32>
  return
}

// -----

func.func @group_norm_groups_zero(%x: tensor<2x6x3xf32>, %g: tensor<6xf32>) {
  // expected-error @+1 {{'rlx.group_norm' op groups must be positive and divide the 6 channels, got 0}}
  %0 = rlx.group_norm %x, %g, %g groups = 0 eps = 1.0e-5 : (tensor<2x6x3xf32>, tensor<6xf32>, tensor<6xf32>) -> tensor<2x6x3xf32>
  return
}

// -----

func.func @group_norm_eps(%x: tensor<2x6x3xf32>, %g: tensor<6xf32>) {
  // expected-error @+1 {{'rlx.group_norm' op eps must be finite and non-negative, got -1.000000e+00}}
  %0 = rlx.group_norm %x, %g, %g groups = 3 eps = -1.0 : (tensor<2x6x3xf32>, tensor<6xf32>, tensor<6xf32>) -> tensor<2x6x3xf32>
  return
}

// -----

func.func @layer_norm2d_rank(%x: tensor<2x6x3xf32>, %g: tensor<6xf32>) {
  // expected-error @+1 {{'rlx.layer_norm2d' op input must be [N, C, H, W], got [2, 6, 3]}}
  %0 = rlx.layer_norm2d %x, %g, %g eps = 1.0e-5 : (tensor<2x6x3xf32>, tensor<6xf32>, tensor<6xf32>) -> tensor<2x6x3xf32>
  return
}

// -----

func.func @layer_norm2d_gamma(%x: tensor<2x6x3x3xf32>, %g: tensor<3xf32>) {
  // expected-error @+1 {{'rlx.layer_norm2d' op gamma must be [6] (the size of the channel axis 1), got [3]}}
  %0 = rlx.layer_norm2d %x, %g, %g eps = 1.0e-5 : (tensor<2x6x3x3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<2x6x3x3xf32>
  return
}

// -----

func.func @layer_norm2d_eps(%x: tensor<2x6x3x3xf32>, %g: tensor<6xf32>) {
  // expected-error @+1 {{'rlx.layer_norm2d' op eps must be finite and non-negative, got -1.000000e-05}}
  %0 = rlx.layer_norm2d %x, %g, %g eps = -1.0e-5 : (tensor<2x6x3x3xf32>, tensor<6xf32>, tensor<6xf32>) -> tensor<2x6x3x3xf32>
  return
}

// -----

func.func @batch_norm_rank(%x: tensor<6xf32>, %p: tensor<6xf32>) {
  // expected-error @+1 {{'rlx.batch_norm_inference' op input must have rank >= 2 ([N, C, ...]), got [6]}}
  %0 = rlx.batch_norm_inference %x, %p, %p, %p, %p eps = 1.0e-5 : (tensor<6xf32>, tensor<6xf32>, tensor<6xf32>, tensor<6xf32>, tensor<6xf32>) -> tensor<6xf32>
  return
}

// -----

func.func @batch_norm_mean(%x: tensor<2x6xf32>, %p: tensor<6xf32>, %m: tensor<2xf32>) {
  // expected-error @+1 {{'rlx.batch_norm_inference' op mean must be [6] (the size of the channel axis 1), got [2]}}
  %0 = rlx.batch_norm_inference %x, %p, %p, %m, %p eps = 1.0e-5 : (tensor<2x6xf32>, tensor<6xf32>, tensor<6xf32>, tensor<2xf32>, tensor<6xf32>) -> tensor<2x6xf32>
  return
}

// -----

func.func @batch_norm_variance(%x: tensor<2x6xf32>, %p: tensor<6xf32>, %v: tensor<6x1xf32>) {
  // expected-error @+1 {{'rlx.batch_norm_inference' op variance must be [6] (the size of the channel axis 1), got [6, 1]}}
  %0 = rlx.batch_norm_inference %x, %p, %p, %p, %v eps = 1.0e-5 : (tensor<2x6xf32>, tensor<6xf32>, tensor<6xf32>, tensor<6xf32>, tensor<6x1xf32>) -> tensor<2x6xf32>
  return
}

// -----

func.func @batch_norm_eps(%x: tensor<2x6xf32>, %p: tensor<6xf32>) {
  // expected-error @+1 {{'rlx.batch_norm_inference' op eps must be finite and non-negative, got -1.000000e-05}}
  %0 = rlx.batch_norm_inference %x, %p, %p, %p, %p eps = -1.0e-5 : (tensor<2x6xf32>, tensor<6xf32>, tensor<6xf32>, tensor<6xf32>, tensor<6xf32>) -> tensor<2x6xf32>
  return
}

// -----

func.func @ada_layer_norm_scalar(%x: tensor<f32>) {
  // expected-error @+1 {{'rlx.ada_layer_norm' op input must have rank >= 1, got a scalar}}
  %0 = rlx.ada_layer_norm layer %x, %x, %x eps = 1.0e-5 : (tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<f32>
  return
}

// -----

func.func @ada_layer_norm_shift(%x: tensor<2x3x8xf32>, %s: tensor<2x1x8xf32>, %t: tensor<8xf32>) {
  // expected-error @+1 {{'rlx.ada_layer_norm' op scale [2, 1, 8] and shift [8] must have the same shape}}
  %0 = rlx.ada_layer_norm layer %x, %s, %t eps = 1.0e-5 : (tensor<2x3x8xf32>, tensor<2x1x8xf32>, tensor<8xf32>) -> tensor<2x3x8xf32>
  return
}

// -----

func.func @ada_layer_norm_broadcast(%x: tensor<2x3x8xf32>, %s: tensor<2x2x8xf32>) {
  // expected-error @+1 {{'rlx.ada_layer_norm' op scale and shift [2, 2, 8] do not broadcast to input [2, 3, 8]}}
  %0 = rlx.ada_layer_norm rms %x, %s, %s eps = 1.0e-5 : (tensor<2x3x8xf32>, tensor<2x2x8xf32>, tensor<2x2x8xf32>) -> tensor<2x3x8xf32>
  return
}

// -----

func.func @ada_layer_norm_rank(%x: tensor<3x8xf32>, %s: tensor<1x1x8xf32>) {
  // expected-error @+1 {{'rlx.ada_layer_norm' op scale and shift [1, 1, 8] do not broadcast to input [3, 8]}}
  %0 = rlx.ada_layer_norm rms %x, %s, %s eps = 1.0e-5 : (tensor<3x8xf32>, tensor<1x1x8xf32>, tensor<1x1x8xf32>) -> tensor<3x8xf32>
  return
}

// -----

func.func @ada_layer_norm_eps(%x: tensor<3x8xf32>, %s: tensor<8xf32>) {
  // expected-error @+1 {{'rlx.ada_layer_norm' op eps must be finite and non-negative, got -1.000000e-05}}
  %0 = rlx.ada_layer_norm rms %x, %s, %s eps = -1.0e-5 : (tensor<3x8xf32>, tensor<8xf32>, tensor<8xf32>) -> tensor<3x8xf32>
  return
}

// -----

func.func @ada_layer_norm_kind(%x: tensor<3x8xf32>, %s: tensor<8xf32>) {
  // expected-error @+1 {{expected string or keyword containing one of the following enum values for attribute 'kind' [layer, rms]}}
  %0 = rlx.ada_layer_norm group %x, %s, %s eps = 1.0e-5 : (tensor<3x8xf32>, tensor<8xf32>, tensor<8xf32>) -> tensor<3x8xf32>
  return
}

// -----

func.func @gated_residual_update(%x: tensor<2x8xf32>, %y: tensor<1x8xf32>) {
  // expected-error @+1 {{'rlx.gated_residual' op update 'tensor<1x8xf32>' must have the type of input 'tensor<2x8xf32>'}}
  %0 = rlx.gated_residual %x, %y, %y : (tensor<2x8xf32>, tensor<1x8xf32>, tensor<1x8xf32>) -> tensor<2x8xf32>
  return
}

// -----

func.func @gated_residual_gate(%x: tensor<2x8xf32>, %g: tensor<4xf32>) {
  // expected-error @+1 {{'rlx.gated_residual' op gate [4] does not broadcast to input [2, 8]}}
  %0 = rlx.gated_residual %x, %x, %g : (tensor<2x8xf32>, tensor<2x8xf32>, tensor<4xf32>) -> tensor<2x8xf32>
  return
}

// -----

func.func @rope_rank(%x: tensor<8xf32>, %c: tensor<8x4xf32>) {
  // expected-error @+1 {{'rlx.rope' op input must be [..., S, W] (rank >= 2) for layout bsd, got [8]}}
  %0 = rlx.rope neox bsd %x, %c, %c head_dim = 8, n_rot = 8 : (tensor<8xf32>, tensor<8x4xf32>, tensor<8x4xf32>) -> tensor<8xf32>
  return
}

// -----

func.func @rope_head_dim(%x: tensor<3x12xf32>, %c: tensor<3x4xf32>) {
  // expected-error @+1 {{'rlx.rope' op head_dim must be positive and divide the last dimension 12, got 8}}
  %0 = rlx.rope neox bsd %x, %c, %c head_dim = 8, n_rot = 8 : (tensor<3x12xf32>, tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x12xf32>
  return
}

// -----

func.func @rope_head_dim_zero(%x: tensor<3x12xf32>, %c: tensor<3x4xf32>) {
  // expected-error @+1 {{'rlx.rope' op head_dim must be positive and divide the last dimension 12, got 0}}
  %0 = rlx.rope neox bsd %x, %c, %c head_dim = 0, n_rot = 8 : (tensor<3x12xf32>, tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x12xf32>
  return
}

// -----

func.func @rope_n_rot_odd(%x: tensor<3x12xf32>, %c: tensor<3x1xf32>) {
  // expected-error @+1 {{'rlx.rope' op n_rot must be even and in (0, head_dim = 6], got 3}}
  %0 = rlx.rope gptj bsd %x, %c, %c head_dim = 6, n_rot = 3 : (tensor<3x12xf32>, tensor<3x1xf32>, tensor<3x1xf32>) -> tensor<3x12xf32>
  return
}

// -----

func.func @rope_n_rot_large(%x: tensor<3x12xf32>, %c: tensor<3x4xf32>) {
  // expected-error @+1 {{'rlx.rope' op n_rot must be even and in (0, head_dim = 6], got 8}}
  %0 = rlx.rope gptj bsd %x, %c, %c head_dim = 6, n_rot = 8 : (tensor<3x12xf32>, tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x12xf32>
  return
}

// -----

func.func @rope_n_rot_zero(%x: tensor<3x12xf32>, %c: tensor<3x0xf32>) {
  // expected-error @+1 {{'rlx.rope' op n_rot must be even and in (0, head_dim = 6], got 0}}
  %0 = rlx.rope gptj bsd %x, %c, %c head_dim = 6, n_rot = 0 : (tensor<3x12xf32>, tensor<3x0xf32>, tensor<3x0xf32>) -> tensor<3x12xf32>
  return
}

// -----

func.func @rope_cos(%x: tensor<3x12xf32>, %c: tensor<3x3xf32>, %s: tensor<3x2xf32>) {
  // expected-error @+1 {{'rlx.rope' op cos must be [S, n_rot / 2] = [3, 2] (S is axis 0 of the input in layout bsd), got [3, 3]}}
  %0 = rlx.rope neox bsd %x, %c, %s head_dim = 6, n_rot = 4 : (tensor<3x12xf32>, tensor<3x3xf32>, tensor<3x2xf32>) -> tensor<3x12xf32>
  return
}

// -----

func.func @rope_sin(%x: tensor<2x3x12xf32>, %c: tensor<3x2xf32>, %s: tensor<2x3x2xf32>) {
  // expected-error @+1 {{'rlx.rope' op sin must be [S, n_rot / 2] = [3, 2] (S is axis 1 of the input in layout bsd), got [2, 3, 2]}}
  %0 = rlx.rope neox bsd %x, %c, %s head_dim = 6, n_rot = 4 : (tensor<2x3x12xf32>, tensor<3x2xf32>, tensor<2x3x2xf32>) -> tensor<2x3x12xf32>
  return
}

// -----

func.func @rope_style(%x: tensor<3x12xf32>, %c: tensor<3x2xf32>) {
  // expected-error @+1 {{expected string or keyword containing one of the following enum values for attribute 'style' [neox, gptj]}}
  %0 = rlx.rope llama bsd %x, %c, %c head_dim = 6, n_rot = 4 : (tensor<3x12xf32>, tensor<3x2xf32>, tensor<3x2xf32>) -> tensor<3x12xf32>
  return
}

// -----

// The layout is required: there is no guess from the shape.
func.func @rope_no_layout(%x: tensor<2x4x3x8xf32>, %c: tensor<4x4xf32>) {
  // expected-error @+1 {{expected string or keyword containing one of the following enum values for attribute 'layout' [bshd, bhsd, bsd]}}
  %0 = rlx.rope neox %x, %c, %c head_dim = 8, n_rot = 8 : (tensor<2x4x3x8xf32>, tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<2x4x3x8xf32>
  return
}

// -----

// [B, S, H, D] = [2, 4, 3, 8] in bshd has S = 4 positions: tables of the
// head count (3) that a [..., S, W] reading would accept are rejected.
func.func @rope_bshd_tables(%x: tensor<2x4x3x8xf32>, %c: tensor<3x4xf32>) {
  // expected-error @+1 {{'rlx.rope' op cos must be [S, n_rot / 2] = [4, 4] (S is axis 1 of the input in layout bshd), got [3, 4]}}
  %0 = rlx.rope neox bshd %x, %c, %c head_dim = 8, n_rot = 8 : (tensor<2x4x3x8xf32>, tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<2x4x3x8xf32>
  return
}

// -----

func.func @rope_bhsd_tables(%x: tensor<2x3x4x8xf32>, %c: tensor<3x4xf32>) {
  // expected-error @+1 {{'rlx.rope' op cos must be [S, n_rot / 2] = [4, 4] (S is axis 2 of the input in layout bhsd), got [3, 4]}}
  %0 = rlx.rope gptj bhsd %x, %c, %c head_dim = 8, n_rot = 8 : (tensor<2x3x4x8xf32>, tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<2x3x4x8xf32>
  return
}

// -----

func.func @rope_bshd_rank(%x: tensor<4x8xf32>, %c: tensor<4x4xf32>) {
  // expected-error @+1 {{'rlx.rope' op input must be [..., S, H, D] (rank >= 3) for layout bshd, got [4, 8]}}
  %0 = rlx.rope neox bshd %x, %c, %c head_dim = 8, n_rot = 8 : (tensor<4x8xf32>, tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x8xf32>
  return
}

// -----

func.func @rope_bhsd_rank(%x: tensor<4x8xf32>, %c: tensor<4x4xf32>) {
  // expected-error @+1 {{'rlx.rope' op input must be [..., H, S, D] (rank >= 3) for layout bhsd, got [4, 8]}}
  %0 = rlx.rope neox bhsd %x, %c, %c head_dim = 8, n_rot = 8 : (tensor<4x8xf32>, tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x8xf32>
  return
}

// -----

// With a head axis, head_dim is D itself (not a divisor of it).
func.func @rope_bshd_head_dim(%x: tensor<2x4x3x8xf32>, %c: tensor<4x2xf32>) {
  // expected-error @+1 {{'rlx.rope' op head_dim must be the last dimension D = 8 for layout bshd, got 4}}
  %0 = rlx.rope neox bshd %x, %c, %c head_dim = 4, n_rot = 4 : (tensor<2x4x3x8xf32>, tensor<4x2xf32>, tensor<4x2xf32>) -> tensor<2x4x3x8xf32>
  return
}

// -----

func.func @cross_entropy_targets(%l: tensor<3x10xf32>, %t: tensor<3x9xf32>) {
  // expected-error @+1 {{failed to verify that all of {logits, targets} have same type}}
  %0 = rlx.softmax_cross_entropy %l, %t : (tensor<3x10xf32>, tensor<3x9xf32>) -> tensor<3xf32>
  return
}

// -----

func.func @cross_entropy_rank(%l: tensor<2x3x10xf32>) {
  // expected-error @+2 {{logits must be a [N, C] tensor, got 'tensor<2x3x10xf32>'}}
  // expected-error @+1 {{'rlx.softmax_cross_entropy' op failed to infer returned types}}
  %0 = rlx.softmax_cross_entropy %l, %l : (tensor<2x3x10xf32>, tensor<2x3x10xf32>) -> tensor<2xf32>
  return
}

// -----

func.func @cross_entropy_result(%l: tensor<3x10xf32>) {
  // expected-error @+2 {{'rlx.softmax_cross_entropy' op inferred type(s) 'tensor<3xf32>' are incompatible with return type(s) of operation 'tensor<10xf32>'}}
  // expected-error @+1 {{'rlx.softmax_cross_entropy' op failed to infer returned types}}
  %0 = rlx.softmax_cross_entropy %l, %l : (tensor<3x10xf32>, tensor<3x10xf32>) -> tensor<10xf32>
  return
}

// -----

func.func @cross_entropy_labels_rank(%l: tensor<3x10xf32>, %i: tensor<3x1xi32>) {
  // expected-error @+2 {{labels must be [3] (one per row of logits), got 'tensor<3x1xi32>'}}
  // expected-error @+1 {{'rlx.softmax_cross_entropy_with_labels' op failed to infer returned types}}
  %0 = rlx.softmax_cross_entropy_with_labels %l, %i : (tensor<3x10xf32>, tensor<3x1xi32>) -> tensor<3xf32>
  return
}

// -----

func.func @cross_entropy_labels_count(%l: tensor<3x10xf32>, %i: tensor<4xi64>) {
  // expected-error @+2 {{labels must be [3] (one per row of logits), got 'tensor<4xi64>'}}
  // expected-error @+1 {{'rlx.softmax_cross_entropy_with_labels' op failed to infer returned types}}
  %0 = rlx.softmax_cross_entropy_with_labels %l, %i : (tensor<3x10xf32>, tensor<4xi64>) -> tensor<3xf32>
  return
}

// -----

func.func @cross_entropy_labels_type(%l: tensor<3x10xf32>, %i: tensor<3xi16>) {
  // expected-error @+1 {{'rlx.softmax_cross_entropy_with_labels' op operand #1 must be ranked tensor of 32-bit signless integer or 64-bit signless integer values, but got 'tensor<3xi16>'}}
  %0 = rlx.softmax_cross_entropy_with_labels %l, %i : (tensor<3x10xf32>, tensor<3xi16>) -> tensor<3xf32>
  return
}

// -----

func.func @cross_entropy_labels_logits_rank(%l: tensor<10xf32>, %i: tensor<1xi32>) {
  // expected-error @+2 {{logits must be a [N, C] tensor, got 'tensor<10xf32>'}}
  // expected-error @+1 {{'rlx.softmax_cross_entropy_with_labels' op failed to infer returned types}}
  %0 = rlx.softmax_cross_entropy_with_labels %l, %i : (tensor<10xf32>, tensor<1xi32>) -> tensor<1xf32>
  return
}

// -----

func.func @cross_entropy_labels_unranked(%l: tensor<3x10xf32>, %i: tensor<*xi32>) {
  // expected-error @+1 {{'rlx.softmax_cross_entropy_with_labels' op operand #1 must be ranked tensor of 32-bit signless integer or 64-bit signless integer values, but got 'tensor<*xi32>'}}
  %0 = "rlx.softmax_cross_entropy_with_labels"(%l, %i) : (tensor<3x10xf32>, tensor<*xi32>) -> tensor<3xf32>
  return
}

// -----

// Rows of no elements into a non-empty result: the loss over 0 classes.
func.func @loss_empty_rows(%l: tensor<3x0xf32>, %y: tensor<3xi64>) {
  // expected-error @+1 {{'rlx.softmax_cross_entropy_with_labels' op has empty rows (operand #0 of type 'tensor<3x0xf32>' has no elements), so result #0 of type 'tensor<3xf32>' is undefined}}
  %0 = rlx.softmax_cross_entropy_with_labels %l, %y : (tensor<3x0xf32>, tensor<3xi64>) -> tensor<3xf32>
  return
}

// -----

func.func @dense_loss_empty_rows(%l: tensor<2x0xf16>) {
  // expected-error @+1 {{'rlx.softmax_cross_entropy' op has empty rows (operand #0 of type 'tensor<2x0xf16>' has no elements), so result #0 of type 'tensor<2xf16>' is undefined}}
  %0 = rlx.softmax_cross_entropy %l, %l : (tensor<2x0xf16>, tensor<2x0xf16>) -> tensor<2xf16>
  return
}

// -----

// The statistics of empty rows are undefined; the normalized (empty) result
// alone is fine.
func.func @layer_norm_statistics_empty_rows(%x: tensor<4x0xf32>, %g: tensor<0xf32>) {
  // expected-error @+1 {{'rlx.layer_norm' op has empty rows (operand #0 of type 'tensor<4x0xf32>' has no elements), so result #1 of type 'tensor<4x1xf32>' is undefined}}
  %0:3 = rlx.layer_norm %x, %g, %g axis = -1 eps = 1.0e-05 with_statistics : (tensor<4x0xf32>, tensor<0xf32>, tensor<0xf32>) -> (tensor<4x0xf32>, tensor<4x1xf32>, tensor<4x1xf32>)
  return
}

// -----

func.func @group_norm_backward_empty_rows(%x: tensor<2x4x0xf32>, %g: tensor<4xf32>) {
  // expected-error @+1 {{'rlx.group_norm_backward' op has empty rows (operand #0 of type 'tensor<2x4x0xf32>' has no elements), so result #1 of type 'tensor<4xf32>' is undefined}}
  %0:3 = rlx.group_norm_backward %x, %x, %g groups = 2 eps = 1.0e-05 : (tensor<2x4x0xf32>, tensor<2x4x0xf32>, tensor<4xf32>) -> (tensor<2x4x0xf32>, tensor<4xf32>, tensor<4xf32>)
  return
}
