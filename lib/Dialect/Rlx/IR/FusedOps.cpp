//===- FusedOps.cpp - Named fused ops: shape inference and unfusing -------===//
#include "rlx/Dialect/Rlx/IR/RlxOps.h"

#include "OpUtils.h"
#include "rlx/Dialect/Rlx/IR/Activation.h"

using namespace mlir;
using namespace mlir::rlx;

LogicalResult SwigluOp::inferReturnTypes(MLIRContext *,
                                         std::optional<Location> loc,
                                         Adaptor adaptor,
                                         SmallVectorImpl<Type> &inferred) {
  FailureOr<RankedTensorType> input =
      getRankedType(loc, adaptor.getInput(), "input");
  if (failed(input))
    return failure();
  if (input->getRank() == 0)
    return emitOptionalError(loc, "input must have rank >= 1");
  if (input->isDynamicDim(input->getRank() - 1))
    return emitOptionalError(loc, "swiglu needs a static last axis, got ",
                             *input);
  SmallVector<int64_t> shape(input->getShape());
  if (shape.back() % 2 != 0)
    return emitOptionalError(loc, "the last axis holds [up, gate] halves "
                                  "and must have even length, got ",
                             shape.back());
  shape.back() /= 2;
  inferred.push_back(RankedTensorType::get(shape, input->getElementType()));
  return success();
}

// The last axis is static: its halves are views at static offsets.
LogicalResult
SwigluOp::inferSymbolicShapes(ShapeContext &context,
                              SmallVectorImpl<SymbolicShape> &shapes) {
  RankedTensorType type = getInput().getType();
  if (type.getRank() == 0 || type.isDynamicDim(type.getRank() - 1))
    return emitOpError("needs a static last axis, got ") << type;
  SymbolicShape shape = context.getShape(getInput());
  shape.back() = context.getConstant(getHalfLength());
  shapes.push_back(shape);
  return success();
}

SmallVector<Value> SwigluOp::unfuse(OpBuilder &b) {
  Location loc = getLoc();
  int64_t axis = getInput().getType().getRank() - 1;
  int64_t half = getHalfLength();
  int64_t upStart = getGateFirst() ? half : 0;
  int64_t gateStart = getGateFirst() ? 0 : half;
  Value up = NarrowOp::create(b, loc, getInput(), axis, upStart, half);
  Value gate = NarrowOp::create(b, loc, getInput(), axis, gateStart, half);
  Value activated = SiluOp::create(b, loc, gate);
  return {MulOp::create(b, loc, activated, up).getResult()};
}

/// Checks that `residual` has the shape of the contraction result `type`.
static LogicalResult checkResidual(std::optional<Location> loc, Value residual,
                                   RankedTensorType type) {
  FailureOr<RankedTensorType> residualType =
      getRankedType(loc, residual, "residual");
  if (failed(residualType))
    return failure();
  if (residualType->getShape() != type.getShape())
    return emitOptionalError(loc, "residual ",
                             formatShape(residualType->getShape()),
                             " must have the shape of the contraction result ",
                             formatShape(type.getShape()));
  return success();
}

/// Checks that `bias` is `[channels]`, the length of the result dimension
/// it is added along.
static LogicalResult checkBias(std::optional<Location> loc, Value bias,
                               int64_t channels, StringRef dimension) {
  FailureOr<RankedTensorType> biasType = getRankedType(loc, bias, "bias");
  if (failed(biasType))
    return failure();
  if (biasType->getShape() != ArrayRef<int64_t>{channels})
    return emitOptionalError(loc, "bias ", formatShape(biasType->getShape()),
                             " must have shape [", channels, "] (", dimension,
                             " of the contraction result)");
  return success();
}

/// `activation` applied to `value` when present.
static Value applyActivation(OpBuilder &b, Location loc, Value value,
                             std::optional<ActivationKind> activation) {
  if (!activation)
    return value;
  return createActivationOp(b, loc, *activation, value)->getResult(0);
}

LogicalResult
MatmulBiasActOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                                  Adaptor adaptor,
                                  SmallVectorImpl<Type> &inferred) {
  FailureOr<RankedTensorType> type =
      inferMatmulType(loc, adaptor.getLhs(), adaptor.getRhs());
  if (failed(type) ||
      failed(checkBias(loc, adaptor.getBias(), type->getShape().back(), "N")))
    return failure();
  inferred.push_back(*type);
  return success();
}

