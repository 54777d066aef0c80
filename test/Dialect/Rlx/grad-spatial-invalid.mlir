// RUN: rlx-opt %s -split-input-file -verify-diagnostics

// One case per verifier rule of the spatial and indexing backward ops: the
// forward op's rules, reached through its shape rule, and the agreement
// of grad_output with the forward result.

func.func @conv_backward_input_shape(%dy: tensor<2x6x3xf32>, %w: tensor<6x2x3xf32>) {
  // expected-error @+1 {{'rlx.conv_backward_input' op grad_output [2, 6, 3] is not the forward result shape [2, 6, 4]}}
  %0 = rlx.conv_backward_input %dy, %w stride = [2] padding = [1, 0] dilation = [2] groups = 2 : (tensor<2x6x3xf32>, tensor<6x2x3xf32>) -> tensor<2x4x11xf32>
  return
}

// -----

func.func @conv_backward_input_groups(%dy: tensor<2x6x3xf32>, %w: tensor<6x2x3xf32>) {
  // expected-error @+1 {{'groups' (2) must divide the input channels (5)}}
  %0 = rlx.conv_backward_input %dy, %w stride = [2] padding = [1, 0] dilation = [2] groups = 2 : (tensor<2x6x3xf32>, tensor<6x2x3xf32>) -> tensor<2x5x9xf32>
  return
}

// -----

func.func @conv_backward_input_dilation(%dy: tensor<2x6x3xf32>, %w: tensor<6x2x3xf32>) {
  // expected-error @+1 {{'dilation' entries must be positive, got [0]}}
  %0 = rlx.conv_backward_input %dy, %w stride = [2] padding = [1, 0] dilation = [0] groups = 2 : (tensor<2x6x3xf32>, tensor<6x2x3xf32>) -> tensor<2x4x9xf32>
  return
}

// -----

func.func @conv_backward_input_element_type(%dy: tensor<2x6x3xf32>, %w: tensor<6x2x3xf16>) {
  // expected-error @+1 {{failed to verify that all of {grad_output, weight, result} have same element type}}
  %0 = rlx.conv_backward_input %dy, %w stride = [2] padding = [1, 0] dilation = [2] groups = 2 : (tensor<2x6x3xf32>, tensor<6x2x3xf16>) -> tensor<2x4x9xf32>
  return
}

// -----

func.func @conv_backward_weight_kernel(%dy: tensor<2x6x3xf32>, %x: tensor<2x4x9xf32>) {
  // expected-error @+1 {{'rlx.conv_backward_weight' op grad_output [2, 6, 3] is not the forward result shape [2, 6, 2]}}
  %0 = rlx.conv_backward_weight %dy, %x stride = [2] padding = [1, 0] dilation = [2] groups = 2 : (tensor<2x6x3xf32>, tensor<2x4x9xf32>) -> tensor<6x2x4xf32>
  return
}

// -----

func.func @conv_backward_weight_rank(%dy: tensor<2x6x3xf32>, %x: tensor<2x4x9xf32>) {
  // expected-error @+1 {{weight must have rank 3 like the input, got [6, 2]}}
  %0 = rlx.conv_backward_weight %dy, %x stride = [2] padding = [1, 0] dilation = [2] groups = 2 : (tensor<2x6x3xf32>, tensor<2x4x9xf32>) -> tensor<6x2xf32>
  return
}

// -----

func.func @conv_backward_weight_channels(%dy: tensor<2x6x3xf32>, %x: tensor<2x4x9xf32>) {
  // expected-error @+1 {{weight [6, 4, 3] must have input channels / groups = 2 in dimension 1, got 4}}
  %0 = rlx.conv_backward_weight %dy, %x stride = [2] padding = [1, 0] dilation = [2] groups = 2 : (tensor<2x6x3xf32>, tensor<2x4x9xf32>) -> tensor<6x4x3xf32>
  return
}

// -----

func.func @conv_transpose_backward_input_shape(%dy: tensor<2x4x14xf32>, %w: tensor<4x2x3xf32>) {
  // expected-error @+1 {{'rlx.conv_transpose_backward_input' op grad_output [2, 4, 14] is not the forward result shape [2, 4, 17]}}
  %0 = rlx.conv_transpose_backward_input %dy, %w stride = [2] padding = [1, 0] output_padding = [1] dilation = [1] groups = 2 : (tensor<2x4x14xf32>, tensor<4x2x3xf32>) -> tensor<2x4x8xf32>
  return
}

// -----

