// RUN: rlx-opt %s -split-input-file -verify-diagnostics

func.func @rank(%x: tensor<5x3xf32>, %wi: tensor<8x3xf32>, %wh: tensor<8x8xf32>) {
  // expected-error @+2 {{the input must be [T, B, I] (or [B, T, I] batch-first), got rank 2}}
  // expected-error @+1 {{failed to infer returned types}}
  %y, %h = rlx.rnn %x weights(%wi, %wh : tensor<8x3xf32>, tensor<8x8xf32>) : tensor<5x3xf32> -> tensor<5x8xf32>, tensor<1x5x8xf32>
  return
}

// -----

func.func @count(%x: tensor<5x2x3xf32>, %wi: tensor<8x3xf32>, %wh: tensor<8x8xf32>) {
  // expected-error @+2 {{expects 4 weights per layer and direction (2 without biases) for 1 layers and 2 directions, got 2}}
  // expected-error @+1 {{failed to infer returned types}}
  %y, %h = rlx.rnn %x weights(%wi, %wh : tensor<8x3xf32>, tensor<8x8xf32>) bidirectional : tensor<5x2x3xf32> -> tensor<5x2x16xf32>, tensor<2x2x8xf32>
  return
}

// -----

func.func @gate_rows(%x: tensor<5x2x3xf32>, %wi: tensor<24x3xf32>, %wh: tensor<24x8xf32>) {
  // expected-error @+2 {{w_ih of layer 0 direction 0 must be [32, 3] (G*H = 4*8), got 'tensor<24x3xf32>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %y, %h, %c = rlx.lstm %x weights(%wi, %wh : tensor<24x3xf32>, tensor<24x8xf32>) : tensor<5x2x3xf32> -> tensor<5x2x8xf32>, tensor<1x2x8xf32>, tensor<1x2x8xf32>
  return
}

// -----

func.func @hidden(%x: tensor<5x2x3xf32>, %wi: tensor<18x3xf32>, %wh: tensor<?x5xf32>) {
  // expected-error @+2 {{w_hh must be a static [G*H, H] matrix}}
  // expected-error @+1 {{failed to infer returned types}}
  %y, %h = rlx.gru %x weights(%wi, %wh : tensor<18x3xf32>, tensor<?x5xf32>) : tensor<5x2x3xf32> -> tensor<5x2x6xf32>, tensor<1x2x6xf32>
  return
}

// -----

func.func @features(%x: tensor<5x2x4xf32>, %wi: tensor<8x3xf32>, %wh: tensor<8x8xf32>) {
  // expected-error @+2 {{the input has 4 features, w_ih of layer 0 reads 3}}
  // expected-error @+1 {{failed to infer returned types}}
  %y, %h = rlx.rnn %x weights(%wi, %wh : tensor<8x3xf32>, tensor<8x8xf32>) : tensor<5x2x4xf32> -> tensor<5x2x8xf32>, tensor<1x2x8xf32>
  return
}

// -----

// Layer 1 reads the D*H = 16 features of layer 0's output.
func.func @second_layer(%x: tensor<5x2x3xf32>, %wi: tensor<8x3xf32>, %wh: tensor<8x8xf32>) {
  // expected-error @+2 {{w_ih of layer 1 direction 0 must be [8, 16] (G*H = 1*8), got 'tensor<8x3xf32>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %y, %h = rlx.rnn %x weights(%wi, %wh, %wi, %wh, %wi, %wh, %wi, %wh : tensor<8x3xf32>, tensor<8x8xf32>, tensor<8x3xf32>, tensor<8x8xf32>, tensor<8x3xf32>, tensor<8x8xf32>, tensor<8x3xf32>, tensor<8x8xf32>) layers = 2 bidirectional : tensor<5x2x3xf32> -> tensor<5x2x16xf32>, tensor<4x2x8xf32>
  return
}

// -----

