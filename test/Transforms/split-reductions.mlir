// RUN: rlx-opt %s --split-input-file --rlx-split-reductions | FileCheck %s
// RUN: not rlx-opt %s --split-input-file --rlx-split-reductions="block-size=16 lanes=16" -o /dev/null 2>&1 | FileCheck %s --check-prefix=BAD

// BAD: error: rlx-split-reductions needs 1 <= lanes < block-size, got lanes = 16, block-size = 16

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>

// A row sum of 4096: 16 blocks of 256, each summed into 16 lanes (the
// innermost loop parallel), then the lanes, then the 16 blocks (no longer
// than the lanes: not split again).

// CHECK-LABEL: func.func @row_sum_4096
// CHECK:         %[[X:.*]] = tensor.expand_shape %{{.*}} {{\[\[}}0], [1, 2]] output_shape [4, 16, 256]
// CHECK:         %[[BLOCKS:.*]] = linalg.fill {{.*}} -> tensor<4x16xf32>
// CHECK:         %[[L:.*]] = tensor.expand_shape %[[X]] {{\[\[}}0], [1], [2, 3]] output_shape [4, 16, 16, 16]
// CHECK:         %[[LANES:.*]] = linalg.fill {{.*}} -> tensor<4x16x16xf32>
// CHECK:         %[[P:.*]] = linalg.generic
// CHECK-SAME:      iterator_types = ["parallel", "parallel", "reduction", "parallel"]
// CHECK-SAME:      ins(%[[L]] : tensor<4x16x16x16xf32>) outs(%[[LANES]] : tensor<4x16x16xf32>)
// CHECK:         %[[B:.*]] = linalg.generic
// CHECK-SAME:      iterator_types = ["parallel", "parallel", "reduction"]
// CHECK-SAME:      ins(%[[P]] : tensor<4x16x16xf32>) outs(%[[BLOCKS]] : tensor<4x16xf32>)
// CHECK:         %[[S:.*]] = linalg.generic
// CHECK-SAME:      iterator_types = ["parallel", "reduction"]
// CHECK-SAME:      ins(%[[B]] : tensor<4x16xf32>) outs(%{{.*}} : tensor<4xf32>)
// CHECK:         return %[[S]]
func.func @row_sum_4096(%x: tensor<4x4096xf32>, %init: tensor<4xf32>) -> tensor<4xf32> {
  %0 = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<4x4096xf32>) outs(%init : tensor<4xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %1 = arith.addf %acc, %a : f32
    linalg.yield %1 : f32
  } -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// A length the lanes do not divide (40 = 2 * 16 + 8): the 32 elements are
// split and the last 8 summed onto their result. The payload (exp) moves
// with the elements.

// CHECK-LABEL: func.func @row_sum_exp_40
// CHECK:         %[[MAIN:.*]] = tensor.extract_slice %{{.*}}[0, 0] [4, 32] [1, 1]
// CHECK:         %[[L:.*]] = tensor.expand_shape %[[MAIN]] {{\[\[}}0], [1, 2]] output_shape [4, 2, 16]
// CHECK:         linalg.generic
// CHECK-SAME:      iterator_types = ["parallel", "reduction", "parallel"]
// CHECK-SAME:      ins(%[[L]] : tensor<4x2x16xf32>)
// CHECK:           math.exp
// CHECK:         %[[SUM:.*]] = linalg.generic
// CHECK-SAME:      iterator_types = ["parallel", "reduction"]
// CHECK-NOT:       math.exp
// CHECK:         %[[REST:.*]] = tensor.extract_slice %{{.*}}[0, 32] [4, 8] [1, 1]
// CHECK:         %[[R:.*]] = linalg.generic
// CHECK-SAME:      ins(%[[REST]] : tensor<4x8xf32>) outs(%[[SUM]] : tensor<4xf32>)
// CHECK:           math.exp
// CHECK:         return %[[R]]
func.func @row_sum_exp_40(%x: tensor<4x40xf32>, %init: tensor<4xf32>) -> tensor<4xf32> {
  %0 = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<4x40xf32>) outs(%init : tensor<4xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %e = math.exp %a : f32
    %1 = arith.addf %acc, %e : f32
    linalg.yield %1 : f32
  } -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// Short sums stay as they are: 16 elements (no more than the lanes), one
// element.

