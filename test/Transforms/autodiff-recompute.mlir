// RUN: rlx-opt %s --rlx-autodiff | FileCheck %s --check-prefix=SAVE
// RUN: rlx-opt %s --rlx-autodiff="recompute-elementwise=true" | FileCheck %s --check-prefix=RECOMPUTE
// RUN: rlx-opt %s --rlx-autodiff="recompute-elementwise=true" | rlx-opt --rlx-unfuse --cse | FileCheck %s --check-prefix=SAVE

// By default the backward reads the forward's tanh (saved); with
// recompute-elementwise it computes its own copy where it first needs it,
// and only the forward reads the original. CSE merges the two back into
// the saved form (the third RUN), which shows they compute the same value.

// SAVE-LABEL:    func.func @f_grad(
// SAVE:            %[[T:.*]] = rlx.tanh %[[X:[a-z0-9]+]]
// SAVE-NOT:        rlx.tanh
// SAVE:            rlx.mul %{{.*}}, %[[T]]
// SAVE:            rlx.activation_backward tanh

// RECOMPUTE-LABEL: func.func @f_grad(
// RECOMPUTE:         %[[T:.*]] = rlx.tanh %[[X:[a-z0-9]+]]
// RECOMPUTE:         %[[M:.*]] = rlx.mul %[[T]], %[[T]]
// RECOMPUTE:         rlx.reduce sum %[[M]]
// RECOMPUTE:         %[[COPY:.*]] = rlx.tanh %[[X]]
// RECOMPUTE:         rlx.mul %{{.*}}, %[[COPY]]
// RECOMPUTE-NOT:     %[[T]]
// RECOMPUTE:         return
func.func @f(%x: tensor<3xf32>) -> tensor<f32> attributes {rlx.differentiate = array<i64: 0>} {
  %t = rlx.tanh %x : tensor<3xf32>
  %m = rlx.mul %t, %t : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  %l = rlx.reduce sum %m axes = [0] : tensor<3xf32> -> tensor<f32>
  return %l : tensor<f32>
}
