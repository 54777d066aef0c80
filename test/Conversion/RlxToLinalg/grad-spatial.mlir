// RUN: rlx-opt %s --rlx-to-linalg -split-input-file | FileCheck %s

// The input gradient is the transposed convolution: grad_output spread by the
// stride into zeros, the flipped weight, and a grouped stride-1 contraction
// sized to the declared input (8, not the 9 of the plain transposed conv).
// CHECK-LABEL: func.func @conv_backward_input(
// CHECK:         %[[SPREAD:.*]] = tensor.insert_slice %{{.*}} into %{{.*}}[0, 0, 1] [1, 4, 4] [1, 1, 2] : tensor<1x4x4xf32> into tensor<1x4x10xf32>
// CHECK:         linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "parallel", "parallel"]
// CHECK:         linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]{{.*}} outs(%{{.*}} : tensor<1x2x2x8xf32>)
// CHECK:         tensor.collapse_shape %{{.*}} : tensor<1x2x2x8xf32> into tensor<1x4x8xf32>
func.func @conv_backward_input(%dy: tensor<1x4x4xf32>, %w: tensor<4x2x3xf32>) -> tensor<1x4x8xf32> {
  %0 = rlx.conv_backward_input %dy, %w stride = [2] padding = [1, 0] dilation = [1] groups = 2 : (tensor<1x4x4xf32>, tensor<4x2x3xf32>) -> tensor<1x4x8xf32>
  return %0 : tensor<1x4x8xf32>
}

// -----

// The weight gradient contracts over the batch and output positions, per
// group: loops (g, f, c, k, n, o), the input read at o * stride + k.
// CHECK-DAG:   #[[GRAD:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d4, d0, d1, d5)>
// CHECK-DAG:   #[[INPUT:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d4, d0, d2, d5 * 2 + d3)>
// CHECK-LABEL: func.func @conv_backward_weight(
// CHECK:         %[[PADDED:.*]] = tensor.pad %{{.*}} low[0, 0, 1] high[0, 0, 0]
// CHECK:         linalg.generic {indexing_maps = [#[[GRAD]], #[[INPUT]], #{{.*}}], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]}{{.*}} outs(%{{.*}} : tensor<2x2x2x3xf32>)
// CHECK:         tensor.collapse_shape %{{.*}} : tensor<2x2x2x3xf32> into tensor<4x2x3xf32>
func.func @conv_backward_weight(%dy: tensor<1x4x4xf32>, %x: tensor<1x4x8xf32>) -> tensor<4x2x3xf32> {
  %0 = rlx.conv_backward_weight %dy, %x stride = [2] padding = [1, 0] dilation = [1] groups = 2 : (tensor<1x4x4xf32>, tensor<1x4x8xf32>) -> tensor<4x2x3xf32>
  return %0 : tensor<4x2x3xf32>
}

// -----

// Max pooling: the winners (value, i64 offset) of each window, then one
// generic over input positions and window offsets reading them.
// CHECK-LABEL: func.func @pool_backward_max(
// CHECK:         %[[WINNERS:.*]]:2 = linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "parallel", "reduction"]{{.*}} outs(%{{.*}}, %{{.*}} : tensor<1x2x4xf32>, tensor<1x2x4xi64>)
// CHECK:         linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "parallel", "reduction"]{{.*}} outs(%{{.*}} : tensor<1x2x9xf32>)
// CHECK:           tensor.extract %[[WINNERS]]#1
// CHECK:           tensor.extract %{{.*}} : tensor<1x2x4xf32>
func.func @pool_backward_max(%dy: tensor<1x2x4xf32>, %x: tensor<1x2x9xf32>) -> tensor<1x2x9xf32> {
  %0 = rlx.pool_backward max %dy, %x kernel = [3] stride = [2] padding = [0, 0] : tensor<1x2x4xf32>, tensor<1x2x9xf32> -> tensor<1x2x9xf32>
  return %0 : tensor<1x2x9xf32>
}

// -----

// Scatter-add: an rlx.scatter of grad_output into a zero table in the
// computation type (f32 for bf16) at the clamped rows (the indices with a
// coordinate dimension appended), rounded once; with no indices, only the
// zeros.
// CHECK-LABEL: func.func @gather_backward(
// CHECK-SAME:      %[[DY:.*]]: tensor<2x3x4xbf16>, %[[I:.*]]: tensor<2x3xi64>)
// CHECK:         %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK:         %[[ZEROS:.*]] = linalg.fill ins(%[[ZERO]] : f32) outs(%{{.*}} : tensor<10x4xf32>)
// CHECK:         %[[I1:.*]] = tensor.expand_shape %[[I]] {{\[}}[0], [1, 2]] output_shape [2, 3, 1] : tensor<2x3xi64> into tensor<2x3x1xi64>
// CHECK:         %[[SUMS:.*]] = rlx.scatter loop_dims = [-1, -1, 1] index_loops = [0, 1] index_dims = [0] clamp_indices ins(%[[DY]], %[[I1]] : tensor<2x3x4xbf16>, tensor<2x3x1xi64>) outs(%[[ZEROS]] : tensor<10x4xf32>) {
// CHECK:           arith.extf %{{.*}} : bf16 to f32
// CHECK:           arith.addf
// CHECK:         } -> tensor<10x4xf32>
// CHECK:         linalg.generic {{.*}} ins(%[[SUMS]] : tensor<10x4xf32>)
// CHECK:           arith.truncf %{{.*}} : f32 to bf16
func.func @gather_backward(%dy: tensor<2x3x4xbf16>, %i: tensor<2x3xi64>) -> tensor<10x4xbf16> {
  %0 = rlx.gather_backward %dy, %i axis = 0 : (tensor<2x3x4xbf16>, tensor<2x3xi64>) -> tensor<10x4xbf16>
  return %0 : tensor<10x4xbf16>
}

