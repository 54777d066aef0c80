//===- QuantOps.cpp - Affine quantization: shape rules and formulas -------===//
//
// The quantization ops of RlxQuantOps.td: their shared shape rule (the
// parameters against the input), their attribute verifiers, and their
// element formulas, written once against ScalarBuilder for the lowering.
//
// Every formula rounds `x * (1 / scale)` to an i64 first and does the rest
// in integers: the quantized value `q = rounded + zero_point` and its clamp
// are then exact for any zero point, where a float sum would round once
// `|q|` passes 2^24.
//
//===----------------------------------------------------------------------===//
#include "rlx/Dialect/Rlx/IR/RlxOps.h"

#include "OpUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

#include <cmath>
#include <cstdint>
#include <limits>

using namespace mlir;
using namespace mlir::rlx;

//===----------------------------------------------------------------------===//
// Shape rule
//===----------------------------------------------------------------------===//

/// The shape of `input` after checking the quantization parameters `scale`
/// and `zeroPoint` against it: rank 0 without `axis`, otherwise rank 1 with
/// the size of dimension `axis` (in [-rank, rank)).
static FailureOr<SymbolicShape>
inferQuantShape(ShapeContext &context, std::optional<Location> loc, Value input,
                Value scale, Value zeroPoint, std::optional<int64_t> axis) {
  FailureOr<RankedTensorType> inputType = getRankedType(loc, input, "input");
  FailureOr<RankedTensorType> scaleType = getRankedType(loc, scale, "scale");
  FailureOr<RankedTensorType> zeroPointType =
      getRankedType(loc, zeroPoint, "zero_point");
  if (failed(inputType) || failed(scaleType) || failed(zeroPointType))
    return failure();
  SymbolicShape shape = context.getShape(input);
  SymbolicShape scaleShape = context.getShape(scale);
  SymbolicShape zeroPointShape = context.getShape(zeroPoint);
  if (!axis) {
    if (!scaleShape.empty() || !zeroPointShape.empty())
      return emitOptionalError(
          loc,
          "per-tensor scale and zero_point must have rank 0 (an axis "
          "makes them per-channel), got scale ",
          ShapeContext::format(scaleShape), " and zero_point ",
          ShapeContext::format(zeroPointShape));
    return shape;
  }
  FailureOr<int64_t> dim =
      normalizeAxis(loc, *axis, inputType->getRank(), "axis");
  if (failed(dim))
    return failure();
  if (scaleShape.size() != 1 || zeroPointShape.size() != 1)
    return emitOptionalError(
        loc, "per-channel scale and zero_point must have rank 1, got scale ",
        ShapeContext::format(scaleShape), " and zero_point ",
        ShapeContext::format(zeroPointShape));
  for (auto [what, sizes] : {std::pair{"scale", scaleShape},
                             std::pair{"zero_point", zeroPointShape}})
    if (!context.requireEqual(sizes[0], shape[*dim]))
      return emitOptionalError(loc, what, " ", ShapeContext::format(sizes),
                               " must have the size of axis ", *axis,
                               " of the input ", ShapeContext::format(shape),
                               ", ", formatSize(shape[*dim]));
  return shape;
}

/// The element type of `value`, a ranked tensor once the shape rule passed.
static Type getElementTypeOf(Value value) {
  return cast<RankedTensorType>(value.getType()).getElementType();
}

LogicalResult QuantizeOp::inferReturnTypes(MLIRContext *context,
                                           std::optional<Location> loc,
                                           Adaptor adaptor,
                                           SmallVectorImpl<Type> &inferred) {
  ShapeContext shapes(context);
  return appendType(inferQuantShape(shapes, loc, adaptor.getInput(),
                                    adaptor.getScale(), adaptor.getZeroPoint(),
                                    adaptor.getAxis()),
                    IntegerType::get(context, 8), inferred);
}

LogicalResult DequantizeOp::inferReturnTypes(MLIRContext *context,
                                             std::optional<Location> loc,
                                             Adaptor adaptor,
                                             SmallVectorImpl<Type> &inferred) {
  ShapeContext shapes(context);
  FailureOr<SymbolicShape> shape =
      inferQuantShape(shapes, loc, adaptor.getInput(), adaptor.getScale(),
                      adaptor.getZeroPoint(), adaptor.getAxis());
  if (failed(shape))
    return failure();
  return appendType(shape, getElementTypeOf(adaptor.getScale()), inferred);
}

/// `inferReturnTypes` of the ops whose result has the input's type.
template <typename AdaptorTy>
static LogicalResult
inferInputType(MLIRContext *context, std::optional<Location> loc,
               AdaptorTy adaptor, SmallVectorImpl<Type> &inferred) {
  ShapeContext shapes(context);
  FailureOr<SymbolicShape> shape =
      inferQuantShape(shapes, loc, adaptor.getInput(), adaptor.getScale(),
                      adaptor.getZeroPoint(), adaptor.getAxis());
  if (failed(shape))
    return failure();
  return appendType(shape, getElementTypeOf(adaptor.getInput()), inferred);
}

