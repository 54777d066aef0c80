// RUN: rlx-opt %s --split-input-file --rlx-cpu-select-lowering-config | FileCheck %s
// RUN: rlx-opt %s --split-input-file --rlx-cpu-select-lowering-config=vector-bits=256 | FileCheck %s --check-prefix=AVX2
// RUN: rlx-opt %s --split-input-file --rlx-cpu-select-lowering-config=strict-fp | FileCheck %s --check-prefix=STRICT
// RUN: not rlx-opt %s --split-input-file --rlx-cpu-select-lowering-config=vector-bits=48 -o /dev/null 2>&1 | FileCheck %s --check-prefix=BAD-BITS

// Register tiles of 8 rows by two vectors of columns (2 x 16 f32 lanes at
// 512 bits), 4 rows at 256 bits (AVX2's 16 registers, by 2 x 8 lanes), the reduction cut into 256-step cache tiles,
// threads sharing out 64 x 256 tiles.
// CHECK-LABEL: func.func @matmul
// CHECK: linalg.matmul {rlx.lowering_config = #rlx.lowering_config<distribution = [64, 256, 0], cache = [0, 0, 256], vector = [8, 32, 1]>}
// AVX2-LABEL: func.func @matmul
// AVX2: linalg.matmul {rlx.lowering_config = #rlx.lowering_config<distribution = [64, 256, 0], cache = [0, 0, 256], vector = [4, 16, 1]>}
// BAD-BITS: error: rlx-cpu-select-lowering-config: vector-bits must be a positive multiple of 32, got 48
func.func @matmul(%a: tensor<1024x512xf32>, %b: tensor<512x768xf32>, %c: tensor<1024x768xf32>) -> tensor<1024x768xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<1024x512xf32>, tensor<512x768xf32>) outs(%c : tensor<1024x768xf32>) -> tensor<1024x768xf32>
  return %0 : tensor<1024x768xf32>
}

// -----

// Tiles divide their loops: 96 rows by 8, 384 columns by 32 in thread tiles
// of 192 (the largest multiple of 32 that divides 384 and is at most 256);
// a reduction of 1000 in cache tiles of 250.
// CHECK-LABEL: func.func @dividing
// CHECK: distribution = [64, 192, 0], cache = [0, 0, 250], vector = [8, 32, 1]
func.func @dividing(%a: tensor<128x1000xf32>, %b: tensor<1000x384xf32>, %c: tensor<128x384xf32>) -> tensor<128x384xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<128x1000xf32>, tensor<1000x384xf32>) outs(%c : tensor<128x384xf32>) -> tensor<128x384xf32>
  return %0 : tensor<128x384xf32>
}

// -----

// Small and odd shapes: 17 columns in one vector of 16 (rlx-tile-and-fuse
// peels the last column); 33 rows in register tiles of 3, which divide them, and the
// problem, one thread tile, shared out by register rows. A reduction of 200
// is not cut. With a reduction of 65 the op has fewer than 2^16 iterations:
// no thread tiles, it runs on the calling thread.
// CHECK-LABEL: func.func @odd
// CHECK: distribution = [3, 0, 0], cache = [0, 0, 0], vector = [3, 16, 1]
// CHECK: distribution = [0, 0, 0], cache = [0, 0, 0], vector = [3, 16, 1]
func.func @odd(%a: tensor<33x200xf32>, %b: tensor<200x17xf32>, %c: tensor<33x17xf32>,
               %sa: tensor<33x65xf32>, %sb: tensor<65x17xf32>) -> (tensor<33x17xf32>, tensor<33x17xf32>) {
  %0 = linalg.matmul ins(%a, %b : tensor<33x200xf32>, tensor<200x17xf32>) outs(%c : tensor<33x17xf32>) -> tensor<33x17xf32>
  %1 = linalg.matmul ins(%sa, %sb : tensor<33x65xf32>, tensor<65x17xf32>) outs(%c : tensor<33x17xf32>) -> tensor<33x17xf32>
  return %0, %1 : tensor<33x17xf32>, tensor<33x17xf32>
}

// -----

// A prime reduction has no cache tile that divides it: left whole. One
// register tile covers a 4 x 4 result: nothing to share out.
// CHECK-LABEL: func.func @prime
// CHECK: distribution = [0, 0, 0], cache = [0, 0, 0], vector = [4, 4, 1]
func.func @prime(%a: tensor<4x1009xf32>, %b: tensor<1009x4xf32>, %c: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<4x1009xf32>, tensor<1009x4xf32>) outs(%c : tensor<4x4xf32>) -> tensor<4x4xf32>
  return %0 : tensor<4x4xf32>
}

// -----

