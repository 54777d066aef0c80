// RUN: rlx-opt %s --split-input-file --rlx-mangle-function-names -verify-diagnostics | FileCheck %s

// Every defined function, public or private, gets the prefix, and so do its
// uses; a program's own `rlx_fn_f` moves on first, so `f` and `rlx_fn_f`
// stay apart. Declarations (symbols defined elsewhere) keep their names.
// CHECK-LABEL: func.func @rlx_fn_exp(
// CHECK-LABEL: func.func private @rlx_fn_free(
// CHECK:         call @rlx_fn_exp(
// CHECK:         call @malloc(
// CHECK-LABEL: func.func @rlx_fn_rlx_fn_exp(
// CHECK:         call @rlx_fn_free(
// CHECK-LABEL: func.func private @malloc(
func.func @exp(%x: f32) -> f32 {
  return %x : f32
}
func.func private @free(%x: f32) -> f32 {
  %0 = call @exp(%x) : (f32) -> f32
  %1 = call @malloc(%0) : (f32) -> f32
  return %1 : f32
}
func.func @rlx_fn_exp(%x: f32) -> f32 {
  %0 = call @free(%x) : (f32) -> f32
  return %0 : f32
}
func.func private @malloc(f32) -> f32

// -----

// Nested modules (GPU kernels) keep their names.
// CHECK-LABEL: func.func @rlx_fn_f(
// CHECK:       gpu.module @f_kernel
// CHECK:         gpu.func @f_kernel
func.func @f() {
  return
}
gpu.module @f_kernel {
  gpu.func @f_kernel() kernel {
    gpu.return
  }
}

// -----

// The new name is taken by a symbol that is not renamed.
// expected-error @+1 {{cannot rename function 'g' to 'rlx_fn_g': the module already has a symbol of that name (a 'func.func')}}
func.func @g() {
  return
}
func.func private @rlx_fn_g()
