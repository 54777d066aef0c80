//===- NormOps.cpp - Normalization, positional encoding and loss ops: verifiers, shape inference, folders ---===//
#include "rlx/Dialect/Rlx/IR/RlxOps.h"

#include "OpUtils.h"

#include <cmath>

using namespace mlir;
using namespace mlir::rlx;

// A negative eps can turn a small variance negative and its square root NaN.
LogicalResult mlir::rlx::verifyEps(Operation *op, double eps) {
  if (!std::isfinite(eps) || eps < 0)
    return op->emitOpError("eps must be finite and non-negative, got ") << eps;
  return success();
}

LogicalResult mlir::rlx::verifyPerAxisParam(Operation *op, Value param,
                                            StringRef what, int64_t size,
                                            StringRef axisName) {
  auto type = cast<RankedTensorType>(param.getType());
  Type inputElement = getElementTypeOrSelf(op->getOperand(0).getType());
  if (type.getElementType() != inputElement)
    return op->emitOpError()
           << what << " must have the element type of input, " << inputElement
           << ", got " << type.getElementType();
  // A `?` size on either side is checked at run time (the shape rule).
  if (type.getRank() != 1 ||
      (!type.isDynamicDim(0) && !ShapedType::isDynamic(size) &&
       type.getDimSize(0) != size))
    return op->emitOpError()
           << what << " must be [" << size << "] (the size of " << axisName
           << "), got " << formatShape(type.getShape());
  return success();
}

bool mlir::rlx::broadcastsTo(ArrayRef<int64_t> from, ArrayRef<int64_t> to) {
  if (from.size() > to.size())
    return false;
  ArrayRef<int64_t> tail = to.take_back(from.size());
  for (auto [f, t] : llvm::zip_equal(from, tail))
    if (f != t && f != 1)
      return false;
  return true;
}

/// The normalized axis of a one-axis normalization, with its 1-D parameters.
static LogicalResult verifyAxisNorm(Operation *op, RankedTensorType input,
                                    int64_t axis, ValueRange params,
                                    ArrayRef<StringRef> names, double eps) {
  int64_t rank = input.getRank();
  if (axis < -rank || axis >= rank)
    return op->emitOpError("axis ")
           << axis << " is out of range for rank " << rank;
  int64_t size = input.getDimSize(axis < 0 ? axis + rank : axis);
  for (auto [param, name] : llvm::zip_equal(params, names))
    if (param && failed(verifyPerAxisParam(op, param, name, size,
                                           "the normalized axis")))
      return failure();
  return verifyEps(op, eps);
}

LogicalResult mlir::rlx::verifyChannelParams(Operation *op,
                                             RankedTensorType input,
                                             int64_t minRank, ValueRange params,
                                             ArrayRef<StringRef> names) {
  if (input.getRank() < minRank)
    return op->emitOpError("input must have rank >= ")
           << minRank << " ([N, C, ...]), got "
           << formatShape(input.getShape());
  for (auto [param, name] : llvm::zip_equal(params, names))
    if (failed(verifyPerAxisParam(op, param, name, input.getDimSize(1),
                                  "the channel axis 1")))
      return failure();
  return success();
}

/// The result of a one-axis normalization has the input type; with
/// `withStatistics` it is followed by `count` statistics shaped like the
/// input with the normalized axis as size 1, in the computation type.
static LogicalResult inferAxisNormTypes(std::optional<Location> loc,
                                        Type inputType, int64_t axis,
                                        bool withStatistics, int64_t count,
                                        SmallVectorImpl<Type> &inferred) {
  inferred.push_back(inputType);
  if (!withStatistics)
    return success();
  auto input = dyn_cast<RankedTensorType>(inputType);
  if (!input)
    return emitOptionalError(loc, "input must be a ranked tensor, got ",
                             inputType);
  FailureOr<int64_t> normalized = normalizeAxis(loc, axis, input.getRank());
  if (failed(normalized))
    return failure();
  SmallVector<int64_t> shape(input.getShape());
  shape[*normalized] = 1;
  auto statistics = RankedTensorType::get(
      shape, ScalarBuilder::computeType(input.getElementType()));
  inferred.append(count, statistics);
  return success();
}