// A batched contraction (as rlx-to-linalg writes batched rlx.matmul): one
// batch per thread tile and per register tile; 64 columns in two register
// tiles of 32.
// CHECK-LABEL: func.func @batched
// CHECK: linalg.generic
// CHECK-SAME: rlx.lowering_config = #rlx.lowering_config<distribution = [1, 0, 0, 0], cache = [0, 0, 0, 0], vector = [1, 8, 32, 1]>
#lhs = affine_map<(b, m, n, k) -> (b, m, k)>
#rhs = affine_map<(b, m, n, k) -> (b, k, n)>
#out = affine_map<(b, m, n, k) -> (b, m, n)>
func.func @batched(%a: tensor<16x64x64xf32>, %b: tensor<16x64x64xf32>, %c: tensor<16x64x64xf32>) -> tensor<16x64x64xf32> {
  %0 = linalg.generic {indexing_maps = [#lhs, #rhs, #out], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<16x64x64xf32>, tensor<16x64x64xf32>) outs(%c : tensor<16x64x64xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<16x64x64xf32>
  return %0 : tensor<16x64x64xf32>
}

// -----

// A user's schedule is kept; an integer contraction gets a float one's
// schedule, in vectors of its own lanes (16 of i32); a small elementwise op
// gets register tiles of four vectors along its rows and no thread tiles.
// CHECK-LABEL: func.func @untouched
// CHECK: linalg.matmul {rlx.lowering_config = #rlx.lowering_config<distribution = [16, 16, 0], cache = [0, 0, 0], vector = [4, 16, 1]>}
// CHECK: linalg.matmul {rlx.lowering_config = #rlx.lowering_config<distribution = [8, 0, 0], cache = [0, 0, 0], vector = [8, 32, 1]>} ins({{.*}} : tensor<64x64xi32>
// CHECK: linalg.add {rlx.lowering_config = #rlx.lowering_config<distribution = [0, 0], cache = [0, 0], vector = [1, 64]>}
func.func @untouched(%a: tensor<64x64xf32>, %i: tensor<64x64xi32>) -> (tensor<64x64xf32>, tensor<64x64xi32>, tensor<64x64xf32>) {
  %0 = linalg.matmul {rlx.lowering_config = #rlx.lowering_config<distribution = [16, 16, 0], cache = [0, 0, 0], vector = [4, 16, 1]>}
      ins(%a, %a : tensor<64x64xf32>, tensor<64x64xf32>) outs(%a : tensor<64x64xf32>) -> tensor<64x64xf32>
  %1 = linalg.matmul ins(%i, %i : tensor<64x64xi32>, tensor<64x64xi32>) outs(%i : tensor<64x64xi32>) -> tensor<64x64xi32>
  %2 = linalg.add ins(%a, %a : tensor<64x64xf32>, tensor<64x64xf32>) outs(%a : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %0, %1, %2 : tensor<64x64xf32>, tensor<64x64xi32>, tensor<64x64xf32>
}

// -----

// 37 columns: no whole number of vectors divides them; register tiles of
// two vectors, and the partial last tile of 5 is peeled (and vectorized 8
// lanes wide, its last 3 masked, by rlx-cpu-vectorize).
// CHECK-LABEL: func.func @prime_columns
// CHECK: vector = [8, 32, 1]
func.func @prime_columns(%a: tensor<64x64xf32>, %b: tensor<64x37xf32>, %c: tensor<64x37xf32>) -> tensor<64x37xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<64x64xf32>, tensor<64x37xf32>) outs(%c : tensor<64x37xf32>) -> tensor<64x37xf32>
  return %0 : tensor<64x37xf32>
}

// -----

// Ops without iterations (an empty dimension) get no schedule.
// CHECK-LABEL: func.func @empty
// CHECK-NOT: lowering_config
func.func @empty(%a: tensor<0x65536xf32>, %b: tensor<65536x0xf32>, %m: tensor<0x0xf32>) -> (tensor<0x65536xf32>, tensor<0x0xf32>) {
  %0 = linalg.exp ins(%a : tensor<0x65536xf32>) outs(%a : tensor<0x65536xf32>) -> tensor<0x65536xf32>
  %1 = linalg.matmul ins(%a, %b : tensor<0x65536xf32>, tensor<65536x0xf32>) outs(%m : tensor<0x0xf32>) -> tensor<0x0xf32>
  return %0, %1 : tensor<0x65536xf32>, tensor<0x0xf32>
}

// -----

// A convolution's register tile is one window position and one input
// channel: 8 filters (output channels) by 32 output columns, two 16-lane
// vectors per filter (one full 8-lane vector at 256 bits, where 8 filters
// make the 8 accumulators of AVX2's 4-row tiles); 56 = 32 + a peeled partial tile of 24. The cache tile is one output
// row; one image of 64 filters is shared out by rows, 2 at a time, so that
// there are at least 16 thread tiles.
// CHECK-LABEL: func.func @conv
// CHECK: linalg.conv_2d_nchw_fchw {{.*}}rlx.lowering_config = #rlx.lowering_config<distribution = [0, 0, 2, 0, 0, 0, 0], cache = [0, 0, 1, 0, 0, 0, 0], vector = [1, 8, 1, 32, 1, 1, 1]>
// AVX2-LABEL: func.func @conv
// AVX2: vector = [1, 8, 1, 8, 1, 1, 1]
func.func @conv(%x: tensor<1x64x58x58xf32>, %w: tensor<64x64x3x3xf32>, %init: tensor<1x64x56x56xf32>) -> tensor<1x64x56x56xf32> {
  %0 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<1x64x58x58xf32>, tensor<64x64x3x3xf32>) outs(%init : tensor<1x64x56x56xf32>) -> tensor<1x64x56x56xf32>
  return %0 : tensor<1x64x56x56xf32>
}

// -----

// Strided: 112 output columns in one whole vector (16 lanes); threads take
// 7 rows at a time. A batch of images is shared out an image at a time, with
// 256 filters in thread tiles of 64, which already makes 16 thread tiles.
// CHECK-LABEL: func.func @conv_strided
// CHECK: distribution = [0, 0, 7, 0, 0, 0, 0], cache = [0, 0, 1, 0, 0, 0, 0], vector = [1, 16, 1, 16, 1, 1, 1]
// CHECK: distribution = [1, 64, 0, 0, 0, 0, 0], cache = [0, 0, 1, 0, 0, 0, 0], vector = [1, 16, 1, 14, 1, 1, 1]
func.func @conv_strided(%x: tensor<1x3x230x230xf32>, %w: tensor<64x3x7x7xf32>, %init: tensor<1x64x112x112xf32>,
                        %y: tensor<4x128x16x16xf32>, %v: tensor<256x128x3x3xf32>, %init2: tensor<4x256x14x14xf32>)
    -> (tensor<1x64x112x112xf32>, tensor<4x256x14x14xf32>) {
  %0 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%x, %w : tensor<1x3x230x230xf32>, tensor<64x3x7x7xf32>) outs(%init : tensor<1x64x112x112xf32>) -> tensor<1x64x112x112xf32>
  %1 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%y, %v : tensor<4x128x16x16xf32>, tensor<256x128x3x3xf32>) outs(%init2 : tensor<4x256x14x14xf32>) -> tensor<4x256x14x14xf32>
  return %0, %1 : tensor<1x64x112x112xf32>, tensor<4x256x14x14xf32>
}

// -----

// `?` image sizes: the columns take whole vectors (the partial last tile is
// peeled and masked), threads take the `?` rows one at a time, and the
// thread tiles are guarded at run time (a small image runs on one thread).
// CHECK-LABEL: func.func @conv_dynamic_image
// CHECK: linalg.conv_2d_nchw_fchw {{.*}}rlx.lowering_config = #rlx.lowering_config<distribution = [0, 0, 1, 0, 0, 0, 0], cache = [0, 0, 1, 0, 0, 0, 0], vector = [1, 8, 1, 32, 1, 1, 1], min_parallel_iterations = 65536>
// AVX2-LABEL: func.func @conv_dynamic_image
// AVX2: vector = [1, 4, 1, 16, 1, 1, 1], min_parallel_iterations = 65536
func.func @conv_dynamic_image(%x: tensor<1x64x?x?xf32>, %w: tensor<64x64x3x3xf32>, %init: tensor<1x64x?x?xf32>) -> tensor<1x64x?x?xf32> {
  %0 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<1x64x?x?xf32>, tensor<64x64x3x3xf32>) outs(%init : tensor<1x64x?x?xf32>) -> tensor<1x64x?x?xf32>
  return %0 : tensor<1x64x?x?xf32>
}

