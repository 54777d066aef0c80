// RUN: rlx-opt %s --rlx-export-abi -split-input-file -verify-diagnostics | FileCheck %s

// Every public function with a body is described in the manifest, in module
// order: `func <name> <inputs> <outputs>`, then one `arg`/`res` line per
// tensor with its dtype token, rank and dims (a rank-0 line has no dims).
// It gets a C interface, and its arguments become read-only for
// bufferization. Private functions and declarations are not exported.

// CHECK-LABEL: func.func @main(
// CHECK-SAME:      %{{.*}}: tensor<2x3xf32> {bufferization.writable = false},
// CHECK-SAME:      %{{.*}}: tensor<f16> {bufferization.writable = false},
// CHECK-SAME:      %{{.*}}: tensor<4xi1> {bufferization.writable = false})
// CHECK-SAME:      -> (tensor<3xbf16>, tensor<i64>)
// CHECK-SAME:      attributes {llvm.emit_c_interface}
func.func @main(%a: tensor<2x3xf32>, %b: tensor<f16>, %c: tensor<4xi1>) -> (tensor<3xbf16>, tensor<i64>) {
  %0 = rlx.constant dense<1.0> : tensor<3xbf16>
  %1 = rlx.constant dense<1> : tensor<i64>
  return %0, %1 : tensor<3xbf16>, tensor<i64>
}

// Private functions may use any types and are left untouched.
// CHECK-LABEL: func.func private @helper(%{{[a-z0-9]+}}: f32) -> f32 {
// CHECK-NOT:     llvm.emit_c_interface
// CHECK:         return
func.func private @helper(%a: f32) -> f32 {
  return %a : f32
}

// CHECK-LABEL: func.func private @external(tensor<?xf32>) -> memref<2xf32>
// CHECK-NOT:     llvm.emit_c_interface
func.func private @external(%a: tensor<?xf32>) -> memref<2xf32>

// CHECK-LABEL: func.func @ints(
// CHECK-SAME:      %{{.*}}: tensor<1xi8> {bufferization.writable = false},
// CHECK-SAME:      %{{.*}}: tensor<2x1xi16> {bufferization.writable = false},
// CHECK-SAME:      %{{.*}}: tensor<0x5xi32> {bufferization.writable = false})
// CHECK-SAME:      -> tensor<7x1x2xf64>
// CHECK-SAME:      attributes {llvm.emit_c_interface}
func.func @ints(%a: tensor<1xi8>, %b: tensor<2x1xi16>, %c: tensor<0x5xi32>) -> tensor<7x1x2xf64> {
  %0 = rlx.constant dense<0.0> : tensor<7x1x2xf64>
  return %0 : tensor<7x1x2xf64>
}

// A function without arguments or results is still an entry point.
// CHECK-LABEL: func.func @nothing()
// CHECK-SAME:      attributes {llvm.emit_c_interface}
func.func @nothing() {
  return
}

// The manifest is one NUL-terminated constant at the end of the module.
// CHECK:       llvm.mlir.global external constant @rlx_manifest("rlx-module 2\0Afunc main 3 2\0Aarg f32 2 2 3\0Aarg f16 0\0Aarg i1 1 4\0Ares bf16 1 3\0Ares i64 0\0Afunc ints 3 1\0Aarg i8 1 1\0Aarg i16 2 2 1\0Aarg i32 2 0 5\0Ares f64 3 7 1 2\0Afunc nothing 0 0\0A\00")
// CHECK-NEXT:  {{^}}}

// -----

// Complex elements: c64 and c128.
// CHECK-LABEL: func.func @complex(
// CHECK:       llvm.mlir.global external constant @rlx_manifest("rlx-module 2\0Afunc complex 1 1\0Aarg c64 1 4\0Ares c128 2 2 3\0A\00")
func.func @complex(%a: tensor<4xcomplex<f32>>) -> tensor<2x3xcomplex<f64>> {
  %re = rlx.constant dense<1.0> : tensor<2x3xf64>
  %0 = rlx.complex %re, %re : tensor<2x3xf64> -> tensor<2x3xcomplex<f64>>
  return %0 : tensor<2x3xcomplex<f64>>
}

