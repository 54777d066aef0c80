// RUN: rlx-opt %s -split-input-file -verify-diagnostics

// One case per verifier rule of the random ops.

func.func @uniform_dynamic(%s: tensor<i64>, %o: tensor<i64>) {
  // expected-error @+1 {{'rlx.rng_uniform' op does not support dynamic dimensions: result #0 has type 'tensor<?xf32>'}}
  %0 = rlx.rng_uniform %s, %o : tensor<?xf32>
  return
}

// -----

func.func @uniform_bounds(%s: tensor<i64>, %o: tensor<i64>) {
  // expected-error @+1 {{'rlx.rng_uniform' op needs finite bounds with low < high, got [1.000000e+00, 1.000000e+00)}}
  %0 = rlx.rng_uniform %s, %o low = 1.0 high = 1.0 : tensor<4xf32>
  return
}

// -----

func.func @uniform_integer(%s: tensor<i64>, %o: tensor<i64>) {
  // expected-error @+1 {{'rlx.rng_uniform' op result #0 must be ranked tensor of floating-point values, but got 'tensor<4xi32>'}}
  %0 = rlx.rng_uniform %s, %o : tensor<4xi32>
  return
}

// -----

func.func @normal_std(%s: tensor<i64>, %o: tensor<i64>) {
  // expected-error @+1 {{'rlx.rng_normal' op needs a finite mean and a finite std >= 0, got mean 0.000000e+00, std -1.000000e+00}}
  %0 = rlx.rng_normal %s, %o std = -1.0 : tensor<4xf32>
  return
}

// -----

func.func @bits_float(%s: tensor<i64>, %o: tensor<i64>) {
  // expected-error @+1 {{'rlx.rng_bits' op result #0 must be ranked tensor of 32-bit signless integer values, but got 'tensor<4xf32>'}}
  %0 = rlx.rng_bits %s, %o : tensor<4xf32>
  return
}

// -----

func.func @seed_not_scalar(%s: tensor<2xi64>, %o: tensor<i64>) {
  // expected-error @+1 {{'rlx.rng_bits' op operand #0 must be 0D tensor of 64-bit signless integer values, but got 'tensor<2xi64>'}}
  %0 = "rlx.rng_bits"(%s, %o) : (tensor<2xi64>, tensor<i64>) -> tensor<4xi32>
  return
}

// -----

func.func @offset_i32(%s: tensor<i64>, %o: tensor<i32>) {
  // expected-error @+1 {{'rlx.rng_bits' op operand #1 must be 0D tensor of 64-bit signless integer values, but got 'tensor<i32>'}}
  %0 = "rlx.rng_bits"(%s, %o) : (tensor<i64>, tensor<i32>) -> tensor<4xi32>
  return
}

// -----

func.func @dropout_p(%x: tensor<4xf32>, %s: tensor<i64>, %o: tensor<i64>) {
  // expected-error @+1 {{'rlx.dropout' op needs a probability p in [0, 1), got 1.000000e+00}}
  %0 = rlx.dropout %x, %s, %o p = 1.0 : tensor<4xf32>
  return
}

// -----

func.func @dropout_negative_p(%x: tensor<4xf32>, %s: tensor<i64>, %o: tensor<i64>) {
  // expected-error @+1 {{'rlx.dropout' op needs a probability p in [0, 1), got -5.000000e-01}}
  %0 = rlx.dropout %x, %s, %o p = -0.5 : tensor<4xf32>
  return
}

// -----

func.func @dropout_result_type(%x: tensor<4xf32>, %s: tensor<i64>, %o: tensor<i64>) {
  // expected-error @+1 {{'rlx.dropout' op failed to verify that all of {input, result} have same type}}
  %0 = "rlx.dropout"(%x, %s, %o) <{p = 0.5 : f64}> : (tensor<4xf32>, tensor<i64>, tensor<i64>) -> tensor<4xf16>
  return
}

// -----

func.func @dropout_integer(%x: tensor<4xi32>, %s: tensor<i64>, %o: tensor<i64>) {
  // expected-error @+1 {{'rlx.dropout' op operand #0 must be ranked tensor of floating-point values, but got 'tensor<4xi32>'}}
  %0 = rlx.dropout %x, %s, %o p = 0.5 : tensor<4xi32>
  return
}
