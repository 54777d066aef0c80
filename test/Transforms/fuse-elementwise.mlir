// RUN: rlx-opt %s --split-input-file --rlx-fuse-elementwise | FileCheck %s

// Elementwise fusion where each element is computed once: into an
// elementwise consumer, and into a reduction over the producer's own
// iteration space.

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>

// CHECK-LABEL: func.func @into_elementwise
// CHECK:         linalg.generic
// CHECK:           math.exp
// CHECK:           arith.mulf
// CHECK-NOT:     linalg.generic
func.func @into_elementwise(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  %0 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %1 = math.exp %a : f32
    linalg.yield %1 : f32
  } -> tensor<4x8xf32>
  %2 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%0 : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %3 = arith.mulf %a, %a : f32
    linalg.yield %3 : f32
  } -> tensor<4x8xf32>
  return %2 : tensor<4x8xf32>
}

// CHECK-LABEL: func.func @into_row_reduction
// CHECK:         linalg.generic
// CHECK-SAME:      ["parallel", "reduction"]
// CHECK:           math.exp
// CHECK:           arith.addf
// CHECK-NOT:     linalg.generic
func.func @into_row_reduction(%x: tensor<4x8xf32>, %init: tensor<4xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  %0 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %1 = math.exp %a : f32
    linalg.yield %1 : f32
  } -> tensor<4x8xf32>
  %2 = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%0 : tensor<4x8xf32>) outs(%init : tensor<4xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %3 = arith.addf %acc, %a : f32
    linalg.yield %3 : f32
  } -> tensor<4xf32>
  return %2 : tensor<4xf32>
}

// -----

// The benchmark's shape: bias + gelu (erf) on a rank-3 activation feeding
// the next projection, a contraction reading each activation once per
// output column. The activation stays its own loop nest.

#x = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>
#w = affine_map<(d0, d1, d2, d3) -> (d3, d2)>
#out = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#bias = affine_map<(d0, d1, d2) -> (d2)>

