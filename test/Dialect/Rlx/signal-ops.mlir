// RUN: rlx-opt %s | rlx-opt | FileCheck %s
// RUN: rlx-opt %s --mlir-print-op-generic | rlx-opt | FileCheck %s

// Every norm (backward is the default and is not printed); `?` batches.
// CHECK-LABEL: func.func @transforms(
// CHECK:         rlx.fft %{{.*}} : tensor<?x12xcomplex<f32>>
// CHECK:         rlx.ifft %{{.*}} norm = ortho : tensor<?x12xcomplex<f32>>
// CHECK:         rlx.rfft %{{.*}} norm = forward : tensor<3x7xf64> -> tensor<3x4xcomplex<f64>>
// CHECK:         rlx.irfft %{{.*}} : tensor<3x4xcomplex<f64>> -> tensor<3x6xf64>
// CHECK:         rlx.irfft %{{.*}} n = 7 : tensor<3x4xcomplex<f64>> -> tensor<3x7xf64>
// CHECK:         rlx.irfft %{{.*}} n = 9 norm = ortho : tensor<?xcomplex<f64>> -> tensor<9xf64>
func.func @transforms(%z: tensor<?x12xcomplex<f32>>, %x: tensor<3x7xf64>, %w: tensor<?xcomplex<f64>>) {
  %0 = rlx.fft %z : tensor<?x12xcomplex<f32>>
  %1 = rlx.ifft %z norm = ortho : tensor<?x12xcomplex<f32>>
  %2 = rlx.rfft %x norm = forward : tensor<3x7xf64> -> tensor<3x4xcomplex<f64>>
  %3 = rlx.irfft %2 : tensor<3x4xcomplex<f64>> -> tensor<3x6xf64>
  %4 = rlx.irfft %2 n = 7 : tensor<3x4xcomplex<f64>> -> tensor<3x7xf64>
  %5 = rlx.irfft %w n = 9 norm = ortho : tensor<?xcomplex<f64>> -> tensor<9xf64>
  return
}

// CHECK-LABEL: func.func @complex_numbers(
// CHECK:         %[[Z:.*]] = rlx.complex %{{.*}}, %{{.*}} : tensor<2x?xf32> -> tensor<2x?xcomplex<f32>>
// CHECK:         rlx.real %[[Z]] : tensor<2x?xcomplex<f32>> -> tensor<2x?xf32>
// CHECK:         rlx.imag %[[Z]] : tensor<2x?xcomplex<f32>> -> tensor<2x?xf32>
// CHECK:         rlx.conjugate %[[Z]] : tensor<2x?xcomplex<f32>>
// CHECK:         rlx.complex_norm_sq %[[Z]] : tensor<2x?xcomplex<f32>> -> tensor<2x?xf32>
func.func @complex_numbers(%re: tensor<2x?xf32>, %im: tensor<2x?xf32>) {
  %z = rlx.complex %re, %im : tensor<2x?xf32> -> tensor<2x?xcomplex<f32>>
  %0 = rlx.real %z : tensor<2x?xcomplex<f32>> -> tensor<2x?xf32>
  %1 = rlx.imag %z : tensor<2x?xcomplex<f32>> -> tensor<2x?xf32>
  %2 = rlx.conjugate %z : tensor<2x?xcomplex<f32>>
  %3 = rlx.complex_norm_sq %z : tensor<2x?xcomplex<f32>> -> tensor<2x?xf32>
  return
}

// CHECK-LABEL: func.func @front_ends(
// CHECK:         rlx.log_mel %{{.*}} sample_rate = 1.600000e+04 n_fft = 400 hop_length = 160 n_mels = 80 : tensor<?x16000xf32> -> tensor<?x80x101xf32>
// CHECK:         rlx.log_mel %{{.*}} sample_rate = 8.000000e+03 n_fft = 255 hop_length = 100 n_mels = 20 f_min = 5.000000e+01 f_max = 3.000000e+03 eps = 9.9999999999999995E-7 : tensor<2000xf64> -> tensor<20x20xf64>
// CHECK:         rlx.welch_peaks %{{.*}} segment = 256 k = 3 sample_rate = 1.000000e+03 : tensor<4x4096xf64> -> tensor<4x3xf64>, tensor<4x3xi64>
// CHECK:         rlx.welch_peaks %{{.*}} segment = 100 overlap = 10 k = 1 : tensor<?x1000xf32> -> tensor<?x1xf32>, tensor<?x1xi64>
func.func @front_ends(%a: tensor<?x16000xf32>, %b: tensor<2000xf64>, %c: tensor<4x4096xf64>, %d: tensor<?x1000xf32>) {
  %0 = rlx.log_mel %a sample_rate = 16000.0 n_fft = 400 hop_length = 160 n_mels = 80 : tensor<?x16000xf32> -> tensor<?x80x101xf32>
  %1 = rlx.log_mel %b sample_rate = 8000.0 n_fft = 255 hop_length = 100 n_mels = 20 f_min = 50.0 f_max = 3000.0 eps = 1.0e-6 : tensor<2000xf64> -> tensor<20x20xf64>
  %2, %3 = rlx.welch_peaks %c segment = 256 k = 3 sample_rate = 1000.0 : tensor<4x4096xf64> -> tensor<4x3xf64>, tensor<4x3xi64>
  %4, %5 = rlx.welch_peaks %d segment = 100 overlap = 10 k = 1 : tensor<?x1000xf32> -> tensor<?x1xf32>, tensor<?x1xi64>
  return
}
