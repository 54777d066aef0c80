// RUN: rlx-opt %s | rlx-opt | FileCheck %s
// RUN: rlx-opt %s --mlir-print-op-generic | rlx-opt | FileCheck %s

// Round trip of rlx.sample through the custom and the generic form; default
// attributes (top_k = 0, top_p = 1.0, temperature = 1.0) are not printed.

// CHECK-LABEL: func.func @sample(
// CHECK-SAME:    %[[L:[a-z0-9]+]]: tensor<?x32000xf32>, %[[S:[a-z0-9]+]]: tensor<i64>, %[[O:[a-z0-9]+]]: tensor<i64>, %[[H:[a-z0-9]+]]: tensor<2x3x50xbf16>, %[[V:[a-z0-9]+]]: tensor<8xf64>, %[[F:[a-z0-9]+]]: tensor<4x8xf16>)
// CHECK-NEXT:    %{{.*}} = rlx.sample %[[L]], %[[S]], %[[O]] top_k = 40 top_p = 9.000000e-01 temperature = 0.69999999999999996 : tensor<?x32000xf32> -> tensor<?xi64>
// CHECK-NEXT:    %{{.*}} = rlx.sample %[[L]], %[[S]], %[[O]] : tensor<?x32000xf32> -> tensor<?xi32>
// CHECK-NEXT:    %{{.*}} = rlx.sample %[[H]], %[[S]], %[[O]] top_p = 5.000000e-01 : tensor<2x3x50xbf16> -> tensor<2x3xi64>
// CHECK-NEXT:    %{{.*}} = rlx.sample %[[V]], %[[S]], %[[O]] temperature = 0.000000e+00 : tensor<8xf64> -> tensor<i64>
// CHECK-NEXT:    %{{.*}} = rlx.sample %[[F]], %[[S]], %[[O]] top_k = 1 : tensor<4x8xf16> -> tensor<4xi32>
// CHECK-NEXT:    return
func.func @sample(%logits: tensor<?x32000xf32>, %seed: tensor<i64>,
                  %offset: tensor<i64>, %h: tensor<2x3x50xbf16>,
                  %v: tensor<8xf64>, %f: tensor<4x8xf16>) {
  %0 = rlx.sample %logits, %seed, %offset top_k = 40 top_p = 0.9 temperature = 0.7 : tensor<?x32000xf32> -> tensor<?xi64>
  %1 = rlx.sample %logits, %seed, %offset top_k = 0 top_p = 1.0 : tensor<?x32000xf32> -> tensor<?xi32>
  %2 = rlx.sample %h, %seed, %offset top_p = 0.5 : tensor<2x3x50xbf16> -> tensor<2x3xi64>
  %3 = rlx.sample %v, %seed, %offset temperature = 0.0 : tensor<8xf64> -> tensor<i64>
  %4 = rlx.sample %f, %seed, %offset top_k = 1 : tensor<4x8xf16> -> tensor<4xi32>
  return
}
