// RUN: rlx-opt %s -split-input-file -verify-diagnostics -allow-unregistered-dialect

// Every verifier rule of rlx.region (RegionOps.cpp) and rlx.yield.

func.func @no_results(%x: tensor<4xf32>) {
  // expected-error @+1 {{'rlx.region' op must return at least one value}}
  "rlx.region"(%x) <{kind = 0 : i32}> ({
  ^bb0(%a: tensor<4xf32>):
    "rlx.yield"() : () -> ()
  }) : (tensor<4xf32>) -> ()
  return
}

// -----

func.func @too_few_arguments(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'rlx.region' op has 2 inputs but its body takes 1 arguments}}
  %r = rlx.region elementwise ins(%x, %y : tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%a: tensor<4xf32>):
    %0 = rlx.neg %a : tensor<4xf32>
    rlx.yield %0 : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// -----

func.func @too_many_arguments(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'rlx.region' op has 1 inputs but its body takes 2 arguments}}
  %r = rlx.region elementwise ins(%x : tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%a: tensor<4xf32>, %b: tensor<4xf32>):
    %0 = rlx.add %a, %b : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    rlx.yield %0 : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// -----

func.func @argument_type(%x: tensor<4xf32>, %y: tensor<4xf16>) -> tensor<4xf32> {
  // expected-error @+1 {{'rlx.region' op input 1 has type 'tensor<4xf16>' but body argument 1 has type 'tensor<4xf32>'}}
  %r = rlx.region elementwise ins(%x, %y : tensor<4xf32>, tensor<4xf16>) -> tensor<4xf32> {
  ^bb0(%a: tensor<4xf32>, %b: tensor<4xf32>):
    %0 = rlx.add %a, %b : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    rlx.yield %0 : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// -----

func.func @argument_shape(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'rlx.region' op input 0 has type 'tensor<4xf32>' but body argument 0 has type 'tensor<1xf32>'}}
  %r = rlx.region elementwise ins(%x : tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%a: tensor<1xf32>):
    %0 = rlx.expand %a : tensor<1xf32> -> tensor<4xf32>
    rlx.yield %0 : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// -----

func.func @yield_element_type(%x: tensor<4xf32>) -> tensor<4xf16> {
  // expected-error @+1 {{'rlx.region' op yields 'tensor<4xf32>' but returns 'tensor<4xf16>'}}
  %r = rlx.region elementwise ins(%x : tensor<4xf32>) -> tensor<4xf16> {
  ^bb0(%a: tensor<4xf32>):
    %0 = rlx.neg %a : tensor<4xf32>
    rlx.yield %0 : tensor<4xf32>
  }
  return %r : tensor<4xf16>
}

// -----

func.func @yield_count(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'rlx.region' op yields 'tensor<4xf32>', 'tensor<4xf32>' but returns 'tensor<4xf32>'}}
  %r = rlx.region elementwise ins(%x : tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%a: tensor<4xf32>):
    %0 = rlx.neg %a : tensor<4xf32>
    rlx.yield %0, %0 : tensor<4xf32>, tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// -----

