// One training step of a Mamba language model: `@loss` embeds the tokens,
// adds one Mamba block (mamba_ssm's Mamba: in_proj to x and z, a causal
// depthwise conv1d of width 4 and silu on x, x_proj to dt, B and C, dt_proj,
// rlx.selective_scan with D, dt_proj's bias, softplus and the gate silu(z),
// out_proj) applied to their RMSNorm, and takes the mean cross-entropy of a
// linear head against the next tokens; d_model 16, d_inner 32, d_state 8,
// dt_rank 1. --rlx-autodiff defines `@loss_grad` (through the scan's
// decomposition: an rlx.scan over chunks whose backward recomputes each
// chunk from the saved states), `@train_step` is one SGD step (learning
// rate 1) in rlx ops and `@gradients` returns the gradient.
// examples/mamba_block.py trains it against PyTorch (nn.Conv1d,
// rlx_testing.sequence.selective_scan).
func.func private @loss_grad(tensor<32x16xf32>, tensor<16xf32>, tensor<16x64xf32>, tensor<32x1x4xf32>, tensor<32xf32>, tensor<32x17xf32>, tensor<1x32xf32>, tensor<32xf32>, tensor<32x8xf32>, tensor<32xf32>, tensor<32x16xf32>, tensor<16x32xf32>, tensor<32xf32>, tensor<4x12xi64>, tensor<4x12xi64>)
    -> (tensor<f32>, tensor<32x16xf32>, tensor<16xf32>, tensor<16x64xf32>, tensor<32x1x4xf32>, tensor<32xf32>, tensor<32x17xf32>, tensor<1x32xf32>, tensor<32xf32>, tensor<32x8xf32>, tensor<32xf32>, tensor<32x16xf32>, tensor<16x32xf32>, tensor<32xf32>)

