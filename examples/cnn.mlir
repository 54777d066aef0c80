// A small CNN classifier on NCHW images:
//   conv3x3 -> batch_norm -> relu -> max_pool 2x2 -> conv3x3/2
//   -> global average pool -> linear -> softmax.
// test/Examples/cnn.test checks it against the same network in PyTorch.
func.func @cnn(%x: tensor<2x3x16x16xf32>,
               %w1: tensor<8x3x3x3xf32>,
               %gamma: tensor<8xf32>, %beta: tensor<8xf32>,
               %mean: tensor<8xf32>, %var: tensor<8xf32>,
               %w2: tensor<16x8x3x3xf32>,
               %w3: tensor<16x10xf32>, %b3: tensor<10xf32>)
    -> tensor<2x10xf32> {
  %c1 = rlx.conv %x, %w1 stride = [1, 1] padding = [1, 1, 1, 1]
      dilation = [1, 1] groups = 1
      : (tensor<2x3x16x16xf32>, tensor<8x3x3x3xf32>) -> tensor<2x8x16x16xf32>
  %bn = rlx.batch_norm_inference %c1, %gamma, %beta, %mean, %var eps = 1.0e-5
      : (tensor<2x8x16x16xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>,
         tensor<8xf32>) -> tensor<2x8x16x16xf32>
  %r = rlx.relu %bn : tensor<2x8x16x16xf32>
  %p = rlx.pool max %r kernel = [2, 2] stride = [2, 2] padding = [0, 0, 0, 0]
      : tensor<2x8x16x16xf32> -> tensor<2x8x8x8xf32>
  %c2 = rlx.conv %p, %w2 stride = [2, 2] padding = [1, 1, 1, 1]
      dilation = [1, 1] groups = 1
      : (tensor<2x8x8x8xf32>, tensor<16x8x3x3xf32>) -> tensor<2x16x4x4xf32>
  %g = rlx.global_pool avg %c2 : tensor<2x16x4x4xf32> -> tensor<2x16x1x1xf32>
  %f = rlx.reshape %g : tensor<2x16x1x1xf32> -> tensor<2x16xf32>
  %l = rlx.matmul %f, %w3
      : (tensor<2x16xf32>, tensor<16x10xf32>) -> tensor<2x10xf32>
  %lb = rlx.add %l, %b3
      : (tensor<2x10xf32>, tensor<10xf32>) -> tensor<2x10xf32>
  %prob = rlx.softmax %lb axis = -1 : tensor<2x10xf32>
  return %prob : tensor<2x10xf32>
}