// -----

// A depthwise convolution's register tile is channels by columns too (its
// loops are image, rows, columns, channels, window). A pooling window has
// no filters: its register tile is one row of columns, and its thread tiles
// are channels. A grouped convolution takes its groups one at a time, as
// images, and tiles its filters per group.
// CHECK-LABEL: func.func @depthwise_and_others
// CHECK: linalg.depthwise_conv_2d_nchw_chw {{.*}}vector = [1, 1, 16, 16, 1, 1]
// CHECK: linalg.pooling_nchw_max {{.*}}rlx.lowering_config = #rlx.lowering_config<distribution = [0, 1, 0, 0, 0, 0], cache = [0, 0, 1, 0, 0, 0], vector = [1, 1, 1, 16, 1, 1]>
// CHECK: linalg.conv_2d_ngchw_gfchw {{.*}}rlx.lowering_config = #rlx.lowering_config<distribution = [0, 1, 0, 2, 0, 0, 0, 0], cache = [0, 0, 0, 1, 0, 0, 0, 0], vector = [1, 1, 8, 1, 16, 1, 1, 1]>
func.func @depthwise_and_others(%x: tensor<1x32x30x30xf32>, %w: tensor<32x3x3xf32>, %init: tensor<1x32x28x28xf32>,
                                %window: tensor<3x3xf32>, %gx: tensor<1x2x16x30x30xf32>, %gw: tensor<2x8x16x3x3xf32>,
                                %ginit: tensor<1x2x8x28x28xf32>)
    -> (tensor<1x32x28x28xf32>, tensor<1x32x28x28xf32>, tensor<1x2x8x28x28xf32>) {
  %0 = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<1x32x30x30xf32>, tensor<32x3x3xf32>) outs(%init : tensor<1x32x28x28xf32>) -> tensor<1x32x28x28xf32>
  %1 = linalg.pooling_nchw_max {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %window : tensor<1x32x30x30xf32>, tensor<3x3xf32>) outs(%init : tensor<1x32x28x28xf32>) -> tensor<1x32x28x28xf32>
  %2 = linalg.conv_2d_ngchw_gfchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%gx, %gw : tensor<1x2x16x30x30xf32>, tensor<2x8x16x3x3xf32>) outs(%ginit : tensor<1x2x8x28x28xf32>) -> tensor<1x2x8x28x28xf32>
  return %0, %1, %2 : tensor<1x32x28x28xf32>, tensor<1x32x28x28xf32>, tensor<1x2x8x28x28xf32>
}

// -----

// A contraction in a loop a conversion made (attention's key blocks) gets
// cache and register tiles but no thread tiles: the loop's enclosing
// scf.forall already shares the work out.
// CHECK-LABEL: func.func @in_a_loop
// CHECK: scf.for
// CHECK: linalg.matmul {rlx.lowering_config = #rlx.lowering_config<distribution = [0, 0, 0], cache = [0, 0, 0], vector = [8, 32, 1]>}
func.func @in_a_loop(%a: tensor<64x64xf32>, %b: tensor<64x64xf32>, %n: index) -> tensor<64x64xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %a) -> tensor<64x64xf32> {
    %0 = linalg.matmul ins(%acc, %b : tensor<64x64xf32>, tensor<64x64xf32>) outs(%acc : tensor<64x64xf32>) -> tensor<64x64xf32>
    scf.yield %0 : tensor<64x64xf32>
  }
  return %r : tensor<64x64xf32>
}

// -----

