// RUN: rlx-opt %s | rlx-opt | FileCheck %s
// RUN: rlx-opt %s --mlir-print-op-generic | rlx-opt | FileCheck %s

// CHECK-LABEL: func.func @grouped_matmul(
// CHECK:         rlx.grouped_matmul %{{.*}}, %{{.*}}, %{{.*}} : (tensor<6x8xf32>, tensor<4x8x5xf32>, tensor<6xi32>) -> tensor<6x5xf32>
// CHECK:         rlx.grouped_matmul %{{.*}}, %{{.*}}, %{{.*}} : (tensor<?x8xbf16>, tensor<4x8x5xbf16>, tensor<?xi64>) -> tensor<?x5xbf16>
// CHECK:         rlx.grouped_matmul %{{.*}}, %{{.*}}, %{{.*}} gates %{{.*}} : (tensor<?x8xf16>, tensor<?x8x5xf16>, tensor<?x2xi64>, tensor<?x2xf16>) -> tensor<?x5xf16>
// CHECK:         rlx.grouped_matmul %{{.*}}, %{{.*}}, %{{.*}} : (tensor<0x8xf64>, tensor<0x8x5xf64>, tensor<0xi32>) -> tensor<0x5xf64>
func.func @grouped_matmul(%x: tensor<6x8xf32>, %w: tensor<4x8x5xf32>, %ids: tensor<6xi32>,
                          %xb: tensor<?x8xbf16>, %wb: tensor<4x8x5xbf16>, %idb: tensor<?xi64>,
                          %xh: tensor<?x8xf16>, %wh: tensor<?x8x5xf16>, %idk: tensor<?x2xi64>, %gk: tensor<?x2xf16>,
                          %x0: tensor<0x8xf64>, %w0: tensor<0x8x5xf64>, %id0: tensor<0xi32>)
    -> (tensor<6x5xf32>, tensor<?x5xbf16>, tensor<?x5xf16>, tensor<0x5xf64>) {
  %0 = rlx.grouped_matmul %x, %w, %ids : (tensor<6x8xf32>, tensor<4x8x5xf32>, tensor<6xi32>) -> tensor<6x5xf32>
  %1 = rlx.grouped_matmul %xb, %wb, %idb : (tensor<?x8xbf16>, tensor<4x8x5xbf16>, tensor<?xi64>) -> tensor<?x5xbf16>
  %2 = rlx.grouped_matmul %xh, %wh, %idk gates %gk
      : (tensor<?x8xf16>, tensor<?x8x5xf16>, tensor<?x2xi64>, tensor<?x2xf16>) -> tensor<?x5xf16>
  // No rows: an empty expert axis reads nothing.
  %3 = rlx.grouped_matmul %x0, %w0, %id0 : (tensor<0x8xf64>, tensor<0x8x5xf64>, tensor<0xi32>) -> tensor<0x5xf64>
  return %0, %1, %2, %3 : tensor<6x5xf32>, tensor<?x5xbf16>, tensor<?x5xf16>, tensor<0x5xf64>
}
