//===- RlxSignalOps.td - FFTs, complex numbers, spectra ----*- tablegen -*-===//
//
// Discrete Fourier transforms along the last axis (torch.fft's fft, ifft,
// rfft, irfft), the complex numbers they produce (MLIR's `complex<f32>` and
// `complex<f64>` elements: built from and viewed as real tensors, conjugated,
// squared in magnitude), and the spectral front ends built on them: a
// log-mel spectrogram (torchaudio's MelSpectrogram, then a log) and Welch
// peaks. Included by RlxOps.td.
//
// Complex tensors have no elementwise arithmetic of their own: gradients
// and user code go through `rlx.real`, `rlx.imag` and `rlx.complex`.
//
//===----------------------------------------------------------------------===//
#ifndef RLX_DIALECT_RLX_IR_RLXSIGNALOPS_TD
#define RLX_DIALECT_RLX_IR_RLXSIGNALOPS_TD

include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "rlx/Dialect/Rlx/IR/RlxDialect.td"
include "rlx/Dialect/Rlx/IR/RlxInterfaces.td"

def Rlx_ComplexTensor : RankedTensorOf<[Complex<F32>, Complex<F64>]>;
def Rlx_RealTensor : RankedTensorOf<[F32, F64]>;

def Rlx_FftNorm : I32EnumAttr<"FftNorm",
    "the scaling of a discrete Fourier transform (torch.fft's `norm`)", [
    I32EnumAttrCase<"Backward", 0, "backward">,
    I32EnumAttrCase<"Forward", 1, "forward">,
    I32EnumAttrCase<"Ortho", 2, "ortho">
  ]> {
  let cppNamespace = "::mlir::rlx";
}

