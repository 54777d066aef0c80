// A decoder layer of a small mixture-of-experts language model with int4
// weights, run on T tokens at once, ending in top-p sampling: model
// dimension 64, 4 heads of 16 features, 4 experts of hidden size 128 with
// top-2 routing, a vocabulary of 256.
//
//   q|k|v  = dequant_matmul(rms_norm(x), wqkv)              (int4, groups of 32)
//   h      = x + dequant_matmul(attention(q, k, v, causal), wo)
//   r      = rms_norm(h) @ router;  (g, e) = softmax(topk(r, 2)), expert ids
//   moe[t] = sum_j g[t, j] down_e(silu(up_e(rms_norm(h)[t])))   (int4 experts)
//   y      = h + moe
//   logits = dequant_matmul(rms_norm(y), lm_head)               (int4)
//   tokens = sample(logits, seed, offset)      (top_k 40, top_p 0.9, T 0.8)
//
// The projections keep their weights as packed int4 ([N, K/2] bytes, two
// 4-bit values each, with one f32 scale per group of 32 along K) and
// dequantize them inside the matmul (rlx.dequant_matmul), never as f32
// weights; so do the experts ([E, N, K/2] bytes, scales [E, N, K/32]).
// Each token goes to its two best experts: the k = 2 (token, expert) pairs
// are rows of one rlx.dequant_grouped_matmul per projection, which reads
// and dequantizes the routed expert's bytes in its loop; the gates weigh
// and sum the pairs' outputs. The tokens are drawn from the logits
// with the Philox stream of `seed` and `offset` (row t uses element t), so
// a step is reproducible anywhere. The function returns the tokens and the
// logits. examples/quantized_decoder.py runs it on seeded random weights
// and checks both against a float64 reference (`make demo`,
// test/Examples/quantized_decoder.test).
func.func @decoder_step(
    %x: tensor<8x64xf32>, %attn_norm: tensor<64xf32>,
    %wqkv: tensor<192x32xi8>, %wqkv_scales: tensor<192x2xf32>,
    %wo: tensor<64x32xi8>, %wo_scales: tensor<64x2xf32>,
    %moe_norm: tensor<64xf32>, %router: tensor<64x4xf32>,
    %up: tensor<4x128x32xi8>, %up_scales: tensor<4x128x2xf32>,
    %down: tensor<4x64x64xi8>, %down_scales: tensor<4x64x4xf32>,
    %out_norm: tensor<64xf32>,
    %lm_head: tensor<256x32xi8>, %lm_scales: tensor<256x2xf32>,
    %seed: tensor<i64>, %offset: tensor<i64>)
    -> (tensor<8xi64>, tensor<8x256xf32>) {
  // Attention over the 8 tokens, causal.
  %n1 = rlx.rms_norm %x, %attn_norm axis = -1 eps = 1.0e-5
      : (tensor<8x64xf32>, tensor<64xf32>) -> tensor<8x64xf32>
  %qkv = rlx.dequant_matmul %n1, %wqkv, %wqkv_scales scheme = "int4"
      group_size = 32
      : (tensor<8x64xf32>, tensor<192x32xi8>, tensor<192x2xf32>)
      -> tensor<8x192xf32>
  %q = rlx.narrow %qkv axis = -1, start = 0, length = 64
      : tensor<8x192xf32> -> tensor<8x64xf32>
  %k = rlx.narrow %qkv axis = -1, start = 64, length = 64
      : tensor<8x192xf32> -> tensor<8x64xf32>
  %v = rlx.narrow %qkv axis = -1, start = 128, length = 64
      : tensor<8x192xf32> -> tensor<8x64xf32>
  %q4 = rlx.reshape %q : tensor<8x64xf32> -> tensor<1x8x4x16xf32>
  %k4 = rlx.reshape %k : tensor<8x64xf32> -> tensor<1x8x4x16xf32>
  %v4 = rlx.reshape %v : tensor<8x64xf32> -> tensor<1x8x4x16xf32>
  %a4 = rlx.attention bshd %q4, %k4, %v4 heads = 4 kv_heads = 4 mask = causal
      : (tensor<1x8x4x16xf32>, tensor<1x8x4x16xf32>, tensor<1x8x4x16xf32>)
      -> tensor<1x8x4x16xf32>
  %a = rlx.reshape %a4 : tensor<1x8x4x16xf32> -> tensor<8x64xf32>
  %o = rlx.dequant_matmul %a, %wo, %wo_scales scheme = "int4" group_size = 32
      : (tensor<8x64xf32>, tensor<64x32xi8>, tensor<64x2xf32>)
      -> tensor<8x64xf32>
  %h = rlx.add %x, %o : (tensor<8x64xf32>, tensor<8x64xf32>) -> tensor<8x64xf32>

  // Top-2 routing: gates are the softmax of the two best router logits.
  %n2 = rlx.rms_norm %h, %moe_norm axis = -1 eps = 1.0e-5
      : (tensor<8x64xf32>, tensor<64xf32>) -> tensor<8x64xf32>
  %r = rlx.matmul %n2, %router
      : (tensor<8x64xf32>, tensor<64x4xf32>) -> tensor<8x4xf32>
  %best, %ids = rlx.topk %r k = 2 : tensor<8x4xf32> -> tensor<8x2xf32>, tensor<8x2xi64>
  %gates = rlx.softmax %best axis = -1 : tensor<8x2xf32>
  // One row per (token, expert) pair: the token's input repeated twice.
  %n2r = rlx.reshape %n2 : tensor<8x64xf32> -> tensor<8x1x64xf32>
  %pairs3 = rlx.expand %n2r : tensor<8x1x64xf32> -> tensor<8x2x64xf32>
  %pairs = rlx.reshape %pairs3 : tensor<8x2x64xf32> -> tensor<16x64xf32>
  %pair_ids = rlx.reshape %ids : tensor<8x2xi64> -> tensor<16xi64>
  %u = rlx.dequant_grouped_matmul %pairs, %up, %pair_ids scales %up_scales
      scheme = "int4" group_size = 32
      : (tensor<16x64xf32>, tensor<4x128x32xi8>, tensor<16xi64>,
         tensor<4x128x2xf32>) -> tensor<16x128xf32>
  %act = rlx.silu %u : tensor<16x128xf32>
  %d = rlx.dequant_grouped_matmul %act, %down, %pair_ids scales %down_scales
      scheme = "int4" group_size = 32
      : (tensor<16x128xf32>, tensor<4x64x64xi8>, tensor<16xi64>,
         tensor<4x64x4xf32>) -> tensor<16x64xf32>
  %d3 = rlx.reshape %d : tensor<16x64xf32> -> tensor<8x2x64xf32>
  %g3 = rlx.reshape %gates : tensor<8x2xf32> -> tensor<8x2x1xf32>
  %weighted = rlx.mul %d3, %g3
      : (tensor<8x2x64xf32>, tensor<8x2x1xf32>) -> tensor<8x2x64xf32>
  %moe = rlx.reduce sum %weighted axes = [1]
      : tensor<8x2x64xf32> -> tensor<8x64xf32>
  %y = rlx.add %h, %moe : (tensor<8x64xf32>, tensor<8x64xf32>) -> tensor<8x64xf32>

  // The int4 language-model head and one sampled token per row.
  %n3 = rlx.rms_norm %y, %out_norm axis = -1 eps = 1.0e-5
      : (tensor<8x64xf32>, tensor<64xf32>) -> tensor<8x64xf32>
  %logits = rlx.dequant_matmul %n3, %lm_head, %lm_scales scheme = "int4"
      group_size = 32
      : (tensor<8x64xf32>, tensor<256x32xi8>, tensor<256x2xf32>)
      -> tensor<8x256xf32>
  %tokens = rlx.sample %logits, %seed, %offset top_k = 40 top_p = 0.9
      temperature = 0.8 : tensor<8x256xf32> -> tensor<8xi64>
  return %tokens, %logits : tensor<8xi64>, tensor<8x256xf32>
}