func.func @loss(%emb: tensor<32x16xf32>, %norm_w: tensor<16xf32>, %w_in: tensor<16x64xf32>, %conv_w: tensor<32x1x4xf32>, %conv_b: tensor<32xf32>, %w_x: tensor<32x17xf32>, %w_dt: tensor<1x32xf32>, %dt_bias: tensor<32xf32>, %A_log: tensor<32x8xf32>, %D: tensor<32xf32>, %w_out: tensor<32x16xf32>, %w_head: tensor<16x32xf32>, %b_head: tensor<32xf32>, %tokens: tensor<4x12xi64>, %targets: tensor<4x12xi64>) -> tensor<f32>
    attributes {rlx.differentiate = array<i64: 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12>} {
  // Embedding, then the block's input: RMSNorm of the residual stream.
  %e = rlx.gather %emb, %tokens axis = 0 : (tensor<32x16xf32>, tensor<4x12xi64>) -> tensor<4x12x16xf32>
  %n = rlx.rms_norm %e, %norm_w axis = 2 eps = 1.0e-5 : (tensor<4x12x16xf32>, tensor<16xf32>) -> tensor<4x12x16xf32>
  // in_proj to the two branches x and z, channels first: [batch, d_inner, L].
  %xz_rows = rlx.matmul %n, %w_in : (tensor<4x12x16xf32>, tensor<16x64xf32>) -> tensor<4x12x64xf32>
  %xz = rlx.transpose %xz_rows [0, 2, 1] : tensor<4x12x64xf32> -> tensor<4x64x12xf32>
  %x0 = rlx.narrow %xz axis = 1, start = 0, length = 32 : tensor<4x64x12xf32> -> tensor<4x32x12xf32>
  %z = rlx.narrow %xz axis = 1, start = 32, length = 32 : tensor<4x64x12xf32> -> tensor<4x32x12xf32>
  // The causal depthwise conv1d of width 4: 3 zeros before the sequence and
  // none after keep exactly PyTorch's first L outputs of padding = 3.
  %xc = rlx.conv %x0, %conv_w stride = [1] padding = [3, 0] dilation = [1] groups = 32 : (tensor<4x32x12xf32>, tensor<32x1x4xf32>) -> tensor<4x32x12xf32>
  %cb = rlx.reshape %conv_b : tensor<32xf32> -> tensor<32x1xf32>
  %xb = rlx.add %xc, %cb : (tensor<4x32x12xf32>, tensor<32x1xf32>) -> tensor<4x32x12xf32>
  %x = rlx.silu %xb : tensor<4x32x12xf32>
  // x_proj to dt (rank 1), B and C (8 states each), per step.
  %xt = rlx.transpose %x [0, 2, 1] : tensor<4x32x12xf32> -> tensor<4x12x32xf32>
  %dbc = rlx.matmul %xt, %w_x : (tensor<4x12x32xf32>, tensor<32x17xf32>) -> tensor<4x12x17xf32>
  %dt_low = rlx.narrow %dbc axis = 2, start = 0, length = 1 : tensor<4x12x17xf32> -> tensor<4x12x1xf32>
  %b_rows = rlx.narrow %dbc axis = 2, start = 1, length = 8 : tensor<4x12x17xf32> -> tensor<4x12x8xf32>
  %c_rows = rlx.narrow %dbc axis = 2, start = 9, length = 8 : tensor<4x12x17xf32> -> tensor<4x12x8xf32>
  // dt_proj without its bias (the op adds it, then softplus).
  %dt_rows = rlx.matmul %dt_low, %w_dt : (tensor<4x12x1xf32>, tensor<1x32xf32>) -> tensor<4x12x32xf32>
  %dt = rlx.transpose %dt_rows [0, 2, 1] : tensor<4x12x32xf32> -> tensor<4x32x12xf32>
  %B = rlx.transpose %b_rows [0, 2, 1] : tensor<4x12x8xf32> -> tensor<4x8x12xf32>
  %C = rlx.transpose %c_rows [0, 2, 1] : tensor<4x12x8xf32> -> tensor<4x8x12xf32>
  %A_exp = rlx.exp %A_log : tensor<32x8xf32>
  %A = rlx.neg %A_exp : tensor<32x8xf32>
  // The selective scan: delta = softplus(dt + dt_proj's bias), the skip D,
  // the gate silu(z); chunk = 8 makes two chunks (the second padded), so
  // the state crosses a chunk boundary.
  %y, %last = rlx.selective_scan %x, %dt, %A, %B, %C D(%D) z(%z) delta_bias(%dt_bias) delta_softplus chunk = 8
      : (tensor<4x32x12xf32>, tensor<4x32x12xf32>, tensor<32x8xf32>, tensor<4x8x12xf32>, tensor<4x8x12xf32>, tensor<32xf32>, tensor<4x32x12xf32>, tensor<32xf32>)
      -> (tensor<4x32x12xf32>, tensor<4x32x8xf32>)
  // out_proj back to rows and the residual connection, then the head and
  // the mean cross-entropy against the next tokens.
  %yt = rlx.transpose %y [0, 2, 1] : tensor<4x32x12xf32> -> tensor<4x12x32xf32>
  %o = rlx.matmul %yt, %w_out : (tensor<4x12x32xf32>, tensor<32x16xf32>) -> tensor<4x12x16xf32>
  %h = rlx.add %e, %o : (tensor<4x12x16xf32>, tensor<4x12x16xf32>) -> tensor<4x12x16xf32>
  %rows = rlx.reshape %h : tensor<4x12x16xf32> -> tensor<48x16xf32>
  %zh = rlx.matmul %rows, %w_head : (tensor<48x16xf32>, tensor<16x32xf32>) -> tensor<48x32xf32>
  %logits = rlx.add %zh, %b_head : (tensor<48x32xf32>, tensor<32xf32>) -> tensor<48x32xf32>
  %labels = rlx.reshape %targets : tensor<4x12xi64> -> tensor<48xi64>
  %ce = rlx.softmax_cross_entropy_with_labels %logits, %labels : (tensor<48x32xf32>, tensor<48xi64>) -> tensor<48xf32>
  %m = rlx.reduce mean %ce axes = [0] : tensor<48xf32> -> tensor<f32>
  return %m : tensor<f32>
}

