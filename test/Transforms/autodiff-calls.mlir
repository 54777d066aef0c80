// RUN: rlx-opt %s --rlx-autodiff -split-input-file -verify-diagnostics | FileCheck %s

// rlx-autodiff inlines the functions a differentiated function calls (and
// the functions they call) into the gradient function, then differentiates
// the rlx ops. The forward function keeps its calls.

// CHECK-LABEL: func.func @loss(
// CHECK:         call @layer
// CHECK-LABEL: func.func @loss_grad(
// CHECK-SAME:      %[[X:[a-z0-9]+]]: tensor<2x3xf32>, %[[W:[a-z0-9]+]]: tensor<3x4xf32>)
// CHECK-SAME:      -> (tensor<f32>, tensor<3x4xf32>)
// CHECK-NOT:     call
// CHECK:         %[[M:.*]] = rlx.matmul %[[X]], %[[W]]
// CHECK:         %[[T:.*]] = rlx.tanh %[[M]]
// CHECK:         %[[S:.*]] = rlx.mul %[[T]], %[[T]]
// CHECK:         %[[L:.*]] = rlx.reduce sum %[[S]]
// CHECK:         rlx.activation_backward tanh
// CHECK:         %[[DW:.*]] = rlx.matmul %{{.*}}, %{{.*}} : (tensor<3x2xf32>, tensor<2x4xf32>) -> tensor<3x4xf32>
// CHECK-NOT:     call
// CHECK:         return %[[L]], %[[DW]]
func.func private @activation(%m: tensor<2x4xf32>) -> tensor<2x4xf32> {
  %t = rlx.tanh %m : tensor<2x4xf32>
  return %t : tensor<2x4xf32>
}
func.func private @layer(%x: tensor<2x3xf32>, %w: tensor<3x4xf32>) -> tensor<2x4xf32> {
  %m = rlx.matmul %x, %w : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  %t = func.call @activation(%m) : (tensor<2x4xf32>) -> tensor<2x4xf32>
  return %t : tensor<2x4xf32>
}
func.func @loss(%x: tensor<2x3xf32>, %w: tensor<3x4xf32>) -> tensor<f32> attributes {rlx.differentiate = array<i64: 1>} {
  %y = func.call @layer(%x, %w) : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  %s = rlx.mul %y, %y : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
  %l = rlx.reduce sum %s axes = [0, 1] : tensor<2x4xf32> -> tensor<f32>
  return %l : tensor<f32>
}

// -----

func.func private @external(tensor<3xf32>) -> tensor<3xf32>
func.func @calls_declaration(%x: tensor<3xf32>) -> tensor<f32> attributes {rlx.differentiate = array<i64: 0>} {
  // expected-error @+1 {{cannot differentiate through a call to 'external', which has no body}}
  %y = func.call @external(%x) : (tensor<3xf32>) -> tensor<3xf32>
  %l = rlx.reduce sum %y axes = [0] : tensor<3xf32> -> tensor<f32>
  return %l : tensor<f32>
}

// -----

func.func private @recursive(%x: tensor<3xf32>) -> tensor<3xf32> {
  // expected-error @+1 {{cannot differentiate through recursive calls to 'recursive'}}
  %y = func.call @recursive(%x) : (tensor<3xf32>) -> tensor<3xf32>
  return %y : tensor<3xf32>
}
func.func @calls_recursive(%x: tensor<3xf32>) -> tensor<f32> attributes {rlx.differentiate = array<i64: 0>} {
  %y = func.call @recursive(%x) : (tensor<3xf32>) -> tensor<3xf32>
  %l = rlx.reduce sum %y axes = [0] : tensor<3xf32> -> tensor<f32>
  return %l : tensor<f32>
}
