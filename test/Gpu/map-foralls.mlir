// RUN: rlx-opt %s --rlx-gpu-tile-contractions --rlx-gpu-map-foralls --canonicalize --cse --split-input-file --verify-diagnostics | FileCheck %s
// RUN: rlx-opt %s --rlx-gpu-tile-contractions="tensor-cores" --rlx-gpu-map-foralls --canonicalize --cse --split-input-file --verify-diagnostics | FileCheck %s --check-prefix=MMA

// The tiled matmul as a kernel: a 2x2 grid of 16x16 threads, the operand
// tiles as workgroup attributions, a barrier after each thread loop (copy
// A, copy B, accumulate), and each thread's four accumulator rows read
// before the k loop, carried by it, and written after it.
// CHECK-LABEL: func.func @matmul
// CHECK-SAME:      (%[[A:.*]]: memref<100x37xf32>, %[[B:.*]]: memref<37x70xf32>, %[[C:.*]]: memref<100x70xf32>)
// CHECK:         gpu.launch blocks(%[[BX:.*]], %[[BY:.*]], %{{.*}}) in (%{{.*}} = %c2, %{{.*}} = %c2, %{{.*}} = %c1) threads(%{{.*}}, %{{.*}}, %{{.*}}) in (%{{.*}} = %c16, %{{.*}} = %c16, %{{.*}} = %c1) workgroup(%[[AT:.*]] : memref<16x64xf32, #gpu.address_space<workgroup>>, %[[BT:.*]] : memref<16x64xf32, #gpu.address_space<workgroup>>) {
// CHECK:           arith.muli %[[BY]], %c64
// CHECK:           arith.muli %[[BX]], %c64
// CHECK-DAG:       gpu.thread_id x
// CHECK-DAG:       gpu.thread_id y
// CHECK-COUNT-4:   vector.maskedload %[[C]]
// CHECK:           %[[ACC:.*]]:4 = scf.for %{{.*}} = %c0 to %c37 step %c16 iter_args({{.*}}) -> (vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>) {
// CHECK:             scf.for
// CHECK:               memref.load %[[A]]
// CHECK:               memref.store %{{.*}}, %[[AT]]
// CHECK:             gpu.barrier
// CHECK:             scf.for
// CHECK:               memref.load %[[B]]
// CHECK:               memref.store %{{.*}}, %[[BT]]
// CHECK:             gpu.barrier
// CHECK:             scf.for {{.*}} iter_args
// CHECK:               vector.load %[[BT]]
// CHECK-NOT:           vector.maskedload
// CHECK:             gpu.barrier
// CHECK:             scf.yield
// CHECK:           }
// CHECK:           vector.maskedstore %[[C]]{{.*}}, %[[ACC]]#0
// CHECK:           vector.maskedstore %[[C]]{{.*}}, %[[ACC]]#1
// CHECK:           vector.maskedstore %[[C]]{{.*}}, %[[ACC]]#2
// CHECK:           vector.maskedstore %[[C]]{{.*}}, %[[ACC]]#3
// CHECK-NEXT:      gpu.terminator
// CHECK-NOT:     scf.forall
// An f32 matmul stays on the SIMT kernel with tensor cores.
// MMA-LABEL: func.func @matmul
// MMA-NOT:       nvgpu.mma.sync
// MMA:           vector.maskedstore
func.func @matmul(%a: memref<100x37xf32>, %b: memref<37x70xf32>, %c: memref<100x70xf32>) {
  linalg.matmul ins(%a, %b : memref<100x37xf32>, memref<37x70xf32>) outs(%c : memref<100x70xf32>)
  return
}

// -----

