// RUN: rlx-opt %s --rlx-autodiff | FileCheck %s

// rlx.sample is not differentiable (an integer result): autodiff treats the
// tokens as constants, and the gradient flows only through the logits the
// tokens select (the policy-gradient pattern), here rlx.gather_elements'.

// CHECK-LABEL: func.func @loss_grad(
// CHECK-SAME:    %[[X:[a-z0-9]+]]: tensor<4x8xf32>, %[[S:[a-z0-9]+]]: tensor<i64>, %[[O:[a-z0-9]+]]: tensor<i64>)
// CHECK:         %[[T:.*]] = rlx.sample %[[X]], %[[S]], %[[O]] top_k = 3
// CHECK-NOT:     rlx.sample
// CHECK:         %[[G:.*]] = rlx.scatter_add
// CHECK:         return %{{.*}}, %[[G]] : tensor<f32>, tensor<4x8xf32>
func.func @loss(%x: tensor<4x8xf32>, %s: tensor<i64>, %o: tensor<i64>) -> tensor<f32> attributes {rlx.differentiate = array<i64: 0>} {
  %t = rlx.sample %x, %s, %o top_k = 3 : tensor<4x8xf32> -> tensor<4xi64>
  %t2 = rlx.reshape %t : tensor<4xi64> -> tensor<4x1xi64>
  %g = rlx.gather_elements %x, %t2 axis = 1 : (tensor<4x8xf32>, tensor<4x1xi64>) -> tensor<4x1xf32>
  %l = rlx.reduce sum %g axes = [0, 1] : tensor<4x1xf32> -> tensor<f32>
  return %l : tensor<f32>
}
