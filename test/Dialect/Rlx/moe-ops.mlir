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

// CHECK-LABEL: func.func @dequant_grouped_matmul(
// CHECK:         rlx.dequant_grouped_matmul %{{.*}}, %{{.*}}, %{{.*}} scales %{{.*}} scheme = "int4" : (tensor<6x64xf32>, tensor<4x5x32xi8>, tensor<6xi32>, tensor<4x5x2xf32>) -> tensor<6x5xf32>
// CHECK:         rlx.dequant_grouped_matmul %{{.*}}, %{{.*}}, %{{.*}} gates %{{.*}} scales %{{.*}} zero_points %{{.*}} scheme = "int8" group_size = 64 : (tensor<?x128xbf16>, tensor<4x5x128xi8>, tensor<?x2xi64>, tensor<?x2xbf16>, tensor<4x5x2xf16>, tensor<4x5x2xi8>) -> tensor<?x5xbf16>
// CHECK:         rlx.dequant_grouped_matmul %{{.*}}, %{{.*}}, %{{.*}} scheme = "q4_0" : (tensor<?x64xf16>, tensor<4x5x36xi8>, tensor<?xi64>) -> tensor<?x5xf16>
// CHECK:         rlx.dequant_grouped_matmul %{{.*}}, %{{.*}}, %{{.*}} gates %{{.*}} scheme = "q8_0" : (tensor<0x32xf64>, tensor<0x5x34xi8>, tensor<0x1xi32>, tensor<0x1xf64>) -> tensor<0x5xf64>
func.func @dequant_grouped_matmul(%x: tensor<6x64xf32>, %w4: tensor<4x5x32xi8>, %ids: tensor<6xi32>, %s4: tensor<4x5x2xf32>,
                                  %xb: tensor<?x128xbf16>, %w8: tensor<4x5x128xi8>, %idk: tensor<?x2xi64>, %gk: tensor<?x2xbf16>,
                                  %s8: tensor<4x5x2xf16>, %z8: tensor<4x5x2xi8>,
                                  %xh: tensor<?x64xf16>, %q4: tensor<4x5x36xi8>, %idh: tensor<?xi64>,
                                  %x0: tensor<0x32xf64>, %q8: tensor<0x5x34xi8>, %id0: tensor<0x1xi32>, %g0: tensor<0x1xf64>)
    -> (tensor<6x5xf32>, tensor<?x5xbf16>, tensor<?x5xf16>, tensor<0x5xf64>) {
  %0 = rlx.dequant_grouped_matmul %x, %w4, %ids scales %s4 scheme = "int4"
      : (tensor<6x64xf32>, tensor<4x5x32xi8>, tensor<6xi32>, tensor<4x5x2xf32>) -> tensor<6x5xf32>
  %1 = rlx.dequant_grouped_matmul %xb, %w8, %idk gates %gk scales %s8 zero_points %z8 scheme = "int8" group_size = 64
      : (tensor<?x128xbf16>, tensor<4x5x128xi8>, tensor<?x2xi64>, tensor<?x2xbf16>, tensor<4x5x2xf16>, tensor<4x5x2xi8>) -> tensor<?x5xbf16>
  %2 = rlx.dequant_grouped_matmul %xh, %q4, %idh scheme = "q4_0"
      : (tensor<?x64xf16>, tensor<4x5x36xi8>, tensor<?xi64>) -> tensor<?x5xf16>
  // No rows: an empty expert axis reads nothing.
  %3 = rlx.dequant_grouped_matmul %x0, %q8, %id0 gates %g0 scheme = "q8_0"
      : (tensor<0x32xf64>, tensor<0x5x34xi8>, tensor<0x1xi32>, tensor<0x1xf64>) -> tensor<0x5xf64>
  return %0, %1, %2, %3 : tensor<6x5xf32>, tensor<?x5xbf16>, tensor<?x5xf16>, tensor<0x5xf64>
}

// The stacked form of dequant_weight: [E, N, bytes] -> [E, N, K].
// CHECK-LABEL: func.func @dequant_weight_stack(
// CHECK:         rlx.dequant_weight %{{.*}}, %{{.*}} scheme = "int4" : (tensor<4x5x32xi8>, tensor<4x5x2xf32>) -> tensor<4x5x64xf32>
func.func @dequant_weight_stack(%w: tensor<4x5x32xi8>, %s: tensor<4x5x2xf32>) -> tensor<4x5x64xf32> {
  %0 = rlx.dequant_weight %w, %s scheme = "int4" : (tensor<4x5x32xi8>, tensor<4x5x2xf32>) -> tensor<4x5x64xf32>
  return %0 : tensor<4x5x64xf32>
}
