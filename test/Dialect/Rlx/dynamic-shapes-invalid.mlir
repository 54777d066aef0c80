// RUN: rlx-opt %s -split-input-file -verify-diagnostics

// `?` sizes: what the shape rules reject at compile time. Relations that
// are not decided until run time are accepted here (the ABI checks them).

func.func @no_rule() {
  // expected-error @+1 {{'rlx.iota' op does not support dynamic dimensions: result #0 has type 'tensor<?x5xi64>'}}
  %0 = rlx.iota axis = 0 : tensor<?x5xi64>
  return
}

// -----

func.func @conv_dynamic_channels(%x: tensor<2x?x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error @+2 {{input [2, ?, 8, 8] must have static channels (dimension 1)}}
  // expected-error @+1 {{'rlx.conv' op failed to infer returned types}}
  %0 = rlx.conv %x, %w stride = [1, 1] padding = [0, 0, 0, 0] dilation = [1, 1] groups = 1 : (tensor<2x?x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<2x4x6x6xf32>
  return
}

// -----

// A `?` image size is not known to be too small: the static one is.
func.func @conv_spatial_too_small(%x: tensor<?x3x?x2xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error @+2 {{spatial dimension 1: dilated kernel size 3 exceeds the padded input size 2}}
  // expected-error @+1 {{'rlx.conv' op failed to infer returned types}}
  %0 = rlx.conv %x, %w stride = [1, 1] padding = [0, 0, 0, 0] dilation = [1, 1] groups = 1 : (tensor<?x3x?x2xf32>, tensor<4x3x3x3xf32>) -> tensor<?x4x?x1xf32>
  return
}

// -----

func.func @conv_spatial_declared_static(%x: tensor<1x3x?x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error @+2 {{'rlx.conv' op inferred type(s) 'tensor<1x4x?x6xf32>' are incompatible with return type(s) of operation 'tensor<1x4x5x7xf32>'}}
  // expected-error @+1 {{'rlx.conv' op failed to infer returned types}}
  %0 = rlx.conv %x, %w stride = [1, 1] padding = [0, 0, 0, 0] dilation = [1, 1] groups = 1 : (tensor<1x3x?x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x5x7xf32>
  return
}

// -----

// ceil_mode's drop of a last window that starts in the high padding (PyTorch)
// is not affine in a `?` size: kernel 2 < stride 2 + high padding 1.
func.func @pool_ceil_dynamic(%x: tensor<1x3x?x8xf32>) {
  // expected-error @+2 {{ceil_mode with a `?` spatial size needs kernel >= stride + high padding (2 < 2 + 1 in dimension 0): the last window's drop depends on the size}}
  // expected-error @+1 {{'rlx.pool' op failed to infer returned types}}
  %0 = rlx.pool max %x kernel = [2, 2] stride = [2, 2] padding = [1, 1, 1, 1] ceil_mode : tensor<1x3x?x8xf32> -> tensor<1x3x?x5xf32>
  return
}

// -----

func.func @interpolate_dynamic_spatial(%x: tensor<1x3x?x8xf32>) {
  // expected-error @+2 {{input [1, 3, ?, 8] must have static spatial sizes}}
  // expected-error @+1 {{'rlx.interpolate_nearest' op failed to infer returned types}}
  %0 = rlx.interpolate_nearest %x size = [4, 4] : tensor<1x3x?x8xf32> -> tensor<1x3x4x4xf32>
  return
}

// -----

func.func @conv_dynamic_weight(%x: tensor<?x3x8x8xf32>, %w: tensor<?x3x3x3xf32>) {
  // expected-error @+2 {{weight must be static, got 'tensor<?x3x3x3xf32>'}}
  // expected-error @+1 {{'rlx.conv' op failed to infer returned types}}
  %0 = rlx.conv %x, %w stride = [1, 1] padding = [0, 0, 0, 0] dilation = [1, 1] groups = 1 : (tensor<?x3x8x8xf32>, tensor<?x3x3x3xf32>) -> tensor<?x?x6x6xf32>
  return
}

// -----

func.func @broadcast_static_mismatch(%x: tensor<?x3xf32>, %y: tensor<2x4xf32>) {
  // expected-error @+2 {{operand shapes are not broadcast compatible: [?, 3] and [2, 4]}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = rlx.add %x, %y : (tensor<?x3xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
  return
}

// -----

func.func @inferred_static(%x: tensor<?x4xf32>, %y: tensor<3x4xf32>) {
  // A `?` that meets a static size takes it: the result is static.
  // expected-error @+2 {{'rlx.add' op inferred type(s) 'tensor<3x4xf32>' are incompatible with return type(s) of operation 'tensor<?x4xf32>'}}
  // expected-error @+1 {{'rlx.add' op failed to infer returned types}}
  %0 = rlx.add %x, %y : (tensor<?x4xf32>, tensor<3x4xf32>) -> tensor<?x4xf32>
  return
}

// -----

func.func @matmul_k(%x: tensor<?x3xf32>, %w: tensor<4x?xf32>) {
  // expected-error @+2 {{contracting dimensions differ}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = rlx.matmul %x, %w : (tensor<?x3xf32>, tensor<4x?xf32>) -> tensor<?x?xf32>
  return
}

// -----

func.func @reshape_zero(%x: tensor<?x4xf32>) {
  // expected-error @+1 {{'rlx.reshape' op cannot infer the `?` size of result dimension 1 next to a size-0 dimension}}
  %0 = rlx.reshape %x : tensor<?x4xf32> -> tensor<0x?xf32>
  return
}

// -----

func.func @reshape_copies_missing(%x: tensor<?x4xf32>) {
  // expected-error @+1 {{'rlx.reshape' op result dimension 1 is `?` but the input has no `?` dimension left to take its size from}}
  %0 = rlx.reshape %x : tensor<?x4xf32> -> tensor<?x?x?xf32>
  return
}

// -----

func.func @expand_from_one(%x: tensor<?x1xf32>) {
  // expected-error @+1 {{'rlx.expand' op result dimension 1 is `?` where the input has size 1: a repeated dimension needs a static size or a `like` operand}}
  %0 = rlx.expand %x : tensor<?x1xf32> -> tensor<?x?xf32>
  return
}

// -----

func.func @expand_like_rank(%x: tensor<1x4xf32>, %y: tensor<?xf32>) {
  // expected-error @+1 {{'rlx.expand' op result rank 2 differs from the rank 1 of `like`}}
  %0 = rlx.expand %x like %y : tensor<1x4xf32>, tensor<?xf32> -> tensor<?x4xf32>
  return
}

// -----

func.func @expand_like_size(%x: tensor<1x4xf32>, %y: tensor<?x5xf32>) {
  // expected-error @+1 {{'rlx.expand' op cannot expand [1, 4] to [?, 5]: input dimension 1 has size 4 but the result has 5; only size-1 dimensions broadcast}}
  %0 = rlx.expand %x like %y : tensor<1x4xf32>, tensor<?x5xf32> -> tensor<?x5xf32>
  return
}

// -----

func.func @expand_like_declared(%x: tensor<1x4xf32>, %y: tensor<?x4xf32>) {
  // expected-error @+1 {{'rlx.expand' op result #0 has type 'tensor<3x4xf32>', but its shape is [?, 4]}}
  %0 = rlx.expand %x like %y : tensor<1x4xf32>, tensor<?x4xf32> -> tensor<3x4xf32>
  return
}

// -----

func.func @numel_axis(%x: tensor<?x4xf32>) {
  // expected-error @+1 {{axis 2 is out of range for rank 2}}
  %0 = rlx.numel %x axes = [2] : tensor<?x4xf32> -> tensor<f32>
  return
}

// -----

func.func @numel_twice(%x: tensor<?x4xf32>) {
  // expected-error @+1 {{axis -2 is counted twice}}
  %0 = rlx.numel %x axes = [0, -2] : tensor<?x4xf32> -> tensor<f32>
  return
}

// -----

func.func @numel_no_axes(%x: tensor<?x4xf32>) {
  // expected-error @+1 {{requires at least one counted axis}}
  %0 = rlx.numel %x axes = [] : tensor<?x4xf32> -> tensor<f32>
  return
}

// -----

func.func @numel_rank(%x: tensor<?x4xf32>) {
  // expected-error @+1 {{'rlx.numel' op result #0 has type 'tensor<1xf32>', but its shape is []}}
  %0 = rlx.numel %x axes = [0] : tensor<?x4xf32> -> tensor<1xf32>
  return
}

// -----

func.func @narrow_before_start(%x: tensor<?x4xf32>) {
  // expected-error @+2 {{window start = -1, length = 2, step = 1 reads outside axis 0 of size ?}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = rlx.narrow %x axis = 0, start = -1, length = 2 : tensor<?x4xf32> -> tensor<2x4xf32>
  return
}

// -----

func.func @swiglu_dynamic_halves(%x: tensor<4x?xf32>) {
  // expected-error @+2 {{swiglu needs a static last axis, got 'tensor<4x?xf32>'}}
  // expected-error @+1 {{'rlx.swiglu' op failed to infer returned types}}
  %0 = rlx.swiglu %x : tensor<4x?xf32> -> tensor<4x?xf32>
  return
}

// -----

func.func @region_result(%x: tensor<?x8xf32>) {
  // expected-error @+1 {{'rlx.region' op yields 'tensor<?x8xf32>' but returns 'tensor<4x8xf32>'}}
  %0 = rlx.region elementwise ins(%x : tensor<?x8xf32>) -> tensor<4x8xf32> {
  ^bb0(%a: tensor<?x8xf32>):
    %1 = rlx.gelu %a : tensor<?x8xf32>
    rlx.yield %1 : tensor<?x8xf32>
  }
  return
}

// -----

func.func @group_norm_dynamic_channels(%x: tensor<2x?x4xf32>, %g: tensor<?xf32>) {
  // expected-error @+1 {{'rlx.group_norm' op needs a static channel count (axis 1)}}
  %0 = rlx.group_norm %x, %g, %g groups = 2 eps = 1.0e-5 : (tensor<2x?x4xf32>, tensor<?xf32>, tensor<?xf32>) -> tensor<2x?x4xf32>
  return
}

// -----

func.func @labels_dynamic_classes(%l: tensor<?x?xf32>, %y: tensor<?xi64>) {
  // expected-error @+2 {{needs a static class count (axis 1 of the logits), got 'tensor<?x?xf32>'}}
  // expected-error @+1 {{'rlx.softmax_cross_entropy_with_labels' op failed to infer returned types}}
  %0 = rlx.softmax_cross_entropy_with_labels %l, %y : (tensor<?x?xf32>, tensor<?xi64>) -> tensor<?xf32>
  return
}

// -----

func.func @rope_dynamic_width(%x: tensor<2x?x?xf32>, %c: tensor<?x4xf32>) {
  // expected-error @+1 {{'rlx.rope' op needs a static last dimension (the heads' width)}}
  %0 = rlx.rope neox bsd %x, %c, %c head_dim = 8, n_rot = 8 : (tensor<2x?x?xf32>, tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<2x?x?xf32>
  return
}

// -----

func.func @rope_table_width(%x: tensor<2x?x16xf32>, %c: tensor<?x3xf32>) {
  // expected-error @+1 {{'rlx.rope' op cos must be [S, n_rot / 2] = [?, 4] (S is axis 1 of the input in layout bsd), got [?, 3]}}
  %0 = rlx.rope neox bsd %x, %c, %c head_dim = 8, n_rot = 8 : (tensor<2x?x16xf32>, tensor<?x3xf32>, tensor<?x3xf32>) -> tensor<2x?x16xf32>
  return
}

// -----

func.func @ada_modulation_static_mismatch(%x: tensor<?x?x8xf32>, %s: tensor<?x1x6xf32>) {
  // expected-error @+1 {{'rlx.ada_layer_norm' op scale and shift [?, 1, 6] do not broadcast to input [?, ?, 8]}}
  %0 = rlx.ada_layer_norm layer %x, %s, %s eps = 1.0e-5 : (tensor<?x?x8xf32>, tensor<?x1x6xf32>, tensor<?x1x6xf32>) -> tensor<?x?x8xf32>
  return
}

// -----

func.func @batch_norm_channel_mismatch(%x: tensor<?x4x?xf32>, %p: tensor<3xf32>) {
  // expected-error @+1 {{'rlx.batch_norm_inference' op gamma must be [4] (the size of the channel axis 1), got [3]}}
  %0 = rlx.batch_norm_inference %x, %p, %p, %p, %p eps = 1.0e-5 : (tensor<?x4x?xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<?x4x?xf32>
  return
}

// -----

func.func @gather_from_empty_axis(%t: tensor<0x4xf32>, %i: tensor<?xi64>) {
  // expected-error @+2 {{cannot gather [?] indices from axis 0 of size 0}}
  // expected-error @+1 {{'rlx.gather' op failed to infer returned types}}
  %0 = rlx.gather %t, %i axis = 0 : (tensor<0x4xf32>, tensor<?xi64>) -> tensor<?x4xf32>
  return
}

// -----

func.func @kv_append_update_width(%c: tensor<1x?x2x8xf32>, %u: tensor<1x?x3x8xf32>, %p: tensor<i64>) {
  // expected-error @+1 {{'rlx.kv_append' op update shape [1, ?, 3, 8] differs from the cache [1, ?, 2, 8] in dimension 2, which is not the append axis}}
  %0 = rlx.kv_append %c, %u at %p axis = 1 : tensor<1x?x2x8xf32>, tensor<1x?x3x8xf32>, tensor<i64>
  return
}

// -----

func.func @iota_dynamic(%x: tensor<?xf32>) {
  // expected-error @+1 {{'rlx.iota' op does not support dynamic dimensions: result #0 has type 'tensor<?xi64>'}}
  %0 = rlx.iota axis = 0 : tensor<?xi64>
  return
}

// -----

func.func @dot_general_contracting(%a: tensor<?x3xf32>, %b: tensor<4x?xf32>) {
  // expected-error @+2 {{contracting dims differ in size: lhs dim 1 of [?, 3] has size 3, rhs dim 0 of [4, ?] has size 4}}
  // expected-error @+1 {{'rlx.dot_general' op failed to infer returned types}}
  %0 = rlx.dot_general %a, %b batching_dims = [] x [], contracting_dims = [1] x [0] : (tensor<?x3xf32>, tensor<4x?xf32>) -> tensor<?x?xf32>
  return
}

// -----

func.func @conv_backward_dynamic_channels(%g: tensor<?x4x6x6xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error @+1 {{'rlx.conv_backward_input' op needs the forward input (`like %input`) for its `?` size in dimension 1}}
  %0 = rlx.conv_backward_input %g, %w stride = [1, 1] padding = [0, 0, 0, 0] dilation = [1, 1] groups = 1
      : (tensor<?x4x6x6xf32>, tensor<4x3x3x3xf32>) -> tensor<?x?x8x8xf32>
  return
}

// -----

// A strided convolution's output size does not give its input's.
func.func @conv_backward_dynamic_image(%g: tensor<?x4x?x?xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error @+1 {{'rlx.conv_backward_input' op needs the forward input (`like %input`) for its `?` size in dimension 2}}
  %0 = rlx.conv_backward_input %g, %w stride = [2, 2] padding = [0, 0, 0, 0] dilation = [1, 1] groups = 1
      : (tensor<?x4x?x?xf32>, tensor<4x3x3x3xf32>) -> tensor<?x3x?x?xf32>
  return
}

// -----

func.func @conv_backward_like_type(%g: tensor<?x4x?x?xf32>, %w: tensor<4x3x3x3xf32>, %x: tensor<?x3x?x9xf32>) {
  // expected-error @+1 {{'rlx.conv_backward_input' op the forward input must have the result type 'tensor<?x3x?x?xf32>', got 'tensor<?x3x?x9xf32>'}}
  %0 = rlx.conv_backward_input %g, %w like %x stride = [2, 2] padding = [0, 0, 0, 0] dilation = [1, 1] groups = 1
      : (tensor<?x4x?x?xf32>, tensor<4x3x3x3xf32>, tensor<?x3x?x9xf32>) -> tensor<?x3x?x?xf32>
  return
}

// -----

// grad_output's static size is not the one the pool gives the input's.
func.func @pool_backward_mismatch(%g: tensor<?x3x5x?xf32>, %x: tensor<?x3x8x?xf32>) {
  // expected-error @+1 {{'rlx.pool_backward' op grad_output [?, 3, 5, ?] is not the forward result shape [?, 3, 4, ?]}}
  %0 = rlx.pool_backward max %g, %x kernel = [2, 2] stride = [2, 2] padding = [0, 0, 0, 0]
      : tensor<?x3x5x?xf32>, tensor<?x3x8x?xf32> -> tensor<?x3x8x?xf32>
  return
}

// -----

func.func @pad_negative_reflect(%x: tensor<?x4xf32>) {
  // expected-error @+2 {{pads of dimension 0 are [-1, 0]; only constant padding takes negative (cropping) pads}}
  // expected-error @+1 {{'rlx.pad' op failed to infer returned types}}
  %0 = rlx.pad reflect %x pads = [-1, 0, 0, 0] : tensor<?x4xf32> -> tensor<?x4xf32>
  return
}

// -----

func.func @pad_crops_too_much(%x: tensor<?x4xf32>) {
  // expected-error @+2 {{pads of dimension 1 are [-3, -2]: they crop 5 elements of its size 4}}
  // expected-error @+1 {{'rlx.pad' op failed to infer returned types}}
  %0 = rlx.pad constant %x pads = [0, 0, -3, -2] : tensor<?x4xf32> -> tensor<?x0xf32>
  return
}

// -----

func.func @gather_backward_dynamic_axis(%e: tensor<?x6xf32>, %ids: tensor<?xi64>) {
  // expected-error @+1 {{'rlx.gather_backward' op the table's gathered axis 0 must be static: no operand gives its size}}
  %0 = rlx.gather_backward %e, %ids axis = 0 : (tensor<?x6xf32>, tensor<?xi64>) -> tensor<?x6xf32>
  return
}

// -----

// expected-error @+1 {{'rlx.bounds' of argument 0 has 1 entries but the argument has rank 2}}
func.func @bounds_rank(%x: tensor<?x4xf32> {rlx.bounds = array<i64: 8>}) {
  return
}

// -----

// expected-error @+1 {{'rlx.bounds' entries are sizes or -1 (no bound), got -2}}
func.func @bounds_negative(%x: tensor<?x4xf32> {rlx.bounds = array<i64: -2, -1>}) {
  return
}

// -----

// expected-error @+1 {{'rlx.bounds' of argument 0 bounds dimension 1 by 2, below its static size 4}}
func.func @bounds_below_static(%x: tensor<?x4xf32> {rlx.bounds = array<i64: 8, 2>}) {
  return
}

// -----

// expected-error @+1 {{'rlx.bounds' must be an array<i64> on a ranked tensor argument of a function}}
func.func @bounds_scalar(%x: i64 {rlx.bounds = array<i64: 8>}) {
  return
}

// -----

// expected-error @+1 {{unknown rlx argument attribute 'rlx.bound'}}
func.func @bounds_misspelled(%x: tensor<?xf32> {rlx.bound = array<i64: 8>}) {
  return
}
