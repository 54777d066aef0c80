// A keyword-spotting-style audio classifier trained end to end through its
// signal-processing front end: 16 waveforms of 4000 samples at 8 kHz (half
// a second) go through a learnable 5-tap FIR filter (an rlx.conv,
// initialized as the pre-emphasis x[t] - 0.5 x[t-1]), then rlx.log_mel
// (torchaudio's MelSpectrogram: n_fft 256, hop 128, 32 HTK mel bands,
// center reflect padding, periodic Hann window, power 2; then log(x +
// 1e-10)) to [16, 32 mels, 32 frames]; each mel band loses its mean over
// the frames (cepstral mean normalization) and is scaled by 1/2, and the
// mels are the channels of two 1-D convolutions over time (width 3, 16
// channels, the second of stride 2) with relu, a global average pool and a
// linear head give the logits of 4 classes.
//
// `@loss` is their mean cross-entropy; --rlx-autodiff defines `@loss_grad`
// with respect to the seven parameters, the FIR taps' gradient flowing back
// through rlx.log_mel's decomposition (rlx.pad reflect, an rlx.gather of
// the frames, the window, rlx.rfft, rlx.complex_norm_sq, the filterbank
// matmul, rlx.log). `@train_step` is one SGD step (learning rate 0.5) in rlx
// ops, `@gradients` returns the gradient, `@waveform_gradient` the gradient
// with respect to the waveforms themselves, `@features` the front end's
// output and `@logits` the classifier's. examples/audio_frontend.py trains
// it against PyTorch (torch.stft, a numpy HTK filterbank, nn.Conv1d).
func.func private @loss_grad(tensor<1x1x5xf32>, tensor<16x32x3xf32>, tensor<16xf32>, tensor<16x16x3xf32>, tensor<16xf32>, tensor<16x4xf32>, tensor<4xf32>, tensor<16x4000xf32>, tensor<16xi64>)
    -> (tensor<f32>, tensor<1x1x5xf32>, tensor<16x32x3xf32>, tensor<16xf32>, tensor<16x16x3xf32>, tensor<16xf32>, tensor<16x4xf32>, tensor<4xf32>)
func.func private @waveform_loss_grad(tensor<1x1x5xf32>, tensor<16x32x3xf32>, tensor<16xf32>, tensor<16x16x3xf32>, tensor<16xf32>, tensor<16x4xf32>, tensor<4xf32>, tensor<16x4000xf32>, tensor<16xi64>)
    -> (tensor<f32>, tensor<16x4000xf32>)

// The front end: the FIR filter ("same" padding: tap 2 is the current
// sample), then the log-mel spectrogram, [16, 32 mels, 32 frames].
func.func @features(%fir: tensor<1x1x5xf32>, %waveform: tensor<16x4000xf32>) -> tensor<16x32x32xf32> {
  %x = rlx.reshape %waveform : tensor<16x4000xf32> -> tensor<16x1x4000xf32>
  %y = rlx.conv %x, %fir stride = [1] padding = [2, 2] dilation = [1] groups = 1
      : (tensor<16x1x4000xf32>, tensor<1x1x5xf32>) -> tensor<16x1x4000xf32>
  %filtered = rlx.reshape %y : tensor<16x1x4000xf32> -> tensor<16x4000xf32>
  %mel = rlx.log_mel %filtered sample_rate = 8000.0 n_fft = 256 hop_length = 128 n_mels = 32
      : tensor<16x4000xf32> -> tensor<16x32x32xf32>
  return %mel : tensor<16x32x32xf32>
}