LogicalResult
FakeQuantizeOp::inferReturnTypes(MLIRContext *context,
                                 std::optional<Location> loc, Adaptor adaptor,
                                 SmallVectorImpl<Type> &inferred) {
  return inferInputType(context, loc, adaptor, inferred);
}

LogicalResult FakeQuantizeLsqOp::inferReturnTypes(
    MLIRContext *context, std::optional<Location> loc, Adaptor adaptor,
    SmallVectorImpl<Type> &inferred) {
  return inferInputType(context, loc, adaptor, inferred);
}

LogicalResult FakeQuantizeBackwardOp::inferReturnTypes(
    MLIRContext *context, std::optional<Location> loc, Adaptor adaptor,
    SmallVectorImpl<Type> &inferred) {
  return inferInputType(context, loc, adaptor, inferred);
}

LogicalResult FakeQuantizeLsqBackwardOp::inferReturnTypes(
    MLIRContext *context, std::optional<Location> loc, Adaptor adaptor,
    SmallVectorImpl<Type> &inferred) {
  if (failed(inferInputType(context, loc, adaptor, inferred)))
    return failure();
  // The parameters' gradients have the parameters' types.
  inferred.push_back(adaptor.getScale().getType());
  inferred.push_back(adaptor.getZeroPoint().getType());
  return success();
}

/// `inferSymbolicShapes` of the ops whose results have the input's shape.
template <typename OpTy>
static LogicalResult inferInputShape(OpTy op, ShapeContext &context,
                                     SmallVectorImpl<SymbolicShape> &shapes) {
  return appendShape(inferQuantShape(context, op.getLoc(), op.getInput(),
                                     op.getScale(), op.getZeroPoint(),
                                     op.getAxis()),
                     shapes);
}

LogicalResult
QuantizeOp::inferSymbolicShapes(ShapeContext &context,
                                SmallVectorImpl<SymbolicShape> &shapes) {
  return inferInputShape(*this, context, shapes);
}

LogicalResult
DequantizeOp::inferSymbolicShapes(ShapeContext &context,
                                  SmallVectorImpl<SymbolicShape> &shapes) {
  return inferInputShape(*this, context, shapes);
}

LogicalResult
FakeQuantizeOp::inferSymbolicShapes(ShapeContext &context,
                                    SmallVectorImpl<SymbolicShape> &shapes) {
  return inferInputShape(*this, context, shapes);
}

LogicalResult
FakeQuantizeLsqOp::inferSymbolicShapes(ShapeContext &context,
                                       SmallVectorImpl<SymbolicShape> &shapes) {
  return inferInputShape(*this, context, shapes);
}

LogicalResult FakeQuantizeBackwardOp::inferSymbolicShapes(
    ShapeContext &context, SmallVectorImpl<SymbolicShape> &shapes) {
  return inferInputShape(*this, context, shapes);
}

LogicalResult FakeQuantizeLsqBackwardOp::inferSymbolicShapes(
    ShapeContext &context, SmallVectorImpl<SymbolicShape> &shapes) {
  if (failed(inferInputShape(*this, context, shapes)))
    return failure();
  shapes.push_back(context.getShape(getScale()));
  shapes.push_back(context.getShape(getZeroPoint()));
  return success();
}

//===----------------------------------------------------------------------===//
// Verifiers
//===----------------------------------------------------------------------===//

/// The clamping range of a fake quantization: `quantMin <= quantMax`, both
/// in the i32 range (that of the zero points), so no difference of a
/// clamped value and a zero point overflows the i64 it is computed in.
static LogicalResult verifyQuantRange(Operation *op, int64_t quantMin,
                                      int64_t quantMax) {
  constexpr int64_t lowest = std::numeric_limits<int32_t>::min();
  constexpr int64_t highest = std::numeric_limits<int32_t>::max();
  if (quantMin < lowest || quantMax > highest || quantMin > quantMax)
    return op->emitOpError("needs quant_min <= quant_max within the i32 "
                           "range, got [")
           << quantMin << ", " << quantMax << "]";
  return success();
}

static LogicalResult verifyGradFactor(Operation *op, double gradFactor) {
  if (!std::isfinite(gradFactor))
    return op->emitOpError("needs a finite grad_factor, got ") << gradFactor;
  return success();
}

LogicalResult FakeQuantizeOp::verify() {
  return verifyQuantRange(*this, getQuantMin(), getQuantMax());
}

