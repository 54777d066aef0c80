// RUN: rlx-opt %s --rlx-autodiff | FileCheck %s

// A fused op or an rlx.region has no gradient rule of its own: the gradient
// function starts from the forward with every fused op expanded and every
// region inlined (what --rlx-unfuse does), and differentiates the
// primitives. The forward function keeps its fused form.

// CHECK-LABEL: func.func @fused(
// CHECK:         rlx.matmul_bias_act
// CHECK:         rlx.swiglu
// CHECK:         rlx.region

// CHECK-LABEL: func.func @fused_grad(
// CHECK-NOT:     rlx.matmul_bias_act
// CHECK-NOT:     rlx.swiglu
// CHECK-NOT:     rlx.region
// CHECK:         rlx.matmul
// CHECK:         rlx.silu
// CHECK:         rlx.exp
// CHECK:         rlx.activation_backward exp
// CHECK:         rlx.activation_backward silu
// CHECK:         rlx.activation_backward gelu
// CHECK:         return
func.func @fused(%x: tensor<4x8xf32>, %w: tensor<8x6xf32>, %b: tensor<6xf32>) -> tensor<f32> attributes {rlx.differentiate = array<i64: 1, 2>} {
  %h = rlx.matmul_bias_act %x, %w, %b activation = gelu : (tensor<4x8xf32>, tensor<8x6xf32>, tensor<6xf32>) -> tensor<4x6xf32>
  %s = rlx.swiglu %h : tensor<4x6xf32> -> tensor<4x3xf32>
  %e = rlx.region elementwise ins(%s : tensor<4x3xf32>) -> tensor<4x3xf32> {
  ^bb0(%a: tensor<4x3xf32>):
    %0 = rlx.exp %a : tensor<4x3xf32>
    rlx.yield %0 : tensor<4x3xf32>
  }
  %l = rlx.reduce sum %e axes = [0, 1] : tensor<4x3xf32> -> tensor<f32>
  return %l : tensor<f32>
}
