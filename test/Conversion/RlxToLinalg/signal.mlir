// RUN: rlx-opt %s --rlx-to-linalg --canonicalize --split-input-file | FileCheck %s

// 12 = 4 x 3: two Stockham stages after loading the line into real and
// imaginary buffers; the second stage's twiddles are a constant table; the
// radix-4 butterflies are additions (their roots +-1, +-i are exact), the
// radix-3 ones multiply by cos(2 pi / 3) = -0.5 and +-sin. ortho scales by
// 1/sqrt(12).
// CHECK-LABEL: func.func @fft(
// CHECK-DAG:     %[[SCALE:.*]] = arith.constant 0.288675129 : f32
// CHECK-DAG:     arith.constant -5.000000e-01 : f32
// CHECK-DAG:     arith.constant dense<{{.*}}> : tensor<12xf32>
// CHECK:         scf.forall (%{{.*}}) in (%{{.*}}) shared_outs(
// CHECK:           scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args({{.*}}) -> (tensor<12xf32>, tensor<12xf32>)
// CHECK:             complex.re
// CHECK:             complex.im
// CHECK:           scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args({{.*}}) -> (tensor<12xf32>, tensor<12xf32>)
// CHECK-NOT:         arith.mulf
// CHECK:           scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args({{.*}}) -> (tensor<12xf32>, tensor<12xf32>)
// CHECK:             arith.mulf
// CHECK:           scf.for
// CHECK:             arith.mulf %{{.*}}, %[[SCALE]]
// CHECK:             complex.create
func.func @fft(%z: tensor<?x12xcomplex<f32>>) -> tensor<?x12xcomplex<f32>> {
  %y = rlx.fft %z norm = ortho : tensor<?x12xcomplex<f32>>
  return %y : tensor<?x12xcomplex<f32>>
}

// -----

// 7 is prime: Bluestein with 16-point FFTs (two radix-4 stages each) and a
// constant transform of the chirp kernel; the real input is loaded with
// zero imaginary parts and the first 4 bins stored.
// CHECK-LABEL: func.func @rfft_bluestein(
// CHECK-DAG:     arith.constant dense<{{.*}}> : tensor<7xf64>
// CHECK-DAG:     arith.constant dense<{{.*}}> : tensor<16xf64>
// CHECK:         tensor.empty() : tensor<16xf64>
// CHECK-COUNT-4: -> (tensor<16xf64>, tensor<16xf64>)
// CHECK:         scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%{{.*}} = %{{.*}}) -> (tensor<4xcomplex<f64>>)
// CHECK:           complex.create
func.func @rfft_bluestein(%x: tensor<7xf64>) -> tensor<4xcomplex<f64>> {
  %y = rlx.rfft %x : tensor<7xf64> -> tensor<4xcomplex<f64>>
  return %y : tensor<4xcomplex<f64>>
}

// -----

// irfft: the Hermitian extension (bins above n/2 are conjugates, bins past
// the input's 3 are zeros), the inverse transform, the real part stored.
// CHECK-LABEL: func.func @irfft(
// CHECK:         scf.forall
// CHECK:           scf.for
// CHECK:             %[[UPPER:.*]] = arith.cmpi sgt
// CHECK:             %[[INSIDE:.*]] = arith.cmpi slt
// CHECK:             scf.if %[[INSIDE]] -> (f32, f32)
// CHECK:               complex.re
// CHECK:               complex.im
// CHECK:               arith.negf
// CHECK:           scf.for {{.*}} -> (tensor<8xf32>)
// CHECK-NOT:         complex.create
// CHECK:           tensor.parallel_insert_slice
func.func @irfft(%z: tensor<2x3xcomplex<f32>>) -> tensor<2x8xf32> {
  %y = rlx.irfft %z n = 8 norm = forward : tensor<2x3xcomplex<f32>> -> tensor<2x8xf32>
  return %y : tensor<2x8xf32>
}

// -----

// The complex-number ops: one elementwise generic each.
// CHECK-LABEL: func.func @complex_numbers(
// CHECK:         linalg.generic
// CHECK:           complex.create
// CHECK:         linalg.generic
// CHECK:           %[[RE:.*]] = complex.re
// CHECK:           %[[IM:.*]] = complex.im
// CHECK:           %[[NEG:.*]] = arith.negf %[[IM]]
// CHECK:           complex.create %[[RE]], %[[NEG]]
// CHECK:         linalg.generic
// CHECK:           %[[R:.*]] = complex.re
// CHECK:           %[[I:.*]] = complex.im
// CHECK:           %[[RR:.*]] = arith.mulf %[[R]], %[[R]]
// CHECK:           %[[II:.*]] = arith.mulf %[[I]], %[[I]]
// CHECK:           arith.addf %[[RR]], %[[II]]
func.func @complex_numbers(%re: tensor<?x3xf32>, %im: tensor<?x3xf32>) -> tensor<?x3xf32> {
  %z = rlx.complex %re, %im : tensor<?x3xf32> -> tensor<?x3xcomplex<f32>>
  %c = rlx.conjugate %z : tensor<?x3xcomplex<f32>>
  %p = rlx.complex_norm_sq %c : tensor<?x3xcomplex<f32>> -> tensor<?x3xf32>
  return %p : tensor<?x3xf32>
}

// -----

// A 1-point transform is a copy scaled by 1.
// CHECK-LABEL: func.func @fft_one(
// CHECK-NOT:     arith.mulf
// CHECK:         return
func.func @fft_one(%z: tensor<4x1xcomplex<f64>>) -> tensor<4x1xcomplex<f64>> {
  %y = rlx.fft %z : tensor<4x1xcomplex<f64>>
  return %y : tensor<4x1xcomplex<f64>>
}
