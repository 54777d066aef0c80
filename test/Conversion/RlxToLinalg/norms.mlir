// RUN: rlx-opt %s --rlx-to-linalg -split-input-file | FileCheck %s

// layer_norm over a middle axis of an f16 tensor: a sum reduction (in f32),
// the mean, a reduction of the squared centered values (two passes, never
// E[x^2] - E[x]^2), rsqrt(var + eps), then one elementwise generic that
// centers, scales, applies gamma and beta read along the axis, and rounds
// once to f16.

// CHECK-DAG:   #[[ID3:map[0-9]*]] = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-DAG:   #[[ROW:map[0-9]*]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK-DAG:   #[[AXIS:map[0-9]*]] = affine_map<(d0, d1, d2) -> (d1)>
// CHECK-LABEL: func.func @layer_norm_middle_f16(
// CHECK-SAME:      %[[X:[a-z0-9]+]]: tensor<2x3x4xf16>, %[[G:[a-z0-9]+]]: tensor<3xf16>, %[[B:[a-z0-9]+]]: tensor<3xf16>)
// CHECK:         %[[SUM:.*]] = linalg.generic
// CHECK-SAME:        indexing_maps = [#[[ID3]], #[[ROW]]]
// CHECK-SAME:        iterator_types = ["parallel", "reduction", "parallel"]
// CHECK-SAME:        ins(%[[X]] : tensor<2x3x4xf16>) outs(%{{.*}} : tensor<2x4xf32>)
// CHECK:           arith.extf %{{.*}} : f16 to f32
// CHECK:           arith.addf
// CHECK:         %[[MEAN:.*]] = linalg.generic
// CHECK-SAME:        ins(%[[SUM]] : tensor<2x4xf32>)
// CHECK:           %[[COUNT:.*]] = arith.constant 3.000000e+00 : f32
// CHECK:           arith.divf %{{.*}}, %[[COUNT]] : f32
// CHECK:         %[[SQ:.*]] = linalg.generic
// CHECK-SAME:        indexing_maps = [#[[ID3]], #[[ROW]], #[[ROW]]]
// CHECK-SAME:        iterator_types = ["parallel", "reduction", "parallel"]
// CHECK-SAME:        ins(%[[X]], %[[MEAN]] : tensor<2x3x4xf16>, tensor<2x4xf32>)
// CHECK:           %[[XF:.*]] = arith.extf %{{.*}} : f16 to f32
// CHECK:           %[[C:.*]] = arith.subf %[[XF]], %{{.*}} : f32
// CHECK:           %[[C2:.*]] = arith.mulf %[[C]], %[[C]] : f32
// CHECK:           arith.addf %{{.*}}, %[[C2]] : f32
// CHECK:         %[[RSTD:.*]] = linalg.generic
// CHECK-SAME:        ins(%[[SQ]] : tensor<2x4xf32>)
// CHECK:           arith.divf
// CHECK:           %[[EPS:.*]] = arith.constant 9.99999974E-6 : f32
// CHECK:           %[[VE:.*]] = arith.addf %{{.*}}, %[[EPS]] : f32
// CHECK:           math.rsqrt %[[VE]] : f32
// CHECK:         %[[R:.*]] = linalg.generic
// CHECK-SAME:        indexing_maps = [#[[ID3]], #[[ROW]], #[[ROW]], #[[AXIS]], #[[AXIS]], #[[ID3]]]
// CHECK-SAME:        iterator_types = ["parallel", "parallel", "parallel"]
// CHECK-SAME:        ins(%[[X]], %[[RSTD]], %[[MEAN]], %[[G]], %[[B]] :
// CHECK:           arith.subf
// CHECK:           arith.mulf
// CHECK:           arith.mulf
// CHECK:           arith.addf
// CHECK:           %[[OUT:.*]] = arith.truncf %{{.*}} : f32 to f16
// CHECK-NEXT:      linalg.yield %[[OUT]] : f16
// CHECK:         return %[[R]] : tensor<2x3x4xf16>
func.func @layer_norm_middle_f16(%x: tensor<2x3x4xf16>, %g: tensor<3xf16>, %b: tensor<3xf16>) -> tensor<2x3x4xf16> {
  %0 = rlx.layer_norm %x, %g, %b axis = 1 eps = 1.0e-5 : (tensor<2x3x4xf16>, tensor<3xf16>, tensor<3xf16>) -> tensor<2x3x4xf16>
  return %0 : tensor<2x3x4xf16>
}

