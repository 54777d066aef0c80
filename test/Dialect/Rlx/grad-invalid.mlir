// RUN: rlx-opt %s -split-input-file -verify-diagnostics

// Every verifier rule of the backward ops.

func.func @activation_kind(%x: tensor<4xf32>) {
  // expected-error @+1 {{expected string or keyword containing one of the following enum values for attribute 'kind'}}
  %0 = rlx.activation_backward clamp %x, %x : tensor<4xf32>
  return
}

// -----

func.func @activation_shapes(%dy: tensor<4xf32>, %x: tensor<2x4xf32>) {
  // expected-error @+1 {{'rlx.activation_backward' op requires the same type for all operands and results}}
  %0 = "rlx.activation_backward"(%dy, %x) {kind = 0 : i32} : (tensor<4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
  return
}

// -----

func.func @activation_integer(%x: tensor<4xi32>) {
  // expected-error @+1 {{'rlx.activation_backward' op operand #0 must be ranked tensor of}}
  %0 = rlx.activation_backward relu %x, %x : tensor<4xi32>
  return
}

// -----

func.func @relu_types(%dy: tensor<4xf16>, %x: tensor<4xf32>) {
  // expected-error @+1 {{'rlx.relu_backward' op requires the same type for all operands and results}}
  %0 = "rlx.relu_backward"(%dy, %x) : (tensor<4xf16>, tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @layer_norm_axis(%x: tensor<2x4xf32>, %g: tensor<4xf32>, %s: tensor<2x1xf32>) {
  // expected-error @+1 {{'rlx.layer_norm_backward' op axis 2 is out of range for rank 2}}
  %0:3 = rlx.layer_norm_backward %x, %x, %g, %s, %s axis = 2 : (tensor<2x4xf32>, tensor<2x4xf32>, tensor<4xf32>, tensor<2x1xf32>, tensor<2x1xf32>) -> (tensor<2x4xf32>, tensor<4xf32>, tensor<4xf32>)
  return
}

// -----

func.func @layer_norm_gamma(%x: tensor<2x4xf32>, %g: tensor<4xf32>, %s: tensor<1x4xf32>) {
  // expected-error @+1 {{'rlx.layer_norm_backward' op gamma must be [2] (the size of the normalized axis), got [4]}}
  %0:3 = rlx.layer_norm_backward %x, %x, %g, %s, %s axis = 0 : (tensor<2x4xf32>, tensor<2x4xf32>, tensor<4xf32>, tensor<1x4xf32>, tensor<1x4xf32>) -> (tensor<2x4xf32>, tensor<4xf32>, tensor<4xf32>)
  return
}

// -----

func.func @layer_norm_mean_shape(%x: tensor<2x4xf32>, %g: tensor<4xf32>, %s: tensor<2x1xf32>, %m: tensor<2x4xf32>) {
  // expected-error @+1 {{'rlx.layer_norm_backward' op mean must be 'tensor<2x1xf32>' (the input's shape with the normalized axis of size 1, in the computation type), got 'tensor<2x4xf32>'}}
  %0:3 = rlx.layer_norm_backward %x, %x, %g, %m, %s axis = 1 : (tensor<2x4xf32>, tensor<2x4xf32>, tensor<4xf32>, tensor<2x4xf32>, tensor<2x1xf32>) -> (tensor<2x4xf32>, tensor<4xf32>, tensor<4xf32>)
  return
}

// -----

func.func @layer_norm_rstd_type(%x: tensor<2x4xf16>, %g: tensor<4xf16>, %s: tensor<2x1xf32>, %r: tensor<2x1xf16>) {
  // expected-error @+1 {{'rlx.layer_norm_backward' op rstd must be 'tensor<2x1xf32>' (the input's shape with the normalized axis of size 1, in the computation type), got 'tensor<2x1xf16>'}}
  %0:3 = rlx.layer_norm_backward %x, %x, %g, %s, %r axis = 1 : (tensor<2x4xf16>, tensor<2x4xf16>, tensor<4xf16>, tensor<2x1xf32>, tensor<2x1xf16>) -> (tensor<2x4xf16>, tensor<4xf16>, tensor<4xf16>)
  return
}

// -----

func.func @layer_norm_dy(%x: tensor<2x4xf32>, %dy: tensor<4xf32>, %g: tensor<4xf32>, %s: tensor<2x1xf32>) {
  // expected-error @+1 {{'rlx.layer_norm_backward' op failed to verify that all of {dy, input} have same type}}
  %0:3 = rlx.layer_norm_backward %dy, %x, %g, %s, %s axis = 1 : (tensor<4xf32>, tensor<2x4xf32>, tensor<4xf32>, tensor<2x1xf32>, tensor<2x1xf32>) -> (tensor<2x4xf32>, tensor<4xf32>, tensor<4xf32>)
  return
}

// -----

func.func @layer_norm_gamma_type(%x: tensor<2x4xf32>, %g: tensor<4xf16>, %s: tensor<2x1xf32>) {
  // expected-error @+1 {{'rlx.layer_norm_backward' op failed to verify that all of {input, gamma} have same element type}}
  %0:3 = rlx.layer_norm_backward %x, %x, %g, %s, %s axis = 1 : (tensor<2x4xf32>, tensor<2x4xf32>, tensor<4xf16>, tensor<2x1xf32>, tensor<2x1xf32>) -> (tensor<2x4xf32>, tensor<4xf16>, tensor<4xf16>)
  return
}

// -----

func.func @layer_norm_results(%x: tensor<2x4xf32>, %g: tensor<4xf32>, %s: tensor<2x1xf32>) {
  // expected-error @+2 {{'rlx.layer_norm_backward' op inferred type(s) 'tensor<2x4xf32>', 'tensor<4xf32>', 'tensor<4xf32>' are incompatible with return type(s) of operation 'tensor<2x4xf32>', 'tensor<2x4xf32>', 'tensor<4xf32>'}}
  // expected-error @+1 {{'rlx.layer_norm_backward' op failed to infer returned types}}
  %0:3 = rlx.layer_norm_backward %x, %x, %g, %s, %s axis = 1 : (tensor<2x4xf32>, tensor<2x4xf32>, tensor<4xf32>, tensor<2x1xf32>, tensor<2x1xf32>) -> (tensor<2x4xf32>, tensor<2x4xf32>, tensor<4xf32>)
  return
}

// -----

func.func @rms_norm_axis(%x: tensor<2x4xf32>, %g: tensor<2xf32>, %s: tensor<1x4xf32>) {
  // expected-error @+1 {{'rlx.rms_norm_backward' op axis -3 is out of range for rank 2}}
  %0:2 = rlx.rms_norm_backward %x, %x, %g, %s axis = -3 : (tensor<2x4xf32>, tensor<2x4xf32>, tensor<2xf32>, tensor<1x4xf32>) -> (tensor<2x4xf32>, tensor<2xf32>)
  return
}

// -----

func.func @rms_norm_rstd(%x: tensor<2x4xf32>, %g: tensor<2xf32>, %s: tensor<2x1xf32>) {
  // expected-error @+1 {{'rlx.rms_norm_backward' op rstd must be 'tensor<1x4xf32>' (the input's shape with the normalized axis of size 1, in the computation type), got 'tensor<2x1xf32>'}}
  %0:2 = rlx.rms_norm_backward %x, %x, %g, %s axis = 0 : (tensor<2x4xf32>, tensor<2x4xf32>, tensor<2xf32>, tensor<2x1xf32>) -> (tensor<2x4xf32>, tensor<2xf32>)
  return
}

// -----

func.func @rms_norm_beta_grad(%x: tensor<2x4xf32>, %g: tensor<4xf32>, %s: tensor<2x1xf32>) {
  // expected-error @+2 {{'rlx.rms_norm_backward' op inferred type(s) 'tensor<2x4xf32>', 'tensor<4xf32>' are incompatible with return type(s) of operation 'tensor<2x4xf32>', 'tensor<4xf32>', 'tensor<4xf32>'}}
  // expected-error @+1 {{'rlx.rms_norm_backward' op failed to infer returned types}}
  %0:3 = rlx.rms_norm_backward %x, %x, %g, %s axis = 1 : (tensor<2x4xf32>, tensor<2x4xf32>, tensor<4xf32>, tensor<2x1xf32>) -> (tensor<2x4xf32>, tensor<4xf32>, tensor<4xf32>)
  return
}

// -----

func.func @group_norm_groups(%x: tensor<2x6x4xf32>, %g: tensor<6xf32>) {
  // expected-error @+1 {{'rlx.group_norm_backward' op groups must be positive and divide the 6 channels, got 4}}
  %0:3 = rlx.group_norm_backward %x, %x, %g groups = 4 eps = 1.0e-5 : (tensor<2x6x4xf32>, tensor<2x6x4xf32>, tensor<6xf32>) -> (tensor<2x6x4xf32>, tensor<6xf32>, tensor<6xf32>)
  return
}

// -----

func.func @group_norm_gamma(%x: tensor<2x6x4xf32>, %g: tensor<4xf32>) {
  // expected-error @+1 {{'rlx.group_norm_backward' op gamma must be [6] (the size of the channel axis 1), got [4]}}
  %0:3 = rlx.group_norm_backward %x, %x, %g groups = 2 eps = 1.0e-5 : (tensor<2x6x4xf32>, tensor<2x6x4xf32>, tensor<4xf32>) -> (tensor<2x6x4xf32>, tensor<4xf32>, tensor<4xf32>)
  return
}

// -----

func.func @group_norm_rank(%x: tensor<6xf32>, %g: tensor<6xf32>) {
  // expected-error @+1 {{'rlx.group_norm_backward' op input must have rank >= 2 ([N, C, ...]), got [6]}}
  %0:3 = rlx.group_norm_backward %x, %x, %g groups = 2 eps = 1.0e-5 : (tensor<6xf32>, tensor<6xf32>, tensor<6xf32>) -> (tensor<6xf32>, tensor<6xf32>, tensor<6xf32>)
  return
}

// -----

func.func @group_norm_eps(%x: tensor<2x6xf32>, %g: tensor<6xf32>) {
  // expected-error @+1 {{'rlx.group_norm_backward' op eps must be finite and non-negative, got -1.000000e+00}}
  %0:3 = rlx.group_norm_backward %x, %x, %g groups = 2 eps = -1.0 : (tensor<2x6xf32>, tensor<2x6xf32>, tensor<6xf32>) -> (tensor<2x6xf32>, tensor<6xf32>, tensor<6xf32>)
  return
}

// -----

func.func @batch_norm_variance(%x: tensor<2x6xf32>, %g: tensor<6xf32>, %v: tensor<2xf32>) {
  // expected-error @+1 {{'rlx.batch_norm_inference_backward' op variance must be [6] (the size of the channel axis 1), got [2]}}
  %0:3 = rlx.batch_norm_inference_backward %x, %x, %g, %g, %v eps = 1.0e-5 : (tensor<2x6xf32>, tensor<2x6xf32>, tensor<6xf32>, tensor<6xf32>, tensor<2xf32>) -> (tensor<2x6xf32>, tensor<6xf32>, tensor<6xf32>)
  return
}

// -----

func.func @batch_norm_mean_type(%x: tensor<2x6xf32>, %g: tensor<6xf32>, %m: tensor<6xf16>) {
  // expected-error @+1 {{'rlx.batch_norm_inference_backward' op failed to verify that all of {input, gamma, mean, variance} have same element type}}
  %0:3 = rlx.batch_norm_inference_backward %x, %x, %g, %m, %g eps = 1.0e-5 : (tensor<2x6xf32>, tensor<2x6xf32>, tensor<6xf32>, tensor<6xf16>, tensor<6xf32>) -> (tensor<2x6xf32>, tensor<6xf32>, tensor<6xf32>)
  return
}

// -----

func.func @batch_norm_eps(%x: tensor<2x6xf32>, %g: tensor<6xf32>) {
  // expected-error @+1 {{'rlx.batch_norm_inference_backward' op eps must be finite and non-negative, got INF}}
  %0:3 = rlx.batch_norm_inference_backward %x, %x, %g, %g, %g eps = 0x7FF0000000000000 : (tensor<2x6xf32>, tensor<2x6xf32>, tensor<6xf32>, tensor<6xf32>, tensor<6xf32>) -> (tensor<2x6xf32>, tensor<6xf32>, tensor<6xf32>)
  return
}

// -----

func.func @cross_entropy_targets(%l: tensor<3x10xf32>, %t: tensor<3x9xf32>, %d: tensor<3xf32>) {
  // expected-error @+1 {{failed to verify that all of {logits, targets} have same type}}
  %0 = rlx.softmax_cross_entropy_backward %l, %t, %d : (tensor<3x10xf32>, tensor<3x9xf32>, tensor<3xf32>) -> tensor<3x10xf32>
  return
}

// -----

func.func @cross_entropy_logits_rank(%l: tensor<10xf32>, %d: tensor<1xf32>) {
  // expected-error @+2 {{logits must be a [N, C] tensor, got 'tensor<10xf32>'}}
  // expected-error @+1 {{'rlx.softmax_cross_entropy_backward' op failed to infer returned types}}
  %0 = rlx.softmax_cross_entropy_backward %l, %l, %d : (tensor<10xf32>, tensor<10xf32>, tensor<1xf32>) -> tensor<10xf32>
  return
}

// -----

func.func @cross_entropy_dloss(%l: tensor<3x10xf32>, %d: tensor<3x1xf32>) {
  // expected-error @+2 {{dloss must be [3] (one per row of logits), got 'tensor<3x1xf32>'}}
  // expected-error @+1 {{'rlx.softmax_cross_entropy_backward' op failed to infer returned types}}
  %0 = rlx.softmax_cross_entropy_backward %l, %l, %d : (tensor<3x10xf32>, tensor<3x10xf32>, tensor<3x1xf32>) -> tensor<3x10xf32>
  return
}

// -----

func.func @cross_entropy_dloss_type(%l: tensor<3x10xf32>, %d: tensor<3xf16>) {
  // expected-error @+1 {{'rlx.softmax_cross_entropy_backward' op requires the same element type for all operands}}
  %0 = rlx.softmax_cross_entropy_backward %l, %l, %d : (tensor<3x10xf32>, tensor<3x10xf32>, tensor<3xf16>) -> tensor<3x10xf32>
  return
}

// -----

func.func @cross_entropy_labels_count(%l: tensor<3x10xf32>, %i: tensor<4xi64>, %d: tensor<3xf32>) {
  // expected-error @+2 {{labels must be [3] (one per row of logits), got 'tensor<4xi64>'}}
  // expected-error @+1 {{'rlx.softmax_cross_entropy_with_labels_backward' op failed to infer returned types}}
  %0 = rlx.softmax_cross_entropy_with_labels_backward %l, %i, %d : (tensor<3x10xf32>, tensor<4xi64>, tensor<3xf32>) -> tensor<3x10xf32>
  return
}

// -----

func.func @cross_entropy_labels_dloss(%l: tensor<3x10xf32>, %i: tensor<3xi64>, %d: tensor<4xf32>) {
  // expected-error @+2 {{dloss must be [3] (one per row of logits), got 'tensor<4xf32>'}}
  // expected-error @+1 {{'rlx.softmax_cross_entropy_with_labels_backward' op failed to infer returned types}}
  %0 = rlx.softmax_cross_entropy_with_labels_backward %l, %i, %d : (tensor<3x10xf32>, tensor<3xi64>, tensor<4xf32>) -> tensor<3x10xf32>
  return
}

// -----

func.func @cross_entropy_labels_type(%l: tensor<3x10xf32>, %i: tensor<3xi16>, %d: tensor<3xf32>) {
  // expected-error @+1 {{'rlx.softmax_cross_entropy_with_labels_backward' op operand #1 must be ranked tensor of 32-bit signless integer or 64-bit signless integer values, but got 'tensor<3xi16>'}}
  %0 = rlx.softmax_cross_entropy_with_labels_backward %l, %i, %d : (tensor<3x10xf32>, tensor<3xi16>, tensor<3xf32>) -> tensor<3x10xf32>
  return
}

// -----

func.func @cross_entropy_labels_dloss_type(%l: tensor<3x10xf32>, %i: tensor<3xi32>, %d: tensor<3xf16>) {
  // expected-error @+1 {{'rlx.softmax_cross_entropy_with_labels_backward' op failed to verify that all of {logits, dloss, result} have same element type}}
  %0 = rlx.softmax_cross_entropy_with_labels_backward %l, %i, %d : (tensor<3x10xf32>, tensor<3xi32>, tensor<3xf16>) -> tensor<3x10xf32>
  return
}

// -----

func.func @ada_scale_broadcast(%x: tensor<2x5x8xf32>, %s: tensor<2x3x8xf32>) {
  // expected-error @+1 {{'rlx.ada_layer_norm_backward' op scale [2, 3, 8] does not broadcast to input [2, 5, 8]}}
  %0:3 = rlx.ada_layer_norm_backward layer %x, %x, %s eps = 1.0e-5 : (tensor<2x5x8xf32>, tensor<2x5x8xf32>, tensor<2x3x8xf32>) -> (tensor<2x5x8xf32>, tensor<2x3x8xf32>, tensor<2x3x8xf32>)
  return
}

// -----

func.func @ada_scalar(%x: tensor<f32>) {
  // expected-error @+1 {{'rlx.ada_layer_norm_backward' op input must have rank >= 1, got a scalar}}
  %0:3 = rlx.ada_layer_norm_backward rms %x, %x, %x eps = 1.0e-5 : (tensor<f32>, tensor<f32>, tensor<f32>) -> (tensor<f32>, tensor<f32>, tensor<f32>)
  return
}

// -----

func.func @ada_eps(%x: tensor<2x8xf32>, %s: tensor<8xf32>) {
  // expected-error @+1 {{'rlx.ada_layer_norm_backward' op eps must be finite and non-negative, got -1.000000e+00}}
  %0:3 = rlx.ada_layer_norm_backward layer %x, %x, %s eps = -1.0 : (tensor<2x8xf32>, tensor<2x8xf32>, tensor<8xf32>) -> (tensor<2x8xf32>, tensor<8xf32>, tensor<8xf32>)
  return
}

// -----

func.func @ada_element_type(%x: tensor<2x8xf32>, %s: tensor<8xf16>) {
  // expected-error @+1 {{'rlx.ada_layer_norm_backward' op failed to verify that all of {input, scale} have same element type}}
  %0:3 = rlx.ada_layer_norm_backward layer %x, %x, %s eps = 1.0e-5 : (tensor<2x8xf32>, tensor<2x8xf32>, tensor<8xf16>) -> (tensor<2x8xf32>, tensor<8xf16>, tensor<8xf16>)
  return
}

// -----

func.func @gate_broadcast(%x: tensor<2x5x8xf32>, %g: tensor<5x1x8xf32>) {
  // expected-error @+1 {{'rlx.gated_residual_backward' op gate [5, 1, 8] does not broadcast to dy [2, 5, 8]}}
  %0:3 = rlx.gated_residual_backward %x, %x, %g : (tensor<2x5x8xf32>, tensor<2x5x8xf32>, tensor<5x1x8xf32>) -> (tensor<2x5x8xf32>, tensor<2x5x8xf32>, tensor<5x1x8xf32>)
  return
}

// -----

func.func @gated_update_type(%x: tensor<2x8xf32>, %u: tensor<4x8xf32>, %g: tensor<8xf32>) {
  // expected-error @+1 {{'rlx.gated_residual_backward' op failed to verify that all of {dy, update} have same type}}
  %0:3 = rlx.gated_residual_backward %x, %u, %g : (tensor<2x8xf32>, tensor<4x8xf32>, tensor<8xf32>) -> (tensor<2x8xf32>, tensor<2x8xf32>, tensor<8xf32>)
  return
}
