// The quantization ops for test/Pipelines/gpu-quant.test.
func.func @quant(%x: tensor<?x96xf32>, %s: tensor<f32>, %z: tensor<i32>, %sc: tensor<96xf32>, %zc: tensor<96xi32>) -> (tensor<?x96xi8>, tensor<?x96xf32>, tensor<?x96xf32>) {
  %q = rlx.quantize %x, %sc, %zc axis = 1 unsigned : (tensor<?x96xf32>, tensor<96xf32>, tensor<96xi32>) -> tensor<?x96xi8>
  %d = rlx.dequantize %q, %sc, %zc axis = 1 unsigned : (tensor<?x96xi8>, tensor<96xf32>, tensor<96xi32>) -> tensor<?x96xf32>
  %f = rlx.fake_quantize %x, %s, %z quant_min = -128 quant_max = 127 : (tensor<?x96xf32>, tensor<f32>, tensor<i32>) -> tensor<?x96xf32>
  return %q, %d, %f : tensor<?x96xi8>, tensor<?x96xf32>, tensor<?x96xf32>
}

func.func @lsq_backward(%dy: tensor<64x96xf32>, %x: tensor<64x96xf32>, %s: tensor<64xf32>, %z: tensor<64xf32>) -> (tensor<64x96xf32>, tensor<64xf32>, tensor<64xf32>) {
  %0:3 = rlx.fake_quantize_lsq_backward %dy, %x, %s, %z quant_min = -8 quant_max = 7 axis = 0 : (tensor<64x96xf32>, tensor<64x96xf32>, tensor<64xf32>, tensor<64xf32>) -> (tensor<64x96xf32>, tensor<64xf32>, tensor<64xf32>)
  return %0#0, %0#1, %0#2 : tensor<64x96xf32>, tensor<64xf32>, tensor<64xf32>
}
