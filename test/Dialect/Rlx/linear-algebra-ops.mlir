// RUN: rlx-opt %s | rlx-opt | FileCheck %s
// RUN: rlx-opt %s --mlir-print-op-generic | rlx-opt | FileCheck %s

// CHECK-LABEL: func.func @cholesky(
// CHECK:         rlx.cholesky %{{.*}} : tensor<?x5x5xf64> -> tensor<?x5x5xf64>
// CHECK:         rlx.cholesky %{{.*}} : tensor<?x?xf32> -> tensor<?x?xf32>
func.func @cholesky(%a: tensor<?x5x5xf64>, %b: tensor<?x?xf32>) -> (tensor<?x5x5xf64>, tensor<?x?xf32>) {
  %l = rlx.cholesky %a : tensor<?x5x5xf64> -> tensor<?x5x5xf64>
  %m = rlx.cholesky %b : tensor<?x?xf32> -> tensor<?x?xf32>
  return %l, %m : tensor<?x5x5xf64>, tensor<?x?xf32>
}

// Every attribute combination; `?` sizes; zero right-hand sides and a
// 0 x 0 system.
// CHECK-LABEL: func.func @triangular_solve(
// CHECK:         rlx.triangular_solve lower %{{.*}}, %{{.*}} : tensor<2x4x4xf32>, tensor<2x4x3xf32> -> tensor<2x4x3xf32>
// CHECK:         rlx.triangular_solve upper %{{.*}}, %{{.*}} transpose : tensor<2x4x4xf32>, tensor<2x4x3xf32> -> tensor<2x4x3xf32>
// CHECK:         rlx.triangular_solve lower %{{.*}}, %{{.*}} transpose unit_diagonal : tensor<2x4x4xf32>, tensor<2x4x3xf32> -> tensor<2x4x3xf32>
// CHECK:         rlx.triangular_solve upper %{{.*}}, %{{.*}} unit_diagonal : tensor<?x?xf64>, tensor<?x0xf64> -> tensor<?x0xf64>
// CHECK:         rlx.triangular_solve lower %{{.*}}, %{{.*}} : tensor<0x0xf64>, tensor<0x2xf64> -> tensor<0x2xf64>
func.func @triangular_solve(%a: tensor<2x4x4xf32>, %b: tensor<2x4x3xf32>, %c: tensor<?x?xf64>, %d: tensor<?x0xf64>, %e: tensor<0x0xf64>, %f: tensor<0x2xf64>) {
  %0 = rlx.triangular_solve lower %a, %b : tensor<2x4x4xf32>, tensor<2x4x3xf32> -> tensor<2x4x3xf32>
  %1 = rlx.triangular_solve upper %a, %b transpose : tensor<2x4x4xf32>, tensor<2x4x3xf32> -> tensor<2x4x3xf32>
  %2 = rlx.triangular_solve lower %a, %b transpose unit_diagonal : tensor<2x4x4xf32>, tensor<2x4x3xf32> -> tensor<2x4x3xf32>
  %3 = rlx.triangular_solve upper %c, %d unit_diagonal : tensor<?x?xf64>, tensor<?x0xf64> -> tensor<?x0xf64>
  %4 = rlx.triangular_solve lower %e, %f : tensor<0x0xf64>, tensor<0x2xf64> -> tensor<0x2xf64>
  return
}

// CHECK-LABEL: func.func @solve(
// CHECK:         rlx.solve %{{.*}}, %{{.*}} : tensor<?x?x8x8xf32>, tensor<?x?x8x1xf32> -> tensor<?x?x8x1xf32>
func.func @solve(%a: tensor<?x?x8x8xf32>, %b: tensor<?x?x8x1xf32>) -> tensor<?x?x8x1xf32> {
  %x = rlx.solve %a, %b : tensor<?x?x8x8xf32>, tensor<?x?x8x1xf32> -> tensor<?x?x8x1xf32>
  return %x : tensor<?x?x8x1xf32>
}

// One number per matrix: a batch, or a 0-D result for one matrix.
// CHECK-LABEL: func.func @determinants(
// CHECK:         rlx.det %{{.*}} : tensor<4x3x3xf64> -> tensor<4xf64>
// CHECK:         rlx.logdet %{{.*}} : tensor<?x?xf32> -> tensor<f32>, tensor<f32>
func.func @determinants(%a: tensor<4x3x3xf64>, %b: tensor<?x?xf32>) -> (tensor<4xf64>, tensor<f32>, tensor<f32>) {
  %d = rlx.det %a : tensor<4x3x3xf64> -> tensor<4xf64>
  %sign, %logabsdet = rlx.logdet %b : tensor<?x?xf32> -> tensor<f32>, tensor<f32>
  return %d, %sign, %logabsdet : tensor<4xf64>, tensor<f32>, tensor<f32>
}

// CHECK-LABEL: func.func @decompositions(
// CHECK:         rlx.eigh %{{.*}} : tensor<?x6x6xf64> -> tensor<?x6xf64>, tensor<?x6x6xf64>
// CHECK:         rlx.qr %{{.*}} : tensor<2x7x3xf32> -> tensor<2x7x3xf32>, tensor<2x3x3xf32>
// CHECK:         rlx.qr %{{.*}} : tensor<3x5xf64> -> tensor<3x3xf64>, tensor<3x5xf64>
// CHECK:         rlx.svd %{{.*}} : tensor<2x7x3xf32> -> tensor<2x7x3xf32>, tensor<2x3xf32>, tensor<2x3x3xf32>
// CHECK:         rlx.svd %{{.*}} : tensor<?x5x5xf64> -> tensor<?x5x5xf64>, tensor<?x5xf64>, tensor<?x5x5xf64>
func.func @decompositions(%a: tensor<?x6x6xf64>, %b: tensor<2x7x3xf32>, %c: tensor<3x5xf64>, %d: tensor<?x5x5xf64>) {
  %l, %v = rlx.eigh %a : tensor<?x6x6xf64> -> tensor<?x6xf64>, tensor<?x6x6xf64>
  %q, %r = rlx.qr %b : tensor<2x7x3xf32> -> tensor<2x7x3xf32>, tensor<2x3x3xf32>
  %q2, %r2 = rlx.qr %c : tensor<3x5xf64> -> tensor<3x3xf64>, tensor<3x5xf64>
  %u, %s, %vh = rlx.svd %b : tensor<2x7x3xf32> -> tensor<2x7x3xf32>, tensor<2x3xf32>, tensor<2x3x3xf32>
  %u2, %s2, %vh2 = rlx.svd %d : tensor<?x5x5xf64> -> tensor<?x5x5xf64>, tensor<?x5xf64>, tensor<?x5x5xf64>
  return
}

// CHECK-LABEL: func.func @matrix_functions(
// CHECK:         rlx.expm %{{.*}} : tensor<?x4x4xf32>
// CHECK:         rlx.logm %{{.*}} : tensor<?x4x4xf32>
// CHECK:         rlx.sqrtm %{{.*}} : tensor<4x4xf64>
// CHECK:         rlx.invsqrtm %{{.*}} : tensor<?x?xf64>
func.func @matrix_functions(%a: tensor<?x4x4xf32>, %b: tensor<4x4xf64>, %c: tensor<?x?xf64>) {
  %0 = rlx.expm %a : tensor<?x4x4xf32>
  %1 = rlx.logm %a : tensor<?x4x4xf32>
  %2 = rlx.sqrtm %b : tensor<4x4xf64>
  %3 = rlx.invsqrtm %c : tensor<?x?xf64>
  return
}
