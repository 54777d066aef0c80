//===- GradOps.cpp - Backward ops -----------------------------------------===//
//
// The activation gradients are elementwise ops whose `buildScalar` is the
// forward op's `buildGradient`. The norm and loss gradients are row ops,
// defined by their decompositions into primitive rlx ops in the computation
// type (f32 for f16/bf16, cast once at each end), written in the order of
// the formulas in their descriptions.
//
//===----------------------------------------------------------------------===//
#include "rlx/Dialect/Rlx/IR/Activation.h"
#include "rlx/Dialect/Rlx/IR/RlxOps.h"

#include "OpUtils.h"
#include "PrimitiveBuilder.h"

#include <limits>

using namespace mlir;
using namespace mlir::rlx;

//===----------------------------------------------------------------------===//
// relu_backward, activation_backward
//===----------------------------------------------------------------------===//

Value ReluBackwardOp::buildScalar(ScalarBuilder &b, ValueRange operands) {
  return buildActivationGradient(b, ActivationKind::Relu, operands[1],
                                 operands[0]);
}

OpFoldResult ReluBackwardOp::fold(FoldAdaptor adaptor) {
  return foldElementwise(*this, adaptor.getOperands());
}

Value ActivationBackwardOp::buildScalar(ScalarBuilder &b,
                                        ValueRange operands) {
  return buildActivationGradient(b, getKind(), operands[1], operands[0]);
}

OpFoldResult ActivationBackwardOp::fold(FoldAdaptor adaptor) {
  return foldElementwise(*this, adaptor.getOperands());
}

//===----------------------------------------------------------------------===//
// layer_norm_backward, rms_norm_backward, group_norm_backward,
// batch_norm_inference_backward
//===----------------------------------------------------------------------===//

/// dx has the input's type, each parameter gradient gamma's.
static void inferNormBackwardTypes(Type input, Type gamma, int64_t count,
                                   SmallVectorImpl<Type> &inferred) {
  inferred.push_back(input);
  inferred.append(count, gamma);
}

LogicalResult LayerNormBackwardOp::inferReturnTypes(
    MLIRContext *, std::optional<Location>, Adaptor adaptor,
    SmallVectorImpl<Type> &inferred) {
  inferNormBackwardTypes(adaptor.getInput().getType(),
                         adaptor.getGamma().getType(), 2, inferred);
  return success();
}

LogicalResult RmsNormBackwardOp::inferReturnTypes(
    MLIRContext *, std::optional<Location>, Adaptor adaptor,
    SmallVectorImpl<Type> &inferred) {
  inferNormBackwardTypes(adaptor.getInput().getType(),
                         adaptor.getGamma().getType(),
                         adaptor.getWithBetaGrad() ? 2 : 1, inferred);
  return success();
}

LogicalResult GroupNormBackwardOp::inferReturnTypes(
    MLIRContext *, std::optional<Location>, Adaptor adaptor,
    SmallVectorImpl<Type> &inferred) {
  inferNormBackwardTypes(adaptor.getInput().getType(),
                         adaptor.getGamma().getType(), 2, inferred);
  return success();
}

LogicalResult BatchNormInferenceBackwardOp::inferReturnTypes(
    MLIRContext *, std::optional<Location>, Adaptor adaptor,
    SmallVectorImpl<Type> &inferred) {
  inferNormBackwardTypes(adaptor.getInput().getType(),
                         adaptor.getGamma().getType(), 2, inferred);
  return success();
}