LogicalResult
MatmulBiasActOp::inferSymbolicShapes(ShapeContext &context,
                                     SmallVectorImpl<SymbolicShape> &shapes) {
  FailureOr<SymbolicShape> shape =
      inferMatmulShape(context, getLoc(), getLhs(), getRhs());
  if (failed(shape))
    return failure();
  SymbolicShape bias = context.getShape(getBias());
  if (bias.size() != 1 || !context.requireEqual(bias[0], shape->back()))
    return emitOpError("bias must have the length of N");
  shapes.push_back(*shape);
  return success();
}

SmallVector<Value> MatmulBiasActOp::unfuse(OpBuilder &b) {
  Location loc = getLoc();
  Value product = MatmulOp::create(b, loc, getLhs(), getRhs());
  Value biased = AddOp::create(b, loc, product, getBias());
  return {applyActivation(b, loc, biased, getActivation())};
}

LogicalResult
MatmulResidualOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                                   Adaptor adaptor,
                                   SmallVectorImpl<Type> &inferred) {
  FailureOr<RankedTensorType> type =
      inferMatmulType(loc, adaptor.getLhs(), adaptor.getRhs());
  if (failed(type) || failed(checkResidual(loc, adaptor.getResidual(), *type)))
    return failure();
  inferred.push_back(*type);
  return success();
}

LogicalResult
MatmulResidualOp::inferSymbolicShapes(ShapeContext &context,
                                      SmallVectorImpl<SymbolicShape> &shapes) {
  FailureOr<SymbolicShape> shape =
      inferMatmulShape(context, getLoc(), getLhs(), getRhs());
  if (failed(shape))
    return failure();
  SymbolicShape residual = context.getShape(getResidual());
  if (residual.size() != shape->size() ||
      !llvm::all_of(llvm::zip(residual, *shape), [&](auto sizes) {
        return context.requireEqual(std::get<0>(sizes), std::get<1>(sizes));
      }))
    return emitOpError("residual must have the shape of the product, ")
           << ShapeContext::format(*shape);
  shapes.push_back(*shape);
  return success();
}

SmallVector<Value> MatmulResidualOp::unfuse(OpBuilder &b) {
  Location loc = getLoc();
  Value product = MatmulOp::create(b, loc, getLhs(), getRhs());
  return {AddOp::create(b, loc, product, getResidual()).getResult()};
}

//===----------------------------------------------------------------------===//
// LoraMatmulOp
//===----------------------------------------------------------------------===//

/// The matmul's shape, with `lora_a` `[K, R]` and `lora_b` `[R, N]` for the
/// weight's K and N.
static FailureOr<SymbolicShape>
inferLoraMatmulShape(ShapeContext &context, std::optional<Location> loc,
                     LoraMatmulOp::Adaptor adaptor) {
  FailureOr<SymbolicShape> shape =
      inferMatmulShape(context, loc, adaptor.getInput(), adaptor.getWeight());
  if (failed(shape))
    return failure();
  SymbolicShape weight = context.getShape(adaptor.getWeight());
  SymbolicShape a = context.getShape(adaptor.getLoraA());
  SymbolicShape b = context.getShape(adaptor.getLoraB());
  if (weight.size() != 2 || a.size() != 2 || b.size() != 2)
    return emitOptionalError(loc,
                             "lora_matmul needs a [K, N] weight and a "
                             "[K, R], [R, N] adapter, got ranks ",
                             weight.size(), ", ", a.size(), ", ", b.size());
  if (!context.requireEqual(a[0], weight[0]) ||
      !context.requireEqual(b[0], a[1]) ||
      !context.requireEqual(b[1], weight[1]))
    return emitOptionalError(
        loc, "lora_matmul's adapter ", ShapeContext::format(a), " x ",
        ShapeContext::format(b), " does not fit the weight ",
        ShapeContext::format(weight), ": needs [K, R] x [R, N]");
  return shape;
}

