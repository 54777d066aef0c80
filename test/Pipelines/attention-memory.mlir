// RUN: rlx-opt %s --rlx-cpu-pipeline --mlir-print-ir-before=rlx-strided-copy-to-linalg -o /dev/null 2>&1 | %oracle_python %S/Inputs/check_allocations.py 524288 | FileCheck %s
// RUN: rlx-opt %s --rlx-cpu-pipeline | FileCheck %s --check-prefix=LLVM
// RUN: rlx-opt %S/Inputs/composed-attention.mlir --rlx-cpu-pipeline --mlir-print-ir-before=rlx-strided-copy-to-linalg -o /dev/null 2>&1 | not %oracle_python %S/Inputs/check_allocations.py 32768 2>&1 | FileCheck %s --check-prefix=COMPOSED

// Causal attention and its backward op at S = 8192 (B = 1, H = 1, D = 64)
// never hold the S_q x S_k = 67M-element score matrix: after bufferization
// and deallocation in the CPU pipeline, every buffer is static and at most
// S x D = 524288 elements; the largest are the 64 x 64 score tiles (the
// outputs and the dq accumulator are the out-parameters themselves). The
// same check rejects attention composed of rlx.matmul and rlx.softmax,
// whose score matrix is a buffer.

// CHECK:      4096 memref<64x64xf32>
// CHECK-NOT:  memref<8192x8192
// LLVM: llvm.func @rlx_fn_causal_8192(
// COMPOSED: memref<512x512xf32> holds 262144 elements, more than 32768
func.func @causal_8192(%q: tensor<1x8192x1x64xf32>, %k: tensor<1x8192x1x64xf32>, %v: tensor<1x8192x1x64xf32>) -> (tensor<1x8192x1x64xf32>, tensor<1x1x8192xf32>) {
  %0:2 = rlx.attention bshd %q, %k, %v heads = 1 kv_heads = 1 mask = causal with_logsumexp : (tensor<1x8192x1x64xf32>, tensor<1x8192x1x64xf32>, tensor<1x8192x1x64xf32>) -> (tensor<1x8192x1x64xf32>, tensor<1x1x8192xf32>)
  return %0#0, %0#1 : tensor<1x8192x1x64xf32>, tensor<1x1x8192xf32>
}

// LLVM: llvm.func @rlx_fn_causal_8192_backward(
func.func @causal_8192_backward(%q: tensor<1x8192x1x64xf32>, %k: tensor<1x8192x1x64xf32>, %v: tensor<1x8192x1x64xf32>, %out: tensor<1x8192x1x64xf32>, %dout: tensor<1x8192x1x64xf32>, %lse: tensor<1x1x8192xf32>) -> (tensor<1x8192x1x64xf32>, tensor<1x8192x1x64xf32>, tensor<1x8192x1x64xf32>) {
  %0:3 = rlx.attention_backward bshd %q, %k, %v, %out, %dout, %lse heads = 1 kv_heads = 1 mask = causal : (tensor<1x8192x1x64xf32>, tensor<1x8192x1x64xf32>, tensor<1x8192x1x64xf32>, tensor<1x8192x1x64xf32>, tensor<1x8192x1x64xf32>, tensor<1x1x8192xf32>) -> (tensor<1x8192x1x64xf32>, tensor<1x8192x1x64xf32>, tensor<1x8192x1x64xf32>)
  return %0#0, %0#1, %0#2 : tensor<1x8192x1x64xf32>, tensor<1x8192x1x64xf32>, tensor<1x8192x1x64xf32>
}