// The stages of a row in a loop: a reduction along the row and an
// elementwise op reading a broadcast scalar and a broadcast vector get
// register tiles of four vectors along the row; so does a row of 1000
// (the partial last tile of 40 is peeled); a reduction over the rows
// accumulates vectors of columns; an op reading its operand transposed
// gets vectors of its result's rows (8 columns). With strict-fp, reductions
// whose vectors would run along the reduced loop get none; the column sums
// keep each sum's order and are vectorized.
// CHECK-LABEL: func.func @row_stages
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]{{.*}}rlx.lowering_config = #rlx.lowering_config<distribution = [0, 0], cache = [0, 0], vector = [1, 64]>
// CHECK: linalg.generic {{.*}}rlx.lowering_config = #rlx.lowering_config<distribution = [0, 0], cache = [0, 0], vector = [1, 64]>
// CHECK: linalg.generic {{.*}}rlx.lowering_config = #rlx.lowering_config<distribution = [0, 0], cache = [0, 0], vector = [1, 64]>
// CHECK: linalg.generic {{.*}}iterator_types = ["reduction", "parallel"]{{.*}}rlx.lowering_config = #rlx.lowering_config<distribution = [0, 0], cache = [0, 0], vector = [1, 64]>
// CHECK: linalg.generic {{.*}} outs(%{{.*}} : tensor<64x8xf32>) attrs = {rlx.lowering_config = #rlx.lowering_config<distribution = [0, 0], cache = [0, 0], vector = [1, 8]>}
// STRICT-LABEL: func.func @row_stages
// STRICT: linalg.generic {{.*}} outs(%{{.*}} : tensor<1xf32>) {{[{]$}}
// STRICT: linalg.generic {{.*}}rlx.lowering_config = #rlx.lowering_config<distribution = [0, 0], cache = [0, 0], vector = [1, 64]>
// STRICT: linalg.generic {{.*}}rlx.lowering_config = #rlx.lowering_config<distribution = [0, 0], cache = [0, 0], vector = [1, 64]>
// STRICT: linalg.generic {{.*}}iterator_types = ["reduction", "parallel"]{{.*}}rlx.lowering_config = #rlx.lowering_config<distribution = [0, 0], cache = [0, 0], vector = [1, 64]>
#row = affine_map<(d0, d1) -> (d0, d1)>
#rowsum = affine_map<(d0, d1) -> (d0)>
#cols = affine_map<(d0, d1) -> (d1)>
#colsum = affine_map<(d0, d1) -> (d1)>
#transposed = affine_map<(d0, d1) -> (d1, d0)>
func.func @row_stages(%x: tensor<8x1024xf32>, %g: tensor<1024xf32>, %y: tensor<8x1000xf32>, %t: tensor<8x64xf32>, %acc: tensor<1xf32>, %cols: tensor<1024xf32>, %out: tensor<1x1024xf32>, %odd: tensor<1x1000xf32>, %tr: tensor<64x8xf32>) -> (tensor<1xf32>, tensor<1x1024xf32>, tensor<1x1000xf32>, tensor<1024xf32>, tensor<64x8xf32>) {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %c1 = arith.constant 1 : index
  %r:5 = scf.for %i = %c0 to %c8 step %c1 iter_args(%a0 = %acc, %a1 = %out, %a2 = %odd, %a3 = %cols, %a4 = %tr) -> (tensor<1xf32>, tensor<1x1024xf32>, tensor<1x1000xf32>, tensor<1024xf32>, tensor<64x8xf32>) {
    %row = tensor.extract_slice %x[%i, 0] [1, 1024] [1, 1] : tensor<8x1024xf32> to tensor<1x1024xf32>
    %sum = linalg.generic {indexing_maps = [#row, #rowsum], iterator_types = ["parallel", "reduction"]} ins(%row : tensor<1x1024xf32>) outs(%a0 : tensor<1xf32>) {
    ^bb0(%in: f32, %o: f32):
      %s = arith.addf %o, %in : f32
      linalg.yield %s : f32
    } -> tensor<1xf32>
    %scale = tensor.extract %sum[%c0] : tensor<1xf32>
    %scaled = linalg.generic {indexing_maps = [#row, #cols, #row], iterator_types = ["parallel", "parallel"]} ins(%row, %g : tensor<1x1024xf32>, tensor<1024xf32>) outs(%a1 : tensor<1x1024xf32>) {
    ^bb0(%in: f32, %gi: f32, %o: f32):
      %m = arith.mulf %in, %gi : f32
      %d = arith.divf %m, %scale : f32
      linalg.yield %d : f32
    } -> tensor<1x1024xf32>
    %orow = tensor.extract_slice %y[%i, 0] [1, 1000] [1, 1] : tensor<8x1000xf32> to tensor<1x1000xf32>
    %neg = linalg.generic {indexing_maps = [#row, #row], iterator_types = ["parallel", "parallel"]} ins(%orow : tensor<1x1000xf32>) outs(%a2 : tensor<1x1000xf32>) {
    ^bb0(%in: f32, %o: f32):
      %n = arith.negf %in : f32
      linalg.yield %n : f32
    } -> tensor<1x1000xf32>
    %colsums = linalg.generic {indexing_maps = [#row, #colsum], iterator_types = ["reduction", "parallel"]} ins(%x : tensor<8x1024xf32>) outs(%a3 : tensor<1024xf32>) {
    ^bb0(%in: f32, %o: f32):
      %s = arith.addf %o, %in : f32
      linalg.yield %s : f32
    } -> tensor<1024xf32>
    %flipped = linalg.generic {indexing_maps = [#transposed, #row], iterator_types = ["parallel", "parallel"]} ins(%t : tensor<8x64xf32>) outs(%a4 : tensor<64x8xf32>) {
    ^bb0(%in: f32, %o: f32):
      linalg.yield %in : f32
    } -> tensor<64x8xf32>
    scf.yield %sum, %scaled, %neg, %colsums, %flipped : tensor<1xf32>, tensor<1x1024xf32>, tensor<1x1000xf32>, tensor<1024xf32>, tensor<64x8xf32>
  }
  return %r#0, %r#1, %r#2, %r#3, %r#4 : tensor<1xf32>, tensor<1x1024xf32>, tensor<1x1000xf32>, tensor<1024xf32>, tensor<64x8xf32>
}

// -----

// A matmul of a [batch, sequence, features] activation by a weight has two
// m loops: the sequence makes the register rows and the batch is taken one
// at a time. A projection from [heads, features] has two k loops: each takes
// one step per register tile, and the innermost is cut into cache tiles.
// CHECK-LABEL: func.func @several_m_and_k
// CHECK: linalg.generic {{.*}}rlx.lowering_config = #rlx.lowering_config<distribution = [1, 0, 0, 0], cache = [0, 0, 0, 0], vector = [1, 8, 32, 1]>
// CHECK: linalg.generic {{.*}}rlx.lowering_config = #rlx.lowering_config<distribution = [1, 64, 0, 0, 0], cache = [0, 0, 0, 0, 256], vector = [1, 8, 32, 1, 1]>
#act = affine_map<(b, s, n, k) -> (b, s, k)>
#weight = affine_map<(b, s, n, k) -> (k, n)>
#out = affine_map<(b, s, n, k) -> (b, s, n)>
#heads = affine_map<(b, s, n, h, f) -> (b, s, h, f)>
#wo = affine_map<(b, s, n, h, f) -> (h, f, n)>
#proj = affine_map<(b, s, n, h, f) -> (b, s, n)>
func.func @several_m_and_k(%x: tensor<2x32x128xf32>, %w: tensor<128x192xf32>, %acc: tensor<2x32x192xf32>,
                           %a: tensor<2x128x4x512xf32>, %wo: tensor<4x512x128xf32>, %acc2: tensor<2x128x128xf32>) -> (tensor<2x32x192xf32>, tensor<2x128x128xf32>) {
  %0 = linalg.generic {indexing_maps = [#act, #weight, #out], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%x, %w : tensor<2x32x128xf32>, tensor<128x192xf32>) outs(%acc : tensor<2x32x192xf32>) {
  ^bb0(%l: f32, %r: f32, %o: f32):
    %m = arith.mulf %l, %r : f32
    %s = arith.addf %o, %m : f32
    linalg.yield %s : f32
  } -> tensor<2x32x192xf32>
  %1 = linalg.generic {indexing_maps = [#heads, #wo, #proj], iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction"]}
      ins(%a, %wo : tensor<2x128x4x512xf32>, tensor<4x512x128xf32>) outs(%acc2 : tensor<2x128x128xf32>) {
  ^bb0(%l: f32, %r: f32, %o: f32):
    %m = arith.mulf %l, %r : f32
    %s = arith.addf %o, %m : f32
    linalg.yield %s : f32
  } -> tensor<2x128x128xf32>
  return %0, %1 : tensor<2x32x192xf32>, tensor<2x128x128xf32>
}

// -----

// Rows of the right operand of 1024 columns or more: its cache tiles are
// packed into panels (packed = [1]), each swept by thread tiles of up to 512
// rows in cache tiles of 64. Not packed: shorter rows, a transposed right
// operand, a batched matmul.
// CHECK-LABEL: func.func @packed
// CHECK: linalg.matmul {rlx.lowering_config = #rlx.lowering_config<distribution = [512, 256, 0], cache = [64, 0, 256], vector = [8, 32, 1], packed = [1]>}
// CHECK: linalg.matmul {rlx.lowering_config = #rlx.lowering_config<distribution = [0, 208, 0], cache = [0, 0, 150], vector = [8, 16, 1], packed = [1]>}
// CHECK: linalg.matmul {rlx.lowering_config = #rlx.lowering_config<distribution = [64, 256, 0], cache = [0, 0, 256], vector = [8, 32, 1]>}
// CHECK: linalg.matmul indexing_maps = {{.*}} {rlx.lowering_config = #rlx.lowering_config<distribution = [64, 256, 0], cache = [0, 0, 256], vector = [8, 32, 1]>}
// CHECK: linalg.batch_matmul {rlx.lowering_config = #rlx.lowering_config<distribution = [1, 64, 256, 0], cache = [0, 0, 0, 256], vector = [1, 8, 32, 1]>}
func.func @packed(%a: tensor<2048x2048xf32>, %b: tensor<2048x2048xf32>, %c: tensor<2048x2048xf32>,
                  %a2: tensor<40x300xf32>, %b2: tensor<300x1040xf32>, %c2: tensor<40x1040xf32>,
                  %b3: tensor<2048x768xf32>, %c3: tensor<2048x768xf32>,
                  %bt: tensor<1024x2048xf32>, %ct: tensor<2048x1024xf32>,
                  %ba: tensor<2x128x512xf32>, %bb: tensor<2x512x1024xf32>, %bc: tensor<2x128x1024xf32>)
    -> (tensor<2048x2048xf32>, tensor<40x1040xf32>, tensor<2048x768xf32>, tensor<2048x1024xf32>, tensor<2x128x1024xf32>) {
  %0 = linalg.matmul ins(%a, %b : tensor<2048x2048xf32>, tensor<2048x2048xf32>) outs(%c : tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
  %1 = linalg.matmul ins(%a2, %b2 : tensor<40x300xf32>, tensor<300x1040xf32>) outs(%c2 : tensor<40x1040xf32>) -> tensor<40x1040xf32>
  %2 = linalg.matmul ins(%a, %b3 : tensor<2048x2048xf32>, tensor<2048x768xf32>) outs(%c3 : tensor<2048x768xf32>) -> tensor<2048x768xf32>
  %3 = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %bt : tensor<2048x2048xf32>, tensor<1024x2048xf32>) outs(%ct : tensor<2048x1024xf32>) -> tensor<2048x1024xf32>
  %4 = linalg.batch_matmul ins(%ba, %bb : tensor<2x128x512xf32>, tensor<2x512x1024xf32>) outs(%bc : tensor<2x128x1024xf32>) -> tensor<2x128x1024xf32>
  return %0, %1, %2, %3, %4 : tensor<2048x2048xf32>, tensor<40x1040xf32>, tensor<2048x768xf32>, tensor<2048x1024xf32>, tensor<2x128x1024xf32>
}

// -----

// Outside loops, large elementwise ops and reductions also get thread tiles:
// the outermost parallel loops split into at least 16 tiles, in whole
// register tiles that divide them. A vector of 2^20 elements in 16 tiles of
// 65536; [8192, 1024] rows in 16 tiles of 512 rows; a sum over rows in
// tiles of columns (never of the reduced loop); [4, 4096, 64] in 4 x 4 tiles;
// a sum of everything (no parallel loop) in 16 tiles of 512 rows that sum
// into partial results, merged after them. The strict mode keeps the
// column sums, whose vectors run along the parallel columns, and gives the
// row sums vectors of 64 rows, each lane summing its row in order.
// CHECK-LABEL: func.func @standalone
// CHECK: linalg.generic {{.*}}lowering_config<distribution = [65536], cache = [0], vector = [64]>
// CHECK: linalg.generic {{.*}}lowering_config<distribution = [512, 0], cache = [0, 0], vector = [1, 64]>
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]{{.*}}lowering_config<distribution = [512, 0], cache = [0, 0], vector = [1, 64]>
// CHECK: linalg.generic {{.*}}iterator_types = ["reduction", "parallel"]{{.*}}lowering_config<distribution = [0, 64], cache = [0, 0], vector = [1, 64]>
// CHECK: linalg.generic {{.*}}lowering_config<distribution = [1, 1024, 0], cache = [0, 0, 0], vector = [1, 1, 64]>
// CHECK: linalg.generic {{.*}}iterator_types = ["reduction", "reduction"]{{.*}}lowering_config<distribution = [512, 0], cache = [0, 0], vector = [1, 64]>
// STRICT-LABEL: func.func @standalone
// STRICT: iterator_types = ["parallel", "reduction"]} ins(%{{.*}} : tensor<8192x1024xf32>) outs(%{{.*}} : tensor<8192xf32>) attrs = {rlx.lowering_config = #rlx.lowering_config<distribution = [512, 0], cache = [0, 0], vector = [64, 1]>}
// STRICT: iterator_types = ["reduction", "parallel"]{{.*}}lowering_config<distribution = [0, 64], cache = [0, 0], vector = [1, 64]>
#id1 = affine_map<(d0) -> (d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#rows = affine_map<(d0, d1) -> (d0)>
#cols = affine_map<(d0, d1) -> (d1)>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#all = affine_map<(d0, d1) -> ()>
func.func @standalone(%v: tensor<1048576xf32>, %m: tensor<8192x1024xf32>, %r: tensor<8192xf32>,
                      %c: tensor<1024xf32>, %t: tensor<4x4096x64xf32>, %s: tensor<f32>)
    -> (tensor<1048576xf32>, tensor<8192x1024xf32>, tensor<8192xf32>, tensor<1024xf32>, tensor<4x4096x64xf32>, tensor<f32>) {
  %0 = linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]} ins(%v : tensor<1048576xf32>) outs(%v : tensor<1048576xf32>) {
  ^bb0(%in: f32, %o: f32):
    %n = arith.negf %in : f32
    linalg.yield %n : f32
  } -> tensor<1048576xf32>
  %1 = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%m : tensor<8192x1024xf32>) outs(%m : tensor<8192x1024xf32>) {
  ^bb0(%in: f32, %o: f32):
    %n = arith.negf %in : f32
    linalg.yield %n : f32
  } -> tensor<8192x1024xf32>
  %2 = linalg.generic {indexing_maps = [#id2, #rows], iterator_types = ["parallel", "reduction"]} ins(%m : tensor<8192x1024xf32>) outs(%r : tensor<8192xf32>) {
  ^bb0(%in: f32, %o: f32):
    %a = arith.addf %o, %in : f32
    linalg.yield %a : f32
  } -> tensor<8192xf32>
  %3 = linalg.generic {indexing_maps = [#id2, #cols], iterator_types = ["reduction", "parallel"]} ins(%m : tensor<8192x1024xf32>) outs(%c : tensor<1024xf32>) {
  ^bb0(%in: f32, %o: f32):
    %a = arith.addf %o, %in : f32
    linalg.yield %a : f32
  } -> tensor<1024xf32>
  %4 = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%t : tensor<4x4096x64xf32>) outs(%t : tensor<4x4096x64xf32>) {
  ^bb0(%in: f32, %o: f32):
    %n = arith.negf %in : f32
    linalg.yield %n : f32
  } -> tensor<4x4096x64xf32>
  %5 = linalg.generic {indexing_maps = [#id2, #all], iterator_types = ["reduction", "reduction"]} ins(%m : tensor<8192x1024xf32>) outs(%s : tensor<f32>) {
  ^bb0(%in: f32, %o: f32):
    %a = arith.addf %o, %in : f32
    linalg.yield %a : f32
  } -> tensor<f32>
  return %0, %1, %2, %3, %4, %5 : tensor<1048576xf32>, tensor<8192x1024xf32>, tensor<8192xf32>, tensor<1024xf32>, tensor<4x4096x64xf32>, tensor<f32>
}

// -----

// Reductions without thread tiles of parallel loops split their outermost
// reduction loop into thread tiles of partial results, where each result
// folds in by one op with a neutral element: the maximum of [3000, 256] in
// 20 tiles of 150 rows (dividing 3000, near 3000 / 16), the integer sum of
// [512, 1024] in 16 tiles of 32 rows. Not split: a small reduction (under
// 2^16 iterations) and one of two results that select together (an
// argmax), which upstream's merge cannot rebuild.
// CHECK-LABEL: func.func @split_reductions
// CHECK: linalg.generic {{.*}}lowering_config<distribution = [150, 0], cache = [0, 0], vector = [1, 64]>
// CHECK: linalg.generic {{.*}}lowering_config<distribution = [32, 0], cache = [0, 0], vector = [1, 64]>
// CHECK: linalg.generic {{.*}}lowering_config<distribution = [0, 0], cache = [0, 0], vector = [1, 64]>
// CHECK: linalg.generic {{.*}}lowering_config<distribution = [0, 0], cache = [0, 0], vector = [1, 64]>
#all2 = affine_map<(d0, d1) -> (d0, d1)>
#scalar2 = affine_map<(d0, d1) -> ()>
func.func @split_reductions(%a: tensor<3000x256xf32>, %s: tensor<f32>, %b: tensor<512x1024xi32>, %small: tensor<64x256xf32>, %i: tensor<i32>) -> (tensor<f32>, tensor<i32>, tensor<f32>, tensor<f32>, tensor<i32>) {
  %0 = linalg.generic {indexing_maps = [#all2, #scalar2], iterator_types = ["reduction", "reduction"]} ins(%a : tensor<3000x256xf32>) outs(%s : tensor<f32>) {
  ^bb0(%in: f32, %o: f32):
    %m = arith.maximumf %o, %in : f32
    linalg.yield %m : f32
  } -> tensor<f32>
  %1 = linalg.generic {indexing_maps = [#all2, #scalar2], iterator_types = ["reduction", "reduction"]} ins(%b : tensor<512x1024xi32>) outs(%i : tensor<i32>) {
  ^bb0(%in: i32, %o: i32):
    %m = arith.addi %o, %in : i32
    linalg.yield %m : i32
  } -> tensor<i32>
  %2 = linalg.generic {indexing_maps = [#all2, #scalar2], iterator_types = ["reduction", "reduction"]} ins(%small : tensor<64x256xf32>) outs(%s : tensor<f32>) {
  ^bb0(%in: f32, %o: f32):
    %m = arith.maximumf %o, %in : f32
    linalg.yield %m : f32
  } -> tensor<f32>
  %3:2 = linalg.generic {indexing_maps = [#all2, #scalar2, #scalar2], iterator_types = ["reduction", "reduction"]} ins(%a : tensor<3000x256xf32>) outs(%s, %i : tensor<f32>, tensor<i32>) {
  ^bb0(%in: f32, %o: f32, %oi: i32):
    %greater = arith.cmpf ogt, %in, %o : f32
    %m = arith.select %greater, %in, %o : f32
    %c = arith.constant 1 : i32
    %n = arith.addi %oi, %c : i32
    %j = arith.select %greater, %n, %oi : i32
    linalg.yield %m, %j : f32, i32
  } -> (tensor<f32>, tensor<i32>)
  return %0, %1, %2, %3#0, %3#1 : tensor<f32>, tensor<i32>, tensor<f32>, tensor<f32>, tensor<i32>
}

// -----

// Ops that no other schedule fits get vectors of their result's rows along
// the loop of its contiguous dimension, one step of every other loop: a
// gather (a tensor read in the payload). A filter gradient, whose result
// columns are a window loop, is a convolution of its own. An op read
// through an index that falls as a loop rises (a transposed convolution's
// gather) gets none: upstream tiling cannot size its slices.
// CHECK-LABEL: func.func @result_rows
// CHECK: linalg.generic {{.*}}lowering_config<distribution = [0, 0], cache = [0, 0], vector = [1, 16]>
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "reduction"]{{.*}}lowering_config<distribution = [0, 0, 0], cache = [0, 0, 0], vector = [4, 3, 1]>
// CHECK: linalg.generic {{.*}} outs(%{{.*}} : tensor<10xf32>) {{[{]$}}
#id = affine_map<(d0, d1) -> (d0, d1)>
#window_in = affine_map<(d0, d1, d2) -> (d2 + d1)>
#window_grad = affine_map<(d0, d1, d2) -> (d0, d2)>
#window_out = affine_map<(d0, d1, d2) -> (d0, d1)>
#falling_in = affine_map<(d0, d1) -> (d0 - d1 + 2)>
#falling_w = affine_map<(d0, d1) -> (d1)>
#falling_out = affine_map<(d0, d1) -> (d0)>
func.func @result_rows(%table: tensor<64xf32>, %idx: tensor<4x16xindex>, %g: tensor<4x16xf32>,
                       %x: tensor<18xf32>, %dy: tensor<4x16xf32>, %dw: tensor<4x3xf32>,
                       %y: tensor<12xf32>, %w: tensor<3xf32>, %dx: tensor<10xf32>)
    -> (tensor<4x16xf32>, tensor<4x3xf32>, tensor<10xf32>) {
  %0 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%idx : tensor<4x16xindex>) outs(%g : tensor<4x16xf32>) {
  ^bb0(%i: index, %o: f32):
    %v = tensor.extract %table[%i] : tensor<64xf32>
    linalg.yield %v : f32
  } -> tensor<4x16xf32>
  %1 = linalg.generic {indexing_maps = [#window_in, #window_grad, #window_out], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %dy : tensor<18xf32>, tensor<4x16xf32>) outs(%dw : tensor<4x3xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %o, %m : f32
    linalg.yield %s : f32
  } -> tensor<4x3xf32>
  %2 = linalg.generic {indexing_maps = [#falling_in, #falling_w, #falling_out], iterator_types = ["parallel", "reduction"]}
      ins(%y, %w : tensor<12xf32>, tensor<3xf32>) outs(%dx : tensor<10xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %o, %m : f32
    linalg.yield %s : f32
  } -> tensor<10xf32>
  return %0, %1, %2 : tensor<4x16xf32>, tensor<4x3xf32>, tensor<10xf32>
}

// -----

// Dynamic sizes: an elementwise op of dynamic shape gets streaming tiles,
// its dynamic outer loop split into thread tiles of one register tile (a
// row) each, as its `?` columns may be many; a dynamic matmul gets the
// static one's tiles.
// CHECK-LABEL: func.func @dynamic_shapes
// CHECK: linalg.generic {{.*}}lowering_config<distribution = [1, 0], cache = [0, 0], vector = [1, 64], min_parallel_iterations = 65536>
// CHECK: linalg.matmul {rlx.lowering_config = #rlx.lowering_config<distribution = [64, 256, 0], cache = [0, 0, 0], vector = [8, 32, 1], min_parallel_iterations = 65536>}
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @dynamic_shapes(%x: tensor<?x?xf32>, %a: tensor<?x?xf32>, %b: tensor<?x?xf32>, %c: tensor<?x?xf32>)
    -> (tensor<?x?xf32>, tensor<?x?xf32>) {
  %0 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<?x?xf32>) outs(%x : tensor<?x?xf32>) {
  ^bb0(%v: f32, %o: f32):
    %e = math.exp %v : f32
    linalg.yield %e : f32
  } -> tensor<?x?xf32>
  %1 = linalg.matmul ins(%a, %b : tensor<?x?xf32>, tensor<?x?xf32>) outs(%c : tensor<?x?xf32>) -> tensor<?x?xf32>
  return %0, %1 : tensor<?x?xf32>, tensor<?x?xf32>
}

// -----

// `?` rows of static length: a thread tile holds enough rows for 4096
// iterations (4 of 1024 columns); a matmul of `?` rows by a static B of long
// rows packs B as the static one does (thread tiles of up to 512 rows).
// CHECK-LABEL: func.func @dynamic_rows
// CHECK: linalg.generic {{.*}}lowering_config<distribution = [4, 0], cache = [0, 0], vector = [1, 64], min_parallel_iterations = 65536>
// CHECK: linalg.matmul {rlx.lowering_config = #rlx.lowering_config<distribution = [512, 256, 0], cache = [64, 0, 256], vector = [8, 32, 1], packed = [1]>}
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @dynamic_rows(%x: tensor<?x1024xf32>, %b: tensor<1024x1024xf32>)
    -> (tensor<?x1024xf32>, tensor<?x1024xf32>) {
  %0 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<?x1024xf32>) outs(%x : tensor<?x1024xf32>) {
  ^bb0(%v: f32, %o: f32):
    %e = math.exp %v : f32
    linalg.yield %e : f32
  } -> tensor<?x1024xf32>
  %1 = linalg.matmul ins(%0, %b : tensor<?x1024xf32>, tensor<1024x1024xf32>) outs(%x : tensor<?x1024xf32>) -> tensor<?x1024xf32>
  return %0, %1 : tensor<?x1024xf32>, tensor<?x1024xf32>
}

// -----

// Scans and scatters: the sequential loops whole. Lines along the
// innermost axis are contiguous, so a cache tile is one line (its steps
// read consecutive elements); otherwise a cache tile is four vectors of the
// innermost loop (64 f32 lanes on AVX-512, 32 on AVX2), stepped across
// with one vector operation per position. Thread tiles split the parallel
// loops into at least 16 tiles, of whole cache tiles; a small op (5x7) has
// none.
// CHECK-LABEL: func.func @sequential
// CHECK:         rlx.associative_scan axis = 1 {{.*}}lowering_config<distribution = [64, 0], cache = [1, 0], vector = [0, 0]>
// CHECK:         rlx.associative_scan axis = 0 {{.*}}lowering_config<distribution = [0, 64], cache = [0, 64], vector = [0, 0]>
// CHECK:         rlx.associative_scan axis = 1 {{.*}}lowering_config<distribution = [1, 0, 0], cache = [1, 0, 64], vector = [0, 0, 0]>
// CHECK:         rlx.associative_scan axis = 0 {{.*}}lowering_config<distribution = [0, 0], cache = [0, 7], vector = [0, 0]>
// CHECK:         rlx.scatter {{.*}}lowering_config<distribution = [0, 0, 64], cache = [0, 0, 64], vector = [0, 0, 0]>
// CHECK:         rlx.scatter {{.*}}lowering_config<distribution = [32, 0], cache = [1, 0], vector = [0, 0]>
// AVX2-LABEL:  func.func @sequential
// AVX2:          rlx.associative_scan axis = 1 {{.*}}lowering_config<distribution = [64, 0], cache = [1, 0], vector = [0, 0]>
// AVX2:          rlx.associative_scan axis = 0 {{.*}}lowering_config<distribution = [0, 64], cache = [0, 32], vector = [0, 0]>
func.func @sequential(%a: tensor<1024x2048xf32>, %b: tensor<2048x1024xf32>, %c: tensor<16x2048x64xf32>, %d: tensor<5x7xf32>, %e: tensor<1000x768xf32>, %dy: tensor<4x128x768xf32>, %i: tensor<4x128x1xi64>, %f: tensor<512x300xf32>, %dy2: tensor<512x200xf32>, %i2: tensor<200x1xi32>) -> (tensor<1024x2048xf32>, tensor<2048x1024xf32>, tensor<16x2048x64xf32>, tensor<5x7xf32>, tensor<1000x768xf32>, tensor<512x300xf32>) {
  %e0 = tensor.empty() : tensor<1024x2048xf32>
  %e1 = tensor.empty() : tensor<2048x1024xf32>
  %e2 = tensor.empty() : tensor<16x2048x64xf32>
  %e3 = tensor.empty() : tensor<5x7xf32>
  %0 = rlx.associative_scan axis = 1 identity = 0.0 : f32 ins(%a : tensor<1024x2048xf32>) outs(%e0 : tensor<1024x2048xf32>) {
  ^bb0(%r: f32, %x: f32):
    %n = arith.addf %r, %x : f32
    rlx.yield %n : f32
  } -> tensor<1024x2048xf32>
  %1 = rlx.associative_scan axis = 0 identity = 0.0 : f32 ins(%b : tensor<2048x1024xf32>) outs(%e1 : tensor<2048x1024xf32>) {
  ^bb0(%r: f32, %x: f32):
    %n = arith.addf %r, %x : f32
    rlx.yield %n : f32
  } -> tensor<2048x1024xf32>
  %2 = rlx.associative_scan axis = 1 identity = 0.0 : f32 ins(%c : tensor<16x2048x64xf32>) outs(%e2 : tensor<16x2048x64xf32>) {
  ^bb0(%r: f32, %x: f32):
    %n = arith.addf %r, %x : f32
    rlx.yield %n : f32
  } -> tensor<16x2048x64xf32>
  %3 = rlx.associative_scan axis = 0 identity = 0.0 : f32 ins(%d : tensor<5x7xf32>) outs(%e3 : tensor<5x7xf32>) {
  ^bb0(%r: f32, %x: f32):
    %n = arith.addf %r, %x : f32
    rlx.yield %n : f32
  } -> tensor<5x7xf32>
  %4 = rlx.scatter loop_dims = [-1, -1, 1] index_loops = [0, 1] index_dims = [0] clamp_indices ins(%dy, %i : tensor<4x128x768xf32>, tensor<4x128x1xi64>) outs(%e : tensor<1000x768xf32>) {
  ^bb0(%upd: f32, %cur: f32):
    %sum = arith.addf %cur, %upd : f32
    rlx.yield %sum : f32
  } -> tensor<1000x768xf32>
  %5 = rlx.scatter loop_dims = [0, -1] index_loops = [1] index_dims = [1] clamp_indices ins(%dy2, %i2 : tensor<512x200xf32>, tensor<200x1xi32>) outs(%f : tensor<512x300xf32>) {
  ^bb0(%upd: f32, %cur: f32):
    %sum = arith.addf %cur, %upd : f32
    rlx.yield %sum : f32
  } -> tensor<512x300xf32>
  return %0, %1, %2, %3, %4, %5 : tensor<1024x2048xf32>, tensor<2048x1024xf32>, tensor<16x2048x64xf32>, tensor<5x7xf32>, tensor<1000x768xf32>, tensor<512x300xf32>
}

// -----

// In a loop that runs in parallel already, no thread tiles.
// CHECK-LABEL: func.func @sequential_in_loop
// CHECK:         scf.forall
// CHECK:           rlx.associative_scan axis = 0 {{.*}}lowering_config<distribution = [0, 0], cache = [0, 64], vector = [0, 0]>
func.func @sequential_in_loop(%b: tensor<4x2048x1024xf32>) -> tensor<4x2048x1024xf32> {
  %r = scf.forall (%i) in (4) shared_outs(%out = %b) -> (tensor<4x2048x1024xf32>) {
    %x = tensor.extract_slice %b[%i, 0, 0] [1, 2048, 1024] [1, 1, 1] : tensor<4x2048x1024xf32> to tensor<2048x1024xf32>
    %o = tensor.extract_slice %out[%i, 0, 0] [1, 2048, 1024] [1, 1, 1] : tensor<4x2048x1024xf32> to tensor<2048x1024xf32>
    %s = rlx.associative_scan axis = 0 identity = 0.0 : f32 ins(%x : tensor<2048x1024xf32>) outs(%o : tensor<2048x1024xf32>) {
    ^bb0(%r0: f32, %e: f32):
      %n = arith.addf %r0, %e : f32
      rlx.yield %n : f32
    } -> tensor<2048x1024xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %s into %out[%i, 0, 0] [1, 2048, 1024] [1, 1, 1] : tensor<2048x1024xf32> into tensor<4x2048x1024xf32>
    }
  }
  return %r : tensor<4x2048x1024xf32>
}

// -----

// An empty loop: no tiles at all (the decomposition leaves the destination).
// CHECK-LABEL: func.func @sequential_empty
// CHECK:         rlx.scatter {{.*}}lowering_config<distribution = [0, 0], cache = [0, 0], vector = [0, 0]>
func.func @sequential_empty(%dy: tensor<0x768xf32>, %i: tensor<0x1xi64>, %e: tensor<1000x768xf32>) -> tensor<1000x768xf32> {
  %0 = rlx.scatter loop_dims = [-1, 1] index_loops = [0] index_dims = [0] clamp_indices ins(%dy, %i : tensor<0x768xf32>, tensor<0x1xi64>) outs(%e : tensor<1000x768xf32>) {
  ^bb0(%upd: f32, %cur: f32):
    %sum = arith.addf %cur, %upd : f32
    rlx.yield %sum : f32
  } -> tensor<1000x768xf32>
  return %0 : tensor<1000x768xf32>
}