/// The normalized axis, `gamma` of its length and `statistics` shaped like
/// the input with that axis of size 1, in the computation type.
static LogicalResult verifyAxisNormBackward(Operation *op,
                                            RankedTensorType input,
                                            int64_t axis, Value gamma,
                                            ValueRange statistics,
                                            ArrayRef<StringRef> names) {
  int64_t rank = input.getRank();
  if (axis < -rank || axis >= rank)
    return op->emitOpError("axis ")
           << axis << " is out of range for rank " << rank;
  int64_t normalized = axis < 0 ? axis + rank : axis;
  if (failed(verifyPerAxisParam(op, gamma, "gamma",
                                input.getDimSize(normalized),
                                "the normalized axis")))
    return failure();
  SmallVector<int64_t> shape(input.getShape());
  shape[normalized] = 1;
  auto expected = RankedTensorType::get(
      shape, ScalarBuilder::computeType(input.getElementType()));
  for (auto [statistic, name] : llvm::zip_equal(statistics, names))
    if (statistic.getType() != expected)
      return op->emitOpError()
             << name << " must be " << expected
             << " (the input's shape with the normalized axis of size 1, in "
                "the computation type), got "
             << statistic.getType();
  return success();
}

LogicalResult LayerNormBackwardOp::verify() {
  return verifyAxisNormBackward(*this, getInput().getType(), getAxis(),
                                getGamma(), {getMean(), getRstd()},
                                {"mean", "rstd"});
}

LogicalResult RmsNormBackwardOp::verify() {
  return verifyAxisNormBackward(*this, getInput().getType(), getAxis(),
                                getGamma(), {getRstd()}, {"rstd"});
}

LogicalResult GroupNormBackwardOp::verify() {
  RankedTensorType input = getInput().getType();
  if (failed(verifyChannelParams(*this, input, 2, {getGamma()}, {"gamma"})))
    return failure();
  if (failed(verifyGroups(*this, input, getGroups())))
    return failure();
  return verifyEps(*this, getEps().convertToDouble());
}

LogicalResult BatchNormInferenceBackwardOp::verify() {
  if (failed(verifyChannelParams(*this, getInput().getType(), 2,
                                 {getGamma(), getMean(), getVariance()},
                                 {"gamma", "mean", "variance"})))
    return failure();
  return verifyEps(*this, getEps().convertToDouble());
}

/// The gradients of `xhat * gamma (+ beta)`, normalized over `rowAxes`:
/// `dx = rstd * (g - [mean(g)] - xhat * mean(g * xhat))` with `g = grad *
/// gamma` (the `mean(g)` term when `centered`), rounded to `dxElement`,
/// then, in the computation type, `dgamma = sum(grad * xhat)` and, when
/// `withBeta`, `dbeta = sum(grad)` over `paramAxes` (none: no sum). The row
/// means come first, so they set the row region's axes; the parameter sums
/// come after every row op, as the row region takes the place of its last
/// op and the sums read its results.
static SmallVector<Value> buildNormGradients(PrimitiveBuilder &p, Value grad,
                                             Value gamma, Value xhat,
                                             Value rstd,
                                             ArrayRef<int64_t> rowAxes,
                                             ArrayRef<int64_t> paramAxes,
                                             bool centered, bool withBeta,
                                             Type dxElement) {
  Value g = p.op<MulOp>(grad, gamma);
  Value gradXhat = p.reduce(p.op<MulOp>(g, xhat), ReduceKind::Mean, rowAxes,
                            /*keepDim=*/true);
  Value direction = g;
  if (centered)
    direction = p.op<SubOp>(
        g, p.reduce(g, ReduceKind::Mean, rowAxes, /*keepDim=*/true));
  Value dx =
      p.op<MulOp>(rstd, p.op<SubOp>(direction, p.op<MulOp>(xhat, gradXhat)));
  SmallVector<Value> results = {p.cast(dx, dxElement)};
  auto sum = [&](Value x) {
    return paramAxes.empty()
               ? x
               : p.reduce(x, ReduceKind::Sum, paramAxes, /*keepDim=*/false);
  };
  results.push_back(sum(p.op<MulOp>(grad, xhat)));
  if (withBeta)
    results.push_back(sum(grad));
  return results;
}

/// Every axis of a rank-`rank` tensor but `axis`.
static SmallVector<int64_t> otherAxes(int64_t rank, int64_t axis) {
  SmallVector<int64_t> axes;
  for (int64_t d = 0; d < rank; ++d)
    if (d != axis)
      axes.push_back(d);
  return axes;
}

