// RUN: rlx-opt %s --split-input-file --rlx-tile-and-fuse --canonicalize | FileCheck %s
// RUN: rlx-opt %s --split-input-file --rlx-tile-and-fuse=fuse-epilogues=false --canonicalize | FileCheck %s --check-prefix=NO-EPILOGUE

#id = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (j)>
// The epilogue (bias + relu) is the root: its thread tiles of 32 x 64 hold
// the fill, the matmul and the epilogue. Inside, the matmul runs 128-step
// cache tiles of the reduction, each in 4 x 16 register tiles with one
// reduction step each; the epilogue runs in 4 x 16 tiles of its own.
// CHECK-LABEL: func.func @matmul_bias_relu
// CHECK:         scf.forall (%[[I:.*]], %[[J:.*]]) = (0, 0) to (64, 128) step (32, 64)
// CHECK:           linalg.fill {{.*}} -> tensor<32x64xf32>
// CHECK:           scf.for {{.*}} = %c0 to %c256 step %c128
// CHECK:             scf.for {{.*}} = %c0 to %c32 step %c4
// CHECK:               scf.for {{.*}} = %c0 to %c64 step %c16
// CHECK:                 scf.for {{.*}} = %c0 to %c128 step %c1
// CHECK:                   linalg.matmul {rlx.lowering_config = {{.*}}} ins({{.*}} : tensor<4x1xf32>, tensor<1x16xf32>) outs({{.*}} : tensor<4x16xf32>)
// CHECK:           scf.for {{.*}} = %c0 to %c32 step %c4
// CHECK:             scf.for {{.*}} = %c0 to %c64 step %c16
// CHECK:               linalg.generic {{.*}} ins({{.*}} : tensor<4x16xf32>, tensor<16xf32>) outs({{.*}} : tensor<4x16xf32>)
// CHECK-SAME:            rlx.lowering_config = #rlx.lowering_config<distribution = [32, 64], cache = [0, 0], vector = [4, 16]>
// CHECK:                 arith.maximumf
// CHECK:           scf.forall.in_parallel
// CHECK-NOT:     linalg.
// CHECK:         return

// NO-EPILOGUE-LABEL: func.func @matmul_bias_relu
// NO-EPILOGUE:         scf.forall
// NO-EPILOGUE:           linalg.fill
// NO-EPILOGUE:           linalg.matmul
// NO-EPILOGUE-NOT:       arith.maximumf
// NO-EPILOGUE:           scf.forall.in_parallel
// NO-EPILOGUE:         linalg.generic
// NO-EPILOGUE:           arith.maximumf
func.func @matmul_bias_relu(%a: tensor<64x256xf32>, %b: tensor<256x128xf32>, %bias: tensor<128xf32>) -> tensor<64x128xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<64x128xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%empty : tensor<64x128xf32>) -> tensor<64x128xf32>
  %mm = linalg.matmul {rlx.lowering_config = #rlx.lowering_config<distribution = [32, 64, 0], cache = [0, 0, 128], vector = [4, 16, 1]>}
      ins(%a, %b : tensor<64x256xf32>, tensor<256x128xf32>) outs(%acc : tensor<64x128xf32>) -> tensor<64x128xf32>
  %out = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%mm, %bias : tensor<64x128xf32>, tensor<128xf32>) outs(%empty : tensor<64x128xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    %r = arith.maximumf %s, %zero : f32
    linalg.yield %r : f32
  } -> tensor<64x128xf32>
  return %out : tensor<64x128xf32>
}

// -----

#id = affine_map<(i, j) -> (i, j)>
// An elementwise producer of the left operand is computed per thread tile of
// rows (each tile reads only its rows of it); one of the right operand is
// read whole by every tile and stays outside.
// CHECK-LABEL: func.func @prologues
// CHECK:         linalg.generic
// CHECK:           math.tanh
// CHECK:         scf.forall
// CHECK:           linalg.generic {{.*}} ins({{.*}} : tensor<8x32xf32>)
// CHECK:             math.exp
// CHECK:           linalg.matmul
// CHECK:           scf.forall.in_parallel
func.func @prologues(%a: tensor<16x32xf32>, %b: tensor<32x32xf32>) -> tensor<16x32xf32> {
  %zero = arith.constant 0.0 : f32
  %ea = tensor.empty() : tensor<16x32xf32>
  %eb = tensor.empty() : tensor<32x32xf32>
  %pa = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<16x32xf32>) outs(%ea : tensor<16x32xf32>) {
  ^bb0(%x: f32, %o: f32):
    %e = math.exp %x : f32
    linalg.yield %e : f32
  } -> tensor<16x32xf32>
  %pb = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%b : tensor<32x32xf32>) outs(%eb : tensor<32x32xf32>) {
  ^bb0(%x: f32, %o: f32):
    %t = math.tanh %x : f32
    linalg.yield %t : f32
  } -> tensor<32x32xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%ea : tensor<16x32xf32>) -> tensor<16x32xf32>
  %mm = linalg.matmul {rlx.lowering_config = #rlx.lowering_config<distribution = [8, 0, 0], cache = [0, 0, 0], vector = [8, 32, 1]>}
      ins(%pa, %pb : tensor<16x32xf32>, tensor<32x32xf32>) outs(%acc : tensor<16x32xf32>) -> tensor<16x32xf32>
  return %mm : tensor<16x32xf32>
}