// -----

// rms_norm does not center: one reduction of x^2, no mean, no beta.

// CHECK-DAG:   #[[ROW:map[0-9]*]] = affine_map<(d0, d1) -> (d0)>
// CHECK-DAG:   #[[AXIS:map[0-9]*]] = affine_map<(d0, d1) -> (d1)>
// CHECK-LABEL: func.func @rms_norm(
// CHECK-SAME:      %[[X:[a-z0-9]+]]: tensor<4x8xf32>, %[[G:[a-z0-9]+]]: tensor<8xf32>)
// CHECK:         %[[SQ:.*]] = linalg.generic
// CHECK-SAME:        iterator_types = ["parallel", "reduction"]
// CHECK-SAME:        ins(%[[X]] : tensor<4x8xf32>)
// CHECK:           %[[X2:.*]] = arith.mulf %[[IN:.*]], %[[IN]] : f32
// CHECK:           arith.addf %{{.*}}, %[[X2]] : f32
// CHECK:         %[[RSTD:.*]] = linalg.generic
// CHECK:           math.rsqrt
// CHECK:         %[[R:.*]] = linalg.generic
// CHECK-SAME:        indexing_maps = [#{{map[0-9]*}}, #[[ROW]], #[[AXIS]], #{{map[0-9]*}}]
// CHECK-SAME:        ins(%[[X]], %[[RSTD]], %[[G]] : tensor<4x8xf32>, tensor<4xf32>, tensor<8xf32>)
// CHECK-NOT:       arith.subf
// CHECK:           %[[N:.*]] = arith.mulf
// CHECK-NEXT:      %[[Y:.*]] = arith.mulf %[[N]],
// CHECK-NEXT:      linalg.yield %[[Y]] : f32
// CHECK:         return %[[R]]
func.func @rms_norm(%x: tensor<4x8xf32>, %g: tensor<8xf32>) -> tensor<4x8xf32> {
  %0 = rlx.rms_norm %x, %g axis = -1 eps = 1.0e-5 : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

// group_norm views [N, C, L] as [N, G, C/G, L], reduces the last two
// dimensions, and reads gamma/beta at channel g * (C/G) + c.

// CHECK-DAG:   #[[ID4:map[0-9]*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// CHECK-DAG:   #[[GROUP:map[0-9]*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1)>
// CHECK-DAG:   #[[CHANNEL:map[0-9]*]] = affine_map<(d0, d1, d2, d3) -> (d1 * 2 + d2)>
// CHECK-LABEL: func.func @group_norm(
// CHECK-SAME:      %[[X:[a-z0-9]+]]: tensor<2x6x5xf32>, %[[G:[a-z0-9]+]]: tensor<6xf32>, %[[B:[a-z0-9]+]]: tensor<6xf32>)
// CHECK:         %[[GROUPED:.*]] = tensor.expand_shape %[[X]] {{\[\[}}0], [1, 2], [3]] output_shape [2, 3, 2, 5] : tensor<2x6x5xf32> into tensor<2x3x2x5xf32>
// CHECK:         linalg.generic
// CHECK-SAME:        indexing_maps = [#[[ID4]], #[[GROUP]]]
// CHECK-SAME:        iterator_types = ["parallel", "parallel", "reduction", "reduction"]
// CHECK-SAME:        ins(%[[GROUPED]] : tensor<2x3x2x5xf32>) outs(%{{.*}} : tensor<2x3xf32>)
// CHECK:         linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "reduction", "reduction"]
// CHECK:           math.rsqrt
// CHECK:         %[[R:.*]] = linalg.generic
// CHECK-SAME:        indexing_maps = [#[[ID4]], #[[GROUP]], #[[GROUP]], #[[CHANNEL]], #[[CHANNEL]], #[[ID4]]]
// CHECK-SAME:        ins(%[[GROUPED]], %{{.*}}, %{{.*}}, %[[G]], %[[B]] :
// CHECK:         %[[OUT:.*]] = tensor.collapse_shape %[[R]] {{\[\[}}0], [1, 2], [3]] : tensor<2x3x2x5xf32> into tensor<2x6x5xf32>
// CHECK:         return %[[OUT]]
func.func @group_norm(%x: tensor<2x6x5xf32>, %g: tensor<6xf32>, %b: tensor<6xf32>) -> tensor<2x6x5xf32> {
  %0 = rlx.group_norm %x, %g, %b groups = 3 eps = 1.0e-5 : (tensor<2x6x5xf32>, tensor<6xf32>, tensor<6xf32>) -> tensor<2x6x5xf32>
  return %0 : tensor<2x6x5xf32>
}

// -----

// layer_norm2d reduces the channel axis 1 of NCHW.

// CHECK-DAG:   #[[PIXEL:map[0-9]*]] = affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>
// CHECK-DAG:   #[[CHANNEL:map[0-9]*]] = affine_map<(d0, d1, d2, d3) -> (d1)>
// CHECK-LABEL: func.func @layer_norm2d(
// CHECK:         linalg.generic
// CHECK-SAME:        iterator_types = ["parallel", "reduction", "parallel", "parallel"]
// CHECK-SAME:        outs(%{{.*}} : tensor<2x3x5xf32>)
// CHECK:         linalg.generic {{.*}} iterator_types = ["parallel", "reduction", "parallel", "parallel"]
// CHECK:           math.rsqrt
// CHECK:         linalg.generic
// CHECK-SAME:        indexing_maps = [#{{map[0-9]*}}, #[[PIXEL]], #[[PIXEL]], #[[CHANNEL]], #[[CHANNEL]], #{{map[0-9]*}}]
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

// ada_layer_norm reads scale and shift through the broadcast map (size-1
// dimensions read index 0); gated_residual likewise reads its gate.

// CHECK-DAG:   #[[MOD:map[0-9]*]] = affine_map<(d0, d1, d2) -> (d0, 0, d2)>
// CHECK-LABEL: func.func @modulation(
// CHECK-SAME:      %[[X:[a-z0-9]+]]: tensor<2x5x8xf32>, %[[M:[a-z0-9]+]]: tensor<2x1x8xf32>)
// CHECK:         linalg.generic
// CHECK-SAME:        iterator_types = ["parallel", "parallel", "reduction"]
// CHECK:         linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "reduction"]
// CHECK:           math.rsqrt
// CHECK:         %[[ADA:.*]] = linalg.generic
// CHECK-SAME:        indexing_maps = [#{{map[0-9]*}}, #{{map[0-9]*}}, #{{map[0-9]*}}, #[[MOD]], #[[MOD]], #{{map[0-9]*}}]
// CHECK-SAME:        ins(%[[X]], %{{.*}}, %{{.*}}, %[[M]], %[[M]] :
// CHECK:           %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// CHECK:           arith.addf %{{.*}}, %[[ONE]] : f32
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
  %0 = rlx.rope neox %x, %cos, %sin head_dim = 6, n_rot = 4 : (tensor<2x5x12xf32>, tensor<5x2xf32>, tensor<5x2xf32>) -> tensor<2x5x12xf32>
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
  %0 = rlx.rope gptj %x, %cos, %cos head_dim = 8, n_rot = 8 : (tensor<3x8xf16>, tensor<3x4xf16>, tensor<3x4xf16>) -> tensor<3x8xf16>
  return %0 : tensor<3x8xf16>
}

