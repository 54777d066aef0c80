// The signal-processing ops through the GPU pipeline (gpu-signal.test):
// power-of-two, mixed-radix and Bluestein lengths, the real transforms, the
// complex-number ops, the decomposed front ends, and a gradient through a
// log-mel spectrogram.
func.func @transforms(%re: tensor<?x12xf32>, %im: tensor<?x12xf32>, %x: tensor<4x64xf64>, %y: tensor<4x13xf32>) -> (tensor<?x12xf32>, tensor<4x33xf64>, tensor<4x64xf64>, tensor<4x13xf32>) {
  %z = rlx.complex %re, %im : tensor<?x12xf32> -> tensor<?x12xcomplex<f32>>
  %f = rlx.fft %z norm = ortho : tensor<?x12xcomplex<f32>>
  %c = rlx.conjugate %f : tensor<?x12xcomplex<f32>>
  %g = rlx.ifft %c : tensor<?x12xcomplex<f32>>
  %r = rlx.real %g : tensor<?x12xcomplex<f32>> -> tensor<?x12xf32>
  %s = rlx.rfft %x : tensor<4x64xf64> -> tensor<4x33xcomplex<f64>>
  %p = rlx.complex_norm_sq %s : tensor<4x33xcomplex<f64>> -> tensor<4x33xf64>
  %b = rlx.irfft %s n = 64 : tensor<4x33xcomplex<f64>> -> tensor<4x64xf64>
  %q = rlx.rfft %y : tensor<4x13xf32> -> tensor<4x7xcomplex<f32>>
  %t = rlx.irfft %q n = 13 : tensor<4x7xcomplex<f32>> -> tensor<4x13xf32>
  return %r, %p, %b, %t : tensor<?x12xf32>, tensor<4x33xf64>, tensor<4x64xf64>, tensor<4x13xf32>
}

func.func @front_ends(%audio: tensor<?x2000xf32>) -> (tensor<?x16x16xf32>, tensor<?x3xf32>, tensor<?x3xi64>) {
  %mel = rlx.log_mel %audio sample_rate = 8000.0 n_fft = 256 hop_length = 128 n_mels = 16 : tensor<?x2000xf32> -> tensor<?x16x16xf32>
  %power, %bins = rlx.welch_peaks %audio segment = 200 k = 3 sample_rate = 8000.0 : tensor<?x2000xf32> -> tensor<?x3xf32>, tensor<?x3xi64>
  return %mel, %power, %bins : tensor<?x16x16xf32>, tensor<?x3xf32>, tensor<?x3xi64>
}

func.func @mel_energy(%audio: tensor<2x1000xf32>) -> tensor<f32> attributes {rlx.differentiate = array<i64: 0>} {
  %mel = rlx.log_mel %audio sample_rate = 8000.0 n_fft = 100 hop_length = 50 n_mels = 8 : tensor<2x1000xf32> -> tensor<2x8x21xf32>
  %s = rlx.reduce sum %mel axes = [0, 1, 2] : tensor<2x8x21xf32> -> tensor<f32>
  return %s : tensor<f32>
}
