// RUN: rlx-opt %s -split-input-file -verify-diagnostics

func.func @swiglu_odd(%a: tensor<4x7xf32>) {
  // expected-error @+2 {{the last axis holds [up, gate] halves and must have even length, got 7}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = rlx.swiglu %a : tensor<4x7xf32> -> tensor<4x3xf32>
  return
}

// -----

func.func @swiglu_rank0(%a: tensor<f32>) {
  // expected-error @+2 {{input must have rank >= 1}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = rlx.swiglu %a : tensor<f32> -> tensor<f32>
  return
}

// -----

func.func @swiglu_result_type(%a: tensor<4x8xf32>) {
  // expected-error @+2 {{inferred type(s) 'tensor<4x4xf32>' are incompatible with return type(s) of operation 'tensor<4x8xf32>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = rlx.swiglu %a : tensor<4x8xf32> -> tensor<4x8xf32>
  return
}

// -----

func.func @swiglu_int(%a: tensor<4x8xi32>) {
  // expected-error @+1 {{operand #0 must be statically shaped tensor of floating-point values}}
  %0 = rlx.swiglu %a : tensor<4x8xi32> -> tensor<4x4xi32>
  return
}