func.func @logits(%fir: tensor<1x1x5xf32>, %w1: tensor<16x32x3xf32>, %b1: tensor<16xf32>, %w2: tensor<16x16x3xf32>, %b2: tensor<16xf32>, %w_head: tensor<16x4xf32>, %b_head: tensor<4xf32>, %waveform: tensor<16x4000xf32>) -> tensor<16x4xf32> {
  %mel = func.call @features(%fir, %waveform) : (tensor<1x1x5xf32>, tensor<16x4000xf32>) -> tensor<16x32x32xf32>
  // Each band's mean over time removed (the FIR filter's gain and the
  // recording level drop out), scaled by 1/2.
  %band_mean = rlx.reduce mean %mel axes = [2] keep_dim : tensor<16x32x32xf32> -> tensor<16x32x1xf32>
  %centered = rlx.sub %mel, %band_mean : (tensor<16x32x32xf32>, tensor<16x32x1xf32>) -> tensor<16x32x32xf32>
  %half = rlx.constant dense<0.5> : tensor<f32>
  %h0 = rlx.mul %centered, %half : (tensor<16x32x32xf32>, tensor<f32>) -> tensor<16x32x32xf32>
  // Two 1-D convolutions over the frames, the mel bands as channels.
  %c1 = rlx.conv %h0, %w1 stride = [1] padding = [1, 1] dilation = [1] groups = 1
      : (tensor<16x32x32xf32>, tensor<16x32x3xf32>) -> tensor<16x16x32xf32>
  %b1c = rlx.reshape %b1 : tensor<16xf32> -> tensor<16x1xf32>
  %a1 = rlx.add %c1, %b1c : (tensor<16x16x32xf32>, tensor<16x1xf32>) -> tensor<16x16x32xf32>
  %h1 = rlx.relu %a1 : tensor<16x16x32xf32>
  %c2 = rlx.conv %h1, %w2 stride = [2] padding = [1, 1] dilation = [1] groups = 1
      : (tensor<16x16x32xf32>, tensor<16x16x3xf32>) -> tensor<16x16x16xf32>
  %b2c = rlx.reshape %b2 : tensor<16xf32> -> tensor<16x1xf32>
  %a2 = rlx.add %c2, %b2c : (tensor<16x16x16xf32>, tensor<16x1xf32>) -> tensor<16x16x16xf32>
  %h2 = rlx.relu %a2 : tensor<16x16x16xf32>
  // Global average pool over time and the linear head.
  %pooled = rlx.global_pool avg %h2 : tensor<16x16x16xf32> -> tensor<16x16x1xf32>
  %f = rlx.reshape %pooled : tensor<16x16x1xf32> -> tensor<16x16xf32>
  %z = rlx.matmul %f, %w_head : (tensor<16x16xf32>, tensor<16x4xf32>) -> tensor<16x4xf32>
  %logits = rlx.add %z, %b_head : (tensor<16x4xf32>, tensor<4xf32>) -> tensor<16x4xf32>
  return %logits : tensor<16x4xf32>
}

func.func @loss(%fir: tensor<1x1x5xf32>, %w1: tensor<16x32x3xf32>, %b1: tensor<16xf32>, %w2: tensor<16x16x3xf32>, %b2: tensor<16xf32>, %w_head: tensor<16x4xf32>, %b_head: tensor<4xf32>, %waveform: tensor<16x4000xf32>, %labels: tensor<16xi64>) -> tensor<f32>
    attributes {rlx.differentiate = array<i64: 0, 1, 2, 3, 4, 5, 6>} {
  %logits = func.call @logits(%fir, %w1, %b1, %w2, %b2, %w_head, %b_head, %waveform)
      : (tensor<1x1x5xf32>, tensor<16x32x3xf32>, tensor<16xf32>, tensor<16x16x3xf32>, tensor<16xf32>, tensor<16x4xf32>, tensor<4xf32>, tensor<16x4000xf32>) -> tensor<16x4xf32>
  %ce = rlx.softmax_cross_entropy_with_labels %logits, %labels : (tensor<16x4xf32>, tensor<16xi64>) -> tensor<16xf32>
  %m = rlx.reduce mean %ce axes = [0] : tensor<16xf32> -> tensor<f32>
  return %m : tensor<f32>
}