LogicalResult LayerNormOp::inferReturnTypes(MLIRContext *,
                                            std::optional<Location> loc,
                                            Adaptor adaptor,
                                            SmallVectorImpl<Type> &inferred) {
  return inferAxisNormTypes(loc, adaptor.getInput().getType(),
                            adaptor.getAxis(), adaptor.getWithStatistics(),
                            /*count=*/2, inferred);
}

LogicalResult RmsNormOp::inferReturnTypes(MLIRContext *,
                                          std::optional<Location> loc,
                                          Adaptor adaptor,
                                          SmallVectorImpl<Type> &inferred) {
  return inferAxisNormTypes(loc, adaptor.getInput().getType(),
                            adaptor.getAxis(), adaptor.getWithStatistics(),
                            /*count=*/1, inferred);
}

/// Requires the 1-D parameters `params` (null where absent) of `op` to have
/// the normalized axis's length `size`.
static LogicalResult requireAxisParams(Operation *op, ShapeContext &context,
                                       AffineExpr size, ValueRange params) {
  for (Value param : params) {
    if (!param)
      continue;
    SymbolicShape sizes = context.getShape(param);
    if (sizes.size() != 1 || !context.requireEqual(sizes[0], size))
      return op->emitOpError("parameters must have the length of the "
                             "normalized axis, ")
             << ShapeContext::format(size) << ", got "
             << ShapeContext::format(sizes);
  }
  return success();
}

/// The shape rule of layer_norm and rms_norm: the result is shaped as the
/// input, the statistics as the input with the normalized axis of size 1,
/// and the parameters have the normalized axis's length.
template <typename OpTy>
static LogicalResult
inferAxisNormShapes(OpTy op, ShapeContext &context, int64_t count,
                    SmallVectorImpl<SymbolicShape> &shapes) {
  SymbolicShape input = context.getShape(op.getInput());
  FailureOr<int64_t> axis =
      normalizeAxis(op.getLoc(), op.getAxis(), input.size());
  if (failed(axis))
    return failure();
  if (failed(requireAxisParams(op, context, input[*axis],
                               {op.getGamma(), op.getBeta()})))
    return failure();
  shapes.push_back(input);
  if (!op.getWithStatistics())
    return success();
  SymbolicShape statistics = input;
  statistics[*axis] = context.getConstant(1);
  shapes.append(count, statistics);
  return success();
}

LogicalResult
LayerNormOp::inferSymbolicShapes(ShapeContext &context,
                                 SmallVectorImpl<SymbolicShape> &shapes) {
  return inferAxisNormShapes(*this, context, /*count=*/2, shapes);
}

LogicalResult
RmsNormOp::inferSymbolicShapes(ShapeContext &context,
                               SmallVectorImpl<SymbolicShape> &shapes) {
  return inferAxisNormShapes(*this, context, /*count=*/1, shapes);
}

LogicalResult LayerNormOp::verify() {
  return verifyAxisNorm(*this, getInput().getType(), getAxis(),
                        {getGamma(), getBeta()}, {"gamma", "beta"},
                        getEps().convertToDouble());
}

LogicalResult RmsNormOp::verify() {
  return verifyAxisNorm(*this, getInput().getType(), getAxis(),
                        {getGamma(), getBeta()}, {"gamma", "beta"},
                        getEps().convertToDouble());
}

LogicalResult GroupNormOp::verify() {
  RankedTensorType input = getInput().getType();
  if (failed(verifyChannelParams(*this, input, 2, {getGamma(), getBeta()},
                                 {"gamma", "beta"})))
    return failure();
  int64_t channels = input.getDimSize(1);
  if (getGroups() <= 0 || channels % getGroups() != 0)
    return emitOpError("groups must be positive and divide the ")
           << channels << " channels, got " << getGroups();
  return verifyEps(*this, getEps().convertToDouble());
}

LogicalResult LayerNorm2dOp::verify() {
  RankedTensorType input = getInput().getType();
  if (input.getRank() != 4)
    return emitOpError("input must be [N, C, H, W], got ")
           << formatShape(input.getShape());
  if (failed(verifyChannelParams(*this, input, 4, {getGamma(), getBeta()},
                                 {"gamma", "beta"})))
    return failure();
  return verifyEps(*this, getEps().convertToDouble());
}

