// The scatters and gather_nd for test/Pipelines/gpu-scatter.test.
func.func @scatter(%d: tensor<64x32xf32>, %i: tensor<48x32xi64>, %u: tensor<48x32xf32>, %t: tensor<16x8x32xf32>, %j: tensor<?x2xi32>, %v: tensor<?x32xf32>) -> (tensor<64x32xf32>, tensor<64x32xf32>, tensor<16x8x32xf32>, tensor<?x32xf32>) {
  %0 = rlx.scatter_elements add %d, %i, %u axis = 0 : (tensor<64x32xf32>, tensor<48x32xi64>, tensor<48x32xf32>) -> tensor<64x32xf32>
  %1 = rlx.scatter_elements max %d, %i, %u axis = 1 : (tensor<64x32xf32>, tensor<48x32xi64>, tensor<48x32xf32>) -> tensor<64x32xf32>
  %2 = rlx.scatter_nd none %t, %j, %v : (tensor<16x8x32xf32>, tensor<?x2xi32>, tensor<?x32xf32>) -> tensor<16x8x32xf32>
  %3 = rlx.gather_nd %t, %j : (tensor<16x8x32xf32>, tensor<?x2xi32>) -> tensor<?x32xf32>
  return %0, %1, %2, %3 : tensor<64x32xf32>, tensor<64x32xf32>, tensor<16x8x32xf32>, tensor<?x32xf32>
}
