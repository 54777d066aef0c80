// One decode step of a pre-norm decoder layer (Llama-style, as
// examples/transformer_block.mlir) with a key/value cache of run-time
// length S: model dimension 64, one sequence, ONE new token.
//
//   q|k|v = rms_norm(x) @ wqkv,  k' = concat(k_cache, rope(k)),
//                                v' = concat(v_cache, v)       (S + 1 keys)
//   h     = x + attention(rope(q), k', v') @ wo
//   out   = h + swiglu(rms_norm(h) @ wug) @ wdown
//
// Attention is grouped-query: 4 query heads read 2 key/value heads of 16
// features, in the bshd layout. The caches are [1, ?, 2, 16]: attention
// needs k's and v's lengths equal, so their `?` sizes are one symbol of the
// compiled module's manifest, s0 (`rlx-run --list`), and one compiled
// function serves every cache length, 0 included. The new token's query
// is the last position of the keys' sequence, so `mask = causal` lets it
// see all S + 1 keys. Rope rotates every feature of each head (neox
// pairing) with the [1, 8] cos/sin rows of the token's position, which the
// caller passes in (the cached keys were rotated when they were computed).
// The MLP's up|gate projection is one matmul to [.., 2 * 128]; SwiGLU is
// written out as narrow/silu/mul, which --rlx-fuse-patterns makes one
// rlx.swiglu.
// Parameters are arguments; the function returns the output and the two
// grown caches, which the next step takes as its caches.
// examples/decode_loop.py runs 32 steps with rlx-run, growing the caches
// from 0 to 32 keys, and compares every step with PyTorch (`make demo`,
// test/Examples/decode_loop.test).
func.func @decode_step(
    %x: tensor<1x1x64xf32>, %k_cache: tensor<1x?x2x16xf32>,
    %v_cache: tensor<1x?x2x16xf32>, %cos: tensor<1x8xf32>,
    %sin: tensor<1x8xf32>, %attn_norm: tensor<64xf32>,
    %wqkv: tensor<64x128xf32>, %wo: tensor<64x64xf32>,
    %mlp_norm: tensor<64xf32>, %wug: tensor<64x256xf32>,
    %wdown: tensor<128x64xf32>)
    -> (tensor<1x1x64xf32>, tensor<1x?x2x16xf32>, tensor<1x?x2x16xf32>) {
  // Attention: one projection to the 4 + 2 + 2 heads of q, k and v.
  %n1 = rlx.rms_norm %x, %attn_norm axis = -1 eps = 1.0e-5
      : (tensor<1x1x64xf32>, tensor<64xf32>) -> tensor<1x1x64xf32>
  %qkv = rlx.matmul %n1, %wqkv
      : (tensor<1x1x64xf32>, tensor<64x128xf32>) -> tensor<1x1x128xf32>
  %q = rlx.narrow %qkv axis = -1, start = 0, length = 64
      : tensor<1x1x128xf32> -> tensor<1x1x64xf32>
  %k = rlx.narrow %qkv axis = -1, start = 64, length = 32
      : tensor<1x1x128xf32> -> tensor<1x1x32xf32>
  %v = rlx.narrow %qkv axis = -1, start = 96, length = 32
      : tensor<1x1x128xf32> -> tensor<1x1x32xf32>
  %qr = rlx.rope neox bsd %q, %cos, %sin head_dim = 16, n_rot = 16
      : (tensor<1x1x64xf32>, tensor<1x8xf32>, tensor<1x8xf32>)
      -> tensor<1x1x64xf32>
  %kr = rlx.rope neox bsd %k, %cos, %sin head_dim = 16, n_rot = 16
      : (tensor<1x1x32xf32>, tensor<1x8xf32>, tensor<1x8xf32>)
      -> tensor<1x1x32xf32>
  %q4 = rlx.reshape %qr : tensor<1x1x64xf32> -> tensor<1x1x4x16xf32>
  %k4 = rlx.reshape %kr : tensor<1x1x32xf32> -> tensor<1x1x2x16xf32>
  %v4 = rlx.reshape %v : tensor<1x1x32xf32> -> tensor<1x1x2x16xf32>
  // Append the new key and value: S + 1 positions.
  %k_all = rlx.concat %k_cache, %k4 axis = 1
      : (tensor<1x?x2x16xf32>, tensor<1x1x2x16xf32>) -> tensor<1x?x2x16xf32>
  %v_all = rlx.concat %v_cache, %v4 axis = 1
      : (tensor<1x?x2x16xf32>, tensor<1x1x2x16xf32>) -> tensor<1x?x2x16xf32>
  %a4 = rlx.attention bshd %q4, %k_all, %v_all heads = 4 kv_heads = 2 mask = causal
      : (tensor<1x1x4x16xf32>, tensor<1x?x2x16xf32>, tensor<1x?x2x16xf32>)
      -> tensor<1x1x4x16xf32>
  %a = rlx.reshape %a4 : tensor<1x1x4x16xf32> -> tensor<1x1x64xf32>
  %o = rlx.matmul %a, %wo
      : (tensor<1x1x64xf32>, tensor<64x64xf32>) -> tensor<1x1x64xf32>
  %h = rlx.add %o, %x
      : (tensor<1x1x64xf32>, tensor<1x1x64xf32>) -> tensor<1x1x64xf32>
  // MLP: SwiGLU over the [up, gate] halves of one projection.
  %n2 = rlx.rms_norm %h, %mlp_norm axis = -1 eps = 1.0e-5
      : (tensor<1x1x64xf32>, tensor<64xf32>) -> tensor<1x1x64xf32>
  %ug = rlx.matmul %n2, %wug
      : (tensor<1x1x64xf32>, tensor<64x256xf32>) -> tensor<1x1x256xf32>
  %up = rlx.narrow %ug axis = -1, start = 0, length = 128
      : tensor<1x1x256xf32> -> tensor<1x1x128xf32>
  %gate = rlx.narrow %ug axis = -1, start = 128, length = 128
      : tensor<1x1x256xf32> -> tensor<1x1x128xf32>
  %act = rlx.silu %gate : tensor<1x1x128xf32>
  %m = rlx.mul %act, %up
      : (tensor<1x1x128xf32>, tensor<1x1x128xf32>) -> tensor<1x1x128xf32>
  %d = rlx.matmul %m, %wdown
      : (tensor<1x1x128xf32>, tensor<128x64xf32>) -> tensor<1x1x64xf32>
  %out = rlx.add %d, %h
      : (tensor<1x1x64xf32>, tensor<1x1x64xf32>) -> tensor<1x1x64xf32>
  return %out, %k_all, %v_all
      : tensor<1x1x64xf32>, tensor<1x?x2x16xf32>, tensor<1x?x2x16xf32>
}
