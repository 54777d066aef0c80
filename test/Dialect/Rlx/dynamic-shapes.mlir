// RUN: rlx-opt %s | rlx-opt | FileCheck %s
// RUN: rlx-opt %s --resolve-ranked-shaped-type-result-dims --canonicalize --cse | FileCheck %s --check-prefix=REIFY

// `?` sizes: each op's shape rule infers what it can (a `?` that meets a
// static size takes it) and reifyResultShapes computes the rest from the
// operands' sizes.

// The maps of @conv_spatial's sizes (printed at the top of the module).
// REIFY-DAG: #[[CONV:.*]] = affine_map<()[s0] -> ((s0 - 1) floordiv 2 + 1)>
// REIFY-DAG: #[[POOL:.*]] = affine_map<()[s0] -> ((s0 floordiv 2 - 1) ceildiv 2 + 1)>
// REIFY-DAG: #[[TRANSPOSED:.*]] = affine_map<()[s0] -> ((((s0 - 1) floordiv 2) ceildiv 2) * 2 + 2)>
// REIFY-DAG: #[[RESIZED:.*]] = affine_map<()[s0] -> (((s0 floordiv 2 - 1) ceildiv 2) * 4 + 4)>
// The map of @crop's size.
// REIFY-DAG: #[[CROPPED:.*]] = affine_map<()[s0] -> (s0 - 3)>