LogicalResult FakeQuantizeLsqOp::verify() {
  if (failed(verifyQuantRange(*this, getQuantMin(), getQuantMax())))
    return failure();
  return verifyGradFactor(*this, getGradFactor().convertToDouble());
}

LogicalResult FakeQuantizeBackwardOp::verify() {
  return verifyQuantRange(*this, getQuantMin(), getQuantMax());
}

LogicalResult FakeQuantizeLsqBackwardOp::verify() {
  if (failed(verifyQuantRange(*this, getQuantMin(), getQuantMax())))
    return failure();
  return verifyGradFactor(*this, getGradFactor().convertToDouble());
}

//===----------------------------------------------------------------------===//
// Element formulas
//===----------------------------------------------------------------------===//

/// The values a quantized i8 holds: [0, 255] for the bits of a u8.
static std::pair<int64_t, int64_t> getStorageRange(bool isUnsigned) {
  return isUnsigned ? std::pair<int64_t, int64_t>{0, 255}
                    : std::pair<int64_t, int64_t>{-128, 127};
}

static Value constantI64(ScalarBuilder &b, int64_t value) {
  return arith::ConstantIntOp::create(b.getBuilder(), b.getLoc(),
                                      b.getBuilder().getI64Type(), value);
}

/// A rounded quotient beyond this magnitude lies outside every clamping
/// range whatever the (i32) zero point added to it, so saturating it here
/// changes no result and keeps the i64 sum exact.
static constexpr double kRoundedLimit = 0x1p32;

/// The quantization of one element before its zero point: `x` (in the
/// computation type) times `1 / scale`, both rounded in the computation
/// type as PyTorch's kernels round them, then rounded half to even.
struct RoundedQuotient {
  /// The scale in the computation type, and its reciprocal.
  Value scale, inverse;
  /// The rounded quotient as an i64, saturated to +-kRoundedLimit; 0 for a
  /// NaN quotient (a NaN input, or 0 * inf).
  Value rounded;
};

static RoundedQuotient buildRoundedQuotient(ScalarBuilder &b, Value x,
                                            Value storedScale) {
  Value scale = b.convert(storedScale, x.getType());
  Value inverse = b.div(b.constant(scale, 1.0), scale);
  Value quotient = b.roundEven(b.mul(x, inverse));
  // fptosi is poison for NaN and out-of-range values: remove both first.
  Value isNaN = b.compare(ComparePredicate::ne, quotient, quotient);
  quotient = b.select(isNaN, b.constant(quotient, 0.0), quotient);
  quotient = b.clamp(quotient, b.constant(quotient, -kRoundedLimit),
                     b.constant(quotient, kRoundedLimit));
  Value rounded = arith::FPToSIOp::create(
      b.getBuilder(), b.getLoc(), b.getBuilder().getI64Type(), quotient);
  return {scale, inverse, rounded};
}

namespace {
/// One element of a fake quantization, in the computation type.
struct FakeQuantElement {
  RoundedQuotient quotient;
  /// `(clamp(q, quant_min, quant_max) - zero_point) * scale`.
  Value result;
  /// Whether `q` lies below `quant_min` / above `quant_max` (i1).
  Value below, above;
};
} // namespace

/// Fake-quantizes `x` (in the computation type) with the stored scale
/// `storedScale` and the i64 zero point `zeroPoint`.
static FakeQuantElement buildFakeQuant(ScalarBuilder &b, Value x,
                                       Value storedScale, Value zeroPoint,
                                       int64_t quantMin, int64_t quantMax) {
  RoundedQuotient quotient = buildRoundedQuotient(b, x, storedScale);
  Value q = b.add(quotient.rounded, zeroPoint);
  Value lo = constantI64(b, quantMin), hi = constantI64(b, quantMax);
  Value below = b.compare(ComparePredicate::lt, q, lo);
  Value above = b.compare(ComparePredicate::gt, q, hi);
  // The difference is exact in i64 (both terms are in the i32 range) and
  // converts exactly below 2^24; the product is then rounded once.
  Value steps = b.convert(b.sub(b.clamp(q, lo, hi), zeroPoint), x.getType());
  return {quotient, b.mul(steps, quotient.scale), below, above};
}

/// The integer zero point of a learned (float) one:
/// clamp(round_half_to_even(zeroPoint), quant_min, quant_max) as an i64.
/// The saturating conversion maps NaN to 0 before the clamp.
static Value buildLearnedZeroPoint(ScalarBuilder &b, Value storedZeroPoint,
                                   int64_t quantMin, int64_t quantMax) {
  Value zeroPoint = b.convert(
      storedZeroPoint, ScalarBuilder::computeType(storedZeroPoint.getType()));
  Value rounded =
      b.convert(b.roundEven(zeroPoint), b.getBuilder().getI64Type());
  return b.clamp(rounded, constantI64(b, quantMin), constantI64(b, quantMax));
}

