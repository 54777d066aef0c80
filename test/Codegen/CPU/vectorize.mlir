// RUN: rlx-opt %s --split-input-file --rlx-tile-and-fuse --canonicalize --rlx-cpu-vectorize --canonicalize | FileCheck %s
// RUN: rlx-opt %s --split-input-file --rlx-tile-and-fuse --canonicalize --rlx-cpu-vectorize=strict-fp --canonicalize | FileCheck %s --check-prefix=STRICT

// A register tile becomes one vector.contract per reduction step; its
// accumulator is read before the reduction loop, carried in registers
// (an iter_arg of vector type) and written after it.
// CHECK-LABEL: func.func @register_tiles
// CHECK:         scf.for
// CHECK:           scf.for
// CHECK:             %[[ACC:.*]] = vector.transfer_read {{.*}} : tensor<8x64xf32>, vector<4x16xf32>
// CHECK:             %[[SUM:.*]] = scf.for {{.*}} iter_args(%[[CARRIED:.*]] = %[[ACC]]) -> (vector<4x16xf32>)
// CHECK:               vector.transfer_read {{.*}} vector<4x1xf32>
// CHECK:               vector.transfer_read {{.*}} vector<1x16xf32>
// CHECK:               %[[NEXT:.*]] = vector.contract {{.*}} %[[CARRIED]] : vector<4x1xf32>, vector<1x16xf32> into vector<4x16xf32>
// CHECK:               scf.yield %[[NEXT]] : vector<4x16xf32>
// CHECK:             vector.transfer_write %[[SUM]]
// CHECK-NOT:     linalg.matmul
func.func @register_tiles(%a: tensor<8x32xf32>, %b: tensor<32x64xf32>, %c: tensor<8x64xf32>) -> tensor<8x64xf32> {
  %0 = linalg.matmul {rlx.lowering_config = #rlx.lowering_config<distribution = [0, 0, 0], cache = [0, 0, 0], vector = [4, 16, 1]>}
      ins(%a, %b : tensor<8x32xf32>, tensor<32x64xf32>) outs(%c : tensor<8x64xf32>) -> tensor<8x64xf32>
  return %0 : tensor<8x64xf32>
}

// -----

// A partial register tile (10 rows in tiles of 4) is peeled by
// rlx-tile-and-fuse: two full tiles and one of 2 rows, each with a static
// shape, all vector.contracts.
// CHECK-LABEL: func.func @partial_tiles
// CHECK:         scf.for {{.*}} = %c0 to %c8 step %c4
// CHECK:           vector.contract {{.*}} : vector<4x1xf32>, vector<1x16xf32> into vector<4x16xf32>
// CHECK:         vector.contract {{.*}} : vector<2x1xf32>, vector<1x16xf32> into vector<2x16xf32>
// CHECK-NOT:     linalg.matmul
func.func @partial_tiles(%a: tensor<10x8xf32>, %b: tensor<8x16xf32>, %c: tensor<10x16xf32>) -> tensor<10x16xf32> {
  %0 = linalg.matmul {rlx.lowering_config = #rlx.lowering_config<distribution = [0, 0, 0], cache = [0, 0, 0], vector = [4, 16, 1]>}
      ins(%a, %b : tensor<10x8xf32>, tensor<8x16xf32>) outs(%c : tensor<10x16xf32>) -> tensor<10x16xf32>
  return %0 : tensor<10x16xf32>
}

// -----

// A tile whose rows are not a power-of-two number of columns (13, the
// peeled last tile of 29 in tiles of 16) is vectorized 16 lanes wide: its
// transfers read and write out of bounds (the lanes past column 13 are
// padded on reads and dropped on writes), and the contraction computes
// all 16 lanes, unmasked.
// CHECK-LABEL: func.func @masked_lanes
// CHECK:         vector.transfer_read {{.*}} {in_bounds = [true, false]} : tensor<4x13xf32>, vector<4x16xf32>
// CHECK:         scf.for
// CHECK:           vector.transfer_read {{.*}} {in_bounds = [true, false]} : tensor<1x13xf32>, vector<1x16xf32>
// CHECK:           vector.contract {{.*}} : vector<4x1xf32>, vector<1x16xf32> into vector<4x16xf32>
// CHECK:         vector.transfer_write {{.*}} {in_bounds = [true, false]} : vector<4x16xf32>, tensor<4x13xf32>
// CHECK-NOT:     vector.mask
// In the strict mode the contraction is lowered here, to outer products
// whose multiplies and adds round separately (no vector.fma).
// STRICT-LABEL: func.func @masked_lanes
// STRICT-NOT:     vector.contract
// STRICT-NOT:     vector.fma
// STRICT:         scf.for
// STRICT:           %[[P:.*]] = arith.mulf %{{.*}}, %{{.*}} : vector<16xf32>
// STRICT:           arith.addf %[[P]], %{{.*}} : vector<16xf32>
// STRICT-NOT:     vector.fma
// STRICT-LABEL: func.func
func.func @masked_lanes(%a: tensor<4x8xf32>, %b: tensor<8x29xf32>, %c: tensor<4x29xf32>) -> tensor<4x29xf32> {
  %0 = linalg.matmul {rlx.lowering_config = #rlx.lowering_config<distribution = [0, 0, 0], cache = [0, 0, 0], vector = [4, 16, 1]>}
      ins(%a, %b : tensor<4x8xf32>, tensor<8x29xf32>) outs(%c : tensor<4x29xf32>) -> tensor<4x29xf32>
  return %0 : tensor<4x29xf32>
}

// -----

// Masked lanes are computed only by payloads that cannot trap: a tile
// that divides integers (a padded lane's divisor is undefined) keeps its
// 13 lanes.
// CHECK-LABEL: func.func @integer_lanes
// CHECK:         vector.transfer_read {{.*}} : tensor<4x29xi32>, vector<4x13xi32>
// CHECK-NOT:     vector<4x16xi32>
#id = affine_map<(i, j) -> (i, j)>
func.func @integer_lanes(%a: tensor<4x29xi32>, %b: tensor<4x29xi32>) -> tensor<4x29xi32> {
  %0 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<4x29xi32>) outs(%b : tensor<4x29xi32>)
      attrs = {rlx.lowering_config = #rlx.lowering_config<distribution = [0, 0], cache = [0, 0], vector = [4, 16]>} {
  ^bb0(%x: i32, %y: i32):
    %q = arith.divsi %y, %x : i32
    linalg.yield %q : i32
  } -> tensor<4x29xi32>
  return %0 : tensor<4x29xi32>
}

// -----

// An op without a config is not vectorized.
// CHECK-LABEL: func.func @unscheduled
// CHECK:         linalg.matmul
func.func @unscheduled(%a: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %0 = linalg.matmul ins(%a, %a : tensor<4x4xf32>, tensor<4x4xf32>) outs(%a : tensor<4x4xf32>) -> tensor<4x4xf32>
  return %0 : tensor<4x4xf32>
}

// -----

// A config without register tiles (thread tiles only) leaves the op to the
// loop lowering.
// CHECK-LABEL: func.func @no_register_tiles
// CHECK:         linalg.matmul
func.func @no_register_tiles(%a: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %0 = linalg.matmul {rlx.lowering_config = #rlx.lowering_config<distribution = [0, 0, 0], cache = [0, 0, 0], vector = [0, 0, 0]>}
      ins(%a, %a : tensor<4x4xf32>, tensor<4x4xf32>) outs(%a : tensor<4x4xf32>) -> tensor<4x4xf32>
  return %0 : tensor<4x4xf32>
}

// -----

// A convolution tiled to one window position and one input channel is read
// as a matmul-shaped generic: the window loops drop out, the input row is
// one vector, and the filter column is the contraction's first operand, so
// its elements are broadcast against the row (an outer product per step)
// while the accumulator stays in registers across the channel and window
// loops.
// CHECK-LABEL: func.func @conv_tiles
// CHECK:         %[[ACC:.*]] = vector.transfer_read {{.*}} vector<1x8x1x8xf32>
// CHECK:         scf.for {{.*}} iter_args(%{{.*}} = %[[ACC]]) -> (vector<1x8x1x8xf32>)
// CHECK:           scf.for
// CHECK:             scf.for
// CHECK:               %[[ROW:.*]] = vector.transfer_read %arg0{{.*}} : tensor<1x4x6x10xf32>, vector<1x1x1x8xf32>
// CHECK:               %[[FILTERS:.*]] = vector.transfer_read %arg1{{.*}} : tensor<8x4x3x3xf32>, vector<8x1xf32>
// CHECK:               vector.contract {{.*}} %[[FILTERS]], %[[ROW]], %{{.*}} : vector<8x1xf32>, vector<1x1x1x8xf32> into vector<1x8x1x8xf32>
// CHECK-NOT:     linalg.conv
func.func @conv_tiles(%x: tensor<1x4x6x10xf32>, %w: tensor<8x4x3x3xf32>, %init: tensor<1x8x4x8xf32>) -> tensor<1x8x4x8xf32> {
  %0 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>,
      rlx.lowering_config = #rlx.lowering_config<distribution = [0, 0, 0, 0, 0, 0, 0], cache = [0, 0, 1, 0, 0, 0, 0], vector = [1, 8, 1, 8, 1, 1, 1]>}
      ins(%x, %w : tensor<1x4x6x10xf32>, tensor<8x4x3x3xf32>) outs(%init : tensor<1x8x4x8xf32>) -> tensor<1x8x4x8xf32>
  return %0 : tensor<1x8x4x8xf32>
}

// -----

// `?` output columns: the full tiles are those above; the peeled partial
// tile (fewer than 8 columns, bounded by the config, so the next round of
// tiling leaves it whole) becomes the same generic, vectorized with masks,
// and its masked accumulator also stays in registers across the channel
// and window loops.
// CHECK-LABEL: func.func @dynamic_conv_tiles
// CHECK:         %[[ACC:.*]] = vector.transfer_read {{.*}} {in_bounds = [true, true, true, true]} : tensor<1x8x1x?xf32>, vector<1x8x1x8xf32>
// CHECK:         scf.for {{.*}} iter_args(%{{.*}} = %[[ACC]]) -> (vector<1x8x1x8xf32>)
// CHECK:           scf.for
// CHECK:             scf.for
// CHECK:               vector.contract {{.*}} : vector<8x1xf32>, vector<1x1x1x8xf32> into vector<1x8x1x8xf32>
// CHECK:         vector.transfer_write {{.*}} {in_bounds = [true, true, true, true]} : vector<1x8x1x8xf32>, tensor<1x8x1x?xf32>
// CHECK:         %[[MASK:.*]] = vector.create_mask %c1, %c8, %c1, %{{.*}} : vector<1x8x1x8xi1>
// CHECK:         %[[PARTIAL:.*]] = vector.transfer_read {{.*}}, %[[MASK]] {in_bounds = [true, true, true, false]} : tensor<1x8x1x?xf32>, vector<1x8x1x8xf32>
// CHECK:         scf.for {{.*}} iter_args(%{{.*}} = %[[PARTIAL]]) -> (vector<1x8x1x8xf32>)
// CHECK:           scf.for
// CHECK:             scf.for
// CHECK:               vector.transfer_read {{.*}} {in_bounds = [true, true, true, false]} : tensor<1x4x3x?xf32>, vector<1x1x1x8xf32>
// CHECK:               vector.contract {{.*}} : vector<8x1xf32>, vector<1x1x1x8xf32> into vector<1x8x1x8xf32>
// CHECK:         vector.transfer_write {{.*}}, %[[MASK]] {in_bounds = [true, true, true, false]} : vector<1x8x1x8xf32>, tensor<1x8x1x?xf32>
// CHECK-NOT:     linalg.conv
func.func @dynamic_conv_tiles(%x: tensor<1x4x6x?xf32>, %w: tensor<8x4x3x3xf32>, %init: tensor<1x8x4x?xf32>) -> tensor<1x8x4x?xf32> {
  %0 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>,
      rlx.lowering_config = #rlx.lowering_config<distribution = [0, 0, 0, 0, 0, 0, 0], cache = [0, 0, 1, 0, 0, 0, 0], vector = [1, 8, 1, 8, 1, 1, 1]>}
      ins(%x, %w : tensor<1x4x6x?xf32>, tensor<8x4x3x3xf32>) outs(%init : tensor<1x8x4x?xf32>) -> tensor<1x8x4x?xf32>
  return %0 : tensor<1x8x4x?xf32>
}

// -----

// With stride 2 the input row is read from a slice with stride 2.
// CHECK-LABEL: func.func @strided_conv_tiles
// CHECK:         tensor.extract_slice {{.*}} [1, 1, 1, 8] [1, 1, 2, 2] : tensor<1x1x1x15xf32> to tensor<1x1x1x8xf32>
// CHECK:         vector.contract {{.*}} : vector<8x1xf32>, vector<1x1x1x8xf32> into vector<1x8x1x8xf32>
// CHECK-NOT:     linalg.conv

func.func @strided_conv_tiles(%x: tensor<1x2x9x17xf32>, %w: tensor<8x2x3x3xf32>, %init: tensor<1x8x4x8xf32>) -> tensor<1x8x4x8xf32> {
  %0 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>,
      rlx.lowering_config = #rlx.lowering_config<distribution = [0, 0, 0, 0, 0, 0, 0], cache = [0, 0, 1, 0, 0, 0, 0], vector = [1, 8, 1, 8, 1, 1, 1]>}
      ins(%x, %w : tensor<1x2x9x17xf32>, tensor<8x2x3x3xf32>) outs(%init : tensor<1x8x4x8xf32>) -> tensor<1x8x4x8xf32>
  return %0 : tensor<1x8x4x8xf32>
}

// -----

// A register tile that keeps the whole window is not a projected
// permutation of its input: it stays a convolution (scalar loops later).
// CHECK-LABEL: func.func @whole_window
// CHECK:         linalg.conv_2d_nchw_fchw {{.*}} outs(%{{.*}} : tensor<1x8x1x8xf32>)
// CHECK-NOT:     vector.contract

func.func @whole_window(%x: tensor<1x4x6x10xf32>, %w: tensor<8x4x3x3xf32>, %init: tensor<1x8x4x8xf32>) -> tensor<1x8x4x8xf32> {
  %0 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>,
      rlx.lowering_config = #rlx.lowering_config<distribution = [0, 0, 0, 0, 0, 0, 0], cache = [0, 0, 1, 0, 0, 0, 0], vector = [1, 8, 1, 8, 1, 3, 3]>}
      ins(%x, %w : tensor<1x4x6x10xf32>, tensor<8x4x3x3xf32>) outs(%init : tensor<1x8x4x8xf32>) -> tensor<1x8x4x8xf32>
  return %0 : tensor<1x8x4x8xf32>
}

// -----

// A depthwise convolution's loops run channels after the image's rows and
// columns; its register tile is rebuilt with loops in the result's order,
// so no operand is transposed, and the filter's column of channels is
// broadcast along the row. Its multiply-add is one fused multiply-add,
// except in the strict mode, which rounds the product and the sum apart.
// CHECK-LABEL: func.func @depthwise_tiles
// CHECK:         %[[FILTERS:.*]] = vector.transfer_read {{.*}} : tensor<8x3x3xf32>, vector<8xf32>
// CHECK:         %[[COLUMN:.*]] = vector.shape_cast %[[FILTERS]] : vector<8xf32> to vector<1x8x1x1xf32>
// CHECK:         %[[SPREAD:.*]] = vector.broadcast %[[COLUMN]] : vector<1x8x1x1xf32> to vector<1x8x1x8xf32>
// CHECK:         vector.fma %{{.*}}, %[[SPREAD]], %{{.*}} : vector<1x8x1x8xf32>
// CHECK-NOT:     vector.transpose
// STRICT-LABEL: func.func @depthwise_tiles
// STRICT-NOT:    vector.fma
// STRICT:        arith.mulf {{.*}} : vector<1x8x1x8xf32>
// STRICT:        arith.addf {{.*}} : vector<1x8x1x8xf32>
func.func @depthwise_tiles(%x: tensor<1x8x6x10xf32>, %w: tensor<8x3x3xf32>, %init: tensor<1x8x4x8xf32>) -> tensor<1x8x4x8xf32> {
  %0 = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>,
      rlx.lowering_config = #rlx.lowering_config<distribution = [0, 0, 0, 0, 0, 0], cache = [0, 1, 0, 0, 0, 0], vector = [1, 1, 8, 8, 1, 1]>}
      ins(%x, %w : tensor<1x8x6x10xf32>, tensor<8x3x3xf32>) outs(%init : tensor<1x8x4x8xf32>) -> tensor<1x8x4x8xf32>
  return %0 : tensor<1x8x4x8xf32>
}

// -----

#id = affine_map<(i, j) -> (i, j)>
#col = affine_map<(i, j) -> (j)>
// Booleans are stored a byte each, but vectors of i1 load and store packed
// bits: an op reading a mask stays a loop nest.
// CHECK-LABEL: func.func @boolean_mask
// CHECK:         linalg.generic {{.*}} ins({{.*}} : tensor<4x16xf32>, tensor<16xi1>)
// CHECK-NOT:     vector.transfer_read {{.*}}xi1>
func.func @boolean_mask(%x: tensor<4x16xf32>, %keep: tensor<16xi1>, %out: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %minf = arith.constant 0xFF800000 : f32
  %0 = linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %keep : tensor<4x16xf32>, tensor<16xi1>) outs(%out : tensor<4x16xf32>)
      attrs = {rlx.lowering_config = #rlx.lowering_config<distribution = [0, 0], cache = [0, 0], vector = [4, 16]>} {
  ^bb0(%v: f32, %k: i1, %o: f32):
    %r = arith.select %k, %v, %minf : f32
    linalg.yield %r : f32
  } -> tensor<4x16xf32>
  return %0 : tensor<4x16xf32>
}

// -----

#id = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (i)>
// A reduction's register tiles along a row become one horizontal reduction
// per tile, the accumulator carried as a scalar across the loop; a sum of
// squares stays a multiply and a reduction (a vector.contract would lower
// to one scalar multiply-add per element).
// CHECK-LABEL: func.func @row_reduction
// CHECK:         scf.for {{.*}} -> (vector<1xf32>)
// CHECK:           %[[ROW:.*]] = vector.transfer_read {{.*}} : tensor<1x256xf32>, vector<1x64xf32>
// CHECK:           %[[V:.*]] = vector.extract %[[ROW]][0] : vector<64xf32> from vector<1x64xf32>
// CHECK:           %[[SQ:.*]] = arith.mulf %[[V]], %[[V]] : vector<64xf32>
// CHECK:           vector.reduction <add>, %[[SQ]], %{{.*}} : vector<64xf32> into f32
// CHECK-NOT:     vector.contract
func.func @row_reduction(%x: tensor<1x256xf32>, %acc: tensor<1xf32>) -> tensor<1xf32> {
  %0 = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<1x256xf32>) outs(%acc : tensor<1xf32>)
      attrs = {rlx.lowering_config = #rlx.lowering_config<distribution = [0, 0], cache = [0, 0], vector = [1, 64]>} {
  ^bb0(%v: f32, %a: f32):
    %sq = arith.mulf %v, %v : f32
    %s = arith.addf %a, %sq : f32
    linalg.yield %s : f32
  } -> tensor<1xf32>
  return %0 : tensor<1xf32>
}

// -----

#heads = affine_map<(m, n, h, f) -> (m, h, f)>
#wo = affine_map<(m, n, h, f) -> (h, f, n)>
#proj = affine_map<(m, n, h, f) -> (m, n)>
// A register tile of a contraction over two loops takes one step of each:
// all but the last unit reduction loop are dropped, so the tile is one
// matmul-shaped vector.contract (the outer-product lowering's form).
// CHECK-LABEL: func.func @unit_reduction_loops
// CHECK:         vector.contract {{{.*}}iterator_types = ["parallel", "parallel", "reduction"]{{.*}}} %{{.*}}, %{{.*}}, %{{.*}} : vector<8x1xf32>, vector<1x32xf32> into vector<8x32xf32>
func.func @unit_reduction_loops(%a: tensor<8x1x1xf32>, %w: tensor<1x1x32xf32>, %acc: tensor<8x32xf32>) -> tensor<8x32xf32> {
  %0 = linalg.generic {indexing_maps = [#heads, #wo, #proj], iterator_types = ["parallel", "parallel", "reduction", "reduction"]}
      ins(%a, %w : tensor<8x1x1xf32>, tensor<1x1x32xf32>) outs(%acc : tensor<8x32xf32>)
      attrs = {rlx.lowering_config = #rlx.lowering_config<distribution = [0, 0, 0, 0], cache = [0, 0, 0, 0], vector = [8, 32, 1, 1]>} {
  ^bb0(%l: f32, %r: f32, %o: f32):
    %m = arith.mulf %l, %r : f32
    %s = arith.addf %o, %m : f32
    linalg.yield %s : f32
  } -> tensor<8x32xf32>
  return %0 : tensor<8x32xf32>
}

// -----

#in = affine_map<(r, b, k, l) -> (r, b, k, l)>
#out = affine_map<(r, b, k, l) -> (r, b, l)>
// A split sum's register tile runs its vectors along the 16 lanes (a
// parallel loop) with one step of the reduced loop: the unit reduction is
// dropped, and each step adds a vector of lanes to the accumulator, which
// stays in a register across the reduced loop (no scalar reductions, in
// either mode).
// CHECK-LABEL: func.func @lane_sums
// CHECK:         scf.for {{.*}} iter_args(%[[ACC:.*]] = %{{.*}}) -> (vector<1x1x16xf32>)
// CHECK:           %[[V:.*]] = vector.transfer_read
// CHECK:           arith.addf %[[ACC]], %[[V]] : vector<1x1x16xf32>
// CHECK-NOT:     vector.reduction
// STRICT-LABEL: func.func @lane_sums
// STRICT:         arith.addf %{{.*}}, %{{.*}} : vector<1x1x16xf32>
func.func @lane_sums(%x: tensor<1x4x16x16xf32>, %acc: tensor<1x4x16xf32>) -> tensor<1x4x16xf32> {
  %0 = linalg.generic {indexing_maps = [#in, #out], iterator_types = ["parallel", "parallel", "reduction", "parallel"]}
      ins(%x : tensor<1x4x16x16xf32>) outs(%acc : tensor<1x4x16xf32>)
      attrs = {rlx.lowering_config = #rlx.lowering_config<distribution = [0, 0, 0, 0], cache = [0, 0, 0, 0], vector = [1, 1, 1, 16]>} {
  ^bb0(%v: f32, %o: f32):
    %s = arith.addf %o, %v : f32
    linalg.yield %s : f32
  } -> tensor<1x4x16xf32>
  return %0 : tensor<1x4x16xf32>
}

// -----

#id = affine_map<(i, j) -> (i, j)>
// Dynamic sizes: the full register tiles of the peeled loops are vectors
// read and written in bounds; the partial ones are vectors of the config's
// register tile, read and written in place through masks of the lanes that
// exist (no slice of dynamic size is left), with no vector.mask ops.
// CHECK-LABEL: func.func @dynamic_rows
// CHECK:         vector.transfer_read {{.*}} {in_bounds = [true, true]} : tensor<?x?xf32>, vector<4x16xf32>
// CHECK:         math.exp {{.*}} : vector<4x16xf32>
// CHECK:         %[[COLUMNS:.*]] = vector.create_mask %c4, %{{.*}} : vector<4x16xi1>
// CHECK:         vector.transfer_read %arg0[%{{.*}}, %{{.*}}], %{{.*}}, %[[COLUMNS]] {in_bounds = [true, false]} : tensor<?x?xf32>, vector<4x16xf32>
// CHECK:         vector.transfer_write {{.*}} {in_bounds = [true, false]} : vector<4x16xf32>, tensor<?x?xf32>
// CHECK:         %[[ROWS:.*]] = vector.create_mask %{{.*}}, %c16 : vector<4x16xi1>
// CHECK:         vector.transfer_read %arg0[%{{.*}}, %{{.*}}], %{{.*}}, %[[ROWS]] {in_bounds = [false, true]}
// CHECK:         vector.create_mask %{{.*}}, %{{.*}} : vector<4x16xi1>
// CHECK-NOT:     vector.mask
// CHECK-NOT:     linalg.generic
// CHECK-NOT:     tensor.extract_slice
func.func @dynamic_rows(%x: tensor<?x?xf32>, %y: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %0 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<?x?xf32>) outs(%y : tensor<?x?xf32>)
      attrs = {rlx.lowering_config = #rlx.lowering_config<distribution = [0, 0], cache = [0, 0], vector = [4, 16]>} {
  ^bb0(%v: f32, %o: f32):
    %e = math.exp %v : f32
    linalg.yield %e : f32
  } -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// -----

#id = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (i)>
// A partial tile along a reduced loop reduces its lanes with the ones past
// the end replaced by the reduction's identity (-inf for a maximum).
// CHECK-LABEL: func.func @dynamic_row_maxima
// CHECK:         vector.reduction <maximumf>, %{{.*}} : vector<16xf32> into f32
// CHECK:         %[[LANES:.*]] = vector.create_mask %{{.*}} : vector<1x16xi1>
// CHECK:         %[[ROW:.*]] = vector.transfer_read {{.*}} {in_bounds = [true, false]}
// CHECK:         %[[KEPT:.*]] = arith.select %[[LANES]], %[[ROW]], %{{.*}} : vector<1x16xi1>, vector<1x16xf32>
// CHECK:         %[[KEPT_ROW:.*]] = vector.extract %[[KEPT]][0]
// CHECK:         vector.reduction <maximumf>, %[[KEPT_ROW]], %{{.*}} : vector<16xf32> into f32
// CHECK-NOT:     vector.mask
func.func @dynamic_row_maxima(%x: tensor<8x?xf32>, %acc: tensor<8xf32>) -> tensor<8xf32> {
  %0 = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<8x?xf32>) outs(%acc : tensor<8xf32>)
      attrs = {rlx.lowering_config = #rlx.lowering_config<distribution = [0, 0], cache = [0, 0], vector = [1, 16]>} {
  ^bb0(%v: f32, %a: f32):
    %m = arith.maximumf %a, %v : f32
    linalg.yield %m : f32
  } -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

// A matmul of dynamic size: every register tile is one vector.contract,
// the partial ones reading and writing the rows and columns that exist;
// the reduction takes one step per tile, so no reduced lane is ever
// masked. A full tile's accumulator stays in registers across the
// reduction.
// CHECK-LABEL: func.func @dynamic_matmul
// CHECK:         scf.for {{.*}} -> (vector<4x16xf32>)
// CHECK-COUNT-4: vector.contract {{.*}} : vector<4x1xf32>, vector<1x16xf32> into vector<4x16xf32>
// CHECK-NOT:     vector.mask
// CHECK-NOT:     linalg.matmul
func.func @dynamic_matmul(%a: tensor<?x?xf32>, %b: tensor<?x?xf32>, %c: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %0 = linalg.matmul {rlx.lowering_config = #rlx.lowering_config<distribution = [0, 0, 0], cache = [0, 0, 0], vector = [4, 16, 1]>}
      ins(%a, %b : tensor<?x?xf32>, tensor<?x?xf32>) outs(%c : tensor<?x?xf32>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// -----

#id = affine_map<(i, j) -> (i, j)>
// A dynamic loop that no register tile cuts has no bound: the tile stays a
// loop nest.
// CHECK-LABEL: func.func @unbounded
// CHECK:         linalg.generic
// CHECK-NOT:     vector.transfer_read
func.func @unbounded(%x: tensor<4x?xf32>, %y: tensor<4x?xf32>) -> tensor<4x?xf32> {
  %0 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x?xf32>) outs(%y : tensor<4x?xf32>)
      attrs = {rlx.lowering_config = #rlx.lowering_config<distribution = [0, 0], cache = [0, 0], vector = [4, 0]>} {
  ^bb0(%v: f32, %o: f32):
    %e = math.exp %v : f32
    linalg.yield %e : f32
  } -> tensor<4x?xf32>
  return %0 : tensor<4x?xf32>
}

// -----

#id = affine_map<(i) -> (i)>
// An integer division's partial tile of a dynamic loop is not masked (a
// lane past the end would divide by an undefined value): the full tiles
// are vectors, the partial one a loop.
// CHECK-LABEL: func.func @dynamic_division
// CHECK:         arith.divsi {{.*}} : vector<16xi32>
// CHECK:         linalg.generic
// CHECK:           arith.divsi {{.*}} : i32
func.func @dynamic_division(%x: tensor<?xi32>, %y: tensor<?xi32>) -> tensor<?xi32> {
  %0 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%x : tensor<?xi32>) outs(%y : tensor<?xi32>)
      attrs = {rlx.lowering_config = #rlx.lowering_config<distribution = [0], cache = [0], vector = [16]>} {
  ^bb0(%v: i32, %o: i32):
    %q = arith.divsi %o, %v : i32
    linalg.yield %q : i32
  } -> tensor<?xi32>
  return %0 : tensor<?xi32>
}

// -----

#id = affine_map<(i, j) -> (i, j)>
// An integer abs on a tile of rows becomes maxsi(x, 0 - x): upstream's
// math-to-llvm lowers math.absi on 1-D vectors only.
// CHECK-LABEL: func.func @integer_abs
// CHECK:         %[[NEG:.*]] = arith.subi %{{.*}}, %[[X:.*]] : vector<1x16xi32>
// CHECK:         arith.maxsi %[[X]], %[[NEG]] : vector<1x16xi32>
// CHECK-NOT:     math.absi
func.func @integer_abs(%x: tensor<4x16xi32>, %y: tensor<4x16xi32>) -> tensor<4x16xi32> {
  %0 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x16xi32>) outs(%y : tensor<4x16xi32>)
      attrs = {rlx.lowering_config = #rlx.lowering_config<distribution = [0, 0], cache = [0, 0], vector = [1, 16]>} {
  ^bb0(%v: i32, %o: i32):
    %a = math.absi %v : i32
    linalg.yield %a : i32
  } -> tensor<4x16xi32>
  return %0 : tensor<4x16xi32>
}
