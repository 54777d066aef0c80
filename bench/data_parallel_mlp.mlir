// The data-parallel benchmark of bench/distributed.py (docs/benchmarks.md,
// "Distributed"): one SGD step of a three-layer perceptron, 256 -> 512 ->
// 512 -> 10 with ReLU, on a batch of 2048, f32, written as
// examples/train_mlp.mlir is: `@loss` is the forward graph and its mean
// cross-entropy, --rlx-autodiff defines `@loss_grad` from it, and
// `@train_step` applies the gradients. Compiled with
// `--mesh=2 --data-parallel=train_step:6:7` for two processes: the batch
// (x, labels) is split, and the 399,370 parameter gradients and the loss
// are all-reduced inside the step. For one process the script first runs
// `rlx-opt --rlx-autodiff --inline` on it (as the mesh pipeline inlines):
// compiled as is, rlx-tile-and-fuse clones the call of @loss_grad into
// the thread loops of the updates that read its results.
func.func private @loss_grad(tensor<256x512xf32>, tensor<512xf32>, tensor<512x512xf32>, tensor<512xf32>,
                             tensor<512x10xf32>, tensor<10xf32>, tensor<2048x256xf32>, tensor<2048xi64>)
    -> (tensor<f32>, tensor<256x512xf32>, tensor<512xf32>, tensor<512x512xf32>, tensor<512xf32>,
        tensor<512x10xf32>, tensor<10xf32>)

func.func @loss(%w1: tensor<256x512xf32>, %b1: tensor<512xf32>, %w2: tensor<512x512xf32>, %b2: tensor<512xf32>,
                %w3: tensor<512x10xf32>, %b3: tensor<10xf32>, %x: tensor<2048x256xf32>, %labels: tensor<2048xi64>)
    -> tensor<f32> attributes {rlx.differentiate = array<i64: 0, 1, 2, 3, 4, 5>} {
  %h1 = rlx.matmul %x, %w1 : (tensor<2048x256xf32>, tensor<256x512xf32>) -> tensor<2048x512xf32>
  %h1b = rlx.add %h1, %b1 : (tensor<2048x512xf32>, tensor<512xf32>) -> tensor<2048x512xf32>
  %a1 = rlx.relu %h1b : tensor<2048x512xf32>
  %h2 = rlx.matmul %a1, %w2 : (tensor<2048x512xf32>, tensor<512x512xf32>) -> tensor<2048x512xf32>
  %h2b = rlx.add %h2, %b2 : (tensor<2048x512xf32>, tensor<512xf32>) -> tensor<2048x512xf32>
  %a2 = rlx.relu %h2b : tensor<2048x512xf32>
  %z = rlx.matmul %a2, %w3 : (tensor<2048x512xf32>, tensor<512x10xf32>) -> tensor<2048x10xf32>
  %zb = rlx.add %z, %b3 : (tensor<2048x10xf32>, tensor<10xf32>) -> tensor<2048x10xf32>
  %l = rlx.softmax_cross_entropy_with_labels %zb, %labels : (tensor<2048x10xf32>, tensor<2048xi64>) -> tensor<2048xf32>
  %m = rlx.reduce mean %l axes = [0] : tensor<2048xf32> -> tensor<f32>
  return %m : tensor<f32>
}

func.func @train_step(%w1: tensor<256x512xf32>, %b1: tensor<512xf32>, %w2: tensor<512x512xf32>, %b2: tensor<512xf32>,
                      %w3: tensor<512x10xf32>, %b3: tensor<10xf32>, %x: tensor<2048x256xf32>, %labels: tensor<2048xi64>)
    -> (tensor<f32>, tensor<256x512xf32>, tensor<512xf32>, tensor<512x512xf32>, tensor<512xf32>,
        tensor<512x10xf32>, tensor<10xf32>) {
  %loss, %g1, %g2, %g3, %g4, %g5, %g6 = func.call @loss_grad(%w1, %b1, %w2, %b2, %w3, %b3, %x, %labels)
      : (tensor<256x512xf32>, tensor<512xf32>, tensor<512x512xf32>, tensor<512xf32>,
         tensor<512x10xf32>, tensor<10xf32>, tensor<2048x256xf32>, tensor<2048xi64>)
      -> (tensor<f32>, tensor<256x512xf32>, tensor<512xf32>, tensor<512x512xf32>, tensor<512xf32>,
          tensor<512x10xf32>, tensor<10xf32>)
  %lr = rlx.constant dense<0.1> : tensor<f32>
  %s1 = rlx.mul %g1, %lr : (tensor<256x512xf32>, tensor<f32>) -> tensor<256x512xf32>
  %n1 = rlx.sub %w1, %s1 : (tensor<256x512xf32>, tensor<256x512xf32>) -> tensor<256x512xf32>
  %s2 = rlx.mul %g2, %lr : (tensor<512xf32>, tensor<f32>) -> tensor<512xf32>
  %n2 = rlx.sub %b1, %s2 : (tensor<512xf32>, tensor<512xf32>) -> tensor<512xf32>
  %s3 = rlx.mul %g3, %lr : (tensor<512x512xf32>, tensor<f32>) -> tensor<512x512xf32>
  %n3 = rlx.sub %w2, %s3 : (tensor<512x512xf32>, tensor<512x512xf32>) -> tensor<512x512xf32>
  %s4 = rlx.mul %g4, %lr : (tensor<512xf32>, tensor<f32>) -> tensor<512xf32>
  %n4 = rlx.sub %b2, %s4 : (tensor<512xf32>, tensor<512xf32>) -> tensor<512xf32>
  %s5 = rlx.mul %g5, %lr : (tensor<512x10xf32>, tensor<f32>) -> tensor<512x10xf32>
  %n5 = rlx.sub %w3, %s5 : (tensor<512x10xf32>, tensor<512x10xf32>) -> tensor<512x10xf32>
  %s6 = rlx.mul %g6, %lr : (tensor<10xf32>, tensor<f32>) -> tensor<10xf32>
  %n6 = rlx.sub %b3, %s6 : (tensor<10xf32>, tensor<10xf32>) -> tensor<10xf32>
  return %loss, %n1, %n2, %n3, %n4, %n5, %n6
      : tensor<f32>, tensor<256x512xf32>, tensor<512xf32>, tensor<512x512xf32>, tensor<512xf32>,
        tensor<512x10xf32>, tensor<10xf32>
}