// CHECK-LABEL: func.func @short
// CHECK-COUNT-2: linalg.generic
// CHECK-NOT:     linalg.generic
func.func @short(%x: tensor<4x16xf32>, %y: tensor<4x1xf32>, %init: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %0 = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<4x16xf32>) outs(%init : tensor<4xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %1 = arith.addf %acc, %a : f32
    linalg.yield %1 : f32
  } -> tensor<4xf32>
  %2 = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%y : tensor<4x1xf32>) outs(%init : tensor<4xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %3 = arith.addf %acc, %a : f32
    linalg.yield %3 : f32
  } -> tensor<4xf32>
  return %0, %2 : tensor<4xf32>, tensor<4xf32>
}

// Integer sums and float maxima are exact in any order: untouched.

// CHECK-LABEL: func.func @exact
// CHECK-COUNT-2: linalg.generic
// CHECK-NOT:     linalg.generic
func.func @exact(%x: tensor<4x1024xi32>, %y: tensor<4x1024xf32>, %i: tensor<4xi32>, %f: tensor<4xf32>) -> (tensor<4xi32>, tensor<4xf32>) {
  %0 = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<4x1024xi32>) outs(%i : tensor<4xi32>) {
  ^bb0(%a: i32, %acc: i32):
    %1 = arith.addi %acc, %a : i32
    linalg.yield %1 : i32
  } -> tensor<4xi32>
  %2 = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%y : tensor<4x1024xf32>) outs(%f : tensor<4xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %3 = arith.maxnumf %acc, %a : f32
    linalg.yield %3 : f32
  } -> tensor<4xf32>
  return %0, %2 : tensor<4xi32>, tensor<4xf32>
}

// linalg.index would see the split loops: untouched.

// CHECK-LABEL: func.func @index
// CHECK-COUNT-1: linalg.generic
// CHECK-NOT:     linalg.generic
func.func @index(%x: tensor<4x1024xf32>, %init: tensor<4xf32>) -> tensor<4xf32> {
  %0 = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<4x1024xf32>) outs(%init : tensor<4xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %j = linalg.index 1 : index
    %ji = arith.index_cast %j : index to i32
    %jf = arith.sitofp %ji : i32 to f32
    %m = arith.mulf %a, %jf : f32
    %1 = arith.addf %acc, %m : f32
    linalg.yield %1 : f32
  } -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// Two results of one stage (a sum and a maximum) split together.

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>