LogicalResult BatchNormInferenceOp::verify() {
  if (failed(
          verifyChannelParams(*this, getInput().getType(), 2,
                              {getGamma(), getBeta(), getMean(), getVariance()},
                              {"gamma", "beta", "mean", "variance"})))
    return failure();
  return verifyEps(*this, getEps().convertToDouble());
}

LogicalResult AdaLayerNormOp::verify() {
  RankedTensorType input = getInput().getType();
  RankedTensorType scale = getScale().getType();
  if (input.getRank() < 1)
    return emitOpError("input must have rank >= 1, got a scalar");
  if (scale.getShape() != getShift().getType().getShape())
    return emitOpError("scale ")
           << formatShape(scale.getShape()) << " and shift "
           << formatShape(getShift().getType().getShape())
           << " must have the same shape";
  if (!broadcastsTo(scale.getShape(), input.getShape()))
    return emitOpError("scale and shift ")
           << formatShape(scale.getShape()) << " do not broadcast to input "
           << formatShape(input.getShape());
  return verifyEps(*this, getEps().convertToDouble());
}

LogicalResult GatedResidualOp::verify() {
  RankedTensorType input = getInput().getType();
  if (getUpdate().getType() != input)
    return emitOpError("update ")
           << getUpdate().getType() << " must have the type of input " << input;
  ArrayRef<int64_t> gate = getGate().getType().getShape();
  if (!broadcastsTo(gate, input.getShape()))
    return emitOpError("gate ")
           << formatShape(gate) << " does not broadcast to input "
           << formatShape(input.getShape());
  return success();
}

LogicalResult mlir::rlx::verifyRopeOperands(Operation *op,
                                            AttentionLayout layout,
                                            RankedTensorType input, Value cos,
                                            Value sin, int64_t headDim,
                                            int64_t nRot) {
  bool packed = layout == AttentionLayout::BSD;
  int64_t minRank = packed ? 2 : 3;
  if (input.getRank() < minRank)
    return op->emitOpError("input must be ")
           << (packed ? "[..., S, W]"
                      : layout == AttentionLayout::BSHD ? "[..., S, H, D]"
                                                        : "[..., H, S, D]")
           << " (rank >= " << minRank << ") for layout "
           << stringifyAttentionLayout(layout) << ", got "
           << formatShape(input.getShape());
  int64_t width = input.getShape().back();
  if (packed && (headDim <= 0 || width % headDim != 0))
    return op->emitOpError("head_dim must be positive and divide the last "
                           "dimension ")
           << width << ", got " << headDim;
  if (!packed && headDim != width)
    return op->emitOpError("head_dim must be the last dimension D = ")
           << width << " for layout " << stringifyAttentionLayout(layout)
           << ", got " << headDim;
  if (nRot <= 0 || nRot % 2 != 0 || nRot > headDim)
    return op->emitOpError("n_rot must be even and in (0, head_dim = ")
           << headDim << "], got " << nRot;
  int64_t sequenceAxis = RopeOp::getSequenceAxis(layout, input.getRank());
  SmallVector<int64_t> expected = {input.getDimSize(sequenceAxis), nRot / 2};
  Value tables[] = {cos, sin};
  StringRef names[] = {"cos", "sin"};
  for (auto [table, name] : llvm::zip_equal(tables, names)) {
    ArrayRef<int64_t> shape =
        cast<RankedTensorType>(table.getType()).getShape();
    if (shape != ArrayRef<int64_t>(expected))
      return op->emitOpError()
             << name << " must be [S, n_rot / 2] = " << formatShape(expected)
             << " (S is axis " << sequenceAxis << " of the input in layout "
             << stringifyAttentionLayout(layout) << "), got "
             << formatShape(shape);
  }
  return success();
}

LogicalResult RopeOp::verify() {
  return verifyRopeOperands(*this, getLayout(), getInput().getType(), getCos(),
                            getSin(), getHeadDim(), getNRot());
}

//===----------------------------------------------------------------------===//
// Losses
//===----------------------------------------------------------------------===//

/// `[N, C]` logits give `[N]` losses.
static LogicalResult inferRowLossType(std::optional<Location> loc,
                                      Type logitsType,
                                      SmallVectorImpl<Type> &inferred) {
  auto logits = dyn_cast<RankedTensorType>(logitsType);
  if (!logits || logits.getRank() != 2)
    return emitOptionalError(loc, "logits must be a [N, C] tensor, got ",
                             logitsType);
  inferred.push_back(
      RankedTensorType::get(logits.getDimSize(0), logits.getElementType()));
  return success();
}

