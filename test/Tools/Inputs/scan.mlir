// A scan for the GPU path (rlx-compile-cuda.test): one kernel.
func.func @scan(%x: tensor<2x5xf32>) -> tensor<2x5xf32> {
  %0 = rlx.cumsum %x axis = -1 : tensor<2x5xf32>
  return %0 : tensor<2x5xf32>
}
