// RUN: rlx-opt %s | rlx-opt | FileCheck %s
// RUN: rlx-opt %s --mlir-print-op-generic | rlx-opt | FileCheck %s

// Mamba-1 with every optional operand, `?` batch and length; B and C
// without groups.
// CHECK-LABEL: func.func @selective_scan(
// CHECK:         rlx.selective_scan %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} D(%{{.*}}) z(%{{.*}}) delta_bias(%{{.*}}) delta_softplus : (tensor<?x8x?xf32>, tensor<?x8x?xf32>, tensor<8x4xf32>, tensor<?x4x?xf32>, tensor<?x4x?xf32>, tensor<8xf32>, tensor<?x8x?xf32>, tensor<8xf32>) -> (tensor<?x8x?xf32>, tensor<?x8x4xf32>)
func.func @selective_scan(%u: tensor<?x8x?xf32>, %dt: tensor<?x8x?xf32>, %A: tensor<8x4xf32>, %B: tensor<?x4x?xf32>, %C: tensor<?x4x?xf32>, %D: tensor<8xf32>, %z: tensor<?x8x?xf32>, %bias: tensor<8xf32>) -> (tensor<?x8x?xf32>, tensor<?x8x4xf32>) {
  %y, %h = rlx.selective_scan %u, %dt, %A, %B, %C D(%D) z(%z) delta_bias(%bias) delta_softplus : (tensor<?x8x?xf32>, tensor<?x8x?xf32>, tensor<8x4xf32>, tensor<?x4x?xf32>, tensor<?x4x?xf32>, tensor<8xf32>, tensor<?x8x?xf32>, tensor<8xf32>) -> (tensor<?x8x?xf32>, tensor<?x8x4xf32>)
  return %y, %h : tensor<?x8x?xf32>, tensor<?x8x4xf32>
}

// Grouped B and C ([batch, G, N, L], G = 2 groups of 4 channels), no
// optional operands, a chunk length; f64.
// CHECK-LABEL: func.func @selective_scan_groups(
// CHECK:         rlx.selective_scan %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} chunk = 4 : (tensor<2x8x7xf64>, tensor<2x8x7xf64>, tensor<8x3xf64>, tensor<2x2x3x7xf64>, tensor<2x2x3x7xf64>) -> (tensor<2x8x7xf64>, tensor<2x8x3xf64>)
func.func @selective_scan_groups(%u: tensor<2x8x7xf64>, %A: tensor<8x3xf64>, %B: tensor<2x2x3x7xf64>) -> tensor<2x8x7xf64> {
  %y, %h = rlx.selective_scan %u, %u, %A, %B, %B chunk = 4 : (tensor<2x8x7xf64>, tensor<2x8x7xf64>, tensor<8x3xf64>, tensor<2x2x3x7xf64>, tensor<2x2x3x7xf64>) -> (tensor<2x8x7xf64>, tensor<2x8x3xf64>)
  return %y : tensor<2x8x7xf64>
}

// Mamba-2 with every optional operand, `?` batch and length.
// CHECK-LABEL: func.func @mamba2(
// CHECK:         rlx.mamba2 %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} D(%{{.*}}) z(%{{.*}}) dt_bias(%{{.*}}) initial(%{{.*}}) dt_softplus chunk = 32 : (tensor<?x?x4x16xf32>, tensor<?x?x4xf32>, tensor<4xf32>, tensor<?x?x2x8xf32>, tensor<?x?x2x8xf32>, tensor<4xf32>, tensor<?x?x4x16xf32>, tensor<4xf32>, tensor<?x4x16x8xf32>) -> (tensor<?x?x4x16xf32>, tensor<?x4x16x8xf32>)
func.func @mamba2(%x: tensor<?x?x4x16xf32>, %dt: tensor<?x?x4xf32>, %A: tensor<4xf32>, %B: tensor<?x?x2x8xf32>, %C: tensor<?x?x2x8xf32>, %D: tensor<4xf32>, %z: tensor<?x?x4x16xf32>, %bias: tensor<4xf32>, %h0: tensor<?x4x16x8xf32>) -> (tensor<?x?x4x16xf32>, tensor<?x4x16x8xf32>) {
  %y, %h = rlx.mamba2 %x, %dt, %A, %B, %C D(%D) z(%z) dt_bias(%bias) initial(%h0) dt_softplus chunk = 32 : (tensor<?x?x4x16xf32>, tensor<?x?x4xf32>, tensor<4xf32>, tensor<?x?x2x8xf32>, tensor<?x?x2x8xf32>, tensor<4xf32>, tensor<?x?x4x16xf32>, tensor<4xf32>, tensor<?x4x16x8xf32>) -> (tensor<?x?x4x16xf32>, tensor<?x4x16x8xf32>)
  return %y, %h : tensor<?x?x4x16xf32>, tensor<?x4x16x8xf32>
}

