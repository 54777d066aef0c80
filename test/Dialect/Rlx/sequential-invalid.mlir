// RUN: rlx-opt %s -split-input-file -verify-diagnostics

// Every verifier rule of rlx.scan and rlx.index_add.

func.func @scan_axis(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{axis 2 is out of range [0, 2)}}
  %r = rlx.scan axis = 2 identity = 0.0 : f32 ins(%x : tensor<4x8xf32>) outs(%x : tensor<4x8xf32>) {
  ^bb0(%a: f32, %b: f32):
    %n = arith.addf %a, %b : f32
    rlx.yield %n : f32
  } -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}

// -----

func.func @scan_negative_axis(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{axis -1 is out of range [0, 2)}}
  %r = rlx.scan axis = -1 identity = 0.0 : f32 ins(%x : tensor<4x8xf32>) outs(%x : tensor<4x8xf32>) {
  ^bb0(%a: f32, %b: f32):
    %n = arith.addf %a, %b : f32
    rlx.yield %n : f32
  } -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}

// -----

func.func @scan_rank0(%x: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{axis 0 is out of range [0, 0)}}
  %r = rlx.scan axis = 0 identity = 0.0 : f32 ins(%x : tensor<f32>) outs(%x : tensor<f32>) {
  ^bb0(%a: f32, %b: f32):
    %n = arith.addf %a, %b : f32
    rlx.yield %n : f32
  } -> tensor<f32>
  return %r : tensor<f32>
}

// -----

func.func @scan_input_shape(%x: tensor<4x7xf32>, %init: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{input type 'tensor<4x7xf32>' differs from init type 'tensor<4x8xf32>'}}
  %r = rlx.scan axis = 1 identity = 0.0 : f32 ins(%x : tensor<4x7xf32>) outs(%init : tensor<4x8xf32>) {
  ^bb0(%a: f32, %b: f32):
    %n = arith.addf %a, %b : f32
    rlx.yield %n : f32
  } -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}

// -----

func.func @scan_input_element(%x: tensor<4x8xf16>, %init: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{input type 'tensor<4x8xf16>' differs from init type 'tensor<4x8xf32>'}}
  %r = rlx.scan axis = 1 identity = 0.0 : f32 ins(%x : tensor<4x8xf16>) outs(%init : tensor<4x8xf32>) {
  ^bb0(%a: f32, %b: f32):
    %n = arith.addf %a, %b : f32
    rlx.yield %n : f32
  } -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}

// -----

func.func @scan_result(%x: tensor<4x8xf32>) -> tensor<4x8xf16> {
  // expected-error @+1 {{result type 'tensor<4x8xf16>' differs from init type 'tensor<4x8xf32>'}}
  %r = rlx.scan axis = 1 identity = 0.0 : f32 ins(%x : tensor<4x8xf32>) outs(%x : tensor<4x8xf32>) {
  ^bb0(%a: f32, %b: f32):
    %n = arith.addf %a, %b : f32
    rlx.yield %n : f32
  } -> tensor<4x8xf16>
  return %r : tensor<4x8xf16>
}

// -----

func.func @scan_identity(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{identity must be an integer or float}}
  %r = rlx.scan axis = 1 identity = dense<0.0> : vector<2xf32> ins(%x : tensor<4x8xf32>) outs(%x : tensor<4x8xf32>) {
  ^bb0(%a: f32, %b: f32):
    %n = arith.addf %a, %b : f32
    rlx.yield %n : f32
  } -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}

// -----

func.func @scan_combiner_arguments(%x: tensor<4x8xf16>) -> tensor<4x8xf16> {
  // expected-error @+1 {{combiner must take the running value ('f32') and an element ('f16')}}
  %r = rlx.scan axis = 1 identity = 0.0 : f32 ins(%x : tensor<4x8xf16>) outs(%x : tensor<4x8xf16>) {
  ^bb0(%a: f32, %b: f32):
    %n = arith.addf %a, %b : f32
    rlx.yield %n : f32
  } -> tensor<4x8xf16>
  return %r : tensor<4x8xf16>
}

// -----

func.func @scan_combiner_yield(%x: tensor<4x8xf16>) -> tensor<4x8xf16> {
  // expected-error @+1 {{combiner must yield one 'f32'}}
  %r = rlx.scan axis = 1 identity = 0.0 : f32 ins(%x : tensor<4x8xf16>) outs(%x : tensor<4x8xf16>) {
  ^bb0(%a: f32, %b: f16):
    rlx.yield %b : f16
  } -> tensor<4x8xf16>
  return %r : tensor<4x8xf16>
}

// -----

func.func @scan_combiner_effects(%x: tensor<4x8xf32>, %m: memref<f32>) -> tensor<4x8xf32> {
  %r = rlx.scan axis = 1 identity = 0.0 : f32 ins(%x : tensor<4x8xf32>) outs(%x : tensor<4x8xf32>) {
  ^bb0(%a: f32, %b: f32):
    // expected-error @+1 {{cannot be in a scan's combiner: it must be scalar code without side effects}}
    %c = memref.alloca() : memref<f32>
    %n = arith.addf %a, %b : f32
    rlx.yield %n : f32
  } -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}

// -----

