// RUN: rlx-opt %s --rlx-autodiff -split-input-file -verify-diagnostics | FileCheck %s

// --rlx-autodiff adds <name>_grad returning the loss and the gradients of
// the arguments rlx.differentiate lists, built from each op's gradient rule
// in reverse order, after the forward computation.

// A linear layer with a broadcast bias and a mean-squared loss: the bias
// gradient sums the broadcast rows back, the weight gradient is x^T g.
// CHECK-LABEL: func.func @linear(
// CHECK-LABEL: func.func @linear_grad(
// CHECK-SAME:      %[[X:[a-z0-9]+]]: tensor<4x3xf32>, %[[W:[a-z0-9]+]]: tensor<3x2xf32>, %[[B:[a-z0-9]+]]: tensor<2xf32>, %[[Y:[a-z0-9]+]]: tensor<4x2xf32>)
// CHECK-SAME:      -> (tensor<f32>, tensor<3x2xf32>, tensor<2xf32>)
// CHECK:         %[[M:.*]] = rlx.matmul %[[X]], %[[W]]
// CHECK:         %[[LOSS:.*]] = rlx.reduce mean
// CHECK:         %[[SEED:.*]] = rlx.constant dense<1.000000e+00> : tensor<f32>
// CHECK:         rlx.expand
// CHECK-DAG:     %[[XT:.*]] = rlx.transpose %[[X]] [1, 0]
// CHECK-DAG:     %[[DW:.*]] = rlx.matmul %[[XT]], %{{.*}} : (tensor<3x4xf32>, tensor<4x2xf32>) -> tensor<3x2xf32>
// CHECK-DAG:     %[[DBS:.*]] = rlx.reduce sum %{{.*}} axes = [0] keep_dim : tensor<4x2xf32> -> tensor<1x2xf32>
// CHECK-DAG:     %[[DB:.*]] = rlx.reshape %[[DBS]] : tensor<1x2xf32> -> tensor<2xf32>
// CHECK:         return %[[LOSS]], %[[DW]], %[[DB]]
func.func @linear(%x: tensor<4x3xf32>, %w: tensor<3x2xf32>, %b: tensor<2xf32>, %y: tensor<4x2xf32>) -> tensor<f32> attributes {rlx.differentiate = array<i64: 1, 2>} {
  %m = rlx.matmul %x, %w : (tensor<4x3xf32>, tensor<3x2xf32>) -> tensor<4x2xf32>
  %p = rlx.add %m, %b : (tensor<4x2xf32>, tensor<2xf32>) -> tensor<4x2xf32>
  %d = rlx.sub %p, %y : (tensor<4x2xf32>, tensor<4x2xf32>) -> tensor<4x2xf32>
  %q = rlx.mul %d, %d : (tensor<4x2xf32>, tensor<4x2xf32>) -> tensor<4x2xf32>
  %l = rlx.reduce mean %q axes = [0, 1] : tensor<4x2xf32> -> tensor<f32>
  return %l : tensor<f32>
}

// -----

// Fan-out: %x is read twice, its gradients are summed. stop_gradient passes
// none.
// CHECK-LABEL: func.func @fan_out_grad(
// CHECK:         %[[T:.*]] = rlx.tanh %[[X:[a-z0-9]+]]
// CHECK:         rlx.stop_gradient
// CHECK:         %[[SUM:.*]] = rlx.add %{{.*}}, %{{.*}} : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
// CHECK:         return %{{.*}}, %[[SUM]]
func.func @fan_out(%x: tensor<3xf32>) -> tensor<f32> attributes {rlx.differentiate = array<i64: 0>} {
  %t = rlx.tanh %x : tensor<3xf32>
  %s = rlx.stop_gradient %t : tensor<3xf32>
  %a = rlx.mul %t, %x : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  %c = rlx.mul %a, %s : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  %l = rlx.reduce sum %c axes = [0] : tensor<3xf32> -> tensor<f32>
  return %l : tensor<f32>
}