// -----

// Without a config nothing is tiled.
// CHECK-LABEL: func.func @unscheduled
// CHECK-NOT:     scf.
// CHECK:         linalg.matmul
func.func @unscheduled(%a: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %0 = linalg.matmul ins(%a, %a : tensor<64x64xf32>, tensor<64x64xf32>) outs(%a : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %0 : tensor<64x64xf32>
}

// -----

#id = affine_map<(n, f, h, w) -> (n, f, h, w)>
// A convolution's epilogue is the root, and the convolution and its fill
// are computed in its tiles of rows.
// CHECK-LABEL: func.func @conv_relu
// CHECK:         scf.forall (%{{.*}}) = (0) to (4) step (2)
// CHECK:           linalg.fill
// CHECK:           linalg.conv_2d_nchw_fchw
// CHECK:           linalg.generic
// CHECK:             arith.maximumf
// CHECK:           scf.forall.in_parallel
// CHECK-NOT:     linalg.
// CHECK:         return
func.func @conv_relu(%x: tensor<1x4x6x10xf32>, %w: tensor<8x4x3x3xf32>) -> tensor<1x8x4x8xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<1x8x4x8xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%empty : tensor<1x8x4x8xf32>) -> tensor<1x8x4x8xf32>
  %conv = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>,
      rlx.lowering_config = #rlx.lowering_config<distribution = [0, 0, 2, 0, 0, 0, 0], cache = [0, 0, 1, 0, 0, 0, 0], vector = [1, 8, 1, 8, 1, 1, 1]>}
      ins(%x, %w : tensor<1x4x6x10xf32>, tensor<8x4x3x3xf32>) outs(%acc : tensor<1x8x4x8xf32>) -> tensor<1x8x4x8xf32>
  %out = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%conv : tensor<1x8x4x8xf32>) outs(%empty : tensor<1x8x4x8xf32>) {
  ^bb0(%v: f32, %o: f32):
    %r = arith.maximumf %v, %zero : f32
    linalg.yield %r : f32
  } -> tensor<1x8x4x8xf32>
  return %out : tensor<1x8x4x8xf32>
}

// -----

#id = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (j)>
// Without thread tiles (a small op, or one in a loop that runs in parallel
// already) the epilogue is still the root: sequential loops over register
// tiles of 4 x 16 hold the fill, the matmul (its whole reduction, one step
// per iteration) and the epilogue of each tile.
// CHECK-LABEL: func.func @single_thread_epilogue
// CHECK-NOT:     scf.forall
// CHECK:         scf.for {{.*}} = %c0 to %c16 step %c4
// CHECK:           scf.for {{.*}} = %c0 to %c32 step %c16
// CHECK:             linalg.fill {{.*}} -> tensor<4x16xf32>
// CHECK:             scf.for {{.*}} = %c0 to %c8 step %c1
// CHECK:               linalg.matmul {{.*}} ins({{.*}} : tensor<4x1xf32>, tensor<1x16xf32>) outs({{.*}} : tensor<4x16xf32>)
// CHECK:             linalg.generic {{.*}} ins({{.*}} : tensor<4x16xf32>, tensor<16xf32>) outs({{.*}} : tensor<4x16xf32>)
// CHECK:               arith.maximumf
// CHECK:               linalg.yield
// CHECK-NOT:     linalg.
// CHECK:         return
func.func @single_thread_epilogue(%a: tensor<16x8xf32>, %b: tensor<8x32xf32>, %bias: tensor<32xf32>) -> tensor<16x32xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<16x32xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%empty : tensor<16x32xf32>) -> tensor<16x32xf32>
  %mm = linalg.matmul {rlx.lowering_config = #rlx.lowering_config<distribution = [0, 0, 0], cache = [0, 0, 0], vector = [4, 16, 1]>}
      ins(%a, %b : tensor<16x8xf32>, tensor<8x32xf32>) outs(%acc : tensor<16x32xf32>) -> tensor<16x32xf32>
  %out = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%mm, %bias : tensor<16x32xf32>, tensor<32xf32>) outs(%empty : tensor<16x32xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    %r = arith.maximumf %s, %zero : f32
    linalg.yield %r : f32
  } -> tensor<16x32xf32>
  return %out : tensor<16x32xf32>
}

// -----