LogicalResult SoftmaxCrossEntropyOp::inferReturnTypes(
    MLIRContext *, std::optional<Location> loc, Adaptor adaptor,
    SmallVectorImpl<Type> &inferred) {
  return inferRowLossType(loc, adaptor.getLogits().getType(), inferred);
}

LogicalResult SoftmaxCrossEntropyWithLabelsOp::inferReturnTypes(
    MLIRContext *, std::optional<Location> loc, Adaptor adaptor,
    SmallVectorImpl<Type> &inferred) {
  if (failed(inferRowLossType(loc, adaptor.getLogits().getType(), inferred)))
    return failure();
  auto labels = dyn_cast<RankedTensorType>(adaptor.getLabels().getType());
  int64_t rows = cast<RankedTensorType>(inferred.back()).getDimSize(0);
  if (!labels || labels.getRank() != 1 || labels.getDimSize(0) != rows)
    return emitOptionalError(loc, "labels must be [", rows,
                             "] (one per row of logits), got ",
                             adaptor.getLabels().getType());
  return success();
}

//===----------------------------------------------------------------------===//
// residual_layer_norm, residual_rms_norm
//===----------------------------------------------------------------------===//

LogicalResult ResidualLayerNormOp::verify() {
  return verifyAxisNorm(*this, getInput().getType(), getAxis(),
                        {getGamma(), getBeta()}, {"gamma", "beta"},
                        getEps().convertToDouble());
}

LogicalResult ResidualRmsNormOp::verify() {
  return verifyAxisNorm(*this, getInput().getType(), getAxis(),
                        {getGamma(), getBeta()}, {"gamma", "beta"},
                        getEps().convertToDouble());
}

/// residual_layer_norm and residual_rms_norm: the sum has the shape of
/// `input` and `residual`, and the normalized rows too.
template <typename OpTy>
static LogicalResult
inferResidualNormShapes(OpTy op, ShapeContext &context,
                        SmallVectorImpl<SymbolicShape> &shapes) {
  SymbolicShape input = context.getShape(op.getInput());
  SymbolicShape residual = context.getShape(op.getResidual());
  FailureOr<int64_t> axis =
      normalizeAxis(op.getLoc(), op.getAxis(), input.size());
  if (failed(axis))
    return failure();
  if (residual.size() != input.size() ||
      !llvm::all_of(llvm::zip(residual, input), [&](auto sizes) {
        return context.requireEqual(std::get<0>(sizes), std::get<1>(sizes));
      }))
    return op.emitOpError("residual must have the shape of input, ")
           << ShapeContext::format(input);
  if (failed(requireAxisParams(op, context, input[*axis],
                               {op.getGamma(), op.getBeta()})))
    return failure();
  shapes.append(2, input);
  return success();
}

LogicalResult ResidualLayerNormOp::inferSymbolicShapes(
    ShapeContext &context, SmallVectorImpl<SymbolicShape> &shapes) {
  return inferResidualNormShapes(*this, context, shapes);
}

LogicalResult
ResidualRmsNormOp::inferSymbolicShapes(ShapeContext &context,
                                       SmallVectorImpl<SymbolicShape> &shapes) {
  return inferResidualNormShapes(*this, context, shapes);
}

SmallVector<Value> ResidualLayerNormOp::unfuse(OpBuilder &b) {
  Value sum = AddOp::create(b, getLoc(), getInput(), getResidual());
  auto norm = LayerNormOp::create(b, getLoc(), sum, getGamma(), getBeta(),
                                  getAxisAttr(), getEpsAttr(),
                                  /*with_statistics=*/nullptr);
  return {norm.getResult(), sum};
}

SmallVector<Value> ResidualRmsNormOp::unfuse(OpBuilder &b) {
  Value sum = AddOp::create(b, getLoc(), getInput(), getResidual());
  auto norm = RmsNormOp::create(b, getLoc(), sum, getGamma(), getBeta(),
                                getAxisAttr(), getEpsAttr(),
                                /*with_statistics=*/nullptr);
  return {norm.getResult(), sum};
}