// CHECK-LABEL: func.func @sum_and_max
// CHECK:         %[[P:.*]]:2 = linalg.generic
// CHECK-SAME:      iterator_types = ["parallel", "reduction", "parallel"]
// CHECK:           arith.addf
// CHECK:           arith.maxnumf
// CHECK:         %[[R:.*]]:2 = linalg.generic
// CHECK-SAME:      ins(%[[P]]#0, %[[P]]#1 : tensor<2x16xf32>, tensor<2x16xf32>)
// CHECK:           arith.addf
// CHECK:           arith.maxnumf
// CHECK:         return %[[R]]#0, %[[R]]#1
func.func @sum_and_max(%x: tensor<2x64xf32>, %s: tensor<2xf32>, %m: tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>) {
  %0:2 = linalg.generic {indexing_maps = [#id, #row, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<2x64xf32>) outs(%s, %m : tensor<2xf32>, tensor<2xf32>) {
  ^bb0(%a: f32, %acc: f32, %mx: f32):
    %1 = arith.addf %acc, %a : f32
    %2 = arith.maxnumf %mx, %a : f32
    linalg.yield %1, %2 : f32, f32
  } -> (tensor<2xf32>, tensor<2xf32>)
  return %0#0, %0#1 : tensor<2xf32>, tensor<2xf32>
}

// -----

// A column sum (the reduction loop outermost): blocks only, the columns
// staying the inner loop.

#id = affine_map<(d0, d1) -> (d0, d1)>
#col = affine_map<(d0, d1) -> (d1)>

// CHECK-LABEL: func.func @column_sum
// CHECK:         tensor.expand_shape %{{.*}} {{\[\[}}0, 1], [2]] output_shape [2, 256, 8]
// CHECK:         %[[P:.*]] = linalg.generic
// CHECK-SAME:      iterator_types = ["parallel", "reduction", "parallel"]
// CHECK-SAME:      outs(%{{.*}} : tensor<8x2xf32>)
// CHECK:         %[[S:.*]] = linalg.generic
// CHECK-SAME:      iterator_types = ["parallel", "reduction"]
// CHECK-SAME:      ins(%[[P]] : tensor<8x2xf32>)
// CHECK:         return %[[S]]
func.func @column_sum(%x: tensor<512x8xf32>, %init: tensor<8xf32>) -> tensor<8xf32> {
  %0 = linalg.generic {indexing_maps = [#id, #col], iterator_types = ["reduction", "parallel"]}
      ins(%x : tensor<512x8xf32>) outs(%init : tensor<8xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %1 = arith.addf %acc, %a : f32
    linalg.yield %1 : f32
  } -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

// A contraction is not split: its partials would be the size of its result
// times the blocks.

#a = affine_map<(d0, d1, d2) -> (d0, d2)>
#b = affine_map<(d0, d1, d2) -> (d2, d1)>
#c = affine_map<(d0, d1, d2) -> (d0, d1)>

// CHECK-LABEL: func.func @contraction
// CHECK-COUNT-1: linalg.generic
// CHECK-NOT:     linalg.generic
func.func @contraction(%x: tensor<4x1024xf32>, %w: tensor<1024x8xf32>, %init: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %w : tensor<4x1024xf32>, tensor<1024x8xf32>) outs(%init : tensor<4x8xf32>) {
  ^bb0(%p: f32, %q: f32, %acc: f32):
    %m = arith.mulf %p, %q : f32
    %1 = arith.addf %acc, %m : f32
    linalg.yield %1 : f32
  } -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

// A sum over several consecutive loops that the input reads in order (here
// the whole tensor) is first one loop over their 65536 elements, then
// split as any long sum: 256 blocks of 256 in 16 lanes, then the blocks.
// CHECK-LABEL: func.func @whole_tensor
// CHECK-SAME:      %[[X:[a-z0-9]+]]: tensor<64x1024xf32>
// CHECK:         %[[FLAT:.*]] = tensor.collapse_shape %[[X]] {{\[\[}}0, 1]] : tensor<64x1024xf32> into tensor<65536xf32>
// CHECK:         %[[BLOCKS:.*]] = tensor.expand_shape %[[FLAT]] {{\[\[}}0, 1]] output_shape [256, 256]
// CHECK:         linalg.generic {{.*}} iterator_types = ["parallel", "reduction", "parallel"]
// CHECK-SAME:        outs(%{{.*}} : tensor<256x16xf32>)
// CHECK:         linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]
// CHECK-SAME:        outs(%{{.*}} : tensor<256xf32>)
func.func @whole_tensor(%x: tensor<64x1024xf32>) -> tensor<f32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<f32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<f32>) -> tensor<f32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> ()>], iterator_types = ["reduction", "reduction"]} ins(%x : tensor<64x1024xf32>) outs(%f : tensor<f32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %out, %in : f32
    linalg.yield %s : f32
  } -> tensor<f32>
  return %r : tensor<f32>
}

// -----

// Trailing axes of a [batch, h, w] tensor (a global pool's sum): one loop
// of 4096 per batch, split in blocks.
// CHECK-LABEL: func.func @trailing_axes
// CHECK:         tensor.collapse_shape %{{.*}} {{\[\[}}0], [1, 2]] : tensor<8x64x64xf32> into tensor<8x4096xf32>
// CHECK:         linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "reduction", "parallel"]
func.func @trailing_axes(%x: tensor<8x64x64xf32>) -> tensor<8xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0)>], iterator_types = ["parallel", "reduction", "reduction"]} ins(%x : tensor<8x64x64xf32>) outs(%f : tensor<8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %out, %in : f32
    linalg.yield %s : f32
  } -> tensor<8xf32>
  return %r : tensor<8xf32>
}

// -----

// Reduction loops that are not neighbours (axes 0 and 2), or that an
// operand reads out of order (a transposed read), are left as they are.
// CHECK-LABEL: func.func @apart
// CHECK-NOT:     tensor.collapse_shape
// CHECK:         iterator_types = ["reduction", "parallel", "reduction"]
// CHECK-LABEL: func.func @transposed
// CHECK-NOT:     tensor.collapse_shape
// CHECK:         iterator_types = ["reduction", "reduction"]
func.func @apart(%x: tensor<64x8x64xf32>) -> tensor<8xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d1)>], iterator_types = ["reduction", "parallel", "reduction"]} ins(%x : tensor<64x8x64xf32>) outs(%f : tensor<8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %out, %in : f32
    linalg.yield %s : f32
  } -> tensor<8xf32>
  return %r : tensor<8xf32>
}
func.func @transposed(%x: tensor<64x1024xf32>) -> tensor<f32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<f32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<f32>) -> tensor<f32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> ()>], iterator_types = ["reduction", "reduction"]} ins(%x : tensor<64x1024xf32>) outs(%f : tensor<f32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %out, %in : f32
    linalg.yield %s : f32
  } -> tensor<f32>
  return %r : tensor<f32>
}

// -----

