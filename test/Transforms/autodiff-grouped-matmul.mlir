// RUN: rlx-opt %s --rlx-autodiff -split-input-file | FileCheck %s

// grouped_matmul's rule: dx is a grouped_matmul of dy with the experts
// transposed (same ids); dW scatter-adds the per-row outer products over
// the expert axis with rlx.gather_backward (the forward's index rule); the
// ids get no gradient.
// CHECK-LABEL: func.func @top1_grad(
// CHECK-SAME:    %[[X:[a-z0-9]+]]: tensor<?x8xf32>, %[[W:[a-z0-9]+]]: tensor<4x8x5xf32>, %[[I:[a-z0-9]+]]: tensor<?xi32>)
// CHECK:         %[[DY:.*]] = rlx.expand
// CHECK:         %[[WT:.*]] = rlx.transpose %[[W]] [0, 2, 1] : tensor<4x8x5xf32> -> tensor<4x5x8xf32>
// CHECK:         %[[DX:.*]] = rlx.grouped_matmul %[[DY]], %[[WT]], %[[I]] : (tensor<?x5xf32>, tensor<4x5x8xf32>, tensor<?xi32>) -> tensor<?x8xf32>
// CHECK:         %[[XC:.*]] = rlx.reshape %[[X]] : tensor<?x8xf32> -> tensor<?x8x1xf32>
// CHECK:         %[[DYR:.*]] = rlx.reshape %[[DY]] : tensor<?x5xf32> -> tensor<?x1x5xf32>
// CHECK:         %[[O:.*]] = rlx.mul %[[XC]], %[[DYR]] : (tensor<?x8x1xf32>, tensor<?x1x5xf32>) -> tensor<?x8x5xf32>
// CHECK:         %[[DW:.*]] = rlx.gather_backward %[[O]], %[[I]] axis = 0 : (tensor<?x8x5xf32>, tensor<?xi32>) -> tensor<4x8x5xf32>
// CHECK:         return %{{.*}}, %[[DX]], %[[DW]]
func.func @top1(%x: tensor<?x8xf32>, %w: tensor<4x8x5xf32>, %ids: tensor<?xi32>) -> tensor<f32>
    attributes {rlx.differentiate = array<i64: 0, 1>} {
  %y = rlx.grouped_matmul %x, %w, %ids : (tensor<?x8xf32>, tensor<4x8x5xf32>, tensor<?xi32>) -> tensor<?x5xf32>
  %l = rlx.reduce sum %y axes = [0, 1] : tensor<?x5xf32> -> tensor<f32>
  return %l : tensor<f32>
}

// -----

// With gates: dx keeps the gates; dW's outer products are weighted by each
// (row, expert) pair's gate ([T, k, K, N]); dgates dots dy with the
// ungated products of x repeated k times, one row per pair.
// CHECK-LABEL: func.func @topk_grad(
// CHECK-SAME:    %[[X:[a-z0-9]+]]: tensor<?x8xf32>, %[[W:[a-z0-9]+]]: tensor<4x8x5xf32>, %[[I:[a-z0-9]+]]: tensor<?x2xi64>, %[[G:[a-z0-9]+]]: tensor<?x2xf32>)
// CHECK:         %[[WT:.*]] = rlx.transpose %[[W]] [0, 2, 1]
// CHECK:         %[[DX:.*]] = rlx.grouped_matmul %{{.*}}, %[[WT]], %[[I]] gates %[[G]]
// CHECK:         %[[GR:.*]] = rlx.reshape %[[G]] : tensor<?x2xf32> -> tensor<?x2x1x1xf32>
// CHECK:         %[[U:.*]] = rlx.mul %[[GR]], %{{.*}} : (tensor<?x2x1x1xf32>, tensor<?x1x8x5xf32>) -> tensor<?x2x8x5xf32>
// CHECK:         %[[DW:.*]] = rlx.gather_backward %[[U]], %[[I]] axis = 0 : (tensor<?x2x8x5xf32>, tensor<?x2xi64>) -> tensor<4x8x5xf32>
// CHECK:         %[[REP:.*]] = rlx.reshape %{{.*}} : tensor<?x2x8xf32> -> tensor<?x8xf32>
// CHECK:         %[[FLAT:.*]] = rlx.reshape %[[I]] : tensor<?x2xi64> -> tensor<?xi64>
// CHECK:         %[[Z:.*]] = rlx.grouped_matmul %[[REP]], %[[W]], %[[FLAT]] : (tensor<?x8xf32>, tensor<4x8x5xf32>, tensor<?xi64>) -> tensor<?x5xf32>
// CHECK:         %[[DG:.*]] = rlx.reduce sum %{{.*}} axes = [2] : tensor<?x2x5xf32> -> tensor<?x2xf32>
// CHECK:         return %{{.*}}, %[[DX]], %[[DW]], %[[DG]]
func.func @topk(%x: tensor<?x8xf32>, %w: tensor<4x8x5xf32>, %ids: tensor<?x2xi64>, %g: tensor<?x2xf32>) -> tensor<f32>
    attributes {rlx.differentiate = array<i64: 0, 1, 3>} {
  %y = rlx.grouped_matmul %x, %w, %ids gates %g : (tensor<?x8xf32>, tensor<4x8x5xf32>, tensor<?x2xi64>, tensor<?x2xf32>) -> tensor<?x5xf32>
  %l = rlx.reduce sum %y axes = [0, 1] : tensor<?x5xf32> -> tensor<f32>
  return %l : tensor<f32>
}

