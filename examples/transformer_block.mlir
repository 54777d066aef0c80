// A pre-norm decoder block (Llama-style) on a batch of 2 sequences of 32
// tokens, model dimension 128:
//
//   h   = x + attention(rope(q), rope(k), v) @ wo,  q|k|v = rms_norm(x) @ wqkv
//   out = h + swiglu(rms_norm(h) @ wug) @ wdown
//
// Attention is causal and grouped-query: 8 query heads read 2 key/value
// heads of 16 features, in the bshd layout. Rope rotates every feature of
// each head (neox pairing) with the [32, 8] cos/sin tables. The MLP's
// up|gate projection is one matmul to [.., 2 * 256]; SwiGLU is written out
// as narrow/silu/mul, which --rlx-fuse-patterns makes one rlx.swiglu.
// Parameters are arguments. `make demo` compiles and runs it;
// test/Examples/transformer_block.test checks it against PyTorch.
func.func @transformer_block(
    %x: tensor<2x32x128xf32>, %attn_norm: tensor<128xf32>,
    %wqkv: tensor<128x192xf32>, %cos: tensor<32x8xf32>,
    %sin: tensor<32x8xf32>, %wo: tensor<128x128xf32>,
    %mlp_norm: tensor<128xf32>, %wug: tensor<128x512xf32>,
    %wdown: tensor<256x128xf32>) -> tensor<2x32x128xf32> {
  // Attention: one projection to the 8 + 2 + 2 heads of q, k and v.
  %n1 = rlx.rms_norm %x, %attn_norm axis = -1 eps = 1.0e-5
      : (tensor<2x32x128xf32>, tensor<128xf32>) -> tensor<2x32x128xf32>
  %qkv = rlx.matmul %n1, %wqkv
      : (tensor<2x32x128xf32>, tensor<128x192xf32>) -> tensor<2x32x192xf32>
  %q = rlx.narrow %qkv axis = -1, start = 0, length = 128
      : tensor<2x32x192xf32> -> tensor<2x32x128xf32>
  %k = rlx.narrow %qkv axis = -1, start = 128, length = 32
      : tensor<2x32x192xf32> -> tensor<2x32x32xf32>
  %v = rlx.narrow %qkv axis = -1, start = 160, length = 32
      : tensor<2x32x192xf32> -> tensor<2x32x32xf32>
  %qr = rlx.rope neox bsd %q, %cos, %sin head_dim = 16, n_rot = 16
      : (tensor<2x32x128xf32>, tensor<32x8xf32>, tensor<32x8xf32>)
      -> tensor<2x32x128xf32>
  %kr = rlx.rope neox bsd %k, %cos, %sin head_dim = 16, n_rot = 16
      : (tensor<2x32x32xf32>, tensor<32x8xf32>, tensor<32x8xf32>)
      -> tensor<2x32x32xf32>
  %q4 = rlx.reshape %qr : tensor<2x32x128xf32> -> tensor<2x32x8x16xf32>
  %k4 = rlx.reshape %kr : tensor<2x32x32xf32> -> tensor<2x32x2x16xf32>
  %v4 = rlx.reshape %v : tensor<2x32x32xf32> -> tensor<2x32x2x16xf32>
  %a4 = rlx.attention bshd %q4, %k4, %v4 heads = 8 kv_heads = 2 mask = causal
      : (tensor<2x32x8x16xf32>, tensor<2x32x2x16xf32>, tensor<2x32x2x16xf32>)
      -> tensor<2x32x8x16xf32>
  %a = rlx.reshape %a4 : tensor<2x32x8x16xf32> -> tensor<2x32x128xf32>
  %o = rlx.matmul %a, %wo
      : (tensor<2x32x128xf32>, tensor<128x128xf32>) -> tensor<2x32x128xf32>
  %h = rlx.add %o, %x
      : (tensor<2x32x128xf32>, tensor<2x32x128xf32>) -> tensor<2x32x128xf32>
  // MLP: SwiGLU over the [up, gate] halves of one projection.
  %n2 = rlx.rms_norm %h, %mlp_norm axis = -1 eps = 1.0e-5
      : (tensor<2x32x128xf32>, tensor<128xf32>) -> tensor<2x32x128xf32>
  %ug = rlx.matmul %n2, %wug
      : (tensor<2x32x128xf32>, tensor<128x512xf32>) -> tensor<2x32x512xf32>
  %up = rlx.narrow %ug axis = -1, start = 0, length = 256
      : tensor<2x32x512xf32> -> tensor<2x32x256xf32>
  %gate = rlx.narrow %ug axis = -1, start = 256, length = 256
      : tensor<2x32x512xf32> -> tensor<2x32x256xf32>
  %act = rlx.silu %gate : tensor<2x32x256xf32>
  %m = rlx.mul %act, %up
      : (tensor<2x32x256xf32>, tensor<2x32x256xf32>) -> tensor<2x32x256xf32>
  %d = rlx.matmul %m, %wdown
      : (tensor<2x32x256xf32>, tensor<256x128xf32>) -> tensor<2x32x128xf32>
  %out = rlx.add %d, %h
      : (tensor<2x32x128xf32>, tensor<2x32x128xf32>) -> tensor<2x32x128xf32>
  return %out : tensor<2x32x128xf32>
}