// -----

// A module without public functions still has a (header-only) manifest.

// CHECK-LABEL: {{^}}module {
// CHECK-NOT:     llvm.emit_c_interface
// CHECK:         llvm.mlir.global external constant @rlx_manifest("rlx-module 2\0A\00")
func.func private @only_private(%a: tensor<2xf32>) -> tensor<2xf32> {
  return %a : tensor<2xf32>
}

// -----

// expected-error @+1 {{cannot export function 'unranked': argument 0 has type 'tensor<*xf32>'}}
func.func @unranked(%a: tensor<*xf32>) {
  return
}

// -----

// expected-error @+1 {{cannot export function 'narrow_int': result 0 has type 'tensor<2xi4>'}}
func.func @narrow_int(%a: tensor<2xf32>) -> tensor<2xi4> {
  %0 = arith.constant dense<1> : tensor<2xi4>
  return %0 : tensor<2xi4>
}

// -----

// Complex numbers of f16 have no dtype (c64 and c128 do: see @complex).
// expected-error @+1 {{cannot export function 'half_complex': argument 0 has type 'tensor<2xcomplex<f16>>'}}
func.func @half_complex(%a: tensor<2xcomplex<f16>>) {
  return
}

// -----

// Only signless integers have a dtype.
// expected-error @+1 {{cannot export function 'unsigned': argument 0 has type 'tensor<2xui8>'}}
func.func @unsigned(%a: tensor<2xui8>) {
  return
}

// -----

// expected-error @+1 {{cannot export function 'scalar': argument 0 has type 'f32'}}
func.func @scalar(%a: f32) {
  return
}

// -----

// expected-error @+1 {{cannot export function 'buffer': argument 0 has type 'memref<2xf32>'}}
func.func @buffer(%a: memref<2xf32>) {
  return
}

// -----

// expected-error @+1 {{cannot export function 'scalar_result': result 0 has type 'i32'}}
func.func @scalar_result(%a: tensor<2xi32>) -> i32 {
  %c0 = arith.constant 0 : i32
  return %c0 : i32
}

// -----

// expected-error @+1 {{cannot export function 'a-b': its name is not a C identifier}}
func.func @"a-b"(%a: tensor<2xf32>) {
  return
}

// -----

// expected-error @+1 {{module already defines 'rlx_manifest'}}
module {
  llvm.mlir.global external constant @rlx_manifest("x\00")
  func.func @f(%a: tensor<2xf32>) -> tensor<2xf32> {
    return %a : tensor<2xf32>
  }
}

// -----

// Each result has its own caller buffer: a value returned more than once is
// copied for its later uses (the first use keeps the value itself).
// CHECK-LABEL: func.func @twice(
// CHECK-SAME:    %[[A:.*]]: tensor<3xf32> {bufferization.writable = false})
// CHECK:         %[[E:.*]] = rlx.exp %[[A]]
// CHECK:         %[[COPY0:.*]] = bufferization.alloc_tensor() copy(%[[E]]) : tensor<3xf32>
// CHECK:         %[[COPY1:.*]] = bufferization.alloc_tensor() copy(%[[A]]) : tensor<3xf32>
// CHECK:         return %[[E]], %[[COPY0]], %[[A]], %[[COPY1]]
func.func @twice(%a: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) {
  %0 = rlx.exp %a : tensor<3xf32>
  return %0, %0, %a, %a : tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>
}

// -----

// expected-error @+1 {{cannot export function 'too_big': argument 0 of type 'tensor<4611686018427387904x4xf32>' does not fit in 2^63 bytes}}
func.func @too_big(%a: tensor<4611686018427387904x4xf32>) {
  return
}