/// `x` converted to its computation type.
static Value toComputeType(ScalarBuilder &b, Value x) {
  return b.convert(x, ScalarBuilder::computeType(x.getType()));
}

Value QuantizeOp::buildElement(ScalarBuilder &b, ValueRange operands) {
  auto [lo, hi] = getStorageRange(getIsUnsigned());
  Value zeroPoint = b.convert(operands[2], b.getBuilder().getI64Type());
  RoundedQuotient quotient =
      buildRoundedQuotient(b, toComputeType(b, operands[0]), operands[1]);
  Value q = b.clamp(b.add(quotient.rounded, zeroPoint), constantI64(b, lo),
                    constantI64(b, hi));
  // [0, 255] truncates to the bits of the u8.
  return b.convert(q, getType().getElementType());
}

Value DequantizeOp::buildElement(ScalarBuilder &b, ValueRange operands) {
  OpBuilder &builder = b.getBuilder();
  Type i64 = builder.getI64Type();
  Value q = getIsUnsigned()
                ? arith::ExtUIOp::create(builder, b.getLoc(), i64, operands[0])
                      .getResult()
                : b.convert(operands[0], i64);
  Value steps = b.sub(q, b.convert(operands[2], i64));
  Type element = getType().getElementType();
  Type compute = ScalarBuilder::computeType(element);
  // Exact for every zero point in the storage range (|steps| <= 510), and
  // the product of such a step count and an f16 or bf16 scale is exact in
  // f32: the result is rounded once.
  Value result =
      b.mul(b.convert(steps, compute), b.convert(operands[1], compute));
  return b.convert(result, element);
}

Value FakeQuantizeOp::buildElement(ScalarBuilder &b, ValueRange operands) {
  Value x = operands[0];
  Value zeroPoint = b.convert(operands[2], b.getBuilder().getI64Type());
  FakeQuantElement element =
      buildFakeQuant(b, toComputeType(b, x), operands[1], zeroPoint,
                     getQuantMin(), getQuantMax());
  return b.convert(element.result, x.getType());
}

Value FakeQuantizeLsqOp::buildElement(ScalarBuilder &b, ValueRange operands) {
  Value x = operands[0];
  Value zeroPoint =
      buildLearnedZeroPoint(b, operands[2], getQuantMin(), getQuantMax());
  FakeQuantElement element =
      buildFakeQuant(b, toComputeType(b, x), operands[1], zeroPoint,
                     getQuantMin(), getQuantMax());
  return b.convert(element.result, x.getType());
}

Value FakeQuantizeBackwardOp::buildElement(ScalarBuilder &b,
                                           ValueRange operands) {
  Value dy = operands[0];
  Value zeroPoint = b.convert(operands[3], b.getBuilder().getI64Type());
  FakeQuantElement element =
      buildFakeQuant(b, toComputeType(b, operands[1]), operands[2], zeroPoint,
                     getQuantMin(), getQuantMax());
  // The mask needs no arithmetic on dy: select it as stored.
  Value outside = b.bitOr(element.below, element.above);
  return b.select(outside, b.constant(dy, 0.0), dy);
}

SmallVector<Value, 3>
FakeQuantizeLsqBackwardOp::buildGradientTerms(ScalarBuilder &b,
                                              ValueRange operands) {
  int64_t quantMin = getQuantMin(), quantMax = getQuantMax();
  Value dy = toComputeType(b, operands[0]);
  Value x = toComputeType(b, operands[1]);
  Value zeroPoint = buildLearnedZeroPoint(b, operands[3], quantMin, quantMax);
  FakeQuantElement element =
      buildFakeQuant(b, x, operands[2], zeroPoint, quantMin, quantMax);
  Value scale = element.quotient.scale;
  Value gradFactor = b.constant(x, getGradFactor().convertToDouble());
  Value zero = b.constant(x, 0.0);
  Value outside = b.bitOr(element.below, element.above);

  Value dx = b.select(outside, zero, dy);
  // Inside the range: dy * (y - x) * (1 / scale) * grad_factor, multiplied
  // in PyTorch's order.
  Value insideScale = b.mul(
      b.mul(b.mul(dy, b.sub(element.result, x)), element.quotient.inverse),
      gradFactor);
  // Outside: the derivative of the clamped bound, dy * (bound - z).
  Value bound = b.select(element.below, constantI64(b, quantMin),
                         constantI64(b, quantMax));
  Value boundSteps = b.convert(b.sub(bound, zeroPoint), x.getType());
  Value outsideScale = b.mul(b.mul(dy, boundSteps), gradFactor);
  Value dscale = b.select(outside, outsideScale, insideScale);
  Value dzeroPoint =
      b.select(outside, b.mul(b.mul(b.neg(dy), scale), gradFactor), zero);
  return {dx, dscale, dzeroPoint};
}
