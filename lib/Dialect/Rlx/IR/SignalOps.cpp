//===- SignalOps.cpp - FFTs, complex numbers, spectra: type rules ---------===//
//
// The shape rules of the transforms and complex views, and the
// decompositions of the spectral front ends (rlx.log_mel, rlx.welch_peaks)
// into frames, windows, rlx.rfft and reductions. Their constants (frame
// indices, windows, the mel filterbank) are computed here in double and
// rounded once to the element type.
//
//===----------------------------------------------------------------------===//
#include "rlx/Dialect/Rlx/IR/RlxOps.h"

#include "OpUtils.h"
#include "PrimitiveBuilder.h"

#include <cmath>

using namespace mlir;
using namespace mlir::rlx;

/// The complex type of the real `element` (f32 or f64), or null.
static Type getComplexOf(Type element) {
  if (!element.isF32() && !element.isF64())
    return Type();
  return ComplexType::get(element);
}

/// The real type of a complex `element`, or null.
static Type getRealOf(Type element) {
  auto complex = dyn_cast<ComplexType>(element);
  return complex ? complex.getElementType() : Type();
}

/// The longest transform: its twiddles, chirp and kernel transform are
/// compile-time constants of a few times its length.
static constexpr int64_t kMaxFftLength = int64_t(1) << 20;

/// The most elements of the frame index tables of rlx.log_mel and
/// rlx.welch_peaks (i64 constants).
static constexpr int64_t kMaxFrameTableSize = int64_t(1) << 24;

/// The shape of `value`, after checking that it is ranked with rank >= 1
/// and, with `staticLast`, that its last size is static and at most
/// `maxLast`.
static FailureOr<SymbolicShape>
getSignalShape(ShapeContext &context, std::optional<Location> loc, Value value,
               bool staticLast, int64_t maxLast = kMaxFftLength) {
  FailureOr<RankedTensorType> type = getRankedType(loc, value, "input");
  if (failed(type))
    return failure();
  if (type->getRank() < 1)
    return emitOptionalError(loc,
                             "input must have rank >= 1 (signals along "
                             "the last axis), got ",
                             *type);
  if (staticLast && type->isDynamicDim(type->getRank() - 1))
    return emitOptionalError(loc,
                             "the transformed (last) axis must be static, "
                             "got ",
                             *type);
  if (staticLast && type->getShape().back() > maxLast)
    return emitOptionalError(loc, "the transformed (last) axis has ",
                             type->getShape().back(),
                             " points, more than the supported ", maxLast,
                             " (the transform's tables are constants)");
  return context.getShape(value);
}

static Type getElementType(Value value) {
  return getElementTypeOrSelf(value.getType());
}

//===----------------------------------------------------------------------===//
// FftOp / IfftOp / RfftOp / IrfftOp
//===----------------------------------------------------------------------===//

LogicalResult FftOp::inferReturnTypes(MLIRContext *context,
                                      std::optional<Location> loc,
                                      Adaptor adaptor,
                                      SmallVectorImpl<Type> &inferred) {
  Value input = adaptor.getInput();
  ShapeContext shapes(context);
  return appendType(getSignalShape(shapes, loc, input, /*staticLast=*/true),
                    getElementType(input), inferred);
}

LogicalResult
FftOp::inferSymbolicShapes(ShapeContext &context,
                           SmallVectorImpl<SymbolicShape> &shapes) {
  return appendShape(getSignalShape(context, getLoc(), getInput(), true),
                     shapes);
}

LogicalResult IfftOp::inferReturnTypes(MLIRContext *context,
                                       std::optional<Location> loc,
                                       Adaptor adaptor,
                                       SmallVectorImpl<Type> &inferred) {
  Value input = adaptor.getInput();
  ShapeContext shapes(context);
  return appendType(getSignalShape(shapes, loc, input, /*staticLast=*/true),
                    getElementType(input), inferred);
}

LogicalResult
IfftOp::inferSymbolicShapes(ShapeContext &context,
                            SmallVectorImpl<SymbolicShape> &shapes) {
  return appendShape(getSignalShape(context, getLoc(), getInput(), true),
                     shapes);
}

/// rfft: `[..., n]` to `[..., n / 2 + 1]`.
static FailureOr<SymbolicShape> inferRfftShape(ShapeContext &context,
                                               std::optional<Location> loc,
                                               Value input) {
  FailureOr<SymbolicShape> shape =
      getSignalShape(context, loc, input, /*staticLast=*/true);
  if (failed(shape))
    return failure();
  int64_t n = cast<RankedTensorType>(input.getType()).getShape().back();
  shape->back() = context.getConstant(n / 2 + 1);
  return shape;
}

