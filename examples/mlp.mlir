// A two-layer perceptron: softmax(gelu(x @ w1 + b1) @ w2 + b2).
// `make demo` compiles it with rlx-compile and runs it with rlx-run on
// seeded random inputs; test/Examples/mlp.test checks it against PyTorch.
func.func @mlp(%x: tensor<8x64xf32>,
               %w1: tensor<64x128xf32>, %b1: tensor<128xf32>,
               %w2: tensor<128x10xf32>, %b2: tensor<10xf32>)
    -> tensor<8x10xf32> {
  %h = rlx.matmul %x, %w1
      : (tensor<8x64xf32>, tensor<64x128xf32>) -> tensor<8x128xf32>
  %hb = rlx.add %h, %b1
      : (tensor<8x128xf32>, tensor<128xf32>) -> tensor<8x128xf32>
  %a = rlx.gelu %hb : tensor<8x128xf32>
  %l = rlx.matmul %a, %w2
      : (tensor<8x128xf32>, tensor<128x10xf32>) -> tensor<8x10xf32>
  %lb = rlx.add %l, %b2
      : (tensor<8x10xf32>, tensor<10xf32>) -> tensor<8x10xf32>
  %p = rlx.softmax %lb axis = -1 : tensor<8x10xf32>
  return %p : tensor<8x10xf32>
}
