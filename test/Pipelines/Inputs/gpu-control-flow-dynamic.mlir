// The negative case of gpu-control-flow.test: a scan over a `?` batch.
func.func @rnn(%h0: tensor<?x8xf32>, %xs: tensor<16x?x3xf32>, %wx: tensor<3x8xf32>, %wh: tensor<8x8xf32>) -> (tensor<?x8xf32>, tensor<16x?x8xf32>) {
  %h, %hs = rlx.scan (%h0 : tensor<?x8xf32>) over (%xs : tensor<16x?x3xf32>) -> (tensor<?x8xf32>, tensor<16x?x8xf32>) {
  ^bb0(%c: tensor<?x8xf32>, %x: tensor<?x3xf32>):
    %p = rlx.matmul %x, %wx : (tensor<?x3xf32>, tensor<3x8xf32>) -> tensor<?x8xf32>
    %q = rlx.matmul %c, %wh : (tensor<?x8xf32>, tensor<8x8xf32>) -> tensor<?x8xf32>
    %s = rlx.add %p, %q : (tensor<?x8xf32>, tensor<?x8xf32>) -> tensor<?x8xf32>
    %n = rlx.tanh %s : tensor<?x8xf32>
    rlx.yield %n, %n : tensor<?x8xf32>, tensor<?x8xf32>
  }
  return %h, %hs : tensor<?x8xf32>, tensor<16x?x8xf32>
}