defvar Rlx_FftDoc = [{
    Along the last axis, whose length `n` must be static and at most 2^20
    (the transform's factorization and tables are made at compile time);
    the other dimensions may be `?`. `norm` scales as torch.fft does: `backward` (the default) leaves
    the forward transform unscaled and divides the inverse by `n`,
    `forward` the other way round, `ortho` divides both by `sqrt(n)`.

    Any length: a mixed-radix Stockham FFT (radices 4, 2, 3, 5; twiddles
    computed in double at compile time) when `n` has no other prime
    factor, Bluestein's chirp-z transform through a power-of-two FFT of at
    least `2n - 1` points otherwise, O(n log n) either way.
}];

class Rlx_FourierOp<string mnemonic, list<Trait> traits = []>
    : Rlx_Op<mnemonic, !listconcat([Pure, InferTypeOpAdaptor, Rlx_ShapeRule],
                                   traits)>;

def Rlx_FftOp : Rlx_FourierOp<"fft"> {
  let summary = "discrete Fourier transform along the last axis";
  let description = !strconcat([{
    `torch.fft.fft(x, dim=-1, norm=norm)`:
    `y[k] = sum_j x[j] exp(-2 pi i j k / n)`, scaled by `norm`.
  }], Rlx_FftDoc, [{
    Gradient: `rlx.ifft` of the gradient with the dual `norm` (the
    adjoint transform).

    ```mlir
    %y = rlx.fft %x norm = ortho : tensor<?x12xcomplex<f32>>
    ```
  }]);
  let arguments = (ins Rlx_ComplexTensor:$input,
                       DefaultValuedAttr<Rlx_FftNorm, "FftNorm::Backward">:$norm);
  let results = (outs Rlx_ComplexTensor:$result);
  let assemblyFormat = "$input (`norm` `=` $norm^)? attr-dict `:` type($input)";
}

def Rlx_IfftOp : Rlx_FourierOp<"ifft"> {
  let summary = "inverse discrete Fourier transform along the last axis";
  let description = !strconcat([{
    `torch.fft.ifft(x, dim=-1, norm=norm)`:
    `y[j] = sum_k x[k] exp(2 pi i j k / n)`, divided by `n` with the
    default `norm`.
  }], Rlx_FftDoc, [{
    Gradient: `rlx.fft` of the gradient with the dual `norm`.
  }]);
  let arguments = (ins Rlx_ComplexTensor:$input,
                       DefaultValuedAttr<Rlx_FftNorm, "FftNorm::Backward">:$norm);
  let results = (outs Rlx_ComplexTensor:$result);
  let assemblyFormat = "$input (`norm` `=` $norm^)? attr-dict `:` type($input)";
}

def Rlx_RfftOp : Rlx_FourierOp<"rfft"> {
  let summary = "Fourier transform of a real signal, non-negative frequencies";
  let description = !strconcat([{
    `torch.fft.rfft(x, dim=-1, norm=norm)`: the first `n / 2 + 1` bins
    (rounded down) of `rlx.fft` of the real `x` `[..., n]`, a complex
    tensor of `x`'s precision; the others are their conjugates.
  }], Rlx_FftDoc, [{
    Gradient: the real part of `rlx.ifft`, with the dual `norm`, of the
    gradient padded with zeros to `n` bins.

    ```mlir
    %spectrum = rlx.rfft %frames : tensor<?x100x400xf32> -> tensor<?x100x201xcomplex<f32>>
    ```
  }]);
  let arguments = (ins Rlx_RealTensor:$input,
                       DefaultValuedAttr<Rlx_FftNorm, "FftNorm::Backward">:$norm);
  let results = (outs Rlx_ComplexTensor:$result);
  let assemblyFormat = [{
    $input (`norm` `=` $norm^)? attr-dict `:` type($input) `->` type($result)
  }];
}

def Rlx_IrfftOp : Rlx_FourierOp<"irfft"> {
  let summary = "inverse of rfft: a real signal from its non-negative bins";
  let description = !strconcat([{
    `torch.fft.irfft(x, n=n, dim=-1, norm=norm)`: the real signal
    `[..., n]` whose `rlx.rfft` the complex `x` `[..., m]` holds, taking
    the other bins as the conjugates of these: the first `n / 2 + 1` bins
    of `x` are used (zeros past `m`), and the imaginary parts of the zero
    and (for even `n`) the Nyquist bins are ignored. `n` defaults to
    `2 (m - 1)`.
  }], Rlx_FftDoc, [{
    Gradient: `rlx.rfft` of the gradient with the dual `norm`, the bins
    that stand for two (all but the zero and Nyquist bins) doubled, zeros
    for the bins not used.

    ```mlir
    %signal = rlx.irfft %spectrum n = 400 : tensor<8x201xcomplex<f64>> -> tensor<8x400xf64>
    ```
  }]);
  let arguments = (ins Rlx_ComplexTensor:$input, OptionalAttr<Rlx_I64Attr>:$n,
                       DefaultValuedAttr<Rlx_FftNorm, "FftNorm::Backward">:$norm);
  let results = (outs Rlx_RealTensor:$result);
  let assemblyFormat = [{
    $input (`n` `=` $n^)? (`norm` `=` $norm^)? attr-dict `:` type($input)
    `->` type($result)
  }];
  let extraClassDeclaration = [{
    /// The length of the result's last axis: `n`, or 2 (m - 1).
    int64_t getSignalLength();
  }];
}

//===----------------------------------------------------------------------===//
// Complex numbers
//===----------------------------------------------------------------------===//

def Rlx_ComplexOp : Rlx_Op<"complex", [Pure, InferTypeOpAdaptor,
                                       AllTypesMatch<["real", "imag"]>,
                                       Rlx_SymbolicShapeOpInterface]> {
  let summary = "complex numbers from their real and imaginary parts";
  let description = [{
    `torch.complex(real, imag)`: `real + i imag` elementwise, of two real
    tensors of one shape and element type (f32 or f64, giving
    `complex<f32>` or `complex<f64>`). Gradient: the real and imaginary
    parts of the gradient.

    ```mlir
    %z = rlx.complex %re, %im : tensor<4x8xf32> -> tensor<4x8xcomplex<f32>>
    ```
  }];
  let arguments = (ins Rlx_RealTensor:$real, Rlx_RealTensor:$imag);
  let results = (outs Rlx_ComplexTensor:$result);
  let assemblyFormat = [{
    $real `,` $imag attr-dict `:` type($real) `->` type($result)
  }];
}

class Rlx_ComplexViewOp<string mnemonic, string part, string gradient>
    : Rlx_Op<mnemonic, [Pure, InferTypeOpAdaptor,
                        Rlx_SymbolicShapeOpInterface]> {
  let summary = "the " # part # " part of complex numbers";
  let description = [{
    `torch.}] # mnemonic # [{(z)`: the }] # part # [{ part of every
    element of the complex `input`, a real tensor of its shape and
    precision. Gradient: }] # gradient # [{.
  }];
  let arguments = (ins Rlx_ComplexTensor:$input);
  let results = (outs Rlx_RealTensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
}

