// RUN: rlx-opt %s --rlx-to-linalg -split-input-file | FileCheck %s

// Row normalizations (layer_norm, rms_norm) and the cross-entropies are
// decomposed into primitive rlx ops with the row work in an `rlx.region
// row`, which lowers to an scf.forall over the rows (the non-reduced axes).
// Per row: the row of each input is a tensor.extract_slice, each stage of
// dependent reductions is one reduction linalg.generic over the row whose
// result is extracted to a scalar and finished (mean's division, eps,
// rsqrt, log) at row level; a value read by two stages is staged in a row
// buffer (a parallel generic); a final generic writes the row's slice of the
// shared output, inserted with tensor.parallel_insert_slice.
// group_norm, layer_norm2d, batch_norm_inference, ada_layer_norm and rope
// are not row ops: they still lower to whole-tensor linalg.generics.
//
// layer_norm over a middle axis of an f16 tensor: the row is widened once
// into an f32 buffer; stage 1 sums it and the mean is sum / 3; the centered
// row x - mean is staged; stage 2 sums its squares (two passes, never
// E[x^2] - E[x]^2); rstd = rsqrt(var + eps); the final generic scales the
// centered row, applies gamma and beta (widened and reshaped to [3, 1]
// outside the loop) and rounds once to f16.

