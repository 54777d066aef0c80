// rlx.if, rlx.while and rlx.scan for test/Pipelines/gpu-control-flow.test
// and the GPU-schedule part of test/E2E/control_flow.py: static shapes, so
// that every buffer the loops carry is allocated once in device memory.
func.func @branch(%p: tensor<i1>, %x: tensor<16x8xf32>) -> tensor<16x8xf32> {
  %r = rlx.if %p -> (tensor<16x8xf32>) {
    %s = rlx.softmax %x axis = -1 : tensor<16x8xf32>
    rlx.yield %s : tensor<16x8xf32>
  } else {
    %n = rlx.neg %x : tensor<16x8xf32>
    rlx.yield %n : tensor<16x8xf32>
  }
  return %r : tensor<16x8xf32>
}

func.func @halvings(%x: tensor<64xf32>) -> (tensor<i64>, tensor<64xf32>) {
  %zero = rlx.constant dense<0> : tensor<i64>
  %one = rlx.constant dense<1> : tensor<i64>
  %half = rlx.constant dense<0.5> : tensor<f32>
  %limit = rlx.constant dense<1.0> : tensor<f32>
  %n, %y = rlx.while %zero, %x : tensor<i64>, tensor<64xf32> condition {
  ^bb0(%i: tensor<i64>, %v: tensor<64xf32>):
    %a = rlx.abs %v : tensor<64xf32>
    %m = rlx.reduce max %a axes = [0] : tensor<64xf32> -> tensor<f32>
    %c = rlx.gt %m, %limit : (tensor<f32>, tensor<f32>) -> tensor<i1>
    rlx.yield %c : tensor<i1>
  } do {
  ^bb0(%i: tensor<i64>, %v: tensor<64xf32>):
    %i1 = rlx.add %i, %one : (tensor<i64>, tensor<i64>) -> tensor<i64>
    %v1 = rlx.mul %v, %half : (tensor<64xf32>, tensor<f32>) -> tensor<64xf32>
    rlx.yield %i1, %v1 : tensor<i64>, tensor<64xf32>
  }
  return %n, %y : tensor<i64>, tensor<64xf32>
}

func.func @rnn(%h0: tensor<4x8xf32>, %xs: tensor<16x4x3xf32>, %wx: tensor<3x8xf32>, %wh: tensor<8x8xf32>) -> (tensor<4x8xf32>, tensor<16x4x8xf32>) {
  %h, %hs = rlx.scan (%h0 : tensor<4x8xf32>) over (%xs : tensor<16x4x3xf32>) -> (tensor<4x8xf32>, tensor<16x4x8xf32>) {
  ^bb0(%c: tensor<4x8xf32>, %x: tensor<4x3xf32>):
    %p = rlx.matmul %x, %wx : (tensor<4x3xf32>, tensor<3x8xf32>) -> tensor<4x8xf32>
    %q = rlx.matmul %c, %wh : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
    %s = rlx.add %p, %q : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
    %n = rlx.tanh %s : tensor<4x8xf32>
    rlx.yield %n, %n : tensor<4x8xf32>, tensor<4x8xf32>
  }
  return %h, %hs : tensor<4x8xf32>, tensor<16x4x8xf32>
}