/// The gradients of a one-axis normalization of `input` whose normalized
/// input is `xhat`, each in its storage type.
static SmallVector<Value> decomposeAxisNormBackward(
    PrimitiveBuilder &p, Value dy, Value input, Value gamma, Value xhat,
    Value rstd, int64_t axis, bool centered, bool withBeta) {
  int64_t rank = cast<RankedTensorType>(input.getType()).getRank();
  SmallVector<Value> grads = buildNormGradients(
      p, p.toCompute(dy), p.alongAxis(p.toCompute(gamma), axis, rank), xhat,
      rstd, {axis}, otherAxes(rank, axis), centered, withBeta,
      PrimitiveBuilder::elementType(input));
  SmallVector<Value> results = {grads[0]};
  for (Value param : ArrayRef(grads).drop_front())
    results.push_back(p.cast(param, PrimitiveBuilder::elementType(gamma)));
  return results;
}

SmallVector<Value> LayerNormBackwardOp::decomposeRows(OpBuilder &b) {
  PrimitiveBuilder p(b, getLoc());
  Value xhat = p.op<MulOp>(p.op<SubOp>(p.toCompute(getInput()), getMean()),
                           getRstd());
  return decomposeAxisNormBackward(p, getDy(), getInput(), getGamma(), xhat,
                                   getRstd(), getNormalizedAxis(),
                                   /*centered=*/true, /*withBeta=*/true);
}

SmallVector<Value> RmsNormBackwardOp::decomposeRows(OpBuilder &b) {
  PrimitiveBuilder p(b, getLoc());
  Value xhat = p.op<MulOp>(p.toCompute(getInput()), getRstd());
  return decomposeAxisNormBackward(p, getDy(), getInput(), getGamma(), xhat,
                                   getRstd(), getNormalizedAxis(),
                                   /*centered=*/false, getWithBetaGrad());
}

/// The input is viewed as `[N, G, C / G, *spatial]`, whose rows are the axes
/// after G (the spatial axes stay apart, so `?` sizes keep their order); the
/// statistics are recomputed as group_norm computes them.
SmallVector<Value> GroupNormBackwardOp::decomposeRows(OpBuilder &b) {
  PrimitiveBuilder p(b, getLoc());
  RankedTensorType inputType = getInput().getType();
  ArrayRef<int64_t> shape = inputType.getShape();
  int64_t groups = getGroups(), channels = shape[1];
  SmallVector<int64_t> grouped = {shape[0], groups, channels / groups};
  llvm::append_range(grouped, shape.drop_front(2));
  int64_t rank = grouped.size();
  Value x = p.toCompute(p.reshape(getInput(), grouped));
  Type computeType = PrimitiveBuilder::elementType(x);
  SmallVector<int64_t> rowAxes, paramAxes = {0};
  for (int64_t d = 2; d < rank; ++d)
    rowAxes.push_back(d);
  for (int64_t d = 3; d < rank; ++d)
    paramAxes.push_back(d);
  Value mean = p.reduce(x, ReduceKind::Mean, rowAxes, /*keepDim=*/true);
  Value centered = p.op<SubOp>(x, mean);
  Value variance = p.reduce(p.op<MulOp>(centered, centered), ReduceKind::Mean,
                            rowAxes, /*keepDim=*/true);
  Value rstd = p.op<RsqrtOp>(p.op<AddOp>(
      variance, p.scalar(computeType, getEps().convertToDouble())));
  SmallVector<int64_t> gammaShape(rank - 1, 1);
  gammaShape[0] = groups;
  gammaShape[1] = channels / groups;
  Value gamma = p.reshape(p.toCompute(getGamma()), gammaShape);
  SmallVector<Value> grads = buildNormGradients(
      p, p.toCompute(p.reshape(getDy(), grouped)), gamma,
      p.op<MulOp>(centered, rstd), rstd, rowAxes, paramAxes,
      /*centered=*/true, /*withBeta=*/true, inputType.getElementType());
  SmallVector<Value> results = {p.reshape(grads[0], shape)};
  Type paramType = PrimitiveBuilder::elementType(getGamma());
  for (Value param : ArrayRef(grads).drop_front())
    results.push_back(p.reshape(p.cast(param, paramType), {channels}));
  return results;
}

