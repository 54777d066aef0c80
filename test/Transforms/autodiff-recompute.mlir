// RUN: rlx-opt %s --rlx-autodiff | FileCheck %s --check-prefix=SAVE
// RUN: rlx-opt %s --rlx-autodiff="recompute-elementwise=true" | FileCheck %s --check-prefix=RECOMPUTE
// RUN: rlx-opt %s --rlx-autodiff="recompute-elementwise=true" | rlx-opt --rlx-unfuse --cse | FileCheck %s --check-prefix=SAVE

// By default the backward reads the forward's tanh (saved); with
// recompute-elementwise it computes its own copy where it first needs it,
// and only the forward reads the original. CSE merges the two back into
// the saved form (the third RUN), which shows they compute the same value.
// Only values whose operands the backward has anyway are recomputed.

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

// A chain: exp of an argument, then sin of that. Both are recomputed, the
// copy of sin from the copy of exp, in front of the first backward reader
// of sin (mul's rule) although sin's rule reads exp only later.
// RECOMPUTE-LABEL: func.func @chain_grad(
// RECOMPUTE:         %[[A:.*]] = rlx.exp %[[X:[a-z0-9]+]]
// RECOMPUTE:         rlx.sin %[[A]]
// RECOMPUTE:         rlx.reduce sum
// RECOMPUTE:         %[[ACOPY:.*]] = rlx.exp %[[X]]
// RECOMPUTE:         %[[SCOPY:.*]] = rlx.sin %[[ACOPY]]
// RECOMPUTE:         rlx.mul %{{.*}}, %[[SCOPY]]
// RECOMPUTE:         rlx.activation_backward sin %{{.*}}, %[[ACOPY]]
// RECOMPUTE:         rlx.activation_backward exp %{{.*}}, %[[X]]
func.func @chain(%x: tensor<3xf32>) -> tensor<f32> attributes {rlx.differentiate = array<i64: 0>} {
  %a = rlx.exp %x : tensor<3xf32>
  %s = rlx.sin %a : tensor<3xf32>
  %m = rlx.mul %s, %s : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  %l = rlx.reduce sum %m axes = [0] : tensor<3xf32> -> tensor<f32>
  return %l : tensor<f32>
}

// Recomputing the add would keep the row sums alive, which the backward
// does not read otherwise: the add is saved.
// RECOMPUTE-LABEL: func.func @saved_grad(
// RECOMPUTE:         %[[V:.*]] = rlx.add %{{.*}}, %{{.*}} : (tensor<3x1xf32>, tensor<3x4xf32>)
// RECOMPUTE-NOT:     rlx.add %{{.*}}, %{{.*}} : (tensor<3x1xf32>, tensor<3x4xf32>)
// RECOMPUTE:         rlx.mul %{{.*}}, %[[V]]
// RECOMPUTE:         return
func.func @saved(%x: tensor<3x4xf32>) -> tensor<f32> attributes {rlx.differentiate = array<i64: 0>} {
  %o = rlx.reduce sum %x axes = [1] keep_dim : tensor<3x4xf32> -> tensor<3x1xf32>
  %v = rlx.add %o, %x : (tensor<3x1xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
  %w = rlx.mul %v, %v : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
  %l = rlx.reduce sum %w axes = [0, 1] : tensor<3x4xf32> -> tensor<f32>
  return %l : tensor<f32>
}
