// RUN: rlx-opt %s --rlx-gpu-tile-contractions --cse --split-input-file | FileCheck %s
// RUN: rlx-opt %s --rlx-gpu-tile-contractions="tile-m=32 tile-n=16 tile-k=8 thread-tile-m=2 thread-tile-n=2 workgroup-memory=false" --cse --split-input-file | FileCheck %s --check-prefix=SMALL
// RUN: rlx-opt %s --rlx-gpu-tile-contractions="tensor-cores tile-k=32" --cse --split-input-file | FileCheck %s --check-prefix=MMA
// RUN: not rlx-opt %s --rlx-gpu-tile-contractions="tile-m=30 thread-tile-m=4" --split-input-file 2>&1 | FileCheck %s --check-prefix=NOT-MULTIPLE
// RUN: not rlx-opt %s --rlx-gpu-tile-contractions="tile-m=128 tile-n=128 thread-tile-m=2 thread-tile-n=2" --split-input-file 2>&1 | FileCheck %s --check-prefix=THREADS
// RUN: not rlx-opt %s --rlx-gpu-tile-contractions="tile-k=128" --split-input-file 2>&1 | FileCheck %s --check-prefix=SHARED
// RUN: not rlx-opt %s --rlx-gpu-tile-contractions="tensor-cores tile-n=24 thread-tile-n=4" --split-input-file 2>&1 | FileCheck %s --check-prefix=MMA-TILES

// NOT-MULTIPLE: error: tile sizes must be positive and tile-m (tile-n) a multiple of thread-tile-m (thread-tile-n)
// THREADS: error: tiles need 4096 threads per block, more than 1024
// SHARED: error: tiles need 65536 bytes of workgroup memory, more than 49152
// MMA-TILES: error: tensor cores need tile-m, tile-n and tile-k multiples of 32, 16 and 16

// A 128x96 times 96x64 f32 matmul: 2x1 blocks of 64x64, k tiles of 16,
// 16x16 threads that copy the A tile (transposed) and the B tile into
// workgroup memory, zeros past the bounds, then accumulate 4x4 micro-tiles
// as four row vectors, read and written with masks, from a vector of A's
// column and one of B's row per k (16-byte aligned tiles).
// CHECK-LABEL: func.func @matmul
// CHECK-SAME:      (%[[A:.*]]: memref<128x96xf32>, %[[B:.*]]: memref<96x64xf32>, %[[C:.*]]: memref<128x64xf32>)
// CHECK:         scf.forall (%[[BM:.*]], %[[BN:.*]]) in (2, 1) {
// CHECK:           %[[M0:.*]] = arith.muli %[[BM]], %c64
// CHECK:           %[[N0:.*]] = arith.muli %[[BN]], %c64
// CHECK:           %[[AT:.*]] = memref.alloc() {alignment = 16 : i64} : memref<16x64xf32, #gpu.address_space<workgroup>>
// CHECK:           %[[BT:.*]] = memref.alloc() {alignment = 16 : i64} : memref<16x64xf32, #gpu.address_space<workgroup>>
// CHECK:           scf.for %[[K0:.*]] = %c0 to %c96 step %c16 {
// CHECK:             scf.forall (%[[TY:.*]], %[[TX:.*]]) in (16, 16) {
// CHECK:               %[[T:.*]] = arith.addi %{{.*}}, %[[TX]]
// CHECK:               scf.for %[[E:.*]] = %[[T]] to %c1024 step %c256 {
// CHECK:                 %[[R:.*]] = arith.divui %[[E]], %c16
// CHECK:                 %[[CC:.*]] = arith.remui %[[E]], %c16
// CHECK:                 %[[M:.*]] = arith.addi %[[M0]], %[[R]]
// CHECK:                 %[[K:.*]] = arith.addi %[[K0]], %[[CC]]
// CHECK:                 %[[V:.*]] = scf.if %{{.*}} -> (f32) {
// CHECK:                   memref.load %[[A]][%[[M]], %[[K]]]
// CHECK:                 } else {
// CHECK:                   scf.yield %{{.*}} : f32
// CHECK:                 memref.store %[[V]], %[[AT]][%[[CC]], %[[R]]]
// CHECK:             } {mapping = [#gpu.thread<y>, #gpu.thread<x>]}
// CHECK:             scf.forall (%{{.*}}, %{{.*}}) in (16, 16) {
// CHECK:               memref.load %[[B]]
// CHECK:               memref.store %{{.*}}, %[[BT]]
// CHECK:             } {mapping = [#gpu.thread<y>, #gpu.thread<x>]}
// CHECK:             scf.forall (%{{.*}}, %{{.*}}) in (16, 16) {
// CHECK-COUNT-4:       vector.maskedload %[[C]]
// CHECK:               scf.for %[[KK:.*]] = %c0 to %c16 step %c1 iter_args({{.*}}) -> (vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>) {
// CHECK:                 vector.load %[[BT]][%[[KK]], %{{.*}}] {alignment = 16 : i64} : memref<16x64xf32, #gpu.address_space<workgroup>>, vector<4xf32>
// CHECK:                 %[[ACOL:.*]] = vector.load %[[AT]][%[[KK]], %{{.*}}] {alignment = 16 : i64} : memref<16x64xf32, #gpu.address_space<workgroup>>, vector<4xf32>
// CHECK-COUNT-4:         vector.extract %[[ACOL]]
// CHECK:               }
// CHECK-COUNT-4:       vector.maskedstore %[[C]]
// CHECK:             } {mapping = [#gpu.thread<y>, #gpu.thread<x>]}
// CHECK:           }
// CHECK:           memref.dealloc %[[AT]]
// CHECK:           memref.dealloc %[[BT]]
// CHECK:         } {mapping = [#gpu.block<y>, #gpu.block<x>]}
// CHECK-NOT:     linalg.matmul