/// The channels are the rows: every sum is over the other axes, and the
/// per-channel parameters are row values.
SmallVector<Value> BatchNormInferenceBackwardOp::decomposeRows(OpBuilder &b) {
  PrimitiveBuilder p(b, getLoc());
  RankedTensorType inputType = getInput().getType();
  int64_t rank = inputType.getRank(), channels = inputType.getDimSize(1);
  SmallVector<int64_t> rowShape(rank, 1);
  rowShape[1] = channels;
  auto perChannel = [&](Value param) {
    return p.toCompute(p.reshape(param, rowShape));
  };
  Value x = p.toCompute(getInput());
  Value grad = p.toCompute(getDy());
  Type computeType = PrimitiveBuilder::elementType(x);
  Value rstd = p.op<RsqrtOp>(
      p.op<AddOp>(perChannel(getVariance()),
                  p.scalar(computeType, getEps().convertToDouble())));
  Value xhat = p.op<MulOp>(p.op<SubOp>(x, perChannel(getMean())), rstd);
  SmallVector<int64_t> rowAxes = otherAxes(rank, 1);
  Value dgamma = p.reduce(p.op<MulOp>(grad, xhat), ReduceKind::Sum, rowAxes,
                          /*keepDim=*/true);
  Value dbeta = p.reduce(grad, ReduceKind::Sum, rowAxes, /*keepDim=*/true);
  Value dx = p.op<MulOp>(grad, p.op<MulOp>(perChannel(getGamma()), rstd));
  // Every rounding, then the reshapes of the per-channel rows: the row
  // region takes the place of its last op.
  Type element = inputType.getElementType();
  SmallVector<Value> results = {p.cast(dx, element), p.cast(dgamma, element),
                                p.cast(dbeta, element)};
  for (Value &param : MutableArrayRef(results).drop_front())
    param = p.reshape(param, {channels});
  return results;
}

//===----------------------------------------------------------------------===//
// ada_layer_norm_backward, gated_residual_backward
//===----------------------------------------------------------------------===//

LogicalResult AdaLayerNormBackwardOp::inferReturnTypes(
    MLIRContext *, std::optional<Location>, Adaptor adaptor,
    SmallVectorImpl<Type> &inferred) {
  inferNormBackwardTypes(adaptor.getInput().getType(),
                         adaptor.getScale().getType(), 2, inferred);
  return success();
}

LogicalResult GatedResidualBackwardOp::inferReturnTypes(
    MLIRContext *, std::optional<Location>, Adaptor adaptor,
    SmallVectorImpl<Type> &inferred) {
  Type dy = adaptor.getDy().getType();
  inferred.append({dy, dy, adaptor.getGate().getType()});
  return success();
}

LogicalResult AdaLayerNormBackwardOp::verify() {
  RankedTensorType input = getInput().getType();
  ArrayRef<int64_t> scale = getScale().getType().getShape();
  if (input.getRank() < 1)
    return emitOpError("input must have rank >= 1, got a scalar");
  if (!broadcastsTo(scale, input.getShape()))
    return emitOpError("scale ")
           << formatShape(scale) << " does not broadcast to input "
           << formatShape(input.getShape());
  return verifyEps(*this, getEps().convertToDouble());
}

LogicalResult GatedResidualBackwardOp::verify() {
  ArrayRef<int64_t> gate = getGate().getType().getShape();
  ArrayRef<int64_t> shape = getDy().getType().getShape();
  if (!broadcastsTo(gate, shape))
    return emitOpError("gate ") << formatShape(gate)
                                << " does not broadcast to dy "
                                << formatShape(shape);
  return success();
}

