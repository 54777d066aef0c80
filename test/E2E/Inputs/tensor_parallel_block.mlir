// A pre-norm transformer block (RMSNorm, RoPE, causal GQA attention with 8
// query and 4 key/value heads, SwiGLU MLP) for test/E2E/tensor_parallel.py:
// @tp_forward and @tp_grad (the loss sum(block(x) * dy) and its gradients
// through --rlx-autodiff) take the weights split Megatron-style, which only
// matters when compiled with --mesh; @block_loss is the unsplit function
// the gradient is taken of.
func.func private @block_loss_grad(tensor<2x8x32xf32>, tensor<32xf32>, tensor<32x32xf32>, tensor<32x16xf32>, tensor<32x16xf32>, tensor<8x2xf32>, tensor<8x2xf32>, tensor<32x32xf32>, tensor<32xf32>, tensor<32x64xf32>, tensor<32x64xf32>, tensor<64x32xf32>, tensor<2x8x32xf32>)
    -> (tensor<f32>, tensor<2x8x32xf32>, tensor<32xf32>, tensor<32x32xf32>, tensor<32x16xf32>, tensor<32x16xf32>, tensor<32x32xf32>, tensor<32xf32>, tensor<32x64xf32>, tensor<32x64xf32>, tensor<64x32xf32>)

func.func @block(%x: tensor<2x8x32xf32>, %attn_norm: tensor<32xf32>,
                 %wq: tensor<32x32xf32>, %wk: tensor<32x16xf32>, %wv: tensor<32x16xf32>,
                 %cos: tensor<8x2xf32>, %sin: tensor<8x2xf32>, %wo: tensor<32x32xf32>,
                 %mlp_norm: tensor<32xf32>, %wup: tensor<32x64xf32>, %wgate: tensor<32x64xf32>,
                 %wdown: tensor<64x32xf32>) -> tensor<2x8x32xf32> {
  %n1 = rlx.rms_norm %x, %attn_norm axis = -1 eps = 1.0e-5 : (tensor<2x8x32xf32>, tensor<32xf32>) -> tensor<2x8x32xf32>
  %q = rlx.matmul %n1, %wq : (tensor<2x8x32xf32>, tensor<32x32xf32>) -> tensor<2x8x32xf32>
  %k = rlx.matmul %n1, %wk : (tensor<2x8x32xf32>, tensor<32x16xf32>) -> tensor<2x8x16xf32>
  %v = rlx.matmul %n1, %wv : (tensor<2x8x32xf32>, tensor<32x16xf32>) -> tensor<2x8x16xf32>
  %qr = rlx.rope neox bsd %q, %cos, %sin head_dim = 4, n_rot = 4 : (tensor<2x8x32xf32>, tensor<8x2xf32>, tensor<8x2xf32>) -> tensor<2x8x32xf32>
  %kr = rlx.rope neox bsd %k, %cos, %sin head_dim = 4, n_rot = 4 : (tensor<2x8x16xf32>, tensor<8x2xf32>, tensor<8x2xf32>) -> tensor<2x8x16xf32>
  %q4 = rlx.reshape %qr : tensor<2x8x32xf32> -> tensor<2x8x8x4xf32>
  %k4 = rlx.reshape %kr : tensor<2x8x16xf32> -> tensor<2x8x4x4xf32>
  %v4 = rlx.reshape %v : tensor<2x8x16xf32> -> tensor<2x8x4x4xf32>
  %a4 = rlx.attention bshd %q4, %k4, %v4 heads = 8 kv_heads = 4 mask = causal : (tensor<2x8x8x4xf32>, tensor<2x8x4x4xf32>, tensor<2x8x4x4xf32>) -> tensor<2x8x8x4xf32>
  %a = rlx.reshape %a4 : tensor<2x8x8x4xf32> -> tensor<2x8x32xf32>
  %o = rlx.matmul %a, %wo : (tensor<2x8x32xf32>, tensor<32x32xf32>) -> tensor<2x8x32xf32>
  %h = rlx.add %o, %x : (tensor<2x8x32xf32>, tensor<2x8x32xf32>) -> tensor<2x8x32xf32>
  %n2 = rlx.rms_norm %h, %mlp_norm axis = -1 eps = 1.0e-5 : (tensor<2x8x32xf32>, tensor<32xf32>) -> tensor<2x8x32xf32>
  %up = rlx.matmul %n2, %wup : (tensor<2x8x32xf32>, tensor<32x64xf32>) -> tensor<2x8x64xf32>
  %gate = rlx.matmul %n2, %wgate : (tensor<2x8x32xf32>, tensor<32x64xf32>) -> tensor<2x8x64xf32>
  %act = rlx.silu %gate : tensor<2x8x64xf32>
  %m = rlx.mul %act, %up : (tensor<2x8x64xf32>, tensor<2x8x64xf32>) -> tensor<2x8x64xf32>
  %d = rlx.matmul %m, %wdown : (tensor<2x8x64xf32>, tensor<64x32xf32>) -> tensor<2x8x32xf32>
  %out = rlx.add %d, %h : (tensor<2x8x32xf32>, tensor<2x8x32xf32>) -> tensor<2x8x32xf32>
  return %out : tensor<2x8x32xf32>
}