func.func @train_step(%emb: tensor<32x16xf32>, %norm_w: tensor<16xf32>, %w_in: tensor<16x64xf32>, %conv_w: tensor<32x1x4xf32>, %conv_b: tensor<32xf32>, %w_x: tensor<32x17xf32>, %w_dt: tensor<1x32xf32>, %dt_bias: tensor<32xf32>, %A_log: tensor<32x8xf32>, %D: tensor<32xf32>, %w_out: tensor<32x16xf32>, %w_head: tensor<16x32xf32>, %b_head: tensor<32xf32>, %tokens: tensor<4x12xi64>, %targets: tensor<4x12xi64>)
    -> (tensor<f32>, tensor<32x16xf32>, tensor<16xf32>, tensor<16x64xf32>, tensor<32x1x4xf32>, tensor<32xf32>, tensor<32x17xf32>, tensor<1x32xf32>, tensor<32xf32>, tensor<32x8xf32>, tensor<32xf32>, tensor<32x16xf32>, tensor<16x32xf32>, tensor<32xf32>) {
  %loss, %g_emb, %g_norm_w, %g_w_in, %g_conv_w, %g_conv_b, %g_w_x, %g_w_dt, %g_dt_bias, %g_A_log, %g_D, %g_w_out, %g_w_head, %g_b_head = func.call @loss_grad(%emb, %norm_w, %w_in, %conv_w, %conv_b, %w_x, %w_dt, %dt_bias, %A_log, %D, %w_out, %w_head, %b_head, %tokens, %targets)
      : (tensor<32x16xf32>, tensor<16xf32>, tensor<16x64xf32>, tensor<32x1x4xf32>, tensor<32xf32>, tensor<32x17xf32>, tensor<1x32xf32>, tensor<32xf32>, tensor<32x8xf32>, tensor<32xf32>, tensor<32x16xf32>, tensor<16x32xf32>, tensor<32xf32>, tensor<4x12xi64>, tensor<4x12xi64>) -> (tensor<f32>, tensor<32x16xf32>, tensor<16xf32>, tensor<16x64xf32>, tensor<32x1x4xf32>, tensor<32xf32>, tensor<32x17xf32>, tensor<1x32xf32>, tensor<32xf32>, tensor<32x8xf32>, tensor<32xf32>, tensor<32x16xf32>, tensor<16x32xf32>, tensor<32xf32>)
  %lr = rlx.constant dense<1.0> : tensor<f32>
  %s_emb = rlx.mul %g_emb, %lr : (tensor<32x16xf32>, tensor<f32>) -> tensor<32x16xf32>
  %n_emb = rlx.sub %emb, %s_emb : (tensor<32x16xf32>, tensor<32x16xf32>) -> tensor<32x16xf32>
  %s_norm_w = rlx.mul %g_norm_w, %lr : (tensor<16xf32>, tensor<f32>) -> tensor<16xf32>
  %n_norm_w = rlx.sub %norm_w, %s_norm_w : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
  %s_w_in = rlx.mul %g_w_in, %lr : (tensor<16x64xf32>, tensor<f32>) -> tensor<16x64xf32>
  %n_w_in = rlx.sub %w_in, %s_w_in : (tensor<16x64xf32>, tensor<16x64xf32>) -> tensor<16x64xf32>
  %s_conv_w = rlx.mul %g_conv_w, %lr : (tensor<32x1x4xf32>, tensor<f32>) -> tensor<32x1x4xf32>
  %n_conv_w = rlx.sub %conv_w, %s_conv_w : (tensor<32x1x4xf32>, tensor<32x1x4xf32>) -> tensor<32x1x4xf32>
  %s_conv_b = rlx.mul %g_conv_b, %lr : (tensor<32xf32>, tensor<f32>) -> tensor<32xf32>
  %n_conv_b = rlx.sub %conv_b, %s_conv_b : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
  %s_w_x = rlx.mul %g_w_x, %lr : (tensor<32x17xf32>, tensor<f32>) -> tensor<32x17xf32>
  %n_w_x = rlx.sub %w_x, %s_w_x : (tensor<32x17xf32>, tensor<32x17xf32>) -> tensor<32x17xf32>
  %s_w_dt = rlx.mul %g_w_dt, %lr : (tensor<1x32xf32>, tensor<f32>) -> tensor<1x32xf32>
  %n_w_dt = rlx.sub %w_dt, %s_w_dt : (tensor<1x32xf32>, tensor<1x32xf32>) -> tensor<1x32xf32>
  %s_dt_bias = rlx.mul %g_dt_bias, %lr : (tensor<32xf32>, tensor<f32>) -> tensor<32xf32>
  %n_dt_bias = rlx.sub %dt_bias, %s_dt_bias : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
  %s_A_log = rlx.mul %g_A_log, %lr : (tensor<32x8xf32>, tensor<f32>) -> tensor<32x8xf32>
  %n_A_log = rlx.sub %A_log, %s_A_log : (tensor<32x8xf32>, tensor<32x8xf32>) -> tensor<32x8xf32>
  %s_D = rlx.mul %g_D, %lr : (tensor<32xf32>, tensor<f32>) -> tensor<32xf32>
  %n_D = rlx.sub %D, %s_D : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
  %s_w_out = rlx.mul %g_w_out, %lr : (tensor<32x16xf32>, tensor<f32>) -> tensor<32x16xf32>
  %n_w_out = rlx.sub %w_out, %s_w_out : (tensor<32x16xf32>, tensor<32x16xf32>) -> tensor<32x16xf32>
  %s_w_head = rlx.mul %g_w_head, %lr : (tensor<16x32xf32>, tensor<f32>) -> tensor<16x32xf32>
  %n_w_head = rlx.sub %w_head, %s_w_head : (tensor<16x32xf32>, tensor<16x32xf32>) -> tensor<16x32xf32>
  %s_b_head = rlx.mul %g_b_head, %lr : (tensor<32xf32>, tensor<f32>) -> tensor<32xf32>
  %n_b_head = rlx.sub %b_head, %s_b_head : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
  return %loss, %n_emb, %n_norm_w, %n_w_in, %n_conv_w, %n_conv_b, %n_w_x, %n_w_dt, %n_dt_bias, %n_A_log, %n_D, %n_w_out, %n_w_head, %n_b_head : tensor<f32>, tensor<32x16xf32>, tensor<16xf32>, tensor<16x64xf32>, tensor<32x1x4xf32>, tensor<32xf32>, tensor<32x17xf32>, tensor<1x32xf32>, tensor<32xf32>, tensor<32x8xf32>, tensor<32xf32>, tensor<32x16xf32>, tensor<16x32xf32>, tensor<32xf32>
}