LogicalResult LoraMatmulOp::inferReturnTypes(MLIRContext *context,
                                             std::optional<Location> loc,
                                             Adaptor adaptor,
                                             SmallVectorImpl<Type> &inferred) {
  ShapeContext shapes(context);
  return appendType(
      inferLoraMatmulShape(shapes, loc, adaptor),
      cast<RankedTensorType>(adaptor.getInput().getType()).getElementType(),
      inferred);
}

LogicalResult
LoraMatmulOp::inferSymbolicShapes(ShapeContext &context,
                                  SmallVectorImpl<SymbolicShape> &shapes) {
  FailureOr<SymbolicShape> shape =
      inferLoraMatmulShape(context, getLoc(), Adaptor(*this));
  if (failed(shape))
    return failure();
  shapes.push_back(*shape);
  return success();
}

SmallVector<Value> LoraMatmulOp::unfuse(OpBuilder &b) {
  Location loc = getLoc();
  Type element = getType().getElementType();
  Value product = MatmulOp::create(b, loc, getInput(), getWeight());
  Value down = MatmulOp::create(b, loc, getInput(), getLoraA());
  Value up = MatmulOp::create(b, loc, down, getLoraB());
  Value scale = ConstantOp::create(
      b, loc,
      DenseElementsAttr::get(
          RankedTensorType::get({}, element),
          b.getFloatAttr(element, getScale().convertToDouble())));
  Value scaled = MulOp::create(b, loc, up, scale);
  return {AddOp::create(b, loc, product, scaled).getResult()};
}

/// rlx.conv's shape; the bias is [C_out] and the residual has the result's
/// shape.
static FailureOr<SymbolicShape>
inferConvBiasActShape(ShapeContext &context, std::optional<Location> loc,
                      ConvBiasActOp::Adaptor adaptor) {
  Value input = adaptor.getInput();
  FailureOr<SymbolicShape> shape = inferConvShape(
      context, loc, input.getType(), adaptor.getWeight().getType(),
      adaptor.getStride(), adaptor.getPadding(), adaptor.getDilation(),
      adaptor.getGroups(), [&] { return context.getShape(input); });
  if (failed(shape))
    return failure();
  int64_t channels = cast<AffineConstantExpr>((*shape)[1]).getValue();
  if (failed(checkBias(loc, adaptor.getBias(), channels, "C_out")))
    return failure();
  if (Value residual = adaptor.getResidual()) {
    if (failed(getRankedType(loc, residual, "residual")))
      return failure();
    SymbolicShape sizes = context.getShape(residual);
    if (sizes.size() != shape->size() ||
        !llvm::all_of(llvm::zip(sizes, *shape), [&](auto pair) {
          return context.requireEqual(std::get<0>(pair), std::get<1>(pair));
        }))
      return emitOptionalError(loc, "residual ", ShapeContext::format(sizes),
                               " must have the shape of the contraction "
                               "result ",
                               ShapeContext::format(*shape));
  }
  return shape;
}

LogicalResult ConvBiasActOp::inferReturnTypes(MLIRContext *context,
                                              std::optional<Location> loc,
                                              Adaptor adaptor,
                                              SmallVectorImpl<Type> &inferred) {
  ShapeContext shapes(context);
  return appendType(inferConvBiasActShape(shapes, loc, adaptor),
                    getElementTypeOrSelf(adaptor.getInput().getType()),
                    inferred);
}

LogicalResult
ConvBiasActOp::inferSymbolicShapes(ShapeContext &context,
                                   SmallVectorImpl<SymbolicShape> &shapes) {
  return appendShape(inferConvBiasActShape(context, getLoc(), Adaptor(*this)),
                     shapes);
}

SmallVector<Value> ConvBiasActOp::unfuse(OpBuilder &b) {
  Location loc = getLoc();
  Value conv = ConvOp::create(b, loc, getInput(), getWeight(), getStride(),
                              getPadding(), getDilation(), getGroups());
  // The bias as [1, C_out, 1, ...], broadcast by the add.
  RankedTensorType type = getType();
  SmallVector<int64_t> biasShape(type.getRank(), 1);
  biasShape[1] = type.getDimSize(1);
  Value bias = ReshapeOp::create(b, loc, type.clone(biasShape), getBias());
  Value result = AddOp::create(b, loc, conv, bias);
  if (getResidual())
    result = AddOp::create(b, loc, result, getResidual());
  return {applyActivation(b, loc, result, getActivation())};
}
