// Stock upstream mlir-opt with rlx as a plugin (the same library loaded as
// dialect and pass plugin): it parses and verifies rlx ops and runs rlx's
// passes and pipelines by name.
// RUN: mlir-opt --load-dialect-plugin=%rlx_obj_root/lib/RlxPlugin.so \
// RUN:   --load-pass-plugin=%rlx_obj_root/lib/RlxPlugin.so \
// RUN:   --pass-pipeline="builtin.module(rlx-fuse)" %s | FileCheck %s --check-prefix=FUSE
// RUN: mlir-opt --load-dialect-plugin=%rlx_obj_root/lib/RlxPlugin.so \
// RUN:   --load-pass-plugin=%rlx_obj_root/lib/RlxPlugin.so \
// RUN:   --pass-pipeline="builtin.module(func.func(rlx-form-regions),canonicalize)" %s \
// RUN:   | FileCheck %s --check-prefix=FUSE
// RUN: mlir-opt --load-dialect-plugin=%rlx_obj_root/lib/RlxPlugin.so \
// RUN:   --load-pass-plugin=%rlx_obj_root/lib/RlxPlugin.so \
// RUN:   --pass-pipeline="builtin.module(rlx-cpu-pipeline)" %s \
// RUN:   | FileCheck %s --check-prefix=CPU
// RUN: not mlir-opt --load-dialect-plugin=%rlx_obj_root/lib/RlxPlugin.so \
// RUN:   %S/Inputs/plugin-invalid.mlir 2>&1 | FileCheck %s --check-prefix=INVALID

// FUSE-LABEL: func.func @scaled_tanh
// FUSE:         rlx.region elementwise
// FUSE:           rlx.exp
// FUSE:           rlx.tanh
// FUSE:           rlx.yield
// CPU:        llvm.func @rlx_fn_scaled_tanh
// CPU:        llvm.mlir.global external constant @rlx_manifest
// CPU:        llvm.func @rlx_invoke_scaled_tanh
// INVALID:    plugin-invalid.mlir:3:8: error: contracting dimensions differ
func.func @scaled_tanh(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = rlx.exp %x : tensor<4x8xf32>
  %1 = rlx.tanh %0 : tensor<4x8xf32>
  return %1 : tensor<4x8xf32>
}