func.func @block_loss(%x: tensor<2x8x32xf32>, %attn_norm: tensor<32xf32>,
                 %wq: tensor<32x32xf32>, %wk: tensor<32x16xf32>, %wv: tensor<32x16xf32>,
                 %cos: tensor<8x2xf32>, %sin: tensor<8x2xf32>, %wo: tensor<32x32xf32>,
                 %mlp_norm: tensor<32xf32>, %wup: tensor<32x64xf32>, %wgate: tensor<32x64xf32>,
                 %wdown: tensor<64x32xf32>, %dy: tensor<2x8x32xf32>) -> tensor<f32>
    attributes {rlx.differentiate = array<i64: 0, 1, 2, 3, 4, 7, 8, 9, 10, 11>} {
  %out = func.call @block(%x, %attn_norm, %wq, %wk, %wv, %cos, %sin, %wo, %mlp_norm, %wup, %wgate, %wdown)
      : (tensor<2x8x32xf32>, tensor<32xf32>, tensor<32x32xf32>, tensor<32x16xf32>, tensor<32x16xf32>, tensor<8x2xf32>, tensor<8x2xf32>, tensor<32x32xf32>, tensor<32xf32>, tensor<32x64xf32>, tensor<32x64xf32>, tensor<64x32xf32>) -> tensor<2x8x32xf32>
  %p = rlx.mul %out, %dy : (tensor<2x8x32xf32>, tensor<2x8x32xf32>) -> tensor<2x8x32xf32>
  %l = rlx.reduce sum %p axes = [0, 1, 2] : tensor<2x8x32xf32> -> tensor<f32>
  return %l : tensor<f32>
}

// Megatron-style tensor parallelism: q, k, v, up and gate split by columns
// (whole heads), wo and wdown by rows.
func.func @tp_forward(%x: tensor<2x8x32xf32>, %attn_norm: tensor<32xf32>,
                 %wq: tensor<32x32xf32> {rlx.split_axes = [[], [0]]},
                 %wk: tensor<32x16xf32> {rlx.split_axes = [[], [0]]},
                 %wv: tensor<32x16xf32> {rlx.split_axes = [[], [0]]},
                 %cos: tensor<8x2xf32>, %sin: tensor<8x2xf32>,
                 %wo: tensor<32x32xf32> {rlx.split_axes = [[0]]},
                 %mlp_norm: tensor<32xf32>,
                 %wup: tensor<32x64xf32> {rlx.split_axes = [[], [0]]},
                 %wgate: tensor<32x64xf32> {rlx.split_axes = [[], [0]]},
                 %wdown: tensor<64x32xf32> {rlx.split_axes = [[0]]}) -> tensor<2x8x32xf32> {
  %out = func.call @block(%x, %attn_norm, %wq, %wk, %wv, %cos, %sin, %wo, %mlp_norm, %wup, %wgate, %wdown)
      : (tensor<2x8x32xf32>, tensor<32xf32>, tensor<32x32xf32>, tensor<32x16xf32>, tensor<32x16xf32>, tensor<8x2xf32>, tensor<8x2xf32>, tensor<32x32xf32>, tensor<32xf32>, tensor<32x64xf32>, tensor<32x64xf32>, tensor<64x32xf32>) -> tensor<2x8x32xf32>
  return %out : tensor<2x8x32xf32>
}

func.func @tp_grad(%x: tensor<2x8x32xf32>, %attn_norm: tensor<32xf32>,
                 %wq: tensor<32x32xf32> {rlx.split_axes = [[], [0]]},
                 %wk: tensor<32x16xf32> {rlx.split_axes = [[], [0]]},
                 %wv: tensor<32x16xf32> {rlx.split_axes = [[], [0]]},
                 %cos: tensor<8x2xf32>, %sin: tensor<8x2xf32>,
                 %wo: tensor<32x32xf32> {rlx.split_axes = [[0]]},
                 %mlp_norm: tensor<32xf32>,
                 %wup: tensor<32x64xf32> {rlx.split_axes = [[], [0]]},
                 %wgate: tensor<32x64xf32> {rlx.split_axes = [[], [0]]},
                 %wdown: tensor<64x32xf32> {rlx.split_axes = [[0]]},
                 %dy: tensor<2x8x32xf32>)
    -> (tensor<f32>, tensor<2x8x32xf32>, tensor<32xf32>, tensor<32x32xf32>, tensor<32x16xf32>, tensor<32x16xf32>, tensor<32x32xf32>, tensor<32xf32>, tensor<32x64xf32>, tensor<32x64xf32>, tensor<64x32xf32>) {
  %r:11 = func.call @block_loss_grad(%x, %attn_norm, %wq, %wk, %wv, %cos, %sin, %wo, %mlp_norm, %wup, %wgate, %wdown, %dy)
      : (tensor<2x8x32xf32>, tensor<32xf32>, tensor<32x32xf32>, tensor<32x16xf32>, tensor<32x16xf32>, tensor<8x2xf32>, tensor<8x2xf32>, tensor<32x32xf32>, tensor<32xf32>, tensor<32x64xf32>, tensor<32x64xf32>, tensor<64x32xf32>, tensor<2x8x32xf32>)
      -> (tensor<f32>, tensor<2x8x32xf32>, tensor<32xf32>, tensor<32x32xf32>, tensor<32x16xf32>, tensor<32x16xf32>, tensor<32x32xf32>, tensor<32xf32>, tensor<32x64xf32>, tensor<32x64xf32>, tensor<64x32xf32>)
  return %r#0, %r#1, %r#2, %r#3, %r#4, %r#5, %r#6, %r#7, %r#8, %r#9, %r#10 : tensor<f32>, tensor<2x8x32xf32>, tensor<32xf32>, tensor<32x32xf32>, tensor<32x16xf32>, tensor<32x16xf32>, tensor<32x32xf32>, tensor<32xf32>, tensor<32x64xf32>, tensor<32x64xf32>, tensor<64x32xf32>
}
