// RUN: rlx-opt %s --rlx-strided-copy-to-linalg | FileCheck %s

// Copies the LLVM lowering makes a memcpy stay memref.copy: identity
// layouts, and views that are one contiguous run (unit dimensions' strides
// do not matter). Others, which it would lower to a call of the runner
// utilities' memrefCopy (not linked into modules), become linalg.copy.
// CHECK-LABEL: func.func @copies
// CHECK:         memref.copy %{{.*}}, %{{.*}} : memref<4x8xf32> to memref<4x8xf32>
// CHECK:         memref.copy %{{.*}}, %{{.*}} : memref<1x1x32xf32, strided<[2048, 32, 1], offset: ?>> to memref<1x1x32xf32, strided<[8192, 32, 1], offset: ?>>
// CHECK:         linalg.copy ins(%{{.*}} : memref<4x1xf32, strided<[8, 1], offset: 3>>) outs(%{{.*}} : memref<4x1xf32>)
// CHECK:         linalg.copy ins(%{{.*}} : memref<?x8xf32, strided<[16, 1]>>) outs(%{{.*}} : memref<?x8xf32>)
// CHECK-NOT:     memref.copy
// CHECK:         return
func.func @copies(%a: memref<4x8xf32>, %b: memref<4x8xf32>,
                  %u: memref<1x1x32xf32, strided<[2048, 32, 1], offset: ?>>,
                  %v: memref<1x1x32xf32, strided<[8192, 32, 1], offset: ?>>,
                  %col: memref<4x1xf32>, %d: memref<?x8xf32, strided<[16, 1]>>,
                  %e: memref<?x8xf32>) {
  memref.copy %a, %b : memref<4x8xf32> to memref<4x8xf32>
  memref.copy %u, %v : memref<1x1x32xf32, strided<[2048, 32, 1], offset: ?>> to memref<1x1x32xf32, strided<[8192, 32, 1], offset: ?>>
  %c = memref.subview %a[0, 3] [4, 1] [1, 1] : memref<4x8xf32> to memref<4x1xf32, strided<[8, 1], offset: 3>>
  memref.copy %c, %col : memref<4x1xf32, strided<[8, 1], offset: 3>> to memref<4x1xf32>
  memref.copy %d, %e : memref<?x8xf32, strided<[16, 1]>> to memref<?x8xf32>
  return
}
