// A small classifier for the CUDA runtime tests: a linear layer with bias
// and relu, then softmax over the classes.
func.func @main(%x: tensor<8x32xf32>, %w: tensor<32x16xf32>, %b: tensor<16xf32>) -> tensor<8x16xf32> {
  %0 = rlx.matmul %x, %w : (tensor<8x32xf32>, tensor<32x16xf32>) -> tensor<8x16xf32>
  %1 = rlx.add %0, %b : (tensor<8x16xf32>, tensor<16xf32>) -> tensor<8x16xf32>
  %2 = rlx.relu %1 : tensor<8x16xf32>
  %3 = rlx.softmax %2 axis = 1 : tensor<8x16xf32>
  return %3 : tensor<8x16xf32>
}
