// REQUIRES: cuda-toolkit
// RUN: rlx-opt %s --rlx-gpu-pipeline -split-input-file -verify-diagnostics | FileCheck %s
// RUN: rlx-opt %rlx_src_root/examples/train_mlp.mlir --rlx-gpu-pipeline | FileCheck %s --check-prefix=TRAIN
// RUN: rlx-opt %rlx_src_root/test/Transforms/export-abi.mlir --rlx-gpu-pipeline -split-input-file -verify-diagnostics -o /dev/null

// The GPU pipeline on what crashed it or was missing (issue 13): function
// declarations (examples/train_mlp.mlir declares its gradient function,
// which rlx-autodiff defines, as in the CPU pipeline), one buffer returned
// twice, upstream elementwise ops on tensors, and host loops and
// conditionals carrying tensors, on conditions computed on the device.

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

// A loop carrying a tensor through out-of-place ops carries it in the
// result's buffer (rlx-carry-tensors-in-place): the step's scratch buffer
// is allocated once, before the loop, and each step is three kernels.
// CHECK-LABEL: llvm.func @rlx_fn_rnn(
// CHECK:         llvm.call @mgpuMemAlloc
// CHECK:         gpu.launch_func
// CHECK:       ^bb1(
// CHECK-NOT:     mgpuMemAlloc
// CHECK:         gpu.launch_func @rnn_kernel_0::
// CHECK-NEXT:    gpu.launch_func @rnn_kernel_1::
// CHECK-NEXT:    gpu.launch_func @rnn_kernel_2::
// CHECK-NOT:     mgpuMemAlloc
// CHECK:         llvm.call @mgpuMemFree
// CHECK:         llvm.return
func.func @rnn(%x: tensor<2x4xf32>, %u: tensor<4x4xf32>) -> tensor<2x4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c5 = arith.constant 5 : index
  %r = scf.for %t = %c0 to %c5 step %c1 iter_args(%h = %x) -> (tensor<2x4xf32>) {
    %hu = rlx.matmul %h, %u : (tensor<2x4xf32>, tensor<4x4xf32>) -> tensor<2x4xf32>
    %hn = rlx.tanh %hu : tensor<2x4xf32>
    scf.yield %hn : tensor<2x4xf32>
  }
  return %r : tensor<2x4xf32>
}

// -----

// A while loop whose condition reads an element the loop computes: a
// one-thread kernel copies it to a device scalar, which is copied to the
// host before the branch.
// CHECK-LABEL: llvm.func @rlx_fn_double_until(
// CHECK:         %[[HOST:.*]] = llvm.alloca
// CHECK:       ^bb1:
// CHECK:         gpu.launch_func @double_until_kernel_0::{{.*}} blocks in (%[[ONE:.*]], %[[ONE]], %[[ONE]]) threads in (%[[ONE]], %[[ONE]], %[[ONE]])
// CHECK:         llvm.call @mgpuMemcpy(%[[HOST]],
// CHECK:         llvm.call @mgpuStreamSynchronize
// CHECK:         %[[V:.*]] = llvm.load %[[HOST]] : !llvm.ptr -> f32
// CHECK:         %[[P:.*]] = llvm.fcmp "olt" %[[V]]
// CHECK:         llvm.cond_br %[[P]], ^bb2, ^bb3
// CHECK:       ^bb2:
// CHECK:         gpu.launch_func
// CHECK:         llvm.br ^bb1
func.func @double_until(%x: tensor<3x4xf32>) -> tensor<3x4xf32> {
  %r = scf.while (%h = %x) : (tensor<3x4xf32>) -> tensor<3x4xf32> {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %v = tensor.extract %h[%c1, %c2] : tensor<3x4xf32>
    %limit = arith.constant 100.0 : f32
    %p = arith.cmpf olt, %v, %limit : f32
    scf.condition(%p) %h : tensor<3x4xf32>
  } do {
  ^bb0(%h: tensor<3x4xf32>):
    %n = rlx.add %h, %h : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
    scf.yield %n : tensor<3x4xf32>
  }
  return %r : tensor<3x4xf32>
}

// -----

// A conditional on a reduced value: both branches write the result's buffer.
// CHECK-LABEL: llvm.func @rlx_fn_exp_if_positive(
// CHECK:         llvm.call @mgpuMemcpy
// CHECK:         llvm.cond_br
// CHECK-NOT:     mgpuMemAlloc
// CHECK:         llvm.return
func.func @exp_if_positive(%x: tensor<3x4xf32>) -> tensor<3x4xf32> {
  %s = rlx.reduce sum %x axes = [0, 1] : tensor<3x4xf32> -> tensor<f32>
  %v = tensor.extract %s[] : tensor<f32>
  %zero = arith.constant 0.0 : f32
  %p = arith.cmpf ogt, %v, %zero : f32
  %r = scf.if %p -> (tensor<3x4xf32>) {
    %e = rlx.exp %x : tensor<3x4xf32>
    scf.yield %e : tensor<3x4xf32>
  } else {
    scf.yield %x : tensor<3x4xf32>
  }
  return %r : tensor<3x4xf32>
}

// -----

// A row op whose rows each give one value (cross-entropy's per-row loss)
// is one kernel: the row loop's [rows, 1] result is allocated as the
// returned [rows] buffer, so it writes the caller's buffer directly
// instead of a copy kernel following it.
// CHECK-LABEL: llvm.func @rlx_fn_cross_entropy(
// CHECK-COUNT-1: gpu.launch_func
// CHECK-NOT:     gpu.launch_func
// CHECK:         llvm.return
func.func @cross_entropy(%x: tensor<64x1000xf32>, %t: tensor<64x1000xf32>) -> tensor<64xf32> {
  %0 = rlx.softmax_cross_entropy %x, %t : (tensor<64x1000xf32>, tensor<64x1000xf32>) -> tensor<64xf32>
  return %0 : tensor<64xf32>
}