func.func @bias(%x: tensor<5x2x3xf32>, %wi: tensor<8x3xf32>, %wh: tensor<8x8xf32>, %b: tensor<4xf32>) {
  // expected-error @+2 {{b_ih of layer 0 direction 0 must be [8] (G*H = 1*8), got 'tensor<4xf32>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %y, %h = rlx.rnn %x weights(%wi, %wh, %b, %b : tensor<8x3xf32>, tensor<8x8xf32>, tensor<4xf32>, tensor<4xf32>) : tensor<5x2x3xf32> -> tensor<5x2x8xf32>, tensor<1x2x8xf32>
  return
}

// -----

func.func @initial_state(%x: tensor<5x2x3xf32>, %wi: tensor<8x3xf32>, %wh: tensor<8x8xf32>, %h0: tensor<1x3x8xf32>) {
  // expected-error @+2 {{an initial state must be [L*D, B, H] = [1, 2, 8], got [1, 3, 8]}}
  // expected-error @+1 {{failed to infer returned types}}
  %y, %h = rlx.rnn %x weights(%wi, %wh : tensor<8x3xf32>, tensor<8x8xf32>) initial(%h0 : tensor<1x3x8xf32>) : tensor<5x2x3xf32> -> tensor<5x2x8xf32>, tensor<1x2x8xf32>
  return
}

// -----

func.func @layers(%x: tensor<5x2x3xf32>, %wi: tensor<8x3xf32>, %wh: tensor<8x8xf32>) {
  // expected-error @+2 {{needs at least one layer, got 0}}
  // expected-error @+1 {{failed to infer returned types}}
  %y, %h = rlx.rnn %x weights(%wi, %wh : tensor<8x3xf32>, tensor<8x8xf32>) layers = 0 : tensor<5x2x3xf32> -> tensor<5x2x8xf32>, tensor<1x2x8xf32>
  return
}

// -----

func.func @element_type(%x: tensor<5x2x3xf32>, %wi: tensor<8x3xf64>, %wh: tensor<8x8xf32>) {
  // expected-error @+1 {{every operand must have the input's element type 'f32', got 'tensor<8x3xf64>'}}
  %y, %h = rlx.rnn %x weights(%wi, %wh : tensor<8x3xf64>, tensor<8x8xf32>) : tensor<5x2x3xf32> -> tensor<5x2x8xf32>, tensor<1x2x8xf32>
  return
}

// -----

func.func @lstm_states(%x: tensor<5x2x3xf32>, %wi: tensor<32x3xf32>, %wh: tensor<32x8xf32>, %h0: tensor<1x2x8xf32>) {
  // expected-error @+1 {{'rlx.lstm' op takes h0 and c0 together or neither}}
  %y, %h, %c = "rlx.lstm"(%x, %wi, %wh, %h0) <{operandSegmentSizes = array<i32: 1, 2, 1, 0>}> : (tensor<5x2x3xf32>, tensor<32x3xf32>, tensor<32x8xf32>, tensor<1x2x8xf32>) -> (tensor<5x2x8xf32>, tensor<1x2x8xf32>, tensor<1x2x8xf32>)
  return
}

// -----

func.func @result_type(%x: tensor<5x2x3xf32>, %wi: tensor<8x3xf32>, %wh: tensor<8x8xf32>) {
  // expected-error @+2 {{'rlx.rnn' op inferred type(s) 'tensor<5x2x8xf32>', 'tensor<1x2x8xf32>' are incompatible with return type(s) of operation 'tensor<5x2x4xf32>', 'tensor<1x2x8xf32>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %y, %h = rlx.rnn %x weights(%wi, %wh : tensor<8x3xf32>, tensor<8x8xf32>) : tensor<5x2x3xf32> -> tensor<5x2x4xf32>, tensor<1x2x8xf32>
  return
}

// -----

func.func @huge_layers(%x: tensor<5x2x3xf32>, %wi: tensor<8x3xf32>, %wh: tensor<8x8xf32>) {
  // expected-error @+2 {{expects 4 weights per layer and direction (2 without biases) for 4611686018427387904 layers and 2 directions, got 2}}
  // expected-error @+1 {{failed to infer returned types}}
  %y, %h = rlx.rnn %x weights(%wi, %wh : tensor<8x3xf32>, tensor<8x8xf32>) layers = 4611686018427387904 bidirectional : tensor<5x2x3xf32> -> tensor<5x2x16xf32>, tensor<2x2x8xf32>
  return
}