#id = affine_map<(i, j) -> (i, j)>
#reversed = affine_map<(i, j) -> (i, 31 - j)>
// An epilogue that also reads an operand reversed (elementwise fusion folds
// an rlx.reverse into its consumer this way) is not fused: tiled, its
// reversed read would index a tile's slice out of bounds. The matmul is
// tiled alone and the epilogue stays one whole loop nest after it.
// CHECK-LABEL: func.func @reversed_epilogue_operand
// CHECK:         scf.for
// CHECK:           linalg.matmul {{.*}} outs({{.*}} : tensor<4x16xf32>)
// CHECK:         linalg.generic {{.*}} ins({{.*}} : tensor<16x32xf32>, tensor<16x32xf32>) outs({{.*}} : tensor<16x32xf32>)
// CHECK:         return
func.func @reversed_epilogue_operand(%a: tensor<16x8xf32>, %b: tensor<8x32xf32>, %c: tensor<16x32xf32>) -> tensor<16x32xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<16x32xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%empty : tensor<16x32xf32>) -> tensor<16x32xf32>
  %mm = linalg.matmul {rlx.lowering_config = #rlx.lowering_config<distribution = [0, 0, 0], cache = [0, 0, 0], vector = [4, 16, 1]>}
      ins(%a, %b : tensor<16x8xf32>, tensor<8x32xf32>) outs(%acc : tensor<16x32xf32>) -> tensor<16x32xf32>
  %out = linalg.generic {indexing_maps = [#id, #reversed, #id], iterator_types = ["parallel", "parallel"]}
      ins(%mm, %c : tensor<16x32xf32>, tensor<16x32xf32>) outs(%empty : tensor<16x32xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  } -> tensor<16x32xf32>
  return %out : tensor<16x32xf32>
}

// -----

// A matmul that packs its right operand: per thread tile of 64 x 128 and
// cache tile of 32 reduction steps, B's 32 x 128 tile is copied into four
// panels of 32 columns, P[4, 32, 32] (one register-tile row at a time);
// the rows are then swept in cache tiles of 16, each register tile of
// 8 x 32 reading one panel. The thread tile covers all 64 rows, so threads
// share out columns only. C is viewed as [rows, 4, 32] (the same memory).
// CHECK-LABEL: func.func @packed
// CHECK:         scf.forall (%{{.*}}) = (0) to (256) step (128)
// CHECK:           linalg.fill
// CHECK:           scf.for %[[K:.*]] = %c0 to %c64 step %c32
// CHECK:             %[[B:.*]] = tensor.extract_slice {{.*}}[%[[K]], 0] [32, 128] [1, 1]
// CHECK:             %[[B3:.*]] = tensor.expand_shape %[[B]] {{\[\[}}0], [1, 2]] output_shape [32, 4, 32]
// CHECK:             %[[P0:.*]] = tensor.empty() : tensor<4x32x32xf32>
// CHECK:             %[[P:.*]] = scf.for {{.*}} iter_args(%{{.*}} = %[[P0]]) -> (tensor<4x32x32xf32>)
// CHECK:               scf.for
// CHECK:                 tensor.extract_slice %[[B3]]
// CHECK:             %[[C3:.*]] = tensor.expand_shape %{{.*}} {{\[\[}}0], [1, 2]] output_shape [64, 4, 32]
// CHECK:             scf.for {{.*}} step %c16 iter_args(%{{.*}} = %[[C3]])
// CHECK:               scf.for {{.*}} step %c8
// CHECK:                 scf.for {{.*}} to %c4
// CHECK:                   scf.for {{.*}} to %c32 step %c1
// CHECK:                     linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<8x1xf32>, tensor<1x1x32xf32>) outs(%{{.*}} : tensor<8x1x32xf32>)
// CHECK-SAME:                rlx.lowering_config = #rlx.lowering_config<distribution = [0, 0, 0, 0], cache = [0, 0, 0, 0], vector = [8, 1, 32, 1]>
// CHECK:             tensor.collapse_shape %{{.*}} {{\[\[}}0], [1, 2]] : tensor<64x4x32xf32> into tensor<64x128xf32>
func.func @packed(%a: tensor<64x64xf32>, %b: tensor<64x256xf32>) -> tensor<64x256xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x256xf32>
  %c = linalg.fill ins(%z : f32) outs(%e : tensor<64x256xf32>) -> tensor<64x256xf32>
  %0 = linalg.matmul {rlx.lowering_config = #rlx.lowering_config<distribution = [64, 128, 0], cache = [16, 0, 32], vector = [8, 32, 1], packed = [1]>}
      ins(%a, %b : tensor<64x64xf32>, tensor<64x256xf32>) outs(%c : tensor<64x256xf32>) -> tensor<64x256xf32>
  return %0 : tensor<64x256xf32>
}

// -----

// A packed matmul of `?` rows: the partial row tiles of the cache tile are
// peeled, so the full register tiles are static (8 rows) and only the last
// one has `?` rows.
// CHECK-LABEL: func.func @packed_dynamic_rows(
// CHECK:         scf.forall
// CHECK:           tensor.expand_shape %{{.*}} {{\[\[}}0], [1, 2]] output_shape [%{{.*}}, 4, 32] : tensor<?x128xf32> into tensor<?x4x32xf32>
// CHECK:           scf.for {{.*}} step %c16
// CHECK:             %[[FULL:.*]] = affine.apply
// CHECK:             scf.for %{{.*}} = %c0 to %[[FULL]] step %c8
// CHECK:               linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<8x1xf32>, tensor<1x1x32xf32>) outs(%{{.*}} : tensor<8x1x32xf32>)
// CHECK:             scf.for %{{.*}} = %[[FULL]] to %{{.*}} step %c8
// CHECK:               linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<?x1xf32>, tensor<1x1x32xf32>) outs(%{{.*}} : tensor<?x1x32xf32>)
func.func @packed_dynamic_rows(%a: tensor<?x64xf32>, %b: tensor<64x256xf32>, %c: tensor<?x256xf32>) -> tensor<?x256xf32> {
  %0 = linalg.matmul {rlx.lowering_config = #rlx.lowering_config<distribution = [64, 128, 0], cache = [16, 0, 32], vector = [8, 32, 1], packed = [1]>}
      ins(%a, %b : tensor<?x64xf32>, tensor<64x256xf32>) outs(%c : tensor<?x256xf32>) -> tensor<?x256xf32>
  return %0 : tensor<?x256xf32>
}

// -----

#id = affine_map<(i, j) -> (i, j)>
// Elementwise ops with configs of their own are tiled on their own, after
// the ops that fuse them: the prologue of the matmul is still computed in
// the matmul's thread tiles. The first op of the chain reads a function
// argument (read-only) and writes a new tensor; the second reads the first's
// result, which nothing else reads: that result becomes its destination,
// so its tiles overwrite it (the forall's shared output) and read it from
// there. No elementwise op is fused as another's epilogue.
// CHECK-LABEL: func.func @elementwise_order
// CHECK:         %[[MM:.*]] = scf.forall
// CHECK:           math.exp
// CHECK:           linalg.matmul
// CHECK:         %[[EMPTY:.*]] = tensor.empty() : tensor<64x32xf32>
// CHECK:         %[[NEG:.*]] = scf.forall {{.*}} shared_outs(%{{.*}} = %[[EMPTY]])
// CHECK:           arith.negf
// CHECK:         scf.forall {{.*}} shared_outs(%[[OUT:.*]] = %[[NEG]])
// CHECK:           %[[TILE:.*]] = tensor.extract_slice %[[OUT]]
// CHECK:           scf.for {{.*}} iter_args(%[[ROWS:.*]] = %[[TILE]])
// CHECK:             %[[ROW:.*]] = tensor.extract_slice %[[ROWS]]
// CHECK:             linalg.generic {{.*}} outs(%[[ROW]] : tensor<1x32xf32>)
// CHECK:               math.tanh
func.func @elementwise_order(%a: tensor<16x32xf32>, %b: tensor<32x32xf32>, %x: tensor<64x32xf32>)
    -> (tensor<16x32xf32>, tensor<64x32xf32>) {
  %zero = arith.constant 0.0 : f32
  %ea = tensor.empty() : tensor<16x32xf32>
  %pa = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<16x32xf32>) outs(%ea : tensor<16x32xf32>)
      attrs = {rlx.lowering_config = #rlx.lowering_config<distribution = [8, 0], cache = [0, 0], vector = [1, 32]>} {
  ^bb0(%v: f32, %o: f32):
    %e = math.exp %v : f32
    linalg.yield %e : f32
  } -> tensor<16x32xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%ea : tensor<16x32xf32>) -> tensor<16x32xf32>
  %mm = linalg.matmul {rlx.lowering_config = #rlx.lowering_config<distribution = [8, 0, 0], cache = [0, 0, 0], vector = [8, 32, 1]>}
      ins(%pa, %b : tensor<16x32xf32>, tensor<32x32xf32>) outs(%acc : tensor<16x32xf32>) -> tensor<16x32xf32>
  %ex = tensor.empty() : tensor<64x32xf32>
  %neg = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<64x32xf32>) outs(%ex : tensor<64x32xf32>)
      attrs = {rlx.lowering_config = #rlx.lowering_config<distribution = [16, 0], cache = [0, 0], vector = [1, 32]>} {
  ^bb0(%v: f32, %o: f32):
    %n = arith.negf %v : f32
    linalg.yield %n : f32
  } -> tensor<64x32xf32>
  %th = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%neg : tensor<64x32xf32>) outs(%ex : tensor<64x32xf32>)
      attrs = {rlx.lowering_config = #rlx.lowering_config<distribution = [16, 0], cache = [0, 0], vector = [1, 32]>} {
  ^bb0(%v: f32, %o: f32):
    %t = math.tanh %v : f32
    linalg.yield %t : f32
  } -> tensor<64x32xf32>
  return %mm, %th : tensor<16x32xf32>, tensor<64x32xf32>
}

