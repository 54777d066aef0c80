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
  // A `?` on either side is checked at run time (the shape rule).
  for (auto [f, t] : llvm::zip_equal(from, tail))
    if (f != t && f != 1 && !ShapedType::isDynamic(f) &&
        !ShapedType::isDynamic(t))
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

// The groups split a static channel count: the decompositions view the
// channels as [groups, C / groups], which a `?` count could not keep apart
// from the `?` sizes around it.
LogicalResult mlir::rlx::verifyGroups(Operation *op, RankedTensorType input,
                                      int64_t groups) {
  if (input.isDynamicDim(1))
    return op->emitOpError("needs a static channel count (axis 1), got ")
           << formatShape(input.getShape());
  int64_t channels = input.getDimSize(1);
  if (groups <= 0 || channels % groups != 0)
    return op->emitOpError("groups must be positive and divide the ")
           << channels << " channels, got " << groups;
  return success();
}

LogicalResult GroupNormOp::verify() {
  RankedTensorType input = getInput().getType();
  if (failed(verifyChannelParams(*this, input, 2, {getGamma(), getBeta()},
                                 {"gamma", "beta"})))
    return failure();
  if (failed(verifyGroups(*this, input, getGroups())))
    return failure();
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
  if (failed(verifyCompatibleShape(getUpdate().getType(), input)))
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
  if (ShapedType::isDynamic(width))
    return op->emitOpError("needs a static last dimension (the heads' "
                           "width), got ")
           << formatShape(input.getShape());
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
    auto tableType = cast<RankedTensorType>(table.getType());
    if (tableType.getRank() != 2 ||
        failed(verifyCompatibleShape(tableType.getShape(), expected)))
      return op->emitOpError()
             << name << " must be [S, n_rot / 2] = " << formatShape(expected)
             << " (S is axis " << sequenceAxis << " of the input in layout "
             << stringifyAttentionLayout(layout) << "), got "
             << formatShape(tableType.getShape());
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

// The labels are compared against an `rlx.iota` of the classes, which has a
// static size.
LogicalResult mlir::rlx::verifyLabels(std::optional<Location> loc,
                                      Type logitsType, Type labelsType) {
  auto logits = cast<RankedTensorType>(logitsType);
  if (logits.isDynamicDim(1))
    return emitOptionalError(loc,
                             "needs a static class count (axis 1 of "
                             "the logits), got ",
                             logitsType);
  auto labels = dyn_cast<RankedTensorType>(labelsType);
  int64_t rows = logits.getDimSize(0);
  if (!labels || labels.getRank() != 1 ||
      failed(verifyCompatibleShape(labels.getShape(), {rows})))
    return emitOptionalError(loc, "labels must be ", formatShape({rows}),
                             " (one per row of logits), got ", labelsType);
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
  return verifyLabels(loc, adaptor.getLogits().getType(),
                      adaptor.getLabels().getType());
}

//===----------------------------------------------------------------------===//
// Shape rules
//===----------------------------------------------------------------------===//

LogicalResult mlir::rlx::requireChannelParams(Operation *op,
                                              ShapeContext &context,
                                              ArrayRef<AffineExpr> input,
                                              int64_t minRank,
                                              ValueRange params) {
  if (static_cast<int64_t>(input.size()) < minRank)
    return op->emitOpError("input must have rank >= ")
           << minRank << " ([N, C, ...]), got " << ShapeContext::format(input);
  for (Value param : params) {
    SymbolicShape sizes = context.getShape(param);
    if (sizes.size() != 1 || !context.requireEqual(sizes[0], input[1]))
      return op->emitOpError("parameters must have the length of the "
                             "channel axis 1, ")
             << ShapeContext::format(input[1]) << ", got "
             << ShapeContext::format(sizes);
  }
  return success();
}

LogicalResult mlir::rlx::requireBroadcastsTo(Operation *op,
                                             ShapeContext &context, Value from,
                                             ArrayRef<AffineExpr> to,
                                             StringRef what) {
  SymbolicShape sizes = context.getShape(from);
  bool fits = sizes.size() <= to.size();
  for (auto [size, target] :
       llvm::zip(llvm::reverse(sizes), llvm::reverse(to))) {
    auto constant = dyn_cast<AffineConstantExpr>(size);
    if (fits && !(constant && constant.getValue() == 1))
      fits = context.requireEqual(size, target);
  }
  if (!fits)
    return op->emitOpError()
           << what << " " << ShapeContext::format(sizes)
           << " does not broadcast to " << ShapeContext::format(to);
  return success();
}

LogicalResult mlir::rlx::requireSameShape(Operation *op, ShapeContext &context,
                                          Value value,
                                          ArrayRef<AffineExpr> shape,
                                          StringRef what) {
  SymbolicShape sizes = context.getShape(value);
  if (sizes.size() != shape.size() ||
      !llvm::all_of(llvm::zip(sizes, shape), [&](auto pair) {
        return context.requireEqual(std::get<0>(pair), std::get<1>(pair));
      }))
    return op->emitOpError()
           << what << " must have the shape " << ShapeContext::format(shape)
           << ", got " << ShapeContext::format(sizes);
  return success();
}

LogicalResult
GroupNormOp::inferSymbolicShapes(ShapeContext &context,
                                 SmallVectorImpl<SymbolicShape> &shapes) {
  SymbolicShape input = context.getShape(getInput());
  if (failed(requireChannelParams(*this, context, input, /*minRank=*/2,
                                  {getGamma(), getBeta()})))
    return failure();
  shapes.push_back(input);
  return success();
}

LogicalResult
LayerNorm2dOp::inferSymbolicShapes(ShapeContext &context,
                                   SmallVectorImpl<SymbolicShape> &shapes) {
  SymbolicShape input = context.getShape(getInput());
  if (failed(requireChannelParams(*this, context, input, /*minRank=*/4,
                                  {getGamma(), getBeta()})))
    return failure();
  shapes.push_back(input);
  return success();
}

LogicalResult BatchNormInferenceOp::inferSymbolicShapes(
    ShapeContext &context, SmallVectorImpl<SymbolicShape> &shapes) {
  SymbolicShape input = context.getShape(getInput());
  if (failed(requireChannelParams(
          *this, context, input, /*minRank=*/2,
          {getGamma(), getBeta(), getMean(), getVariance()})))
    return failure();
  shapes.push_back(input);
  return success();
}

LogicalResult
AdaLayerNormOp::inferSymbolicShapes(ShapeContext &context,
                                    SmallVectorImpl<SymbolicShape> &shapes) {
  SymbolicShape input = context.getShape(getInput());
  if (failed(requireSameShape(*this, context, getShift(),
                              context.getShape(getScale()), "shift")) ||
      failed(requireBroadcastsTo(*this, context, getScale(), input,
                                 "scale and shift")))
    return failure();
  shapes.push_back(input);
  return success();
}

LogicalResult
GatedResidualOp::inferSymbolicShapes(ShapeContext &context,
                                     SmallVectorImpl<SymbolicShape> &shapes) {
  SymbolicShape input = context.getShape(getInput());
  if (failed(requireSameShape(*this, context, getUpdate(), input, "update")) ||
      failed(requireBroadcastsTo(*this, context, getGate(), input, "gate")))
    return failure();
  shapes.push_back(input);
  return success();
}

LogicalResult mlir::rlx::requireRopeTables(Operation *op, ShapeContext &context,
                                           AttentionLayout layout,
                                           ArrayRef<AffineExpr> input,
                                           ValueRange tables, int64_t nRot) {
  int64_t rank = input.size();
  if (rank < (layout == AttentionLayout::BSD ? 2 : 3))
    return op->emitOpError("input ")
           << ShapeContext::format(input) << " has too few dimensions for "
           << "layout " << stringifyAttentionLayout(layout);
  int64_t sequenceAxis = RopeOp::getSequenceAxis(layout, rank);
  SymbolicShape expected = {input[sequenceAxis], context.getConstant(nRot / 2)};
  StringRef names[] = {"cos", "sin"};
  for (auto [table, name] : llvm::zip(tables, names)) {
    SymbolicShape sizes = context.getShape(table);
    if (sizes.size() != 2 || !context.requireEqual(sizes[0], expected[0]) ||
        !context.requireEqual(sizes[1], expected[1]))
      return op->emitOpError()
             << name
             << " must be [S, n_rot / 2] = " << ShapeContext::format(expected)
             << " (S is axis " << sequenceAxis << " of the input in layout "
             << stringifyAttentionLayout(layout) << "), got "
             << ShapeContext::format(sizes);
  }
  return success();
}

LogicalResult
RopeOp::inferSymbolicShapes(ShapeContext &context,
                            SmallVectorImpl<SymbolicShape> &shapes) {
  SymbolicShape input = context.getShape(getInput());
  if (failed(requireRopeTables(*this, context, getLayout(), input,
                               {getCos(), getSin()}, getNRot())))
    return failure();
  shapes.push_back(input);
  return success();
}

/// `[N, C]` logits give `[N]` per-row losses.
static FailureOr<SymbolicShape>
inferRowLossShape(Operation *op, ShapeContext &context, Value logits) {
  SymbolicShape shape = context.getShape(logits);
  if (shape.size() != 2)
    return op->emitOpError("logits must be [N, C], got ")
           << ShapeContext::format(shape);
  return SymbolicShape{shape[0]};
}

LogicalResult SoftmaxCrossEntropyOp::inferSymbolicShapes(
    ShapeContext &context, SmallVectorImpl<SymbolicShape> &shapes) {
  FailureOr<SymbolicShape> rows =
      inferRowLossShape(*this, context, getLogits());
  if (failed(rows) ||
      failed(requireSameShape(*this, context, getTargets(),
                              context.getShape(getLogits()), "targets")))
    return failure();
  shapes.push_back(*rows);
  return success();
}

LogicalResult SoftmaxCrossEntropyWithLabelsOp::inferSymbolicShapes(
    ShapeContext &context, SmallVectorImpl<SymbolicShape> &shapes) {
  FailureOr<SymbolicShape> rows =
      inferRowLossShape(*this, context, getLogits());
  if (failed(rows) ||
      failed(requireSameShape(*this, context, getLabels(), *rows, "labels")))
    return failure();
  shapes.push_back(*rows);
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
