// RUN: rlx-opt %s --rlx-export-abi -split-input-file -verify-diagnostics | FileCheck %s

// `?` sizes of exported functions. Each `?` of an argument is a symbol of
// the manifest (s0, s1, ... in argument order); the ops' shape rules say
// how result sizes follow from them. An equality a rule needs between a
// symbol and another size replaces the symbol (the later one); what remains
// is a `where` line naming the op that needs it.

// Two `?` that an add needs equal are one symbol; a result size is an
// expression of symbols.
// CHECK-LABEL: @rlx_manifest
// CHECK-SAME: func unify 3 2\0Aarg f32 2 s0 4\0Aarg f32 2 s0 4\0Aarg f32 1 s1\0Ares f32 2 s0 4\0Ares f32 1 s0+s1\0A
func.func @unify(%a: tensor<?x4xf32>, %b: tensor<?x4xf32>, %c: tensor<?xf32>)
    -> (tensor<?x4xf32>, tensor<?xf32>) {
  %0 = rlx.add %a, %b : (tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<?x4xf32>
  %1 = rlx.reduce sum %0 axes = [1] : tensor<?x4xf32> -> tensor<?xf32>
  %2 = rlx.concat %1, %c axis = 0 : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
  return %0, %2 : tensor<?x4xf32>, tensor<?xf32>
}

// -----

// A `?` that must equal a static size is that size: the runtime checks it
// like any static one.
// CHECK-LABEL: @rlx_manifest
// CHECK-SAME: func pin 2 1\0Aarg f32 2 3 8\0Aarg f32 2 3 8\0Ares f32 2 3 8\0A
func.func @pin(%a: tensor<?x8xf32>, %b: tensor<3x8xf32>) -> tensor<3x8xf32> {
  %0 = rlx.add %a, %b : (tensor<?x8xf32>, tensor<3x8xf32>) -> tensor<3x8xf32>
  return %0 : tensor<3x8xf32>
}

// -----

// Relations no substitution solves are `where` lines: the element count of
// a reshape, a window inside a `?` axis.
// CHECK-LABEL: @rlx_manifest
// CHECK-SAME: func where 1 2\0Aarg f32 2 s0 6\0Ares f32 2 s0*6/4 4\0Ares f32 1 3\0A
// CHECK-SAME: where s0*6%4 == 0 rlx.reshape at {{[^\\]*}}export-abi-dynamic.mlir:[[#@LINE+4]]:8\0A
// CHECK-SAME: where 5 <= s0 rlx.narrow at {{[^\\]*}}export-abi-dynamic.mlir:[[#@LINE+4]]:8\0A
func.func @where(%a: tensor<?x6xf32>) -> (tensor<?x4xf32>, tensor<3xf32>) {
  %c = rlx.reduce max %a axes = [1] : tensor<?x6xf32> -> tensor<?xf32>
  %0 = rlx.reshape %a : tensor<?x6xf32> -> tensor<?x4xf32>
  %1 = rlx.narrow %c axis = 0, start = 2, length = 3 : tensor<?xf32> -> tensor<3xf32>
  return %0, %1 : tensor<?x4xf32>, tensor<3xf32>
}

// -----

// Attention: k and v have one key length, the KV cache's.
// CHECK-LABEL: @rlx_manifest
// CHECK-SAME: func decode 3 1\0Aarg f32 4 1 1 8 16\0Aarg f32 4 1 s0 2 16\0Aarg f32 4 1 s0 2 16\0Ares f32 4 1 1 8 16\0Awhere 1 <= s0 rlx.attention
func.func @decode(%q: tensor<1x1x8x16xf32>, %k: tensor<1x?x2x16xf32>,
                  %v: tensor<1x?x2x16xf32>) -> tensor<1x1x8x16xf32> {
  %0 = rlx.attention bshd %q, %k, %v heads = 8 kv_heads = 2 mask = causal : (tensor<1x1x8x16xf32>, tensor<1x?x2x16xf32>, tensor<1x?x2x16xf32>) -> tensor<1x1x8x16xf32>
  return %0 : tensor<1x1x8x16xf32>
}

// -----

// Sizes one op pins that another needs different: an error at compile
// time, at the op that finds out.
func.func @impossible(%a: tensor<?xf32>, %b: tensor<4xf32>, %c: tensor<5xf32>)
    -> (tensor<4xf32>, tensor<5xf32>) {
  %0 = rlx.add %a, %b : (tensor<?xf32>, tensor<4xf32>) -> tensor<4xf32>
  // expected-error @+1 {{operand shapes are not broadcast compatible: [4] and [5]}}
  %1 = rlx.add %a, %c : (tensor<?xf32>, tensor<5xf32>) -> tensor<5xf32>
  return %0, %1 : tensor<4xf32>, tensor<5xf32>
}
