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

// -----

// rope: the tables have one row per position, the input's sequence length;
// group_norm: the channel count is static, batch and spatial sizes free;
// the labels have one entry per row of the logits.
// CHECK-LABEL: @rlx_manifest
// CHECK-SAME: func rope_norm_loss 6 3\0Aarg f32 3 s0 s1 16\0Aarg f32 2 s1 4\0Aarg f32 2 s1 4\0Aarg f32 3 s2 6 s3\0Aarg f32 2 s4 10\0Aarg i64 1 s4\0Ares f32 3 s0 s1 16\0Ares f32 3 s2 6 s3\0Ares f32 1 s4\0A
func.func @rope_norm_loss(%h: tensor<?x?x16xf32>, %cos: tensor<?x4xf32>,
                          %sin: tensor<?x4xf32>, %x: tensor<?x6x?xf32>,
                          %logits: tensor<?x10xf32>, %labels: tensor<?xi64>)
    -> (tensor<?x?x16xf32>, tensor<?x6x?xf32>, tensor<?xf32>) {
  %g = rlx.constant dense<1.0> : tensor<6xf32>
  %0 = rlx.rope neox bsd %h, %cos, %sin head_dim = 8, n_rot = 8 : (tensor<?x?x16xf32>, tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<?x?x16xf32>
  %1 = rlx.group_norm %x, %g, %g groups = 3 eps = 1.0e-5 : (tensor<?x6x?xf32>, tensor<6xf32>, tensor<6xf32>) -> tensor<?x6x?xf32>
  %2 = rlx.softmax_cross_entropy_with_labels %logits, %labels : (tensor<?x10xf32>, tensor<?xi64>) -> tensor<?xf32>
  return %0, %1, %2 : tensor<?x?x16xf32>, tensor<?x6x?xf32>, tensor<?xf32>
}

// -----

// Indexing and scans: what their reads need of a `?` size is a `where`
// line; a tile's and a pad's results are expressions of the input sizes.
// Only the strongest lower bound of a size is listed: the reflect pads of 1
// and 2 need 3 <= s0, and topk's k = 5 implies the pad's and argmax's
// bounds on s1.
// CHECK-LABEL: @rlx_manifest
// CHECK-SAME: func indexing 3 5\0Aarg f32 2 s0 s1\0Aarg f32 4 1 s2 2 8\0Aarg f32 4 1 s3 2 8\0Ares f32 2 s0+3 s1+3\0Ares f32 2 s0*2 s1\0Ares f32 4 1 s2 2 8\0Ares f32 2 s0 5\0Ares i64 1 s0\0A
// CHECK-SAME: where 3 <= s0 rlx.pad at {{[^\\]*}}\0Awhere s3 <= s2 rlx.kv_append at {{[^\\]*}}\0Awhere 5 <= s1 rlx.topk at {{[^\\]*}}\0A\00
func.func @indexing(%x: tensor<?x?xf32>, %cache: tensor<1x?x2x8xf32>,
                    %update: tensor<1x?x2x8xf32>)
    -> (tensor<?x?xf32>, tensor<?x?xf32>, tensor<1x?x2x8xf32>, tensor<?x5xf32>,
        tensor<?xi64>) {
  %p = rlx.constant dense<0> : tensor<i64>
  %0 = rlx.pad reflect %x pads = [1, 2, 2, 1] : tensor<?x?xf32> -> tensor<?x?xf32>
  %1 = rlx.tile %x reps = [2, 1] : tensor<?x?xf32> -> tensor<?x?xf32>
  %2 = rlx.kv_append %cache, %update at %p axis = 1 : tensor<1x?x2x8xf32>, tensor<1x?x2x8xf32>, tensor<i64>
  %3:2 = rlx.topk %x k = 5 : tensor<?x?xf32> -> tensor<?x5xf32>, tensor<?x5xi64>
  %4 = rlx.argmax %x axis = 1 : tensor<?x?xf32> -> tensor<?xi64>
  return %0, %1, %2, %3#0, %4 : tensor<?x?xf32>, tensor<?x?xf32>, tensor<1x?x2x8xf32>, tensor<?x5xf32>, tensor<?xi64>
}

// -----

// Bounds on `?` sizes (rlx.bounds, -1: none) are `where` lines of the
// function, checked by the runtime like any other; the attribute is then
// dropped. A bound on a size that is pinned or unified applies to what it
// became: s1 is a's, b's and c's size, bounded by the tightest bound.
// CHECK-LABEL: func.func @bounded(
// CHECK-NOT:     rlx.bounds
// CHECK-LABEL: @rlx_manifest
// CHECK-SAME: func bounded 3 1\0Aarg f32 2 s0 s1\0Aarg f32 1 s1\0Aarg f32 1 s1\0Ares f32 2 s0 s1\0A
// CHECK-SAME: where s0 <= 4096 func.func at {{[^\\]*}}export-abi-dynamic.mlir:[[#@LINE+2]]:1\0A
// CHECK-SAME: where s1 <= 32 func.func at {{[^\\]*}}\0A\00
func.func @bounded(%a: tensor<?x?xf32> {rlx.bounds = array<i64: 4096, 64>}, %b: tensor<?xf32> {rlx.bounds = array<i64: 32>},
                   %c: tensor<?xf32> {rlx.bounds = array<i64: -1>}) -> tensor<?x?xf32> {
  %0 = rlx.add %a, %b : (tensor<?x?xf32>, tensor<?xf32>) -> tensor<?x?xf32>
  %1 = rlx.add %0, %c : (tensor<?x?xf32>, tensor<?xf32>) -> tensor<?x?xf32>
  return %1 : tensor<?x?xf32>
}