// CHECK-LABEL: func.func @gather_backward_no_indices(
// CHECK-NOT:     rlx.scatter
// CHECK:         linalg.fill
func.func @gather_backward_no_indices(%dy: tensor<3x0xf32>, %i: tensor<0xi32>) -> tensor<3x5xf32> {
  %0 = rlx.gather_backward %dy, %i axis = -1 : (tensor<3x0xf32>, tensor<0xi32>) -> tensor<3x5xf32>
  return %0 : tensor<3x5xf32>
}

// -----

// Reverse, the cumsum's scan, reverse.
// CHECK-DAG:   #[[REVERSE:.*]] = affine_map<(d0, d1) -> (d0, -d1 + 4)>
// CHECK-LABEL: func.func @cumsum_backward(
// CHECK:         linalg.generic {indexing_maps = [#[[REVERSE]], #{{.*}}]
// CHECK:         rlx.associative_scan axis = 1 exclusive
// CHECK:         linalg.generic {indexing_maps = [#[[REVERSE]], #{{.*}}]
func.func @cumsum_backward(%dy: tensor<3x5xf32>) -> tensor<3x5xf32> {
  %0 = rlx.cumsum_backward %dy axis = 1 exclusive : tensor<3x5xf32>
  return %0 : tensor<3x5xf32>
}

// -----

// Rope by the opposite angle: sin negated, then gptj's even/odd pairs.
// CHECK-LABEL: func.func @rope_backward(
// CHECK:         %[[NEG:.*]] = linalg.generic {{.*}} ins(%{{.*}} : tensor<6x2xf32>)
// CHECK:           arith.negf
// CHECK:         tensor.extract_slice %{{.*}}[0, 0, 0] [6, 1, 2] [1, 1, 2]
// CHECK:         tensor.extract_slice %{{.*}}[0, 0, 1] [6, 1, 2] [1, 1, 2]
// CHECK:         linalg.generic {{.*}} ins(%{{.*}}, %{{.*}}, %{{.*}}, %[[NEG]] :
func.func @rope_backward(%dy: tensor<6x8xf32>, %cos: tensor<6x2xf32>, %sin: tensor<6x2xf32>) -> tensor<6x8xf32> {
  %0 = rlx.rope_backward gptj bsd %dy, %cos, %sin head_dim = 8, n_rot = 4 : (tensor<6x8xf32>, tensor<6x2xf32>, tensor<6x2xf32>) -> tensor<6x8xf32>
  return %0 : tensor<6x8xf32>
}

// -----

// The transposed convolution's input gradient is a convolution of
// grad_output (padded by lo; output_padding 1 covers hi = 0) with the
// weight, in the forward's groups and stride.
// CHECK-DAG:   #[[READ:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d4, d3 * 2 + d5)>
// CHECK-LABEL: func.func @conv_transpose_backward_input(
// CHECK:         tensor.pad %{{.*}} low[0, 0, 1] high[0, 0, 0]
// CHECK:         linalg.generic {indexing_maps = [#[[READ]], #{{.*}}, #{{.*}}], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]}{{.*}} outs(%{{.*}} : tensor<1x2x2x7xf32>)
// CHECK:         tensor.collapse_shape %{{.*}} : tensor<1x2x2x7xf32> into tensor<1x4x7xf32>
func.func @conv_transpose_backward_input(%dy: tensor<1x4x15xf32>, %w: tensor<4x2x3xf32>) -> tensor<1x4x7xf32> {
  %0 = rlx.conv_transpose_backward_input %dy, %w stride = [2] padding = [1, 0] output_padding = [1] dilation = [1] groups = 2 : (tensor<1x4x15xf32>, tensor<4x2x3xf32>) -> tensor<1x4x7xf32>
  return %0 : tensor<1x4x7xf32>
}

// -----