LogicalResult RfftOp::inferReturnTypes(MLIRContext *context,
                                       std::optional<Location> loc,
                                       Adaptor adaptor,
                                       SmallVectorImpl<Type> &inferred) {
  Value input = adaptor.getInput();
  Type complex = getComplexOf(getElementType(input));
  if (!complex)
    return emitOptionalError(loc, "input must have f32 or f64 elements");
  ShapeContext shapes(context);
  return appendType(inferRfftShape(shapes, loc, input), complex, inferred);
}

LogicalResult
RfftOp::inferSymbolicShapes(ShapeContext &context,
                            SmallVectorImpl<SymbolicShape> &shapes) {
  return appendShape(inferRfftShape(context, getLoc(), getInput()), shapes);
}

/// irfft: `[..., m]` to `[..., n]`, n given or 2 (m - 1).
static FailureOr<SymbolicShape> inferIrfftShape(ShapeContext &context,
                                                std::optional<Location> loc,
                                                Value input,
                                                std::optional<int64_t> n) {
  FailureOr<SymbolicShape> shape =
      getSignalShape(context, loc, input, /*staticLast=*/!n);
  if (failed(shape))
    return failure();
  int64_t length =
      n ? *n
        : 2 * (cast<RankedTensorType>(input.getType()).getShape().back() - 1);
  if (length < 1 || length > kMaxFftLength)
    return emitOptionalError(loc, "the signal length must be in [1, ",
                             kMaxFftLength, "], got ", length);
  shape->back() = context.getConstant(length);
  return shape;
}

LogicalResult IrfftOp::inferReturnTypes(MLIRContext *context,
                                        std::optional<Location> loc,
                                        Adaptor adaptor,
                                        SmallVectorImpl<Type> &inferred) {
  Value input = adaptor.getInput();
  std::optional<int64_t> n;
  if (IntegerAttr attr = adaptor.getNAttr())
    n = attr.getInt();
  ShapeContext shapes(context);
  return appendType(inferIrfftShape(shapes, loc, input, n),
                    getRealOf(getElementType(input)), inferred);
}

LogicalResult
IrfftOp::inferSymbolicShapes(ShapeContext &context,
                             SmallVectorImpl<SymbolicShape> &shapes) {
  return appendShape(inferIrfftShape(context, getLoc(), getInput(), getN()),
                     shapes);
}

int64_t IrfftOp::getSignalLength() { return getType().getShape().back(); }

//===----------------------------------------------------------------------===//
// ComplexOp / RealOp / ImagOp / ComplexNormSqOp
//===----------------------------------------------------------------------===//

LogicalResult ComplexOp::inferReturnTypes(MLIRContext *context,
                                          std::optional<Location> loc,
                                          Adaptor adaptor,
                                          SmallVectorImpl<Type> &inferred) {
  Type real = adaptor.getReal().getType(), imag = adaptor.getImag().getType();
  if (real != imag)
    return emitOptionalError(loc,
                             "the real and imaginary parts must have one "
                             "type, got ",
                             real, " and ", imag);
  auto type = dyn_cast<RankedTensorType>(real);
  Type complex = type ? getComplexOf(type.getElementType()) : Type();
  if (!complex)
    return emitOptionalError(loc, "the parts must be f32 or f64 tensors");
  inferred.push_back(type.clone(complex));
  return success();
}

/// The real tensor of a complex `input`'s shape and precision.
static LogicalResult inferRealView(std::optional<Location> loc, Value input,
                                   SmallVectorImpl<Type> &inferred) {
  auto type = dyn_cast<RankedTensorType>(input.getType());
  Type real = type ? getRealOf(type.getElementType()) : Type();
  if (!real)
    return emitOptionalError(loc, "input must be a complex tensor");
  inferred.push_back(type.clone(real));
  return success();
}

LogicalResult RealOp::inferReturnTypes(MLIRContext *,
                                       std::optional<Location> loc,
                                       Adaptor adaptor,
                                       SmallVectorImpl<Type> &inferred) {
  return inferRealView(loc, adaptor.getInput(), inferred);
}

LogicalResult ImagOp::inferReturnTypes(MLIRContext *,
                                       std::optional<Location> loc,
                                       Adaptor adaptor,
                                       SmallVectorImpl<Type> &inferred) {
  return inferRealView(loc, adaptor.getInput(), inferred);
}

