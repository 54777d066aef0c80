// One training step of an LSTM language model: `@loss` embeds the
// tokens, runs a one-layer LSTM (rlx.lstm, batch-first) and a linear head,
// and takes the mean cross-entropy against the next tokens;
// --rlx-autodiff defines `@loss_grad` (through the LSTM's decomposition: a
// projection matmul and an rlx.scan whose backward recomputes each step
// from the saved states), and `@train_step` is one SGD step (learning rate
// 1) in rlx ops. examples/lstm_lm.py trains it against torch.nn.LSTM.
func.func private @loss_grad(tensor<32x16xf32>, tensor<128x16xf32>, tensor<128x32xf32>, tensor<128xf32>, tensor<128xf32>, tensor<32x32xf32>, tensor<32xf32>, tensor<4x12xi64>, tensor<4x12xi64>)
    -> (tensor<f32>, tensor<32x16xf32>, tensor<128x16xf32>, tensor<128x32xf32>, tensor<128xf32>, tensor<128xf32>, tensor<32x32xf32>, tensor<32xf32>)

func.func @loss(%emb: tensor<32x16xf32>, %w_ih: tensor<128x16xf32>, %w_hh: tensor<128x32xf32>, %b_ih: tensor<128xf32>, %b_hh: tensor<128xf32>, %w_out: tensor<32x32xf32>, %b_out: tensor<32xf32>, %tokens: tensor<4x12xi64>, %targets: tensor<4x12xi64>) -> tensor<f32>
    attributes {rlx.differentiate = array<i64: 0, 1, 2, 3, 4, 5, 6>} {
  %e = rlx.gather %emb, %tokens axis = 0 : (tensor<32x16xf32>, tensor<4x12xi64>) -> tensor<4x12x16xf32>
  %y, %h, %c = rlx.lstm %e weights(%w_ih, %w_hh, %b_ih, %b_hh : tensor<128x16xf32>, tensor<128x32xf32>, tensor<128xf32>, tensor<128xf32>) batch_first
      : tensor<4x12x16xf32> -> tensor<4x12x32xf32>, tensor<1x4x32xf32>, tensor<1x4x32xf32>
  %rows = rlx.reshape %y : tensor<4x12x32xf32> -> tensor<48x32xf32>
  %z = rlx.matmul %rows, %w_out : (tensor<48x32xf32>, tensor<32x32xf32>) -> tensor<48x32xf32>
  %logits = rlx.add %z, %b_out : (tensor<48x32xf32>, tensor<32xf32>) -> tensor<48x32xf32>
  %labels = rlx.reshape %targets : tensor<4x12xi64> -> tensor<48xi64>
  %ce = rlx.softmax_cross_entropy_with_labels %logits, %labels : (tensor<48x32xf32>, tensor<48xi64>) -> tensor<48xf32>
  %m = rlx.reduce mean %ce axes = [0] : tensor<48xf32> -> tensor<f32>
  return %m : tensor<f32>
}

func.func @train_step(%emb: tensor<32x16xf32>, %w_ih: tensor<128x16xf32>, %w_hh: tensor<128x32xf32>, %b_ih: tensor<128xf32>, %b_hh: tensor<128xf32>, %w_out: tensor<32x32xf32>, %b_out: tensor<32xf32>, %tokens: tensor<4x12xi64>, %targets: tensor<4x12xi64>)
    -> (tensor<f32>, tensor<32x16xf32>, tensor<128x16xf32>, tensor<128x32xf32>, tensor<128xf32>, tensor<128xf32>, tensor<32x32xf32>, tensor<32xf32>) {
  %loss, %g_emb, %g_w_ih, %g_w_hh, %g_b_ih, %g_b_hh, %g_w_out, %g_b_out = func.call @loss_grad(%emb, %w_ih, %w_hh, %b_ih, %b_hh, %w_out, %b_out, %tokens, %targets)
      : (tensor<32x16xf32>, tensor<128x16xf32>, tensor<128x32xf32>, tensor<128xf32>, tensor<128xf32>, tensor<32x32xf32>, tensor<32xf32>, tensor<4x12xi64>, tensor<4x12xi64>) -> (tensor<f32>, tensor<32x16xf32>, tensor<128x16xf32>, tensor<128x32xf32>, tensor<128xf32>, tensor<128xf32>, tensor<32x32xf32>, tensor<32xf32>)
  %lr = rlx.constant dense<1.0> : tensor<f32>
  %s_emb = rlx.mul %g_emb, %lr : (tensor<32x16xf32>, tensor<f32>) -> tensor<32x16xf32>
  %n_emb = rlx.sub %emb, %s_emb : (tensor<32x16xf32>, tensor<32x16xf32>) -> tensor<32x16xf32>
  %s_w_ih = rlx.mul %g_w_ih, %lr : (tensor<128x16xf32>, tensor<f32>) -> tensor<128x16xf32>
  %n_w_ih = rlx.sub %w_ih, %s_w_ih : (tensor<128x16xf32>, tensor<128x16xf32>) -> tensor<128x16xf32>
  %s_w_hh = rlx.mul %g_w_hh, %lr : (tensor<128x32xf32>, tensor<f32>) -> tensor<128x32xf32>
  %n_w_hh = rlx.sub %w_hh, %s_w_hh : (tensor<128x32xf32>, tensor<128x32xf32>) -> tensor<128x32xf32>
  %s_b_ih = rlx.mul %g_b_ih, %lr : (tensor<128xf32>, tensor<f32>) -> tensor<128xf32>
  %n_b_ih = rlx.sub %b_ih, %s_b_ih : (tensor<128xf32>, tensor<128xf32>) -> tensor<128xf32>
  %s_b_hh = rlx.mul %g_b_hh, %lr : (tensor<128xf32>, tensor<f32>) -> tensor<128xf32>
  %n_b_hh = rlx.sub %b_hh, %s_b_hh : (tensor<128xf32>, tensor<128xf32>) -> tensor<128xf32>
  %s_w_out = rlx.mul %g_w_out, %lr : (tensor<32x32xf32>, tensor<f32>) -> tensor<32x32xf32>
  %n_w_out = rlx.sub %w_out, %s_w_out : (tensor<32x32xf32>, tensor<32x32xf32>) -> tensor<32x32xf32>
  %s_b_out = rlx.mul %g_b_out, %lr : (tensor<32xf32>, tensor<f32>) -> tensor<32xf32>
  %n_b_out = rlx.sub %b_out, %s_b_out : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
  return %loss, %n_emb, %n_w_ih, %n_w_hh, %n_b_ih, %n_b_hh, %n_w_out, %n_b_out : tensor<f32>, tensor<32x16xf32>, tensor<128x16xf32>, tensor<128x32xf32>, tensor<128xf32>, tensor<128xf32>, tensor<32x32xf32>, tensor<32xf32>
}