// -----

// An argument the loss does not depend on gets a zero gradient.
// CHECK-LABEL: func.func @unused_grad(
// CHECK:         %[[Z:.*]] = rlx.constant dense<0.000000e+00> : tensor<2xf32>
// CHECK:         return %{{.*}}, %{{.*}}, %[[Z]]
func.func @unused(%x: tensor<2xf32>, %u: tensor<2xf32>) -> tensor<f32> attributes {rlx.differentiate = array<i64: 0, 1>} {
  %l = rlx.reduce sum %x axes = [0] : tensor<2xf32> -> tensor<f32>
  return %l : tensor<f32>
}

// -----

func.func @no_rule(%x: tensor<3xf32>) -> tensor<f32> attributes {rlx.differentiate = array<i64: 0>} {
  // expected-error @+1 {{no gradient rule for 'rlx.relu_backward' on the path from a differentiated argument to the loss}}
  %c = rlx.relu_backward %x, %x : tensor<3xf32>
  %l = rlx.reduce sum %c axes = [0] : tensor<3xf32> -> tensor<f32>
  return %l : tensor<f32>
}

// -----

// expected-error @+1 {{the loss must be a floating-point scalar (rank-0 tensor), got 'tensor<3xf32>'}}
func.func @not_scalar(%x: tensor<3xf32>) -> tensor<3xf32> attributes {rlx.differentiate = array<i64: 0>} {
  return %x : tensor<3xf32>
}

// -----

// expected-error @+1 {{rlx.differentiate names argument 2 of a function with 1}}
func.func @bad_index(%x: tensor<3xf32>) -> tensor<f32> attributes {rlx.differentiate = array<i64: 2>} {
  %l = rlx.reduce sum %x axes = [0] : tensor<3xf32> -> tensor<f32>
  return %l : tensor<f32>
}

// -----

// expected-error @+1 {{rlx.differentiate names argument -1 of a function with 1}}
func.func @negative_index(%x: tensor<3xf32>) -> tensor<f32> attributes {rlx.differentiate = array<i64: -1>} {
  %l = rlx.reduce sum %x axes = [0] : tensor<3xf32> -> tensor<f32>
  return %l : tensor<f32>
}

// -----

// One gradient per argument: a repeated index is an error, not the same
// gradient returned twice.
// expected-error @+1 {{rlx.differentiate names argument 1 twice}}
func.func @repeated_index(%x: tensor<3xf32>, %y: tensor<3xf32>) -> tensor<f32> attributes {rlx.differentiate = array<i64: 1, 0, 1>} {
  %p = rlx.mul %x, %y : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  %l = rlx.reduce sum %p axes = [0] : tensor<3xf32> -> tensor<f32>
  return %l : tensor<f32>
}

// -----

// expected-error @+1 {{argument 0 is not a floating-point tensor and has no gradient}}
func.func @int_argument(%i: tensor<3xi32>, %x: tensor<3xf32>) -> tensor<f32> attributes {rlx.differentiate = array<i64: 0>} {
  %l = rlx.reduce sum %x axes = [0] : tensor<3xf32> -> tensor<f32>
  return %l : tensor<f32>
}

// -----