LogicalResult
ComplexNormSqOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                                  Adaptor adaptor,
                                  SmallVectorImpl<Type> &inferred) {
  return inferRealView(loc, adaptor.getInput(), inferred);
}

//===----------------------------------------------------------------------===//
// Frames and windows
//===----------------------------------------------------------------------===//

/// A constant tensor of `shape` and element type `element` (f32 or f64)
/// holding `values` (doubles, rounded once).
static Value createConstant(OpBuilder &b, Location loc, Type element,
                            ArrayRef<int64_t> shape, ArrayRef<double> values) {
  auto type = RankedTensorType::get(shape, element);
  SmallVector<APFloat> elements;
  for (double value : values) {
    APFloat rounded(value);
    bool losesInfo;
    rounded.convert(cast<FloatType>(element).getFloatSemantics(),
                    APFloat::rmNearestTiesToEven, &losesInfo);
    elements.push_back(rounded);
  }
  return ConstantOp::create(b, loc, DenseElementsAttr::get(type, elements));
}

/// The periodic Hann window of `length` (torch.hann_window's default):
/// 0.5 - 0.5 cos(2 pi i / length).
static SmallVector<double> getHannWindow(int64_t length) {
  SmallVector<double> window;
  for (int64_t i = 0; i < length; ++i)
    window.push_back(0.5 - 0.5 * std::cos(2.0 * M_PI * i / length));
  return window;
}

/// The `count` frames of `length` samples every `step` of the signals
/// `input` `[..., T]`: `[..., count, length]`, by an rlx.gather of a
/// constant index table.
static Value gatherFrames(OpBuilder &b, Location loc, Value input,
                          int64_t count, int64_t length, int64_t step) {
  SmallVector<int64_t> indices;
  for (int64_t frame = 0; frame < count; ++frame)
    for (int64_t i = 0; i < length; ++i)
      indices.push_back(frame * step + i);
  auto indexType = RankedTensorType::get({count, length}, b.getI64Type());
  Value table = ConstantOp::create(
      b, loc, DenseElementsAttr::get(indexType, ArrayRef(indices)));
  return GatherOp::create(b, loc, input, table, /*axis=*/-1);
}

//===----------------------------------------------------------------------===//
// LogMelOp
//===----------------------------------------------------------------------===//

/// The number of frames torch.stft(center=True) takes of a signal of
/// `length` samples.
static int64_t getFrameCount(int64_t length, int64_t nFft, int64_t hop) {
  return 1 + (length + 2 * (nFft / 2) - nFft) / hop;
}

static FailureOr<SymbolicShape> inferLogMelShape(ShapeContext &context,
                                                 std::optional<Location> loc,
                                                 LogMelOp::Adaptor op) {
  FailureOr<SymbolicShape> shape =
      getSignalShape(context, loc, op.getInput(), /*staticLast=*/true,
                     std::numeric_limits<int64_t>::max());
  if (failed(shape))
    return failure();
  int64_t length =
      cast<RankedTensorType>(op.getInput().getType()).getShape().back();
  int64_t nFft = op.getNFft(), hop = op.getHopLength(), nMels = op.getNMels();
  double sampleRate = op.getSampleRate().convertToDouble();
  double fMin = op.getFMin().convertToDouble();
  double fMax = op.getFMax() ? op.getFMax()->convertToDouble()
                             : std::floor(sampleRate / 2);
  if (nFft < 1 || hop < 1 || nMels < 1)
    return emitOptionalError(loc, "n_fft, hop_length and n_mels must be at "
                                  "least 1");
  if (!(sampleRate > 0) || !(fMin >= 0) || !(fMin < fMax))
    return emitOptionalError(loc, "expected 0 <= f_min < f_max and a positive "
                                  "sample_rate");
  if (nFft / 2 >= length)
    return emitOptionalError(
        loc, "the reflected padding n_fft / 2 = ", nFft / 2,
        " must be shorter than the signal, of length ", length);
  int64_t frames = getFrameCount(length, nFft, hop);
  if (nFft > kMaxFftLength || frames > kMaxFrameTableSize / nFft)
    return emitOptionalError(loc, "log_mel of ", frames, " frames of ", nFft,
                             " samples exceeds the supported frame table of ",
                             kMaxFrameTableSize, " samples");
  shape->back() = context.getConstant(nMels);
  shape->push_back(context.getConstant(frames));
  return shape;
}

