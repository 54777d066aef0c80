// RUN: rlx-opt %s --rlx-to-linalg -split-input-file | FileCheck %s

// Row normalizations (layer_norm, rms_norm, group_norm, layer_norm2d) and
// the cross-entropies are decomposed into primitive rlx ops (RowOps.cpp)
// with the row work in an `rlx.region row`, which lowers to rlx.rows: the
// same body with a destination per result. The checks below spell out each
// decomposition; how the codegen layer tiles rlx.rows by rows and lowers
// each row's stages is tested in test/Codegen/Common/tile-and-fuse-rows.mlir.
// batch_norm_inference and rope are not row ops: they lower to whole-tensor
// linalg.generics.
//
// layer_norm over a middle axis of an f16 tensor: the row is widened once
// to f32; the mean, the centered row x - mean, the mean of its squares (two
// passes, never E[x^2] - E[x]^2), rstd = rsqrt(var + eps), then the centered
// row scaled, gamma and beta applied (widened and reshaped to [3, 1] outside
// the rows) and rounded once to f16.

// CHECK-LABEL: func.func @layer_norm_middle_f16(
// CHECK:      %{{.*}} = arith.constant dense<9.99999974E-6> : tensor<f32>
// CHECK-NEXT: %{{.*}} = tensor.empty() : tensor<3xf32>
// CHECK-NEXT: %{{.*}} = linalg.generic {indexing_maps = [#{{map[0-9]*}}, #{{map[0-9]*}}], iterator_types = ["parallel"]} ins(%{{.*}} : tensor<3xf16>) outs(%{{.*}} : tensor<3xf32>) {
// CHECK-NEXT: ^bb0(
// CHECK-NEXT:   %{{.*}} = arith.extf %{{.*}} : f16 to f32
// CHECK-NEXT:   linalg.yield %{{.*}} : f32
// CHECK-NEXT: } -> tensor<3xf32>
// CHECK-NEXT: %{{.*}} = tensor.expand_shape %{{.*}} {{\[\[}}0, 1]] output_shape [3, 1] : tensor<3xf32> into tensor<3x1xf32>
// CHECK-NEXT: %{{.*}} = tensor.empty() : tensor<3xf32>
// CHECK-NEXT: %{{.*}} = linalg.generic {indexing_maps = [#{{map[0-9]*}}, #{{map[0-9]*}}], iterator_types = ["parallel"]} ins(%{{.*}} : tensor<3xf16>) outs(%{{.*}} : tensor<3xf32>) {
// CHECK-NEXT: ^bb0(
// CHECK-NEXT:   %{{.*}} = arith.extf %{{.*}} : f16 to f32
// CHECK-NEXT:   linalg.yield %{{.*}} : f32
// CHECK-NEXT: } -> tensor<3xf32>
// CHECK-NEXT: %{{.*}} = tensor.expand_shape %{{.*}} {{\[\[}}0, 1]] output_shape [3, 1] : tensor<3xf32> into tensor<3x1xf32>
// CHECK-NEXT: %{{.*}} = tensor.empty() : tensor<2x3x4xf16>
// CHECK-NEXT: %{{.*}} = rlx.rows ins(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : tensor<2x3x4xf16>, tensor<f32>, tensor<3x1xf32>, tensor<3x1xf32>) outs(%{{.*}} : tensor<2x3x4xf16>) {
// CHECK-NEXT: ^bb0(
// CHECK-NEXT:   %{{.*}} = rlx.cast %{{.*}} : tensor<2x3x4xf16> -> tensor<2x3x4xf32>
// CHECK-NEXT:   %{{.*}} = rlx.reduce mean %{{.*}} axes = [1] keep_dim : tensor<2x3x4xf32> -> tensor<2x1x4xf32>
// CHECK-NEXT:   %{{.*}} = rlx.sub %{{.*}}, %{{.*}} : (tensor<2x3x4xf32>, tensor<2x1x4xf32>) -> tensor<2x3x4xf32>
// CHECK-NEXT:   %{{.*}} = rlx.mul %{{.*}}, %{{.*}} : (tensor<2x3x4xf32>, tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
// CHECK-NEXT:   %{{.*}} = rlx.reduce mean %{{.*}} axes = [1] keep_dim : tensor<2x3x4xf32> -> tensor<2x1x4xf32>
// CHECK-NEXT:   %{{.*}} = rlx.add %{{.*}}, %{{.*}} : (tensor<2x1x4xf32>, tensor<f32>) -> tensor<2x1x4xf32>
// CHECK-NEXT:   %{{.*}} = rlx.rsqrt %{{.*}} : tensor<2x1x4xf32>
// CHECK-NEXT:   %{{.*}} = rlx.mul %{{.*}}, %{{.*}} : (tensor<2x3x4xf32>, tensor<2x1x4xf32>) -> tensor<2x3x4xf32>
// CHECK-NEXT:   %{{.*}} = rlx.mul %{{.*}}, %{{.*}} : (tensor<2x3x4xf32>, tensor<3x1xf32>) -> tensor<2x3x4xf32>
// CHECK-NEXT:   %{{.*}} = rlx.add %{{.*}}, %{{.*}} : (tensor<2x3x4xf32>, tensor<3x1xf32>) -> tensor<2x3x4xf32>
// CHECK-NEXT:   %{{.*}} = rlx.cast %{{.*}} : tensor<2x3x4xf32> -> tensor<2x3x4xf16>
// CHECK-NEXT:   rlx.yield %{{.*}} : tensor<2x3x4xf16>
// CHECK-NEXT: } -> tensor<2x3x4xf16>
// CHECK-NEXT: return %{{.*}} : tensor<2x3x4xf16>
func.func @layer_norm_middle_f16(%x: tensor<2x3x4xf16>, %g: tensor<3xf16>, %b: tensor<3xf16>) -> tensor<2x3x4xf16> {
  %0 = rlx.layer_norm %x, %g, %b axis = 1 eps = 1.0e-5 : (tensor<2x3x4xf16>, tensor<3xf16>, tensor<3xf16>) -> tensor<2x3x4xf16>
  return %0 : tensor<2x3x4xf16>
}

// -----