// -----

// Register tiles that do not divide their loops (37 rows by 8, 29 columns
// by 16) are peeled: the full tiles and the partial last tile of each loop
// have static shapes (8 or 5 rows, 16 or 13 columns), so all four kinds
// vectorize.
// CHECK-LABEL: func.func @peeled_partial_tiles
// CHECK:         scf.for {{.*}} = %c0 to %c32 step %c8
// CHECK:           scf.for {{.*}} = %c0 to %c41 step %c1
// CHECK:             linalg.matmul {{.*}} ins({{.*}} : tensor<8x1xf32>, tensor<1x16xf32>) outs({{.*}} : tensor<8x16xf32>)
// CHECK:           scf.for {{.*}} = %c0 to %c41 step %c1
// CHECK:             linalg.matmul {{.*}} ins({{.*}} : tensor<8x1xf32>, tensor<1x13xf32>) outs({{.*}} : tensor<8x13xf32>)
// CHECK:         scf.for {{.*}} = %c0 to %c41 step %c1
// CHECK:           linalg.matmul {{.*}} ins({{.*}} : tensor<5x1xf32>, tensor<1x16xf32>) outs({{.*}} : tensor<5x16xf32>)
// CHECK:         scf.for {{.*}} = %c0 to %c41 step %c1
// CHECK:           linalg.matmul {{.*}} ins({{.*}} : tensor<5x1xf32>, tensor<1x13xf32>) outs({{.*}} : tensor<5x13xf32>)
// CHECK-NOT:     tensor<?x
// CHECK:         return
func.func @peeled_partial_tiles(%a: tensor<37x41xf32>, %b: tensor<41x29xf32>) -> tensor<37x29xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<37x29xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%empty : tensor<37x29xf32>) -> tensor<37x29xf32>
  %mm = linalg.matmul {rlx.lowering_config = #rlx.lowering_config<distribution = [0, 0, 0], cache = [0, 0, 0], vector = [8, 16, 1]>}
      ins(%a, %b : tensor<37x41xf32>, tensor<41x29xf32>) outs(%acc : tensor<37x29xf32>) -> tensor<37x29xf32>
  return %mm : tensor<37x29xf32>
}