// CHECK-DAG:   #[[ID3:map[0-9]*]] = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-DAG:   #[[ROW:map[0-9]*]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK-DAG:   #[[AXIS:map[0-9]*]] = affine_map<(d0, d1, d2) -> (d1, d2)>
// CHECK-LABEL: func.func @layer_norm_middle_f16(
// CHECK-SAME:      %[[X:[a-z0-9]+]]: tensor<2x3x4xf16>, %[[G:[a-z0-9]+]]: tensor<3xf16>, %[[B:[a-z0-9]+]]: tensor<3xf16>)
// CHECK-NOT:     rlx.
// CHECK:         %[[EPS:.*]] = arith.constant dense<9.99999974E-6> : tensor<f32>
// CHECK:         %[[GF:.*]] = linalg.generic {{.*}} ins(%[[G]] : tensor<3xf16>) outs(%{{.*}} : tensor<3xf32>)
// CHECK:         %[[G2:.*]] = tensor.expand_shape %[[GF]] {{\[\[}}0, 1]] output_shape [3, 1] : tensor<3xf32> into tensor<3x1xf32>
// CHECK:         %[[BF:.*]] = linalg.generic {{.*}} ins(%[[B]] : tensor<3xf16>) outs(%{{.*}} : tensor<3xf32>)
// CHECK:         %[[B2:.*]] = tensor.expand_shape %[[BF]] {{\[\[}}0, 1]] output_shape [3, 1] : tensor<3xf32> into tensor<3x1xf32>
// CHECK:         %[[FORALL:.*]] = scf.forall (%[[I:.*]], %[[J:.*]]) in (2, 4) shared_outs(%[[OUT:.*]] = %{{.*}}) -> (tensor<2x3x4xf16>) {
// CHECK:           %[[XR:.*]] = tensor.extract_slice %[[X]][%[[I]], 0, %[[J]]] [1, 3, 1] [1, 1, 1] : tensor<2x3x4xf16> to tensor<1x3x1xf16>
// CHECK:           %[[XF:.*]] = linalg.generic
// CHECK-SAME:          ins(%[[XR]] : tensor<1x3x1xf16>) outs(%{{.*}} : tensor<1x3x1xf32>)
// CHECK:             arith.extf %{{.*}} : f16 to f32
// CHECK:           %[[SUMT:.*]] = linalg.generic
// CHECK-SAME:          indexing_maps = [#[[ID3]], #[[ROW]]]
// CHECK-SAME:          iterator_types = ["parallel", "reduction", "parallel"]
// CHECK-SAME:          ins(%[[XF]] : tensor<1x3x1xf32>) outs(%{{.*}} : tensor<1x1xf32>)
// CHECK:             arith.addf
// CHECK:           %[[SUM:.*]] = tensor.extract %[[SUMT]]
// CHECK:           %[[COUNT:.*]] = arith.constant 3.000000e+00 : f32
// CHECK:           %[[MEAN:.*]] = arith.divf %[[SUM]], %[[COUNT]] : f32
// CHECK:           %[[CEN:.*]] = linalg.generic
// CHECK-SAME:          iterator_types = ["parallel", "parallel", "parallel"]
// CHECK-SAME:          ins(%[[XF]] : tensor<1x3x1xf32>) outs(%{{.*}} : tensor<1x3x1xf32>)
// CHECK:             arith.subf %{{.*}}, %[[MEAN]] : f32
// CHECK:           %[[SQT:.*]] = linalg.generic
// CHECK-SAME:          indexing_maps = [#[[ID3]], #[[ROW]]]
// CHECK-SAME:          iterator_types = ["parallel", "reduction", "parallel"]
// CHECK-SAME:          ins(%[[CEN]] : tensor<1x3x1xf32>) outs(%{{.*}} : tensor<1x1xf32>)
// CHECK:           ^bb0(%[[C:[a-z0-9_]+]]: f32, %[[ACC:[a-z0-9_]+]]: f32):
// CHECK:             %[[C2:.*]] = arith.mulf %[[C]], %[[C]] : f32
// CHECK:             arith.addf %[[ACC]], %[[C2]] : f32
// CHECK:           %[[SQ:.*]] = tensor.extract %[[SQT]]
// CHECK:           %[[VAR:.*]] = arith.divf %[[SQ]], %{{.*}} : f32
// CHECK:           %[[OUTR:.*]] = tensor.extract_slice %[[OUT]][%[[I]], 0, %[[J]]] [1, 3, 1] [1, 1, 1]
// CHECK:           %[[E:.*]] = tensor.extract %[[EPS]][] : tensor<f32>
// CHECK:           %[[VE:.*]] = arith.addf %[[VAR]], %[[E]] : f32
// CHECK:           %[[RSTD:.*]] = math.rsqrt %[[VE]] : f32
// CHECK:           %[[GR:.*]] = tensor.extract_slice %[[G2]][0, 0] [3, 1] [1, 1]
// CHECK:           %[[BR:.*]] = tensor.extract_slice %[[B2]][0, 0] [3, 1] [1, 1]
// CHECK:           %[[R:.*]] = linalg.generic
// CHECK-SAME:          indexing_maps = [#[[ID3]], #[[AXIS]], #[[AXIS]], #[[ID3]]]
// CHECK-SAME:          iterator_types = ["parallel", "parallel", "parallel"]
// CHECK-SAME:          ins(%[[CEN]], %[[GR]], %[[BR]] : tensor<1x3x1xf32>, tensor<3x1xf32>, tensor<3x1xf32>) outs(%[[OUTR]] : tensor<1x3x1xf16>)
// CHECK:           ^bb0(%[[IC:[a-z0-9_]+]]: f32, %[[IG:[a-z0-9_]+]]: f32, %[[IB:[a-z0-9_]+]]: f32, %{{[a-z0-9_]+}}: f16):
// CHECK:             %[[N:.*]] = arith.mulf %[[IC]], %[[RSTD]] : f32
// CHECK:             %[[S:.*]] = arith.mulf %[[N]], %[[IG]] : f32
// CHECK:             %[[Y:.*]] = arith.addf %[[S]], %[[IB]] : f32
// CHECK:             %[[YH:.*]] = arith.truncf %[[Y]] : f32 to f16
// CHECK:             linalg.yield %[[YH]] : f16
// CHECK:           scf.forall.in_parallel {
// CHECK-NEXT:        tensor.parallel_insert_slice %[[R]] into %[[OUT]][%[[I]], %{{.*}}, %[[J]]] [1, 3, 1] [1, 1, 1] : tensor<1x3x1xf16> into tensor<2x3x4xf16>
// CHECK:         return %[[FORALL]] : tensor<2x3x4xf16>
func.func @layer_norm_middle_f16(%x: tensor<2x3x4xf16>, %g: tensor<3xf16>, %b: tensor<3xf16>) -> tensor<2x3x4xf16> {
  %0 = rlx.layer_norm %x, %g, %b axis = 1 eps = 1.0e-5 : (tensor<2x3x4xf16>, tensor<3xf16>, tensor<3xf16>) -> tensor<2x3x4xf16>
  return %0 : tensor<2x3x4xf16>
}

