// softmax(q k^T) v written out with rlx ops at S = 512: the score matrix is
// a 512 x 512 buffer. attention-memory.mlir checks that its allocation check
// catches it.
func.func @composed(%q: tensor<512x64xf32>, %kt: tensor<64x512xf32>, %v: tensor<512x64xf32>) -> tensor<512x64xf32> {
  %s = rlx.matmul %q, %kt : (tensor<512x64xf32>, tensor<64x512xf32>) -> tensor<512x512xf32>
  %p = rlx.softmax %s axis = -1 : tensor<512x512xf32>
  %o = rlx.matmul %p, %v : (tensor<512x512xf32>, tensor<512x64xf32>) -> tensor<512x64xf32>
  return %o : tensor<512x64xf32>
}