// -----

// The zero padding of a convolution's input is fused into its thread tiles:
// each tile pads the rows it reads (its 4 output rows and the 2 rows of
// halo), as a fill of the padded tile and a copy of the input's rows into
// it, rather than the whole input being padded first.
// CHECK-LABEL: func.func @padded_convolution
// CHECK-NOT:     tensor.pad
// CHECK:         scf.forall (%{{.*}}) = (0) to (8) step (4)
// CHECK:           linalg.fill {{.*}} -> tensor<1x4x?x10xf32>
// CHECK:           tensor.insert_slice {{.*}} : tensor<1x4x?x8xf32> into tensor<1x4x?x10xf32>
// CHECK:           linalg.conv_2d_nchw_fchw
// CHECK:           scf.forall.in_parallel
func.func @padded_convolution(%x: tensor<1x4x8x8xf32>, %w: tensor<8x4x3x3xf32>) -> tensor<1x8x8x8xf32> {
  %zero = arith.constant 0.0 : f32
  %padded = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<1x4x8x8xf32> to tensor<1x4x10x10xf32>
  %empty = tensor.empty() : tensor<1x8x8x8xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%empty : tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32>
  %out = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>,
      rlx.lowering_config = #rlx.lowering_config<distribution = [0, 0, 4, 0, 0, 0, 0], cache = [0, 0, 1, 0, 0, 0, 0], vector = [1, 8, 1, 8, 1, 1, 1]>}
      ins(%padded, %w : tensor<1x4x10x10xf32>, tensor<8x4x3x3xf32>) outs(%acc : tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32>
  return %out : tensor<1x8x8x8xf32>
}

// -----

// A padded input of `?` batch is fused like a static one, in the version
// with thread tiles of a guarded convolution (the guard's sizes and the
// thread loop's bounds read from the pad are computed from its input, so
// that the version does not also pad the whole input); a `?` image's pad
// stays whole (a tile's pad would have run-time sizes, which the window's
// tiles read in scalar loops).
// CHECK-LABEL: func.func @padded_dynamic_batch
// CHECK-NOT:     tensor.pad
// CHECK:         scf.if
// CHECK-NOT:       tensor.pad
// CHECK:           scf.forall
// CHECK:             linalg.fill {{.*}} -> tensor<1x4x?x10xf32>
// CHECK:             linalg.conv_2d_nchw_fchw
// CHECK:         } else {
// CHECK:           tensor.pad
// CHECK-LABEL: func.func @padded_dynamic_image
// CHECK:         tensor.pad
// CHECK:         } : tensor<1x4x?x?xf32> to tensor<1x4x?x?xf32>
// CHECK:         scf.forall
func.func @padded_dynamic_batch(%x: tensor<?x4x8x8xf32>, %w: tensor<8x4x3x3xf32>) -> tensor<?x8x8x8xf32> {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %n = tensor.dim %x, %c0 : tensor<?x4x8x8xf32>
  %padded = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<?x4x8x8xf32> to tensor<?x4x10x10xf32>
  %empty = tensor.empty(%n) : tensor<?x8x8x8xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%empty : tensor<?x8x8x8xf32>) -> tensor<?x8x8x8xf32>
  %out = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>,
      rlx.lowering_config = #rlx.lowering_config<distribution = [1, 0, 4, 0, 0, 0, 0], cache = [0, 0, 1, 0, 0, 0, 0], vector = [1, 8, 1, 8, 1, 1, 1], min_parallel_iterations = 4096>}
      ins(%padded, %w : tensor<?x4x10x10xf32>, tensor<8x4x3x3xf32>) outs(%acc : tensor<?x8x8x8xf32>) -> tensor<?x8x8x8xf32>
  return %out : tensor<?x8x8x8xf32>
}
func.func @padded_dynamic_image(%x: tensor<1x4x?x?xf32>, %w: tensor<8x4x3x3xf32>) -> tensor<1x8x?x?xf32> {
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %zero = arith.constant 0.0 : f32
  %h = tensor.dim %x, %c2 : tensor<1x4x?x?xf32>
  %w_ = tensor.dim %x, %c3 : tensor<1x4x?x?xf32>
  %padded = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<1x4x?x?xf32> to tensor<1x4x?x?xf32>
  %empty = tensor.empty(%h, %w_) : tensor<1x8x?x?xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%empty : tensor<1x8x?x?xf32>) -> tensor<1x8x?x?xf32>
  %out = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>,
      rlx.lowering_config = #rlx.lowering_config<distribution = [0, 0, 4, 0, 0, 0, 0], cache = [0, 0, 1, 0, 0, 0, 0], vector = [1, 8, 1, 8, 1, 1, 1]>}
      ins(%padded, %w : tensor<1x4x?x?xf32>, tensor<8x4x3x3xf32>) outs(%acc : tensor<1x8x?x?xf32>) -> tensor<1x8x?x?xf32>
  return %out : tensor<1x8x?x?xf32>
}