// Mamba-2 without optional operands, zero steps.
// CHECK-LABEL: func.func @mamba2_empty(
// CHECK:         rlx.mamba2 %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : (tensor<3x0x2x4xf32>, tensor<3x0x2xf32>, tensor<2xf32>, tensor<3x0x1x5xf32>, tensor<3x0x1x5xf32>) -> (tensor<3x0x2x4xf32>, tensor<3x2x4x5xf32>)
func.func @mamba2_empty(%x: tensor<3x0x2x4xf32>, %dt: tensor<3x0x2xf32>, %A: tensor<2xf32>, %B: tensor<3x0x1x5xf32>) -> tensor<3x2x4x5xf32> {
  %y, %h = rlx.mamba2 %x, %dt, %A, %B, %B : (tensor<3x0x2x4xf32>, tensor<3x0x2xf32>, tensor<2xf32>, tensor<3x0x1x5xf32>, tensor<3x0x1x5xf32>) -> (tensor<3x0x2x4xf32>, tensor<3x2x4x5xf32>)
  return %h : tensor<3x2x4x5xf32>
}

// Gated DeltaNet, `?` length, bf16.
// CHECK-LABEL: func.func @gated_delta_net(
// CHECK:         rlx.gated_delta_net %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : (tensor<1x?x2x16xbf16>, tensor<1x?x2x16xbf16>, tensor<1x?x2x32xbf16>, tensor<1x?x2xbf16>, tensor<1x?x2xbf16>) -> (tensor<1x?x2x32xbf16>, tensor<1x2x32x16xbf16>)
func.func @gated_delta_net(%q: tensor<1x?x2x16xbf16>, %k: tensor<1x?x2x16xbf16>, %v: tensor<1x?x2x32xbf16>, %g: tensor<1x?x2xbf16>, %beta: tensor<1x?x2xbf16>) -> (tensor<1x?x2x32xbf16>, tensor<1x2x32x16xbf16>) {
  %o, %s = rlx.gated_delta_net %q, %k, %v, %g, %beta : (tensor<1x?x2x16xbf16>, tensor<1x?x2x16xbf16>, tensor<1x?x2x32xbf16>, tensor<1x?x2xbf16>, tensor<1x?x2xbf16>) -> (tensor<1x?x2x32xbf16>, tensor<1x2x32x16xbf16>)
  return %o, %s : tensor<1x?x2x32xbf16>, tensor<1x2x32x16xbf16>
}

// Gated DeltaNet with an initial state, a scale and a chunk length.
// CHECK-LABEL: func.func @gated_delta_net_initial(
// CHECK:         rlx.gated_delta_net %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} initial(%{{.*}}) scale = 2.500000e-01 chunk = 8 : (tensor<2x9x1x4xf32>, tensor<2x9x1x4xf32>, tensor<2x9x1x3xf32>, tensor<2x9x1xf32>, tensor<2x9x1xf32>, tensor<2x1x3x4xf32>) -> (tensor<2x9x1x3xf32>, tensor<2x1x3x4xf32>)
func.func @gated_delta_net_initial(%q: tensor<2x9x1x4xf32>, %v: tensor<2x9x1x3xf32>, %g: tensor<2x9x1xf32>, %s0: tensor<2x1x3x4xf32>) -> tensor<2x1x3x4xf32> {
  %o, %s = rlx.gated_delta_net %q, %q, %v, %g, %g initial(%s0) scale = 0.25 chunk = 8 : (tensor<2x9x1x4xf32>, tensor<2x9x1x4xf32>, tensor<2x9x1x3xf32>, tensor<2x9x1xf32>, tensor<2x9x1xf32>, tensor<2x1x3x4xf32>) -> (tensor<2x9x1x3xf32>, tensor<2x1x3x4xf32>)
  return %s : tensor<2x1x3x4xf32>
}
