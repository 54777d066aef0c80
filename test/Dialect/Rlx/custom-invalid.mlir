// RUN: rlx-opt %s -split-input-file -verify-diagnostics

func.func @body_arguments(%x: tensor<4xf32>) {
  // expected-error @+1 {{'rlx.custom_fn' op the body takes 0 arguments, expected 1}}
  %r = rlx.custom_fn (%x : tensor<4xf32>) -> (tensor<4xf32>) {
    %c = rlx.constant dense<1.0> : tensor<4xf32>
    rlx.yield %c : tensor<4xf32>
  } backward {
  ^bb0(%a: tensor<4xf32>, %q: tensor<4xf32>, %dq: tensor<4xf32>):
    rlx.yield %dq : tensor<4xf32>
  }
  return
}

// -----

func.func @body_yield(%x: tensor<4xf32>) {
  %r = rlx.custom_fn (%x : tensor<4xf32>) -> (tensor<4xf32>) {
  ^bb0(%a: tensor<4xf32>):
    %s = rlx.reduce sum %a axes = [0] : tensor<4xf32> -> tensor<f32>
    // expected-error @+1 {{'rlx.yield' op value #0 has type 'tensor<f32>' where the result needs 'tensor<4xf32>'}}
    rlx.yield %s : tensor<f32>
  } backward {
  ^bb0(%a: tensor<4xf32>, %q: tensor<4xf32>, %dq: tensor<4xf32>):
    rlx.yield %dq : tensor<4xf32>
  }
  return
}

// -----

func.func @backward_arguments(%x: tensor<4xf32>) {
  // expected-error @+1 {{'rlx.custom_fn' op the backward takes 2 arguments, expected 3}}
  %r = rlx.custom_fn (%x : tensor<4xf32>) -> (tensor<4xf32>) {
  ^bb0(%a: tensor<4xf32>):
    rlx.yield %a : tensor<4xf32>
  } backward {
  ^bb0(%a: tensor<4xf32>, %dq: tensor<4xf32>):
    rlx.yield %dq : tensor<4xf32>
  }
  return
}

// -----

func.func @backward_yield(%x: tensor<4xf32>, %y: tensor<4xf32>) {
  %r = rlx.custom_fn (%x, %y : tensor<4xf32>, tensor<4xf32>) -> (tensor<4xf32>) {
  ^bb0(%a: tensor<4xf32>, %b: tensor<4xf32>):
    %s = rlx.add %a, %b : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    rlx.yield %s : tensor<4xf32>
  } backward {
  ^bb0(%a: tensor<4xf32>, %b: tensor<4xf32>, %q: tensor<4xf32>, %dq: tensor<4xf32>):
    // expected-error @+1 {{'rlx.yield' op yields 1 values where the inputs' gradients needs 2}}
    rlx.yield %dq : tensor<4xf32>
  }
  return
}

// -----

func.func @captured(%x: tensor<4xf32>, %w: tensor<4xf32>) {
  // expected-note @+1 {{required by region isolation constraints}}
  %r = rlx.custom_fn (%x : tensor<4xf32>) -> (tensor<4xf32>) {
  ^bb0(%a: tensor<4xf32>):
    // expected-error @+1 {{using value defined outside the region}}
    %m = rlx.mul %a, %w : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    rlx.yield %m : tensor<4xf32>
  } backward {
  ^bb0(%a: tensor<4xf32>, %q: tensor<4xf32>, %dq: tensor<4xf32>):
    rlx.yield %dq : tensor<4xf32>
  }
  return
}

// -----

func.func @custom_call_name(%x: tensor<4xf32>) {
  // expected-error @+1 {{'rlx.custom_call' op callee must be a C identifier, got 'soft-threshold'}}
  %y = rlx.custom_call @"soft-threshold"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @custom_call_digit(%x: tensor<4xf32>) {
  // expected-error @+1 {{'rlx.custom_call' op callee must be a C identifier, got '2x'}}
  %y = rlx.custom_call @"2x"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @custom_call_dynamic_result(%x: tensor<?xf32>) {
  // expected-error @+1 {{'rlx.custom_call' op result 1 must have a static shape (the caller allocates it before the call), got 'tensor<?xf32>'}}
  %y, %z = rlx.custom_call @f(%x) : (tensor<?xf32>) -> (tensor<4xf32>, tensor<?xf32>)
  return
}

// -----

func.func @custom_call_type(%x: tensor<4xf32>) {
  // expected-error @+1 {{'rlx.custom_call' op result #0 must be variadic of ranked tensor}}
  %y = rlx.custom_call @f(%x) : (tensor<4xf32>) -> memref<4xf32>
  return
}
