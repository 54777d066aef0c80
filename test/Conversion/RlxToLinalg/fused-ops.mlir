// RUN: rlx-opt %s --rlx-to-linalg -split-input-file | FileCheck %s

// swiglu: the halves are views (extract_slice) of the input, read by one
// generic; f16 silu is rounded to f16 before the product, like rlx.silu.
// CHECK-LABEL: func.func @swiglu_f16(
// CHECK-SAME:    %[[X:.*]]: tensor<2x8xf16>)
// CHECK-DAG:     %[[UP:.*]] = tensor.extract_slice %[[X]][0, 0] [2, 4] [1, 1]
// CHECK-DAG:     %[[GATE:.*]] = tensor.extract_slice %[[X]][0, 4] [2, 4] [1, 1]
// CHECK:         linalg.generic {{.*}} ins(%[[UP]], %[[GATE]] : tensor<2x4xf16>, tensor<2x4xf16>)
// CHECK:         ^bb0(%[[U:[a-z0-9_]+]]: f16, %[[G:[a-z0-9_]+]]: f16, %{{[a-z0-9_]+}}: f16):
// CHECK-DAG:       %[[UF:.*]] = arith.extf %[[U]] : f16 to f32
// CHECK-DAG:       %[[GF:.*]] = arith.extf %[[G]] : f16 to f32
// CHECK:           math.exp
// CHECK:           %[[SILU:.*]] = arith.mulf %[[GF]], %{{.*}} : f32
// CHECK:           %[[SH:.*]] = arith.truncf %[[SILU]] : f32 to f16
// CHECK:           %[[SF:.*]] = arith.extf %[[SH]] : f16 to f32
// CHECK:           %[[P:.*]] = arith.mulf %[[SF]], %[[UF]] : f32
// CHECK:           %[[R:.*]] = arith.truncf %[[P]] : f32 to f16
// CHECK-NEXT:      linalg.yield %[[R]] : f16
// CHECK-NOT:     linalg.generic
func.func @swiglu_f16(%x: tensor<2x8xf16>) -> tensor<2x4xf16> {
  %0 = rlx.swiglu %x : tensor<2x8xf16> -> tensor<2x4xf16>
  return %0 : tensor<2x4xf16>
}

// -----

// gate_first swaps the halves.
// CHECK-LABEL: func.func @swiglu_gate_first(
// CHECK-SAME:    %[[X:.*]]: tensor<6xf32>)
// CHECK-DAG:     %[[UP:.*]] = tensor.extract_slice %[[X]][3] [3] [1]
// CHECK-DAG:     %[[GATE:.*]] = tensor.extract_slice %[[X]][0] [3] [1]
// CHECK:         linalg.generic {{.*}} ins(%[[UP]], %[[GATE]] : tensor<3xf32>, tensor<3xf32>)
func.func @swiglu_gate_first(%x: tensor<6xf32>) -> tensor<3xf32> {
  %0 = rlx.swiglu %x gate_first : tensor<6xf32> -> tensor<3xf32>
  return %0 : tensor<3xf32>
}
