// rlx.sample for test/Pipelines/gpu-sample.test: a decoder's step (`?`
// rows over a 32000-token vocabulary, top-k, top-p and temperature), f16
// logits with an i32 result, and greedy decoding.
func.func @sample(%l: tensor<?x32000xf32>, %s: tensor<i64>, %o: tensor<i64>) -> tensor<?xi64> {
  %t = rlx.sample %l, %s, %o top_k = 40 top_p = 0.9 temperature = 0.7 : tensor<?x32000xf32> -> tensor<?xi64>
  return %t : tensor<?xi64>
}

func.func @sample_f16(%l: tensor<4x50xf16>, %s: tensor<i64>, %o: tensor<i64>) -> tensor<4xi32> {
  %t = rlx.sample %l, %s, %o top_p = 0.5 : tensor<4x50xf16> -> tensor<4xi32>
  return %t : tensor<4xi32>
}

func.func @greedy(%l: tensor<?x32000xbf16>, %s: tensor<i64>, %o: tensor<i64>) -> tensor<?xi64> {
  %t = rlx.sample %l, %s, %o temperature = 0.0 : tensor<?x32000xbf16> -> tensor<?xi64>
  return %t : tensor<?xi64>
}