/// The statistics of the last axis are recomputed as ada_layer_norm
/// computes them; `1 + scale` takes gamma's place.
SmallVector<Value> AdaLayerNormBackwardOp::decomposeRows(OpBuilder &b) {
  PrimitiveBuilder p(b, getLoc());
  RankedTensorType inputType = getInput().getType();
  int64_t axis = inputType.getRank() - 1;
  double eps = getEps().convertToDouble();
  bool centered = getKind() == AdaNormKind::Layer;
  Value xhat, rstd;
  if (centered) {
    PrimitiveBuilder::Centered stats =
        p.normalizeCentered(getInput(), axis, eps);
    xhat = p.op<MulOp>(stats.centered, stats.rstd);
    rstd = stats.rstd;
  } else {
    std::tie(xhat, rstd) = p.normalizeRms(getInput(), axis, eps);
  }
  Value scale = p.toCompute(getScale());
  Value factor = p.op<AddOp>(
      p.scalar(PrimitiveBuilder::elementType(scale), 1.0), scale);
  SmallVector<Value> grads = buildNormGradients(
      p, p.toCompute(getDy()), factor, xhat, rstd, {axis}, /*paramAxes=*/{},
      centered, /*withBeta=*/true, inputType.getElementType());
  RankedTensorType scaleType = getScale().getType();
  SmallVector<Value> results = {grads[0]};
  for (Value param : ArrayRef(grads).drop_front())
    results.push_back(p.cast(p.sumBroadcastDims(param, scaleType.getShape()),
                             scaleType.getElementType()));
  for (Value &param : MutableArrayRef(results).drop_front())
    param = p.reshape(param, scaleType.getShape());
  return results;
}

/// With a broadcast gate, the sum for dgate runs along the rows; the
/// reshape to gate's shape comes last, after every row op.
SmallVector<Value> GatedResidualBackwardOp::decomposeRows(OpBuilder &b) {
  PrimitiveBuilder p(b, getLoc());
  RankedTensorType gateType = getGate().getType();
  Value dy = p.toCompute(getDy());
  Value dupdate = p.cast(p.op<MulOp>(dy, p.toCompute(getGate())),
                         getDy().getType().getElementType());
  Value dgate = p.cast(
      p.sumBroadcastDims(p.op<MulOp>(dy, p.toCompute(getUpdate())),
                         gateType.getShape()),
      gateType.getElementType());
  return {getDy(), dupdate, p.reshape(dgate, gateType.getShape())};
}

//===----------------------------------------------------------------------===//
// softmax_cross_entropy_backward, softmax_cross_entropy_with_labels_backward
//===----------------------------------------------------------------------===//

/// `[N, C]` logits with `[N]` per-row loss gradients give `[N, C]`.
static LogicalResult inferLossBackwardType(std::optional<Location> loc,
                                           Type logitsType, Type dlossType,
                                           SmallVectorImpl<Type> &inferred) {
  auto logits = dyn_cast<RankedTensorType>(logitsType);
  if (!logits || logits.getRank() != 2)
    return emitOptionalError(loc, "logits must be a [N, C] tensor, got ",
                             logitsType);
  auto dloss = dyn_cast<RankedTensorType>(dlossType);
  if (!dloss || dloss.getRank() != 1 ||
      failed(verifyCompatibleShape(dloss.getShape(), {logits.getDimSize(0)})))
    return emitOptionalError(loc, "dloss must be ",
                             formatShape(logits.getShape().take_front()),
                             " (one per row of logits), got ", dlossType);
  inferred.push_back(logits);
  return success();
}

LogicalResult SoftmaxCrossEntropyBackwardOp::inferReturnTypes(
    MLIRContext *, std::optional<Location> loc, Adaptor adaptor,
    SmallVectorImpl<Type> &inferred) {
  return inferLossBackwardType(loc, adaptor.getLogits().getType(),
                               adaptor.getDloss().getType(), inferred);
}

