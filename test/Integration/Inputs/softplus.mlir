func.func @softplus(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = rlx.softplus %x : tensor<4xf32>
  %1 = rlx.mul %0, %x : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %1 : tensor<4xf32>
}
