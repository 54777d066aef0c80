// The recurrent layers with static shapes for the GPU pipeline
// (test/Pipelines/gpu-recurrent.test): an LSTM, a bidirectional GRU, a
// relu RNN, the gradient of an LSTM loss, and a custom_fn.
func.func @lstm(%x: tensor<6x4x3xf32>, %wi: tensor<32x3xf32>, %wh: tensor<32x8xf32>, %bi: tensor<32xf32>, %bh: tensor<32xf32>) -> (tensor<6x4x8xf32>, tensor<1x4x8xf32>, tensor<1x4x8xf32>) {
  %y, %h, %c = rlx.lstm %x weights(%wi, %wh, %bi, %bh : tensor<32x3xf32>, tensor<32x8xf32>, tensor<32xf32>, tensor<32xf32>) : tensor<6x4x3xf32> -> tensor<6x4x8xf32>, tensor<1x4x8xf32>, tensor<1x4x8xf32>
  return %y, %h, %c : tensor<6x4x8xf32>, tensor<1x4x8xf32>, tensor<1x4x8xf32>
}

func.func @gru(%x: tensor<4x6x3xf32>, %wi: tensor<24x3xf32>, %wh: tensor<24x8xf32>, %bi: tensor<24xf32>, %bh: tensor<24xf32>, %wir: tensor<24x3xf32>, %whr: tensor<24x8xf32>, %bir: tensor<24xf32>, %bhr: tensor<24xf32>, %h0: tensor<2x4x8xf32>) -> (tensor<4x6x16xf32>, tensor<2x4x8xf32>) {
  %y, %h = rlx.gru %x weights(%wi, %wh, %bi, %bh, %wir, %whr, %bir, %bhr : tensor<24x3xf32>, tensor<24x8xf32>, tensor<24xf32>, tensor<24xf32>, tensor<24x3xf32>, tensor<24x8xf32>, tensor<24xf32>, tensor<24xf32>) initial(%h0 : tensor<2x4x8xf32>) bidirectional batch_first : tensor<4x6x3xf32> -> tensor<4x6x16xf32>, tensor<2x4x8xf32>
  return %y, %h : tensor<4x6x16xf32>, tensor<2x4x8xf32>
}

func.func @rnn(%x: tensor<6x4x3xf32>, %wi: tensor<8x3xf32>, %wh: tensor<8x8xf32>) -> (tensor<6x4x8xf32>, tensor<1x4x8xf32>) {
  %y, %h = rlx.rnn %x weights(%wi, %wh : tensor<8x3xf32>, tensor<8x8xf32>) relu : tensor<6x4x3xf32> -> tensor<6x4x8xf32>, tensor<1x4x8xf32>
  return %y, %h : tensor<6x4x8xf32>, tensor<1x4x8xf32>
}

func.func @lstm_loss(%x: tensor<6x4x3xf32>, %wi: tensor<32x3xf32>, %wh: tensor<32x8xf32>, %bi: tensor<32xf32>, %bh: tensor<32xf32>) -> tensor<f32>
    attributes {rlx.differentiate = array<i64: 0, 1, 2, 3, 4>} {
  %y, %h, %c = rlx.lstm %x weights(%wi, %wh, %bi, %bh : tensor<32x3xf32>, tensor<32x8xf32>, tensor<32xf32>, tensor<32xf32>) : tensor<6x4x3xf32> -> tensor<6x4x8xf32>, tensor<1x4x8xf32>, tensor<1x4x8xf32>
  %s = rlx.mul %y, %y : (tensor<6x4x8xf32>, tensor<6x4x8xf32>) -> tensor<6x4x8xf32>
  %l = rlx.reduce sum %s axes = [0, 1, 2] : tensor<6x4x8xf32> -> tensor<f32>
  return %l : tensor<f32>
}

// rlx.custom_fn: the body inlined; the gradient is the user's backward.
func.func @rounded_loss(%x: tensor<64xf32>) -> tensor<f32>
    attributes {rlx.differentiate = array<i64: 0>} {
  %r = rlx.custom_fn (%x : tensor<64xf32>) -> (tensor<64xf32>) {
  ^bb0(%a: tensor<64xf32>):
    %q = rlx.round %a : tensor<64xf32>
    rlx.yield %q : tensor<64xf32>
  } backward {
  ^bb0(%a: tensor<64xf32>, %q: tensor<64xf32>, %dq: tensor<64xf32>):
    rlx.yield %dq : tensor<64xf32>
  }
  %s = rlx.mul %r, %r : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
  %l = rlx.reduce sum %s axes = [0] : tensor<64xf32> -> tensor<f32>
  return %l : tensor<f32>
}
