// RUN: rlx-opt %s -split-input-file --rlx-to-linalg --canonicalize --cse | FileCheck %s

// rlx.attention is rlx.online_attention from the initial state (acc = 0,
// max = -inf, sum = 0), then out = acc / sum (0 where sum = 0) and
// logsumexp = max + log(sum). Queries are the last positions of the keys'
// sequence: the diagonal of a positional mask is S_k - S_q = 8. Nothing is
// tiled here (test/Codegen/Common/tile-and-fuse-attention.mlir).

// CHECK-LABEL: func.func @sliding_window_gqa(
// CHECK-SAME:      %[[Q:[a-z0-9]+]]: tensor<1x37x4x16xf32>, %[[K:[a-z0-9]+]]: tensor<1x45x2x16xf32>, %[[V:[a-z0-9]+]]: tensor<1x45x2x24xf32>)
// CHECK-DAG:     %[[DIAGONAL:.*]] = arith.constant 8 : index
// CHECK-DAG:     %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-DAG:     %[[NEG_INF:.*]] = arith.constant 0xFF800000 : f32
// CHECK:         %[[ACC0:.*]] = linalg.fill ins(%[[ZERO]] : f32) outs(%{{.*}} : tensor<1x37x4x24xf32>)
// CHECK:         %[[MAX0:.*]] = linalg.fill ins(%[[NEG_INF]] : f32) outs(%{{.*}} : tensor<1x4x37xf32>)
// CHECK:         %[[SUM0:.*]] = linalg.fill ins(%[[ZERO]] : f32) outs(%{{.*}} : tensor<1x4x37xf32>)
// CHECK:         %[[ACC:.*]], %[[MAX:.*]], %[[SUM:.*]] = rlx.online_attention bshd ins(%[[Q]], %[[K]], %[[V]] : {{.*}}) diagonal(%[[DIAGONAL]]) outs(%[[ACC0]], %[[MAX0]], %[[SUM0]] : {{.*}}) mask_kind = sliding_window window = 5 scale = 2.500000e-01
// CHECK:         %[[OUT:.*]] = linalg.generic {{.*}} ins(%[[ACC]], %[[SUM]] : tensor<1x37x4x24xf32>, tensor<1x4x37xf32>)
// CHECK:           arith.cmpf oeq
// CHECK:           arith.divf
// CHECK:           arith.select
// CHECK:         %[[LSE:.*]] = linalg.generic {{.*}} ins(%[[MAX]], %[[SUM]] : tensor<1x4x37xf32>, tensor<1x4x37xf32>)
// CHECK:           math.log
// CHECK:           arith.addf
// CHECK:         return %[[OUT]], %[[LSE]]
func.func @sliding_window_gqa(%q: tensor<1x37x4x16xf32>, %k: tensor<1x45x2x16xf32>, %v: tensor<1x45x2x24xf32>) -> (tensor<1x37x4x24xf32>, tensor<1x4x37xf32>) {
  %0:2 = rlx.attention bshd %q, %k, %v heads = 4 kv_heads = 2 mask = sliding_window window = 5 with_logsumexp : (tensor<1x37x4x16xf32>, tensor<1x45x2x16xf32>, tensor<1x45x2x24xf32>) -> (tensor<1x37x4x24xf32>, tensor<1x4x37xf32>)
  return %0#0, %0#1 : tensor<1x37x4x24xf32>, tensor<1x4x37xf32>
}

// -----

// A padding mask on f16 bhsd inputs: the state is f32, the output rounded
// once to f16; the normalization reads the sum along the same (b, h, s).

