// RUN: rlx-opt %s | rlx-opt | FileCheck %s
// RUN: rlx-opt %s --mlir-print-op-generic | rlx-opt | FileCheck %s

// Round-trip of rlx.online_attention, rlx.attention_dq and
// rlx.attention_dkdv through the custom and the generic
// form: both layouts, a mask operand, a diagonal, dynamic sizes (a tile),
// f16 operands with f32 state.

// CHECK-LABEL: func.func @causal_gqa
// CHECK:         rlx.online_attention bshd ins(%{{.*}}, %{{.*}}, %{{.*}} : tensor<1x8x4x16xf32>, tensor<1x12x2x16xf32>, tensor<1x12x2x24xf32>) diagonal(%{{.*}}) outs(%{{.*}}, %{{.*}}, %{{.*}} : tensor<1x8x4x24xf32>, tensor<1x4x8xf32>, tensor<1x4x8xf32>) mask_kind = sliding_window window = 3 scale = 2.500000e-01 softcap = 3.000000e+01 -> tensor<1x8x4x24xf32>, tensor<1x4x8xf32>, tensor<1x4x8xf32>
func.func @causal_gqa(%q: tensor<1x8x4x16xf32>, %k: tensor<1x12x2x16xf32>, %v: tensor<1x12x2x24xf32>, %acc: tensor<1x8x4x24xf32>, %m: tensor<1x4x8xf32>, %l: tensor<1x4x8xf32>, %d: index) -> (tensor<1x8x4x24xf32>, tensor<1x4x8xf32>, tensor<1x4x8xf32>) {
  %0:3 = rlx.online_attention bshd ins(%q, %k, %v : tensor<1x8x4x16xf32>, tensor<1x12x2x16xf32>, tensor<1x12x2x24xf32>) diagonal(%d) outs(%acc, %m, %l : tensor<1x8x4x24xf32>, tensor<1x4x8xf32>, tensor<1x4x8xf32>) mask_kind = sliding_window window = 3 scale = 0.25 softcap = 30.0 -> tensor<1x8x4x24xf32>, tensor<1x4x8xf32>, tensor<1x4x8xf32>
  return %0#0, %0#1, %0#2 : tensor<1x8x4x24xf32>, tensor<1x4x8xf32>, tensor<1x4x8xf32>
}

// CHECK-LABEL: func.func @bias_dynamic_f16
// CHECK:         rlx.online_attention bhsd ins({{.*}}) mask(%{{.*}} : tensor<1x1x?x?xf16>) outs({{.*}}) mask_kind = bias scale = -1.000000e+00 -> tensor<1x1x?x8xf32>, tensor<1x1x?xf32>, tensor<1x1x?xf32>
func.func @bias_dynamic_f16(%q: tensor<1x1x?x16xf16>, %k: tensor<1x1x?x16xf16>, %v: tensor<1x1x?x8xf16>, %b: tensor<1x1x?x?xf16>, %acc: tensor<1x1x?x8xf32>, %m: tensor<1x1x?xf32>, %l: tensor<1x1x?xf32>) -> tensor<1x1x?x8xf32> {
  %0:3 = rlx.online_attention bhsd ins(%q, %k, %v : tensor<1x1x?x16xf16>, tensor<1x1x?x16xf16>, tensor<1x1x?x8xf16>) mask(%b : tensor<1x1x?x?xf16>) outs(%acc, %m, %l : tensor<1x1x?x8xf32>, tensor<1x1x?xf32>, tensor<1x1x?xf32>) mask_kind = bias scale = -1.0 -> tensor<1x1x?x8xf32>, tensor<1x1x?xf32>, tensor<1x1x?xf32>
  return %0#0 : tensor<1x1x?x8xf32>
}

// CHECK-LABEL: func.func @dq_bias
// CHECK:         rlx.attention_dq bshd ins({{.*}}) mask(%{{.*}} : tensor<1x1x8x12xf32>) outs(%{{.*}} : tensor<2x8x4x16xf32>) dbias(%{{.*}} : tensor<1x1x8x12xf32>) mask_kind = bias scale = 2.500000e-01 -> tensor<2x8x4x16xf32>, tensor<1x1x8x12xf32>
func.func @dq_bias(%q: tensor<2x8x4x16xf32>, %k: tensor<2x12x2x16xf32>, %lse: tensor<2x4x8xf32>, %b: tensor<1x1x8x12xf32>) -> (tensor<2x8x4x16xf32>, tensor<1x1x8x12xf32>) {
  %0:2 = rlx.attention_dq bshd ins(%q, %k, %k, %q, %lse, %lse : tensor<2x8x4x16xf32>, tensor<2x12x2x16xf32>, tensor<2x12x2x16xf32>, tensor<2x8x4x16xf32>, tensor<2x4x8xf32>, tensor<2x4x8xf32>) mask(%b : tensor<1x1x8x12xf32>) outs(%q : tensor<2x8x4x16xf32>) dbias(%b : tensor<1x1x8x12xf32>) mask_kind = bias scale = 0.25 -> tensor<2x8x4x16xf32>, tensor<1x1x8x12xf32>
  return %0#0, %0#1 : tensor<2x8x4x16xf32>, tensor<1x1x8x12xf32>
}

// CHECK-LABEL: func.func @dkdv_causal
// CHECK:         rlx.attention_dkdv bhsd ins({{.*}}) diagonal(%{{.*}}) outs(%{{.*}}, %{{.*}} : tensor<1x2x12x16xf32>, tensor<1x2x12x16xf32>) mask_kind = causal scale = 2.500000e-01 -> tensor<1x2x12x16xf32>, tensor<1x2x12x16xf32>
func.func @dkdv_causal(%q: tensor<1x4x8x16xbf16>, %k: tensor<1x2x12x16xbf16>, %lse: tensor<1x4x8xf32>, %acc: tensor<1x2x12x16xf32>, %d: index) -> tensor<1x2x12x16xf32> {
  %0:2 = rlx.attention_dkdv bhsd ins(%q, %k, %k, %q, %lse, %lse : tensor<1x4x8x16xbf16>, tensor<1x2x12x16xbf16>, tensor<1x2x12x16xbf16>, tensor<1x4x8x16xbf16>, tensor<1x4x8xf32>, tensor<1x4x8xf32>) diagonal(%d) outs(%acc, %acc : tensor<1x2x12x16xf32>, tensor<1x2x12x16xf32>) mask_kind = causal scale = 0.25 -> tensor<1x2x12x16xf32>, tensor<1x2x12x16xf32>
  return %0#0 : tensor<1x2x12x16xf32>
}
