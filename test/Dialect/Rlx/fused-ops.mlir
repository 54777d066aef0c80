// RUN: rlx-opt %s | rlx-opt | FileCheck %s
// RUN: rlx-opt %s --mlir-print-op-generic | rlx-opt | FileCheck %s

// CHECK-LABEL: func.func @swiglu(
// CHECK:         rlx.swiglu %{{.*}} : tensor<4x16xf32> -> tensor<4x8xf32>
// CHECK:         rlx.swiglu %{{.*}} gate_first : tensor<2x3x6xf16> -> tensor<2x3x3xf16>
// CHECK:         rlx.swiglu %{{.*}} : tensor<2xbf16> -> tensor<1xbf16>
func.func @swiglu(%a: tensor<4x16xf32>, %b: tensor<2x3x6xf16>, %c: tensor<2xbf16>)
    -> (tensor<4x8xf32>, tensor<2x3x3xf16>, tensor<1xbf16>) {
  %0 = rlx.swiglu %a : tensor<4x16xf32> -> tensor<4x8xf32>
  %1 = rlx.swiglu %b gate_first : tensor<2x3x6xf16> -> tensor<2x3x3xf16>
  %2 = rlx.swiglu %c : tensor<2xbf16> -> tensor<1xbf16>
  return %0, %1, %2 : tensor<4x8xf32>, tensor<2x3x3xf16>, tensor<1xbf16>
}
