// RUN: rlx-opt %s | rlx-opt | FileCheck %s
// RUN: rlx-opt %s --mlir-print-op-generic | rlx-opt | FileCheck %s

// Round-trip of rlx.attention and rlx.attention_backward through the custom
// and the generic form: every layout, mask kind and optional attribute,
// grouped and multi-query heads, S_q != S_k, head_dim != v_head_dim, the
// logsumexp result (f32 for f16) and the bias gradient.

// CHECK-LABEL: func.func @attention(
// CHECK-SAME:    %[[Q:[a-z0-9]+]]: tensor<2x5x8x16xf32>, %[[K:[a-z0-9]+]]: tensor<2x7x2x16xf32>, %[[V:[a-z0-9]+]]: tensor<2x7x2x24xf32>, %[[QH:[a-z0-9]+]]: tensor<2x8x5x16xf16>, %[[KH:[a-z0-9]+]]: tensor<2x1x7x16xf16>, %[[Q3:[a-z0-9]+]]: tensor<3x1x32xbf16>, %[[K3:[a-z0-9]+]]: tensor<3x9x32xbf16>, %[[PAD:[a-z0-9]+]]: tensor<2x7xi1>, %[[BIAS:[a-z0-9]+]]: tensor<1x8x5x7xf32>)
// CHECK-NEXT:    %{{.*}} = rlx.attention bshd %[[Q]], %[[K]], %[[V]] heads = 8 kv_heads = 2 mask = none : (tensor<2x5x8x16xf32>, tensor<2x7x2x16xf32>, tensor<2x7x2x24xf32>) -> tensor<2x5x8x24xf32>
// CHECK-NEXT:    %{{.*}}, %{{.*}} = rlx.attention bhsd %[[QH]], %[[KH]], %[[KH]] heads = 8 kv_heads = 1 mask = causal scale = 5.000000e-01 softcap = 3.000000e+01 with_logsumexp : (tensor<2x8x5x16xf16>, tensor<2x1x7x16xf16>, tensor<2x1x7x16xf16>) -> (tensor<2x8x5x16xf16>, tensor<2x8x5xf32>)
// CHECK-NEXT:    %{{.*}} = rlx.attention bsd %[[Q3]], %[[K3]], %[[K3]] heads = 1 kv_heads = 1 mask = sliding_window window = 4 : (tensor<3x1x32xbf16>, tensor<3x9x32xbf16>, tensor<3x9x32xbf16>) -> tensor<3x1x32xbf16>
// CHECK-NEXT:    %{{.*}} = rlx.attention bshd %[[Q]], %[[K]], %[[V]], %[[PAD]] heads = 8 kv_heads = 2 mask = padding : (tensor<2x5x8x16xf32>, tensor<2x7x2x16xf32>, tensor<2x7x2x24xf32>, tensor<2x7xi1>) -> tensor<2x5x8x24xf32>
// CHECK-NEXT:    %{{.*}}, %{{.*}} = rlx.attention bshd %[[Q]], %[[K]], %[[V]], %[[BIAS]] heads = 8 kv_heads = 2 mask = bias scale = -1.000000e+00 with_logsumexp : (tensor<2x5x8x16xf32>, tensor<2x7x2x16xf32>, tensor<2x7x2x24xf32>, tensor<1x8x5x7xf32>) -> (tensor<2x5x8x24xf32>, tensor<2x8x5xf32>)
// CHECK-NEXT:    return
func.func @attention(%q: tensor<2x5x8x16xf32>, %k: tensor<2x7x2x16xf32>, %v: tensor<2x7x2x24xf32>, %qh: tensor<2x8x5x16xf16>, %kh: tensor<2x1x7x16xf16>, %q3: tensor<3x1x32xbf16>, %k3: tensor<3x9x32xbf16>, %pad: tensor<2x7xi1>, %bias: tensor<1x8x5x7xf32>) {
  %0 = rlx.attention bshd %q, %k, %v heads = 8 kv_heads = 2 mask = none : (tensor<2x5x8x16xf32>, tensor<2x7x2x16xf32>, tensor<2x7x2x24xf32>) -> tensor<2x5x8x24xf32>
  %1:2 = rlx.attention bhsd %qh, %kh, %kh heads = 8 kv_heads = 1 mask = causal scale = 0.5 softcap = 30.0 with_logsumexp : (tensor<2x8x5x16xf16>, tensor<2x1x7x16xf16>, tensor<2x1x7x16xf16>) -> (tensor<2x8x5x16xf16>, tensor<2x8x5xf32>)
  %2 = rlx.attention bsd %q3, %k3, %k3 heads = 1 kv_heads = 1 mask = sliding_window window = 4 : (tensor<3x1x32xbf16>, tensor<3x9x32xbf16>, tensor<3x9x32xbf16>) -> tensor<3x1x32xbf16>
  %3 = rlx.attention bshd %q, %k, %v, %pad heads = 8 kv_heads = 2 mask = padding : (tensor<2x5x8x16xf32>, tensor<2x7x2x16xf32>, tensor<2x7x2x24xf32>, tensor<2x7xi1>) -> tensor<2x5x8x24xf32>
  %4:2 = rlx.attention bshd %q, %k, %v, %bias heads = 8 kv_heads = 2 mask = bias scale = -1.0 with_logsumexp : (tensor<2x5x8x16xf32>, tensor<2x7x2x16xf32>, tensor<2x7x2x24xf32>, tensor<1x8x5x7xf32>) -> (tensor<2x5x8x24xf32>, tensor<2x8x5xf32>)
  return
}

