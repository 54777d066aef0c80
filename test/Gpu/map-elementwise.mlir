// RUN: rlx-opt %s --rlx-map-to-gpu --canonicalize --split-input-file | FileCheck %s
// RUN: rlx-opt %s --rlx-map-to-gpu="max-blocks=64" --canonicalize --split-input-file | FileCheck %s --check-prefix=BOUNDED
// RUN: rlx-opt %s --rlx-map-to-gpu="vectorize=false" --canonicalize --split-input-file | FileCheck %s --check-prefix=SCALAR

// 1030 contiguous elements: 257 vectors of 4, then a scalar loop over the
// last 2 elements on the same grid.
// CHECK-LABEL: func.func @remainder
// CHECK:         gpu.launch blocks(%[[BX:[^,]*]], {{.*}}) in (%{{.*}} = %c2, {{.*}}) threads(%[[TX:[^,]*]], {{.*}}) in (%{{.*}} = %c256,
// CHECK:           %[[FIRST:.*]] = arith.addi
// CHECK:           scf.for %[[I:.*]] = %[[FIRST]] to %c257 step %c512 {
// CHECK:             %[[E:.*]] = arith.muli %[[I]], %c4
// CHECK:             vector.load %arg0[%[[E]]] {alignment = 16 : i64} : memref<1030xf32>, vector<4xf32>
// CHECK:             math.exp %{{.*}} : vector<4xf32>
// CHECK:             vector.store %{{.*}}, %arg1[%[[E]]] {alignment = 16 : i64}
// CHECK:           %[[TAIL:.*]] = arith.addi %[[FIRST]], %c1028
// CHECK:           scf.for %[[J:.*]] = %[[TAIL]] to %c1030 step %c512 {
// CHECK:             memref.load %arg0[%[[J]]] : memref<1030xf32>
// CHECK:             math.exp %{{.*}} : f32
// CHECK:             memref.store %{{.*}}, %arg1[%[[J]]]
// SCALAR-LABEL: func.func @remainder
// SCALAR:         gpu.launch blocks({{.*}}) in (%{{.*}} = %c5, {{.*}}) threads({{.*}}) in (%{{.*}} = %c256,
// SCALAR-NOT:       vector.
// SCALAR:           scf.for %{{.*}} = %{{.*}} to %c1030 step %c1280 {
// SCALAR:             memref.load %arg0
// SCALAR-NOT:     scf.for
// SCALAR:         return
#id1 = affine_map<(d0) -> (d0)>
func.func @remainder(%x: memref<1030xf32>, %o: memref<1030xf32>) {
  linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]}
      ins(%x : memref<1030xf32>) outs(%o : memref<1030xf32>) {
  ^bb0(%a: f32, %b: f32):
    %0 = math.exp %a : f32
    linalg.yield %0 : f32
  }
  return
}

// -----

// Rows of 5 elements: vectors would span rows, which contiguous operands
// allow, so the op runs as 15 elements in one dimension.
// CHECK-LABEL: func.func @flat
// CHECK:         gpu.launch
// CHECK-DAG:       %[[X:.*]] = memref.collapse_shape %arg0 {{\[}}[0, 1]] : memref<3x5xf32> into memref<15xf32>
// CHECK-DAG:       %[[O:.*]] = memref.collapse_shape %arg1 {{\[}}[0, 1]] : memref<3x5xf32> into memref<15xf32>
// CHECK:           scf.for %{{.*}} = %{{.*}} to %c3 step %c3 {
// CHECK:             vector.load %[[X]]
// CHECK:             vector.store %{{.*}}, %[[O]]
// CHECK:           scf.for %[[J:.*]] = %{{.*}} to %c15 step %c3 {
// CHECK:             %[[P:.*]]:2 = affine.delinearize_index %[[J]] into (3, 5)
// CHECK:             memref.load %arg0[%[[P]]#0, %[[P]]#1]
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @flat(%x: memref<3x5xf32>, %o: memref<3x5xf32>) {
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<3x5xf32>) outs(%o : memref<3x5xf32>) {
  ^bb0(%a: f32, %b: f32):
    %0 = arith.negf %a : f32
    linalg.yield %0 : f32
  }
  return
}

// -----

