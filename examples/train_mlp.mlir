// Training a two-layer perceptron with rlx: `@loss` is the forward graph and
// its cross-entropy loss; --rlx-autodiff (run by rlx-compile's pipeline)
// defines `@loss_grad` from it (the loss and the gradients of the four
// parameters), and `@train_step` is one SGD step written in rlx ops. The
// declaration lets `@train_step` call the gradient function before the pass
// has made it. examples/train_mlp.py runs 50 steps through the runtime;
// test/Examples/train_mlp.test checks the loss curve against PyTorch.
func.func private @loss_grad(tensor<4x16xf32>, tensor<16xf32>, tensor<16x3xf32>, tensor<3xf32>, tensor<32x4xf32>, tensor<32xi64>)
    -> (tensor<f32>, tensor<4x16xf32>, tensor<16xf32>, tensor<16x3xf32>, tensor<3xf32>)

func.func @loss(%w1: tensor<4x16xf32>, %b1: tensor<16xf32>, %w2: tensor<16x3xf32>, %b2: tensor<3xf32>,
                %x: tensor<32x4xf32>, %labels: tensor<32xi64>) -> tensor<f32>
    attributes {rlx.differentiate = array<i64: 0, 1, 2, 3>} {
  %h = rlx.matmul %x, %w1 : (tensor<32x4xf32>, tensor<4x16xf32>) -> tensor<32x16xf32>
  %hb = rlx.add %h, %b1 : (tensor<32x16xf32>, tensor<16xf32>) -> tensor<32x16xf32>
  %a = rlx.tanh %hb : tensor<32x16xf32>
  %z = rlx.matmul %a, %w2 : (tensor<32x16xf32>, tensor<16x3xf32>) -> tensor<32x3xf32>
  %zb = rlx.add %z, %b2 : (tensor<32x3xf32>, tensor<3xf32>) -> tensor<32x3xf32>
  %l = rlx.softmax_cross_entropy_with_labels %zb, %labels : (tensor<32x3xf32>, tensor<32xi64>) -> tensor<32xf32>
  %m = rlx.reduce mean %l axes = [0] : tensor<32xf32> -> tensor<f32>
  return %m : tensor<f32>
}

func.func @train_step(%w1: tensor<4x16xf32>, %b1: tensor<16xf32>, %w2: tensor<16x3xf32>, %b2: tensor<3xf32>,
                      %x: tensor<32x4xf32>, %labels: tensor<32xi64>)
    -> (tensor<f32>, tensor<4x16xf32>, tensor<16xf32>, tensor<16x3xf32>, tensor<3xf32>) {
  %loss, %g1, %g2, %g3, %g4 = func.call @loss_grad(%w1, %b1, %w2, %b2, %x, %labels)
      : (tensor<4x16xf32>, tensor<16xf32>, tensor<16x3xf32>, tensor<3xf32>, tensor<32x4xf32>, tensor<32xi64>)
      -> (tensor<f32>, tensor<4x16xf32>, tensor<16xf32>, tensor<16x3xf32>, tensor<3xf32>)
  %lr = rlx.constant dense<0.5> : tensor<f32>
  %s1 = rlx.mul %g1, %lr : (tensor<4x16xf32>, tensor<f32>) -> tensor<4x16xf32>
  %n1 = rlx.sub %w1, %s1 : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
  %s2 = rlx.mul %g2, %lr : (tensor<16xf32>, tensor<f32>) -> tensor<16xf32>
  %n2 = rlx.sub %b1, %s2 : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
  %s3 = rlx.mul %g3, %lr : (tensor<16x3xf32>, tensor<f32>) -> tensor<16x3xf32>
  %n3 = rlx.sub %w2, %s3 : (tensor<16x3xf32>, tensor<16x3xf32>) -> tensor<16x3xf32>
  %s4 = rlx.mul %g4, %lr : (tensor<3xf32>, tensor<f32>) -> tensor<3xf32>
  %n4 = rlx.sub %b2, %s4 : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  return %loss, %n1, %n2, %n3, %n4 : tensor<f32>, tensor<4x16xf32>, tensor<16xf32>, tensor<16x3xf32>, tensor<3xf32>
}
