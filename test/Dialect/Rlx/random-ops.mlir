// RUN: rlx-opt %s | rlx-opt | FileCheck %s
// RUN: rlx-opt %s --mlir-print-op-generic | rlx-opt | FileCheck %s

// Round trip of the random ops through the custom and the generic form;
// default attributes are not printed.

// CHECK-LABEL: func.func @generators(
// CHECK-SAME:    %[[S:[a-z0-9]+]]: tensor<i64>, %[[O:[a-z0-9]+]]: tensor<i64>)
// CHECK-NEXT:    %{{.*}} = rlx.rng_bits %[[S]], %[[O]] : tensor<4x8xi32>
// CHECK-NEXT:    %{{.*}} = rlx.rng_uniform %[[S]], %[[O]] : tensor<16xf32>
// CHECK-NEXT:    %{{.*}} = rlx.rng_uniform %[[S]], %[[O]] low = -1.000000e+00 high = 2.000000e+00 : tensor<2x3xbf16>
// CHECK-NEXT:    %{{.*}} = rlx.rng_normal %[[S]], %[[O]] : tensor<5xf64>
// CHECK-NEXT:    %{{.*}} = rlx.rng_normal %[[S]], %[[O]] mean = 1.000000e+00 std = 2.000000e-02 : tensor<3x3xf16>
// CHECK-NEXT:    %{{.*}} = rlx.rng_bits %[[S]], %[[O]] : tensor<i32>
// CHECK-NEXT:    return
func.func @generators(%seed: tensor<i64>, %offset: tensor<i64>) {
  %0 = rlx.rng_bits %seed, %offset : tensor<4x8xi32>
  %1 = rlx.rng_uniform %seed, %offset : tensor<16xf32>
  %2 = rlx.rng_uniform %seed, %offset low = -1.0 high = 2.0 : tensor<2x3xbf16>
  %3 = rlx.rng_normal %seed, %offset mean = 0.0 : tensor<5xf64>
  %4 = rlx.rng_normal %seed, %offset mean = 1.0 std = 0.02 : tensor<3x3xf16>
  %5 = rlx.rng_bits %seed, %offset : tensor<i32>
  return
}

// CHECK-LABEL: func.func @dropout(
// CHECK-SAME:    %[[X:[a-z0-9]+]]: tensor<?x768xf32>, %[[S:[a-z0-9]+]]: tensor<i64>, %[[O:[a-z0-9]+]]: tensor<i64>, %[[H:[a-z0-9]+]]: tensor<2x0xf16>)
// CHECK-NEXT:    %{{.*}} = rlx.dropout %[[X]], %[[S]], %[[O]] p = 1.000000e-01 : tensor<?x768xf32>
// CHECK-NEXT:    %{{.*}} = rlx.dropout %[[H]], %[[S]], %[[O]] p = 0.000000e+00 : tensor<2x0xf16>
// CHECK-NEXT:    return
func.func @dropout(%x: tensor<?x768xf32>, %seed: tensor<i64>, %offset: tensor<i64>, %h: tensor<2x0xf16>) {
  %0 = rlx.dropout %x, %seed, %offset p = 0.1 : tensor<?x768xf32>
  %1 = rlx.dropout %h, %seed, %offset p = 0.0 : tensor<2x0xf16>
  return
}
