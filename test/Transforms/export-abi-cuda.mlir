// RUN: rlx-opt %s --rlx-export-abi=target=cuda | FileCheck %s
// RUN: not rlx-opt %s --rlx-export-abi=target=tpu 2>&1 | FileCheck %s --check-prefix=BAD

// With target=cuda the manifest says, right after its header, that the
// functions take device buffers; the rest is as for the CPU.
// CHECK: llvm.mlir.global external constant @rlx_manifest("rlx-module 2\0Atarget cuda\0Afunc main 1 1\0Aarg f32 1 4\0Ares f32 1 4\0A\00")
func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {
  return %a : tensor<4xf32>
}

// BAD: for the --target option: Cannot find option named 'tpu'!
