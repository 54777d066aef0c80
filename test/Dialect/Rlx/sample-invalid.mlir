// RUN: rlx-opt %s -split-input-file -verify-diagnostics

// One case per verifier rule of rlx.sample.

func.func @top_k(%l: tensor<4x8xf32>, %s: tensor<i64>, %o: tensor<i64>) {
  // expected-error @+1 {{'rlx.sample' op needs top_k >= 0 (0 keeps every token), got -1}}
  %0 = rlx.sample %l, %s, %o top_k = -1 : tensor<4x8xf32> -> tensor<4xi64>
  return
}

// -----

func.func @top_p_zero(%l: tensor<4x8xf32>, %s: tensor<i64>, %o: tensor<i64>) {
  // expected-error @+1 {{'rlx.sample' op needs top_p in (0, 1], got 0.000000e+00}}
  %0 = rlx.sample %l, %s, %o top_p = 0.0 : tensor<4x8xf32> -> tensor<4xi64>
  return
}

// -----

func.func @top_p_large(%l: tensor<4x8xf32>, %s: tensor<i64>, %o: tensor<i64>) {
  // expected-error @+1 {{'rlx.sample' op needs top_p in (0, 1], got 1.500000e+00}}
  %0 = rlx.sample %l, %s, %o top_p = 1.5 : tensor<4x8xf32> -> tensor<4xi64>
  return
}

// -----

func.func @top_p_nan(%l: tensor<4x8xf32>, %s: tensor<i64>, %o: tensor<i64>) {
  // expected-error @+1 {{'rlx.sample' op needs top_p in (0, 1], got nan}}
  %0 = rlx.sample %l, %s, %o top_p = 0x7FF8000000000000 : tensor<4x8xf32> -> tensor<4xi64>
  return
}

// -----

func.func @temperature(%l: tensor<4x8xf32>, %s: tensor<i64>, %o: tensor<i64>) {
  // expected-error @+1 {{'rlx.sample' op needs a finite temperature >= 0, got -5.000000e-01}}
  %0 = rlx.sample %l, %s, %o temperature = -0.5 : tensor<4x8xf32> -> tensor<4xi64>
  return
}

// -----

func.func @temperature_inf(%l: tensor<4x8xf32>, %s: tensor<i64>, %o: tensor<i64>) {
  // expected-error @+1 {{'rlx.sample' op needs a finite temperature >= 0, got INF}}
  %0 = rlx.sample %l, %s, %o temperature = 0x7FF0000000000000 : tensor<4x8xf32> -> tensor<4xi64>
  return
}

// -----

func.func @rank0(%l: tensor<f32>, %s: tensor<i64>, %o: tensor<i64>) {
  // expected-error @+1 {{'rlx.sample' op needs logits of rank >= 1 ([..., V]), got 'tensor<f32>'}}
  %0 = rlx.sample %l, %s, %o : tensor<f32> -> tensor<i64>
  return
}

// -----

func.func @dynamic_vocabulary(%l: tensor<4x?xf32>, %s: tensor<i64>, %o: tensor<i64>) {
  // expected-error @+1 {{'rlx.sample' op needs a static vocabulary size (the last dimension of the logits), got 'tensor<4x?xf32>'}}
  %0 = rlx.sample %l, %s, %o : tensor<4x?xf32> -> tensor<4xi64>
  return
}

// -----

func.func @empty_vocabulary(%l: tensor<4x0xf32>, %s: tensor<i64>, %o: tensor<i64>) {
  // expected-error @+1 {{'rlx.sample' op needs a vocabulary of at least one token, got 'tensor<4x0xf32>'}}
  %0 = rlx.sample %l, %s, %o : tensor<4x0xf32> -> tensor<4xi64>
  return
}

// -----

func.func @integer_logits(%l: tensor<4x8xi32>, %s: tensor<i64>, %o: tensor<i64>) {
  // expected-error @+1 {{'rlx.sample' op operand #0 must be ranked tensor of floating-point values, but got 'tensor<4x8xi32>'}}
  %0 = rlx.sample %l, %s, %o : tensor<4x8xi32> -> tensor<4xi64>
  return
}

// -----

func.func @float_result(%l: tensor<4x8xf32>, %s: tensor<i64>, %o: tensor<i64>) {
  // expected-error @+1 {{'rlx.sample' op result #0 must be ranked tensor of 32-bit signless integer or 64-bit signless integer values, but got 'tensor<4xf32>'}}
  %0 = rlx.sample %l, %s, %o : tensor<4x8xf32> -> tensor<4xf32>
  return
}

// -----

func.func @seed_type(%l: tensor<4x8xf32>, %s: tensor<i32>, %o: tensor<i64>) {
  // expected-error @+1 {{'rlx.sample' op operand #1 must be 0D tensor of 64-bit signless integer values, but got 'tensor<i32>'}}
  %0 = "rlx.sample"(%l, %s, %o) : (tensor<4x8xf32>, tensor<i32>, tensor<i64>) -> tensor<4xi64>
  return
}

// -----

func.func @result_shape(%l: tensor<4x8xf32>, %s: tensor<i64>, %o: tensor<i64>) {
  // expected-error @+1 {{'rlx.sample'}}
  %0 = rlx.sample %l, %s, %o : tensor<4x8xf32> -> tensor<8xi64>
  return
}
