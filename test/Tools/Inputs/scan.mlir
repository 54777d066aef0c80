// A scan, which the GPU path does not compile yet (rlx-compile-cuda.test).
func.func @scan(%x: tensor<2x5xf32>) -> tensor<2x5xf32> {
  %0 = rlx.cumsum %x axis = -1 : tensor<2x5xf32>
  return %0 : tensor<2x5xf32>
}