// CHECK-LABEL: func.func @attention_backward(
// CHECK-SAME:    %[[Q:[a-z0-9]+]]: tensor<2x5x8x16xf32>, %[[K:[a-z0-9]+]]: tensor<2x7x2x16xf32>, %[[V:[a-z0-9]+]]: tensor<2x7x2x24xf32>, %[[O:[a-z0-9]+]]: tensor<2x5x8x24xf32>, %[[LSE:[a-z0-9]+]]: tensor<2x8x5xf32>, %[[BIAS:[a-z0-9]+]]: tensor<1x8x5x7xf32>, %[[QH:[a-z0-9]+]]: tensor<2x8x5x16xf16>, %[[KH:[a-z0-9]+]]: tensor<2x1x7x16xf16>)
// CHECK-NEXT:    %{{.*}}, %{{.*}}, %{{.*}} = rlx.attention_backward bshd %[[Q]], %[[K]], %[[V]], %[[O]], %[[O]], %[[LSE]] heads = 8 kv_heads = 2 mask = sliding_window window = 3 softcap = 2.000000e+01 : (tensor<2x5x8x16xf32>, tensor<2x7x2x16xf32>, tensor<2x7x2x24xf32>, tensor<2x5x8x24xf32>, tensor<2x5x8x24xf32>, tensor<2x8x5xf32>) -> (tensor<2x5x8x16xf32>, tensor<2x7x2x16xf32>, tensor<2x7x2x24xf32>)
// CHECK-NEXT:    %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} = rlx.attention_backward bshd %[[Q]], %[[K]], %[[V]], %[[O]], %[[O]], %[[LSE]], %[[BIAS]] heads = 8 kv_heads = 2 mask = bias scale = 2.500000e-01 with_bias_grad : (tensor<2x5x8x16xf32>, tensor<2x7x2x16xf32>, tensor<2x7x2x24xf32>, tensor<2x5x8x24xf32>, tensor<2x5x8x24xf32>, tensor<2x8x5xf32>, tensor<1x8x5x7xf32>) -> (tensor<2x5x8x16xf32>, tensor<2x7x2x16xf32>, tensor<2x7x2x24xf32>, tensor<1x8x5x7xf32>)
// CHECK-NEXT:    %{{.*}}, %{{.*}}, %{{.*}} = rlx.attention_backward bhsd %[[QH]], %[[KH]], %[[KH]], %[[QH]], %[[QH]], %[[LSE]] heads = 8 kv_heads = 1 mask = causal : (tensor<2x8x5x16xf16>, tensor<2x1x7x16xf16>, tensor<2x1x7x16xf16>, tensor<2x8x5x16xf16>, tensor<2x8x5x16xf16>, tensor<2x8x5xf32>) -> (tensor<2x8x5x16xf16>, tensor<2x1x7x16xf16>, tensor<2x1x7x16xf16>)
// CHECK-NEXT:    return
func.func @attention_backward(%q: tensor<2x5x8x16xf32>, %k: tensor<2x7x2x16xf32>, %v: tensor<2x7x2x24xf32>, %o: tensor<2x5x8x24xf32>, %lse: tensor<2x8x5xf32>, %bias: tensor<1x8x5x7xf32>, %qh: tensor<2x8x5x16xf16>, %kh: tensor<2x1x7x16xf16>) {
  %0:3 = rlx.attention_backward bshd %q, %k, %v, %o, %o, %lse heads = 8 kv_heads = 2 mask = sliding_window window = 3 softcap = 20.0 : (tensor<2x5x8x16xf32>, tensor<2x7x2x16xf32>, tensor<2x7x2x24xf32>, tensor<2x5x8x24xf32>, tensor<2x5x8x24xf32>, tensor<2x8x5xf32>) -> (tensor<2x5x8x16xf32>, tensor<2x7x2x16xf32>, tensor<2x7x2x24xf32>)
  %1:4 = rlx.attention_backward bshd %q, %k, %v, %o, %o, %lse, %bias heads = 8 kv_heads = 2 mask = bias scale = 0.25 with_bias_grad : (tensor<2x5x8x16xf32>, tensor<2x7x2x16xf32>, tensor<2x7x2x24xf32>, tensor<2x5x8x24xf32>, tensor<2x5x8x24xf32>, tensor<2x8x5xf32>, tensor<1x8x5x7xf32>) -> (tensor<2x5x8x16xf32>, tensor<2x7x2x16xf32>, tensor<2x7x2x24xf32>, tensor<1x8x5x7xf32>)
  %2:3 = rlx.attention_backward bhsd %qh, %kh, %kh, %qh, %qh, %lse heads = 8 kv_heads = 1 mask = causal : (tensor<2x8x5x16xf16>, tensor<2x1x7x16xf16>, tensor<2x1x7x16xf16>, tensor<2x8x5x16xf16>, tensor<2x8x5x16xf16>, tensor<2x8x5xf32>) -> (tensor<2x8x5x16xf16>, tensor<2x1x7x16xf16>, tensor<2x1x7x16xf16>)
  return
}