// f16 goes 8 to a vector. A value per row (along the innermost dimension,
// constant) is loaded once and broadcast; the f32 result makes the vectors
// 4 wide, so the f16 loads are 8 bytes.
// CHECK-LABEL: func.func @halves
// CHECK:           vector.load %arg0[{{.*}}] {alignment = 16 : i64} : memref<16x64xf16>, vector<8xf16>
// CHECK:           vector.load %arg1[{{.*}}] {alignment = 16 : i64} : memref<16x64xf16>, vector<8xf16>
// CHECK:           arith.addf %{{.*}} : vector<8xf16>
// CHECK-LABEL: func.func @row_scale
// CHECK:           %[[P:.*]]:2 = affine.delinearize_index %{{.*}} into (16, 64)
// CHECK:           %[[X:.*]] = vector.load %arg0[%[[P]]#0, %[[P]]#1] {alignment = 8 : i64} : memref<16x64xf16>, vector<4xf16>
// CHECK:           %[[S:.*]] = memref.load %arg1[%[[P]]#0] : memref<16xf32>
// CHECK:           %[[E:.*]] = arith.extf %[[X]] : vector<4xf16> to vector<4xf32>
// CHECK:           %[[B:.*]] = vector.broadcast %[[S]] : f32 to vector<4xf32>
// CHECK:           arith.mulf %[[E]], %[[B]] : vector<4xf32>
// CHECK:           vector.store %{{.*}}, %arg2[%[[P]]#0, %[[P]]#1] {alignment = 16 : i64} : memref<16x64xf32>, vector<4xf32>
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @halves(%x: memref<16x64xf16>, %y: memref<16x64xf16>, %o: memref<16x64xf16>) {
  linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %y : memref<16x64xf16>, memref<16x64xf16>) outs(%o : memref<16x64xf16>) {
  ^bb0(%a: f16, %b: f16, %c: f16):
    %0 = arith.addf %a, %b : f16
    linalg.yield %0 : f16
  }
  return
}
func.func @row_scale(%x: memref<16x64xf16>, %s: memref<16xf32>, %o: memref<16x64xf32>) {
  linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %s : memref<16x64xf16>, memref<16xf32>) outs(%o : memref<16x64xf32>) {
  ^bb0(%a: f16, %b: f32, %c: f32):
    %0 = arith.extf %a : f16 to f32
    %1 = arith.mulf %0, %b : f32
    linalg.yield %1 : f32
  }
  return
}

// -----

// A transposed operand is not contiguous along the innermost dimension: a
// scalar grid-stride loop.
// CHECK-LABEL: func.func @transpose
// CHECK-NOT:       vector.
// CHECK:           scf.for %[[I:.*]] = %{{.*}} to %c2048 step %c2048 {
// CHECK:             %[[P:.*]]:2 = affine.delinearize_index %[[I]] into (32, 64)
// CHECK:             memref.load %arg0[%[[P]]#1, %[[P]]#0] : memref<64x32xf32>
// CHECK:             memref.store %{{.*}}, %arg1[%[[P]]#0, %[[P]]#1]
#id = affine_map<(d0, d1) -> (d0, d1)>
#t = affine_map<(d0, d1) -> (d1, d0)>
func.func @transpose(%x: memref<64x32xf32>, %o: memref<32x64xf32>) {
  linalg.generic {indexing_maps = [#t, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<64x32xf32>) outs(%o : memref<32x64xf32>) {
  ^bb0(%a: f32, %b: f32):
    linalg.yield %a : f32
  }
  return
}

// -----

// The grid is bounded: 2^20 elements are 262144 vectors, 1024 blocks of
// 256 threads by default, 64 with max-blocks=64, each thread striding by
// the grid's 16384 threads.
// CHECK-LABEL: func.func @large
// CHECK:         gpu.launch blocks({{.*}}) in (%{{.*}} = %c1024, {{.*}}) threads({{.*}}) in (%{{.*}} = %c256,
// CHECK:           scf.for %{{.*}} = %{{.*}} to %c262144 step %c262144 {
// BOUNDED-LABEL: func.func @large
// BOUNDED:         gpu.launch blocks({{.*}}) in (%{{.*}} = %c64, {{.*}}) threads({{.*}}) in (%{{.*}} = %c256,
// BOUNDED:           scf.for %{{.*}} = %{{.*}} to %c262144 step %c16384 {
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @large(%x: memref<1024x1024xf32>, %o: memref<1024x1024xf32>) {
  %c = arith.constant 2.0 : f32
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<1024x1024xf32>) outs(%o : memref<1024x1024xf32>) {
  ^bb0(%a: f32, %b: f32):
    %0 = arith.mulf %a, %c : f32
    linalg.yield %0 : f32
  }
  return
}
