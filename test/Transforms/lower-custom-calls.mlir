// RUN: rlx-opt %s --rlx-lower-custom-calls -split-input-file -verify-diagnostics | FileCheck %s

// Two calls of one C function share its declaration (MLIR's C interface);
// inputs are read-only buffers of any layout, each result a new buffer the
// callee writes, a tensor again through to_tensor restrict.
// CHECK-LABEL: func.func private @soft_threshold(memref<?x16xf32, strided<[?, ?], offset: ?>>, memref<f32, strided<[], offset: ?>>, memref<4x16xf32>, memref<i64>) attributes {llvm.emit_c_interface}
// CHECK-NOT:   func.func private @soft_threshold
// CHECK-LABEL: func.func @two_calls(
// CHECK-SAME:    %[[X:[a-z0-9]+]]: tensor<?x16xf32>, %[[T:[a-z0-9]+]]: tensor<f32>)
// CHECK:         %[[XB:.*]] = bufferization.to_buffer %[[X]] read_only : tensor<?x16xf32> to memref<?x16xf32, strided<[?, ?], offset: ?>>
// CHECK:         %[[TB:.*]] = bufferization.to_buffer %[[T]] read_only : tensor<f32> to memref<f32, strided<[], offset: ?>>
// CHECK:         %[[Y:.*]] = memref.alloc() : memref<4x16xf32>
// CHECK:         %[[N:.*]] = memref.alloc() : memref<i64>
// CHECK:         call @soft_threshold(%[[XB]], %[[TB]], %[[Y]], %[[N]])
// CHECK:         %[[YT:.*]] = bufferization.to_tensor %[[Y]] restrict writable : memref<4x16xf32> to tensor<4x16xf32>
// CHECK:         %[[NT:.*]] = bufferization.to_tensor %[[N]] restrict writable : memref<i64> to tensor<i64>
// CHECK:         call @soft_threshold(
// CHECK:         return %[[YT]], %[[NT]]
func.func @two_calls(%x: tensor<?x16xf32>, %t: tensor<f32>) -> (tensor<4x16xf32>, tensor<i64>) {
  %y, %n = rlx.custom_call @soft_threshold(%x, %t) : (tensor<?x16xf32>, tensor<f32>) -> (tensor<4x16xf32>, tensor<i64>)
  %y2, %n2 = rlx.custom_call @soft_threshold(%x, %t) : (tensor<?x16xf32>, tensor<f32>) -> (tensor<4x16xf32>, tensor<i64>)
  return %y, %n : tensor<4x16xf32>, tensor<i64>
}

// -----

// No inputs, no results.
// CHECK-DAG:   func.func private @seed(memref<2xi32>) attributes {llvm.emit_c_interface}
// CHECK-DAG:   func.func private @log_values(memref<2xi32, strided<[?], offset: ?>>) attributes {llvm.emit_c_interface}
// CHECK-LABEL: func.func @edges(
// CHECK:         %[[S:.*]] = memref.alloc() : memref<2xi32>
// CHECK:         call @seed(%[[S]]) : (memref<2xi32>) -> ()
// CHECK:         %[[ST:.*]] = bufferization.to_tensor %[[S]]
// CHECK:         %[[SB:.*]] = bufferization.to_buffer %[[ST]] read_only
// CHECK:         call @log_values(%[[SB]])
func.func @edges() -> tensor<2xi32> {
  %s = rlx.custom_call @seed() : () -> tensor<2xi32>
  rlx.custom_call @log_values(%s) : (tensor<2xi32>) -> ()
  return %s : tensor<2xi32>
}

// -----

func.func @mismatch(%x: tensor<4xf32>, %y: tensor<4xf64>) -> (tensor<4xf32>, tensor<4xf64>) {
  // expected-note @+1 {{the other call}}
  %a = rlx.custom_call @f(%x) : (tensor<4xf32>) -> tensor<4xf32>
  // expected-error @+1 {{'rlx.custom_call' op calls 'f' with the signature '(memref<4xf64, strided<[?], offset: ?>>, memref<4xf64>) -> ()', another call with '(memref<4xf32, strided<[?], offset: ?>>, memref<4xf32>) -> ()'}}
  %b = rlx.custom_call @f(%y) : (tensor<4xf64>) -> tensor<4xf64>
  return %a, %b : tensor<4xf32>, tensor<4xf64>
}

// -----

// expected-note @+1 {{defined here}}
func.func @helper(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}

func.func @shadowed(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'rlx.custom_call' op calls the C function 'helper', but the module defines a symbol of that name}}
  %a = rlx.custom_call @helper(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %a : tensor<4xf32>
}