// -----

// Thread tiles of a reduction loop split it: a split-K matmul (k in 4 parts
// of 128) and the maximum of a whole tensor (rows in 4 parts of 64). One
// scf.forall over the parts writes each part's result, computed from a
// fresh neutral element in the tile (its cache and register tiles as
// configured), into its slice of the partial results; upstream's merge
// (linalg.reduce over the parts) folds them into the op's destination.
// CHECK-LABEL: func.func @split_reductions(
// CHECK-SAME:      %[[A:[a-z0-9]+]]: tensor<16x512xf32>, %[[B:[a-z0-9]+]]: tensor<512x32xf32>, %[[C:[a-z0-9]+]]: tensor<16x32xf32>, %[[X:[a-z0-9]+]]: tensor<256x1024xf32>, %[[S:[a-z0-9]+]]: tensor<f32>)
// CHECK:         %[[PARTS:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<16x32x4xf32>)
// CHECK:         %[[PRODUCTS:.*]] = scf.forall (%[[K0:.*]]) = (0) to (512) step (128) shared_outs(%[[P:.*]] = %[[PARTS]])
// CHECK:           %[[PART:.*]] = affine.apply #{{.*}}(%[[K0]])
// CHECK:           tensor.extract_slice %[[A]][0, %[[K0]]] [16, 128]
// CHECK:           tensor.extract_slice %[[B]][%[[K0]], 0] [128, 32]
// CHECK:           %[[ZERO:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<16x32xf32>)
// CHECK:           scf.for {{.*}} iter_args(%{{.*}} = %[[ZERO]])
// CHECK:             linalg.matmul {{.*}} ins(%{{.*}}, %{{.*}} : tensor<4x1xf32>, tensor<1x16xf32>) outs(%{{.*}} : tensor<4x16xf32>)
// CHECK:           scf.forall.in_parallel
// CHECK-NEXT:        tensor.parallel_insert_slice %{{.*}} into %[[P]][0, 0, %[[PART]]] [16, 32, 1]
// CHECK:         linalg.reduce ins(%[[PRODUCTS]] : tensor<16x32x4xf32>) outs(%[[C]] : tensor<16x32xf32>) dimensions = [2]
// CHECK:           arith.addf
// CHECK:         scf.forall (%{{.*}}) = (0) to (256) step (64) shared_outs(%{{.*}} = %{{.*}}) -> (tensor<4xf32>)
// CHECK:           linalg.generic {{.*}} ins(%{{.*}} : tensor<1x64xf32>) outs(%{{.*}} : tensor<f32>)
// CHECK:         linalg.reduce ins(%{{.*}} : tensor<4xf32>) outs(%[[S]] : tensor<f32>) dimensions = [0]
// CHECK:           arith.maximumf
#split_all = affine_map<(d0, d1) -> (d0, d1)>
#split_scalar = affine_map<(d0, d1) -> ()>
func.func @split_reductions(%a: tensor<16x512xf32>, %b: tensor<512x32xf32>, %c: tensor<16x32xf32>, %x: tensor<256x1024xf32>, %s: tensor<f32>) -> (tensor<16x32xf32>, tensor<f32>) {
  %0 = linalg.matmul {rlx.lowering_config = #rlx.lowering_config<distribution = [0, 0, 128], cache = [0, 0, 0], vector = [4, 16, 1]>}
      ins(%a, %b : tensor<16x512xf32>, tensor<512x32xf32>) outs(%c : tensor<16x32xf32>) -> tensor<16x32xf32>
  %1 = linalg.generic {indexing_maps = [#split_all, #split_scalar], iterator_types = ["reduction", "reduction"]} ins(%x : tensor<256x1024xf32>) outs(%s : tensor<f32>) attrs = {rlx.lowering_config = #rlx.lowering_config<distribution = [64, 0], cache = [0, 0], vector = [1, 64]>} {
  ^bb0(%in: f32, %o: f32):
    %m = arith.maximumf %o, %in : f32
    linalg.yield %m : f32
  } -> tensor<f32>
  return %0, %1 : tensor<16x32xf32>, tensor<f32>
}

// -----

// min_parallel_iterations: an op with `?` loops is versioned on whether it
// makes that many iterations (here ? x 64 >= 4096): its thread tiles (8
// rows) in the first version, none in the other, which tiles it as a small
// op is (register tiles in sequential loops). Both keep static tile sizes.
// CHECK-LABEL: func.func @guarded_exp(
// CHECK-DAG:     %[[C4096:.*]] = arith.constant 4096 : index
// CHECK-DAG:     %[[C64:.*]] = arith.constant 64 : index
// CHECK:         %[[ITERATIONS:.*]] = arith.muli %{{.*}}, %[[C64]] : index
// CHECK:         %[[PARALLEL:.*]] = arith.cmpi uge, %[[ITERATIONS]], %[[C4096]] : index
// CHECK:         %[[RESULT:.*]] = scf.if %[[PARALLEL]] -> (tensor<?x64xf32>) {
// CHECK:           scf.forall (%{{.*}}) = (0) to (%{{.*}}) step (8)
// CHECK:             scf.for
// CHECK:               linalg.generic {{.*}}lowering_config<distribution = [8, 0], cache = [0, 0], vector = [1, 64]>
// CHECK:                 math.exp
// CHECK:         } else {
// CHECK-NOT:       scf.forall
// CHECK:           scf.for
// CHECK:             linalg.generic {{.*}}lowering_config<distribution = [0, 0], cache = [0, 0], vector = [1, 64]>
// CHECK:               math.exp
// CHECK:         return %[[RESULT]]
#id = affine_map<(i, j) -> (i, j)>
func.func @guarded_exp(%a: tensor<?x64xf32>) -> tensor<?x64xf32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %a, %c0 : tensor<?x64xf32>
  %empty = tensor.empty(%n) : tensor<?x64xf32>
  %0 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<?x64xf32>) outs(%empty : tensor<?x64xf32>)
      attrs = {rlx.lowering_config = #rlx.lowering_config<distribution = [8, 0], cache = [0, 0], vector = [1, 64], min_parallel_iterations = 4096>} {
  ^bb0(%x: f32, %o: f32):
    %e = math.exp %x : f32
    linalg.yield %e : f32
  } -> tensor<?x64xf32>
  return %0 : tensor<?x64xf32>
}

