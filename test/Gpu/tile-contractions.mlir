// RUN: rlx-opt %s --rlx-gpu-tile-contractions --split-input-file --verify-diagnostics | FileCheck %s
// RUN: rlx-opt %s --rlx-gpu-tile-contractions="tile-m=32 tile-n=16 tile-k=8 thread-tile-m=2 thread-tile-n=2 workgroup-memory=false" --split-input-file | FileCheck %s --check-prefix=SMALL

func.func @matmul(%a: memref<128x96xf32>, %b: memref<96x64xf32>, %c: memref<128x64xf32>) {
  linalg.matmul ins(%a, %b : memref<128x96xf32>, memref<96x64xf32>) outs(%c : memref<128x64xf32>)
  return
}

// -----

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

func.func @edges(%row: memref<1x40xf32>, %w: memref<40x96xf32>, %o1: memref<1x96xf32>,
                 %a: memref<96x40xf32>, %col: memref<40x1xf32>, %o2: memref<96x1xf32>,
                 %k1a: memref<70x1xf32>, %k1b: memref<1x66xf32>, %o3: memref<70x66xf32>) {
  linalg.matmul ins(%row, %w : memref<1x40xf32>, memref<40x96xf32>) outs(%o1 : memref<1x96xf32>)
  linalg.matmul ins(%a, %col : memref<96x40xf32>, memref<40x1xf32>) outs(%o2 : memref<96x1xf32>)
  linalg.matmul ins(%k1a, %k1b : memref<70x1xf32>, memref<1x66xf32>) outs(%o3 : memref<70x66xf32>)
  return
}

// -----

#lhs = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>
#rhs = affine_map<(d0, d1, d2, d3) -> (d3, d2)>
#out = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
func.func @fallbacks(%ai: memref<8x16xi32>, %bi: memref<16x8xi32>, %ci: memref<8x8xi32>,
                     %a3: memref<2x8x16xf32>, %b2: memref<16x8xf32>, %c3: memref<2x8x8xf32>,
                     %ad: memref<?x16xf32>, %bd: memref<16x8xf32>, %cd: memref<?x8xf32>) {
  linalg.matmul ins(%ai, %bi : memref<8x16xi32>, memref<16x8xi32>) outs(%ci : memref<8x8xi32>)
  linalg.generic {indexing_maps = [#lhs, #rhs, #out], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%a3, %b2 : memref<2x8x16xf32>, memref<16x8xf32>) outs(%c3 : memref<2x8x8xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %0 = arith.mulf %x, %y : f32
    %1 = arith.addf %acc, %0 : f32
    linalg.yield %1 : f32
  }
  linalg.matmul ins(%ad, %bd : memref<?x16xf32>, memref<16x8xf32>) outs(%cd : memref<?x8xf32>)
  return
}