// Smaller tiles, in ordinary buffers (the CPU test mode): 4x4 blocks of
// 32x16, k tiles of 8, 16x8 threads with 2x2 micro-tiles.
// SMALL-LABEL: func.func @matmul
// SMALL:         scf.forall (%{{.*}}, %{{.*}}) in (4, 4) {
// SMALL:           memref.alloc() {alignment = 16 : i64} : memref<8x32xf32>
// SMALL:           memref.alloc() {alignment = 16 : i64} : memref<8x16xf32>
// SMALL:           scf.for %{{.*}} = %c0 to %c96 step %c8 {
// SMALL:             scf.forall (%{{.*}}, %{{.*}}) in (16, 8) {
// SMALL:               scf.for %{{.*}} = %{{.*}} to %c256 step %c128 {
// SMALL-COUNT-2:     vector.maskedload {{.*}} vector<2xf32>
func.func @matmul(%a: memref<128x96xf32>, %b: memref<96x64xf32>, %c: memref<128x64xf32>) {
  linalg.matmul ins(%a, %b : memref<128x96xf32>, memref<96x64xf32>) outs(%c : memref<128x64xf32>)
  return
}

// -----

// A batched contraction of f16 operands into f32: the batch on blocks' z,
// f16 tiles, each row of A and B extended to f32 in the micro-tile loop.
// CHECK-LABEL: func.func @batch_f16
// CHECK:         scf.forall (%[[BATCH:.*]], %{{.*}}, %{{.*}}) in (4, 1, 2) {
// CHECK:           memref.alloc() {alignment = 16 : i64} : memref<16x64xf16, #gpu.address_space<workgroup>>
// CHECK:           scf.for %{{.*}} = %c0 to %c20 step %c16 {
// CHECK:             memref.load %arg0[%[[BATCH]], %{{.*}}, %{{.*}}] : memref<4x33x20xf16>
// CHECK:             memref.load %arg1[%[[BATCH]], %{{.*}}, %{{.*}}] : memref<4x20x70xf16>
// CHECK:             vector.maskedload %arg2[%[[BATCH]], %{{.*}}, %{{.*}}]
// CHECK:             arith.extf %{{.*}} : vector<4xf16> to vector<4xf32>
// CHECK:             arith.extf %{{.*}} : vector<4xf16> to vector<4xf32>
// CHECK:         } {mapping = [#gpu.block<z>, #gpu.block<y>, #gpu.block<x>]}
// The tensor-core kernel needs C tiles that divide C (33x70 does not).
// MMA-LABEL:   func.func @batch_f16
// MMA-NOT:       vector.contract
// MMA:           vector.maskedload
#lhs = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>
#rhs = affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>
#out = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
func.func @batch_f16(%a: memref<4x33x20xf16>, %b: memref<4x20x70xf16>, %c: memref<4x33x70xf32>) {
  linalg.generic {indexing_maps = [#lhs, #rhs, #out], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<4x33x20xf16>, memref<4x20x70xf16>) outs(%c : memref<4x33x70xf32>) {
  ^bb0(%x: f16, %y: f16, %acc: f32):
    %0 = arith.extf %x : f16 to f32
    %1 = arith.extf %y : f16 to f32
    %2 = arith.mulf %0, %1 : f32
    %3 = arith.addf %acc, %2 : f32
    linalg.yield %3 : f32
  }
  return
}

// -----

// With tensor cores, an f16 matmul whose C tiles divide C: 128 threads copy
// A m-major, and 4 warps each contract 2x4 mma tiles (16x8 of C, 16x16 of
// A, 16x8 of B) per k step of 16, two per k tile of 32, reading and writing
// C without masks.
// MMA-LABEL: func.func @mma
// MMA:         scf.forall (%{{.*}}, %{{.*}}) in (2, 1) {
// MMA:           %[[AT:.*]] = memref.alloc() {alignment = 16 : i64} : memref<64x32xf16, #gpu.address_space<workgroup>>
// MMA:           %[[BT:.*]] = memref.alloc() {alignment = 16 : i64} : memref<32x64xf16, #gpu.address_space<workgroup>>
// MMA:           scf.for %{{.*}} = %c0 to %c64 step %c32 {
// MMA:             scf.forall (%{{.*}}, %{{.*}}) in (1, 128) {
// MMA:             } {mapping = [#gpu.thread<y>, #gpu.thread<x>]}
// MMA:             scf.forall (%{{.*}}, %{{.*}}) in (1, 128) {
// MMA:             } {mapping = [#gpu.thread<y>, #gpu.thread<x>]}
// MMA:             scf.forall (%{{.*}}) in (4) {
// MMA-COUNT-8:       vector.transfer_read %arg2{{.*}} {in_bounds = [true, true]} : memref<128x64xf32>, vector<16x8xf32>
// MMA-COUNT-2:       vector.transfer_read %[[AT]]{{.*}} : memref<64x32xf16, #gpu.address_space<workgroup>>, vector<16x16xf16>
// MMA-COUNT-4:       vector.transfer_read %[[BT]]{{.*}} : memref<32x64xf16, #gpu.address_space<workgroup>>, vector<16x8xf16>
// MMA-COUNT-8:       vector.contract {{.*}} : vector<16x16xf16>, vector<16x8xf16> into vector<16x8xf32>
// MMA-COUNT-2:       vector.transfer_read %[[AT]]
// MMA-COUNT-4:       vector.transfer_read %[[BT]]
// MMA-COUNT-8:       vector.contract
// MMA-COUNT-8:       vector.transfer_write {{.*}}, %arg2
// MMA:             } {mapping = [#gpu.warp<x>]}
// Without tensor cores the same matmul is a SIMT kernel.
// CHECK-LABEL: func.func @mma
// CHECK-NOT:     vector.contract
// CHECK:         vector.maskedload
func.func @mma(%a: memref<128x64xf16>, %b: memref<64x64xf16>, %c: memref<128x64xf32>) {
  linalg.matmul ins(%a, %b : memref<128x64xf16>, memref<64x64xf16>) outs(%c : memref<128x64xf32>)
  return
}

// -----

// bf16 takes the same tensor-core form: bf16 tiles and warp-level
// bf16 x bf16 -> f32 contractions, never converted to another type; C tiles
// that do not divide C (the second matmul, 100x64) keep the SIMT kernel.
// MMA-LABEL: func.func @mma_bf16
// MMA:           %[[AT:.*]] = memref.alloc() {alignment = 16 : i64} : memref<64x32xbf16, #gpu.address_space<workgroup>>
// MMA:           %[[BT:.*]] = memref.alloc() {alignment = 16 : i64} : memref<32x64xbf16, #gpu.address_space<workgroup>>
// MMA:             scf.forall (%{{.*}}) in (4) {
// MMA-COUNT-2:       vector.transfer_read %[[AT]]{{.*}} : memref<64x32xbf16, #gpu.address_space<workgroup>>, vector<16x16xbf16>
// MMA-COUNT-4:       vector.transfer_read %[[BT]]{{.*}} : memref<32x64xbf16, #gpu.address_space<workgroup>>, vector<16x8xbf16>
// MMA-COUNT-8:       vector.contract {{.*}} : vector<16x16xbf16>, vector<16x8xbf16> into vector<16x8xf32>
// MMA:             } {mapping = [#gpu.warp<x>]}
// MMA-NOT:       arith.extf
// MMA:           memref.alloc() {alignment = 16 : i64} : memref<32x64xbf16, #gpu.address_space<workgroup>>
// MMA:           arith.extf %{{.*}} : vector<4xbf16> to vector<4xf32>
// MMA-NOT:       vector.contract
// CHECK-LABEL: func.func @mma_bf16
// CHECK-NOT:     vector.contract
// CHECK:         vector.maskedload
func.func @mma_bf16(%a: memref<128x64xbf16>, %b: memref<64x64xbf16>, %c: memref<128x64xf32>,
                    %ap: memref<100x64xbf16>, %cp: memref<100x64xf32>) {
  linalg.matmul ins(%a, %b : memref<128x64xbf16>, memref<64x64xbf16>) outs(%c : memref<128x64xf32>)
  linalg.matmul ins(%ap, %b : memref<100x64xbf16>, memref<64x64xbf16>) outs(%cp : memref<100x64xf32>)
  return
}

// -----

// Transposed operands are read through their indexing maps: A[k, m] and
// B[n, k] (sizes smaller than one tile).
// CHECK-LABEL: func.func @transposed_operands
// CHECK:         scf.forall (%{{.*}}, %{{.*}}) in (1, 1) {
// CHECK:           scf.for %[[K0:.*]] = %c0 to %c7 step %c16 {
// CHECK:             scf.for %[[E:.*]] = %{{.*}} to %c1024 step %c256 {
// CHECK:               %[[R:.*]] = arith.divui %[[E]], %c16
// CHECK:               %[[CC:.*]] = arith.remui %[[E]], %c16
// CHECK:               %[[M:.*]] = arith.addi %{{.*}}, %[[R]] : index
// CHECK:               %[[K:.*]] = arith.addi %[[K0]], %[[CC]] : index
// CHECK:               arith.cmpi ult, %[[M]], %c5
// CHECK:               arith.cmpi ult, %[[K]], %c7
// CHECK:               memref.load %arg0[%[[K]], %[[M]]] : memref<7x5xf32>
// CHECK:             scf.for %[[EB:.*]] = %{{.*}} to %c1024 step %c256 {
// CHECK:               %[[RB:.*]] = arith.divui %[[EB]], %c64
// CHECK:               %[[CB:.*]] = arith.remui %[[EB]], %c64
// CHECK:               %[[KB:.*]] = arith.addi %[[K0]], %[[RB]] : index
// CHECK:               %[[N:.*]] = arith.addi %{{.*}}, %[[CB]] : index
// CHECK:               memref.load %arg1[%[[N]], %[[KB]]] : memref<3x7xf32>
#lhs = affine_map<(d0, d1, d2) -> (d2, d0)>
#rhs = affine_map<(d0, d1, d2) -> (d1, d2)>
#out = affine_map<(d0, d1, d2) -> (d0, d1)>
func.func @transposed_operands(%a: memref<7x5xf32>, %b: memref<3x7xf32>, %c: memref<5x3xf32>) {
  linalg.generic {indexing_maps = [#lhs, #rhs, #out], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<7x5xf32>, memref<3x7xf32>) outs(%c : memref<5x3xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %0 = arith.mulf %x, %y : f32
    %1 = arith.addf %acc, %0 : f32
    linalg.yield %1 : f32
  }
  return
}

// -----

// Edge shapes: a row vector times a matrix (1x2 blocks), a matrix times a
// column vector (2x1 blocks), k = 1 (one partial k tile).
// CHECK-LABEL: func.func @edges
// CHECK:         scf.forall (%{{.*}}, %{{.*}}) in (1, 2) {
// CHECK:           scf.for %{{.*}} = %c0 to %c40 step %c16 {
// CHECK:         scf.forall (%{{.*}}, %{{.*}}) in (2, 1) {
// CHECK:           scf.for %{{.*}} = %c0 to %c40 step %c16 {
// CHECK:         scf.forall (%{{.*}}, %{{.*}}) in (2, 2) {
// CHECK:           scf.for %{{.*}} = %c0 to %c1 step %c16 {
// CHECK-NOT:     linalg.matmul
func.func @edges(%row: memref<1x40xf32>, %w: memref<40x96xf32>, %o1: memref<1x96xf32>,
                 %a: memref<96x40xf32>, %col: memref<40x1xf32>, %o2: memref<96x1xf32>,
                 %k1a: memref<70x1xf32>, %k1b: memref<1x66xf32>, %o3: memref<70x66xf32>) {
  linalg.matmul ins(%row, %w : memref<1x40xf32>, memref<40x96xf32>) outs(%o1 : memref<1x96xf32>)
  linalg.matmul ins(%a, %col : memref<96x40xf32>, memref<40x1xf32>) outs(%o2 : memref<96x1xf32>)
  linalg.matmul ins(%k1a, %k1b : memref<70x1xf32>, memref<1x66xf32>) outs(%o3 : memref<70x66xf32>)
  return
}

// -----

// A batched lhs times a 2-d rhs: both m dimensions (d0, d1) form the GEMM's
// m, C is read as a 16x8 view, and the A copy splits its row index.
// CHECK-LABEL: func.func @lhs_batch
// CHECK:         %[[CV:.*]] = memref.collapse_shape %arg2 {{\[}}[0, 1], [2]] : memref<2x8x8xf32> into memref<16x8xf32>
// CHECK:         scf.forall (%{{.*}}, %{{.*}}) in (1, 1) {
// CHECK:           scf.for %{{.*}} = %c0 to %c16 step %c16 {
// CHECK:             scf.for %[[E:.*]] = %{{.*}} to %c1024 step %c256 {
// CHECK:               %[[R:.*]] = arith.divui %[[E]], %c16
// CHECK:               %[[CC:.*]] = arith.remui %[[E]], %c16
// CHECK:               %[[M:.*]] = arith.addi %{{.*}}, %[[R]] : index
// CHECK:               %[[K:.*]] = arith.addi %{{.*}}, %[[CC]] : index
// CHECK:               arith.cmpi ult, %[[M]], %c16
// CHECK:             scf.if
// CHECK:               %[[D1:.*]] = arith.remui %[[M]], %c8
// CHECK:               %[[D0:.*]] = arith.divui %[[M]], %c8
// CHECK:               memref.load %arg0[%[[D0]], %[[D1]], %[[K]]] : memref<2x8x16xf32>
// CHECK:           vector.maskedload %[[CV]]
#lhs = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>
#rhs = affine_map<(d0, d1, d2, d3) -> (d3, d2)>
#out = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
func.func @lhs_batch(%a3: memref<2x8x16xf32>, %b2: memref<16x8xf32>, %c3: memref<2x8x8xf32>) {
  linalg.generic {indexing_maps = [#lhs, #rhs, #out], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%a3, %b2 : memref<2x8x16xf32>, memref<16x8xf32>) outs(%c3 : memref<2x8x8xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %0 = arith.mulf %x, %y : f32
    %1 = arith.addf %acc, %0 : f32
    linalg.yield %1 : f32
  }
  return
}

// -----

// A convolution as an implicit GEMM: the image's batch on blocks' z, the
// 70 filters as m (2 blocks), the 8x6 output positions as n (one block),
// the 5x3x2 window as k (two k tiles). A is the filter, its k index split
// into (c, kh, kw); B gathers the input at (oh * 2 + kh, ow * 2 + kw * 2).
// CHECK-DAG:   #[[$IH:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d2 * 2 + d5)>
// CHECK-DAG:   #[[$IW:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d3 * 2 + d6 * 2)>
// CHECK-LABEL: func.func @conv
// CHECK:         %[[CV:.*]] = memref.collapse_shape %arg2 {{\[}}[0], [1], [2, 3]] : memref<2x70x8x6xf32> into memref<2x70x48xf32>
// CHECK:         scf.forall (%[[B:.*]], %{{.*}}, %{{.*}}) in (2, 2, 1) {
// CHECK:           scf.for %{{.*}} = %c0 to %c30 step %c16 {
// CHECK:             scf.if
// CHECK:               %[[KW:.*]] = arith.remui %[[K:.*]], %c2
// CHECK:               %[[CK:.*]] = arith.divui %[[K]], %c2
// CHECK:               %[[KH:.*]] = arith.remui %[[CK]], %c3
// CHECK:               %[[C:.*]] = arith.divui %[[CK]], %c3
// CHECK:               memref.load %arg1[%{{.*}}, %[[C]], %[[KH]], %[[KW]]] : memref<70x5x3x2xf32>
// CHECK:             scf.if
// CHECK:               %[[OW:.*]] = arith.remui %[[N:.*]], %c6
// CHECK:               %[[OH:.*]] = arith.divui %[[N]], %c6
// CHECK:               %[[Y:.*]] = affine.apply #[[$IH]](%[[B]], %c0, %[[OH]], %[[OW]], %{{.*}}, %{{.*}}, %{{.*}})
// CHECK:               %[[X:.*]] = affine.apply #[[$IW]](%[[B]], %c0, %[[OH]], %[[OW]], %{{.*}}, %{{.*}}, %{{.*}})
// CHECK:               memref.load %arg0[%[[B]], %{{.*}}, %[[Y]], %[[X]]] : memref<2x5x17x13xf32>
// CHECK:           vector.maskedload %[[CV]][%[[B]], %{{.*}}, %{{.*}}]
// CHECK:         } {mapping = [#gpu.block<z>, #gpu.block<y>, #gpu.block<x>]}
func.func @conv(%x: memref<2x5x17x13xf32>, %w: memref<70x5x3x2xf32>, %o: memref<2x70x8x6xf32>) {
  linalg.conv_2d_nchw_fchw {dilations = dense<[1, 2]> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%x, %w : memref<2x5x17x13xf32>, memref<70x5x3x2xf32>) outs(%o : memref<2x70x8x6xf32>)
  return
}

// -----

// Left to the one-thread-per-output mapping: an integer matmul, dynamic
// shapes, a bf16 product rounded to bf16 before the sum, an empty k loop, a
// matmul that writes what it reads, a matmul inside a row loop, a
// depthwise convolution (no output channels to be the m of a GEMM), and a
// matmul whose 65537 tiles of rows are more blocks than a grid's y allows.
// CHECK-LABEL: func.func @fallbacks
// CHECK-NOT:     #gpu.block
// CHECK:         linalg.matmul {{.*}} memref<8x16xi32>
// CHECK:         linalg.matmul {{.*}} memref<?x16xf32>
// CHECK:         linalg.generic
// CHECK:         linalg.matmul {{.*}} memref<8x0xf32>
// CHECK:         linalg.matmul ins(%{{.*}}, %[[SQ:.*]] : {{.*}}) outs(%[[SQ]] :
// CHECK:         scf.forall
// CHECK:           linalg.matmul {{.*}} outs(%{{.*}} : memref<8x8xf32>)
// CHECK:         linalg.depthwise_conv_2d_nchw_chw
// CHECK:         linalg.matmul {{.*}} memref<4194368x1xf32>
// CHECK-NOT:     #gpu.block
#a2 = affine_map<(d0, d1, d2) -> (d0, d2)>
#b2 = affine_map<(d0, d1, d2) -> (d2, d1)>
#c2 = affine_map<(d0, d1, d2) -> (d0, d1)>
func.func @fallbacks(%ai: memref<8x16xi32>, %bi: memref<16x8xi32>, %ci: memref<8x8xi32>,
                     %ad: memref<?x16xf32>, %bd: memref<16x8xf32>, %cd: memref<?x8xf32>,
                     %ah: memref<8x16xbf16>, %bh: memref<16x8xbf16>, %ch: memref<8x8xf32>,
                     %ra: memref<8x16xf32>, %rb: memref<16x8xf32>, %rc: memref<8x8xf32>,
                     %dx: memref<2x4x8x8xf32>, %dw: memref<4x3x3xf32>, %do: memref<2x4x6x6xf32>,
                     %tall: memref<4194368x1xf32>, %one: memref<1x1xf32>, %tallc: memref<4194368x1xf32>) {
  linalg.matmul ins(%ai, %bi : memref<8x16xi32>, memref<16x8xi32>) outs(%ci : memref<8x8xi32>)
  linalg.matmul ins(%ad, %bd : memref<?x16xf32>, memref<16x8xf32>) outs(%cd : memref<?x8xf32>)
  linalg.generic {indexing_maps = [#a2, #b2, #c2], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%ah, %bh : memref<8x16xbf16>, memref<16x8xbf16>) outs(%ch : memref<8x8xf32>) {
  ^bb0(%x: bf16, %y: bf16, %acc: f32):
    %0 = arith.mulf %x, %y : bf16
    %1 = arith.extf %0 : bf16 to f32
    %2 = arith.addf %acc, %1 : f32
    linalg.yield %2 : f32
  }
  %e0 = memref.alloc() : memref<8x0xf32>
  %e1 = memref.alloc() : memref<0x8xf32>
  linalg.matmul ins(%e0, %e1 : memref<8x0xf32>, memref<0x8xf32>) outs(%ch : memref<8x8xf32>)
  linalg.matmul ins(%ch, %ch : memref<8x8xf32>, memref<8x8xf32>) outs(%ch : memref<8x8xf32>)
  scf.forall (%i) in (2) {
    linalg.matmul ins(%ra, %rb : memref<8x16xf32>, memref<16x8xf32>) outs(%rc : memref<8x8xf32>)
  }
  linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%dx, %dw : memref<2x4x8x8xf32>, memref<4x3x3xf32>) outs(%do : memref<2x4x6x6xf32>)
  linalg.matmul ins(%tall, %one : memref<4194368x1xf32>, memref<1x1xf32>) outs(%tallc : memref<4194368x1xf32>)
  return
}