// -----

// The guard counts the iterations of the contraction (? x 128 x 256); the
// versions hold its fusion group (fill, matmul and epilogue): thread tiles
// of 32 x 64 (static columns) in one, register tiles with the epilogue
// fused in the other. Nothing of the group is left before the scf.if.
// CHECK-LABEL: func.func @guarded_matmul_bias(
// CHECK-DAG:     %[[C32768:.*]] = arith.constant 32768 : index
// CHECK-DAG:     %[[C65536:.*]] = arith.constant 65536 : index
// CHECK:         %[[ITERATIONS:.*]] = arith.muli %{{.*}}, %[[C32768]] : index
// CHECK:         %[[PARALLEL:.*]] = arith.cmpi uge, %[[ITERATIONS]], %[[C65536]] : index
// CHECK-NOT:     linalg.
// CHECK:         %[[RESULT:.*]] = scf.if %[[PARALLEL]] -> (tensor<?x128xf32>) {
// CHECK:           scf.forall ({{.*}}) = (0, 0) to (%{{.*}}, 128) step (32, 64)
// CHECK:             linalg.fill {{.*}} -> tensor<?x64xf32>
// CHECK:             linalg.matmul
// CHECK:             arith.addf
// CHECK:             scf.forall.in_parallel
// CHECK:         } else {
// CHECK-NOT:       scf.forall
// CHECK:           scf.for
// CHECK:             scf.for
// CHECK:               linalg.fill {{.*}} -> tensor<4x16xf32>
// CHECK:               linalg.matmul {{.*}}distribution = [0, 0, 0]
// CHECK:               arith.addf
// CHECK:         return %[[RESULT]]
#id = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (j)>
func.func @guarded_matmul_bias(%a: tensor<?x256xf32>, %b: tensor<256x128xf32>, %bias: tensor<128xf32>) -> tensor<?x128xf32> {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %n = tensor.dim %a, %c0 : tensor<?x256xf32>
  %empty = tensor.empty(%n) : tensor<?x128xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%empty : tensor<?x128xf32>) -> tensor<?x128xf32>
  %mm = linalg.matmul {rlx.lowering_config = #rlx.lowering_config<distribution = [32, 64, 0], cache = [0, 0, 0], vector = [4, 16, 1], min_parallel_iterations = 65536>}
      ins(%a, %b : tensor<?x256xf32>, tensor<256x128xf32>) outs(%acc : tensor<?x128xf32>) -> tensor<?x128xf32>
  %out = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%mm, %bias : tensor<?x128xf32>, tensor<128xf32>) outs(%empty : tensor<?x128xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  } -> tensor<?x128xf32>
  return %out : tensor<?x128xf32>
}

