// RUN: rlx-opt %s -split-input-file -verify-diagnostics

// One case per verifier rule of the convolution, pooling and resampling
// ops: ODS type constraints, traits and result-type inference.

func.func @conv_rank(%x: tensor<2x3xf32>, %w: tensor<4x3xf32>) {
  // expected-error @+2 {{input must have rank 3 to 5 ([N, C, spatial...]), got [2, 3]}}
  // expected-error @+1 {{'rlx.conv' op failed to infer returned types}}
  %0 = rlx.conv %x, %w stride = [] padding = [] dilation = [] groups = 1 : (tensor<2x3xf32>, tensor<4x3xf32>) -> tensor<2x4xf32>
  return
}

// -----

func.func @conv_weight_rank(%x: tensor<1x3x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error @+2 {{weight must have rank 3 like the input, got [4, 3, 3, 3]}}
  // expected-error @+1 {{'rlx.conv' op failed to infer returned types}}
  %0 = rlx.conv %x, %w stride = [1] padding = [0, 0] dilation = [1] groups = 1 : (tensor<1x3x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6xf32>
  return
}

// -----

func.func @conv_stride_length(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error @+2 {{'stride' must have 2 entries, got 1: [1]}}
  // expected-error @+1 {{'rlx.conv' op failed to infer returned types}}
  %0 = rlx.conv %x, %w stride = [1] padding = [0, 0, 0, 0] dilation = [1, 1] groups = 1 : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  return
}

// -----

func.func @conv_stride_zero(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error @+2 {{'stride' entries must be positive, got [1, 0]}}
  // expected-error @+1 {{'rlx.conv' op failed to infer returned types}}
  %0 = rlx.conv %x, %w stride = [1, 0] padding = [0, 0, 0, 0] dilation = [1, 1] groups = 1 : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  return
}

// -----

func.func @conv_padding_length(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error @+2 {{'padding' must have 4 entries, got 2: [1, 1]}}
  // expected-error @+1 {{'rlx.conv' op failed to infer returned types}}
  %0 = rlx.conv %x, %w stride = [1, 1] padding = [1, 1] dilation = [1, 1] groups = 1 : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x8x8xf32>
  return
}

// -----

func.func @conv_padding_negative(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error @+2 {{'padding' entries must be non-negative, got [0, -1, 0, 0]}}
  // expected-error @+1 {{'rlx.conv' op failed to infer returned types}}
  %0 = rlx.conv %x, %w stride = [1, 1] padding = [0, -1, 0, 0] dilation = [1, 1] groups = 1 : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x5x6xf32>
  return
}

// -----

func.func @conv_dilation_length(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error @+2 {{'dilation' must have 2 entries, got 3: [1, 1, 1]}}
  // expected-error @+1 {{'rlx.conv' op failed to infer returned types}}
  %0 = rlx.conv %x, %w stride = [1, 1] padding = [0, 0, 0, 0] dilation = [1, 1, 1] groups = 1 : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  return
}

// -----

func.func @conv_dilation_zero(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error @+2 {{'dilation' entries must be positive, got [0, 1]}}
  // expected-error @+1 {{'rlx.conv' op failed to infer returned types}}
  %0 = rlx.conv %x, %w stride = [1, 1] padding = [0, 0, 0, 0] dilation = [0, 1] groups = 1 : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  return
}

// -----

func.func @conv_groups_zero(%x: tensor<1x4x8xf32>, %w: tensor<4x4x3xf32>) {
  // expected-error @+2 {{'groups' must be positive, got 0}}
  // expected-error @+1 {{'rlx.conv' op failed to infer returned types}}
  %0 = rlx.conv %x, %w stride = [1] padding = [0, 0] dilation = [1] groups = 0 : (tensor<1x4x8xf32>, tensor<4x4x3xf32>) -> tensor<1x4x6xf32>
  return
}

// -----

func.func @conv_groups_input_channels(%x: tensor<1x4x8xf32>, %w: tensor<6x1x3xf32>) {
  // expected-error @+2 {{'groups' (3) must divide the input channels (4)}}
  // expected-error @+1 {{'rlx.conv' op failed to infer returned types}}
  %0 = rlx.conv %x, %w stride = [1] padding = [0, 0] dilation = [1] groups = 3 : (tensor<1x4x8xf32>, tensor<6x1x3xf32>) -> tensor<1x6x6xf32>
  return
}

// -----

func.func @conv_groups_output_channels(%x: tensor<1x4x8xf32>, %w: tensor<5x2x3xf32>) {
  // expected-error @+2 {{'groups' (2) must divide the output channels (weight dimension 0 = 5)}}
  // expected-error @+1 {{'rlx.conv' op failed to infer returned types}}
  %0 = rlx.conv %x, %w stride = [1] padding = [0, 0] dilation = [1] groups = 2 : (tensor<1x4x8xf32>, tensor<5x2x3xf32>) -> tensor<1x5x6xf32>
  return
}

// -----

func.func @conv_weight_channels(%x: tensor<1x4x8xf32>, %w: tensor<6x4x3xf32>) {
  // expected-error @+2 {{weight [6, 4, 3] must have input channels / groups = 2 in dimension 1, got 4}}
  // expected-error @+1 {{'rlx.conv' op failed to infer returned types}}
  %0 = rlx.conv %x, %w stride = [1] padding = [0, 0] dilation = [1] groups = 2 : (tensor<1x4x8xf32>, tensor<6x4x3xf32>) -> tensor<1x6x6xf32>
  return
}

// -----

func.func @conv_kernel_too_large(%x: tensor<1x3x4x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error @+2 {{spatial dimension 0: dilated kernel size 5 exceeds the padded input size 4}}
  // expected-error @+1 {{'rlx.conv' op failed to infer returned types}}
  %0 = rlx.conv %x, %w stride = [1, 1] padding = [0, 0, 0, 0] dilation = [2, 1] groups = 1 : (tensor<1x3x4x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x1x6xf32>
  return
}

// -----

func.func @conv_wrong_result(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error @+2 {{'rlx.conv' op inferred type(s) 'tensor<1x4x4x4xf32>' are incompatible with return type(s) of operation 'tensor<1x4x8x8xf32>'}}
  // expected-error @+1 {{'rlx.conv' op failed to infer returned types}}
  %0 = rlx.conv %x, %w stride = [2, 2] padding = [1, 1, 1, 1] dilation = [1, 1] groups = 1 : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x8x8xf32>
  return
}

// -----

func.func @conv_element_types(%x: tensor<1x3x8xf32>, %w: tensor<4x3x3xf16>) {
  // expected-error @+1 {{'rlx.conv' op requires the same element type for all operands and results}}
  %0 = rlx.conv %x, %w stride = [1] padding = [0, 0] dilation = [1] groups = 1 : (tensor<1x3x8xf32>, tensor<4x3x3xf16>) -> tensor<1x4x6xf32>
  return
}

// -----

func.func @conv_integer(%x: tensor<1x3x8xi32>, %w: tensor<4x3x3xi32>) {
  // expected-error @+1 {{'rlx.conv' op operand #0 must be ranked tensor of floating-point values, but got 'tensor<1x3x8xi32>'}}
  %0 = rlx.conv %x, %w stride = [1] padding = [0, 0] dilation = [1] groups = 1 : (tensor<1x3x8xi32>, tensor<4x3x3xi32>) -> tensor<1x4x6xi32>
  return
}

// -----

func.func @conv_transpose_rank(%x: tensor<1x1x2x2x2x2xf32>, %w: tensor<1x1x2x2x2x2xf32>) {
  // expected-error @+2 {{input must have rank 3 to 5 ([N, C, spatial...]), got [1, 1, 2, 2, 2, 2]}}
  // expected-error @+1 {{'rlx.conv_transpose' op failed to infer returned types}}
  %0 = rlx.conv_transpose %x, %w stride = [1, 1, 1, 1] padding = [0, 0, 0, 0, 0, 0, 0, 0] output_padding = [0, 0, 0, 0] dilation = [1, 1, 1, 1] groups = 1 : (tensor<1x1x2x2x2x2xf32>, tensor<1x1x2x2x2x2xf32>) -> tensor<1x1x3x3x3x3xf32>
  return
}

// -----

func.func @conv_transpose_weight_rank(%x: tensor<1x4x5x5xf32>, %w: tensor<4x2x3xf32>) {
  // expected-error @+2 {{weight must have rank 4 like the input, got [4, 2, 3]}}
  // expected-error @+1 {{'rlx.conv_transpose' op failed to infer returned types}}
  %0 = rlx.conv_transpose %x, %w stride = [1, 1] padding = [0, 0, 0, 0] output_padding = [0, 0] dilation = [1, 1] groups = 1 : (tensor<1x4x5x5xf32>, tensor<4x2x3xf32>) -> tensor<1x2x7x7xf32>
  return
}

// -----

func.func @conv_transpose_stride_zero(%x: tensor<1x4x5x5xf32>, %w: tensor<4x2x3x3xf32>) {
  // expected-error @+2 {{'stride' entries must be positive, got [0, 1]}}
  // expected-error @+1 {{'rlx.conv_transpose' op failed to infer returned types}}
  %0 = rlx.conv_transpose %x, %w stride = [0, 1] padding = [0, 0, 0, 0] output_padding = [0, 0] dilation = [1, 1] groups = 1 : (tensor<1x4x5x5xf32>, tensor<4x2x3x3xf32>) -> tensor<1x2x7x7xf32>
  return
}

// -----

func.func @conv_transpose_padding_negative(%x: tensor<1x4x5x5xf32>, %w: tensor<4x2x3x3xf32>) {
  // expected-error @+2 {{'padding' entries must be non-negative, got [0, 0, -1, 0]}}
  // expected-error @+1 {{'rlx.conv_transpose' op failed to infer returned types}}
  %0 = rlx.conv_transpose %x, %w stride = [1, 1] padding = [0, 0, -1, 0] output_padding = [0, 0] dilation = [1, 1] groups = 1 : (tensor<1x4x5x5xf32>, tensor<4x2x3x3xf32>) -> tensor<1x2x7x8xf32>
  return
}

// -----

func.func @conv_transpose_dilation_zero(%x: tensor<1x4x5x5xf32>, %w: tensor<4x2x3x3xf32>) {
  // expected-error @+2 {{'dilation' entries must be positive, got [1, 0]}}
  // expected-error @+1 {{'rlx.conv_transpose' op failed to infer returned types}}
  %0 = rlx.conv_transpose %x, %w stride = [1, 1] padding = [0, 0, 0, 0] output_padding = [0, 0] dilation = [1, 0] groups = 1 : (tensor<1x4x5x5xf32>, tensor<4x2x3x3xf32>) -> tensor<1x2x7x7xf32>
  return
}

// -----

func.func @conv_transpose_output_padding_length(%x: tensor<1x4x5x5xf32>, %w: tensor<4x2x3x3xf32>) {
  // expected-error @+2 {{'output_padding' must have 2 entries, got 1: [1]}}
  // expected-error @+1 {{'rlx.conv_transpose' op failed to infer returned types}}
  %0 = rlx.conv_transpose %x, %w stride = [2, 2] padding = [0, 0, 0, 0] output_padding = [1] dilation = [1, 1] groups = 1 : (tensor<1x4x5x5xf32>, tensor<4x2x3x3xf32>) -> tensor<1x2x12x11xf32>
  return
}

// -----

func.func @conv_transpose_output_padding_negative(%x: tensor<1x4x5x5xf32>, %w: tensor<4x2x3x3xf32>) {
  // expected-error @+2 {{'output_padding' entries must be non-negative, got [0, -1]}}
  // expected-error @+1 {{'rlx.conv_transpose' op failed to infer returned types}}
  %0 = rlx.conv_transpose %x, %w stride = [2, 2] padding = [0, 0, 0, 0] output_padding = [0, -1] dilation = [1, 1] groups = 1 : (tensor<1x4x5x5xf32>, tensor<4x2x3x3xf32>) -> tensor<1x2x11x10xf32>
  return
}

// -----

func.func @conv_transpose_output_padding_large(%x: tensor<1x4x5x5xf32>, %w: tensor<4x2x3x3xf32>) {
  // expected-error @+2 {{'output_padding' [0, 2] must be smaller than the stride or the dilation in dimension 1}}
  // expected-error @+1 {{'rlx.conv_transpose' op failed to infer returned types}}
  %0 = rlx.conv_transpose %x, %w stride = [2, 2] padding = [0, 0, 0, 0] output_padding = [0, 2] dilation = [1, 1] groups = 1 : (tensor<1x4x5x5xf32>, tensor<4x2x3x3xf32>) -> tensor<1x2x11x13xf32>
  return
}

// -----

func.func @conv_transpose_groups_zero(%x: tensor<1x4x5x5xf32>, %w: tensor<4x2x3x3xf32>) {
  // expected-error @+2 {{'groups' must be positive, got 0}}
  // expected-error @+1 {{'rlx.conv_transpose' op failed to infer returned types}}
  %0 = rlx.conv_transpose %x, %w stride = [1, 1] padding = [0, 0, 0, 0] output_padding = [0, 0] dilation = [1, 1] groups = 0 : (tensor<1x4x5x5xf32>, tensor<4x2x3x3xf32>) -> tensor<1x2x7x7xf32>
  return
}

// -----

func.func @conv_transpose_groups_channels(%x: tensor<1x4x5x5xf32>, %w: tensor<4x2x3x3xf32>) {
  // expected-error @+2 {{'groups' (3) must divide the input channels (4)}}
  // expected-error @+1 {{'rlx.conv_transpose' op failed to infer returned types}}
  %0 = rlx.conv_transpose %x, %w stride = [1, 1] padding = [0, 0, 0, 0] output_padding = [0, 0] dilation = [1, 1] groups = 3 : (tensor<1x4x5x5xf32>, tensor<4x2x3x3xf32>) -> tensor<1x6x7x7xf32>
  return
}

// -----

func.func @conv_transpose_weight_channels(%x: tensor<1x4x5x5xf32>, %w: tensor<2x2x3x3xf32>) {
  // expected-error @+2 {{weight [2, 2, 3, 3] must have the input channels (4) in dimension 0}}
  // expected-error @+1 {{'rlx.conv_transpose' op failed to infer returned types}}
  %0 = rlx.conv_transpose %x, %w stride = [1, 1] padding = [0, 0, 0, 0] output_padding = [0, 0] dilation = [1, 1] groups = 2 : (tensor<1x4x5x5xf32>, tensor<2x2x3x3xf32>) -> tensor<1x4x7x7xf32>
  return
}

// -----

func.func @conv_transpose_empty_input(%x: tensor<1x4x0xf32>, %w: tensor<4x2x3xf32>) {
  // expected-error @+2 {{spatial dimension 0 of the input is empty}}
  // expected-error @+1 {{'rlx.conv_transpose' op failed to infer returned types}}
  %0 = rlx.conv_transpose %x, %w stride = [1] padding = [0, 0] output_padding = [0] dilation = [1] groups = 1 : (tensor<1x4x0xf32>, tensor<4x2x3xf32>) -> tensor<1x2x2xf32>
  return
}

// -----

func.func @conv_transpose_cropped(%x: tensor<1x4x1xf32>, %w: tensor<4x2x2xf32>) {
  // expected-error @+2 {{spatial dimension 0: padding crops the output to size 0}}
  // expected-error @+1 {{'rlx.conv_transpose' op failed to infer returned types}}
  %0 = rlx.conv_transpose %x, %w stride = [1] padding = [1, 1] output_padding = [0] dilation = [1] groups = 1 : (tensor<1x4x1xf32>, tensor<4x2x2xf32>) -> tensor<1x2x1xf32>
  return
}

// -----

func.func @conv_transpose_wrong_result(%x: tensor<1x4x5xf32>, %w: tensor<4x2x3xf32>) {
  // expected-error @+2 {{'rlx.conv_transpose' op inferred type(s) 'tensor<1x2x10xf32>' are incompatible with return type(s) of operation 'tensor<1x2x9xf32>'}}
  // expected-error @+1 {{'rlx.conv_transpose' op failed to infer returned types}}
  %0 = rlx.conv_transpose %x, %w stride = [2] padding = [1, 1] output_padding = [1] dilation = [1] groups = 1 : (tensor<1x4x5xf32>, tensor<4x2x3xf32>) -> tensor<1x2x9xf32>
  return
}

// -----

func.func @pool_rank(%x: tensor<4x8xf32>) {
  // expected-error @+2 {{input must have rank 3 to 5 ([N, C, spatial...]), got [4, 8]}}
  // expected-error @+1 {{'rlx.pool' op failed to infer returned types}}
  %0 = rlx.pool max %x kernel = [] stride = [] padding = [] : tensor<4x8xf32> -> tensor<4x8xf32>
  return
}

// -----

func.func @pool_kernel_length(%x: tensor<1x2x8x8xf32>) {
  // expected-error @+2 {{'kernel' must have 2 entries, got 1: [2]}}
  // expected-error @+1 {{'rlx.pool' op failed to infer returned types}}
  %0 = rlx.pool max %x kernel = [2] stride = [2, 2] padding = [0, 0, 0, 0] : tensor<1x2x8x8xf32> -> tensor<1x2x4x4xf32>
  return
}

// -----

func.func @pool_kernel_zero(%x: tensor<1x2x8x8xf32>) {
  // expected-error @+2 {{'kernel' entries must be positive, got [2, 0]}}
  // expected-error @+1 {{'rlx.pool' op failed to infer returned types}}
  %0 = rlx.pool max %x kernel = [2, 0] stride = [2, 2] padding = [0, 0, 0, 0] : tensor<1x2x8x8xf32> -> tensor<1x2x4x4xf32>
  return
}

// -----

func.func @pool_stride_length(%x: tensor<1x2x8x8xf32>) {
  // expected-error @+2 {{'stride' must have 2 entries, got 3: [2, 2, 2]}}
  // expected-error @+1 {{'rlx.pool' op failed to infer returned types}}
  %0 = rlx.pool max %x kernel = [2, 2] stride = [2, 2, 2] padding = [0, 0, 0, 0] : tensor<1x2x8x8xf32> -> tensor<1x2x4x4xf32>
  return
}

// -----

func.func @pool_stride_negative(%x: tensor<1x2x8x8xf32>) {
  // expected-error @+2 {{'stride' entries must be positive, got [2, -2]}}
  // expected-error @+1 {{'rlx.pool' op failed to infer returned types}}
  %0 = rlx.pool max %x kernel = [2, 2] stride = [2, -2] padding = [0, 0, 0, 0] : tensor<1x2x8x8xf32> -> tensor<1x2x4x4xf32>
  return
}

// -----

func.func @pool_padding_length(%x: tensor<1x2x8x8xf32>) {
  // expected-error @+2 {{'padding' must have 4 entries, got 3: [0, 0, 0]}}
  // expected-error @+1 {{'rlx.pool' op failed to infer returned types}}
  %0 = rlx.pool max %x kernel = [2, 2] stride = [2, 2] padding = [0, 0, 0] : tensor<1x2x8x8xf32> -> tensor<1x2x4x4xf32>
  return
}

// -----

func.func @pool_padding_negative(%x: tensor<1x2x8x8xf32>) {
  // expected-error @+2 {{'padding' entries must be non-negative, got [0, 0, -1, 0]}}
  // expected-error @+1 {{'rlx.pool' op failed to infer returned types}}
  %0 = rlx.pool max %x kernel = [2, 2] stride = [2, 2] padding = [0, 0, -1, 0] : tensor<1x2x8x8xf32> -> tensor<1x2x4x4xf32>
  return
}

// -----

func.func @pool_padding_over_half_kernel(%x: tensor<1x2x8x8xf32>) {
  // expected-error @+2 {{'padding' [0, 0, 0, 2] must be at most half the kernel size (3) in dimension 1}}
  // expected-error @+1 {{'rlx.pool' op failed to infer returned types}}
  %0 = rlx.pool avg %x kernel = [3, 3] stride = [1, 1] padding = [0, 0, 0, 2] : tensor<1x2x8x8xf32> -> tensor<1x2x6x8xf32>
  return
}

// -----

func.func @pool_kernel_too_large(%x: tensor<1x2x3x8xf32>) {
  // expected-error @+2 {{spatial dimension 0: kernel size 5 exceeds the padded input size 4}}
  // expected-error @+1 {{'rlx.pool' op failed to infer returned types}}
  %0 = rlx.pool avg %x kernel = [5, 2] stride = [1, 1] padding = [1, 0, 0, 0] : tensor<1x2x3x8xf32> -> tensor<1x2x1x7xf32>
  return
}

// -----

func.func @pool_empty_input(%x: tensor<1x2x0x4xf32>) {
  // expected-error @+2 {{spatial dimension 0 of the input is empty}}
  // expected-error @+1 {{'rlx.pool' op failed to infer returned types}}
  %0 = rlx.pool max %x kernel = [2, 2] stride = [1, 1] padding = [1, 1, 0, 0] : tensor<1x2x0x4xf32> -> tensor<1x2x1x3xf32>
  return
}

// -----

func.func @pool_wrong_result(%x: tensor<1x2x5x5xf32>) {
  // expected-error @+2 {{'rlx.pool' op inferred type(s) 'tensor<1x2x3x3xf32>' are incompatible with return type(s) of operation 'tensor<1x2x2x2xf32>'}}
  // expected-error @+1 {{'rlx.pool' op failed to infer returned types}}
  %0 = rlx.pool max %x kernel = [2, 2] stride = [2, 2] padding = [0, 0, 0, 0] ceil_mode : tensor<1x2x5x5xf32> -> tensor<1x2x2x2xf32>
  return
}

// -----

func.func @pool_count_include_pad_max(%x: tensor<1x2x8x8xf32>) {
  // expected-error @+1 {{'rlx.pool' op 'count_include_pad' only applies to avg pooling}}
  %0 = rlx.pool max %x kernel = [2, 2] stride = [2, 2] padding = [1, 1, 1, 1] count_include_pad : tensor<1x2x8x8xf32> -> tensor<1x2x5x5xf32>
  return
}

// -----

func.func @pool_integer(%x: tensor<1x2x8x8xi32>) {
  // expected-error @+1 {{'rlx.pool' op operand #0 must be ranked tensor of floating-point values, but got 'tensor<1x2x8x8xi32>'}}
  %0 = rlx.pool max %x kernel = [2, 2] stride = [2, 2] padding = [0, 0, 0, 0] : tensor<1x2x8x8xi32> -> tensor<1x2x4x4xi32>
  return
}

// -----

func.func @global_pool_rank(%x: tensor<4x8xf32>) {
  // expected-error @+2 {{input must have rank >= 3 ([N, C, spatial...]), got [4, 8]}}
  // expected-error @+1 {{'rlx.global_pool' op failed to infer returned types}}
  %0 = rlx.global_pool avg %x : tensor<4x8xf32> -> tensor<4x8xf32>
  return
}

// -----

func.func @global_pool_wrong_result(%x: tensor<2x3x4x5xf32>) {
  // expected-error @+2 {{'rlx.global_pool' op inferred type(s) 'tensor<2x3x1x1xf32>' are incompatible with return type(s) of operation 'tensor<2x3xf32>'}}
  // expected-error @+1 {{'rlx.global_pool' op failed to infer returned types}}
  %0 = rlx.global_pool max %x : tensor<2x3x4x5xf32> -> tensor<2x3xf32>
  return
}

// -----

func.func @resize_nearest2x_rank(%x: tensor<1x2x3xf32>) {
  // expected-error @+2 {{input must have rank 4 ([N, C, spatial...]), got [1, 2, 3]}}
  // expected-error @+1 {{'rlx.resize_nearest2x' op failed to infer returned types}}
  %0 = rlx.resize_nearest2x %x : tensor<1x2x3xf32> -> tensor<1x2x6xf32>
  return
}

// -----

func.func @resize_nearest2x_wrong_result(%x: tensor<1x2x3x4xf32>) {
  // expected-error @+2 {{'rlx.resize_nearest2x' op inferred type(s) 'tensor<1x2x6x8xf32>' are incompatible with return type(s) of operation 'tensor<1x2x6x4xf32>'}}
  // expected-error @+1 {{'rlx.resize_nearest2x' op failed to infer returned types}}
  %0 = rlx.resize_nearest2x %x : tensor<1x2x3x4xf32> -> tensor<1x2x6x4xf32>
  return
}

// -----

func.func @interpolate_rank(%x: tensor<2x3xf32>) {
  // expected-error @+2 {{input must have rank 3 to 5 ([N, C, spatial...]), got [2, 3]}}
  // expected-error @+1 {{'rlx.interpolate_nearest' op failed to infer returned types}}
  %0 = rlx.interpolate_nearest %x size = [] : tensor<2x3xf32> -> tensor<2x3xf32>
  return
}

// -----

func.func @interpolate_size_length(%x: tensor<1x2x3x4xf32>) {
  // expected-error @+2 {{'size' must have 2 entries, got 1: [6]}}
  // expected-error @+1 {{'rlx.interpolate_nearest' op failed to infer returned types}}
  %0 = rlx.interpolate_nearest %x size = [6] : tensor<1x2x3x4xf32> -> tensor<1x2x6xf32>
  return
}

// -----

func.func @interpolate_size_zero(%x: tensor<1x2x3x4xf32>) {
  // expected-error @+2 {{'size' entries must be positive, got [6, 0]}}
  // expected-error @+1 {{'rlx.interpolate_nearest' op failed to infer returned types}}
  %0 = rlx.interpolate_nearest %x size = [6, 0] : tensor<1x2x3x4xf32> -> tensor<1x2x6x0xf32>
  return
}

// -----

func.func @interpolate_empty_input(%x: tensor<1x2x3x0xf32>) {
  // expected-error @+2 {{spatial dimension 1 of the input is empty: nothing to resample to size 2}}
  // expected-error @+1 {{'rlx.interpolate_nearest' op failed to infer returned types}}
  %0 = rlx.interpolate_nearest %x size = [6, 2] : tensor<1x2x3x0xf32> -> tensor<1x2x6x2xf32>
  return
}

// -----

func.func @interpolate_element_type(%x: tensor<1x2x3x4xf32>) {
  // expected-error @+1 {{'rlx.interpolate_nearest' op requires the same element type for all operands and results}}
  %0 = rlx.interpolate_nearest %x size = [6, 8] : tensor<1x2x3x4xf32> -> tensor<1x2x6x8xf16>
  return
}
