// RUN: rlx-opt %s --rlx-cpu-pipeline --mlir-disable-threading --mlir-print-ir-after=buffer-results-to-out-params -o /dev/null 2>&1 | FileCheck %s
// RUN: rlx-opt %s --rlx-cpu-pipeline | FileCheck %s --check-prefix=LLVM

// Programs the fuzzer and a new user found broken (issue 13) go through the
// CPU pipeline; test/E2E/interop.py runs them.

// Equal ops merged by CSE: one buffer returned twice, which gets a copy, so
// that each result is its own out-parameter.
// CHECK-LABEL: func.func @equal_ops(
// CHECK-SAME:      %[[X:[a-z0-9]+]]: memref<3xf32>, %[[OUT0:[a-z0-9]+]]: memref<3xf32>, %[[OUT1:[a-z0-9]+]]: memref<3xf32>)
// CHECK:         vector.transfer_read %[[X]]
// CHECK:         vector.transfer_write %{{.*}}, %[[OUT0]]
// CHECK:         memref.copy %[[OUT0]], %[[OUT1]]
// CHECK-NEXT:    return
func.func @equal_ops(%x: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>) {
  %0 = rlx.relu %x : tensor<3xf32>
  %1 = rlx.relu %x : tensor<3xf32>
  return %0, %1 : tensor<3xf32>, tensor<3xf32>
}

// The same in a private function and through a call to it.
// CHECK-LABEL: func.func private @twice(
// CHECK-SAME:      %{{[a-z0-9]+}}: memref<3xf32>, %[[OUT0:[a-z0-9]+]]: memref<3xf32>, %[[OUT1:[a-z0-9]+]]: memref<3xf32>)
// CHECK:         memref.copy %[[OUT0]], %[[OUT1]]
// CHECK-LABEL: func.func @calls_twice(
// CHECK:         call @twice(%{{.*}}, %{{.*}}, %{{.*}}) : (memref<3xf32>, memref<3xf32>, memref<3xf32>) -> ()
func.func private @twice(%x: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>) {
  %0 = rlx.exp %x : tensor<3xf32>
  return %0, %0 : tensor<3xf32>, tensor<3xf32>
}
func.func @calls_twice(%x: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>) {
  %0, %1 = call @twice(%x) : (tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>)
  return %0, %1 : tensor<3xf32>, tensor<3xf32>
}

// A loop carrying a tensor through out-of-place rlx ops carries it in the
// result's buffer (rlx-carry-tensors-in-place): each step's tanh writes
// there, and the loop yields nothing.
// CHECK-LABEL: func.func @rnn(
// CHECK-SAME:    %[[OUT:[a-z0-9]+]]: memref<2x4xf32>)
// CHECK:         memref.copy %{{.*}}, %[[OUT]]
// CHECK:         scf.for %{{[a-z0-9]+}} = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK:           math.tanh
// CHECK-NEXT:      vector.transfer_write %{{.*}}, %[[OUT]]
// CHECK:         return
// LLVM-LABEL:  llvm.func @rlx_fn_rnn(
func.func @rnn(%x: tensor<5x2x3xf32>, %w: tensor<3x4xf32>, %u: tensor<4x4xf32>) -> tensor<2x4xf32> {
  %zero = rlx.constant dense<0.0> : tensor<2x4xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c5 = arith.constant 5 : index
  %r = scf.for %t = %c0 to %c5 step %c1 iter_args(%h = %zero) -> (tensor<2x4xf32>) {
    %xt = tensor.extract_slice %x[%t, 0, 0] [1, 2, 3] [1, 1, 1]
        : tensor<5x2x3xf32> to tensor<2x3xf32>
    %xw = rlx.matmul %xt, %w : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
    %hu = rlx.matmul %h, %u : (tensor<2x4xf32>, tensor<4x4xf32>) -> tensor<2x4xf32>
    %z = rlx.add %xw, %hu : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
    %hn = rlx.tanh %z : tensor<2x4xf32>
    scf.yield %hn : tensor<2x4xf32>
  }
  return %r : tensor<2x4xf32>
}

// Upstream elementwise ops on tensors become linalg and fuse with the rlx
// ops around them: one loop nest (rows of 5 elements in vectors of 8).
// CHECK-LABEL: func.func @arith_mixed(
// CHECK:         scf.for
// CHECK:           arith.addf {{.*}} : vector<1x8xf32>
// CHECK:           math.tanh
// CHECK:           arith.mulf
// CHECK:           math.exp
// CHECK-NOT:     scf.for
// CHECK:         return
func.func @arith_mixed(%x: tensor<4x5xf32>, %y: tensor<4x5xf32>) -> tensor<4x5xf32> {
  %s = arith.addf %x, %y : tensor<4x5xf32>
  %t = rlx.tanh %s : tensor<4x5xf32>
  %m = arith.mulf %t, %x : tensor<4x5xf32>
  %e = math.exp %m : tensor<4x5xf32>
  return %e : tensor<4x5xf32>
}