// rms_norm does not center: one reduction of x^2 over the row, no mean
// subtraction, no beta.

// CHECK-LABEL: func.func @rms_norm(
// CHECK:      %{{.*}} = arith.constant dense<9.99999974E-6> : tensor<f32>
// CHECK-NEXT: %{{.*}} = tensor.empty() : tensor<4x8xf32>
// CHECK-NEXT: %{{.*}} = rlx.rows ins(%{{.*}}, %{{.*}}, %{{.*}} : tensor<4x8xf32>, tensor<f32>, tensor<8xf32>) outs(%{{.*}} : tensor<4x8xf32>) {
// CHECK-NEXT: ^bb0(
// CHECK-NEXT:   %{{.*}} = rlx.mul %{{.*}}, %{{.*}} : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT:   %{{.*}} = rlx.reduce mean %{{.*}} axes = [1] keep_dim : tensor<4x8xf32> -> tensor<4x1xf32>
// CHECK-NEXT:   %{{.*}} = rlx.add %{{.*}}, %{{.*}} : (tensor<4x1xf32>, tensor<f32>) -> tensor<4x1xf32>
// CHECK-NEXT:   %{{.*}} = rlx.rsqrt %{{.*}} : tensor<4x1xf32>
// CHECK-NEXT:   %{{.*}} = rlx.mul %{{.*}}, %{{.*}} : (tensor<4x8xf32>, tensor<4x1xf32>) -> tensor<4x8xf32>
// CHECK-NEXT:   %{{.*}} = rlx.mul %{{.*}}, %{{.*}} : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT:   rlx.yield %{{.*}} : tensor<4x8xf32>
// CHECK-NEXT: } -> tensor<4x8xf32>
// CHECK-NEXT: return %{{.*}} : tensor<4x8xf32>
func.func @rms_norm(%x: tensor<4x8xf32>, %g: tensor<8xf32>) -> tensor<4x8xf32> {
  %0 = rlx.rms_norm %x, %g axis = -1 eps = 1.0e-5 : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

// group_norm is a row op: [N, C, L] is viewed as [N, G, C/G, L] (and gamma,
// beta as [G, C/G, 1]), and each (n, g) row of C/G x L elements has two
// reductions over its last two axes.

// CHECK-LABEL: func.func @group_norm(
// CHECK:      %{{.*}} = tensor.collapse_shape %{{.*}} {{\[\[}}0, 1, 2]] : tensor<2x6x5xf32> into tensor<60xf32>
// CHECK-NEXT: %{{.*}} = tensor.expand_shape %{{.*}} {{\[\[}}0, 1, 2, 3]] output_shape [2, 3, 2, 5] : tensor<60xf32> into tensor<2x3x2x5xf32>
// CHECK-NEXT: %{{.*}} = arith.constant dense<9.99999974E-6> : tensor<f32>
// CHECK-NEXT: %{{.*}} = tensor.expand_shape %{{.*}} {{\[\[}}0, 1, 2]] output_shape [3, 2, 1] : tensor<6xf32> into tensor<3x2x1xf32>
// CHECK-NEXT: %{{.*}} = tensor.expand_shape %{{.*}} {{\[\[}}0, 1, 2]] output_shape [3, 2, 1] : tensor<6xf32> into tensor<3x2x1xf32>
// CHECK-NEXT: %{{.*}} = tensor.empty() : tensor<2x3x2x5xf32>
// CHECK-NEXT: %{{.*}} = rlx.rows ins(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : tensor<2x3x2x5xf32>, tensor<f32>, tensor<3x2x1xf32>, tensor<3x2x1xf32>) outs(%{{.*}} : tensor<2x3x2x5xf32>) {
// CHECK-NEXT: ^bb0(
// CHECK-NEXT:   %{{.*}} = rlx.reduce mean %{{.*}} axes = [2, 3] keep_dim : tensor<2x3x2x5xf32> -> tensor<2x3x1x1xf32>
// CHECK-NEXT:   %{{.*}} = rlx.sub %{{.*}}, %{{.*}} : (tensor<2x3x2x5xf32>, tensor<2x3x1x1xf32>) -> tensor<2x3x2x5xf32>
// CHECK-NEXT:   %{{.*}} = rlx.mul %{{.*}}, %{{.*}} : (tensor<2x3x2x5xf32>, tensor<2x3x2x5xf32>) -> tensor<2x3x2x5xf32>
// CHECK-NEXT:   %{{.*}} = rlx.reduce mean %{{.*}} axes = [2, 3] keep_dim : tensor<2x3x2x5xf32> -> tensor<2x3x1x1xf32>
// CHECK-NEXT:   %{{.*}} = rlx.add %{{.*}}, %{{.*}} : (tensor<2x3x1x1xf32>, tensor<f32>) -> tensor<2x3x1x1xf32>
// CHECK-NEXT:   %{{.*}} = rlx.rsqrt %{{.*}} : tensor<2x3x1x1xf32>
// CHECK-NEXT:   %{{.*}} = rlx.mul %{{.*}}, %{{.*}} : (tensor<2x3x2x5xf32>, tensor<2x3x1x1xf32>) -> tensor<2x3x2x5xf32>
// CHECK-NEXT:   %{{.*}} = rlx.mul %{{.*}}, %{{.*}} : (tensor<2x3x2x5xf32>, tensor<3x2x1xf32>) -> tensor<2x3x2x5xf32>
// CHECK-NEXT:   %{{.*}} = rlx.add %{{.*}}, %{{.*}} : (tensor<2x3x2x5xf32>, tensor<3x2x1xf32>) -> tensor<2x3x2x5xf32>
// CHECK-NEXT:   rlx.yield %{{.*}} : tensor<2x3x2x5xf32>
// CHECK-NEXT: } -> tensor<2x3x2x5xf32>
// CHECK-NEXT: %{{.*}} = tensor.collapse_shape %{{.*}} {{\[\[}}0, 1, 2, 3]] : tensor<2x3x2x5xf32> into tensor<60xf32>
// CHECK-NEXT: %{{.*}} = tensor.expand_shape %{{.*}} {{\[\[}}0, 1, 2]] output_shape [2, 6, 5] : tensor<60xf32> into tensor<2x6x5xf32>
// CHECK-NEXT: return %{{.*}} : tensor<2x6x5xf32>
func.func @group_norm(%x: tensor<2x6x5xf32>, %g: tensor<6xf32>, %b: tensor<6xf32>) -> tensor<2x6x5xf32> {
  %0 = rlx.group_norm %x, %g, %b groups = 3 eps = 1.0e-5 : (tensor<2x6x5xf32>, tensor<6xf32>, tensor<6xf32>) -> tensor<2x6x5xf32>
  return %0 : tensor<2x6x5xf32>
}

// -----

// layer_norm2d is layer_norm over axis 1: one row per (n, h, w), the row
// running along the channels (strided), gamma and beta viewed as [C, 1, 1].

// CHECK-LABEL: func.func @layer_norm2d(
// CHECK:      %{{.*}} = arith.constant dense<9.99999974E-6> : tensor<f32>
// CHECK-NEXT: %{{.*}} = tensor.expand_shape %{{.*}} {{\[\[}}0, 1, 2]] output_shape [4, 1, 1] : tensor<4xf32> into tensor<4x1x1xf32>
// CHECK-NEXT: %{{.*}} = tensor.expand_shape %{{.*}} {{\[\[}}0, 1, 2]] output_shape [4, 1, 1] : tensor<4xf32> into tensor<4x1x1xf32>
// CHECK-NEXT: %{{.*}} = tensor.empty() : tensor<2x4x3x5xf32>
// CHECK-NEXT: %{{.*}} = rlx.rows ins(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : tensor<2x4x3x5xf32>, tensor<f32>, tensor<4x1x1xf32>, tensor<4x1x1xf32>) outs(%{{.*}} : tensor<2x4x3x5xf32>) {
// CHECK-NEXT: ^bb0(
// CHECK-NEXT:   %{{.*}} = rlx.reduce mean %{{.*}} axes = [1] keep_dim : tensor<2x4x3x5xf32> -> tensor<2x1x3x5xf32>
// CHECK-NEXT:   %{{.*}} = rlx.sub %{{.*}}, %{{.*}} : (tensor<2x4x3x5xf32>, tensor<2x1x3x5xf32>) -> tensor<2x4x3x5xf32>
// CHECK-NEXT:   %{{.*}} = rlx.mul %{{.*}}, %{{.*}} : (tensor<2x4x3x5xf32>, tensor<2x4x3x5xf32>) -> tensor<2x4x3x5xf32>
// CHECK-NEXT:   %{{.*}} = rlx.reduce mean %{{.*}} axes = [1] keep_dim : tensor<2x4x3x5xf32> -> tensor<2x1x3x5xf32>
// CHECK-NEXT:   %{{.*}} = rlx.add %{{.*}}, %{{.*}} : (tensor<2x1x3x5xf32>, tensor<f32>) -> tensor<2x1x3x5xf32>
// CHECK-NEXT:   %{{.*}} = rlx.rsqrt %{{.*}} : tensor<2x1x3x5xf32>
// CHECK-NEXT:   %{{.*}} = rlx.mul %{{.*}}, %{{.*}} : (tensor<2x4x3x5xf32>, tensor<2x1x3x5xf32>) -> tensor<2x4x3x5xf32>
// CHECK-NEXT:   %{{.*}} = rlx.mul %{{.*}}, %{{.*}} : (tensor<2x4x3x5xf32>, tensor<4x1x1xf32>) -> tensor<2x4x3x5xf32>
// CHECK-NEXT:   %{{.*}} = rlx.add %{{.*}}, %{{.*}} : (tensor<2x4x3x5xf32>, tensor<4x1x1xf32>) -> tensor<2x4x3x5xf32>
// CHECK-NEXT:   rlx.yield %{{.*}} : tensor<2x4x3x5xf32>
// CHECK-NEXT: } -> tensor<2x4x3x5xf32>
// CHECK-NEXT: return %{{.*}} : tensor<2x4x3x5xf32>
func.func @layer_norm2d(%x: tensor<2x4x3x5xf32>, %g: tensor<4xf32>) -> tensor<2x4x3x5xf32> {
  %0 = rlx.layer_norm2d %x, %g, %g eps = 1.0e-5 : (tensor<2x4x3x5xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<2x4x3x5xf32>
  return %0 : tensor<2x4x3x5xf32>
}

// -----

// batch_norm_inference is one elementwise generic over NCHW with the four
// per-channel vectors read at d1.

// CHECK-DAG:   #[[ID4:map[0-9]*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// CHECK-DAG:   #[[CHANNEL:map[0-9]*]] = affine_map<(d0, d1, d2, d3) -> (d1)>
// CHECK-LABEL: func.func @batch_norm_inference(
// CHECK-SAME:      %[[X:[a-z0-9]+]]: tensor<2x3x4x4xf32>, %[[G:[a-z0-9]+]]: tensor<3xf32>, %[[B:[a-z0-9]+]]: tensor<3xf32>, %[[M:[a-z0-9]+]]: tensor<3xf32>, %[[V:[a-z0-9]+]]: tensor<3xf32>)
// CHECK-NOT:     iterator_types = [{{.*}}"reduction"
// CHECK:         %[[R:.*]] = linalg.generic
// CHECK-SAME:        indexing_maps = [#[[ID4]], #[[CHANNEL]], #[[CHANNEL]], #[[CHANNEL]], #[[CHANNEL]], #[[ID4]]]
// CHECK-SAME:        iterator_types = ["parallel", "parallel", "parallel", "parallel"]
// CHECK-SAME:        ins(%[[X]], %[[G]], %[[B]], %[[M]], %[[V]] :
// CHECK:         ^bb0(%[[IX:[a-z0-9_]+]]: f32, %[[IG:[a-z0-9_]+]]: f32, %[[IB:[a-z0-9_]+]]: f32, %[[IM:[a-z0-9_]+]]: f32, %[[IV:[a-z0-9_]+]]: f32, %{{.*}}: f32):
// CHECK:           %[[VE:.*]] = arith.addf %[[IV]], %{{.*}} : f32
// CHECK:           %[[RSTD:.*]] = math.rsqrt %[[VE]] : f32
// CHECK:           %[[C:.*]] = arith.subf %[[IX]], %[[IM]] : f32
// CHECK:           %[[N:.*]] = arith.mulf %[[C]], %[[RSTD]] : f32
// CHECK:           %[[S:.*]] = arith.mulf %[[N]], %[[IG]] : f32
// CHECK:           %[[Y:.*]] = arith.addf %[[S]], %[[IB]] : f32
// CHECK:           linalg.yield %[[Y]] : f32
// CHECK:         return %[[R]]
func.func @batch_norm_inference(%x: tensor<2x3x4x4xf32>, %g: tensor<3xf32>, %b: tensor<3xf32>, %m: tensor<3xf32>, %v: tensor<3xf32>) -> tensor<2x3x4x4xf32> {
  %0 = rlx.batch_norm_inference %x, %g, %b, %m, %v eps = 1.0e-5 : (tensor<2x3x4x4xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<2x3x4x4xf32>
  return %0 : tensor<2x3x4x4xf32>
}

// -----

// ada_layer_norm is a row op over the last axis; 1 + scale is computed
// once, outside the rows, and read with shift per row. gated_residual reads
// its gate through the broadcast map (size-1 dimensions read index 0).

// CHECK-LABEL: func.func @modulation(
// CHECK:      %{{.*}} = arith.constant dense<9.99999974E-6> : tensor<f32>
// CHECK-NEXT: %{{.*}} = arith.constant dense<1.000000e+00> : tensor<f32>
// CHECK-NEXT: %{{.*}} = tensor.empty() : tensor<2x1x8xf32>
// CHECK-NEXT: %{{.*}} = linalg.generic {indexing_maps = [#{{map[0-9]*}}, #{{map[0-9]*}}, #{{map[0-9]*}}], iterator_types = ["parallel", "parallel", "parallel"]} ins(%{{.*}}, %{{.*}} : tensor<f32>, tensor<2x1x8xf32>) outs(%{{.*}} : tensor<2x1x8xf32>) {
// CHECK-NEXT: ^bb0(
// CHECK-NEXT:   %{{.*}} = arith.addf %{{.*}}, %{{.*}} : f32
// CHECK-NEXT:   linalg.yield %{{.*}} : f32
// CHECK-NEXT: } -> tensor<2x1x8xf32>
// CHECK-NEXT: %{{.*}} = tensor.empty() : tensor<2x5x8xf32>
// CHECK-NEXT: %{{.*}} = rlx.rows ins(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : tensor<2x5x8xf32>, tensor<f32>, tensor<2x1x8xf32>, tensor<2x1x8xf32>) outs(%{{.*}} : tensor<2x5x8xf32>) {
// CHECK-NEXT: ^bb0(
// CHECK-NEXT:   %{{.*}} = rlx.reduce mean %{{.*}} axes = [2] keep_dim : tensor<2x5x8xf32> -> tensor<2x5x1xf32>
// CHECK-NEXT:   %{{.*}} = rlx.sub %{{.*}}, %{{.*}} : (tensor<2x5x8xf32>, tensor<2x5x1xf32>) -> tensor<2x5x8xf32>
// CHECK-NEXT:   %{{.*}} = rlx.mul %{{.*}}, %{{.*}} : (tensor<2x5x8xf32>, tensor<2x5x8xf32>) -> tensor<2x5x8xf32>
// CHECK-NEXT:   %{{.*}} = rlx.reduce mean %{{.*}} axes = [2] keep_dim : tensor<2x5x8xf32> -> tensor<2x5x1xf32>
// CHECK-NEXT:   %{{.*}} = rlx.add %{{.*}}, %{{.*}} : (tensor<2x5x1xf32>, tensor<f32>) -> tensor<2x5x1xf32>
// CHECK-NEXT:   %{{.*}} = rlx.rsqrt %{{.*}} : tensor<2x5x1xf32>
// CHECK-NEXT:   %{{.*}} = rlx.mul %{{.*}}, %{{.*}} : (tensor<2x5x8xf32>, tensor<2x5x1xf32>) -> tensor<2x5x8xf32>
// CHECK-NEXT:   %{{.*}} = rlx.mul %{{.*}}, %{{.*}} : (tensor<2x5x8xf32>, tensor<2x1x8xf32>) -> tensor<2x5x8xf32>
// CHECK-NEXT:   %{{.*}} = rlx.add %{{.*}}, %{{.*}} : (tensor<2x5x8xf32>, tensor<2x1x8xf32>) -> tensor<2x5x8xf32>
// CHECK-NEXT:   rlx.yield %{{.*}} : tensor<2x5x8xf32>
// CHECK-NEXT: } -> tensor<2x5x8xf32>
// CHECK-NEXT: %{{.*}} = tensor.empty() : tensor<2x5x8xf32>
// CHECK-NEXT: %{{.*}} = linalg.generic {indexing_maps = [#{{map[0-9]*}}, #{{map[0-9]*}}, #{{map[0-9]*}}, #{{map[0-9]*}}], iterator_types = ["parallel", "parallel", "parallel"]} ins(%{{.*}}, %{{.*}}, %{{.*}} : tensor<2x5x8xf32>, tensor<2x5x8xf32>, tensor<2x1x8xf32>) outs(%{{.*}} : tensor<2x5x8xf32>) {
// CHECK-NEXT: ^bb0(
// CHECK-NEXT:   %{{.*}} = arith.mulf %{{.*}}, %{{.*}} : f32
// CHECK-NEXT:   %{{.*}} = arith.addf %{{.*}}, %{{.*}} : f32
// CHECK-NEXT:   linalg.yield %{{.*}} : f32
// CHECK-NEXT: } -> tensor<2x5x8xf32>
// CHECK-NEXT: return %{{.*}} : tensor<2x5x8xf32>
func.func @modulation(%x: tensor<2x5x8xf32>, %m: tensor<2x1x8xf32>) -> tensor<2x5x8xf32> {
  %0 = rlx.ada_layer_norm layer %x, %m, %m eps = 1.0e-5 : (tensor<2x5x8xf32>, tensor<2x1x8xf32>, tensor<2x1x8xf32>) -> tensor<2x5x8xf32>
  %1 = rlx.gated_residual %x, %0, %m : (tensor<2x5x8xf32>, tensor<2x5x8xf32>, tensor<2x1x8xf32>) -> tensor<2x5x8xf32>
  return %1 : tensor<2x5x8xf32>
}

// -----

// rope (neox, partial): [B, S, H*D] is viewed as [B, S, H, D]; the halves
// [0, n/2) and [n/2, n) are slices, one generic rotates them with cos/sin
// read at (s, i), and both are inserted back into the input, which keeps
// the dimensions past n_rot.

// CHECK-DAG:   #[[ID4:map[0-9]*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// CHECK-DAG:   #[[TABLE:map[0-9]*]] = affine_map<(d0, d1, d2, d3) -> (d1, d3)>
// CHECK-LABEL: func.func @rope_neox(
// CHECK-SAME:      %[[X:[a-z0-9]+]]: tensor<2x5x12xf32>, %[[COS:[a-z0-9]+]]: tensor<5x2xf32>, %[[SIN:[a-z0-9]+]]: tensor<5x2xf32>)
// CHECK:         %[[HEADS:.*]] = tensor.expand_shape %[[X]] {{\[\[}}0], [1], [2, 3]] output_shape [2, 5, 2, 6] : tensor<2x5x12xf32> into tensor<2x5x2x6xf32>
// CHECK:         %[[A:.*]] = tensor.extract_slice %[[HEADS]][0, 0, 0, 0] [2, 5, 2, 2] [1, 1, 1, 1]
// CHECK:         %[[B:.*]] = tensor.extract_slice %[[HEADS]][0, 0, 0, 2] [2, 5, 2, 2] [1, 1, 1, 1]
// CHECK:         %[[ROT:.*]]:2 = linalg.generic
// CHECK-SAME:        indexing_maps = [#[[ID4]], #[[ID4]], #[[TABLE]], #[[TABLE]], #[[ID4]], #[[ID4]]]
// CHECK-SAME:        ins(%[[A]], %[[B]], %[[COS]], %[[SIN]] :
// CHECK:         ^bb0(%[[IA:[a-z0-9_]+]]: f32, %[[IB:[a-z0-9_]+]]: f32, %[[IC:[a-z0-9_]+]]: f32, %[[IS:[a-z0-9_]+]]: f32,
// CHECK:           %[[AC:.*]] = arith.mulf %[[IA]], %[[IC]] : f32
// CHECK:           %[[BS:.*]] = arith.mulf %[[IB]], %[[IS]] : f32
// CHECK:           %[[RA:.*]] = arith.subf %[[AC]], %[[BS]] : f32
// CHECK:           %[[BC:.*]] = arith.mulf %[[IB]], %[[IC]] : f32
// CHECK:           %[[AS:.*]] = arith.mulf %[[IA]], %[[IS]] : f32
// CHECK:           %[[RB:.*]] = arith.addf %[[BC]], %[[AS]] : f32
// CHECK:           linalg.yield %[[RA]], %[[RB]] : f32, f32
// CHECK:         %[[W1:.*]] = tensor.insert_slice %[[ROT]]#0 into %[[HEADS]][0, 0, 0, 0] [2, 5, 2, 2] [1, 1, 1, 1]
// CHECK:         %[[W2:.*]] = tensor.insert_slice %[[ROT]]#1 into %[[W1]][0, 0, 0, 2] [2, 5, 2, 2] [1, 1, 1, 1]
// CHECK:         %[[OUT:.*]] = tensor.collapse_shape %[[W2]] {{\[\[}}0], [1], [2, 3]] : tensor<2x5x2x6xf32> into tensor<2x5x12xf32>
// CHECK:         return %[[OUT]]
func.func @rope_neox(%x: tensor<2x5x12xf32>, %cos: tensor<5x2xf32>, %sin: tensor<5x2xf32>) -> tensor<2x5x12xf32> {
  %0 = rlx.rope neox bsd %x, %cos, %sin head_dim = 6, n_rot = 4 : (tensor<2x5x12xf32>, tensor<5x2xf32>, tensor<5x2xf32>) -> tensor<2x5x12xf32>
  return %0 : tensor<2x5x12xf32>
}

// -----

// rope (gptj): the members of each pair are the even and odd dimensions,
// stride-2 slices starting at 0 and 1.

// CHECK-LABEL: func.func @rope_gptj(
// CHECK:         %[[HEADS:.*]] = tensor.expand_shape %{{.*}} {{\[\[}}0], [1, 2]] output_shape [3, 1, 8] : tensor<3x8xf16> into tensor<3x1x8xf16>
// CHECK:         tensor.extract_slice %[[HEADS]][0, 0, 0] [3, 1, 4] [1, 1, 2]
// CHECK:         tensor.extract_slice %[[HEADS]][0, 0, 1] [3, 1, 4] [1, 1, 2]
// CHECK:         linalg.generic
// CHECK:           arith.extf
// CHECK:           arith.truncf
// CHECK:         tensor.insert_slice %{{.*}}#0 into %[[HEADS]][0, 0, 0] [3, 1, 4] [1, 1, 2]
// CHECK:         tensor.insert_slice %{{.*}}#1 into %{{.*}}[0, 0, 1] [3, 1, 4] [1, 1, 2]
func.func @rope_gptj(%x: tensor<3x8xf16>, %cos: tensor<3x4xf16>) -> tensor<3x8xf16> {
  %0 = rlx.rope gptj bsd %x, %cos, %cos head_dim = 8, n_rot = 8 : (tensor<3x8xf16>, tensor<3x4xf16>, tensor<3x4xf16>) -> tensor<3x8xf16>
  return %0 : tensor<3x8xf16>
}

// -----

// rope on bshd [B, S, H, D] = [2, 5, 3, 8]: no reshape (the heads are an
// axis), and the tables are read at (S, pair) = (d1, d3), not at the head
// axis d2.

// CHECK-DAG:   #[[BSHD_TABLE:map[0-9]*]] = affine_map<(d0, d1, d2, d3) -> (d1, d3)>
// CHECK-LABEL: func.func @rope_bshd(
// CHECK-NOT:     tensor.expand_shape
// CHECK:         tensor.extract_slice %{{.*}}[0, 0, 0, 0] [2, 5, 3, 4] [1, 1, 1, 1]
// CHECK:         linalg.generic
// CHECK-SAME:        #[[BSHD_TABLE]], #[[BSHD_TABLE]]
// CHECK-NOT:     tensor.collapse_shape
// CHECK:         return
func.func @rope_bshd(%x: tensor<2x5x3x8xf32>, %cos: tensor<5x4xf32>) -> tensor<2x5x3x8xf32> {
  %0 = rlx.rope neox bshd %x, %cos, %cos head_dim = 8, n_rot = 8 : (tensor<2x5x3x8xf32>, tensor<5x4xf32>, tensor<5x4xf32>) -> tensor<2x5x3x8xf32>
  return %0 : tensor<2x5x3x8xf32>
}

// -----

// rope on bhsd [B, H, S, D]: the tables are read at (d2, d3).

// CHECK-DAG:   #[[BHSD_TABLE:map[0-9]*]] = affine_map<(d0, d1, d2, d3) -> (d2, d3)>
// CHECK-LABEL: func.func @rope_bhsd(
// CHECK:         linalg.generic
// CHECK-SAME:        #[[BHSD_TABLE]], #[[BHSD_TABLE]]
func.func @rope_bhsd(%x: tensor<2x3x5x8xf32>, %cos: tensor<5x2xf32>) -> tensor<2x3x5x8xf32> {
  %0 = rlx.rope gptj bhsd %x, %cos, %cos head_dim = 8, n_rot = 4 : (tensor<2x3x5x8xf32>, tensor<5x2xf32>, tensor<5x2xf32>) -> tensor<2x3x5x8xf32>
  return %0 : tensor<2x3x5x8xf32>
}

// -----

// softmax_cross_entropy: per row, the max; the sum of exp(x - max); the
// per-row lse = max + log(sum); the sum of target * (lse - x). The per-row
// loss is a [3, 1] result collapsed to [3].

// CHECK-LABEL: func.func @cross_entropy(
// CHECK:      %{{.*}} = tensor.empty() : tensor<3x1xf32>
// CHECK-NEXT: %{{.*}} = rlx.rows ins(%{{.*}}, %{{.*}} : tensor<3x10xf32>, tensor<3x10xf32>) outs(%{{.*}} : tensor<3x1xf32>) {
// CHECK-NEXT: ^bb0(
// CHECK-NEXT:   %{{.*}} = rlx.reduce max %{{.*}} axes = [1] keep_dim : tensor<3x10xf32> -> tensor<3x1xf32>
// CHECK-NEXT:   %{{.*}} = rlx.sub %{{.*}}, %{{.*}} : (tensor<3x10xf32>, tensor<3x1xf32>) -> tensor<3x10xf32>
// CHECK-NEXT:   %{{.*}} = rlx.exp %{{.*}} : tensor<3x10xf32>
// CHECK-NEXT:   %{{.*}} = rlx.reduce sum %{{.*}} axes = [1] keep_dim : tensor<3x10xf32> -> tensor<3x1xf32>
// CHECK-NEXT:   %{{.*}} = rlx.log %{{.*}} : tensor<3x1xf32>
// CHECK-NEXT:   %{{.*}} = rlx.add %{{.*}}, %{{.*}} : (tensor<3x1xf32>, tensor<3x1xf32>) -> tensor<3x1xf32>
// CHECK-NEXT:   %{{.*}} = rlx.sub %{{.*}}, %{{.*}} : (tensor<3x1xf32>, tensor<3x10xf32>) -> tensor<3x10xf32>
// CHECK-NEXT:   %{{.*}} = rlx.mul %{{.*}}, %{{.*}} : (tensor<3x10xf32>, tensor<3x10xf32>) -> tensor<3x10xf32>
// CHECK-NEXT:   %{{.*}} = rlx.reduce sum %{{.*}} axes = [1] keep_dim : tensor<3x10xf32> -> tensor<3x1xf32>
// CHECK-NEXT:   rlx.yield %{{.*}} : tensor<3x1xf32>
// CHECK-NEXT: } -> tensor<3x1xf32>
// CHECK-NEXT: %{{.*}} = tensor.collapse_shape %{{.*}} {{\[\[}}0, 1]] : tensor<3x1xf32> into tensor<3xf32>
// CHECK-NEXT: return %{{.*}} : tensor<3xf32>
func.func @cross_entropy(%l: tensor<3x10xf32>, %t: tensor<3x10xf32>) -> tensor<3xf32> {
  %0 = rlx.softmax_cross_entropy %l, %t : (tensor<3x10xf32>, tensor<3x10xf32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

// With labels, the labelled logit is picked by a reduction comparing the
// column index (an rlx.iota: a generic of linalg.index, no constant of C
// elements) with the row's label (no load at the label's index), in the
// same stage as the max. f16 logits are widened once to f32. Rows with a
// label outside [0, C) give NaN; the loss is rounded once to f16.

// CHECK-LABEL: func.func @cross_entropy_labels(
// CHECK:      %{{.*}} = tensor.expand_shape %{{.*}} {{\[\[}}0, 1]] output_shape [3, 1] : tensor<3xi32> into tensor<3x1xi32>
// CHECK-NEXT: %{{.*}} = tensor.empty() : tensor<10xi32>
// CHECK-NEXT: %{{.*}} = linalg.generic {indexing_maps = [#{{map[0-9]*}}], iterator_types = ["parallel"]} outs(%{{.*}} : tensor<10xi32>) {
// CHECK-NEXT: ^bb0(
// CHECK-NEXT:   %{{.*}} = linalg.index 0 : index
// CHECK-NEXT:   %{{.*}} = arith.index_cast %{{.*}} : index to i32
// CHECK-NEXT:   linalg.yield %{{.*}} : i32
// CHECK-NEXT: } -> tensor<10xi32>
// CHECK-NEXT: %{{.*}} = arith.constant dense<0> : tensor<i32>
// CHECK-NEXT: %{{.*}} = arith.constant dense<10> : tensor<i32>
// CHECK-NEXT: %{{.*}} = arith.constant dense<0.000000e+00> : tensor<f32>
// CHECK-NEXT: %{{.*}} = arith.constant dense<0x7FC00000> : tensor<f32>
// CHECK-NEXT: %{{.*}} = tensor.empty() : tensor<3x1xf16>
// CHECK-NEXT: %{{.*}} = rlx.rows ins(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : tensor<3x10xf16>, tensor<3x1xi32>, tensor<i32>, tensor<i32>, tensor<10xi32>, tensor<f32>, tensor<f32>) outs(%{{.*}} : tensor<3x1xf16>) {
// CHECK-NEXT: ^bb0(
// CHECK-NEXT:   %{{.*}} = rlx.cast %{{.*}} : tensor<3x10xf16> -> tensor<3x10xf32>
// CHECK-NEXT:   %{{.*}} = rlx.ge %{{.*}}, %{{.*}} : (tensor<3x1xi32>, tensor<i32>) -> tensor<3x1xi1>
// CHECK-NEXT:   %{{.*}} = rlx.lt %{{.*}}, %{{.*}} : (tensor<3x1xi32>, tensor<i32>) -> tensor<3x1xi1>
// CHECK-NEXT:   %{{.*}} = rlx.bit_and %{{.*}}, %{{.*}} : (tensor<3x1xi1>, tensor<3x1xi1>) -> tensor<3x1xi1>
// CHECK-NEXT:   %{{.*}} = rlx.eq %{{.*}}, %{{.*}} : (tensor<10xi32>, tensor<3x1xi32>) -> tensor<3x10xi1>
// CHECK-NEXT:   %{{.*}} = rlx.where %{{.*}}, %{{.*}}, %{{.*}} : (tensor<3x10xi1>, tensor<3x10xf32>, tensor<f32>) -> tensor<3x10xf32>
// CHECK-NEXT:   %{{.*}} = rlx.reduce sum %{{.*}} axes = [1] keep_dim : tensor<3x10xf32> -> tensor<3x1xf32>
// CHECK-NEXT:   %{{.*}} = rlx.reduce max %{{.*}} axes = [1] keep_dim : tensor<3x10xf32> -> tensor<3x1xf32>
// CHECK-NEXT:   %{{.*}} = rlx.sub %{{.*}}, %{{.*}} : (tensor<3x10xf32>, tensor<3x1xf32>) -> tensor<3x10xf32>
// CHECK-NEXT:   %{{.*}} = rlx.exp %{{.*}} : tensor<3x10xf32>
// CHECK-NEXT:   %{{.*}} = rlx.reduce sum %{{.*}} axes = [1] keep_dim : tensor<3x10xf32> -> tensor<3x1xf32>
// CHECK-NEXT:   %{{.*}} = rlx.log %{{.*}} : tensor<3x1xf32>
// CHECK-NEXT:   %{{.*}} = rlx.add %{{.*}}, %{{.*}} : (tensor<3x1xf32>, tensor<3x1xf32>) -> tensor<3x1xf32>
// CHECK-NEXT:   %{{.*}} = rlx.sub %{{.*}}, %{{.*}} : (tensor<3x1xf32>, tensor<3x1xf32>) -> tensor<3x1xf32>
// CHECK-NEXT:   %{{.*}} = rlx.where %{{.*}}, %{{.*}}, %{{.*}} : (tensor<3x1xi1>, tensor<3x1xf32>, tensor<f32>) -> tensor<3x1xf32>
// CHECK-NEXT:   %{{.*}} = rlx.cast %{{.*}} : tensor<3x1xf32> -> tensor<3x1xf16>
// CHECK-NEXT:   rlx.yield %{{.*}} : tensor<3x1xf16>
// CHECK-NEXT: } -> tensor<3x1xf16>
// CHECK-NEXT: %{{.*}} = tensor.collapse_shape %{{.*}} {{\[\[}}0, 1]] : tensor<3x1xf16> into tensor<3xf16>
// CHECK-NEXT: return %{{.*}} : tensor<3xf16>
func.func @cross_entropy_labels(%l: tensor<3x10xf16>, %y: tensor<3xi32>) -> tensor<3xf16> {
  %0 = rlx.softmax_cross_entropy_with_labels %l, %y : (tensor<3x10xf16>, tensor<3xi32>) -> tensor<3xf16>
  return %0 : tensor<3xf16>
}

// -----

// with_statistics also returns the mean and rstd the normalization used
// (f32 for an f16 input): per-row results of the same rlx.rows. A rank-1
// input has a single row.

// CHECK-LABEL: func.func @saved_statistics(
// CHECK:      %{{.*}} = arith.constant dense<9.99999974E-6> : tensor<f32>
// CHECK-NEXT: %{{.*}} = tensor.empty() : tensor<3xf32>
// CHECK-NEXT: %{{.*}} = linalg.generic {indexing_maps = [#{{map[0-9]*}}, #{{map[0-9]*}}], iterator_types = ["parallel"]} ins(%{{.*}} : tensor<3xf16>) outs(%{{.*}} : tensor<3xf32>) {
// CHECK-NEXT: ^bb0(
// CHECK-NEXT:   %{{.*}} = arith.extf %{{.*}} : f16 to f32
// CHECK-NEXT:   linalg.yield %{{.*}} : f32
// CHECK-NEXT: } -> tensor<3xf32>
// CHECK-NEXT: %{{.*}} = tensor.expand_shape %{{.*}} {{\[\[}}0, 1]] output_shape [3, 1] : tensor<3xf32> into tensor<3x1xf32>
// CHECK-NEXT: %{{.*}} = tensor.empty() : tensor<3xf32>
// CHECK-NEXT: %{{.*}} = linalg.generic {indexing_maps = [#{{map[0-9]*}}, #{{map[0-9]*}}], iterator_types = ["parallel"]} ins(%{{.*}} : tensor<3xf16>) outs(%{{.*}} : tensor<3xf32>) {
// CHECK-NEXT: ^bb0(
// CHECK-NEXT:   %{{.*}} = arith.extf %{{.*}} : f16 to f32
// CHECK-NEXT:   linalg.yield %{{.*}} : f32
// CHECK-NEXT: } -> tensor<3xf32>
// CHECK-NEXT: %{{.*}} = tensor.expand_shape %{{.*}} {{\[\[}}0, 1]] output_shape [3, 1] : tensor<3xf32> into tensor<3x1xf32>
// CHECK-NEXT: %{{.*}} = tensor.empty() : tensor<1x4xf32>
// CHECK-NEXT: %{{.*}} = tensor.empty() : tensor<1x4xf32>
// CHECK-NEXT: %{{.*}} = tensor.empty() : tensor<3x4xf16>
// CHECK-NEXT: %{{.*}}:3 = rlx.rows ins(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : tensor<3x4xf16>, tensor<f32>, tensor<3x1xf32>, tensor<3x1xf32>) outs(%{{.*}}, %{{.*}}, %{{.*}} : tensor<1x4xf32>, tensor<1x4xf32>, tensor<3x4xf16>) {
// CHECK-NEXT: ^bb0(
// CHECK-NEXT:   %{{.*}} = rlx.cast %{{.*}} : tensor<3x4xf16> -> tensor<3x4xf32>
// CHECK-NEXT:   %{{.*}} = rlx.reduce mean %{{.*}} axes = [0] keep_dim : tensor<3x4xf32> -> tensor<1x4xf32>
// CHECK-NEXT:   %{{.*}} = rlx.sub %{{.*}}, %{{.*}} : (tensor<3x4xf32>, tensor<1x4xf32>) -> tensor<3x4xf32>
// CHECK-NEXT:   %{{.*}} = rlx.mul %{{.*}}, %{{.*}} : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
// CHECK-NEXT:   %{{.*}} = rlx.reduce mean %{{.*}} axes = [0] keep_dim : tensor<3x4xf32> -> tensor<1x4xf32>
// CHECK-NEXT:   %{{.*}} = rlx.add %{{.*}}, %{{.*}} : (tensor<1x4xf32>, tensor<f32>) -> tensor<1x4xf32>
// CHECK-NEXT:   %{{.*}} = rlx.rsqrt %{{.*}} : tensor<1x4xf32>
// CHECK-NEXT:   %{{.*}} = rlx.mul %{{.*}}, %{{.*}} : (tensor<3x4xf32>, tensor<1x4xf32>) -> tensor<3x4xf32>
// CHECK-NEXT:   %{{.*}} = rlx.mul %{{.*}}, %{{.*}} : (tensor<3x4xf32>, tensor<3x1xf32>) -> tensor<3x4xf32>
// CHECK-NEXT:   %{{.*}} = rlx.add %{{.*}}, %{{.*}} : (tensor<3x4xf32>, tensor<3x1xf32>) -> tensor<3x4xf32>
// CHECK-NEXT:   %{{.*}} = rlx.cast %{{.*}} : tensor<3x4xf32> -> tensor<3x4xf16>
// CHECK-NEXT:   rlx.yield %{{.*}}, %{{.*}}, %{{.*}} : tensor<1x4xf32>, tensor<1x4xf32>, tensor<3x4xf16>
// CHECK-NEXT: } -> tensor<1x4xf32>, tensor<1x4xf32>, tensor<3x4xf16>
// CHECK-NEXT: %{{.*}} = arith.constant dense<9.99999974E-6> : tensor<f32>
// CHECK-NEXT: %{{.*}} = tensor.empty() : tensor<1xf32>
// CHECK-NEXT: %{{.*}} = tensor.empty() : tensor<8xf32>
// CHECK-NEXT: %{{.*}}:2 = rlx.rows ins(%{{.*}}, %{{.*}} : tensor<8xf32>, tensor<f32>) outs(%{{.*}}, %{{.*}} : tensor<1xf32>, tensor<8xf32>) {
// CHECK-NEXT: ^bb0(
// CHECK-NEXT:   %{{.*}} = rlx.mul %{{.*}}, %{{.*}} : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
// CHECK-NEXT:   %{{.*}} = rlx.reduce mean %{{.*}} axes = [0] keep_dim : tensor<8xf32> -> tensor<1xf32>
// CHECK-NEXT:   %{{.*}} = rlx.add %{{.*}}, %{{.*}} : (tensor<1xf32>, tensor<f32>) -> tensor<1xf32>
// CHECK-NEXT:   %{{.*}} = rlx.rsqrt %{{.*}} : tensor<1xf32>
// CHECK-NEXT:   %{{.*}} = rlx.mul %{{.*}}, %{{.*}} : (tensor<8xf32>, tensor<1xf32>) -> tensor<8xf32>
// CHECK-NEXT:   %{{.*}} = rlx.mul %{{.*}}, %{{.*}} : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
// CHECK-NEXT:   rlx.yield %{{.*}}, %{{.*}} : tensor<1xf32>, tensor<8xf32>
// CHECK-NEXT: } -> tensor<1xf32>, tensor<8xf32>
// CHECK-NEXT: return %{{.*}}#2, %{{.*}}#0, %{{.*}}#1, %{{.*}}#1, %{{.*}}#0 : tensor<3x4xf16>, tensor<1x4xf32>, tensor<1x4xf32>, tensor<8xf32>, tensor<1xf32>
func.func @saved_statistics(%x: tensor<3x4xf16>, %g: tensor<3xf16>, %v: tensor<8xf32>) -> (tensor<3x4xf16>, tensor<1x4xf32>, tensor<1x4xf32>, tensor<8xf32>, tensor<1xf32>) {
  %0:3 = rlx.layer_norm %x, %g, %g axis = 0 eps = 1.0e-5 with_statistics : (tensor<3x4xf16>, tensor<3xf16>, tensor<3xf16>) -> (tensor<3x4xf16>, tensor<1x4xf32>, tensor<1x4xf32>)
  %1:2 = rlx.rms_norm %v, %v axis = 0 eps = 1.0e-5 with_statistics : (tensor<8xf32>, tensor<8xf32>) -> (tensor<8xf32>, tensor<1xf32>)
  return %0#0, %0#1, %0#2, %1#0, %1#1 : tensor<3x4xf16>, tensor<1x4xf32>, tensor<1x4xf32>, tensor<8xf32>, tensor<1xf32>
}
