// RUN: rlx-opt %s --rlx-to-linalg --canonicalize -split-input-file | FileCheck %s

// A random op is one parallel generic reading the seed and the offset as
// scalars; its body computes the row-major linear index of the element
// from linalg.index and runs the ten Philox rounds on it (i32 words
// multiplied as zero-extended i64s).

// CHECK-DAG:   #[[SCALAR:map[0-9]*]] = affine_map<(d0, d1) -> ()>
// CHECK-DAG:   #[[ID:map[0-9]*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @uniform_f16(
// CHECK-SAME:    %[[S:[a-z0-9]+]]: tensor<i64>, %[[O:[a-z0-9]+]]: tensor<i64>)
// CHECK:         %[[E:.*]] = tensor.empty() : tensor<3x5xf16>
// CHECK:         linalg.generic {indexing_maps = [#[[SCALAR]], #[[SCALAR]], #[[ID]]], iterator_types = ["parallel", "parallel"]} ins(%[[S]], %[[O]] : tensor<i64>, tensor<i64>) outs(%[[E]] : tensor<3x5xf16>)
// CHECK:           %[[I0:.*]] = linalg.index 0 : index
// CHECK:           %[[ROW:.*]] = arith.muli %[[I0]], %c5 : index
// CHECK:           %[[I1:.*]] = linalg.index 1 : index
// CHECK:           %[[LINEAR:.*]] = arith.addi %[[ROW]], %[[I1]] : index
// CHECK:           arith.index_cast %[[LINEAR]] : index to i64
// CHECK-COUNT-10:  arith.muli %{{.*}}, %c3528531795_i64 : i64
// f16 keeps the top 11 bits of the word, times 2^-11.
// CHECK:           %[[TOP:.*]] = arith.shrui %{{.*}}, %c21_i32 : i32
// CHECK:           %[[U:.*]] = arith.uitofp %[[TOP]] : i32 to f16
// CHECK:           %[[V:.*]] = arith.mulf %[[U]], %{{.*}} : f16
// CHECK:           linalg.yield %[[V]] : f16
func.func @uniform_f16(%seed: tensor<i64>, %offset: tensor<i64>) -> tensor<3x5xf16> {
  %0 = rlx.rng_uniform %seed, %offset : tensor<3x5xf16>
  return %0 : tensor<3x5xf16>
}

// -----

// CHECK-LABEL: func.func @normal(
// CHECK:         linalg.generic
// CHECK:           math.log %{{.*}} : f32
// CHECK:           math.sqrt %{{.*}} : f32
// CHECK:           math.cos %{{.*}} : f32
// CHECK:           arith.truncf %{{.*}} : f32 to bf16
func.func @normal(%seed: tensor<i64>, %offset: tensor<i64>) -> tensor<16xbf16> {
  %0 = rlx.rng_normal %seed, %offset std = 0.5 : tensor<16xbf16>
  return %0 : tensor<16xbf16>
}

// -----

// Dropout reads its input with the identity map; a `?` size is the input's,
// and the row stride is the static 8.
// CHECK-DAG:   #[[SCALAR:map[0-9]*]] = affine_map<(d0, d1) -> ()>
// CHECK-DAG:   #[[ID:map[0-9]*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @dropout(
// CHECK-SAME:    %[[X:[a-z0-9]+]]: tensor<?x8xf32>, %[[S:[a-z0-9]+]]: tensor<i64>, %[[O:[a-z0-9]+]]: tensor<i64>)
// CHECK:         %[[D:.*]] = tensor.dim %[[X]], %c0 : tensor<?x8xf32>
// CHECK:         %[[E:.*]] = tensor.empty(%[[D]]) : tensor<?x8xf32>
// CHECK:         linalg.generic {indexing_maps = [#[[SCALAR]], #[[SCALAR]], #[[ID]], #[[ID]]], iterator_types = ["parallel", "parallel"]} ins(%[[S]], %[[O]], %[[X]] : tensor<i64>, tensor<i64>, tensor<?x8xf32>) outs(%[[E]] : tensor<?x8xf32>)
// CHECK:           ^bb0(%{{.*}}: i64, %{{.*}}: i64, %[[IN:.*]]: f32, %{{.*}}: f32):
// CHECK:           arith.muli %{{.*}}, %c8 : index
// Kept when the top 24 bits are at least round(0.25 * 2^24) = 4194304.
// CHECK:           %[[TOP:.*]] = arith.shrui %{{.*}}, %c8_i32 : i32
// CHECK:           %[[KEEP:.*]] = arith.cmpi uge, %[[TOP]], %c4194304_i32 : i32
// CHECK:           %[[SCALED:.*]] = arith.mulf %[[IN]], %cst{{.*}} : f32
// CHECK:           %[[R:.*]] = arith.select %[[KEEP]], %[[SCALED]], %cst{{.*}} : f32
// CHECK:           linalg.yield %[[R]] : f32
func.func @dropout(%x: tensor<?x8xf32>, %seed: tensor<i64>, %offset: tensor<i64>) -> tensor<?x8xf32> {
  %0 = rlx.dropout %x, %seed, %offset p = 0.25 : tensor<?x8xf32>
  return %0 : tensor<?x8xf32>
}

// -----

// p = 0 is the identity: the input passes through the generic unchanged.
// CHECK-LABEL: func.func @dropout_zero(
// CHECK-SAME:    %[[X:[a-z0-9]+]]: tensor<4xf32>
// CHECK:         linalg.generic
// CHECK:           ^bb0(%{{.*}}: i64, %{{.*}}: i64, %[[IN:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT:        linalg.yield %[[IN]] : f32
func.func @dropout_zero(%x: tensor<4xf32>, %seed: tensor<i64>, %offset: tensor<i64>) -> tensor<4xf32> {
  %0 = rlx.dropout %x, %seed, %offset p = 0.0 : tensor<4xf32>
  return %0 : tensor<4xf32>
}
