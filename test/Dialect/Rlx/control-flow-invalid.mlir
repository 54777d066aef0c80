// RUN: rlx-opt %s -split-input-file -verify-diagnostics

func.func @if_condition_type(%p: tensor<2xi1>, %x: tensor<4xf32>) {
  // expected-error @+1 {{'rlx.if' op operand #0 must be 0D tensor of 1-bit signless integer values}}
  %r = "rlx.if"(%p) ({
    rlx.yield %x : tensor<4xf32>
  }, {
    rlx.yield %x : tensor<4xf32>
  }) : (tensor<2xi1>) -> tensor<4xf32>
  return
}

// -----

func.func @if_yield_count(%p: tensor<i1>, %x: tensor<4xf32>) {
  %r = rlx.if %p -> (tensor<4xf32>) {
    // expected-error @+1 {{'rlx.yield' op yields 2 values where the result needs 1}}
    rlx.yield %x, %x : tensor<4xf32>, tensor<4xf32>
  } else {
    rlx.yield %x : tensor<4xf32>
  }
  return
}

// -----

func.func @if_yield_type(%p: tensor<i1>, %x: tensor<4xf32>, %y: tensor<3xf32>) {
  %r = rlx.if %p -> (tensor<4xf32>) {
    rlx.yield %x : tensor<4xf32>
  } else {
    // expected-error @+1 {{'rlx.yield' op value #0 has type 'tensor<3xf32>' where the result needs 'tensor<4xf32>'}}
    rlx.yield %y : tensor<3xf32>
  }
  return
}

// -----

func.func @if_region_arguments(%p: tensor<i1>, %x: tensor<4xf32>) {
  // expected-error @+1 {{'rlx.if' op region #0 should have no arguments}}
  %r = rlx.if %p -> (tensor<4xf32>) {
  ^bb0(%a: tensor<4xf32>):
    rlx.yield %a : tensor<4xf32>
  } else {
    rlx.yield %x : tensor<4xf32>
  }
  return
}

// -----

func.func @if_terminator(%p: tensor<i1>, %x: tensor<4xf32>) {
  %r = rlx.if %p -> (tensor<4xf32>) {
    // expected-error @+1 {{block with no terminator}}
    %e = rlx.exp %x : tensor<4xf32>
  } else {
    rlx.yield %x : tensor<4xf32>
  }
  return
}

// -----

func.func @while_condition_type(%n: tensor<i64>) {
  %r = rlx.while %n : tensor<i64> condition {
  ^bb0(%a: tensor<i64>):
    // expected-error @+1 {{'rlx.yield' op value #0 has type 'tensor<i64>' where the condition (a tensor<i1>) needs 'tensor<i1>'}}
    rlx.yield %a : tensor<i64>
  } do {
  ^bb0(%a: tensor<i64>):
    rlx.yield %a : tensor<i64>
  }
  return
}

// -----

func.func @while_body_arguments(%n: tensor<i64>, %p: tensor<i1>) {
  // expected-error @+1 {{'rlx.while' op the body argument #0 has type 'tensor<i32>', expected 'tensor<i64>'}}
  %r = rlx.while %n : tensor<i64> condition {
  ^bb0(%a: tensor<i64>):
    rlx.yield %p : tensor<i1>
  } do {
  ^bb0(%a: tensor<i32>):
    rlx.yield %n : tensor<i64>
  }
  return
}

// -----

func.func @while_condition_arguments(%n: tensor<i64>, %p: tensor<i1>) {
  // expected-error @+1 {{'rlx.while' op the condition region takes 0 arguments, expected 1}}
  %r = rlx.while %n : tensor<i64> condition {
    rlx.yield %p : tensor<i1>
  } do {
  ^bb0(%a: tensor<i64>):
    rlx.yield %a : tensor<i64>
  }
  return
}

// -----

func.func @while_carried_type(%x: tensor<4xf32>, %p: tensor<i1>) {
  %r = rlx.while %x : tensor<4xf32> condition {
  ^bb0(%a: tensor<4xf32>):
    rlx.yield %p : tensor<i1>
  } do {
  ^bb0(%a: tensor<4xf32>):
    %b = rlx.concat %a, %a axis = 0 : (tensor<4xf32>, tensor<4xf32>) -> tensor<8xf32>
    // expected-error @+1 {{'rlx.yield' op value #0 has type 'tensor<8xf32>' where the carried values needs 'tensor<4xf32>'}}
    rlx.yield %b : tensor<8xf32>
  }
  return
}

// -----

func.func @scan_nothing(%c: tensor<f32>) {
  // expected-error @+1 {{'rlx.scan' op needs xs to scan or a length}}
  %r = rlx.scan (%c : tensor<f32>) over () -> (tensor<f32>) {
  ^bb0(%a: tensor<f32>):
    rlx.yield %a : tensor<f32>
  }
  return
}

// -----

func.func @scan_negative_length(%c: tensor<f32>) {
  // expected-error @+1 {{'rlx.scan' op length must be non-negative, got -1}}
  %r = rlx.scan (%c : tensor<f32>) over () length = -1 -> (tensor<f32>) {
  ^bb0(%a: tensor<f32>):
    rlx.yield %a : tensor<f32>
  }
  return
}