LogicalResult SoftmaxCrossEntropyWithLabelsBackwardOp::inferReturnTypes(
    MLIRContext *, std::optional<Location> loc, Adaptor adaptor,
    SmallVectorImpl<Type> &inferred) {
  if (failed(inferLossBackwardType(loc, adaptor.getLogits().getType(),
                                   adaptor.getDloss().getType(), inferred)))
    return failure();
  return verifyLabels(loc, adaptor.getLogits().getType(),
                      adaptor.getLabels().getType());
}

/// softmax of the rows of `[N, C]` logits (computation type).
static Value softmaxRows(PrimitiveBuilder &p, Value logits) {
  Value max = p.reduce(logits, ReduceKind::Max, 1);
  Value exps = p.op<ExpOp>(p.op<SubOp>(logits, max));
  return p.op<DivOp>(exps, p.reduce(exps, ReduceKind::Sum, 1));
}

/// The `[N]` loss gradients as an `[N, 1]` column in the computation type.
static Value lossColumn(PrimitiveBuilder &p, Value dloss) {
  int64_t rows = cast<RankedTensorType>(dloss.getType()).getDimSize(0);
  return p.toCompute(p.reshape(dloss, {rows, 1}));
}

SmallVector<Value> SoftmaxCrossEntropyBackwardOp::decomposeRows(OpBuilder &b) {
  PrimitiveBuilder p(b, getLoc());
  Value probabilities = softmaxRows(p, p.toCompute(getLogits()));
  Value targets = p.toCompute(getTargets());
  Value total = p.reduce(targets, ReduceKind::Sum, 1);
  Value dlogits =
      p.op<MulOp>(lossColumn(p, getDloss()),
                  p.op<SubOp>(p.op<MulOp>(probabilities, total), targets));
  return {p.cast(dlogits, getType().getElementType())};
}

SmallVector<Value>
SoftmaxCrossEntropyWithLabelsBackwardOp::decomposeRows(OpBuilder &b) {
  PrimitiveBuilder p(b, getLoc());
  Value probabilities = softmaxRows(p, p.toCompute(getLogits()));
  Type computeType = PrimitiveBuilder::elementType(probabilities);
  auto labels = p.labelMask(getLabels(), getLogits().getType().getDimSize(1));
  Value oneHot = p.op<WhereOp>(labels.isLabel, p.scalar(computeType, 1.0),
                               p.scalar(computeType, 0.0));
  Value dlogits = p.op<MulOp>(lossColumn(p, getDloss()),
                              p.op<SubOp>(probabilities, oneHot));
  Value nan =
      p.scalar(computeType, std::numeric_limits<double>::quiet_NaN());
  return {p.cast(p.op<WhereOp>(labels.inRange, dlogits, nan),
                 getType().getElementType())};
}

//===----------------------------------------------------------------------===//
// Shape rules
//===----------------------------------------------------------------------===//

/// The input's gradient is shaped as the input, the parameters' as gamma
/// (`count` of them); gamma has the length of the normalized axis and the
/// statistics are the input's shape with that axis of size 1.
template <typename OpTy>
static LogicalResult
inferAxisNormBackwardShapes(OpTy op, ShapeContext &context,
                            ValueRange statistics, int64_t count,
                            SmallVectorImpl<SymbolicShape> &shapes) {
  SymbolicShape input = context.getShape(op.getInput());
  FailureOr<int64_t> axis =
      normalizeAxis(op.getLoc(), op.getAxis(), input.size());
  if (failed(axis))
    return failure();
  SymbolicShape gamma = context.getShape(op.getGamma());
  if (gamma.size() != 1 || !context.requireEqual(gamma[0], input[*axis]))
    return op.emitOpError("gamma must have the length of the normalized "
                          "axis, ")
           << ShapeContext::format(input[*axis]) << ", got "
           << ShapeContext::format(gamma);
  SymbolicShape reduced = input;
  reduced[*axis] = context.getConstant(1);
  for (Value statistic : statistics)
    if (failed(requireSameShape(op, context, statistic, reduced,
                                "the statistics")))
      return failure();
  shapes.push_back(input);
  shapes.append(count, gamma);
  return success();
}