// Not collapsed: a sum of no more elements than lanes (4 x 4), and a sum
// inside a loop (a tile's, whose slices may be strided).
// CHECK-LABEL: func.func @few
// CHECK-NOT:     tensor.collapse_shape
// CHECK:         iterator_types = ["reduction", "reduction"]
// CHECK-LABEL: func.func @in_loop
// CHECK-NOT:     tensor.collapse_shape
// CHECK:         iterator_types = ["reduction", "reduction"]
func.func @few(%x: tensor<4x4xf32>) -> tensor<f32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<f32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<f32>) -> tensor<f32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> ()>], iterator_types = ["reduction", "reduction"]} ins(%x : tensor<4x4xf32>) outs(%f : tensor<f32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %out, %in : f32
    linalg.yield %s : f32
  } -> tensor<f32>
  return %r : tensor<f32>
}
func.func @in_loop(%x: tensor<4x64x64xf32>, %init: tensor<4xf32>) -> tensor<4xf32> {
  %z = arith.constant 0.0 : f32
  %r = scf.forall (%i) in (4) shared_outs(%out = %init) -> (tensor<4xf32>) {
    %t = tensor.extract_slice %x[%i, 0, 0] [1, 64, 64] [1, 1, 1] : tensor<4x64x64xf32> to tensor<64x64xf32>
    %e = tensor.empty() : tensor<f32>
    %f = linalg.fill ins(%z : f32) outs(%e : tensor<f32>) -> tensor<f32>
    %s = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> ()>], iterator_types = ["reduction", "reduction"]} ins(%t : tensor<64x64xf32>) outs(%f : tensor<f32>) {
    ^bb0(%in: f32, %acc: f32):
      %a = arith.addf %acc, %in : f32
      linalg.yield %a : f32
    } -> tensor<f32>
    %v = tensor.expand_shape %s [] output_shape [1] : tensor<f32> into tensor<1xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %v into %out[%i] [1] [1] : tensor<1xf32> into tensor<4xf32>
    }
  }
  return %r : tensor<4xf32>
}

// -----

// A `?` length: its largest multiple of the block, (n floordiv 256) * 256,
// is split into `?` blocks (each into lanes); the blocks' partial sums are
// marked and not split again (their number is `?` too), and the rest,
// n mod 256 elements, is summed in order onto them. A `?` loop known to be
// at most a block long (that rest) is left as it is.
// CHECK-DAG:   #[[MAIN:.*]] = affine_map<()[s0] -> ((s0 floordiv 256) * 256)>
// CHECK-DAG:   #[[REST:.*]] = affine_map<()[s0] -> (s0 mod 256)>
// CHECK-DAG:   #[[BLOCKS:.*]] = affine_map<()[s0] -> (s0 floordiv 256)>
// CHECK-LABEL: func.func @row_sum_dynamic
// CHECK:         %[[N:.*]] = tensor.dim %arg0, %c1 : tensor<4x?xf32>
// CHECK:         %[[MAIN_SIZE:.*]] = affine.apply #[[MAIN]]()[%[[N]]]
// CHECK:         %[[REST_SIZE:.*]] = affine.apply #[[REST]]()[%[[N]]]
// CHECK:         %[[MAIN_PART:.*]] = tensor.extract_slice %arg0[0, 0] [4, %[[MAIN_SIZE]]] [1, 1]
// CHECK:         %[[COUNT:.*]] = affine.apply #[[BLOCKS]]()[%[[N]]]
// CHECK:         tensor.expand_shape %[[MAIN_PART]] {{\[\[}}0], [1, 2]] output_shape [4, %[[COUNT]], 256]
// CHECK:         linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "reduction", "parallel"]
// CHECK:         linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "reduction"]
// CHECK:         %[[SUMMED:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]{{.*}} attrs = {rlx.partial_sums}
// CHECK:         %[[REST_PART:.*]] = tensor.extract_slice %arg0[0, %[[MAIN_SIZE]]] [4, %[[REST_SIZE]]] [1, 1]
// CHECK:         %[[TOTAL:.*]] = linalg.generic {{.*}} ins(%[[REST_PART]] : tensor<4x?xf32>) outs(%[[SUMMED]] : tensor<4xf32>)
// CHECK:         return %[[TOTAL]]
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @row_sum_dynamic(%x: tensor<4x?xf32>, %init: tensor<4xf32>) -> tensor<4xf32> {
  %0 = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<4x?xf32>) outs(%init : tensor<4xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %1 = arith.addf %acc, %a : f32
    linalg.yield %1 : f32
  } -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