func.func @missing_terminator(%x: tensor<4xf32>) -> tensor<4xf32> {
  %r = "rlx.region"(%x) <{kind = 0 : i32}> ({
  ^bb0(%a: tensor<4xf32>):
    // expected-error @+1 {{block with no terminator}}
    %0 = rlx.neg %a : tensor<4xf32>
  }) : (tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

// A terminator other than rlx.yield (an unregistered op may terminate).
func.func @other_terminator(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'rlx.region' op body must end with rlx.yield}}
  %r = "rlx.region"(%x) <{kind = 0 : i32}> ({
  ^bb0(%a: tensor<4xf32>):
    %0 = rlx.neg %a : tensor<4xf32>
    "test.terminator"(%0) : (tensor<4xf32>) -> ()
  }) : (tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

func.func @yield_outside_region(%x: tensor<4xf32>) {
  // expected-error @+1 {{'rlx.yield' op expects parent op to be one of 'rlx.region, rlx.rows, rlx.associative_scan, rlx.scatter, rlx.if, rlx.while, rlx.scan, rlx.custom_fn'}}
  rlx.yield %x : tensor<4xf32>
}

// -----

func.func @results_of_different_shapes(%x: tensor<2x4xf32>, %y: tensor<4xf32>) -> (tensor<2x4xf32>, tensor<4xf32>) {
  // expected-error @+1 {{'rlx.region' op elementwise region results must all have shape [2, 4], got 'tensor<4xf32>'}}
  %r:2 = rlx.region elementwise ins(%x, %y : tensor<2x4xf32>, tensor<4xf32>) -> tensor<2x4xf32>, tensor<4xf32> {
  ^bb0(%a: tensor<2x4xf32>, %b: tensor<4xf32>):
    %0 = rlx.add %a, %b : (tensor<2x4xf32>, tensor<4xf32>) -> tensor<2x4xf32>
    %1 = rlx.neg %b : tensor<4xf32>
    rlx.yield %0, %1 : tensor<2x4xf32>, tensor<4xf32>
  }
  return %r#0, %r#1 : tensor<2x4xf32>, tensor<4xf32>
}

// -----

func.func @input_does_not_broadcast(%x: tensor<2x4xf32>, %y: tensor<3xf32>) -> tensor<2x4xf32> {
  // expected-error @+1 {{'rlx.region' op input 1 of shape [3] does not broadcast to the iteration shape [2, 4]}}
  %r = rlx.region elementwise ins(%x, %y : tensor<2x4xf32>, tensor<3xf32>) -> tensor<2x4xf32> {
  ^bb0(%a: tensor<2x4xf32>, %b: tensor<3xf32>):
    %0 = rlx.neg %a : tensor<2x4xf32>
    rlx.yield %0 : tensor<2x4xf32>
  }
  return %r : tensor<2x4xf32>
}

// -----

// An input larger than the iteration shape broadcasts *to* a bigger shape,
// not to the iteration shape.
func.func @input_larger_than_iteration_shape(%x: tensor<4xf32>, %y: tensor<3x4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'rlx.region' op input 1 of shape [3, 4] does not broadcast to the iteration shape [4]}}
  %r = rlx.region elementwise ins(%x, %y : tensor<4xf32>, tensor<3x4xf32>) -> tensor<4xf32> {
  ^bb0(%a: tensor<4xf32>, %b: tensor<3x4xf32>):
    %0 = rlx.neg %a : tensor<4xf32>
    rlx.yield %0 : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// -----

func.func @softmax_in_body(%x: tensor<2x4xf32>) -> tensor<2x4xf32> {
  %r = rlx.region elementwise ins(%x : tensor<2x4xf32>) -> tensor<2x4xf32> {
  ^bb0(%a: tensor<2x4xf32>):
    %0 = rlx.exp %a : tensor<2x4xf32>
    // expected-error @+1 {{'rlx.softmax' op cannot join an elementwise region: it has no scalar semantics (ScalarComputeOpInterface)}}
    %1 = rlx.softmax %0 axis = -1 : tensor<2x4xf32>
    rlx.yield %1 : tensor<2x4xf32>
  }
  return %r : tensor<2x4xf32>
}

// -----

func.func @matmul_in_body(%x: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %r = rlx.region elementwise ins(%x : tensor<4x4xf32>) -> tensor<4x4xf32> {
  ^bb0(%a: tensor<4x4xf32>):
    // expected-error @+1 {{'rlx.matmul' op cannot join an elementwise region}}
    %0 = rlx.matmul %a, %a : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
    rlx.yield %0 : tensor<4x4xf32>
  }
  return %r : tensor<4x4xf32>
}

// -----

// A constant has no operands, so no region can be made of constants alone.
func.func @constant_in_body() -> tensor<4xf32> {
  %r = rlx.region elementwise ins() -> tensor<4xf32> {
    // expected-error @+1 {{'rlx.constant' op cannot join an elementwise region}}
    %0 = rlx.constant dense<1.0> : tensor<4xf32>
    rlx.yield %0 : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// -----

func.func @body_op_of_another_shape(%x: tensor<2x4xf32>, %y: tensor<4xf32>) -> tensor<2x4xf32> {
  %r = rlx.region elementwise ins(%x, %y : tensor<2x4xf32>, tensor<4xf32>) -> tensor<2x4xf32> {
  ^bb0(%a: tensor<2x4xf32>, %b: tensor<4xf32>):
    // expected-error @+1 {{'rlx.exp' op produces shape [4] inside an elementwise region of iteration shape [2, 4]}}
    %0 = rlx.exp %b : tensor<4xf32>
    %1 = rlx.add %a, %0 : (tensor<2x4xf32>, tensor<4xf32>) -> tensor<2x4xf32>
    rlx.yield %1 : tensor<2x4xf32>
  }
  return %r : tensor<2x4xf32>
}

// -----

// IsolatedFromAbove: the body reads values only through its arguments.
func.func @uses_value_from_above(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {
  // expected-note @+1 {{required by region isolation constraints}}
  %r = rlx.region elementwise ins(%x : tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%a: tensor<4xf32>):
    // expected-error @+1 {{'rlx.add' op using value defined outside the region}}
    %0 = rlx.add %a, %y : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    rlx.yield %0 : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// -----

func.func @unknown_kind(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{expected string or keyword containing one of the following enum values for attribute 'kind' [elementwise, reduction, row, contraction]}}
  %r = rlx.region tiled ins(%x : tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%a: tensor<4xf32>):
    rlx.yield %a : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// -----

func.func @reduction_without_reduction(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'rlx.region' op a reduction region must contain a reduction}}
  %r = rlx.region reduction ins(%x : tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%a: tensor<4xf32>):
    %0 = rlx.exp %a : tensor<4xf32>
    rlx.yield %0 : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// -----

func.func @row_without_reduction(%x: tensor<2x4xf32>) -> tensor<2x4xf32> {
  // expected-error @+1 {{'rlx.region' op a row region must contain a reduction}}
  %r = rlx.region row ins(%x : tensor<2x4xf32>) -> tensor<2x4xf32> {
  ^bb0(%a: tensor<2x4xf32>):
    %0 = rlx.exp %a : tensor<2x4xf32>
    rlx.yield %0 : tensor<2x4xf32>
  }
  return %r : tensor<2x4xf32>
}

// -----

// A reduction region returns its reductions; reading one inside is what a
// row region does.
func.func @reduction_read_inside(%x: tensor<2x4xf32>) -> tensor<2x1xf32> {
  %r = rlx.region reduction ins(%x : tensor<2x4xf32>) -> tensor<2x1xf32> {
  ^bb0(%a: tensor<2x4xf32>):
    // expected-error @+1 {{'rlx.reduce' op is read inside a reduction region; only row regions broadcast reductions back}}
    %0 = rlx.reduce sum %a axes = [1] keep_dim : tensor<2x4xf32> -> tensor<2x1xf32>
    %1 = rlx.exp %0 : tensor<2x1xf32>
    rlx.yield %1 : tensor<2x1xf32>
  }
  return %r : tensor<2x1xf32>
}

// -----

func.func @reduction_returns_elementwise(%x: tensor<2x4xf32>) -> (tensor<2xf32>, tensor<2x4xf32>) {
  // expected-error @+1 {{'rlx.region' op reduction region results must be reductions}}
  %r:2 = rlx.region reduction ins(%x : tensor<2x4xf32>) -> tensor<2xf32>, tensor<2x4xf32> {
  ^bb0(%a: tensor<2x4xf32>):
    %0 = rlx.exp %a : tensor<2x4xf32>
    %1 = rlx.reduce sum %0 axes = [1] : tensor<2x4xf32> -> tensor<2xf32>
    rlx.yield %1, %0 : tensor<2xf32>, tensor<2x4xf32>
  }
  return %r#0, %r#1 : tensor<2xf32>, tensor<2x4xf32>
}

// -----

func.func @mismatched_reduction_axes(%x: tensor<2x4xf32>) -> tensor<2x4xf32> {
  %r = rlx.region row ins(%x : tensor<2x4xf32>) -> tensor<2x4xf32> {
  ^bb0(%a: tensor<2x4xf32>):
    %0 = rlx.reduce max %a axes = [1] keep_dim : tensor<2x4xf32> -> tensor<2x1xf32>
    // expected-error @+1 {{'rlx.reduce' op reduces axes [0] but the region's first reduction reduces [1]}}
    %1 = rlx.reduce sum %a axes = [0] keep_dim : tensor<2x4xf32> -> tensor<1x4xf32>
    %2 = rlx.sub %a, %0 : (tensor<2x4xf32>, tensor<2x1xf32>) -> tensor<2x4xf32>
    %3 = rlx.div %2, %1 : (tensor<2x4xf32>, tensor<1x4xf32>) -> tensor<2x4xf32>
    rlx.yield %3 : tensor<2x4xf32>
  }
  return %r : tensor<2x4xf32>
}

// -----

func.func @mismatched_reduced_shape(%x: tensor<2x4xf32>, %y: tensor<2x1xf32>) -> tensor<2x1xf32> {
  %r = rlx.region row ins(%x, %y : tensor<2x4xf32>, tensor<2x1xf32>) -> tensor<2x1xf32> {
  ^bb0(%a: tensor<2x4xf32>, %b: tensor<2x1xf32>):
    %0 = rlx.reduce max %a axes = [1] keep_dim : tensor<2x4xf32> -> tensor<2x1xf32>
    // expected-error @+1 {{'rlx.reduce' op reduces shape [2, 1] inside a region of iteration shape [2, 4]}}
    %1 = rlx.reduce sum %b axes = [1] keep_dim : tensor<2x1xf32> -> tensor<2x1xf32>
    %2 = rlx.add %0, %1 : (tensor<2x1xf32>, tensor<2x1xf32>) -> tensor<2x1xf32>
    rlx.yield %2 : tensor<2x1xf32>
  }
  return %r : tensor<2x1xf32>
}

// -----

func.func @row_reduction_drops_axes(%x: tensor<2x4xf32>) -> tensor<2xf32> {
  %r = rlx.region row ins(%x : tensor<2x4xf32>) -> tensor<2xf32> {
  ^bb0(%a: tensor<2x4xf32>):
    // expected-error @+1 {{'rlx.reduce' op must keep the reduced axes (keep_dim) inside a row region}}
    %0 = rlx.reduce sum %a axes = [1] : tensor<2x4xf32> -> tensor<2xf32>
    rlx.yield %0 : tensor<2xf32>
  }
  return %r : tensor<2xf32>
}

// -----

func.func @row_op_of_other_shape(%x: tensor<2x4xf32>, %y: tensor<4xf32>) -> tensor<2x4xf32> {
  %r = rlx.region row ins(%x, %y : tensor<2x4xf32>, tensor<4xf32>) -> tensor<2x4xf32> {
  ^bb0(%a: tensor<2x4xf32>, %b: tensor<4xf32>):
    %0 = rlx.reduce max %a axes = [1] keep_dim : tensor<2x4xf32> -> tensor<2x1xf32>
    // expected-error @+1 {{'rlx.exp' op produces shape [4] inside a row region of iteration shape [2, 4]}}
    %1 = rlx.exp %b : tensor<4xf32>
    %2 = rlx.sub %a, %0 : (tensor<2x4xf32>, tensor<2x1xf32>) -> tensor<2x4xf32>
    %3 = rlx.mul %2, %1 : (tensor<2x4xf32>, tensor<4xf32>) -> tensor<2x4xf32>
    rlx.yield %3 : tensor<2x4xf32>
  }
  return %r : tensor<2x4xf32>
}

// -----

func.func @softmax_in_row_region(%x: tensor<2x4xf32>) -> tensor<2x4xf32> {
  %r = rlx.region row ins(%x : tensor<2x4xf32>) -> tensor<2x4xf32> {
  ^bb0(%a: tensor<2x4xf32>):
    %0 = rlx.reduce max %a axes = [1] keep_dim : tensor<2x4xf32> -> tensor<2x1xf32>
    // expected-error @+1 {{'rlx.softmax' op cannot join a row region: it is neither elementwise nor a reduction}}
    %1 = rlx.softmax %a axis = 1 : tensor<2x4xf32>
    %2 = rlx.sub %1, %0 : (tensor<2x4xf32>, tensor<2x1xf32>) -> tensor<2x4xf32>
    rlx.yield %2 : tensor<2x4xf32>
  }
  return %r : tensor<2x4xf32>
}

// -----

func.func @contraction_without_contraction(%x: tensor<4x4xf32>) -> tensor<4x4xf32> {
  // expected-error @+1 {{'rlx.region' op a contraction region must contain exactly one contraction, got 0}}
  %r = rlx.region contraction ins(%x : tensor<4x4xf32>) -> tensor<4x4xf32> {
  ^bb0(%a: tensor<4x4xf32>):
    %0 = rlx.exp %a : tensor<4x4xf32>
    rlx.yield %0 : tensor<4x4xf32>
  }
  return %r : tensor<4x4xf32>
}

// -----

func.func @two_contractions(%x: tensor<4x4xf32>) -> tensor<4x4xf32> {
  // expected-error @+1 {{'rlx.region' op a contraction region must contain exactly one contraction, got 2}}
  %r = rlx.region contraction ins(%x : tensor<4x4xf32>) -> tensor<4x4xf32> {
  ^bb0(%a: tensor<4x4xf32>):
    %0 = rlx.matmul %a, %a : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
    %1 = rlx.matmul %0, %a : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
    rlx.yield %1 : tensor<4x4xf32>
  }
  return %r : tensor<4x4xf32>
}

// -----

// A prologue value read by the epilogue too.
func.func @contraction_prologue_shared(%x: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %r = rlx.region contraction ins(%x : tensor<4x4xf32>) -> tensor<4x4xf32> {
  ^bb0(%a: tensor<4x4xf32>):
    // expected-error @+1 {{'rlx.exp' op computes a contraction operand and is also read by the epilogue or returned}}
    %0 = rlx.exp %a : tensor<4x4xf32>
    %1 = rlx.matmul %0, %a : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
    %2 = rlx.add %1, %0 : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
    rlx.yield %2 : tensor<4x4xf32>
  }
  return %r : tensor<4x4xf32>
}

// -----

// A prologue op of another shape than the operand it computes.
func.func @contraction_prologue_shape(%x: tensor<4x4xf32>, %v: tensor<4xf32>) -> tensor<4x4xf32> {
  %r = rlx.region contraction ins(%x, %v : tensor<4x4xf32>, tensor<4xf32>) -> tensor<4x4xf32> {
  ^bb0(%a: tensor<4x4xf32>, %b: tensor<4xf32>):
    // expected-error @+1 {{'rlx.exp' op produces shape [4] in the prologue of a contraction operand of shape [4, 4]}}
    %0 = rlx.exp %b : tensor<4xf32>
    %1 = rlx.add %a, %0 : (tensor<4x4xf32>, tensor<4xf32>) -> tensor<4x4xf32>
    %2 = rlx.matmul %1, %a : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
    rlx.yield %2 : tensor<4x4xf32>
  }
  return %r : tensor<4x4xf32>
}

// -----

// A contraction's operand computed by a non-elementwise op.
func.func @contraction_prologue_not_elementwise(%x: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %r = rlx.region contraction ins(%x : tensor<4x4xf32>) -> tensor<4x4xf32> {
  ^bb0(%a: tensor<4x4xf32>):
    // expected-error @+1 {{'rlx.softmax' op cannot compute an operand of a contraction region's contraction: it is not elementwise}}
    %0 = rlx.softmax %a axis = 1 : tensor<4x4xf32>
    %1 = rlx.matmul %0, %a : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
    rlx.yield %1 : tensor<4x4xf32>
  }
  return %r : tensor<4x4xf32>
}

// -----

func.func @contraction_epilogue_shape(%x: tensor<4x4xf32>, %v: tensor<4xf32>) -> tensor<4x4xf32> {
  %r = rlx.region contraction ins(%x, %v : tensor<4x4xf32>, tensor<4xf32>) -> tensor<4x4xf32> {
  ^bb0(%a: tensor<4x4xf32>, %b: tensor<4xf32>):
    %0 = rlx.matmul %a, %a : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
    // expected-error @+1 {{'rlx.exp' op produces shape [4] inside a contraction region of iteration shape [4, 4]}}
    %1 = rlx.exp %b : tensor<4xf32>
    %2 = rlx.add %0, %1 : (tensor<4x4xf32>, tensor<4xf32>) -> tensor<4x4xf32>
    rlx.yield %2 : tensor<4x4xf32>
  }
  return %r : tensor<4x4xf32>
}

// -----

// rlx.rows takes one destination of each result's type.
func.func @rows_out_type(%x: tensor<2x4xf32>, %o: tensor<2x4xf16>) -> tensor<2x4xf32> {
  // expected-error @+1 {{'rlx.rows' op expected type of operand #1 ('tensor<2x4xf16>') to match type of corresponding result ('tensor<2x4xf32>')}}
  %r = rlx.rows ins(%x : tensor<2x4xf32>) outs(%o : tensor<2x4xf16>) {
  ^bb0(%a: tensor<2x4xf32>):
    %0 = rlx.reduce max %a axes = [1] keep_dim : tensor<2x4xf32> -> tensor<2x1xf32>
    %1 = rlx.sub %a, %0 : (tensor<2x4xf32>, tensor<2x1xf32>) -> tensor<2x4xf32>
    rlx.yield %1 : tensor<2x4xf32>
  } -> tensor<2x4xf32>
  return %r : tensor<2x4xf32>
}

// -----

// Its body is a row region's: reductions that keep their axes.
func.func @rows_no_keep_dim(%x: tensor<2x4xf32>, %o: tensor<2xf32>) -> tensor<2xf32> {
  %r = rlx.rows ins(%x : tensor<2x4xf32>) outs(%o : tensor<2xf32>) {
  ^bb0(%a: tensor<2x4xf32>):
    // expected-error @+1 {{must keep the reduced axes (keep_dim) inside a row region}}
    %0 = rlx.reduce max %a axes = [1] : tensor<2x4xf32> -> tensor<2xf32>
    rlx.yield %0 : tensor<2xf32>
  } -> tensor<2xf32>
  return %r : tensor<2xf32>
}

// -----

// And it needs a reduction.
func.func @rows_no_reduction(%x: tensor<2x4xf32>, %o: tensor<2x4xf32>) -> tensor<2x4xf32> {
  // expected-error @+1 {{a row region must contain a reduction}}
  %r = rlx.rows ins(%x : tensor<2x4xf32>) outs(%o : tensor<2x4xf32>) {
  ^bb0(%a: tensor<2x4xf32>):
    %0 = rlx.exp %a : tensor<2x4xf32>
    rlx.yield %0 : tensor<2x4xf32>
  } -> tensor<2x4xf32>
  return %r : tensor<2x4xf32>
}
