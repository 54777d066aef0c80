// REQUIRES: cuda-toolkit
// RUN: rlx-opt %s --rlx-gpu-pipeline -split-input-file -verify-diagnostics | FileCheck %s
// RUN: rlx-opt %rlx_src_root/examples/train_mlp.mlir --rlx-gpu-pipeline | FileCheck %s --check-prefix=TRAIN
// RUN: rlx-opt %rlx_src_root/test/Transforms/export-abi.mlir --rlx-gpu-pipeline -split-input-file -verify-diagnostics -o /dev/null

// The GPU pipeline on what crashed it or was missing (issue 13): function
// declarations (examples/train_mlp.mlir declares its gradient function,
// which rlx-autodiff defines, as in the CPU pipeline), one buffer returned
// twice, upstream elementwise ops on tensors, and a loop carrying a tensor
// in a new buffer each iteration (a diagnostic).

// TRAIN-DAG: llvm.func @rlx_fn_loss_grad(
// TRAIN-DAG: llvm.func @rlx_fn_train_step(
// TRAIN-DAG: llvm.func @rlx_fn_adam_step(

// CHECK-LABEL: llvm.func @nothing()
// CHECK-LABEL: llvm.func @rlx_fn_empty()
// CHECK-LABEL: llvm.func @rlx_fn_calls_declaration(
// CHECK:         llvm.call @nothing()
func.func private @nothing()
func.func @empty() {
  return
}
func.func @calls_declaration() {
  call @nothing() : () -> ()
  return
}

// -----

// CHECK-LABEL: llvm.func @rlx_fn_equal_ops(
// CHECK:         gpu.launch_func
func.func @equal_ops(%x: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>) {
  %0 = rlx.relu %x : tensor<3xf32>
  %1 = rlx.relu %x : tensor<3xf32>
  return %0, %1 : tensor<3xf32>, tensor<3xf32>
}

// -----

// CHECK-LABEL: llvm.func @rlx_fn_arith_mixed(
// CHECK:         gpu.launch_func
func.func @arith_mixed(%x: tensor<4x5xf32>, %y: tensor<4x5xf32>) -> tensor<4x5xf32> {
  %s = arith.addf %x, %y : tensor<4x5xf32>
  %t = rlx.tanh %s : tensor<4x5xf32>
  %e = math.exp %t : tensor<4x5xf32>
  return %e : tensor<4x5xf32>
}

// -----

func.func @rnn(%x: tensor<2x4xf32>, %u: tensor<4x4xf32>) -> tensor<2x4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c5 = arith.constant 5 : index
  %r = scf.for %t = %c0 to %c5 step %c1 iter_args(%h = %x) -> (tensor<2x4xf32>) {
    // expected-error @+1 {{this value is carried out of a host loop or conditional in a new buffer each time}}
    %hu = rlx.matmul %h, %u : (tensor<2x4xf32>, tensor<4x4xf32>) -> tensor<2x4xf32>
    %hn = rlx.tanh %hu : tensor<2x4xf32>
    scf.yield %hn : tensor<2x4xf32>
  }
  return %r : tensor<2x4xf32>
}