// CHECK-LABEL: func.func @broadcast
// CHECK: rlx.add %{{.*}}, %{{.*}} : (tensor<?x4xf32>, tensor<4xf32>) -> tensor<?x4xf32>
// CHECK: rlx.mul %{{.*}}, %{{.*}} : (tensor<?x4xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
// CHECK: rlx.sub %{{.*}}, %{{.*}} : (tensor<?x1xf32>, tensor<1x?xf32>) -> tensor<?x?xf32>
// REIFY-LABEL: func.func @broadcast
// REIFY-SAME: (%[[A:.*]]: tensor<?x4xf32>, %{{.*}}: tensor<4xf32>, %{{.*}}: tensor<3x4xf32>, %[[C:.*]]: tensor<?x1xf32>, %[[D:.*]]: tensor<1x?xf32>)
// REIFY-DAG: %[[A0:.*]] = tensor.dim %[[A]], %c0
// REIFY-DAG: %[[C0:.*]] = tensor.dim %[[C]], %c0
// REIFY-DAG: %[[D1:.*]] = tensor.dim %[[D]], %c1
// REIFY: return %[[A0]], %[[C0]], %[[D1]]
func.func @broadcast(%a: tensor<?x4xf32>, %b: tensor<4xf32>, %s: tensor<3x4xf32>,
                     %c: tensor<?x1xf32>, %d: tensor<1x?xf32>)
    -> (index, index, index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %0 = rlx.add %a, %b : (tensor<?x4xf32>, tensor<4xf32>) -> tensor<?x4xf32>
  %1 = rlx.mul %a, %s : (tensor<?x4xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
  %2 = rlx.sub %c, %d : (tensor<?x1xf32>, tensor<1x?xf32>) -> tensor<?x?xf32>
  %3 = tensor.dim %0, %c0 : tensor<?x4xf32>
  %4 = tensor.dim %2, %c0 : tensor<?x?xf32>
  %5 = tensor.dim %2, %c1 : tensor<?x?xf32>
  return %3, %4, %5 : index, index, index
}

// CHECK-LABEL: func.func @contractions_and_rows
// CHECK: rlx.matmul %{{.*}}, %{{.*}} : (tensor<?x?x64xf32>, tensor<64x32xf32>) -> tensor<?x?x32xf32>
// CHECK: rlx.softmax %{{.*}} axis = -1 : tensor<?x?x32xf32>
// CHECK: rlx.reduce sum %{{.*}} axes = [1] : tensor<?x?x32xf32> -> tensor<?x32xf32>
// CHECK: rlx.layer_norm
// REIFY-LABEL: func.func @contractions_and_rows
// REIFY: %[[D:.*]] = tensor.dim %arg0, %c1
// REIFY: return %[[D]]
func.func @contractions_and_rows(%x: tensor<?x?x64xf32>, %w: tensor<64x32xf32>,
                                 %g: tensor<32xf32>) -> index {
  %c1 = arith.constant 1 : index
  %0 = rlx.matmul %x, %w : (tensor<?x?x64xf32>, tensor<64x32xf32>) -> tensor<?x?x32xf32>
  %1 = rlx.softmax %0 axis = -1 : tensor<?x?x32xf32>
  %2 = rlx.reduce sum %1 axes = [1] : tensor<?x?x32xf32> -> tensor<?x32xf32>
  %3 = rlx.layer_norm %1, %g, %g axis = -1 eps = 1.0e-5 : (tensor<?x?x32xf32>, tensor<32xf32>, tensor<32xf32>) -> tensor<?x?x32xf32>
  %4 = tensor.dim %3, %c1 : tensor<?x?x32xf32>
  return %4 : index
}

// CHECK-LABEL: func.func @data_movement
// CHECK: rlx.reshape %{{.*}} : tensor<?x?x512xf32> -> tensor<?x?x8x64xf32>
// CHECK: rlx.reshape %{{.*}} : tensor<?x?x512xf32> -> tensor<?x512xf32>
// CHECK: rlx.transpose %{{.*}} [0, 2, 1, 3] : tensor<?x?x8x64xf32> -> tensor<?x8x?x64xf32>
// CHECK: rlx.concat %{{.*}}, %{{.*}} axis = 1 : (tensor<?x?x512xf32>, tensor<?x4x512xf32>) -> tensor<?x?x512xf32>
// CHECK: rlx.narrow %{{.*}} axis = 1, start = 1, length = 2 : tensor<?x?x512xf32> -> tensor<?x2x512xf32>
// CHECK: rlx.expand %{{.*}} : tensor<?x1xf32> -> tensor<?x8xf32>
// REIFY-LABEL: func.func @data_movement
// REIFY-DAG: %[[B:.*]] = tensor.dim %arg0, %c0
// REIFY-DAG: %[[S:.*]] = tensor.dim %arg0, %c1
// REIFY-DAG: %[[T:.*]] = tensor.dim %arg1, %c1
// REIFY-DAG: %[[BS:.*]] = arith.muli %[[B]], %[[S]]
// REIFY-DAG: %[[ST:.*]] = affine.apply #{{.*}}()[%[[S]], %[[T]]]
// REIFY: return %[[BS]], %[[ST]]
func.func @data_movement(%x: tensor<?x?x512xf32>, %y: tensor<?x?x512xf32>,
                         %z: tensor<?x4x512xf32>, %c: tensor<?x1xf32>)
    -> (index, index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %0 = rlx.reshape %x : tensor<?x?x512xf32> -> tensor<?x?x8x64xf32>
  %1 = rlx.reshape %x : tensor<?x?x512xf32> -> tensor<?x512xf32>
  %2 = rlx.transpose %0 [0, 2, 1, 3] : tensor<?x?x8x64xf32> -> tensor<?x8x?x64xf32>
  %3 = rlx.concat %x, %z axis = 1 : (tensor<?x?x512xf32>, tensor<?x4x512xf32>) -> tensor<?x?x512xf32>
  %4 = rlx.narrow %x axis = 1, start = 1, length = 2 : tensor<?x?x512xf32> -> tensor<?x2x512xf32>
  %5 = rlx.expand %c : tensor<?x1xf32> -> tensor<?x8xf32>
  %6 = rlx.concat %x, %y axis = 1 : (tensor<?x?x512xf32>, tensor<?x?x512xf32>) -> tensor<?x?x512xf32>
  %7 = tensor.dim %1, %c0 : tensor<?x512xf32>
  %8 = tensor.dim %6, %c1 : tensor<?x?x512xf32>
  return %7, %8 : index, index
}

// CHECK-LABEL: func.func @attention
// CHECK: rlx.attention bshd {{.*}} : (tensor<1x?x8x64xf32>, tensor<1x?x2x64xf32>, tensor<1x?x2x64xf32>) -> (tensor<1x?x8x64xf32>, tensor<1x8x?xf32>)
// REIFY-LABEL: func.func @attention
// REIFY: %[[S:.*]] = tensor.dim %arg0, %c1
// REIFY: return %[[S]]
func.func @attention(%q: tensor<1x?x8x64xf32>, %k: tensor<1x?x2x64xf32>,
                     %v: tensor<1x?x2x64xf32>) -> index {
  %c2 = arith.constant 2 : index
  %0:2 = rlx.attention bshd %q, %k, %v heads = 8 kv_heads = 2 mask = causal with_logsumexp : (tensor<1x?x8x64xf32>, tensor<1x?x2x64xf32>, tensor<1x?x2x64xf32>) -> (tensor<1x?x8x64xf32>, tensor<1x8x?xf32>)
  %1 = tensor.dim %0#1, %c2 : tensor<1x8x?xf32>
  return %1 : index
}

// CHECK-LABEL: func.func @region
// CHECK: rlx.region elementwise ins(%{{.*}}, %{{.*}} : tensor<?x8xf32>, tensor<8xf32>) -> tensor<?x8xf32>
// REIFY-LABEL: func.func @region
// REIFY: %[[N:.*]] = tensor.dim %arg0, %c0
// REIFY: return %[[N]]
func.func @region(%x: tensor<?x8xf32>, %b: tensor<8xf32>) -> index {
  %c0 = arith.constant 0 : index
  %0 = rlx.region elementwise ins(%x, %b : tensor<?x8xf32>, tensor<8xf32>) -> tensor<?x8xf32> {
  ^bb0(%a: tensor<?x8xf32>, %c: tensor<8xf32>):
    %1 = rlx.add %a, %c : (tensor<?x8xf32>, tensor<8xf32>) -> tensor<?x8xf32>
    %2 = rlx.gelu %1 : tensor<?x8xf32>
    rlx.yield %2 : tensor<?x8xf32>
  }
  %3 = tensor.dim %0, %c0 : tensor<?x8xf32>
  return %3 : index
}

// CHECK-LABEL: func.func @norms_rope_losses
// CHECK: rlx.group_norm {{.*}} -> tensor<?x6x?xf32>
// CHECK: rlx.rope neox bsd {{.*}} -> tensor<?x?x16xf32>
// CHECK: rlx.softmax_cross_entropy_with_labels {{.*}} -> tensor<?xf32>
// CHECK: rlx.group_norm_backward {{.*}} -> (tensor<?x6x?xf32>, tensor<6xf32>, tensor<6xf32>)
// REIFY-LABEL: func.func @norms_rope_losses
// REIFY-DAG: %[[H:.*]] = tensor.dim %arg0, %c2
// REIFY-DAG: %[[S:.*]] = tensor.dim %arg2, %c1
// REIFY-DAG: %[[N:.*]] = tensor.dim %arg4, %c0
// REIFY-DAG: %[[B:.*]] = tensor.dim %arg0, %c0
// REIFY: return %[[H]], %[[S]], %[[N]], %[[B]]
func.func @norms_rope_losses(%x: tensor<?x6x?xf32>, %g: tensor<6xf32>,
                             %h: tensor<?x?x16xf32>, %cos: tensor<?x4xf32>,
                             %logits: tensor<?x10xf32>, %labels: tensor<?xi64>)
    -> (index, index, index, index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %0 = rlx.group_norm %x, %g, %g groups = 3 eps = 1.0e-5 : (tensor<?x6x?xf32>, tensor<6xf32>, tensor<6xf32>) -> tensor<?x6x?xf32>
  %1 = rlx.rope neox bsd %h, %cos, %cos head_dim = 8, n_rot = 8 : (tensor<?x?x16xf32>, tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<?x?x16xf32>
  %2 = rlx.softmax_cross_entropy_with_labels %logits, %labels : (tensor<?x10xf32>, tensor<?xi64>) -> tensor<?xf32>
  %3:3 = rlx.group_norm_backward %0, %x, %g groups = 3 eps = 1.0e-5 : (tensor<?x6x?xf32>, tensor<?x6x?xf32>, tensor<6xf32>) -> (tensor<?x6x?xf32>, tensor<6xf32>, tensor<6xf32>)
  %4 = tensor.dim %0, %c2 : tensor<?x6x?xf32>
  %5 = tensor.dim %1, %c1 : tensor<?x?x16xf32>
  %6 = tensor.dim %2, %c0 : tensor<?xf32>
  %7 = tensor.dim %3#0, %c0 : tensor<?x6x?xf32>
  return %4, %5, %6, %7 : index, index, index, index
}

// CHECK-LABEL: func.func @conv_batch
// CHECK: rlx.conv {{.*}} -> tensor<?x4x8x8xf32>
// CHECK: rlx.pool max {{.*}} -> tensor<?x4x4x4xf32>
// CHECK: rlx.global_pool avg {{.*}} -> tensor<?x4x1x1xf32>
// REIFY-LABEL: func.func @conv_batch
// REIFY: %[[N:.*]] = tensor.dim %arg0, %c0
// REIFY: return %[[N]]
func.func @conv_batch(%x: tensor<?x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) -> index {
  %c0 = arith.constant 0 : index
  %0 = rlx.conv %x, %w stride = [1, 1] padding = [1, 1, 1, 1] dilation = [1, 1] groups = 1 : (tensor<?x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<?x4x8x8xf32>
  %1 = rlx.pool max %0 kernel = [2, 2] stride = [2, 2] padding = [0, 0, 0, 0] : tensor<?x4x8x8xf32> -> tensor<?x4x4x4xf32>
  %2 = rlx.global_pool avg %1 : tensor<?x4x4x4xf32> -> tensor<?x4x1x1xf32>
  %3 = tensor.dim %2, %c0 : tensor<?x4x1x1xf32>
  return %3 : index
}

// `?` image sizes: each window op's output size is affine in its input's
// (floordiv by the stride, ceildiv in ceil_mode), and a chain of them
// composes.
// CHECK-LABEL: func.func @conv_spatial
// CHECK: rlx.conv {{.*}} -> tensor<?x4x?x?xf32>
// CHECK: rlx.pool avg {{.*}} ceil_mode : tensor<?x4x?x?xf32> -> tensor<?x4x?x?xf32>
// CHECK: rlx.conv_transpose {{.*}} -> tensor<?x3x?x?xf32>
// CHECK: rlx.resize_nearest2x {{.*}} : tensor<?x3x?x?xf32> -> tensor<?x3x?x?xf32>
// CHECK: rlx.global_pool max {{.*}} : tensor<?x3x?x?xf32> -> tensor<?x3x1x1xf32>
// REIFY-LABEL: func.func @conv_spatial
// REIFY: %[[H:.*]] = tensor.dim %arg0, %c2
// REIFY: %[[D0:.*]] = affine.apply #[[CONV]]()[%[[H]]]
// REIFY: %[[W:.*]] = tensor.dim %arg0, %c3
// REIFY: %[[D1:.*]] = affine.apply #[[POOL]]()[%[[W]]]
// REIFY: %[[D2:.*]] = affine.apply #[[TRANSPOSED]]()[%[[H]]]
// REIFY: %[[D3:.*]] = affine.apply #[[RESIZED]]()[%[[W]]]
// REIFY: return %[[D0]], %[[D1]], %[[D2]], %[[D3]]
func.func @conv_spatial(%x: tensor<?x3x?x?xf32>, %w: tensor<4x3x3x3xf32>) -> (index, index, index, index, tensor<?x3x1x1xf32>) {
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %0 = rlx.conv %x, %w stride = [2, 2] padding = [1, 1, 1, 0] dilation = [1, 1] groups = 1 : (tensor<?x3x?x?xf32>, tensor<4x3x3x3xf32>) -> tensor<?x4x?x?xf32>
  %1 = rlx.pool avg %0 kernel = [3, 3] stride = [2, 2] padding = [1, 1, 1, 1] ceil_mode : tensor<?x4x?x?xf32> -> tensor<?x4x?x?xf32>
  %2 = rlx.conv_transpose %1, %w stride = [2, 2] padding = [1, 1, 1, 1] output_padding = [1, 1] dilation = [1, 1] groups = 1 : (tensor<?x4x?x?xf32>, tensor<4x3x3x3xf32>) -> tensor<?x3x?x?xf32>
  %3 = rlx.resize_nearest2x %2 : tensor<?x3x?x?xf32> -> tensor<?x3x?x?xf32>
  %4 = rlx.global_pool max %3 : tensor<?x3x?x?xf32> -> tensor<?x3x1x1xf32>
  %d0 = tensor.dim %0, %c2 : tensor<?x4x?x?xf32>
  %d1 = tensor.dim %1, %c3 : tensor<?x4x?x?xf32>
  %d2 = tensor.dim %2, %c2 : tensor<?x3x?x?xf32>
  %d3 = tensor.dim %3, %c3 : tensor<?x3x?x?xf32>
  return %d0, %d1, %d2, %d3, %4 : index, index, index, index, tensor<?x3x1x1xf32>
}

// expand with `like` repeats a size-1 dimension to `like`'s run-time size;
// numel counts run-time sizes (and folds static ones).
// CHECK-LABEL: func.func @expand_like_numel
// CHECK: rlx.expand %{{.*}} like %{{.*}} : tensor<1x4xf32>, tensor<?x4xf32> -> tensor<?x4xf32>
// CHECK: rlx.expand %{{.*}} like %{{.*}} : tensor<f32>, tensor<?x?xi1> -> tensor<?x?xf32>
// CHECK: rlx.numel %{{.*}} axes = [0, 1] : tensor<?x4xf32> -> tensor<f32>
// CHECK: rlx.numel %{{.*}} axes = [1] : tensor<?x4xf32> -> tensor<i64>
// REIFY-LABEL: func.func @expand_like_numel
// REIFY-SAME: (%[[G:.*]]: tensor<1x4xf32>, %[[X:.*]]: tensor<?x4xf32>, %{{.*}}: tensor<f32>, %[[M:.*]]: tensor<?x?xi1>)
// REIFY-DAG: %[[X0:.*]] = tensor.dim %[[X]], %c0
// REIFY-DAG: %[[M0:.*]] = tensor.dim %[[M]], %c0
// REIFY-DAG: %[[M1:.*]] = tensor.dim %[[M]], %c1
// REIFY-DAG: %[[FOUR:.*]] = rlx.constant dense<4> : tensor<i64>
// REIFY: return %[[X0]], %[[M0]], %[[M1]], %{{.*}}, %[[FOUR]]
func.func @expand_like_numel(%g: tensor<1x4xf32>, %x: tensor<?x4xf32>, %s: tensor<f32>, %m: tensor<?x?xi1>)
    -> (index, index, index, tensor<f32>, tensor<i64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %0 = rlx.expand %g like %x : tensor<1x4xf32>, tensor<?x4xf32> -> tensor<?x4xf32>
  %1 = rlx.expand %s like %m : tensor<f32>, tensor<?x?xi1> -> tensor<?x?xf32>
  %2 = rlx.numel %x axes = [0, 1] : tensor<?x4xf32> -> tensor<f32>
  %3 = rlx.numel %x axes = [1] : tensor<?x4xf32> -> tensor<i64>
  %d0 = tensor.dim %0, %c0 : tensor<?x4xf32>
  %d1 = tensor.dim %1, %c0 : tensor<?x?xf32>
  %d2 = tensor.dim %1, %c1 : tensor<?x?xf32>
  return %d0, %d1, %d2, %2, %3 : index, index, index, tensor<f32>, tensor<i64>
}

// attention_backward with `?` batch and sequence: the gradients have the
// sizes of q, k and v.
// CHECK-LABEL: func.func @attention_backward
// CHECK: rlx.attention_backward bshd {{.*}} -> (tensor<?x?x4x8xf32>, tensor<?x?x2x8xf32>, tensor<?x?x2x8xf32>)
// REIFY-LABEL: func.func @attention_backward
// REIFY-SAME: (%[[Q:[^:]*]]: tensor<?x?x4x8xf32>, %[[K:[^:]*]]: tensor<?x?x2x8xf32>
// REIFY-DAG: %[[Q0:.*]] = tensor.dim %[[Q]], %c0
// REIFY-DAG: %[[K1:.*]] = tensor.dim %[[K]], %c1
// REIFY: return %[[Q0]], %[[K1]]
func.func @attention_backward(%q: tensor<?x?x4x8xf32>, %k: tensor<?x?x2x8xf32>, %o: tensor<?x?x4x8xf32>, %l: tensor<?x4x?xf32>) -> (index, index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %0:3 = rlx.attention_backward bshd %q, %k, %k, %o, %o, %l heads = 4 kv_heads = 2 mask = causal
      : (tensor<?x?x4x8xf32>, tensor<?x?x2x8xf32>, tensor<?x?x2x8xf32>, tensor<?x?x4x8xf32>, tensor<?x?x4x8xf32>, tensor<?x4x?xf32>)
        -> (tensor<?x?x4x8xf32>, tensor<?x?x2x8xf32>, tensor<?x?x2x8xf32>)
  %d0 = tensor.dim %0#0, %c0 : tensor<?x?x4x8xf32>
  %d1 = tensor.dim %0#2, %c1 : tensor<?x?x2x8xf32>
  return %d0, %d1 : index, index
}

// The spatial adjoints take the `?` batch of their forward ops; the gather
// adjoint's table takes grad_output's sizes outside the gathered axis.
// CHECK-LABEL: func.func @spatial_adjoints
// CHECK: rlx.conv_backward_input {{.*}} -> tensor<?x3x8x8xf32>
// CHECK: rlx.conv_backward_weight {{.*}} -> tensor<4x3x3x3xf32>
// CHECK: rlx.pool_backward max {{.*}} -> tensor<?x3x8x8xf32>
// CHECK: rlx.gather_backward {{.*}} -> tensor<?x10x6xf32>
// REIFY-LABEL: func.func @spatial_adjoints
// REIFY-SAME: (%[[X:[^:]*]]: tensor<?x3x8x8xf32>, %{{[^:]*}}: tensor<4x3x3x3xf32>, %[[G:[^:]*]]: tensor<?x4x6x6xf32>, %{{[^:]*}}: tensor<?x3x4x4xf32>, %[[E:[^:]*]]: tensor<?x?x6xf32>
// REIFY-DAG: %[[G0:.*]] = tensor.dim %[[G]], %c0
// REIFY-DAG: %[[X0:.*]] = tensor.dim %[[X]], %c0
// REIFY-DAG: %[[E0:.*]] = tensor.dim %[[E]], %c0
// REIFY: return %[[G0]], %[[X0]], %[[E0]]
func.func @spatial_adjoints(%x: tensor<?x3x8x8xf32>, %w: tensor<4x3x3x3xf32>, %g: tensor<?x4x6x6xf32>,
                            %pg: tensor<?x3x4x4xf32>, %e: tensor<?x?x6xf32>, %ids: tensor<?xi64>)
    -> (index, index, index) {
  %c0 = arith.constant 0 : index
  %dx = rlx.conv_backward_input %g, %w stride = [1, 1] padding = [0, 0, 0, 0] dilation = [1, 1] groups = 1
      : (tensor<?x4x6x6xf32>, tensor<4x3x3x3xf32>) -> tensor<?x3x8x8xf32>
  %dw = rlx.conv_backward_weight %g, %x stride = [1, 1] padding = [0, 0, 0, 0] dilation = [1, 1] groups = 1
      : (tensor<?x4x6x6xf32>, tensor<?x3x8x8xf32>) -> tensor<4x3x3x3xf32>
  %dp = rlx.pool_backward max %pg, %x kernel = [2, 2] stride = [2, 2] padding = [0, 0, 0, 0]
      : tensor<?x3x4x4xf32>, tensor<?x3x8x8xf32> -> tensor<?x3x8x8xf32>
  %dt = rlx.gather_backward %e, %ids axis = 1 : (tensor<?x?x6xf32>, tensor<?xi64>) -> tensor<?x10x6xf32>
  %d0 = tensor.dim %dx, %c0 : tensor<?x3x8x8xf32>
  %d1 = tensor.dim %dp, %c0 : tensor<?x3x8x8xf32>
  %d2 = tensor.dim %dt, %c0 : tensor<?x10x6xf32>
  return %d0, %d1, %d2 : index, index, index
}

// With `?` image sizes: the convolution's input gradient takes them from
// the forward input (`like`), the transposed convolution's from
// grad_output ((O - 1) floordiv 2 + 1 for stride 2, kernel 2, padding 1 at
// each end and output padding 1: the map of @conv_spatial), the pools'
// from their input.
// CHECK-LABEL: func.func @image_adjoints
// CHECK: rlx.conv_backward_input %{{.*}}, %{{.*}} like %{{.*}} stride = [2, 2] {{.*}} -> tensor<?x3x?x?xf32>
// CHECK: rlx.conv_backward_weight {{.*}} -> tensor<4x3x3x3xf32>
// CHECK: rlx.conv_transpose_backward_input {{.*}} -> tensor<?x4x?x?xf32>
// CHECK: rlx.pool_backward max {{.*}} ceil_mode {{.*}} -> tensor<?x3x?x?xf32>
// CHECK: rlx.global_pool_backward avg {{.*}} -> tensor<?x3x?x?xf32>
// REIFY-LABEL: func.func @image_adjoints
// REIFY-SAME: (%[[X:[^:]*]]: tensor<?x3x?x?xf32>, %{{[^:]*}}: tensor<4x3x3x3xf32>, %{{[^:]*}}: tensor<?x4x?x?xf32>, %[[TG:[^:]*]]: tensor<?x3x?x?xf32>
// REIFY-DAG: %[[X2:.*]] = tensor.dim %[[X]], %c2
// REIFY-DAG: %[[X3:.*]] = tensor.dim %[[X]], %c3
// REIFY-DAG: %[[TG2:.*]] = tensor.dim %[[TG]], %c2
// REIFY-DAG: %[[T2:.*]] = affine.apply #[[CONV]]()[%[[TG2]]]
// REIFY: return %[[X2]], %[[T2]], %[[X3]], %[[X2]]
func.func @image_adjoints(%x: tensor<?x3x?x?xf32>, %w: tensor<4x3x3x3xf32>, %g: tensor<?x4x?x?xf32>,
                          %tg: tensor<?x3x?x?xf32>, %tw: tensor<4x3x2x2xf32>, %pg: tensor<?x3x?x?xf32>,
                          %gg: tensor<?x3x1x1xf32>)
    -> (index, index, index, index) {
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %dx = rlx.conv_backward_input %g, %w like %x stride = [2, 2] padding = [1, 1, 1, 1] dilation = [1, 1] groups = 1
      : (tensor<?x4x?x?xf32>, tensor<4x3x3x3xf32>, tensor<?x3x?x?xf32>) -> tensor<?x3x?x?xf32>
  %dw = rlx.conv_backward_weight %g, %x stride = [2, 2] padding = [1, 1, 1, 1] dilation = [1, 1] groups = 1
      : (tensor<?x4x?x?xf32>, tensor<?x3x?x?xf32>) -> tensor<4x3x3x3xf32>
  %dt = rlx.conv_transpose_backward_input %tg, %tw stride = [2, 2] padding = [1, 1, 1, 1]
      output_padding = [1, 1] dilation = [1, 1] groups = 1
      : (tensor<?x3x?x?xf32>, tensor<4x3x2x2xf32>) -> tensor<?x4x?x?xf32>
  %dp = rlx.pool_backward max %pg, %x kernel = [3, 3] stride = [2, 2] padding = [1, 1, 1, 1] ceil_mode
      : tensor<?x3x?x?xf32>, tensor<?x3x?x?xf32> -> tensor<?x3x?x?xf32>
  %dg = rlx.global_pool_backward avg %gg, %x : tensor<?x3x1x1xf32>, tensor<?x3x?x?xf32> -> tensor<?x3x?x?xf32>
  %d0 = tensor.dim %dx, %c2 : tensor<?x3x?x?xf32>
  %d1 = tensor.dim %dt, %c2 : tensor<?x4x?x?xf32>
  %d2 = tensor.dim %dp, %c3 : tensor<?x3x?x?xf32>
  %d3 = tensor.dim %dg, %c2 : tensor<?x3x?x?xf32>
  return %d0, %d1, %d2, %d3 : index, index, index, index
}

// Negative (cropping) constant pads of a `?` size.
// CHECK-LABEL: func.func @crop
// CHECK: rlx.pad constant %{{.*}} pads = [-1, -2, 0, 1] : tensor<?x4xf32> -> tensor<?x5xf32>
// REIFY-LABEL: func.func @crop
// REIFY: %[[D:.*]] = tensor.dim %{{.*}}, %c0
// REIFY: %[[R:.*]] = affine.apply #[[CROPPED]]()[%[[D]]]
// REIFY: return %[[R]]
func.func @crop(%x: tensor<?x4xf32>) -> index {
  %c0 = arith.constant 0 : index
  %0 = rlx.pad constant %x pads = [-1, -2, 0, 1] : tensor<?x4xf32> -> tensor<?x5xf32>
  %d = tensor.dim %0, %c0 : tensor<?x5xf32>
  return %d : index
}

// Bounds on `?` sizes round-trip on function arguments.
// CHECK-LABEL: func.func @bounded(
// CHECK-SAME: tensor<?x?x64xf32> {rlx.bounds = array<i64: 8, 4096, -1>}
func.func @bounded(%x: tensor<?x?x64xf32> {rlx.bounds = array<i64: 8, 4096, -1>}) -> tensor<?x?x64xf32> {
  return %x : tensor<?x?x64xf32>
}