func.func @index_add_axis(%s: tensor<3x4xf32>, %i: tensor<3xi64>, %t: tensor<10x4xf32>) -> tensor<10x4xf32> {
  // expected-error @+1 {{axis 2 is out of range [0, 2)}}
  %r = rlx.index_add axis = 2 ins(%s, %i : tensor<3x4xf32>, tensor<3xi64>) outs(%t : tensor<10x4xf32>) -> tensor<10x4xf32>
  return %r : tensor<10x4xf32>
}

// -----

func.func @index_add_result(%s: tensor<3x4xf32>, %i: tensor<3xi64>, %t: tensor<10x4xf32>) -> tensor<10x4xf16> {
  // expected-error @+1 {{result type 'tensor<10x4xf16>' differs from init type 'tensor<10x4xf32>'}}
  %r = rlx.index_add axis = 0 ins(%s, %i : tensor<3x4xf32>, tensor<3xi64>) outs(%t : tensor<10x4xf32>) -> tensor<10x4xf16>
  return %r : tensor<10x4xf16>
}

// -----

func.func @index_add_float_indices(%s: tensor<3x4xf32>, %i: tensor<3xf32>, %t: tensor<10x4xf32>) -> tensor<10x4xf32> {
  // expected-error @+1 {{indices must be integers, got 'tensor<3xf32>'}}
  %r = rlx.index_add axis = 0 ins(%s, %i : tensor<3x4xf32>, tensor<3xf32>) outs(%t : tensor<10x4xf32>) -> tensor<10x4xf32>
  return %r : tensor<10x4xf32>
}

// -----

func.func @index_add_element_kinds(%s: tensor<3x4xi32>, %i: tensor<3xi64>, %t: tensor<10x4xf32>) -> tensor<10x4xf32> {
  // expected-error @+1 {{cannot add 'i32' elements into 'f32' (both must be floats, or both integers)}}
  %r = rlx.index_add axis = 0 ins(%s, %i : tensor<3x4xi32>, tensor<3xi64>) outs(%t : tensor<10x4xf32>) -> tensor<10x4xf32>
  return %r : tensor<10x4xf32>
}

// -----

func.func @index_add_source_shape(%s: tensor<3x5xf32>, %i: tensor<3xi64>, %t: tensor<10x4xf32>) -> tensor<10x4xf32> {
  // expected-error @+1 {{source shape [3, 5] does not match [3, 4], the init shape with the axis replaced by the indices' shape}}
  %r = rlx.index_add axis = 0 ins(%s, %i : tensor<3x5xf32>, tensor<3xi64>) outs(%t : tensor<10x4xf32>) -> tensor<10x4xf32>
  return %r : tensor<10x4xf32>
}

// -----

func.func @index_add_source_rank(%s: tensor<3x4xf32>, %i: tensor<2x3xi64>, %t: tensor<10x4xf32>) -> tensor<10x4xf32> {
  // expected-error @+1 {{source shape [3, 4] does not match [2, 3, 4], the init shape with the axis replaced by the indices' shape}}
  %r = rlx.index_add axis = 0 ins(%s, %i : tensor<3x4xf32>, tensor<2x3xi64>) outs(%t : tensor<10x4xf32>) -> tensor<10x4xf32>
  return %r : tensor<10x4xf32>
}

// -----

func.func @index_add_empty_axis(%s: tensor<3x4xf32>, %i: tensor<4xi64>, %t: tensor<3x0xf32>) -> tensor<3x0xf32> {
  // expected-error @+1 {{cannot add into axis 1 of size 0 (a non-empty source has no row to go to)}}
  %r = rlx.index_add axis = 1 ins(%s, %i : tensor<3x4xf32>, tensor<4xi64>) outs(%t : tensor<3x0xf32>) -> tensor<3x0xf32>
  return %r : tensor<3x0xf32>
}

// -----

func.func @scan_empty_combiner(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{'rlx.scan' op expects a non-empty block}}
  %r = "rlx.scan"(%x, %x) <{axis = 1 : i64, identity = 0.0 : f32}> ({
  ^bb0(%a: f32, %b: f32):
  }) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}

// -----

// A lowering_config is checked before the op: a malformed op still gets
// its own diagnostic.
func.func @scan_axis_with_config(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{axis 7 is out of range [0, 2)}}
  %r = rlx.scan axis = 7 identity = 0.0 : f32 ins(%x : tensor<4x8xf32>) outs(%x : tensor<4x8xf32>) attributes {rlx.lowering_config = #rlx.lowering_config<distribution = [1, 0], cache = [0, 0], vector = [0, 0]>} {
  ^bb0(%a: f32, %b: f32):
    %n = arith.addf %a, %b : f32
    rlx.yield %n : f32
  } -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}

// -----

func.func @index_add_axis_with_config(%s: tensor<3x4xf32>, %i: tensor<3xi64>, %t: tensor<10x4xf32>) -> tensor<10x4xf32> {
  // expected-error @+1 {{axis 9 is out of range [0, 2)}}
  %r = rlx.index_add axis = 9 ins(%s, %i : tensor<3x4xf32>, tensor<3xi64>) outs(%t : tensor<10x4xf32>) attributes {rlx.lowering_config = #rlx.lowering_config<distribution = [0, 1], cache = [0, 0], vector = [0, 0]>} -> tensor<10x4xf32>
  return %r : tensor<10x4xf32>
}