// -----

// softmax_cross_entropy: row max, sum of exp(x - max), lse = max + log(sum),
// then a reduction of target * (lse - x).

// CHECK-DAG:   #[[ID2:map[0-9]*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG:   #[[ROW:map[0-9]*]] = affine_map<(d0, d1) -> (d0)>
// CHECK-LABEL: func.func @cross_entropy(
// CHECK-SAME:      %[[L:[a-z0-9]+]]: tensor<3x10xf32>, %[[T:[a-z0-9]+]]: tensor<3x10xf32>)
// CHECK:         %[[NEGINF:.*]] = arith.constant 0xFF800000 : f32
// CHECK:         %[[INIT:.*]] = linalg.fill ins(%[[NEGINF]] : f32)
// CHECK:         %[[MAX:.*]] = linalg.generic
// CHECK-SAME:        outs(%[[INIT]] : tensor<3xf32>)
// CHECK:           arith.maximumf
// CHECK:         %[[SUM:.*]] = linalg.generic
// CHECK-SAME:        ins(%[[L]], %[[MAX]] : tensor<3x10xf32>, tensor<3xf32>)
// CHECK:           arith.subf
// CHECK:           math.exp
// CHECK:         %[[LSE:.*]] = linalg.generic
// CHECK-SAME:        ins(%[[MAX]], %[[SUM]] : tensor<3xf32>, tensor<3xf32>)
// CHECK:           math.log
// CHECK:         %[[LOSS:.*]] = linalg.generic
// CHECK-SAME:        indexing_maps = [#[[ID2]], #[[ID2]], #[[ROW]], #[[ROW]]]
// CHECK-SAME:        iterator_types = ["parallel", "reduction"]
// CHECK-SAME:        ins(%[[L]], %[[T]], %[[LSE]] :
// CHECK:         ^bb0(%[[IL:[a-z0-9_]+]]: f32, %[[IT:[a-z0-9_]+]]: f32, %[[ILSE:[a-z0-9_]+]]: f32, %[[ACC:[a-z0-9_]+]]: f32):
// CHECK:           %[[D:.*]] = arith.subf %[[ILSE]], %[[IL]] : f32
// CHECK:           %[[W:.*]] = arith.mulf %[[IT]], %[[D]] : f32
// CHECK:           %[[S:.*]] = arith.addf %[[ACC]], %[[W]] : f32
// CHECK:           linalg.yield %[[S]] : f32
// CHECK:         return %[[LOSS]]
func.func @cross_entropy(%l: tensor<3x10xf32>, %t: tensor<3x10xf32>) -> tensor<3xf32> {
  %0 = rlx.softmax_cross_entropy %l, %t : (tensor<3x10xf32>, tensor<3x10xf32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

// With labels, the labelled logit is picked by a reduction comparing the
// column index with the label (no load at the label's index), and rows with
// a label outside [0, C) give NaN.

// CHECK-LABEL: func.func @cross_entropy_labels(
// CHECK-SAME:      %[[L:[a-z0-9]+]]: tensor<3x10xf16>, %[[Y:[a-z0-9]+]]: tensor<3xi32>)
// CHECK:         math.exp
// CHECK:         %[[LSE:.*]] = linalg.generic
// CHECK:           math.log
// CHECK:         %[[PICKED:.*]] = linalg.generic
// CHECK-SAME:        iterator_types = ["parallel", "reduction"]
// CHECK-SAME:        ins(%[[L]], %[[Y]] : tensor<3x10xf16>, tensor<3xi32>)
// CHECK:         ^bb0(%[[IL:[a-z0-9_]+]]: f16, %[[IY:[a-z0-9_]+]]: i32, %[[ACC:[a-z0-9_]+]]: f32):
// CHECK:           %[[COL:.*]] = linalg.index 1 : index
// CHECK:           %[[COLI:.*]] = arith.index_cast %[[COL]] : index to i32
// CHECK:           %[[HIT:.*]] = arith.cmpi eq, %[[COLI]], %[[IY]] : i32
// CHECK:           %[[LF:.*]] = arith.extf %[[IL]] : f16 to f32
// CHECK:           %[[SEL:.*]] = arith.select %[[HIT]], %[[LF]], %{{.*}} : f32
// CHECK:           arith.addf %[[ACC]], %[[SEL]] : f32
// CHECK:         %[[R:.*]] = linalg.generic
// CHECK-SAME:        ins(%[[LSE]], %[[PICKED]], %[[Y]] : tensor<3xf32>, tensor<3xf32>, tensor<3xi32>)
// CHECK:         ^bb0(%[[ILSE:[a-z0-9_]+]]: f32, %[[IP:[a-z0-9_]+]]: f32, %[[ILABEL:[a-z0-9_]+]]: i32, %{{.*}}: f16):
// CHECK:           %[[GE:.*]] = arith.cmpi sge, %[[ILABEL]], %{{.*}} : i32
// CHECK:           %[[TEN:.*]] = arith.constant 10 : i32
// CHECK:           %[[LT:.*]] = arith.cmpi slt, %[[ILABEL]], %[[TEN]] : i32
// CHECK:           %[[OK:.*]] = arith.andi %[[GE]], %[[LT]] : i1
// CHECK:           %[[LOSS:.*]] = arith.subf %[[ILSE]], %[[IP]] : f32
// CHECK:           %[[NAN:.*]] = arith.constant 0x7FC00000 : f32
// CHECK:           %[[V:.*]] = arith.select %[[OK]], %[[LOSS]], %[[NAN]] : f32
// CHECK:           %[[H:.*]] = arith.truncf %[[V]] : f32 to f16
// CHECK:           linalg.yield %[[H]] : f16
// CHECK:         return %[[R]]
func.func @cross_entropy_labels(%l: tensor<3x10xf16>, %y: tensor<3xi32>) -> tensor<3xf16> {
  %0 = rlx.softmax_cross_entropy_with_labels %l, %y : (tensor<3x10xf16>, tensor<3xi32>) -> tensor<3xf16>
  return %0 : tensor<3xf16>
}

// -----

// with_statistics returns the mean and rstd the normalization used (f32 for
// an f16 input), expanded with the normalized axis as size 1; a rank-1
// input's statistics are a 0-d tensor expanded to [1].

// CHECK-LABEL: func.func @saved_statistics(
// CHECK:         linalg.generic {{.*}} iterator_types = ["reduction", "parallel"]
// CHECK:         %[[MEAN:.*]] = linalg.generic
// CHECK-SAME:        ins(%{{.*}} : tensor<4xf32>)
// CHECK:           arith.divf
// CHECK:         linalg.generic {{.*}} iterator_types = ["reduction", "parallel"]
// CHECK:         %[[RSTD:.*]] = linalg.generic
// CHECK-SAME:        ins(%{{.*}} : tensor<4xf32>)
// CHECK:           math.rsqrt
// CHECK:         %[[Y:.*]] = linalg.generic
// CHECK-SAME:        ins(%{{.*}}, %[[RSTD]], %[[MEAN]], %{{.*}}, %{{.*}} : tensor<3x4xf16>, tensor<4xf32>, tensor<4xf32>, tensor<3xf16>, tensor<3xf16>)
// CHECK:         %[[SM:.*]] = tensor.expand_shape %[[MEAN]] {{\[\[}}0, 1]] output_shape [1, 4] : tensor<4xf32> into tensor<1x4xf32>
// CHECK:         %[[SR:.*]] = tensor.expand_shape %[[RSTD]] {{\[\[}}0, 1]] output_shape [1, 4] : tensor<4xf32> into tensor<1x4xf32>
// CHECK:         linalg.generic {{.*}} iterator_types = ["reduction"]
// CHECK:         %[[RMS:.*]] = linalg.generic
// CHECK-SAME:        ins(%{{.*}} : tensor<f32>)
// CHECK:           math.rsqrt
// CHECK:         %[[Z:.*]] = linalg.generic
// CHECK:         %[[SZ:.*]] = tensor.expand_shape %[[RMS]] [] output_shape [1] : tensor<f32> into tensor<1xf32>
// CHECK:         return %[[Y]], %[[SM]], %[[SR]], %[[Z]], %[[SZ]]
func.func @saved_statistics(%x: tensor<3x4xf16>, %g: tensor<3xf16>, %v: tensor<8xf32>) -> (tensor<3x4xf16>, tensor<1x4xf32>, tensor<1x4xf32>, tensor<8xf32>, tensor<1xf32>) {
  %0:3 = rlx.layer_norm %x, %g, %g axis = 0 eps = 1.0e-5 with_statistics : (tensor<3x4xf16>, tensor<3xf16>, tensor<3xf16>) -> (tensor<3x4xf16>, tensor<1x4xf32>, tensor<1x4xf32>)
  %1:2 = rlx.rms_norm %v, %v axis = 0 eps = 1.0e-5 with_statistics : (tensor<8xf32>, tensor<8xf32>) -> (tensor<8xf32>, tensor<1xf32>)
  return %0#0, %0#1, %0#2, %1#0, %1#1 : tensor<3x4xf16>, tensor<1x4xf32>, tensor<1x4xf32>, tensor<8xf32>, tensor<1xf32>
}
