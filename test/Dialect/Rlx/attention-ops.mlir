// RUN: rlx-opt %s | rlx-opt | FileCheck %s
// RUN: rlx-opt %s --mlir-print-op-generic | rlx-opt | FileCheck %s

// Round-trip of rlx.attention through the custom and the generic form: every
// layout, mask kind and optional attribute, grouped and multi-query heads,
// S_q != S_k, head_dim != v_head_dim, and the logsumexp result (f32 for f16).

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