def Rlx_RealOp : Rlx_ComplexViewOp<"real", "real",
    "the gradient as the real part, with a zero imaginary part">;
def Rlx_ImagOp : Rlx_ComplexViewOp<"imag", "imaginary",
    "the gradient as the imaginary part, with a zero real part">;

def Rlx_ConjugateOp : Rlx_Op<"conjugate", [Pure, SameOperandsAndResultType,
                                           Rlx_SymbolicShapeOpInterface]> {
  let summary = "complex conjugate";
  let description = [{
    `torch.conj(z)` (materialized): `re - i im` elementwise. Gradient: the
    conjugate of the gradient.

    ```mlir
    %c = rlx.conjugate %z : tensor<16xcomplex<f64>>
    ```
  }];
  let arguments = (ins Rlx_ComplexTensor:$input);
  let results = (outs Rlx_ComplexTensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input)";
}

def Rlx_ComplexNormSqOp : Rlx_Op<"complex_norm_sq", [Pure, InferTypeOpAdaptor,
    Rlx_SymbolicShapeOpInterface]> {
  let summary = "squared magnitude of complex numbers";
  let description = [{
    `z.abs() ** 2` computed as `re^2 + im^2` (no square root): the power
    of a spectrum, real, of the input's shape and precision. Gradient
    (torch's convention for complex inputs, the conjugate Wirtinger
    derivative times 2): `2 z g` for the real gradient `g`.

    ```mlir
    %power = rlx.complex_norm_sq %spectrum : tensor<?x201xcomplex<f32>> -> tensor<?x201xf32>
    ```
  }];
  let arguments = (ins Rlx_ComplexTensor:$input);
  let results = (outs Rlx_RealTensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
}

//===----------------------------------------------------------------------===//
// Spectral front ends
//===----------------------------------------------------------------------===//

def Rlx_LogMelOp : Rlx_Op<"log_mel", [Pure, InferTypeOpAdaptor, Rlx_ShapeRule,
    DeclareOpInterfaceMethods<Rlx_DecomposableOpInterface>]> {
  let summary = "log-mel spectrogram";
  let description = [{
    The log of torchaudio's `MelSpectrogram(sample_rate, n_fft,
    hop_length=hop_length, f_min, f_max, n_mels, power=2)` of the real
    signals `input` `[..., T]` (T static): frames of `n_fft` samples every
    `hop_length`, the signal padded by `n_fft / 2` reflected samples on
    each side (`center=True`), each frame times a periodic Hann window,
    its power spectrum `|rfft|^2`, and the HTK mel filterbank (`n_mels`
    triangles between `f_min` and `f_max`, default `sample_rate / 2`, no
    normalization); then `log(mel + eps)`. The result is
    `[..., n_mels, frames]`, torchaudio's layout, with `frames = 1 + (T +
    2 (n_fft / 2) - n_fft) / hop_length` (`1 + T / hop_length` for an even
    `n_fft`). The frames' index table, frames times `n_fft`, is a constant
    of at most 2^24 elements.

    Defined by its decomposition (`--rlx-decompose`): `rlx.pad` reflect,
    an `rlx.gather` of the frames, the window, `rlx.rfft`,
    `rlx.complex_norm_sq`, a matmul with the filterbank (a constant
    computed at compile time), `rlx.log`; its gradient is theirs.

    ```mlir
    %mel = rlx.log_mel %audio sample_rate = 16000 n_fft = 400 hop_length = 160
        n_mels = 80 : tensor<?x16000xf32> -> tensor<?x80x101xf32>
    ```
  }];
  let arguments = (ins Rlx_RealTensor:$input, F64Attr:$sample_rate,
                       Rlx_I64Attr:$n_fft, Rlx_I64Attr:$hop_length,
                       Rlx_I64Attr:$n_mels,
                       DefaultValuedAttr<F64Attr, "0.0">:$f_min,
                       OptionalAttr<F64Attr>:$f_max,
                       DefaultValuedAttr<F64Attr, "1e-10">:$eps);
  let results = (outs Rlx_RealTensor:$result);
  let assemblyFormat = [{
    $input `sample_rate` `=` $sample_rate `n_fft` `=` $n_fft
    `hop_length` `=` $hop_length `n_mels` `=` $n_mels
    (`f_min` `=` $f_min^)? (`f_max` `=` $f_max^)? (`eps` `=` $eps^)?
    attr-dict `:` type($input) `->` type($result)
  }];
}

def Rlx_WelchPeaksOp : Rlx_Op<"welch_peaks", [Pure, InferTypeOpAdaptor,
    Rlx_ShapeRule, DeclareOpInterfaceMethods<Rlx_DecomposableOpInterface>]> {
  let summary = "the strongest bins of Welch's power spectral density";
  let description = [{
    The `k` largest values of the Welch power spectral density of the real
    signals `input` `[..., T]` (T static) and their frequency bins:
    `scipy.signal.welch(x, fs=sample_rate, nperseg=segment,
    noverlap=overlap)`'s defaults, i.e. segments of `segment` samples every
    `segment - overlap` (`overlap` defaults to `segment / 2`; trailing
    samples that fill no segment are dropped), each with its mean removed
    and times a periodic Hann window `w`, `|rfft|^2 / (sample_rate *
    sum w^2)`, doubled for every bin but the zero and (even `segment`)
    Nyquist bins, averaged over the segments. Results: `power` `[..., k]`
    in descending order (ties to the lower bin) and `bins` (i64) `[..., k]`,
    the frequency of bin `b` being `b * sample_rate / segment`.

    Defined by its decomposition: segments by `rlx.gather`, `rlx.rfft`,
    `rlx.complex_norm_sq`, a mean, `rlx.topk`; the power's gradient is
    theirs.

    ```mlir
    %power, %bins = rlx.welch_peaks %x segment = 256 k = 3 sample_rate = 1000.0
        : tensor<4x4096xf64> -> tensor<4x3xf64>, tensor<4x3xi64>
    ```
  }];
  let arguments = (ins Rlx_RealTensor:$input, Rlx_I64Attr:$segment,
                       OptionalAttr<Rlx_I64Attr>:$overlap, Rlx_I64Attr:$k,
                       DefaultValuedAttr<F64Attr, "1.0">:$sample_rate);
  let results = (outs Rlx_RealTensor:$power, RankedTensorOf<[I64]>:$bins);
  let assemblyFormat = [{
    $input `segment` `=` $segment (`overlap` `=` $overlap^)? `k` `=` $k
    (`sample_rate` `=` $sample_rate^)? attr-dict `:` type($input) `->`
    type($power) `,` type($bins)
  }];
  let extraClassDeclaration = [{
    /// The samples two segments share: `overlap`, or segment / 2.
    int64_t getOverlapOrDefault() {
      return getOverlap() ? *getOverlap() : getSegment() / 2;
    }
  }];
}

#endif // RLX_DIALECT_RLX_IR_RLXSIGNALOPS_TD