// CHECK-LABEL: func.func @gelu_into_contraction
// CHECK:         %[[ACT:.*]] = linalg.generic
// CHECK-SAME:      ["parallel", "parallel", "parallel"]
// CHECK:           arith.addf
// CHECK:           math.erf
// CHECK:         linalg.generic
// CHECK-SAME:      ["parallel", "parallel", "parallel", "reduction"]
// CHECK-SAME:      ins(%[[ACT]], %{{.*}} : tensor<2x64x1024xf32>, tensor<1024x256xf32>)
// CHECK-NOT:       math.erf
// CHECK:         return
func.func @gelu_into_contraction(%h: tensor<2x64x1024xf32>, %b: tensor<1024xf32>,
                                 %w: tensor<1024x256xf32>) -> tensor<2x64x256xf32> {
  %e = tensor.empty() : tensor<2x64x1024xf32>
  %act = linalg.generic {indexing_maps = [#id3, #bias, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%h, %b : tensor<2x64x1024xf32>, tensor<1024xf32>) outs(%e : tensor<2x64x1024xf32>) {
  ^bb0(%a: f32, %c: f32, %o: f32):
    %s = arith.addf %a, %c : f32
    %half = arith.constant 0.5 : f32
    %r = arith.constant 0.707106769 : f32
    %one = arith.constant 1.0 : f32
    %t = arith.mulf %s, %r : f32
    %erf = math.erf %t : f32
    %u = arith.addf %erf, %one : f32
    %v = arith.mulf %s, %half : f32
    %g = arith.mulf %v, %u : f32
    linalg.yield %g : f32
  } -> tensor<2x64x1024xf32>
  %zero = arith.constant 0.0 : f32
  %oe = tensor.empty() : tensor<2x64x256xf32>
  %init = linalg.fill ins(%zero : f32) outs(%oe : tensor<2x64x256xf32>) -> tensor<2x64x256xf32>
  %y = linalg.generic {indexing_maps = [#x, #w, #out], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%act, %w : tensor<2x64x1024xf32>, tensor<1024x256xf32>) outs(%init : tensor<2x64x256xf32>) {
  ^bb0(%a: f32, %c: f32, %acc: f32):
    %m = arith.mulf %a, %c : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<2x64x256xf32>
  return %y : tensor<2x64x256xf32>
}

// -----

// A cast is free to recompute: an f16 operand is read by the contraction
// directly, extended per use.

#x = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>
#w = affine_map<(d0, d1, d2, d3) -> (d3, d2)>
#out = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>

// CHECK-LABEL: func.func @cast_into_contraction
// CHECK:         linalg.generic
// CHECK-SAME:      ins(%{{.*}}, %{{.*}} : tensor<2x4x8xf16>, tensor<8x3xf32>)
// CHECK:           arith.extf
// CHECK:           arith.mulf
// CHECK-NOT:     linalg.generic
func.func @cast_into_contraction(%h: tensor<2x4x8xf16>, %w: tensor<8x3xf32>) -> tensor<2x4x3xf32> {
  %e = tensor.empty() : tensor<2x4x8xf32>
  %ext = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%h : tensor<2x4x8xf16>) outs(%e : tensor<2x4x8xf32>) {
  ^bb0(%a: f16, %o: f32):
    %f = arith.extf %a : f16 to f32
    linalg.yield %f : f32
  } -> tensor<2x4x8xf32>
  %zero = arith.constant 0.0 : f32
  %oe = tensor.empty() : tensor<2x4x3xf32>
  %init = linalg.fill ins(%zero : f32) outs(%oe : tensor<2x4x3xf32>) -> tensor<2x4x3xf32>
  %y = linalg.generic {indexing_maps = [#x, #w, #out], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%ext, %w : tensor<2x4x8xf32>, tensor<8x3xf32>) outs(%init : tensor<2x4x3xf32>) {
  ^bb0(%a: f32, %c: f32, %acc: f32):
    %m = arith.mulf %a, %c : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<2x4x3xf32>
  return %y : tensor<2x4x3xf32>
}

// -----

// A broadcast consumer would compute exp(x[j]) once per row: not fused.

#vec = affine_map<(d0) -> (d0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
#col = affine_map<(d0, d1) -> (d1)>

// CHECK-LABEL: func.func @broadcast_consumer
// CHECK:         %[[EXP:.*]] = linalg.generic
// CHECK:           math.exp
// CHECK:         linalg.generic
// CHECK-SAME:      ins(%{{.*}}, %[[EXP]] : tensor<4x8xf32>, tensor<8xf32>)
// CHECK-NOT:       math.exp
// CHECK:         return
func.func @broadcast_consumer(%x: tensor<4x8xf32>, %v: tensor<8xf32>) -> tensor<4x8xf32> {
  %ev = tensor.empty() : tensor<8xf32>
  %0 = linalg.generic {indexing_maps = [#vec, #vec], iterator_types = ["parallel"]}
      ins(%v : tensor<8xf32>) outs(%ev : tensor<8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %1 = math.exp %a : f32
    linalg.yield %1 : f32
  } -> tensor<8xf32>
  %e = tensor.empty() : tensor<4x8xf32>
  %2 = linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %0 : tensor<4x8xf32>, tensor<8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %3 = arith.addf %a, %b : f32
    linalg.yield %3 : f32
  } -> tensor<4x8xf32>
  return %2 : tensor<4x8xf32>
}

// -----

// A producer with two users is not fused (upstream's rule, kept).

#id = affine_map<(d0) -> (d0)>

// CHECK-LABEL: func.func @two_users
// CHECK-COUNT-3: linalg.generic
func.func @two_users(%x: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %e = tensor.empty() : tensor<8xf32>
  %0 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%x : tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %1 = math.exp %a : f32
    linalg.yield %1 : f32
  } -> tensor<8xf32>
  %2 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%0 : tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %3 = arith.negf %a : f32
    linalg.yield %3 : f32
  } -> tensor<8xf32>
  %4 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%0 : tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %5 = math.sqrt %a : f32
    linalg.yield %5 : f32
  } -> tensor<8xf32>
  return %2, %4 : tensor<8xf32>, tensor<8xf32>
}