LogicalResult LogMelOp::inferReturnTypes(MLIRContext *context,
                                         std::optional<Location> loc,
                                         Adaptor adaptor,
                                         SmallVectorImpl<Type> &inferred) {
  ShapeContext shapes(context);
  return appendType(inferLogMelShape(shapes, loc, adaptor),
                    getElementType(adaptor.getInput()), inferred);
}

LogicalResult
LogMelOp::inferSymbolicShapes(ShapeContext &context,
                              SmallVectorImpl<SymbolicShape> &shapes) {
  return appendShape(inferLogMelShape(context, getLoc(), Adaptor(*this)),
                     shapes);
}

/// torchaudio's HTK mel scale.
static double hzToMel(double hz) {
  return 2595.0 * std::log10(1.0 + hz / 700.0);
}
static double melToHz(double mel) {
  return 700.0 * (std::pow(10.0, mel / 2595.0) - 1.0);
}

/// torchaudio.functional.melscale_fbanks(n_freqs, f_min, f_max, n_mels,
/// sample_rate, norm=None, mel_scale="htk"): `[n_freqs, n_mels]`, the
/// frequencies of the bins spaced up to floor(sample_rate / 2).
static SmallVector<double> getMelFilterbank(int64_t nFreqs, double fMin,
                                            double fMax, int64_t nMels,
                                            double sampleRate) {
  SmallVector<double> freqs, points;
  double top = std::floor(sampleRate / 2);
  for (int64_t i = 0; i < nFreqs; ++i)
    freqs.push_back(nFreqs == 1 ? 0.0 : top * i / (nFreqs - 1));
  double melMin = hzToMel(fMin), melMax = hzToMel(fMax);
  for (int64_t i = 0; i < nMels + 2; ++i)
    points.push_back(melToHz(melMin + (melMax - melMin) * i / (nMels + 1)));
  SmallVector<double> bank;
  for (int64_t f = 0; f < nFreqs; ++f)
    for (int64_t m = 0; m < nMels; ++m) {
      double down = (freqs[f] - points[m]) / (points[m + 1] - points[m]);
      double up = (points[m + 2] - freqs[f]) / (points[m + 2] - points[m + 1]);
      bank.push_back(std::max(0.0, std::min(down, up)));
    }
  return bank;
}

SmallVector<Value> LogMelOp::decompose(OpBuilder &b) {
  Location loc = getLoc();
  PrimitiveBuilder pb(b, loc);
  RankedTensorType type = getInput().getType();
  Type element = type.getElementType();
  int64_t rank = type.getRank(), length = type.getShape().back();
  int64_t nFft = getNFft(), hop = getHopLength(), nMels = getNMels();
  int64_t frames = getFrameCount(length, nFft, hop), bins = nFft / 2 + 1;
  double sampleRate = getSampleRate().convertToDouble();
  double fMax =
      getFMax() ? getFMax()->convertToDouble() : std::floor(sampleRate / 2);
  // torch.stft(center=True, pad_mode="reflect"), framed and windowed.
  SmallVector<int64_t> pads(2 * rank, 0);
  pads[2 * rank - 2] = pads[2 * rank - 1] = nFft / 2;
  Value padded =
      PadOp::create(b, loc, getInput(), PadMode::Reflect, pads, FloatAttr());
  Value windowed = pb.op<MulOp>(
      gatherFrames(b, loc, padded, frames, nFft, hop),
      createConstant(b, loc, element, {nFft}, getHannWindow(nFft)));
  Value power =
      ComplexNormSqOp::create(b, loc, RfftOp::create(b, loc, windowed));
  Value filterbank =
      createConstant(b, loc, element, {bins, nMels},
                     getMelFilterbank(bins, getFMin().convertToDouble(), fMax,
                                      nMels, sampleRate));
  Value mel = pb.op<LogOp>(
      pb.op<AddOp>(pb.op<MatmulOp>(power, filterbank),
                   pb.scalar(element, getEps().convertToDouble())));
  // [..., frames, n_mels] to torchaudio's [..., n_mels, frames].
  SmallVector<int64_t> permutation =
      llvm::to_vector(llvm::seq<int64_t>(rank + 1));
  std::swap(permutation[rank], permutation[rank - 1]);
  return {pb.op<TransposeOp>(mel, permutation)};
}

//===----------------------------------------------------------------------===//
// WelchPeaksOp
//===----------------------------------------------------------------------===//