// -----

// rms_norm does not center: one stage reducing x^2 over the row, no mean
// subtraction, no beta; the final generic re-reads the input row.

// CHECK-DAG:   #[[ID2:map[0-9]*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG:   #[[ROW:map[0-9]*]] = affine_map<(d0, d1) -> (d0)>
// CHECK-DAG:   #[[AXIS:map[0-9]*]] = affine_map<(d0, d1) -> (d1)>
// CHECK-LABEL: func.func @rms_norm(
// CHECK-SAME:      %[[X:[a-z0-9]+]]: tensor<4x8xf32>, %[[G:[a-z0-9]+]]: tensor<8xf32>)
// CHECK:         %[[FORALL:.*]] = scf.forall (%[[I:.*]]) in (4) shared_outs(%[[OUT:.*]] = %{{.*}}) -> (tensor<4x8xf32>) {
// CHECK:           %[[XR:.*]] = tensor.extract_slice %[[X]][%[[I]], 0] [1, 8] [1, 1]
// CHECK:           %[[SQT:.*]] = linalg.generic
// CHECK-SAME:          indexing_maps = [#[[ID2]], #[[ROW]]]
// CHECK-SAME:          iterator_types = ["parallel", "reduction"]
// CHECK-SAME:          ins(%[[XR]] : tensor<1x8xf32>)
// CHECK:             %[[X2:.*]] = arith.mulf %[[IN:.*]], %[[IN]] : f32
// CHECK:             arith.addf %{{.*}}, %[[X2]] : f32
// CHECK:           %[[SQ:.*]] = tensor.extract %[[SQT]]
// CHECK:           %[[COUNT:.*]] = arith.constant 8.000000e+00 : f32
// CHECK:           %[[MS:.*]] = arith.divf %[[SQ]], %[[COUNT]] : f32
// CHECK:           %[[OUTR:.*]] = tensor.extract_slice %[[OUT]][%[[I]], 0] [1, 8] [1, 1]
// CHECK:           %[[VE:.*]] = arith.addf %[[MS]], %{{.*}} : f32
// CHECK:           %[[RSTD:.*]] = math.rsqrt %[[VE]] : f32
// CHECK:           %[[XR2:.*]] = tensor.extract_slice %[[X]][%[[I]], 0] [1, 8] [1, 1]
// CHECK:           %[[GR:.*]] = tensor.extract_slice %[[G]][0] [8] [1]
// CHECK:           %[[R:.*]] = linalg.generic
// CHECK-SAME:          indexing_maps = [#[[ID2]], #[[AXIS]], #[[ID2]]]
// CHECK-SAME:          ins(%[[XR2]], %[[GR]] : tensor<1x8xf32>, tensor<8xf32>) outs(%[[OUTR]] : tensor<1x8xf32>)
// CHECK-NOT:         arith.subf
// CHECK:             %[[N:.*]] = arith.mulf %{{.*}}, %[[RSTD]] : f32
// CHECK-NEXT:        %[[Y:.*]] = arith.mulf %[[N]],
// CHECK-NEXT:        linalg.yield %[[Y]] : f32
// CHECK:           scf.forall.in_parallel {
// CHECK-NEXT:        tensor.parallel_insert_slice %[[R]] into %[[OUT]]
// CHECK:         return %[[FORALL]]
func.func @rms_norm(%x: tensor<4x8xf32>, %g: tensor<8xf32>) -> tensor<4x8xf32> {
  %0 = rlx.rms_norm %x, %g axis = -1 eps = 1.0e-5 : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

// group_norm is a row op: [N, C, L] is viewed as [N, G, C/G, L] (and gamma,
// beta as [G, C/G, 1]) and each (n, g) row of C/G x L elements is one
// scf.forall iteration with two reduction stages over its last two axes.

// CHECK-LABEL: func.func @group_norm(
// CHECK-SAME:      %[[X:[a-z0-9]+]]: tensor<2x6x5xf32>, %[[G:[a-z0-9]+]]: tensor<6xf32>, %[[B:[a-z0-9]+]]: tensor<6xf32>)
// CHECK:         %[[GROUPED:.*]] = tensor.expand_shape %{{.*}} output_shape [2, 3, 2, 5] : tensor<60xf32> into tensor<2x3x2x5xf32>
// CHECK:         %[[GG:.*]] = tensor.expand_shape %[[G]] {{.*}} output_shape [3, 2, 1]
// CHECK:         scf.forall (%[[N:.*]], %[[GRP:.*]]) in (2, 3)
// CHECK:           tensor.extract_slice %[[GROUPED]][%[[N]], %[[GRP]], 0, 0] [1, 1, 2, 5]
// CHECK:           linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "reduction", "reduction"]
// CHECK:           linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "reduction", "reduction"]
// CHECK:           math.rsqrt
// CHECK:           tensor.extract_slice %[[GG]][%[[GRP]], 0, 0] [1, 2, 1]
// CHECK:           linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "parallel", "parallel"]
// CHECK:           tensor.parallel_insert_slice
// CHECK:         %[[OUT:.*]] = tensor.expand_shape %{{.*}} output_shape [2, 6, 5] : tensor<60xf32> into tensor<2x6x5xf32>
// CHECK:         return %[[OUT]]
func.func @group_norm(%x: tensor<2x6x5xf32>, %g: tensor<6xf32>, %b: tensor<6xf32>) -> tensor<2x6x5xf32> {
  %0 = rlx.group_norm %x, %g, %b groups = 3 eps = 1.0e-5 : (tensor<2x6x5xf32>, tensor<6xf32>, tensor<6xf32>) -> tensor<2x6x5xf32>
  return %0 : tensor<2x6x5xf32>
}

// -----

// layer_norm2d is layer_norm over axis 1: one row per (n, h, w), the row
// running along the channels (strided), gamma and beta viewed as [C, 1, 1].

// CHECK-LABEL: func.func @layer_norm2d(
// CHECK:         tensor.expand_shape %{{.*}} output_shape [4, 1, 1] : tensor<4xf32> into tensor<4x1x1xf32>
// CHECK:         scf.forall (%{{.*}}, %{{.*}}, %{{.*}}) in (2, 3, 5)
// CHECK:           tensor.extract_slice %{{.*}} [1, 4, 1, 1]
// CHECK:           linalg.generic {{.*}} iterator_types = ["parallel", "reduction", "parallel", "parallel"]
// CHECK:           linalg.generic {{.*}} iterator_types = ["parallel", "reduction", "parallel", "parallel"]
// CHECK:           math.rsqrt
// CHECK:           tensor.parallel_insert_slice
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

// CHECK-DAG:   #[[MOD:map[0-9]*]] = affine_map<(d0, d1, d2) -> (d0, 0, d2)>
// CHECK-LABEL: func.func @modulation(
// CHECK-SAME:      %[[X:[a-z0-9]+]]: tensor<2x5x8xf32>, %[[M:[a-z0-9]+]]: tensor<2x1x8xf32>)
// CHECK:         %[[ONE:.*]] = arith.constant dense<1.000000e+00> : tensor<f32>
// CHECK:         %[[FACTOR:.*]] = linalg.generic
// CHECK-SAME:        ins(%[[ONE]], %[[M]] : tensor<f32>, tensor<2x1x8xf32>)
// CHECK:           arith.addf
// CHECK:         %[[ADA:.*]] = scf.forall (%{{.*}}, %{{.*}}) in (2, 5)
// CHECK:           linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "reduction"]
// CHECK:           math.rsqrt
// CHECK:           tensor.extract_slice %[[FACTOR]]
// CHECK:           tensor.parallel_insert_slice
// CHECK:         %[[GATED:.*]] = linalg.generic
// CHECK-SAME:        indexing_maps = [#{{map[0-9]*}}, #{{map[0-9]*}}, #[[MOD]], #{{map[0-9]*}}]
// CHECK-SAME:        ins(%[[X]], %[[ADA]], %[[M]] :
// CHECK:         ^bb0(%[[IX:[a-z0-9_]+]]: f32, %[[IY:[a-z0-9_]+]]: f32, %[[IG:[a-z0-9_]+]]: f32, %{{.*}}: f32):
// CHECK:           %[[P:.*]] = arith.mulf %[[IG]], %[[IY]] : f32
// CHECK:           %[[S:.*]] = arith.addf %[[IX]], %[[P]] : f32
// CHECK:           linalg.yield %[[S]] : f32
// CHECK:         return %[[GATED]]
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

// softmax_cross_entropy: per row, stage 1 is the max; stage 2 sums
// exp(x - max) (computed in the reduction body, nothing staged); the scalar
// lse = max + log(sum); stage 3 reduces target * (lse - x). The per-row loss
// is written as a 1x1 slice of a [3, 1] output collapsed to [3].

// CHECK-DAG:   #[[ID2:map[0-9]*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG:   #[[ROW:map[0-9]*]] = affine_map<(d0, d1) -> (d0)>
// CHECK-LABEL: func.func @cross_entropy(
// CHECK-SAME:      %[[L:[a-z0-9]+]]: tensor<3x10xf32>, %[[T:[a-z0-9]+]]: tensor<3x10xf32>)
// CHECK:         %[[FORALL:.*]] = scf.forall (%[[I:.*]]) in (3) shared_outs(%[[OUT:.*]] = %{{.*}}) -> (tensor<3x1xf32>) {
// CHECK:           %[[LR:.*]] = tensor.extract_slice %[[L]][%[[I]], 0] [1, 10] [1, 1]
// CHECK:           %[[NEGINF:.*]] = arith.constant 0xFF800000 : f32
// CHECK:           %[[INIT:.*]] = linalg.fill ins(%[[NEGINF]] : f32)
// CHECK:           %[[MAXT:.*]] = linalg.generic
// CHECK-SAME:          iterator_types = ["parallel", "reduction"]
// CHECK-SAME:          ins(%[[LR]] : tensor<1x10xf32>) outs(%[[INIT]] : tensor<1xf32>)
// CHECK:             arith.maximumf
// CHECK:           %[[MAX:.*]] = tensor.extract %[[MAXT]]
// CHECK:           %[[SUMT:.*]] = linalg.generic
// CHECK-SAME:          iterator_types = ["parallel", "reduction"]
// CHECK:             %[[D:.*]] = arith.subf %{{.*}}, %[[MAX]] : f32
// CHECK:             %[[E:.*]] = math.exp %[[D]] : f32
// CHECK:             arith.addf %{{.*}}, %[[E]] : f32
// CHECK:           %[[SUM:.*]] = tensor.extract %[[SUMT]]
// CHECK:           %[[LOG:.*]] = math.log %[[SUM]] : f32
// CHECK:           %[[LSE:.*]] = arith.addf %[[MAX]], %[[LOG]] : f32
// CHECK:           %[[TR:.*]] = tensor.extract_slice %[[T]][%[[I]], 0] [1, 10] [1, 1]
// CHECK:           %[[LR3:.*]] = tensor.extract_slice %[[L]][%[[I]], 0] [1, 10] [1, 1]
// CHECK:           %[[LOSST:.*]] = linalg.generic
// CHECK-SAME:          indexing_maps = [#[[ID2]], #[[ID2]], #[[ROW]]]
// CHECK-SAME:          iterator_types = ["parallel", "reduction"]
// CHECK-SAME:          ins(%[[TR]], %[[LR3]] : tensor<1x10xf32>, tensor<1x10xf32>)
// CHECK:           ^bb0(%[[IT:[a-z0-9_]+]]: f32, %[[IL:[a-z0-9_]+]]: f32, %[[ACC:[a-z0-9_]+]]: f32):
// CHECK:             %[[DL:.*]] = arith.subf %[[LSE]], %[[IL]] : f32
// CHECK:             %[[W:.*]] = arith.mulf %[[IT]], %[[DL]] : f32
// CHECK:             %[[S:.*]] = arith.addf %[[ACC]], %[[W]] : f32
// CHECK:             linalg.yield %[[S]] : f32
// CHECK:           %[[LOSS:.*]] = tensor.extract %[[LOSST]]
// CHECK:           %[[LOSS1:.*]] = tensor.from_elements %[[LOSS]] : tensor<1x1xf32>
// CHECK:           scf.forall.in_parallel {
// CHECK-NEXT:        tensor.parallel_insert_slice %[[LOSS1]] into %[[OUT]][%[[I]], %{{.*}}] [1, 1] [1, 1] : tensor<1x1xf32> into tensor<3x1xf32>
// CHECK:         %[[R:.*]] = tensor.collapse_shape %[[FORALL]] {{\[\[}}0, 1]] : tensor<3x1xf32> into tensor<3xf32>
// CHECK:         return %[[R]]
func.func @cross_entropy(%l: tensor<3x10xf32>, %t: tensor<3x10xf32>) -> tensor<3xf32> {
  %0 = rlx.softmax_cross_entropy %l, %t : (tensor<3x10xf32>, tensor<3x10xf32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

// With labels, the labelled logit is picked by a reduction comparing the
// column index (an rlx.iota: a generic of linalg.index, no constant of C
// elements) with the row's label (no load at the label's index); it shares one generic (two accumulators) with the max,
// as both are in the first stage. f16 logits are widened once into an f32
// row buffer. Rows with a label outside [0, C) give NaN; the loss is
// rounded once to f16.

// CHECK-LABEL: func.func @cross_entropy_labels(
// CHECK-SAME:      %[[L:[a-z0-9]+]]: tensor<3x10xf16>, %[[Y:[a-z0-9]+]]: tensor<3xi32>)
// CHECK:         %[[Y2:.*]] = tensor.expand_shape %[[Y]] {{\[\[}}0, 1]] output_shape [3, 1] : tensor<3xi32> into tensor<3x1xi32>
// CHECK:         %[[IOTA:.*]] = linalg.generic
// CHECK-SAME:        outs(%{{.*}} : tensor<10xi32>)
// CHECK-NEXT:      ^bb0(%{{.*}}: i32):
// CHECK-NEXT:        %[[COLUMN:.*]] = linalg.index 0 : index
// CHECK-NEXT:        %[[CAST:.*]] = arith.index_cast %[[COLUMN]] : index to i32
// CHECK-NEXT:        linalg.yield %[[CAST]] : i32
// CHECK:         %[[NAN:.*]] = arith.constant dense<0x7FC00000> : tensor<f32>
// CHECK:         %[[FORALL:.*]] = scf.forall (%[[I:.*]]) in (3) shared_outs(%[[OUT:.*]] = %{{.*}}) -> (tensor<3x1xf16>) {
// CHECK:           %[[LR:.*]] = tensor.extract_slice %[[L]][%[[I]], 0] [1, 10] [1, 1]
// CHECK:           %[[LF:.*]] = linalg.generic
// CHECK-SAME:          ins(%[[LR]] : tensor<1x10xf16>) outs(%{{.*}} : tensor<1x10xf32>)
// CHECK:             arith.extf %{{.*}} : f16 to f32
// CHECK:           %[[IOTAR:.*]] = tensor.extract_slice %[[IOTA]][0] [10] [1]
// CHECK:           %[[YR:.*]] = tensor.extract_slice %[[Y2]][%[[I]], 0] [1, 1] [1, 1]
// CHECK:           %[[ST1:.*]]:2 = linalg.generic
// CHECK-SAME:          iterator_types = ["parallel", "reduction"]
// CHECK-SAME:          ins(%[[IOTAR]], %[[YR]], %[[LF]], %{{.*}} : tensor<10xi32>, tensor<1x1xi32>, tensor<1x10xf32>, tensor<f32>)
// CHECK-SAME:          outs(%{{.*}}, %{{.*}} : tensor<1xf32>, tensor<1xf32>)
// CHECK:           ^bb0(%[[COL:[a-z0-9_]+]]: i32, %[[IY:[a-z0-9_]+]]: i32, %[[IL:[a-z0-9_]+]]: f32, %[[IZ:[a-z0-9_]+]]: f32, %[[ACC:[a-z0-9_]+]]: f32, %[[MACC:[a-z0-9_]+]]: f32):
// CHECK:             %[[HIT:.*]] = arith.cmpi eq, %[[COL]], %[[IY]] : i32
// CHECK:             %[[SEL:.*]] = arith.select %[[HIT]], %[[IL]], %[[IZ]] : f32
// CHECK:             %[[PS:.*]] = arith.addf %[[ACC]], %[[SEL]] : f32
// CHECK:             %[[M:.*]] = arith.maximumf %[[MACC]], %[[IL]] : f32
// CHECK:             linalg.yield %[[PS]], %[[M]] : f32, f32
// CHECK:           %[[PICKED:.*]] = tensor.extract %[[ST1]]#0
// CHECK:           %[[MAX:.*]] = tensor.extract %[[ST1]]#1
// CHECK:           %[[SUMT:.*]] = linalg.generic
// CHECK-SAME:          iterator_types = ["parallel", "reduction"]
// CHECK-SAME:          ins(%[[LF]] : tensor<1x10xf32>)
// CHECK:             arith.subf %{{.*}}, %[[MAX]] : f32
// CHECK:             math.exp
// CHECK:           %[[SUM:.*]] = tensor.extract %[[SUMT]]
// CHECK:           %[[LABEL:.*]] = tensor.extract %[[Y2]][%[[I]], %{{.*}}] : tensor<3x1xi32>
// CHECK:           %[[GE:.*]] = arith.cmpi sge, %[[LABEL]], %{{.*}} : i32
// CHECK:           %[[LT:.*]] = arith.cmpi slt, %[[LABEL]], %{{.*}} : i32
// CHECK:           %[[OK:.*]] = arith.andi %[[GE]], %[[LT]] : i1
// CHECK:           %[[LOG:.*]] = math.log %[[SUM]] : f32
// CHECK:           %[[LSE:.*]] = arith.addf %[[MAX]], %[[LOG]] : f32
// CHECK:           %[[LOSS:.*]] = arith.subf %[[LSE]], %[[PICKED]] : f32
// CHECK:           %[[NANV:.*]] = tensor.extract %[[NAN]][] : tensor<f32>
// CHECK:           %[[V:.*]] = arith.select %[[OK]], %[[LOSS]], %[[NANV]] : f32
// CHECK:           %[[H:.*]] = arith.truncf %[[V]] : f32 to f16
// CHECK:           %[[H1:.*]] = tensor.from_elements %[[H]] : tensor<1x1xf16>
// CHECK:           scf.forall.in_parallel {
// CHECK-NEXT:        tensor.parallel_insert_slice %[[H1]] into %[[OUT]][%[[I]], %{{.*}}] [1, 1] [1, 1] : tensor<1x1xf16> into tensor<3x1xf16>
// CHECK:         %[[R:.*]] = tensor.collapse_shape %[[FORALL]] {{\[\[}}0, 1]] : tensor<3x1xf16> into tensor<3xf16>
// CHECK:         return %[[R]]
func.func @cross_entropy_labels(%l: tensor<3x10xf16>, %y: tensor<3xi32>) -> tensor<3xf16> {
  %0 = rlx.softmax_cross_entropy_with_labels %l, %y : (tensor<3x10xf16>, tensor<3xi32>) -> tensor<3xf16>
  return %0 : tensor<3xf16>
}

// -----

// with_statistics also returns the mean and rstd the normalization used
// (f32 for an f16 input): they are per-row scalars written as 1x1 slices of
// their own shared outputs of the same scf.forall. A rank-1 input has a
// single row: no scf.forall, a rank-0 accumulator, and the statistic is
// built with tensor.from_elements.

// CHECK-LABEL: func.func @saved_statistics(
// CHECK:         %[[FORALL:.*]]:3 = scf.forall (%[[I:.*]]) in (4) shared_outs(%[[OM:.*]] = %{{.*}}, %[[OR:.*]] = %{{.*}}, %[[OY:.*]] = %{{.*}}) -> (tensor<1x4xf32>, tensor<1x4xf32>, tensor<3x4xf16>) {
// CHECK:           tensor.extract_slice %{{.*}}[0, %[[I]]] [3, 1] [1, 1] : tensor<3x4xf16> to tensor<3x1xf16>
// CHECK:           linalg.generic {{.*}} iterator_types = ["reduction", "parallel"]
// CHECK:           %[[MEAN:.*]] = arith.divf
// CHECK:           linalg.generic {{.*}} iterator_types = ["reduction", "parallel"]
// CHECK:           %[[RSTD:.*]] = math.rsqrt
// CHECK:           %[[Y:.*]] = linalg.generic
// CHECK:             arith.truncf %{{.*}} : f32 to f16
// CHECK:           %[[SM:.*]] = tensor.from_elements %[[MEAN]] : tensor<1x1xf32>
// CHECK:           %[[SR:.*]] = tensor.from_elements %[[RSTD]] : tensor<1x1xf32>
// CHECK:           scf.forall.in_parallel {
// CHECK-NEXT:        tensor.parallel_insert_slice %[[SM]] into %[[OM]][%{{.*}}, %[[I]]] [1, 1] [1, 1] : tensor<1x1xf32> into tensor<1x4xf32>
// CHECK-NEXT:        tensor.parallel_insert_slice %[[SR]] into %[[OR]][%{{.*}}, %[[I]]] [1, 1] [1, 1] : tensor<1x1xf32> into tensor<1x4xf32>
// CHECK-NEXT:        tensor.parallel_insert_slice %[[Y]] into %[[OY]][%{{.*}}, %[[I]]] [3, 1] [1, 1] : tensor<3x1xf16> into tensor<3x4xf16>
// CHECK-NOT:     scf.forall
// CHECK:         %[[SQT:.*]] = linalg.generic {{.*}} iterator_types = ["reduction"]
// CHECK-SAME:        outs(%{{.*}} : tensor<f32>)
// CHECK:         %[[SQ:.*]] = tensor.extract %[[SQT]][] : tensor<f32>
// CHECK:         %[[RMS:.*]] = math.rsqrt
// CHECK:         %[[Z:.*]] = linalg.generic
// CHECK-SAME:        iterator_types = ["parallel"]
// CHECK:           arith.mulf %{{.*}}, %[[RMS]] : f32
// CHECK:         %[[SZ:.*]] = tensor.from_elements %[[RMS]] : tensor<1xf32>
// CHECK:         return %[[FORALL]]#2, %[[FORALL]]#0, %[[FORALL]]#1, %[[Z]], %[[SZ]]
func.func @saved_statistics(%x: tensor<3x4xf16>, %g: tensor<3xf16>, %v: tensor<8xf32>) -> (tensor<3x4xf16>, tensor<1x4xf32>, tensor<1x4xf32>, tensor<8xf32>, tensor<1xf32>) {
  %0:3 = rlx.layer_norm %x, %g, %g axis = 0 eps = 1.0e-5 with_statistics : (tensor<3x4xf16>, tensor<3xf16>, tensor<3xf16>) -> (tensor<3x4xf16>, tensor<1x4xf32>, tensor<1x4xf32>)
  %1:2 = rlx.rms_norm %v, %v axis = 0 eps = 1.0e-5 with_statistics : (tensor<8xf32>, tensor<8xf32>) -> (tensor<8xf32>, tensor<1xf32>)
  return %0#0, %0#1, %0#2, %1#0, %1#1 : tensor<3x4xf16>, tensor<1x4xf32>, tensor<1x4xf32>, tensor<8xf32>, tensor<1xf32>
}