// CHECK-DAG:   #[[ID:map[0-9]*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// CHECK-DAG:   #[[ROWS:map[0-9]*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
// CHECK-LABEL: func.func @padding_f16(
// CHECK-SAME:      %[[Q:[a-z0-9]+]]: tensor<2x4x5x16xf16>, %[[K:[a-z0-9]+]]: tensor<2x4x21x16xf16>, %[[V:[a-z0-9]+]]: tensor<2x4x21x8xf16>, %[[MASK:[a-z0-9]+]]: tensor<2x21xi1>)
// CHECK:         %[[ACC:.*]], %{{.*}}, %[[SUM:.*]] = rlx.online_attention bhsd ins(%[[Q]], %[[K]], %[[V]] : {{.*}}) mask(%[[MASK]] : tensor<2x21xi1>) outs(%{{.*}}, %{{.*}}, %{{.*}} : tensor<2x4x5x8xf32>, tensor<2x4x5xf32>, tensor<2x4x5xf32>) mask_kind = padding scale = 2.500000e-01
// CHECK:         linalg.generic {indexing_maps = [#[[ID]], #[[ROWS]], #[[ID]]], {{.*}} ins(%[[ACC]], %[[SUM]] : tensor<2x4x5x8xf32>, tensor<2x4x5xf32>) outs(%{{.*}} : tensor<2x4x5x8xf16>)
// CHECK:           arith.truncf %{{.*}} : f32 to f16
func.func @padding_f16(%q: tensor<2x4x5x16xf16>, %k: tensor<2x4x21x16xf16>, %v: tensor<2x4x21x8xf16>, %m: tensor<2x21xi1>) -> (tensor<2x4x5x8xf16>, tensor<2x4x5xf32>) {
  %0:2 = rlx.attention bhsd %q, %k, %v, %m heads = 4 kv_heads = 4 mask = padding with_logsumexp : (tensor<2x4x5x16xf16>, tensor<2x4x21x16xf16>, tensor<2x4x21x8xf16>, tensor<2x21xi1>) -> (tensor<2x4x5x8xf16>, tensor<2x4x5xf32>)
  return %0#0, %0#1 : tensor<2x4x5x8xf16>, tensor<2x4x5xf32>
}

// -----

// Single-head bsd is bshd with one head: q, k and v get a unit head axis,
// the output loses it again. A schedule written on rlx.attention is the
// online form's.

