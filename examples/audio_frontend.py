#!/usr/bin/env python3
"""Trains the audio classifier of examples/audio_frontend.mlir with SGD.

    audio_frontend.py [--steps N] [--check]

The data (seeded, numpy): 16 waveforms of 4000 samples at 8 kHz, four of
each class: a steady tone (300 to 3000 Hz), a linear chirp rising from 200-800
Hz to 2000-3500 Hz, the same falling, and a Hann-shaped burst of white noise
(600 to 1200 samples at a random time), each of a random level, all over
white noise of standard deviation 0.05. The model: a learnable 5-tap FIR
filter (initialized as the pre-emphasis x[t] - 0.5 x[t-1]), rlx.log_mel
(n_fft 256, hop 128, 32 HTK mel bands, log(x + 1e-10)), each band's mean
over the 32 frames removed, two 1-D convolutions over time with relu, a
global average pool and a linear head. Each step runs @train_step (the loss,
its gradient through rlx.log_mel's decomposition into rlx.pad, rlx.gather,
rlx.rfft, rlx.complex_norm_sq, the filterbank matmul and rlx.log, and an
SGD update with learning rate 0.5) and prints the loss; the accuracy on the
training batch (@logits) is printed before and after.

With --check the same training runs in PyTorch (float32, the same initial
parameters): the front end as torchaudio's MelSpectrogram computes it,
torch.stft (center, reflect padding, periodic Hann window) squared in
magnitude times torchaudio's HTK filterbank (melscale_fbanks with norm
None, written in numpy: torchaudio is not a dependency), then
nn.Conv1d, nn.Linear, F.cross_entropy and torch.optim.SGD. At the initial
parameters @features (the FIR filter and rlx.log_mel) must agree within
1e-4 of the largest magnitude, each gradient of @gradients (the FIR taps'
included, which flows back through the log-mel spectrogram) and
@waveform_gradient (the gradient with respect to every input sample)
within 1e-4 of its largest magnitude; every step's loss within a relative
1e-4 and each final parameter within 1e-4 of its largest magnitude. The
loss must fall by a half at least and the training-batch accuracy reach
3/4 from below it. The script exits 1 otherwise.
"""
import argparse
import os
import sys

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "python"))
import rlx  # noqa: E402
from rlx_testing.examples import (  # noqa: E402
    compare_training, train_with_rlx)

MLIR = os.path.join(ROOT, "examples", "audio_frontend.mlir")
SAMPLE_RATE, SAMPLES, N_FFT, HOP, N_MELS, LOG_EPS = 8000, 4000, 256, 128, 32, 1e-10
BATCH, CLASSES, HIDDEN, FIR_TAPS = 16, 4, 16, 5
CLASS_NAMES = ["tone", "rising chirp", "falling chirp", "noise burst"]
LEARNING_RATE = 0.5
TOLERANCE = 1e-4
PARAMETERS = ["fir", "w1", "b1", "w2", "b2", "w_head", "b_head"]


def dataset():
    """(waveforms [16, 4000] float32, labels [16] int64): sample i is of
    class i mod 4."""
    rng = np.random.default_rng(0)
    t = np.arange(SAMPLES) / SAMPLE_RATE
    duration = t[-1]
    labels = np.arange(BATCH) % CLASSES
    waves = np.zeros((BATCH, SAMPLES))
    for i, label in enumerate(labels):
        level = rng.uniform(0.5, 1.0)
        if CLASS_NAMES[label] == "tone":
            f = rng.uniform(300, 3000)
            s = np.sin(2 * np.pi * f * t + rng.uniform(0, 2 * np.pi))
        elif "chirp" in CLASS_NAMES[label]:
            f0, f1 = rng.uniform(200, 800), rng.uniform(2000, 3500)
            if CLASS_NAMES[label] == "falling chirp":
                f0, f1 = f1, f0
            s = np.sin(2 * np.pi * (f0 * t + (f1 - f0) * t * t
                                    / (2 * duration)))
        else:
            start, n = rng.integers(0, SAMPLES - 1500), rng.integers(600, 1200)
            s = np.zeros(SAMPLES)
            s[start:start + n] = rng.standard_normal(n) * np.hanning(n)
        waves[i] = level * s + 0.05 * rng.standard_normal(SAMPLES)
    return waves.astype(np.float32), labels.astype(np.int64)