// Its weight gradient is conv_backward_weight's contraction with the roles
// exchanged: the input indexed by o, the padded grad_output by o * 2 + k.
// CHECK-DAG:   #[[INPUT:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d4, d0, d1, d5)>
// CHECK-DAG:   #[[GRAD:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d4, d0, d2, d5 * 2 + d3)>
// CHECK-LABEL: func.func @conv_transpose_backward_weight(
// CHECK-SAME:      %[[DY:.*]]: tensor<1x4x15xf32>, %[[X:.*]]: tensor<1x4x7xf32>)
// CHECK:         %[[PADDED:.*]] = tensor.pad %[[DY]] low[0, 0, 1] high[0, 0, 0]
// CHECK:         %[[GROUPED:.*]] = tensor.expand_shape %[[PADDED]]
// CHECK:         %[[GROUPED_X:.*]] = tensor.expand_shape %[[X]]
// CHECK:         linalg.generic {indexing_maps = [#[[INPUT]], #[[GRAD]], #{{.*}}], {{.*}} ins(%[[GROUPED_X]], %[[GROUPED]] :
func.func @conv_transpose_backward_weight(%dy: tensor<1x4x15xf32>, %x: tensor<1x4x7xf32>) -> tensor<4x2x3xf32> {
  %0 = rlx.conv_transpose_backward_weight %dy, %x stride = [2] padding = [1, 0] output_padding = [1] dilation = [1] groups = 2 : (tensor<1x4x15xf32>, tensor<1x4x7xf32>) -> tensor<4x2x3xf32>
  return %0 : tensor<4x2x3xf32>
}

// -----

// With `?` image sizes the transposed convolution's output padding is the
// run-time remainder X - ((O - 1) * 2 - 2 + 2 + 1) of the input sizes
// (`like %x`), which sizes the spread grad_output: (O - 1) * 2 + 1, 1 zero
// before and 1 + the remainder after.
// CHECK-DAG: #[[REMAINDER:.*]] = affine_map<()[s0, s1] -> (s0 - s1 * 2 + 1)>
// CHECK-DAG: #[[SPREAD:.*]] = affine_map<()[s0, s1, s2] -> (s0 * 2 + s1 - s2 * 2 + 2)>
// CHECK-LABEL: func.func @conv_backward_input_dynamic(
// CHECK-SAME:      %[[G:[^:]*]]: tensor<?x4x?x?xf32>, %{{[^:]*}}: tensor<4x3x3x3xf32>, %[[X:[^:]*]]: tensor<?x3x?x?xf32>)
// CHECK:         %[[XH:.*]] = tensor.dim %[[X]], %c2
// CHECK:         %[[OH:.*]] = tensor.dim %[[G]], %c2
// CHECK:         affine.apply #[[REMAINDER]]()[%[[XH]], %[[OH]]]
// CHECK:         %[[H:.*]] = affine.apply #[[SPREAD]]()[%{{.*}}, %[[XH]], %[[OH]]]
// CHECK:         tensor.empty(%{{.*}}, %[[H]], %{{.*}}) : tensor<?x4x?x?xf32>
// CHECK:         tensor.insert_slice %[[G]] into %{{.*}}[0, 0, 1, 1] {{.*}} [1, 1, 2, 2]
// CHECK:         linalg.conv_2d_nchw_fchw {{.*}} -> tensor<?x3x?x?xf32>
func.func @conv_backward_input_dynamic(%g: tensor<?x4x?x?xf32>, %w: tensor<4x3x3x3xf32>, %x: tensor<?x3x?x?xf32>) -> tensor<?x3x?x?xf32> {
  %0 = rlx.conv_backward_input %g, %w like %x stride = [2, 2] padding = [1, 1, 1, 1] dilation = [1, 1] groups = 1
      : (tensor<?x4x?x?xf32>, tensor<4x3x3x3xf32>, tensor<?x3x?x?xf32>) -> tensor<?x3x?x?xf32>
  return %0 : tensor<?x3x?x?xf32>
}

// -----

// A global pool's window is the input's run-time spatial extent.
// CHECK-LABEL: func.func @global_pool_backward_dynamic(
// CHECK-SAME:      %{{[^:]*}}: tensor<?x3x1x1xf32>, %[[X:[^:]*]]: tensor<?x3x?x?xf32>)
// CHECK-DAG:     %[[H:.*]] = tensor.dim %[[X]], %c2
// CHECK-DAG:     %[[W:.*]] = tensor.dim %[[X]], %c3
// CHECK:         %[[WINDOW:.*]] = tensor.empty(%[[H]], %[[W]]) : tensor<?x?xf32>
// CHECK:         linalg.generic {{.*}} ins(%[[WINDOW]] : tensor<?x?xf32>) outs(%{{.*}} : tensor<?x3x?x?xf32>)
func.func @global_pool_backward_dynamic(%g: tensor<?x3x1x1xf32>, %x: tensor<?x3x?x?xf32>) -> tensor<?x3x?x?xf32> {
  %0 = rlx.global_pool_backward avg %g, %x : tensor<?x3x1x1xf32>, tensor<?x3x?x?xf32> -> tensor<?x3x?x?xf32>
  return %0 : tensor<?x3x?x?xf32>
}