static FailureOr<SmallVector<SymbolicShape>>
inferWelchShapes(ShapeContext &context, std::optional<Location> loc,
                 WelchPeaksOp::Adaptor op) {
  FailureOr<SymbolicShape> shape =
      getSignalShape(context, loc, op.getInput(), /*staticLast=*/true,
                     std::numeric_limits<int64_t>::max());
  if (failed(shape))
    return failure();
  int64_t length =
      cast<RankedTensorType>(op.getInput().getType()).getShape().back();
  int64_t segment = op.getSegment(), k = op.getK();
  int64_t overlap = op.getOverlap() ? *op.getOverlap() : segment / 2;
  if (segment < 1 || segment > length)
    return emitOptionalError(loc, "segment must be in [1, ", length,
                             "] (the signal's length), got ", segment);
  if (overlap < 0 || overlap >= segment)
    return emitOptionalError(loc, "overlap must be in [0, segment), got ",
                             overlap);
  if (k < 1 || k > segment / 2 + 1)
    return emitOptionalError(loc, "k must be in [1, ", segment / 2 + 1,
                             "] (the number of bins), got ", k);
  if (!(op.getSampleRate().convertToDouble() > 0))
    return emitOptionalError(loc, "sample_rate must be positive");
  int64_t count = 1 + (length - segment) / (segment - overlap);
  if (segment > kMaxFftLength || count > kMaxFrameTableSize / segment)
    return emitOptionalError(loc, "welch_peaks of ", count, " segments of ",
                             segment,
                             " samples exceeds the supported frame table of ",
                             kMaxFrameTableSize, " samples");
  shape->back() = context.getConstant(k);
  return SmallVector<SymbolicShape>{*shape, *shape};
}

LogicalResult WelchPeaksOp::inferReturnTypes(MLIRContext *context,
                                             std::optional<Location> loc,
                                             Adaptor adaptor,
                                             SmallVectorImpl<Type> &inferred) {
  ShapeContext shapes(context);
  FailureOr<SmallVector<SymbolicShape>> result =
      inferWelchShapes(shapes, loc, adaptor);
  if (failed(result))
    return failure();
  inferred.push_back(
      ShapeContext::getType((*result)[0], getElementType(adaptor.getInput())));
  inferred.push_back(
      ShapeContext::getType((*result)[1], IntegerType::get(context, 64)));
  return success();
}

LogicalResult
WelchPeaksOp::inferSymbolicShapes(ShapeContext &context,
                                  SmallVectorImpl<SymbolicShape> &shapes) {
  FailureOr<SmallVector<SymbolicShape>> result =
      inferWelchShapes(context, getLoc(), Adaptor(*this));
  if (failed(result))
    return failure();
  llvm::append_range(shapes, *result);
  return success();
}

SmallVector<Value> WelchPeaksOp::decompose(OpBuilder &b) {
  Location loc = getLoc();
  PrimitiveBuilder pb(b, loc);
  RankedTensorType type = getInput().getType();
  Type element = type.getElementType();
  int64_t rank = type.getRank(), length = type.getShape().back();
  int64_t segment = getSegment(), step = segment - getOverlapOrDefault();
  int64_t count = 1 + (length - segment) / step, bins = segment / 2 + 1;
  double sampleRate = getSampleRate().convertToDouble();
  // Segments with their means removed (detrend="constant"), windowed.
  Value segments = gatherFrames(b, loc, getInput(), count, segment, step);
  Value centered =
      pb.op<SubOp>(segments, pb.reduce(segments, ReduceKind::Mean, {rank}));
  SmallVector<double> window = getHannWindow(segment);
  Value windowed = pb.op<MulOp>(
      centered, createConstant(b, loc, element, {segment}, window));
  Value power =
      ComplexNormSqOp::create(b, loc, RfftOp::create(b, loc, windowed));
  // The density scale, doubled for the bins that stand for two.
  double energy = 0;
  for (double w : window)
    energy += w * w;
  SmallVector<double> scale;
  for (int64_t bin = 0; bin < bins; ++bin) {
    bool single = bin == 0 || (segment % 2 == 0 && bin == segment / 2);
    scale.push_back((single ? 1.0 : 2.0) / (sampleRate * energy));
  }
  Value density = pb.reduce(
      pb.op<MulOp>(power, createConstant(b, loc, element, {bins}, scale)),
      ReduceKind::Mean, {rank - 1}, /*keepDim=*/false);
  auto top = TopKOp::create(b, loc, density, getK(), /*smallest=*/false);
  return {top.getValues(), top.getIndices()};
}