// -----

// A `?` loop whose extent is bounded by its tile size (a peeled partial
// tile that a second round of tiling meets) is left whole: tiled again, it
// would become a loop of at most one iteration around a tile that no
// accumulator could stay in registers across.
// CHECK-LABEL: func.func @bounded_dynamic_tile(
// CHECK-NOT:     scf.for
// CHECK:         linalg.generic
// CHECK-NOT:     scf.for
// CHECK:         return
#id = affine_map<(i, j) -> (i, j)>
func.func @bounded_dynamic_tile(%t: tensor<?x16xf32>, %n: index) -> tensor<?x16xf32> {
  %rows = affine.min affine_map<()[s0] -> (s0, 8)>()[%n]
  %slice = tensor.extract_slice %t[0, 0] [%rows, 16] [1, 1] : tensor<?x16xf32> to tensor<?x16xf32>
  %empty = tensor.empty(%rows) : tensor<?x16xf32>
  %0 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"],
      rlx.lowering_config = #rlx.lowering_config<distribution = [0, 0], cache = [0, 0], vector = [8, 16]>}
      ins(%slice : tensor<?x16xf32>) outs(%empty : tensor<?x16xf32>) {
  ^bb0(%x: f32, %o: f32):
    %e = math.exp %x : f32
    linalg.yield %e : f32
  } -> tensor<?x16xf32>
  return %0 : tensor<?x16xf32>
}

// -----

// A guarded matmul's left prologue (an elementwise op that only the matmul
// reads) is versioned with it and computed per thread tile in the version
// that has them: the sizes that the guard reads from its result (a
// `tensor.dim`) do not keep it out.
// CHECK-LABEL: func.func @guarded_matmul_prologue(
// CHECK:         %[[PARALLEL:.*]] = arith.cmpi uge
// CHECK-NOT:     linalg.
// CHECK:         %[[RESULT:.*]] = scf.if %[[PARALLEL]] -> (tensor<?x128xf32>) {
// CHECK:           scf.forall ({{.*}}) = (0, 0) to (%{{.*}}, 128) step (32, 64)
// CHECK:             math.exp
// CHECK:             linalg.matmul
// CHECK:             scf.forall.in_parallel
// CHECK:         } else {
// CHECK-NOT:       scf.forall
// CHECK:           math.exp
// CHECK:           linalg.matmul
// CHECK:         return %[[RESULT]]
#id = affine_map<(i, j) -> (i, j)>
func.func @guarded_matmul_prologue(%a: tensor<?x256xf32>, %b: tensor<256x128xf32>) -> tensor<?x128xf32> {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %n = tensor.dim %a, %c0 : tensor<?x256xf32>
  %ea = tensor.empty(%n) : tensor<?x256xf32>
  %exp = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<?x256xf32>) outs(%ea : tensor<?x256xf32>) {
  ^bb0(%x: f32, %o: f32):
    %e = math.exp %x : f32
    linalg.yield %e : f32
  } -> tensor<?x256xf32>
  %empty = tensor.empty(%n) : tensor<?x128xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%empty : tensor<?x128xf32>) -> tensor<?x128xf32>
  %mm = linalg.matmul {rlx.lowering_config = #rlx.lowering_config<distribution = [32, 64, 0], cache = [0, 0, 0], vector = [4, 16, 1], min_parallel_iterations = 65536>}
      ins(%exp, %b : tensor<?x256xf32>, tensor<256x128xf32>) outs(%acc : tensor<?x128xf32>) -> tensor<?x128xf32>
  return %mm : tensor<?x128xf32>
}