// The same loss, differentiated with respect to the waveforms (argument 7)
// instead: the whole backward of rlx.log_mel, sample by sample.
func.func @waveform_loss(%fir: tensor<1x1x5xf32>, %w1: tensor<16x32x3xf32>, %b1: tensor<16xf32>, %w2: tensor<16x16x3xf32>, %b2: tensor<16xf32>, %w_head: tensor<16x4xf32>, %b_head: tensor<4xf32>, %waveform: tensor<16x4000xf32>, %labels: tensor<16xi64>) -> tensor<f32>
    attributes {rlx.differentiate = array<i64: 7>} {
  %m = func.call @loss(%fir, %w1, %b1, %w2, %b2, %w_head, %b_head, %waveform, %labels)
      : (tensor<1x1x5xf32>, tensor<16x32x3xf32>, tensor<16xf32>, tensor<16x16x3xf32>, tensor<16xf32>, tensor<16x4xf32>, tensor<4xf32>, tensor<16x4000xf32>, tensor<16xi64>) -> tensor<f32>
  return %m : tensor<f32>
}

func.func @train_step(%fir: tensor<1x1x5xf32>, %w1: tensor<16x32x3xf32>, %b1: tensor<16xf32>, %w2: tensor<16x16x3xf32>, %b2: tensor<16xf32>, %w_head: tensor<16x4xf32>, %b_head: tensor<4xf32>, %waveform: tensor<16x4000xf32>, %labels: tensor<16xi64>)
    -> (tensor<f32>, tensor<1x1x5xf32>, tensor<16x32x3xf32>, tensor<16xf32>, tensor<16x16x3xf32>, tensor<16xf32>, tensor<16x4xf32>, tensor<4xf32>) {
  %loss, %g_fir, %g_w1, %g_b1, %g_w2, %g_b2, %g_w_head, %g_b_head = func.call @loss_grad(%fir, %w1, %b1, %w2, %b2, %w_head, %b_head, %waveform, %labels)
      : (tensor<1x1x5xf32>, tensor<16x32x3xf32>, tensor<16xf32>, tensor<16x16x3xf32>, tensor<16xf32>, tensor<16x4xf32>, tensor<4xf32>, tensor<16x4000xf32>, tensor<16xi64>) -> (tensor<f32>, tensor<1x1x5xf32>, tensor<16x32x3xf32>, tensor<16xf32>, tensor<16x16x3xf32>, tensor<16xf32>, tensor<16x4xf32>, tensor<4xf32>)
  %lr = rlx.constant dense<0.5> : tensor<f32>
  %s_fir = rlx.mul %g_fir, %lr : (tensor<1x1x5xf32>, tensor<f32>) -> tensor<1x1x5xf32>
  %n_fir = rlx.sub %fir, %s_fir : (tensor<1x1x5xf32>, tensor<1x1x5xf32>) -> tensor<1x1x5xf32>
  %s_w1 = rlx.mul %g_w1, %lr : (tensor<16x32x3xf32>, tensor<f32>) -> tensor<16x32x3xf32>
  %n_w1 = rlx.sub %w1, %s_w1 : (tensor<16x32x3xf32>, tensor<16x32x3xf32>) -> tensor<16x32x3xf32>
  %s_b1 = rlx.mul %g_b1, %lr : (tensor<16xf32>, tensor<f32>) -> tensor<16xf32>
  %n_b1 = rlx.sub %b1, %s_b1 : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
  %s_w2 = rlx.mul %g_w2, %lr : (tensor<16x16x3xf32>, tensor<f32>) -> tensor<16x16x3xf32>
  %n_w2 = rlx.sub %w2, %s_w2 : (tensor<16x16x3xf32>, tensor<16x16x3xf32>) -> tensor<16x16x3xf32>
  %s_b2 = rlx.mul %g_b2, %lr : (tensor<16xf32>, tensor<f32>) -> tensor<16xf32>
  %n_b2 = rlx.sub %b2, %s_b2 : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
  %s_w_head = rlx.mul %g_w_head, %lr : (tensor<16x4xf32>, tensor<f32>) -> tensor<16x4xf32>
  %n_w_head = rlx.sub %w_head, %s_w_head : (tensor<16x4xf32>, tensor<16x4xf32>) -> tensor<16x4xf32>
  %s_b_head = rlx.mul %g_b_head, %lr : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  %n_b_head = rlx.sub %b_head, %s_b_head : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %loss, %n_fir, %n_w1, %n_b1, %n_w2, %n_b2, %n_w_head, %n_b_head : tensor<f32>, tensor<1x1x5xf32>, tensor<16x32x3xf32>, tensor<16xf32>, tensor<16x16x3xf32>, tensor<16xf32>, tensor<16x4xf32>, tensor<4xf32>
}

