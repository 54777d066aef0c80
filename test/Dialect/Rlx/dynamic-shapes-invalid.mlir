// RUN: rlx-opt %s -split-input-file -verify-diagnostics

// `?` sizes: what the shape rules reject at compile time. Relations that
// are not decided until run time are accepted here (the ABI checks them).

func.func @no_rule(%x: tensor<?x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error @+1 {{'rlx.conv' op does not support dynamic dimensions: operand #0 has type 'tensor<?x3x8x8xf32>'}}
  %0 = rlx.conv %x, %w stride = [1, 1] padding = [0, 0, 0, 0] dilation = [1, 1] groups = 1 : (tensor<?x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<?x4x6x6xf32>
  return
}

// -----

func.func @broadcast_static_mismatch(%x: tensor<?x3xf32>, %y: tensor<2x4xf32>) {
  // expected-error @+2 {{operand shapes are not broadcast compatible: [?, 3] and [2, 4]}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = rlx.add %x, %y : (tensor<?x3xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
  return
}

// -----

func.func @inferred_static(%x: tensor<?x4xf32>, %y: tensor<3x4xf32>) {
  // A `?` that meets a static size takes it: the result is static.
  // expected-error @+2 {{'rlx.add' op inferred type(s) 'tensor<3x4xf32>' are incompatible with return type(s) of operation 'tensor<?x4xf32>'}}
  // expected-error @+1 {{'rlx.add' op failed to infer returned types}}
  %0 = rlx.add %x, %y : (tensor<?x4xf32>, tensor<3x4xf32>) -> tensor<?x4xf32>
  return
}

// -----

func.func @matmul_k(%x: tensor<?x3xf32>, %w: tensor<4x?xf32>) {
  // expected-error @+2 {{contracting dimensions differ}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = rlx.matmul %x, %w : (tensor<?x3xf32>, tensor<4x?xf32>) -> tensor<?x?xf32>
  return
}

// -----

func.func @reshape_zero(%x: tensor<?x4xf32>) {
  // expected-error @+1 {{'rlx.reshape' op cannot infer the `?` size of result dimension 1 next to a size-0 dimension}}
  %0 = rlx.reshape %x : tensor<?x4xf32> -> tensor<0x?xf32>
  return
}

// -----

func.func @reshape_copies_missing(%x: tensor<?xf32>) {
  // expected-error @+1 {{'rlx.reshape' op result dimension 1 is `?` but the input has no dimension 1 to take its size from}}
  %0 = rlx.reshape %x : tensor<?xf32> -> tensor<2x?x?xf32>
  return
}

// -----

func.func @expand_from_one(%x: tensor<?x1xf32>) {
  // expected-error @+1 {{'rlx.expand' op result dimension 1 is `?` where the input has size 1: a repeated dimension needs a static size}}
  %0 = rlx.expand %x : tensor<?x1xf32> -> tensor<?x?xf32>
  return
}

// -----

func.func @narrow_before_start(%x: tensor<?x4xf32>) {
  // expected-error @+2 {{window start = -1, length = 2, step = 1 reads outside axis 0 of size ?}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = rlx.narrow %x axis = 0, start = -1, length = 2 : tensor<?x4xf32> -> tensor<2x4xf32>
  return
}

// -----

func.func @swiglu_dynamic_halves(%x: tensor<4x?xf32>) {
  // expected-error @+2 {{swiglu needs a static last axis, got 'tensor<4x?xf32>'}}
  // expected-error @+1 {{'rlx.swiglu' op failed to infer returned types}}
  %0 = rlx.swiglu %x : tensor<4x?xf32> -> tensor<4x?xf32>
  return
}

// -----

func.func @region_result(%x: tensor<?x8xf32>) {
  // expected-error @+1 {{'rlx.region' op yields 'tensor<?x8xf32>' but returns 'tensor<4x8xf32>'}}
  %0 = rlx.region elementwise ins(%x : tensor<?x8xf32>) -> tensor<4x8xf32> {
  ^bb0(%a: tensor<?x8xf32>):
    %1 = rlx.gelu %a : tensor<?x8xf32>
    rlx.yield %1 : tensor<?x8xf32>
  }
  return
}