LogicalResult LayerNormBackwardOp::inferSymbolicShapes(
    ShapeContext &context, SmallVectorImpl<SymbolicShape> &shapes) {
  return inferAxisNormBackwardShapes(*this, context, {getMean(), getRstd()}, 2,
                                     shapes);
}

LogicalResult
RmsNormBackwardOp::inferSymbolicShapes(ShapeContext &context,
                                       SmallVectorImpl<SymbolicShape> &shapes) {
  return inferAxisNormBackwardShapes(*this, context, {getRstd()},
                                     getWithBetaGrad() ? 2 : 1, shapes);
}

LogicalResult GroupNormBackwardOp::inferSymbolicShapes(
    ShapeContext &context, SmallVectorImpl<SymbolicShape> &shapes) {
  SymbolicShape input = context.getShape(getInput());
  if (failed(requireChannelParams(*this, context, input, /*minRank=*/2,
                                  {getGamma()})))
    return failure();
  shapes.push_back(input);
  shapes.append(2, context.getShape(getGamma()));
  return success();
}

LogicalResult BatchNormInferenceBackwardOp::inferSymbolicShapes(
    ShapeContext &context, SmallVectorImpl<SymbolicShape> &shapes) {
  SymbolicShape input = context.getShape(getInput());
  if (failed(requireChannelParams(*this, context, input, /*minRank=*/2,
                                  {getGamma(), getMean(), getVariance()})))
    return failure();
  shapes.push_back(input);
  shapes.append(2, context.getShape(getGamma()));
  return success();
}

LogicalResult AdaLayerNormBackwardOp::inferSymbolicShapes(
    ShapeContext &context, SmallVectorImpl<SymbolicShape> &shapes) {
  SymbolicShape input = context.getShape(getInput());
  if (failed(requireBroadcastsTo(*this, context, getScale(), input, "scale")))
    return failure();
  shapes.push_back(input);
  shapes.append(2, context.getShape(getScale()));
  return success();
}

LogicalResult GatedResidualBackwardOp::inferSymbolicShapes(
    ShapeContext &context, SmallVectorImpl<SymbolicShape> &shapes) {
  SymbolicShape dy = context.getShape(getDy());
  if (failed(requireBroadcastsTo(*this, context, getGate(), dy, "gate")))
    return failure();
  shapes.append(2, dy);
  shapes.push_back(context.getShape(getGate()));
  return success();
}

/// `[N, C]` logits and `[N]` loss gradients give `[N, C]`.
static LogicalResult
inferLossBackwardShape(Operation *op, ShapeContext &context, Value logits,
                       Value dloss, SmallVectorImpl<SymbolicShape> &shapes) {
  SymbolicShape shape = context.getShape(logits);
  if (shape.size() != 2)
    return op->emitOpError("logits must be [N, C], got ")
           << ShapeContext::format(shape);
  if (failed(requireSameShape(op, context, dloss, {shape[0]}, "dloss")))
    return failure();
  shapes.push_back(shape);
  return success();
}

LogicalResult SoftmaxCrossEntropyBackwardOp::inferSymbolicShapes(
    ShapeContext &context, SmallVectorImpl<SymbolicShape> &shapes) {
  if (failed(inferLossBackwardShape(*this, context, getLogits(), getDloss(),
                                    shapes)))
    return failure();
  return requireSameShape(*this, context, getTargets(), shapes.back(),
                          "targets");
}

LogicalResult SoftmaxCrossEntropyWithLabelsBackwardOp::inferSymbolicShapes(
    ShapeContext &context, SmallVectorImpl<SymbolicShape> &shapes) {
  if (failed(inferLossBackwardShape(*this, context, getLogits(), getDloss(),
                                    shapes)))
    return failure();
  return requireSameShape(*this, context, getLabels(), {shapes.back()[0]},
                          "labels");
}