func.func @conv_transpose_backward_input_output_padding(%dy: tensor<2x4x15xf32>, %w: tensor<4x2x3xf32>) {
  // expected-error @+1 {{'output_padding' [2] must be smaller than the stride or the dilation in dimension 0}}
  %0 = rlx.conv_transpose_backward_input %dy, %w stride = [2] padding = [1, 0] output_padding = [2] dilation = [1] groups = 2 : (tensor<2x4x15xf32>, tensor<4x2x3xf32>) -> tensor<2x4x7xf32>
  return
}

// -----

func.func @conv_transpose_backward_weight_channels(%dy: tensor<2x4x14xf32>, %x: tensor<2x4x7xf32>) {
  // expected-error @+1 {{weight [3, 2, 3] must have the input channels (4) in dimension 0}}
  %0 = rlx.conv_transpose_backward_weight %dy, %x stride = [2] padding = [1, 0] output_padding = [1] dilation = [1] groups = 2 : (tensor<2x4x14xf32>, tensor<2x4x7xf32>) -> tensor<3x2x3xf32>
  return
}

// -----

func.func @pool_backward_shape(%dy: tensor<1x2x3x4xf32>, %x: tensor<1x2x7x7xf32>) {
  // expected-error @+1 {{'rlx.pool_backward' op grad_output [1, 2, 3, 4] is not the forward result shape [1, 2, 4, 4]}}
  %0 = rlx.pool_backward max %dy, %x kernel = [3, 3] stride = [2, 2] padding = [1, 1, 1, 1] : tensor<1x2x3x4xf32>, tensor<1x2x7x7xf32> -> tensor<1x2x7x7xf32>
  return
}

// -----

func.func @pool_backward_count_include_pad(%dy: tensor<1x2x4x4xf32>, %x: tensor<1x2x7x7xf32>) {
  // expected-error @+1 {{'count_include_pad' only applies to avg pooling}}
  %0 = rlx.pool_backward max %dy, %x kernel = [3, 3] stride = [2, 2] padding = [1, 1, 1, 1] count_include_pad : tensor<1x2x4x4xf32>, tensor<1x2x7x7xf32> -> tensor<1x2x7x7xf32>
  return
}

// -----

func.func @pool_backward_padding(%dy: tensor<1x2x5xf32>, %x: tensor<1x2x7xf32>) {
  // expected-error @+1 {{'padding' [2, 2] must be at most half the kernel size (3) in dimension 0}}
  %0 = rlx.pool_backward avg %dy, %x kernel = [3] stride = [2] padding = [2, 2] : tensor<1x2x5xf32>, tensor<1x2x7xf32> -> tensor<1x2x7xf32>
  return
}

// -----

func.func @pool_backward_result(%dy: tensor<1x2x3xf32>, %x: tensor<1x2x7xf32>) {
  // expected-error @+1 {{failed to verify that all of {input, result} have same type}}
  %0 = rlx.pool_backward avg %dy, %x kernel = [3] stride = [2] padding = [0, 0] : tensor<1x2x3xf32>, tensor<1x2x7xf32> -> tensor<1x2x8xf32>
  return
}

// -----

func.func @global_pool_backward_shape(%dy: tensor<2x3x1xf32>, %x: tensor<2x3x5x4xf32>) {
  // expected-error @+1 {{'rlx.global_pool_backward' op grad_output [2, 3, 1] must have the rank of the forward result shape [2, 3, 1, 1]}}
  %0 = rlx.global_pool_backward max %dy, %x : tensor<2x3x1xf32>, tensor<2x3x5x4xf32> -> tensor<2x3x5x4xf32>
  return
}

// -----

func.func @global_pool_backward_rank(%dy: tensor<2x3xf32>, %x: tensor<2x3xf32>) {
  // expected-error @+1 {{input must have rank >= 3 ([N, C, spatial...]), got [2, 3]}}
  %0 = rlx.global_pool_backward avg %dy, %x : tensor<2x3xf32>, tensor<2x3xf32> -> tensor<2x3xf32>
  return
}

// -----

func.func @gather_backward_shape(%dy: tensor<2x4x4xf32>, %i: tensor<2x3xi64>) {
  // expected-error @+1 {{'rlx.gather_backward' op grad_output [2, 4, 4] does not have the indices' [2, 3] at axis 0}}
  %0 = rlx.gather_backward %dy, %i axis = 0 : (tensor<2x4x4xf32>, tensor<2x3xi64>) -> tensor<10x4xf32>
  return
}

// -----

