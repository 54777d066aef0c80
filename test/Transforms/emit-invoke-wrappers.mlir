// RUN: rlx-opt %s --rlx-emit-invoke-wrappers -split-input-file -verify-diagnostics | FileCheck %s

// Each defined `_mlir_ciface_<name>` gets `rlx_invoke_<name>(ptr args)`, which
// loads the i-th memref descriptor pointer from args[i] and forwards them all.
// Declarations and functions without the prefix get no wrapper.

llvm.func @foo(%a: !llvm.ptr, %b: !llvm.ptr) {
  llvm.return
}
llvm.func @_mlir_ciface_foo(%a: !llvm.ptr, %b: !llvm.ptr, %c: !llvm.ptr) {
  llvm.return
}
llvm.func @_mlir_ciface_noargs() {
  llvm.return
}
llvm.func @_mlir_ciface_declared(!llvm.ptr)
llvm.func @not_an_interface(%a: !llvm.ptr) {
  llvm.return
}

// CHECK-LABEL: llvm.func @rlx_invoke_foo(
// CHECK-SAME:      %[[ARGV:[a-z0-9]+]]: !llvm.ptr) {
// CHECK-NEXT:    %[[P0:.*]] = llvm.getelementptr %[[ARGV]][0] : (!llvm.ptr) -> !llvm.ptr, !llvm.ptr
// CHECK-NEXT:    %[[D0:.*]] = llvm.load %[[P0]] : !llvm.ptr -> !llvm.ptr
// CHECK-NEXT:    %[[P1:.*]] = llvm.getelementptr %[[ARGV]][1] : (!llvm.ptr) -> !llvm.ptr, !llvm.ptr
// CHECK-NEXT:    %[[D1:.*]] = llvm.load %[[P1]] : !llvm.ptr -> !llvm.ptr
// CHECK-NEXT:    %[[P2:.*]] = llvm.getelementptr %[[ARGV]][2] : (!llvm.ptr) -> !llvm.ptr, !llvm.ptr
// CHECK-NEXT:    %[[D2:.*]] = llvm.load %[[P2]] : !llvm.ptr -> !llvm.ptr
// CHECK-NEXT:    llvm.call @_mlir_ciface_foo(%[[D0]], %[[D1]], %[[D2]]) : (!llvm.ptr, !llvm.ptr, !llvm.ptr) -> ()
// CHECK-NEXT:    llvm.return
// CHECK-NEXT:  }

// CHECK-LABEL: llvm.func @rlx_invoke_noargs(
// CHECK-SAME:      %{{[a-z0-9]+}}: !llvm.ptr) {
// CHECK-NEXT:    llvm.call @_mlir_ciface_noargs() : () -> ()
// CHECK-NEXT:    llvm.return
// CHECK-NEXT:  }
// CHECK-NOT:   rlx_invoke_
// CHECK:       // -----

// -----

// A module without C interfaces is left alone.

// CHECK-LABEL: llvm.func @plain(
// CHECK-NOT:   rlx_invoke_
llvm.func @plain(%a: !llvm.ptr) {
  llvm.return
}

// -----

// Every argument of a C-interface function must be a descriptor pointer.

// expected-error @+1 {{cannot emit an invoke wrapper for '_mlir_ciface_bad': expected memref descriptor pointer arguments and no results}}
llvm.func @_mlir_ciface_bad(%a: !llvm.ptr, %b: i64) {
  llvm.return
}

// -----

// Results go through out-parameters, so a C-interface function returns void.

// expected-error @+1 {{cannot emit an invoke wrapper for '_mlir_ciface_returns': expected memref descriptor pointer arguments and no results}}
llvm.func @_mlir_ciface_returns(%a: !llvm.ptr) -> i32 {
  %0 = llvm.mlir.constant(0 : i32) : i32
  llvm.return %0 : i32
}

// -----

// A user symbol that already has the wrapper's name is a located error, not a
// redefinition later on.

// expected-error @+1 {{cannot emit 'rlx_invoke_foo': the module already defines that symbol}}
llvm.func @_mlir_ciface_foo(%a: !llvm.ptr) {
  llvm.return
}
llvm.func @rlx_invoke_foo(%a: !llvm.ptr) {
  llvm.return
}

// -----

// The entry point takes the program's name: without the prefix of
// rlx-mangle-function-names (once: a program's `rlx_fn_g` is
// `rlx_fn_rlx_fn_g` by then).

// CHECK-LABEL: llvm.func @rlx_invoke_exp(
// CHECK:         llvm.call @_mlir_ciface_rlx_fn_exp(
// CHECK-LABEL: llvm.func @rlx_invoke_rlx_fn_g(
// CHECK:         llvm.call @_mlir_ciface_rlx_fn_rlx_fn_g(
llvm.func @_mlir_ciface_rlx_fn_exp(%a: !llvm.ptr) {
  llvm.return
}
llvm.func @_mlir_ciface_rlx_fn_rlx_fn_g(%a: !llvm.ptr) {
  llvm.return
}