// CHECK-LABEL: func.func @bias_softcap_bsd(
// CHECK-SAME:      %[[Q:[a-z0-9]+]]: tensor<3x16x8xf32>, %[[BIAS:[a-z0-9]+]]: tensor<1x1x16x16xf32>)
// CHECK:         %[[Q4:.*]] = tensor.expand_shape %[[Q]] {{\[}}[0], [1], [2, 3]] output_shape [3, 16, 1, 8]
// CHECK:         %[[ACC:.*]], %{{.*}}, %[[SUM:.*]] = rlx.online_attention bshd ins(%[[Q4]], %[[Q4]], %[[Q4]] : {{.*}}) mask(%[[BIAS]] : tensor<1x1x16x16xf32>) outs({{.*}}) mask_kind = bias scale = {{.*}} softcap = 5.000000e+00 {rlx.lowering_config = #rlx.lowering_config<distribution = [1, 1, 4, 0], cache = [0, 0, 0, 8], vector = [0, 0, 0, 0]>}
// CHECK:         %[[OUT:.*]] = linalg.generic
// CHECK:         tensor.collapse_shape %[[OUT]] {{\[}}[0], [1], [2, 3]] : tensor<3x16x1x8xf32> into tensor<3x16x8xf32>
func.func @bias_softcap_bsd(%q: tensor<3x16x8xf32>, %b: tensor<1x1x16x16xf32>) -> tensor<3x16x8xf32> {
  %0 = rlx.attention bsd %q, %q, %q, %b heads = 1 kv_heads = 1 mask = bias softcap = 5.0 {rlx.lowering_config = #rlx.lowering_config<distribution = [1, 1, 4, 0], cache = [0, 0, 0, 8], vector = [0, 0, 0, 0]>} : (tensor<3x16x8xf32>, tensor<3x16x8xf32>, tensor<3x16x8xf32>, tensor<1x1x16x16xf32>) -> tensor<3x16x8xf32>
  return %0 : tensor<3x16x8xf32>
}

// -----

// The backward op: delta = rowsum(dout * out) in f32, then FlashAttention-2's
// two passes from zero, rlx.attention_dq (dq) and rlx.attention_dkdv (dk,
// dv), with the diagonal 29 - 21 of the causal mask. Nothing is tiled here
// (test/Codegen/Common/tile-and-fuse-attention.mlir).

// CHECK-LABEL: func.func @causal_backward_gqa(
// CHECK-SAME:      %[[Q:[a-z0-9]+]]: tensor<1x4x21x8xf32>, %[[K:[a-z0-9]+]]: tensor<1x2x29x8xf32>, %[[V:[a-z0-9]+]]: tensor<1x2x29x8xf32>, %[[OUT:[a-z0-9]+]]: tensor<1x4x21x8xf32>, %[[LSE:[a-z0-9]+]]: tensor<1x4x21xf32>)
// CHECK-DAG:     %[[DIAGONAL:.*]] = arith.constant 8 : index
// CHECK:         %[[DELTA:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%[[OUT]], %[[OUT]] : {{.*}}) outs(%{{.*}} : tensor<1x4x21xf32>)
// CHECK:           arith.mulf
// CHECK:           arith.addf
// CHECK:         %[[DQ0:.*]] = linalg.fill {{.*}} -> tensor<1x4x21x8xf32>
// CHECK:         %[[DQ:.*]] = rlx.attention_dq bhsd ins(%[[Q]], %[[K]], %[[V]], %[[OUT]], %[[LSE]], %[[DELTA]] : {{.*}}) diagonal(%[[DIAGONAL]]) outs(%[[DQ0]] : tensor<1x4x21x8xf32>) mask_kind = causal
// CHECK:         %[[DKV0:.*]] = linalg.fill {{.*}} -> tensor<1x2x29x8xf32>
// CHECK:         %[[DK:.*]], %[[DV:.*]] = rlx.attention_dkdv bhsd ins(%[[Q]], %[[K]], %[[V]], %[[OUT]], %[[LSE]], %[[DELTA]] : {{.*}}) diagonal(%[[DIAGONAL]]) outs(%[[DKV0]], %[[DKV0]] : tensor<1x2x29x8xf32>, tensor<1x2x29x8xf32>) mask_kind = causal
// CHECK:         return %[[DQ]], %[[DK]], %[[DV]]
func.func @causal_backward_gqa(%q: tensor<1x4x21x8xf32>, %k: tensor<1x2x29x8xf32>, %v: tensor<1x2x29x8xf32>, %out: tensor<1x4x21x8xf32>, %lse: tensor<1x4x21xf32>) -> (tensor<1x4x21x8xf32>, tensor<1x2x29x8xf32>, tensor<1x2x29x8xf32>) {
  %0:3 = rlx.attention_backward bhsd %q, %k, %v, %out, %out, %lse heads = 4 kv_heads = 2 mask = causal : (tensor<1x4x21x8xf32>, tensor<1x2x29x8xf32>, tensor<1x2x29x8xf32>, tensor<1x4x21x8xf32>, tensor<1x4x21x8xf32>, tensor<1x4x21xf32>) -> (tensor<1x4x21x8xf32>, tensor<1x2x29x8xf32>, tensor<1x2x29x8xf32>)
  return %0#0, %0#1, %0#2 : tensor<1x4x21x8xf32>, tensor<1x2x29x8xf32>, tensor<1x2x29x8xf32>
}

// -----

// The bias gradient is an init of rlx.attention_dq, of the bias's shape.

// CHECK-LABEL: func.func @bias_grad_broadcast_batch(
// CHECK:         %[[DQ:.*]], %[[DBIAS:.*]] = rlx.attention_dq bhsd ins({{.*}}) mask(%{{.*}} : tensor<1x4x6x6xf32>) outs(%{{.*}} : tensor<3x4x6x8xf32>) dbias(%{{.*}} : tensor<1x4x6x6xf32>) mask_kind = bias
// CHECK:         rlx.attention_dkdv bhsd ins({{.*}}) mask(%{{.*}} : tensor<1x4x6x6xf32>) outs({{.*}})
// CHECK:         return %[[DQ]], %{{.*}}, %{{.*}}, %[[DBIAS]]
func.func @bias_grad_broadcast_batch(%q: tensor<3x4x6x8xf32>, %k: tensor<3x2x6x8xf32>, %out: tensor<3x4x6x8xf32>, %lse: tensor<3x4x6xf32>, %bias: tensor<1x4x6x6xf32>) -> (tensor<3x4x6x8xf32>, tensor<3x2x6x8xf32>, tensor<3x2x6x8xf32>, tensor<1x4x6x6xf32>) {
  %0:4 = rlx.attention_backward bhsd %q, %k, %k, %out, %out, %lse, %bias heads = 4 kv_heads = 2 mask = bias with_bias_grad : (tensor<3x4x6x8xf32>, tensor<3x2x6x8xf32>, tensor<3x2x6x8xf32>, tensor<3x4x6x8xf32>, tensor<3x4x6x8xf32>, tensor<3x4x6xf32>, tensor<1x4x6x6xf32>) -> (tensor<3x4x6x8xf32>, tensor<3x2x6x8xf32>, tensor<3x2x6x8xf32>, tensor<1x4x6x6xf32>)
  return %0#0, %0#1, %0#2, %0#3 : tensor<3x4x6x8xf32>, tensor<3x2x6x8xf32>, tensor<3x2x6x8xf32>, tensor<1x4x6x6xf32>
}