// The loss and its gradient, for examples/audio_frontend.py's check of each
// gradient against PyTorch's (@loss_grad itself is private).
func.func @gradients(%fir: tensor<1x1x5xf32>, %w1: tensor<16x32x3xf32>, %b1: tensor<16xf32>, %w2: tensor<16x16x3xf32>, %b2: tensor<16xf32>, %w_head: tensor<16x4xf32>, %b_head: tensor<4xf32>, %waveform: tensor<16x4000xf32>, %labels: tensor<16xi64>)
    -> (tensor<f32>, tensor<1x1x5xf32>, tensor<16x32x3xf32>, tensor<16xf32>, tensor<16x16x3xf32>, tensor<16xf32>, tensor<16x4xf32>, tensor<4xf32>) {
  %loss, %g_fir, %g_w1, %g_b1, %g_w2, %g_b2, %g_w_head, %g_b_head = func.call @loss_grad(%fir, %w1, %b1, %w2, %b2, %w_head, %b_head, %waveform, %labels)
      : (tensor<1x1x5xf32>, tensor<16x32x3xf32>, tensor<16xf32>, tensor<16x16x3xf32>, tensor<16xf32>, tensor<16x4xf32>, tensor<4xf32>, tensor<16x4000xf32>, tensor<16xi64>) -> (tensor<f32>, tensor<1x1x5xf32>, tensor<16x32x3xf32>, tensor<16xf32>, tensor<16x16x3xf32>, tensor<16xf32>, tensor<16x4xf32>, tensor<4xf32>)
  return %loss, %g_fir, %g_w1, %g_b1, %g_w2, %g_b2, %g_w_head, %g_b_head : tensor<f32>, tensor<1x1x5xf32>, tensor<16x32x3xf32>, tensor<16xf32>, tensor<16x16x3xf32>, tensor<16xf32>, tensor<16x4xf32>, tensor<4xf32>
}

func.func @waveform_gradient(%fir: tensor<1x1x5xf32>, %w1: tensor<16x32x3xf32>, %b1: tensor<16xf32>, %w2: tensor<16x16x3xf32>, %b2: tensor<16xf32>, %w_head: tensor<16x4xf32>, %b_head: tensor<4xf32>, %waveform: tensor<16x4000xf32>, %labels: tensor<16xi64>)
    -> tensor<16x4000xf32> {
  %loss, %g_waveform = func.call @waveform_loss_grad(%fir, %w1, %b1, %w2, %b2, %w_head, %b_head, %waveform, %labels)
      : (tensor<1x1x5xf32>, tensor<16x32x3xf32>, tensor<16xf32>, tensor<16x16x3xf32>, tensor<16xf32>, tensor<16x4xf32>, tensor<4xf32>, tensor<16x4000xf32>, tensor<16xi64>) -> (tensor<f32>, tensor<16x4000xf32>)
  return %g_waveform : tensor<16x4000xf32>
}