// The loss and its gradient, for examples/mamba_block.py's check of each
// gradient against PyTorch's (@loss_grad itself is private).
func.func @gradients(%emb: tensor<32x16xf32>, %norm_w: tensor<16xf32>, %w_in: tensor<16x64xf32>, %conv_w: tensor<32x1x4xf32>, %conv_b: tensor<32xf32>, %w_x: tensor<32x17xf32>, %w_dt: tensor<1x32xf32>, %dt_bias: tensor<32xf32>, %A_log: tensor<32x8xf32>, %D: tensor<32xf32>, %w_out: tensor<32x16xf32>, %w_head: tensor<16x32xf32>, %b_head: tensor<32xf32>, %tokens: tensor<4x12xi64>, %targets: tensor<4x12xi64>)
    -> (tensor<f32>, tensor<32x16xf32>, tensor<16xf32>, tensor<16x64xf32>, tensor<32x1x4xf32>, tensor<32xf32>, tensor<32x17xf32>, tensor<1x32xf32>, tensor<32xf32>, tensor<32x8xf32>, tensor<32xf32>, tensor<32x16xf32>, tensor<16x32xf32>, tensor<32xf32>) {
  %loss, %g_emb, %g_norm_w, %g_w_in, %g_conv_w, %g_conv_b, %g_w_x, %g_w_dt, %g_dt_bias, %g_A_log, %g_D, %g_w_out, %g_w_head, %g_b_head = func.call @loss_grad(%emb, %norm_w, %w_in, %conv_w, %conv_b, %w_x, %w_dt, %dt_bias, %A_log, %D, %w_out, %w_head, %b_head, %tokens, %targets)
      : (tensor<32x16xf32>, tensor<16xf32>, tensor<16x64xf32>, tensor<32x1x4xf32>, tensor<32xf32>, tensor<32x17xf32>, tensor<1x32xf32>, tensor<32xf32>, tensor<32x8xf32>, tensor<32xf32>, tensor<32x16xf32>, tensor<16x32xf32>, tensor<32xf32>, tensor<4x12xi64>, tensor<4x12xi64>) -> (tensor<f32>, tensor<32x16xf32>, tensor<16xf32>, tensor<16x64xf32>, tensor<32x1x4xf32>, tensor<32xf32>, tensor<32x17xf32>, tensor<1x32xf32>, tensor<32xf32>, tensor<32x8xf32>, tensor<32xf32>, tensor<32x16xf32>, tensor<16x32xf32>, tensor<32xf32>)
  return %loss, %g_emb, %g_norm_w, %g_w_in, %g_conv_w, %g_conv_b, %g_w_x, %g_w_dt, %g_dt_bias, %g_A_log, %g_D, %g_w_out, %g_w_head, %g_b_head : tensor<f32>, tensor<32x16xf32>, tensor<16xf32>, tensor<16x64xf32>, tensor<32x1x4xf32>, tensor<32xf32>, tensor<32x17xf32>, tensor<1x32xf32>, tensor<32xf32>, tensor<32x8xf32>, tensor<32xf32>, tensor<32x16xf32>, tensor<16x32xf32>, tensor<32xf32>
}
