// The random ops for test/Pipelines/gpu-random.test.
func.func @random(%seed: tensor<i64>, %offset: tensor<i64>, %x: tensor<?x96xf32>) -> (tensor<64x32xi32>, tensor<64x32xf32>, tensor<64x32xf32>, tensor<?x96xf32>) {
  %b = rlx.rng_bits %seed, %offset : tensor<64x32xi32>
  %u = rlx.rng_uniform %seed, %offset : tensor<64x32xf32>
  %n = rlx.rng_normal %seed, %offset : tensor<64x32xf32>
  %d = rlx.dropout %x, %seed, %offset p = 0.1 : tensor<?x96xf32>
  return %b, %u, %n, %d : tensor<64x32xi32>, tensor<64x32xf32>, tensor<64x32xf32>, tensor<?x96xf32>
}