// -----

// dequant_grouped_matmul's rule: the quantized experts are constants; dx is
// a grouped_matmul of dy with the experts dequantized once ([E, N, K]
// serves as the [E, K', N'] weight of the transposed product); dgates dots
// dy with the pairs' ungated products, made by dequant_grouped_matmul on x
// repeated k times.
// CHECK-LABEL: func.func @dequant_topk_grad(
// CHECK-SAME:    %[[X:[a-z0-9]+]]: tensor<?x64xf32>, %[[W:[a-z0-9]+]]: tensor<4x5x32xi8>, %[[I:[a-z0-9]+]]: tensor<?x2xi64>, %[[G:[a-z0-9]+]]: tensor<?x2xf32>, %[[S:[a-z0-9]+]]: tensor<4x5x2xf32>)
// CHECK:         %[[WD:.*]] = rlx.dequant_weight %[[W]], %[[S]] scheme = "int4" : (tensor<4x5x32xi8>, tensor<4x5x2xf32>) -> tensor<4x5x64xf32>
// CHECK:         %[[DX:.*]] = rlx.grouped_matmul %{{.*}}, %[[WD]], %[[I]] gates %[[G]] : (tensor<?x5xf32>, tensor<4x5x64xf32>, tensor<?x2xi64>, tensor<?x2xf32>) -> tensor<?x64xf32>
// CHECK:         %[[REP:.*]] = rlx.reshape %{{.*}} : tensor<?x2x64xf32> -> tensor<?x64xf32>
// CHECK:         %[[FLAT:.*]] = rlx.reshape %[[I]] : tensor<?x2xi64> -> tensor<?xi64>
// CHECK:         rlx.dequant_grouped_matmul %[[REP]], %[[W]], %[[FLAT]] scales %[[S]] scheme = "int4" : (tensor<?x64xf32>, tensor<4x5x32xi8>, tensor<?xi64>, tensor<4x5x2xf32>) -> tensor<?x5xf32>
// CHECK:         %[[DG:.*]] = rlx.reduce sum %{{.*}} axes = [2] : tensor<?x2x5xf32> -> tensor<?x2xf32>
// CHECK:         return %{{.*}}, %[[DX]], %[[DG]]
func.func @dequant_topk(%x: tensor<?x64xf32>, %w: tensor<4x5x32xi8>, %ids: tensor<?x2xi64>, %g: tensor<?x2xf32>, %s: tensor<4x5x2xf32>) -> tensor<f32>
    attributes {rlx.differentiate = array<i64: 0, 3>} {
  %y = rlx.dequant_grouped_matmul %x, %w, %ids gates %g scales %s scheme = "int4"
      : (tensor<?x64xf32>, tensor<4x5x32xi8>, tensor<?x2xi64>, tensor<?x2xf32>, tensor<4x5x2xf32>) -> tensor<?x5xf32>
  %l = rlx.reduce sum %y axes = [0, 1] : tensor<?x5xf32> -> tensor<f32>
  return %l : tensor<f32>
}

// -----

// bf16 rows: the dequantized experts are cast to bf16 for dx.
// CHECK-LABEL: func.func @dequant_bf16_grad(
// CHECK:         %[[WD:.*]] = rlx.dequant_weight %{{.*}} scheme = "q4_0" : (tensor<3x5x36xi8>) -> tensor<3x5x64xf32>
// CHECK:         %[[WC:.*]] = rlx.cast %[[WD]] : tensor<3x5x64xf32> -> tensor<3x5x64xbf16>
// CHECK:         rlx.grouped_matmul %{{.*}}, %[[WC]], %{{.*}} : (tensor<6x5xbf16>, tensor<3x5x64xbf16>, tensor<6xi32>) -> tensor<6x64xbf16>
func.func @dequant_bf16(%x: tensor<6x64xbf16>, %w: tensor<3x5x36xi8>, %ids: tensor<6xi32>) -> tensor<bf16>
    attributes {rlx.differentiate = array<i64: 0>} {
  %y = rlx.dequant_grouped_matmul %x, %w, %ids scheme = "q4_0"
      : (tensor<6x64xbf16>, tensor<3x5x36xi8>, tensor<6xi32>) -> tensor<6x5xbf16>
  %l = rlx.reduce sum %y axes = [0, 1] : tensor<6x5xbf16> -> tensor<bf16>
  return %l : tensor<bf16>
}
