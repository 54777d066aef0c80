// Training a two-layer perceptron with rlx: `@loss` is the forward graph and
// its cross-entropy loss; --rlx-autodiff (run by rlx-compile's pipeline)
// defines `@loss_grad` from it (the loss and the gradients of the four
// parameters), and `@train_step` is one SGD step and `@adam_step` one Adam
// step written in rlx ops. The declaration lets them call the gradient
// function before the pass has made it. examples/train_mlp.py runs 50 steps
// of either through the runtime; test/Examples/train_mlp.test checks both
// loss curves against PyTorch.
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

// One step of Adam (PyTorch's torch.optim.Adam: lr 0.05, betas (0.9, 0.999),
// eps 1e-8, no weight decay). The optimizer state is kept flat, as fused
// optimizers do: the four parameters' moments are one 131-element vector each
// (w1, b1, w2, b2 in that order), so the update is written once. `%t` is the
// 1-based step number, for the bias corrections.
func.func @adam_step(%w1: tensor<4x16xf32>, %b1: tensor<16xf32>, %w2: tensor<16x3xf32>, %b2: tensor<3xf32>,
                     %m: tensor<131xf32>, %v: tensor<131xf32>, %t: tensor<f32>,
                     %x: tensor<32x4xf32>, %labels: tensor<32xi64>)
    -> (tensor<f32>, tensor<4x16xf32>, tensor<16xf32>, tensor<16x3xf32>, tensor<3xf32>, tensor<131xf32>, tensor<131xf32>) {
  %loss, %g1, %g2, %g3, %g4 = func.call @loss_grad(%w1, %b1, %w2, %b2, %x, %labels)
      : (tensor<4x16xf32>, tensor<16xf32>, tensor<16x3xf32>, tensor<3xf32>, tensor<32x4xf32>, tensor<32xi64>)
      -> (tensor<f32>, tensor<4x16xf32>, tensor<16xf32>, tensor<16x3xf32>, tensor<3xf32>)
  %fw1 = rlx.reshape %w1 : tensor<4x16xf32> -> tensor<64xf32>
  %fw2 = rlx.reshape %w2 : tensor<16x3xf32> -> tensor<48xf32>
  %p = rlx.concat %fw1, %b1, %fw2, %b2 axis = 0 : (tensor<64xf32>, tensor<16xf32>, tensor<48xf32>, tensor<3xf32>) -> tensor<131xf32>
  %fg1 = rlx.reshape %g1 : tensor<4x16xf32> -> tensor<64xf32>
  %fg3 = rlx.reshape %g3 : tensor<16x3xf32> -> tensor<48xf32>
  %g = rlx.concat %fg1, %g2, %fg3, %g4 axis = 0 : (tensor<64xf32>, tensor<16xf32>, tensor<48xf32>, tensor<3xf32>) -> tensor<131xf32>

  %lr = rlx.constant dense<0.05> : tensor<f32>
  %beta1 = rlx.constant dense<0.9> : tensor<f32>
  %beta2 = rlx.constant dense<0.999> : tensor<f32>
  %one_minus_beta1 = rlx.constant dense<0.1> : tensor<f32>
  %one_minus_beta2 = rlx.constant dense<0.001> : tensor<f32>
  %eps = rlx.constant dense<1.0e-8> : tensor<f32>
  %one = rlx.constant dense<1.0> : tensor<f32>
  // m = beta1 m + (1 - beta1) g;  v = beta2 v + (1 - beta2) g^2
  %m_decayed = rlx.mul %m, %beta1 : (tensor<131xf32>, tensor<f32>) -> tensor<131xf32>
  %m_next = rlx.fma %g, %one_minus_beta1, %m_decayed : (tensor<131xf32>, tensor<f32>, tensor<131xf32>) -> tensor<131xf32>
  %g_squared = rlx.mul %g, %g : (tensor<131xf32>, tensor<131xf32>) -> tensor<131xf32>
  %v_decayed = rlx.mul %v, %beta2 : (tensor<131xf32>, tensor<f32>) -> tensor<131xf32>
  %v_next = rlx.fma %g_squared, %one_minus_beta2, %v_decayed : (tensor<131xf32>, tensor<f32>, tensor<131xf32>) -> tensor<131xf32>
  // p -= lr / (1 - beta1^t) * m / (sqrt(v) / sqrt(1 - beta2^t) + eps)
  %beta1_t = rlx.pow %beta1, %t : (tensor<f32>, tensor<f32>) -> tensor<f32>
  %correction1 = rlx.sub %one, %beta1_t : (tensor<f32>, tensor<f32>) -> tensor<f32>
  %beta2_t = rlx.pow %beta2, %t : (tensor<f32>, tensor<f32>) -> tensor<f32>
  %correction2 = rlx.sub %one, %beta2_t : (tensor<f32>, tensor<f32>) -> tensor<f32>
  %step_size = rlx.div %lr, %correction1 : (tensor<f32>, tensor<f32>) -> tensor<f32>
  %sqrt_correction2 = rlx.sqrt %correction2 : tensor<f32>
  %sqrt_v = rlx.sqrt %v_next : tensor<131xf32>
  %scaled_sqrt_v = rlx.div %sqrt_v, %sqrt_correction2 : (tensor<131xf32>, tensor<f32>) -> tensor<131xf32>
  %denominator = rlx.add %scaled_sqrt_v, %eps : (tensor<131xf32>, tensor<f32>) -> tensor<131xf32>
  %direction = rlx.div %m_next, %denominator : (tensor<131xf32>, tensor<131xf32>) -> tensor<131xf32>
  %update = rlx.mul %direction, %step_size : (tensor<131xf32>, tensor<f32>) -> tensor<131xf32>
  %p_next = rlx.sub %p, %update : (tensor<131xf32>, tensor<131xf32>) -> tensor<131xf32>

  %fn1 = rlx.narrow %p_next axis = 0, start = 0, length = 64 : tensor<131xf32> -> tensor<64xf32>
  %n1 = rlx.reshape %fn1 : tensor<64xf32> -> tensor<4x16xf32>
  %n2 = rlx.narrow %p_next axis = 0, start = 64, length = 16 : tensor<131xf32> -> tensor<16xf32>
  %fn3 = rlx.narrow %p_next axis = 0, start = 80, length = 48 : tensor<131xf32> -> tensor<48xf32>
  %n3 = rlx.reshape %fn3 : tensor<48xf32> -> tensor<16x3xf32>
  %n4 = rlx.narrow %p_next axis = 0, start = 128, length = 3 : tensor<131xf32> -> tensor<3xf32>
  return %loss, %n1, %n2, %n3, %n4, %m_next, %v_next
      : tensor<f32>, tensor<4x16xf32>, tensor<16xf32>, tensor<16x3xf32>, tensor<3xf32>, tensor<131xf32>, tensor<131xf32>
}