// Unary ops differentiate through rlx.activation_backward of their kind;
// layer_norm through its backward op, with statistics from a copy that
// saves them; the labels of a loss and a comparison's i1 carry none.
// CHECK-LABEL: func.func @rules_grad(
// CHECK:         rlx.softmax_cross_entropy_with_labels_backward
// CHECK:         rlx.activation_backward gelu
// CHECK:         rlx.layer_norm {{.*}} with_statistics
// CHECK:         rlx.layer_norm_backward
func.func @rules(%x: tensor<4x8xf32>, %g: tensor<8xf32>, %b: tensor<8xf32>, %l: tensor<4xi64>) -> tensor<f32> attributes {rlx.differentiate = array<i64: 0, 1, 2>} {
  %n = rlx.layer_norm %x, %g, %b axis = -1 eps = 1.0e-5 : (tensor<4x8xf32>, tensor<8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
  %a = rlx.gelu %n : tensor<4x8xf32>
  %z = rlx.constant dense<0.0> : tensor<f32>
  %p = rlx.gt %a, %z : (tensor<4x8xf32>, tensor<f32>) -> tensor<4x8xi1>
  %w = rlx.where %p, %a, %n : (tensor<4x8xi1>, tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %c = rlx.softmax_cross_entropy_with_labels %w, %l : (tensor<4x8xf32>, tensor<4xi64>) -> tensor<4xf32>
  %m = rlx.reduce mean %c axes = [0] : tensor<4xf32> -> tensor<f32>
  return %m : tensor<f32>
}

// -----

func.func @targets_gradient(%x: tensor<4x8xf32>, %t: tensor<4x8xf32>) -> tensor<f32> attributes {rlx.differentiate = array<i64: 1>} {
  // expected-error @+1 {{no gradient rule for operand 1 of 'rlx.softmax_cross_entropy', which depends on a differentiated argument}}
  %c = rlx.softmax_cross_entropy %x, %t : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4xf32>
  %m = rlx.reduce mean %c axes = [0] : tensor<4xf32> -> tensor<f32>
  return %m : tensor<f32>
}

// -----

// narrow puts its gradient back in place between zeros (a pad); rope
// rotates back (its tables get no gradient); attention uses
// attention_backward with the logsumexp of a copy that returns it.
// CHECK-LABEL: func.func @attention_rules_grad(
// CHECK:         rlx.attention_backward bshd
// CHECK:         rlx.rope_backward neox
// CHECK:         rlx.pad
func.func @attention_rules(%x: tensor<1x4x24xf32>, %cos: tensor<4x4xf32>, %sin: tensor<4x4xf32>) -> tensor<f32> attributes {rlx.differentiate = array<i64: 0>} {
  %q = rlx.narrow %x axis = -1, start = 0, length = 16 : tensor<1x4x24xf32> -> tensor<1x4x16xf32>
  %k = rlx.narrow %x axis = -1, start = 16, length = 8 : tensor<1x4x24xf32> -> tensor<1x4x8xf32>
  %qr = rlx.rope neox bsd %q, %cos, %sin head_dim = 8, n_rot = 8 : (tensor<1x4x16xf32>, tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<1x4x16xf32>
  %q4 = rlx.reshape %qr : tensor<1x4x16xf32> -> tensor<1x4x2x8xf32>
  %k4 = rlx.reshape %k : tensor<1x4x8xf32> -> tensor<1x4x1x8xf32>
  %a = rlx.attention bshd %q4, %k4, %k4 heads = 2 kv_heads = 1 mask = causal : (tensor<1x4x2x8xf32>, tensor<1x4x1x8xf32>, tensor<1x4x1x8xf32>) -> tensor<1x4x2x8xf32>
  %l = rlx.reduce sum %a axes = [0, 1, 2, 3] : tensor<1x4x2x8xf32> -> tensor<f32>
  return %l : tensor<f32>
}

// -----

// `?` sizes: a mean over a `?` axis spreads its gradient with an expand to
// the input's run-time shape, divided by the run-time count; a sum over a
// static axis of `?` rows needs neither.
// CHECK-LABEL: func.func @dynamic_mean_grad(
// CHECK-SAME:      %[[X:.*]]: tensor<?x4xf32>
// CHECK:         %[[N:.*]] = rlx.numel %{{.*}} axes = [0] : tensor<?xf32> -> tensor<f32>
// CHECK:         %[[D:.*]] = rlx.div %{{.*}}, %[[N]] : (tensor<1xf32>, tensor<f32>) -> tensor<1xf32>
// CHECK:         rlx.expand %[[D]] like %{{.*}} : tensor<1xf32>, tensor<?xf32> -> tensor<?xf32>
// CHECK:         rlx.expand %{{.*}} : tensor<?x1xf32> -> tensor<?x4xf32>
// CHECK-NOT:     rlx.numel
// CHECK:         return
func.func @dynamic_mean(%x: tensor<?x4xf32>) -> tensor<f32> attributes {rlx.differentiate = array<i64: 0>} {
  %e = rlx.exp %x : tensor<?x4xf32>
  %s = rlx.reduce sum %e axes = [1] : tensor<?x4xf32> -> tensor<?xf32>
  %m = rlx.reduce mean %s axes = [0] : tensor<?xf32> -> tensor<f32>
  return %m : tensor<f32>
}

// -----

// An argument on no path to the loss gets zeros of its run-time shape.
// CHECK-LABEL: func.func @dynamic_unused_grad(
// CHECK-SAME:      %{{.*}}: tensor<?x4xf32>, %[[Y:.*]]: tensor<?xf32>
// CHECK:         %[[ZERO:.*]] = rlx.constant dense<0.000000e+00> : tensor<f32>
// CHECK:         %[[DY:.*]] = rlx.expand %[[ZERO]] like %[[Y]] : tensor<f32>, tensor<?xf32> -> tensor<?xf32>
// CHECK:         return %{{.*}}, %{{.*}}, %[[DY]]
func.func @dynamic_unused(%x: tensor<?x4xf32>, %y: tensor<?xf32>) -> tensor<f32> attributes {rlx.differentiate = array<i64: 0, 1>} {
  %m = rlx.reduce sum %x axes = [0, 1] : tensor<?x4xf32> -> tensor<f32>
  return %m : tensor<f32>
}

// -----

// A window along a `?` axis is written into zeros of the input's run-time
// shape at its start.
// CHECK-LABEL: func.func @dynamic_narrow_grad(
// CHECK-SAME:      %[[X:[^:]*]]: tensor<?x4xf32>)
// CHECK:         %[[ZERO:.*]] = rlx.constant dense<0.000000e+00> : tensor<f32>
// CHECK:         %[[ZEROS:.*]] = rlx.expand %[[ZERO]] like %[[X]] : tensor<f32>, tensor<?x4xf32> -> tensor<?x4xf32>
// CHECK:         %[[AT:.*]] = rlx.constant dense<1> : tensor<i64>
// CHECK:         %[[DX:.*]] = rlx.kv_append %[[ZEROS]], %{{.*}} at %[[AT]] axis = 0 : tensor<?x4xf32>, tensor<1x4xf32>, tensor<i64>
// CHECK:         return %{{.*}}, %[[DX]]
func.func @dynamic_narrow(%x: tensor<?x4xf32>) -> tensor<f32> attributes {rlx.differentiate = array<i64: 0>} {
  %n = rlx.narrow %x axis = 0, start = 1, length = 1 : tensor<?x4xf32> -> tensor<1x4xf32>
  %m = rlx.reduce sum %n axes = [0, 1] : tensor<1x4xf32> -> tensor<f32>
  return %m : tensor<f32>
}

// -----

// A tile of a `?` size has no rule: a reshape cannot split it into
// repetitions and a `?` block.
func.func @dynamic_tile(%x: tensor<?x4xf32>) -> tensor<f32> attributes {rlx.differentiate = array<i64: 0>} {
  // expected-error @+1 {{no gradient rule for operand 0 of 'rlx.tile', which depends on a differentiated argument}}
  %t = rlx.tile %x reps = [2, 1] : tensor<?x4xf32> -> tensor<?x4xf32>
  %m = rlx.reduce sum %t axes = [0, 1] : tensor<?x4xf32> -> tensor<f32>
  return %m : tensor<f32>
}
