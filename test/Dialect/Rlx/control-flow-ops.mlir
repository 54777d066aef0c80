// RUN: rlx-opt %s | rlx-opt | FileCheck %s
// RUN: rlx-opt %s --mlir-print-op-generic | rlx-opt | FileCheck %s

// CHECK-LABEL: func.func @branch(
// CHECK:         %[[R:.*]] = rlx.if %{{.*}} -> (tensor<4xf32>) {
// CHECK:           rlx.exp
// CHECK:           rlx.yield %{{.*}} : tensor<4xf32>
// CHECK:         } else {
// CHECK:           rlx.yield %{{.*}} : tensor<4xf32>
// CHECK:         }
func.func @branch(%p: tensor<i1>, %x: tensor<4xf32>) -> tensor<4xf32> {
  %r = rlx.if %p -> (tensor<4xf32>) {
    %e = rlx.exp %x : tensor<4xf32>
    rlx.yield %e : tensor<4xf32>
  } else {
    rlx.yield %x : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// Branches of different static sizes meet in a `?` result; no results at all.
// CHECK-LABEL: func.func @branch_sizes(
// CHECK:         rlx.if %{{.*}} -> (tensor<?xf32>) {
// CHECK:           rlx.yield %{{.*}} : tensor<4xf32>
// CHECK:         } else {
// CHECK:           rlx.yield %{{.*}} : tensor<2xf32>
// CHECK:         rlx.if %{{.*}} {
// CHECK-NEXT:      rlx.yield
// CHECK-NEXT:    } else {
// CHECK-NEXT:      rlx.yield
func.func @branch_sizes(%p: tensor<i1>, %x: tensor<4xf32>) -> tensor<?xf32> {
  %r = rlx.if %p -> (tensor<?xf32>) {
    rlx.yield %x : tensor<4xf32>
  } else {
    %s = rlx.narrow %x axis = 0, start = 0, length = 2 : tensor<4xf32> -> tensor<2xf32>
    rlx.yield %s : tensor<2xf32>
  }
  rlx.if %p {
    rlx.yield
  } else {
    rlx.yield
  }
  return %r : tensor<?xf32>
}

// CHECK-LABEL: func.func @loop(
// CHECK:         %{{.*}}:2 = rlx.while %{{.*}}, %{{.*}} : tensor<i64>, tensor<?xf32> condition {
// CHECK-NEXT:    ^bb0(%{{.*}}: tensor<i64>, %{{.*}}: tensor<?xf32>):
// CHECK:           rlx.lt
// CHECK:           rlx.yield %{{.*}} : tensor<i1>
// CHECK:         } do {
// CHECK-NEXT:    ^bb0(%{{.*}}: tensor<i64>, %{{.*}}: tensor<?xf32>):
// CHECK:           rlx.yield %{{.*}}, %{{.*}} : tensor<i64>, tensor<?xf32>
func.func @loop(%n: tensor<i64>, %x: tensor<?xf32>, %limit: tensor<i64>, %one: tensor<i64>) -> (tensor<i64>, tensor<?xf32>) {
  %i, %y = rlx.while %n, %x : tensor<i64>, tensor<?xf32> condition {
  ^bb0(%a: tensor<i64>, %b: tensor<?xf32>):
    %c = rlx.lt %a, %limit : (tensor<i64>, tensor<i64>) -> tensor<i1>
    rlx.yield %c : tensor<i1>
  } do {
  ^bb0(%a: tensor<i64>, %b: tensor<?xf32>):
    %a1 = rlx.add %a, %one : (tensor<i64>, tensor<i64>) -> tensor<i64>
    %b1 = rlx.tanh %b : tensor<?xf32>
    rlx.yield %a1, %b1 : tensor<i64>, tensor<?xf32>
  }
  return %i, %y : tensor<i64>, tensor<?xf32>
}

// CHECK-LABEL: func.func @rnn(
// CHECK:         %{{.*}}:2 = rlx.scan (%{{.*}} : tensor<?x8xf32>) over (%{{.*}} : tensor<16x?x3xf32>) -> (tensor<?x8xf32>, tensor<16x?x8xf32>) {
// CHECK-NEXT:    ^bb0(%{{.*}}: tensor<?x8xf32>, %{{.*}}: tensor<?x3xf32>):
// CHECK:           rlx.yield %{{.*}}, %{{.*}} : tensor<?x8xf32>, tensor<?x8xf32>
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

// A reverse scan along the last axis with two xs and no carried value; a
// scan of a given length with no xs; a scan of nothing yielded.
// CHECK-LABEL: func.func @scan_forms(
// CHECK:         rlx.scan () over (%{{.*}}, %{{.*}} : tensor<2x?xf32>, tensor<?xf32>) axis = -1 reverse -> (tensor<2x?xf32>) {
// CHECK-NEXT:    ^bb0(%{{.*}}: tensor<2xf32>, %{{.*}}: tensor<f32>):
// CHECK:         rlx.scan (%{{.*}} : tensor<f32>) over () length = 5 -> (tensor<f32>, tensor<5x3xf32>) {
// CHECK-NEXT:    ^bb0(%{{.*}}: tensor<f32>):
// CHECK:         rlx.scan () over () length = 0 {
func.func @scan_forms(%a: tensor<2x?xf32>, %b: tensor<?xf32>, %s: tensor<f32>, %v: tensor<3xf32>) -> (tensor<2x?xf32>, tensor<f32>, tensor<5x3xf32>) {
  %y = rlx.scan () over (%a, %b : tensor<2x?xf32>, tensor<?xf32>) axis = -1 reverse -> (tensor<2x?xf32>) {
  ^bb0(%x: tensor<2xf32>, %z: tensor<f32>):
    %m = rlx.mul %x, %z : (tensor<2xf32>, tensor<f32>) -> tensor<2xf32>
    rlx.yield %m : tensor<2xf32>
  }
  %t, %ts = rlx.scan (%s : tensor<f32>) over () length = 5 -> (tensor<f32>, tensor<5x3xf32>) {
  ^bb0(%c: tensor<f32>):
    %c1 = rlx.add %c, %c : (tensor<f32>, tensor<f32>) -> tensor<f32>
    %w = rlx.mul %v, %c1 : (tensor<3xf32>, tensor<f32>) -> tensor<3xf32>
    rlx.yield %c1, %w : tensor<f32>, tensor<3xf32>
  }
  rlx.scan () over () length = 0 {
    rlx.yield
  }
  return %y, %t, %ts : tensor<2x?xf32>, tensor<f32>, tensor<5x3xf32>
}
