// RUN: rlx-opt %s --rlx-specialize-shapes="sizes=s0=16" -split-input-file -verify-diagnostics | FileCheck %s

// `?` sizes given static values by the names rlx-export-abi gives them:
// the arguments' types become static and every value's type follows from
// its shape in the function's analysis.

// CHECK-LABEL: func.func @mlp(
// CHECK-SAME: %{{.*}}: tensor<16x64xf32>, %{{.*}}: tensor<64x32xf32>) -> tensor<16x32xf32>
// CHECK: rlx.matmul %{{.*}}, %{{.*}} : (tensor<16x64xf32>, tensor<64x32xf32>) -> tensor<16x32xf32>
// CHECK: rlx.softmax %{{.*}} axis = -1 : tensor<16x32xf32>
func.func @mlp(%x: tensor<?x64xf32>, %w: tensor<64x32xf32>) -> tensor<?x32xf32> {
  %0 = rlx.matmul %x, %w : (tensor<?x64xf32>, tensor<64x32xf32>) -> tensor<?x32xf32>
  %1 = rlx.softmax %0 axis = -1 : tensor<?x32xf32>
  return %1 : tensor<?x32xf32>
}

// -----

// Sizes that must be equal are one symbol: giving s0 fixes both caches, and
// the concatenation's length follows; a region's body is refined too.
// CHECK-LABEL: func.func @cache(
// CHECK-SAME: %{{.*}}: tensor<16x4xf32>, %{{.*}}: tensor<16x4xf32>, %{{.*}}: tensor<1x4xf32>) -> tensor<17x4xf32>
// CHECK: rlx.region elementwise ins(%{{.*}}, %{{.*}} : tensor<16x4xf32>, tensor<16x4xf32>) -> tensor<16x4xf32>
// CHECK: ^bb0(%{{.*}}: tensor<16x4xf32>, %{{.*}}: tensor<16x4xf32>):
// CHECK: rlx.concat %{{.*}}, %{{.*}} axis = 0 : (tensor<16x4xf32>, tensor<1x4xf32>) -> tensor<17x4xf32>
func.func @cache(%k: tensor<?x4xf32>, %v: tensor<?x4xf32>, %new: tensor<1x4xf32>) -> tensor<?x4xf32> {
  %0 = rlx.region elementwise ins(%k, %v : tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<?x4xf32> {
  ^bb0(%a: tensor<?x4xf32>, %b: tensor<?x4xf32>):
    %1 = rlx.add %a, %b : (tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<?x4xf32>
    rlx.yield %1 : tensor<?x4xf32>
  }
  %2 = rlx.concat %0, %new axis = 0 : (tensor<?x4xf32>, tensor<1x4xf32>) -> tensor<?x4xf32>
  return %2 : tensor<?x4xf32>
}

// -----

// Given sizes keep their places through a reshape whose result has other
// `?` sizes: [s0, s1, 128] to [s0, s1, 8, 16] with s0 = 16 is
// [16, s1, 8, 16] (the function's analysis says so), not [s1, 16, 8, 16],
// which matching the reshape's `?` sizes in order on [16, ?, 128] gives.
// CHECK-LABEL: func.func @heads(
// CHECK-SAME: %{{.*}}: tensor<16x?x128xf32>) -> tensor<16x?x8x16xf32>
// CHECK: rlx.reshape %{{.*}} : tensor<16x?x128xf32> -> tensor<16x?x8x16xf32>
func.func @heads(%x: tensor<?x?x128xf32>) -> tensor<?x?x8x16xf32> {
  %0 = rlx.reshape %x : tensor<?x?x128xf32> -> tensor<?x?x8x16xf32>
  return %0 : tensor<?x?x8x16xf32>
}

// -----

// A value that breaks an op's requirement is an error at that op.
func.func @fives(%x: tensor<?x6xf32>) -> tensor<?x5xf32> {
  // expected-error @+1 {{'rlx.reshape' op needs (s0 * 6) mod 5 == 0, which the sizes given to rlx-specialize-shapes break}}
  %0 = rlx.reshape %x : tensor<?x6xf32> -> tensor<?x5xf32>
  return %0 : tensor<?x5xf32>
}

// -----

// expected-error @+1 {{rlx-specialize-shapes: no exported function has a size named 's0'}}
module {
  func.func @static(%x: tensor<4xf32>) -> tensor<4xf32> {
    return %x : tensor<4xf32>
  }
}

// -----

// A size given beyond its bound breaks the function's own requirement.
// expected-error @+1 {{'func.func' op needs s0 <= 8, which the sizes given to rlx-specialize-shapes break}}
func.func @bounded(%x: tensor<?x4xf32> {rlx.bounds = array<i64: 8, -1>}) -> tensor<?x4xf32> {
  %0 = rlx.exp %x : tensor<?x4xf32>
  return %0 : tensor<?x4xf32>
}