// bf16 with tensor cores: the same kernel, its ldmatrix ops loading bf16
// fragments, and each mma as nvvm.mma.sync with bf16 multiplicands, which
// take each row of two bf16 of a fragment as one i32 register (upstream's
// convert-nvgpu-to-nvvm has no bf16 mma.sync). No f16 view or value is
// left.
// MMA-LABEL: func.func @mma_bf16
// MMA:         gpu.launch {{.*}} threads({{.*}}) in (%{{.*}} = %c128, %{{.*}} = %c1, %{{.*}} = %c1) workgroup(%[[AT:.*]] : memref<64x16xbf16, #gpu.address_space<workgroup>>, %[[BT:.*]] : memref<16x64xbf16, #gpu.address_space<workgroup>>) {
// MMA-COUNT-16:  vector.load %arg2{{.*}} : memref<128x64xf32>, vector<2xf32>
// MMA:           %[[ACC:.*]]:16 = scf.for %{{.*}} = %c0 to %c48 step %c16 iter_args
// MMA:             gpu.barrier
// MMA:             gpu.barrier
// MMA-NOT:         {{xf16|: f16|unrealized_conversion_cast}}
// MMA:             %[[A:.*]] = nvgpu.ldmatrix %[[AT]]{{.*}} {numTiles = 4 : i32, transpose = false} : memref<64x16xbf16, #gpu.address_space<workgroup>> -> vector<4x2xbf16>
// MMA:             %[[B:.*]] = nvgpu.ldmatrix %[[BT]]{{.*}} {numTiles = 2 : i32, transpose = true} : memref<16x64xbf16, #gpu.address_space<workgroup>> -> vector<2x2xbf16>
// MMA:             %[[A0:.*]] = vector.extract %[[A]][0] : vector<2xbf16> from vector<4x2xbf16>
// MMA:             %[[A0W:.*]] = vector.bitcast %[[A0]] : vector<2xbf16> to vector<1xi32>
// MMA:             %[[A0R:.*]] = vector.extract %[[A0W]][0] : i32 from vector<1xi32>
// MMA:             %[[B0:.*]] = vector.extract %[[B]][0] : vector<2xbf16> from vector<2x2xbf16>
// MMA:             %[[B0W:.*]] = vector.bitcast %[[B0]] : vector<2xbf16> to vector<1xi32>
// MMA:             %[[B0R:.*]] = vector.extract %[[B0W]][0] : i32 from vector<1xi32>
// MMA:             nvvm.mma.sync A[%[[A0R]], %{{.*}}, %{{.*}}, %{{.*}}]  B[%[[B0R]], %{{.*}}]  C[%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}]  {layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>, multiplicandAPtxType = #nvvm.mma_type<bf16>, multiplicandBPtxType = #nvvm.mma_type<bf16>, shape = #nvvm.shape<m = 16, n = 8, k = 16>} : (i32, i32, f32) -> !llvm.struct<(f32, f32, f32, f32)>
// MMA-COUNT-7:     nvvm.mma.sync {{.*}} {layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>, multiplicandAPtxType = #nvvm.mma_type<bf16>, multiplicandBPtxType = #nvvm.mma_type<bf16>, shape = #nvvm.shape<m = 16, n = 8, k = 16>} : (i32, i32, f32) -> !llvm.struct<(f32, f32, f32, f32)>
// MMA-NOT:         {{xf16|nvgpu.mma.sync|unrealized_conversion_cast}}
// MMA:             gpu.barrier
// MMA:           }
// MMA-COUNT-16:  vector.store %[[ACC]]#{{[0-9]+}}, %arg2
// MMA-NOT:       {{vector.contract|xf16|unrealized_conversion_cast}}
func.func @mma_bf16(%a: memref<128x48xbf16>, %b: memref<48x64xbf16>, %c: memref<128x64xf32>) {
  linalg.matmul ins(%a, %b : memref<128x48xbf16>, memref<48x64xbf16>) outs(%c : memref<128x64xf32>)
  return
}

// -----

// With tensor cores: 128 threads (4 warps), the warp tiles loaded with
// ldmatrix (A, and B transposed) and multiplied with mma.sync m16n8k16; each
// lane's parts of its warp's eight 16x8 tiles of C (two vector<2xf32> per
// tile) are read before the k loop and written after it.
// MMA-LABEL: func.func @mma
// MMA:         gpu.launch blocks({{.*}}) in (%{{.*}} = %c1, %{{.*}} = %c2, %{{.*}} = %c1) threads({{.*}}) in (%{{.*}} = %c128, %{{.*}} = %c1, %{{.*}} = %c1) workgroup(%[[AT:.*]] : memref<64x16xf16, #gpu.address_space<workgroup>>, %[[BT:.*]] : memref<16x64xf16, #gpu.address_space<workgroup>>) {
// MMA:           gpu.lane_id
// MMA-COUNT-16:  vector.load %arg2{{.*}} : memref<128x64xf32>, vector<2xf32>
// MMA:           %[[ACC:.*]]:16 = scf.for %{{.*}} = %c0 to %c48 step %c16 iter_args
// MMA:             gpu.barrier
// MMA:             gpu.barrier
// MMA-DAG:         nvgpu.ldmatrix %[[AT]]{{.*}} {numTiles = 4 : i32, transpose = false}
// MMA-DAG:         nvgpu.ldmatrix %[[AT]]{{.*}} {numTiles = 4 : i32, transpose = false}
// MMA-DAG:         nvgpu.ldmatrix %[[BT]]{{.*}} {numTiles = 2 : i32, transpose = true}
// MMA-DAG:         nvgpu.ldmatrix %[[BT]]{{.*}} {numTiles = 2 : i32, transpose = true}
// MMA-DAG:         nvgpu.ldmatrix %[[BT]]{{.*}} {numTiles = 2 : i32, transpose = true}
// MMA-DAG:         nvgpu.ldmatrix %[[BT]]{{.*}} {numTiles = 2 : i32, transpose = true}
// MMA-DAG:         nvgpu.mma.sync({{.*}}) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
// MMA-DAG:         nvgpu.mma.sync({{.*}}) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
// MMA-DAG:         nvgpu.mma.sync({{.*}}) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
// MMA-DAG:         nvgpu.mma.sync({{.*}}) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
// MMA-DAG:         nvgpu.mma.sync({{.*}}) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
// MMA-DAG:         nvgpu.mma.sync({{.*}}) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
// MMA-DAG:         nvgpu.mma.sync({{.*}}) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
// MMA-DAG:         nvgpu.mma.sync({{.*}}) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
// MMA:             gpu.barrier
// MMA:           }
// MMA-COUNT-16:  vector.store %[[ACC]]#{{[0-9]+}}, %arg2
// MMA-NOT:       vector.contract
func.func @mma(%a: memref<128x48xf16>, %b: memref<48x64xf16>, %c: memref<128x64xf32>) {
  linalg.matmul ins(%a, %b : memref<128x48xf16>, memref<48x64xf16>) outs(%c : memref<128x64xf32>)
  return
}