def mel_filterbank(n_freqs, f_min, f_max, n_mels, sample_rate):
    """torchaudio.functional.melscale_fbanks(n_freqs, f_min, f_max, n_mels,
    sample_rate, norm=None, mel_scale="htk") in numpy: [n_freqs, n_mels]."""
    def hz_to_mel(f):
        return 2595.0 * np.log10(1.0 + f / 700.0)

    def mel_to_hz(m):
        return 700.0 * (10.0 ** (m / 2595.0) - 1.0)

    all_freqs = np.linspace(0, sample_rate // 2, n_freqs)
    f_pts = mel_to_hz(np.linspace(hz_to_mel(f_min), hz_to_mel(f_max),
                                  n_mels + 2))
    f_diff = f_pts[1:] - f_pts[:-1]
    slopes = f_pts[None, :] - all_freqs[:, None]
    down_slopes = -slopes[:, :-2] / f_diff[:-1]
    up_slopes = slopes[:, 2:] / f_diff[1:]
    return np.maximum(0.0, np.minimum(down_slopes, up_slopes))


FILTERBANK = torch.tensor(mel_filterbank(
    N_FFT // 2 + 1, 0.0, SAMPLE_RATE / 2, N_MELS, SAMPLE_RATE),
    dtype=torch.float32)


def log_mel(x):
    """torchaudio's MelSpectrogram(SAMPLE_RATE, N_FFT, hop_length=HOP,
    n_mels=N_MELS, power=2) of x [B, T], then log(. + LOG_EPS):
    [B, N_MELS, 1 + T // HOP]."""
    spec = torch.stft(x, N_FFT, HOP, window=torch.hann_window(
        N_FFT, periodic=True), center=True, pad_mode="reflect",
        return_complex=True)
    power = spec.abs().pow(2)
    mel = torch.matmul(power.transpose(-1, -2), FILTERBANK).transpose(-1, -2)
    return torch.log(mel + LOG_EPS)


class AudioClassifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.fir = nn.Parameter(torch.tensor([[[0.0, -0.5, 1.0, 0.0, 0.0]]]))
        self.conv1 = nn.Conv1d(N_MELS, HIDDEN, 3, padding=1)
        self.conv2 = nn.Conv1d(HIDDEN, HIDDEN, 3, stride=2, padding=1)
        self.head = nn.Linear(HIDDEN, CLASSES)

    def features(self, waveform):
        filtered = F.conv1d(waveform[:, None], self.fir,
                            padding=FIR_TAPS // 2)[:, 0]
        return log_mel(filtered)

    def logits(self, waveform):
        mel = self.features(waveform)
        h = 0.5 * (mel - mel.mean(2, keepdim=True))
        h = F.relu(self.conv2(F.relu(self.conv1(h))))
        return self.head(h.mean(2))

    def forward(self, waveform, labels):
        return F.cross_entropy(self.logits(waveform), labels)

    def parameters_in_module_order(self, gradients=False):
        """The @loss arguments: fir, w1, b1, w2, b2, w_head, b_head (the
        head's weight transposed: the module multiplies on the right);
        with `gradients`, their .grad in the same layout."""
        order = [(self.fir, False), (self.conv1.weight, False),
                 (self.conv1.bias, False), (self.conv2.weight, False),
                 (self.conv2.bias, False), (self.head.weight, True),
                 (self.head.bias, False)]
        tensors = [(p.grad if gradients else p, t) for p, t in order]
        return [p.t() if t else p for p, t in tensors]


def relative(got, want):
    """The largest |got - want| relative to want's largest magnitude."""
    want = np.asarray(want, np.float64)
    return float(np.abs(np.asarray(got, np.float64) - want).max()
                 / np.abs(want).max())


def accuracy(logits, labels):
    return float(np.mean(np.argmax(np.asarray(logits), 1) == labels))


def check_first_step(module, params, waveform, labels, model):
    """At the initial parameters (`model` after its first backward pass):
    @features against the PyTorch front end, each gradient of @gradients
    against the .grad of `model`, and @waveform_gradient against
    torch.autograd's. Returns the number of failures."""
    failures = 0
    x = torch.tensor(waveform)
    with torch.no_grad():
        want = model.features(x).numpy()
    error = relative(module["features"](params[0], waveform), want)
    print(f"log-mel features at step 0: largest difference {error:.1e} of "
          f"the largest magnitude (range {want.min():.2f} to "
          f"{want.max():.2f})")
    failures += error > TOLERANCE

    _, *got = module["gradients"](*params, waveform, labels)
    worst, name = 0.0, None
    for i, (g, want) in enumerate(zip(
            got, model.parameters_in_module_order(gradients=True))):
        error = relative(g, want.detach().numpy())
        if error > worst:
            worst, name = error, PARAMETERS[i]
    fir_error = relative(got[0], model.fir.grad.numpy())
    print(f"gradients at step 0: largest difference {worst:.1e} of the "
          f"gradient's largest magnitude ({name}); the FIR taps' "
          f"{fir_error:.1e}")
    failures += worst > TOLERANCE

    x.requires_grad_(True)
    copy = AudioClassifier()
    copy.load_state_dict(model.state_dict())
    copy(x, torch.tensor(labels)).backward()
    error = relative(module["waveform_gradient"](*params, waveform, labels),
                     x.grad.numpy())
    print(f"waveform gradient at step 0: largest difference {error:.1e} of "
          "its largest magnitude")
    failures += error > TOLERANCE
    return int(failures)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=20)
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args()

    torch.manual_seed(0)
    model = AudioClassifier()
    waveform, labels = dataset()
    params = [p.detach().numpy().astype(np.float32).copy()
              for p in model.parameters_in_module_order()]
    initial = [p.copy() for p in params]
    module = rlx.compile_file(MLIR)
    before = accuracy(module["logits"](*params, waveform), labels)
    losses, params = train_with_rlx(module, params, (waveform, labels),
                                    args.steps)
    after = accuracy(module["logits"](*params, waveform), labels)
    print(f"training-batch accuracy: {before:.4f} before, {after:.4f} after "
          f"{args.steps} steps")

    if not args.check:
        return 0
    optimizer = torch.optim.SGD(model.parameters(), lr=LEARNING_RATE)
    batch = (torch.tensor(waveform), torch.tensor(labels))
    failures = compare_training(
        losses, params, model, optimizer, batch,
        after_backward=lambda step: check_first_step(
            module, initial, waveform, labels, model) if step == 0 else 0)
    learned = 0
    if not losses[-1] < 0.5 * losses[0]:
        print(f"the loss did not halve: {losses[0]:.4f} -> {losses[-1]:.4f}")
        learned += 1
    if not before < 0.75 <= after:
        print("the training-batch accuracy did not reach 3/4")
        learned += 1
    if learned and not failures:
        print("check: FAILED")
    failures += learned
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
