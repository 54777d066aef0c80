// RUN: rlx-opt %s -split-input-file -verify-diagnostics

func.func @fft_dynamic(%z: tensor<4x?xcomplex<f32>>) {
  // expected-error @+1 {{the transformed (last) axis must be static, got 'tensor<4x?xcomplex<f32>>'}}
  %0 = rlx.fft %z : tensor<4x?xcomplex<f32>>
  return
}

// -----

func.func @fft_real(%x: tensor<8xf32>) {
  // expected-error @+1 {{operand #0 must be ranked tensor of complex type with 32-bit float elements or complex type with 64-bit float elements values, but got 'tensor<8xf32>'}}
  %0 = rlx.fft %x : tensor<8xf32>
  return
}

// -----

func.func @fft_rank(%z: tensor<complex<f64>>) {
  // expected-error @+1 {{input must have rank >= 1 (signals along the last axis), got 'tensor<complex<f64>>'}}
  %0 = rlx.ifft %z : tensor<complex<f64>>
  return
}

// -----

func.func @rfft_bins(%x: tensor<3x8xf32>) {
  // expected-error @+2 {{inferred type(s) 'tensor<3x5xcomplex<f32>>' are incompatible with return type(s) of operation 'tensor<3x8xcomplex<f32>>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = rlx.rfft %x : tensor<3x8xf32> -> tensor<3x8xcomplex<f32>>
  return
}

// -----

func.func @irfft_length(%z: tensor<1xcomplex<f32>>) {
  // expected-error @+2 {{the signal length must be in [1, 1048576], got 0}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = rlx.irfft %z : tensor<1xcomplex<f32>> -> tensor<0xf32>
  return
}

// -----

func.func @irfft_dynamic(%z: tensor<?xcomplex<f32>>) {
  // expected-error @+2 {{the transformed (last) axis must be static, got 'tensor<?xcomplex<f32>>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = rlx.irfft %z : tensor<?xcomplex<f32>> -> tensor<?xf32>
  return
}

// -----

func.func @complex_parts(%re: tensor<4xf16>) {
  // expected-error @+1 {{operand #0 must be ranked tensor of 32-bit float or 64-bit float values, but got 'tensor<4xf16>'}}
  %z = rlx.complex %re, %re : tensor<4xf16> -> tensor<4xcomplex<f16>>
  return
}

// -----

func.func @real_of_real(%x: tensor<4xf32>) {
  // expected-error @+1 {{operand #0 must be ranked tensor of complex type with 32-bit float elements or complex type with 64-bit float elements values, but got 'tensor<4xf32>'}}
  %0 = rlx.real %x : tensor<4xf32> -> tensor<4xf32>
  return
}

// -----

func.func @log_mel_padding(%x: tensor<2x100xf32>) {
  // expected-error @+2 {{the reflected padding n_fft / 2 = 128 must be shorter than the signal, of length 100}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = rlx.log_mel %x sample_rate = 8000.0 n_fft = 256 hop_length = 64 n_mels = 10 : tensor<2x100xf32> -> tensor<2x10x2xf32>
  return
}

// -----

func.func @log_mel_band(%x: tensor<1000xf32>) {
  // expected-error @+2 {{expected 0 <= f_min < f_max and a positive sample_rate}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = rlx.log_mel %x sample_rate = 8000.0 n_fft = 64 hop_length = 32 n_mels = 10 f_min = 5000.0 : tensor<1000xf32> -> tensor<10x32xf32>
  return
}

// -----

func.func @log_mel_frames(%x: tensor<1000xf32>) {
  // expected-error @+2 {{inferred type(s) 'tensor<10x32xf32>' are incompatible with return type(s) of operation 'tensor<10x31xf32>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = rlx.log_mel %x sample_rate = 8000.0 n_fft = 64 hop_length = 32 n_mels = 10 : tensor<1000xf32> -> tensor<10x31xf32>
  return
}

// -----

func.func @welch_overlap(%x: tensor<1000xf32>) {
  // expected-error @+2 {{overlap must be in [0, segment), got 100}}
  // expected-error @+1 {{failed to infer returned types}}
  %0, %1 = rlx.welch_peaks %x segment = 100 overlap = 100 k = 2 : tensor<1000xf32> -> tensor<2xf32>, tensor<2xi64>
  return
}

// -----

func.func @welch_k(%x: tensor<1000xf32>) {
  // expected-error @+2 {{k must be in [1, 51] (the number of bins), got 60}}
  // expected-error @+1 {{failed to infer returned types}}
  %0, %1 = rlx.welch_peaks %x segment = 100 k = 60 : tensor<1000xf32> -> tensor<60xf32>, tensor<60xi64>
  return
}

// -----

func.func @welch_segment(%x: tensor<50xf64>) {
  // expected-error @+2 {{segment must be in [1, 50] (the signal's length), got 64}}
  // expected-error @+1 {{failed to infer returned types}}
  %0, %1 = rlx.welch_peaks %x segment = 64 k = 2 : tensor<50xf64> -> tensor<2xf64>, tensor<2xi64>
  return
}

// -----

// Compile-time tables bound the sizes (no allocation of absurd constants).
func.func @fft_too_long(%z: tensor<2x8388608xcomplex<f32>>) {
  // expected-error @+1 {{the transformed (last) axis has 8388608 points, more than the supported 1048576 (the transform's tables are constants)}}
  %0 = rlx.fft %z : tensor<2x8388608xcomplex<f32>>
  return
}

// -----

func.func @irfft_too_long(%z: tensor<4xcomplex<f32>>) {
  // expected-error @+2 {{the signal length must be in [1, 1048576], got 1099511627776}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = rlx.irfft %z n = 1099511627776 : tensor<4xcomplex<f32>> -> tensor<1099511627776xf32>
  return
}

// -----

func.func @log_mel_table(%x: tensor<1x100000000xf32>) {
  // expected-error @+2 {{log_mel of 1000001 frames of 400 samples exceeds the supported frame table of 16777216 samples}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = rlx.log_mel %x sample_rate = 16000.0 n_fft = 400 hop_length = 100 n_mels = 10 : tensor<1x100000000xf32> -> tensor<1x10x1000001xf32>
  return
}