// -----

func.func @scan_scalar_xs(%c: tensor<f32>, %x: tensor<f32>) {
  // expected-error @+1 {{'rlx.scan' op xs #0 is a scalar: it has no axis to scan}}
  %r = rlx.scan (%c : tensor<f32>) over (%x : tensor<f32>) -> (tensor<f32>) {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    rlx.yield %a : tensor<f32>
  }
  return
}

// -----

func.func @scan_lengths(%x: tensor<4x2xf32>, %y: tensor<5xf32>) {
  // expected-error @+1 {{'rlx.scan' op xs #1 has 5 positions along axis 0, another 4}}
  rlx.scan () over (%x, %y : tensor<4x2xf32>, tensor<5xf32>) {
  ^bb0(%a: tensor<2xf32>, %b: tensor<f32>):
    rlx.yield
  }
  return
}

// -----

func.func @scan_length_attr(%x: tensor<4x2xf32>) {
  // expected-error @+1 {{'rlx.scan' op length 3 differs from the 4 positions of xs #0}}
  rlx.scan () over (%x : tensor<4x2xf32>) length = 3 {
  ^bb0(%a: tensor<2xf32>):
    rlx.yield
  }
  return
}

// -----

func.func @scan_axis(%x: tensor<4x2xf32>) {
  // expected-error @+1 {{axis 2 is out of range for rank 2}}
  rlx.scan () over (%x : tensor<4x2xf32>) axis = 2 {
  ^bb0(%a: tensor<4xf32>):
    rlx.yield
  }
  return
}

// -----

func.func @scan_slice_argument(%c: tensor<f32>, %x: tensor<4x2xf32>) {
  // expected-error @+1 {{'rlx.scan' op the body argument #1 has type 'tensor<4xf32>', expected 'tensor<2xf32>'}}
  %r = rlx.scan (%c : tensor<f32>) over (%x : tensor<4x2xf32>) -> (tensor<f32>) {
  ^bb0(%a: tensor<f32>, %b: tensor<4xf32>):
    rlx.yield %a : tensor<f32>
  }
  return
}

// -----

func.func @scan_carried_type(%c: tensor<f32>, %x: tensor<4x2xf32>) {
  %r = rlx.scan (%c : tensor<f32>) over (%x : tensor<4x2xf32>) -> (tensor<f32>) {
  ^bb0(%a: tensor<f32>, %b: tensor<2xf32>):
    // expected-error @+1 {{'rlx.yield' op value #0 has type 'tensor<2xf32>' where the carried values needs 'tensor<f32>'}}
    rlx.yield %b : tensor<2xf32>
  }
  return
}

// -----

func.func @scan_yield_count(%c: tensor<f32>, %x: tensor<4x2xf32>) {
  %r:2 = rlx.scan (%c : tensor<f32>) over (%x : tensor<4x2xf32>) -> (tensor<f32>, tensor<4x2xf32>) {
  ^bb0(%a: tensor<f32>, %b: tensor<2xf32>):
    // expected-error @+1 {{'rlx.yield' op yields 1 values for a scan of 1 carried values and 1 stacked outputs}}
    rlx.yield %a : tensor<f32>
  }
  return
}

// -----

func.func @scan_stacked_type(%c: tensor<f32>, %x: tensor<4x2xf32>) {
  // expected-error @+1 {{'rlx.scan' op result #1 has type 'tensor<2x4xf32>', the stacked output's is 'tensor<4x2xf32>'}}
  %r:2 = rlx.scan (%c : tensor<f32>) over (%x : tensor<4x2xf32>) -> (tensor<f32>, tensor<2x4xf32>) {
  ^bb0(%a: tensor<f32>, %b: tensor<2xf32>):
    rlx.yield %a, %b : tensor<f32>, tensor<2xf32>
  }
  return
}

// -----

func.func @scan_result_count(%c: tensor<f32>, %x: tensor<4x2xf32>) {
  // expected-error @+1 {{'rlx.scan' op returns 0 values but carries 1}}
  rlx.scan (%c : tensor<f32>) over (%x : tensor<4x2xf32>) {
  ^bb0(%a: tensor<f32>, %b: tensor<2xf32>):
    rlx.yield %a : tensor<f32>
  }
  return
}

// -----

// The body changes a carried value's (dynamic) size: the shape rule
// rejects it where it can prove the sizes differ.
func.func @scan_carried_shape(%c: tensor<?xf32>, %x: tensor<4x2xf32>) {
  // expected-error @+1 {{'rlx.scan' op the body changes a carried value's shape from [?] to [?]}}
  %r = rlx.scan (%c : tensor<?xf32>) over (%x : tensor<4x2xf32>) -> (tensor<?xf32>) {
  ^bb0(%a: tensor<?xf32>, %b: tensor<2xf32>):
    %d = rlx.concat %a, %b axis = 0 : (tensor<?xf32>, tensor<2xf32>) -> tensor<?xf32>
    rlx.yield %d : tensor<?xf32>
  }
  return
}

// -----

func.func @yield_parent(%x: tensor<4xf32>) {
  // expected-error @+1 {{'rlx.yield' op expects parent op to be one of}}
  rlx.yield %x : tensor<4xf32>
}
