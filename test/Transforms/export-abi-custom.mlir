// RUN: rlx-opt %s --rlx-export-abi | FileCheck %s
// RUN: rlx-opt %s --rlx-export-abi=target=cuda -verify-diagnostics -split-input-file -o /dev/null

// The C functions the module calls are `custom` lines after the header,
// each once, in the order of their first call.
// CHECK: llvm.mlir.global external constant @rlx_manifest("rlx-module 2\0Acustom soft_threshold\0Acustom seed\0Afunc main 1 1\0Aarg f32 1 4\0Ares f32 1 4\0A\00")
func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'rlx.custom_call' op calls the host C function 'soft_threshold': the cuda target cannot run it}}
  %y = rlx.custom_call @soft_threshold(%a) : (tensor<4xf32>) -> tensor<4xf32>
  %z = rlx.custom_call @seed() : () -> tensor<4xf32>
  %w = rlx.custom_call @soft_threshold(%z) : (tensor<4xf32>) -> tensor<4xf32>
  return %y : tensor<4xf32>
}