func.func @gather_backward_axis(%dy: tensor<2x3x4xf32>, %i: tensor<2x3xi64>) {
  // expected-error @+1 {{axis 2 is out of range for rank 2}}
  %0 = rlx.gather_backward %dy, %i axis = 2 : (tensor<2x3x4xf32>, tensor<2x3xi64>) -> tensor<10x4xf32>
  return
}

// -----

func.func @gather_backward_empty_axis(%dy: tensor<3x4xf32>, %i: tensor<3xi32>) {
  // expected-error @+1 {{cannot gather 3 indices from axis 0 of size 0}}
  %0 = rlx.gather_backward %dy, %i axis = 0 : (tensor<3x4xf32>, tensor<3xi32>) -> tensor<0x4xf32>
  return
}

// -----

func.func @gather_backward_float_indices(%dy: tensor<3x4xf32>, %i: tensor<3xf32>) {
  // expected-error @+1 {{operand #1 must be ranked tensor of 32-bit signless integer or 64-bit signless integer values}}
  %0 = rlx.gather_backward %dy, %i axis = 0 : (tensor<3x4xf32>, tensor<3xf32>) -> tensor<5x4xf32>
  return
}

// -----

func.func @cumsum_backward_axis(%dy: tensor<3x5xf32>) {
  // expected-error @+1 {{axis -3 is out of range for rank 2}}
  %0 = rlx.cumsum_backward %dy axis = -3 : tensor<3x5xf32>
  return
}

// -----

func.func @cumsum_backward_integer(%dy: tensor<3x5xi32>) {
  // expected-error @+1 {{operand #0 must be ranked tensor of}}
  %0 = rlx.cumsum_backward %dy axis = 0 : tensor<3x5xi32>
  return
}

// -----

func.func @rope_backward_n_rot(%dy: tensor<2x6x16xf32>, %cos: tensor<6x2xf32>, %sin: tensor<6x2xf32>) {
  // expected-error @+1 {{'rlx.rope_backward' op n_rot must be even and in (0, head_dim = 8], got 3}}
  %0 = rlx.rope_backward gptj bsd %dy, %cos, %sin head_dim = 8, n_rot = 3 : (tensor<2x6x16xf32>, tensor<6x2xf32>, tensor<6x2xf32>) -> tensor<2x6x16xf32>
  return
}

// -----

func.func @rope_backward_head_dim(%dy: tensor<2x6x16xf32>, %cos: tensor<6x2xf32>, %sin: tensor<6x2xf32>) {
  // expected-error @+1 {{'rlx.rope_backward' op head_dim must be positive and divide the last dimension 16, got 6}}
  %0 = rlx.rope_backward neox bsd %dy, %cos, %sin head_dim = 6, n_rot = 4 : (tensor<2x6x16xf32>, tensor<6x2xf32>, tensor<6x2xf32>) -> tensor<2x6x16xf32>
  return
}

// -----

func.func @rope_backward_table(%dy: tensor<2x6x16xf32>, %cos: tensor<6x3xf32>, %sin: tensor<6x2xf32>) {
  // expected-error @+1 {{'rlx.rope_backward' op cos must be [S, n_rot / 2] = [6, 2] (S is axis 1 of the input in layout bsd), got [6, 3]}}
  %0 = rlx.rope_backward neox bsd %dy, %cos, %sin head_dim = 8, n_rot = 4 : (tensor<2x6x16xf32>, tensor<6x3xf32>, tensor<6x2xf32>) -> tensor<2x6x16xf32>
  return
}

// -----

func.func @rope_backward_bshd(%dy: tensor<2x6x3x8xf32>, %cos: tensor<3x4xf32>) {
  // expected-error @+1 {{'rlx.rope_backward' op cos must be [S, n_rot / 2] = [6, 4] (S is axis 1 of the input in layout bshd), got [3, 4]}}
  %0 = rlx.rope_backward neox bshd %dy, %cos, %cos head_dim = 8, n_rot = 8 : (tensor<2x6x3x8xf32>, tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<2x6x3x8xf32>
  return
}

// -----

func.func @rope_backward_result(%dy: tensor<2x6x16xf32>, %cos: tensor<6x2xf32>, %sin: tensor<6x2xf32>) {
  // expected-error @+1 {{failed to verify that all of {grad_output, result} have same type}}
  %0 = rlx.rope_backward neox bsd %dy, %cos, %sin head_dim = 8, n_rot = 4 : (tensor<2x6x16xf32>, tensor<6x2xf32>, tensor<6x2xf32>) -> tensor<2x6x16xf16>
  return
}