// -----

func.func @dynamic_grid(%n: index, %m: memref<?xf32>) {
  %zero = arith.constant 0.0 : f32
  // expected-error @+1 {{a block loop needs static bounds and thread loops with static bounds mapped to threads x, y or z}}
  scf.forall (%i) in (%n) {
    memref.store %zero, %m[%i] : memref<?xf32>
  } {mapping = [#gpu.block<x>]}
  return
}

// -----

func.func @conflicting_thread_mapping(%m: memref<64xf32>) {
  %zero = arith.constant 0.0 : f32
  // expected-error @+1 {{cannot map the thread loops of this kernel}}
  scf.forall (%b) in (1) {
    // expected-error @+1 {{duplicate attribute, cannot map different loops to the same mapping id}}
    scf.forall (%i, %j) in (8, 8) {
      memref.store %zero, %m[%i] : memref<64xf32>
    } {mapping = [#gpu.thread<x>, #gpu.thread<x>]}
  } {mapping = [#gpu.block<x>]}
  return
}

// -----

// A warp-level contraction that is not a matmul of 2-d tiles: upstream's
// conversion leaves it, and the kernel cannot be compiled.
#ma = affine_map<(b, m, n, k) -> (b, m, k)>
#mb = affine_map<(b, m, n, k) -> (b, k, n)>
#mc = affine_map<(b, m, n, k) -> (b, m, n)>
func.func @unconvertible_warp_loop(%a: memref<2x16x16xf16>, %c: memref<2x16x16xf32>) {
  %zero = arith.constant 0.0 : f16
  %zerof = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  scf.forall (%b) in (1) {
    scf.forall (%t) in (32) {
      memref.store %zerof, %c[%c0, %c0, %t] : memref<2x16x16xf32>
    } {mapping = [#gpu.thread<x>]}
    // expected-error @+1 {{cannot convert this warp loop to mma.sync}}
    scf.forall (%w) in (1) {
      %x = vector.transfer_read %a[%c0, %c0, %c0], %zero {in_bounds = [true, true, true]} : memref<2x16x16xf16>, vector<2x16x16xf16>
      %y = vector.transfer_read %c[%c0, %c0, %c0], %zerof {in_bounds = [true, true, true]} : memref<2x16x16xf32>, vector<2x16x16xf32>
      %r = vector.contract {indexing_maps = [#ma, #mb, #mc], iterator_types = ["parallel", "parallel", "parallel", "reduction"], kind = #vector.kind<add>} %x, %x, %y : vector<2x16x16xf16>, vector<2x16x16xf16> into vector<2x16x16xf32>
      vector.transfer_write %r, %c[%c0, %c0, %c0] {in_bounds = [true, true, true]} : vector<2x16x16xf32>, memref<2x16x16xf32>
    } {mapping = [#gpu.warp<x>]}
  } {mapping = [#gpu.block<x>]}
  return
}

// -----

// bf16 operands not in workgroup memory: upstream loads them without
// ldmatrix, through the f16 views, which cannot become bf16 fragments: the
// kernel is refused, never computed as f16.
#ma2 = affine_map<(m, n, k) -> (m, k)>
#mb2 = affine_map<(m, n, k) -> (k, n)>
#mc2 = affine_map<(m, n, k) -> (m, n)>
func.func @bf16_warp_loop_without_ldmatrix(%a: memref<16x16xbf16>, %b: memref<16x8xbf16>, %c: memref<16x8xf32>) {
  %zero = arith.constant 0.0 : bf16
  %zerof = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  scf.forall (%i) in (1) {
    // expected-error @+1 {{cannot convert this warp loop to mma.sync}}
    scf.forall (%w) in (1) {
      %x = vector.transfer_read %a[%c0, %c0], %zero {in_bounds = [true, true]} : memref<16x16xbf16>, vector<16x16xbf16>
      %y = vector.transfer_read %b[%c0, %c0], %zero {in_bounds = [true, true]} : memref<16x8xbf16>, vector<16x8xbf16>
      %acc = vector.transfer_read %c[%c0, %c0], %zerof {in_bounds = [true, true]} : memref<16x8xf32>, vector<16x8xf32>
      %r = vector.contract {indexing_maps = [#ma2, #mb2, #mc2], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %x, %y, %acc : vector<16x16xbf16>, vector<16x8xbf16> into vector<16x8xf32>
      vector.transfer_write %r, %c[%c0, %c0] {in_bounds = [true, true]} : vector<16x8xf32>, memref<16x8xf32>
    } {mapping = [#gpu.warp<x>]}
  } {mapping = [#gpu.block<x>]}
  return
}
