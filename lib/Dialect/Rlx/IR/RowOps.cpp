//===- RowOps.cpp - Row ops stated in primitive rlx ops -------------------===//
//
// `RowOpInterface::decomposeRows` for softmax, log_softmax, the
// normalizations (layer_norm, rms_norm, their residual forms, layer_norm2d,
// group_norm, ada_layer_norm) and the softmax losses. Each is written with the same operations,
// in the same order, as the formula in the op's description, in the
// computation type (f32 for f16/bf16, cast once at each end), so the
// decomposition is the op.
//
//===----------------------------------------------------------------------===//
#include "rlx/Dialect/Rlx/IR/RlxOps.h"

#include "PrimitiveBuilder.h"

#include "mlir/IR/PatternMatch.h"

#include <limits>

using namespace mlir;
using namespace mlir::rlx;

//===----------------------------------------------------------------------===//
// softmax, log_softmax
//===----------------------------------------------------------------------===//

SmallVector<Value> SoftmaxOp::decomposeRows(OpBuilder &b) {
  PrimitiveBuilder p(b, getLoc());
  Value x = p.toCompute(getInput());
  int64_t axis = getNormalizedAxis();
  Value max = p.reduce(x, ReduceKind::Max, axis);
  Value exps = p.op<ExpOp>(p.op<SubOp>(x, max));
  Value sum = p.reduce(exps, ReduceKind::Sum, axis);
  return {p.cast(p.op<DivOp>(exps, sum), getType().getElementType())};
}

SmallVector<Value> LogSoftmaxOp::decomposeRows(OpBuilder &b) {
  PrimitiveBuilder p(b, getLoc());
  auto lse = p.logSumExp(p.toCompute(getInput()), getNormalizedAxis());
  return {p.cast(p.op<SubOp>(lse.shifted, lse.logSum),
                 getType().getElementType())};
}

//===----------------------------------------------------------------------===//
// layer_norm, rms_norm
//===----------------------------------------------------------------------===//

/// normalized * gamma (+ beta) with the parameters cast and shaped to
/// broadcast along `axis`, then the result in the input's element type.
static Value applyAffine(PrimitiveBuilder &p, Value normalized, Value gamma,
                         Value beta, int64_t axis, Type storage) {
  int64_t rank = cast<RankedTensorType>(normalized.getType()).getRank();
  Value result = p.op<MulOp>(
      normalized, p.alongAxis(p.toCompute(gamma), axis, rank));
  if (beta)
    result = p.op<AddOp>(result, p.alongAxis(p.toCompute(beta), axis, rank));
  return p.cast(result, storage);
}

/// layer_norm of `input` along `axis`, then its statistics when
/// `withStatistics`.
static SmallVector<Value> decomposeLayerNorm(PrimitiveBuilder &p, Value input,
                                             Value gamma, Value beta,
                                             int64_t axis, double eps,
                                             bool withStatistics) {
  PrimitiveBuilder::Centered stats = p.normalizeCentered(input, axis, eps);
  SmallVector<Value> results = {applyAffine(
      p, p.op<MulOp>(stats.centered, stats.rstd), gamma, beta, axis,
      PrimitiveBuilder::elementType(input))};
  if (withStatistics)
    results.append({stats.mean, stats.rstd});
  return results;
}

/// rms_norm of `input` along `axis`, then its statistic when
/// `withStatistics`.
static SmallVector<Value> decomposeRmsNorm(PrimitiveBuilder &p, Value input,
                                           Value gamma, Value beta,
                                           int64_t axis, double eps,
                                           bool withStatistics) {
  auto [normalized, rstd] = p.normalizeRms(input, axis, eps);
  SmallVector<Value> results = {applyAffine(
      p, normalized, gamma, beta, axis, PrimitiveBuilder::elementType(input))};
  if (withStatistics)
    results.push_back(rstd);
  return results;
}

SmallVector<Value> LayerNormOp::decomposeRows(OpBuilder &b) {
  PrimitiveBuilder p(b, getLoc());
  return decomposeLayerNorm(p, getInput(), getGamma(), getBeta(),
                            getNormalizedAxis(), getEps().convertToDouble(),
                            getWithStatistics());
}

SmallVector<Value> RmsNormOp::decomposeRows(OpBuilder &b) {
  PrimitiveBuilder p(b, getLoc());
  return decomposeRmsNorm(p, getInput(), getGamma(), getBeta(),
                          getNormalizedAxis(), getEps().convertToDouble(),
                          getWithStatistics());
}

SmallVector<Value> ResidualLayerNormOp::decomposeRows(OpBuilder &b) {
  PrimitiveBuilder p(b, getLoc());
  Value sum = p.op<AddOp>(getInput(), getResidual());
  SmallVector<Value> results =
      decomposeLayerNorm(p, sum, getGamma(), getBeta(), getNormalizedAxis(),
                         getEps().convertToDouble(), false);
  results.push_back(sum);
  return results;
}

SmallVector<Value> ResidualRmsNormOp::decomposeRows(OpBuilder &b) {
  PrimitiveBuilder p(b, getLoc());
  Value sum = p.op<AddOp>(getInput(), getResidual());
  SmallVector<Value> results =
      decomposeRmsNorm(p, sum, getGamma(), getBeta(), getNormalizedAxis(),
                       getEps().convertToDouble(), false);
  results.push_back(sum);
  return results;
}

SmallVector<Value> LayerNorm2dOp::decomposeRows(OpBuilder &b) {
  PrimitiveBuilder p(b, getLoc());
  return decomposeLayerNorm(p, getInput(), getGamma(), getBeta(), /*axis=*/1,
                            getEps().convertToDouble(), false);
}

/// [N, C, *spatial] viewed as [N, G, C/G, *spatial] and normalized over
/// every axis after G; gamma and beta viewed as [G, C/G, 1, ...].
SmallVector<Value> GroupNormOp::decomposeRows(OpBuilder &b) {
  PrimitiveBuilder p(b, getLoc());
  RankedTensorType type = getType();
  int64_t groups = getGroups();
  int64_t channels = type.getDimSize(1);
  SmallVector<int64_t> grouped = {type.getDimSize(0), groups,
                                  channels / groups};
  llvm::append_range(grouped, type.getShape().drop_front(2));
  SmallVector<int64_t> axes;
  for (int64_t d = 2, e = grouped.size(); d < e; ++d)
    axes.push_back(d);
  SmallVector<int64_t> paramShape(grouped.begin() + 1, grouped.end());
  std::fill(paramShape.begin() + 2, paramShape.end(), 1);
  PrimitiveBuilder::Centered stats = p.normalizeCentered(
      p.reshape(getInput(), grouped), axes, getEps().convertToDouble());
  Value normalized = p.op<MulOp>(stats.centered, stats.rstd);
  Value result = p.op<AddOp>(
      p.op<MulOp>(normalized, p.reshape(p.toCompute(getGamma()), paramShape)),
      p.reshape(p.toCompute(getBeta()), paramShape));
  return {p.reshape(p.cast(result, type.getElementType()), type.getShape())};
}

/// norm(x) * (1 + scale) + shift over the last axis.
SmallVector<Value> AdaLayerNormOp::decomposeRows(OpBuilder &b) {
  PrimitiveBuilder p(b, getLoc());
  int64_t axis = getType().getRank() - 1;
  double eps = getEps().convertToDouble();
  Value normalized;
  if (getKind() == AdaNormKind::Layer) {
    PrimitiveBuilder::Centered stats =
        p.normalizeCentered(getInput(), axis, eps);
    normalized = p.op<MulOp>(stats.centered, stats.rstd);
  } else {
    normalized = p.normalizeRms(getInput(), axis, eps).first;
  }
  Value scale = p.toCompute(getScale());
  Value factor = p.op<AddOp>(
      p.scalar(PrimitiveBuilder::elementType(scale), 1.0), scale);
  Value result = p.op<AddOp>(p.op<MulOp>(normalized, factor),
                             p.toCompute(getShift()));
  return {p.cast(result, getType().getElementType())};
}

//===----------------------------------------------------------------------===//
// Softmax losses
//===----------------------------------------------------------------------===//

/// The [N, 1] per-row loss as the op's [N] result.
static Value toLossResult(PrimitiveBuilder &p, Value loss,
                          RankedTensorType type) {
  return p.reshape(p.cast(loss, type.getElementType()), type.getShape());
}

SmallVector<Value> SoftmaxCrossEntropyOp::decomposeRows(OpBuilder &b) {
  PrimitiveBuilder p(b, getLoc());
  Value logits = p.toCompute(getLogits());
  auto lse = p.logSumExp(logits, 1);
  Value logSumExp = p.op<AddOp>(lse.max, lse.logSum);
  Value weighted = p.op<MulOp>(p.toCompute(getTargets()),
                               p.op<SubOp>(logSumExp, logits));
  return {toLossResult(p, p.reduce(weighted, ReduceKind::Sum, 1), getType())};
}

/// The labelled logit is picked by summing the row with every other column
/// zeroed, so no index is ever loaded from; rows whose label is outside
/// [0, C) give NaN.
SmallVector<Value> SoftmaxCrossEntropyWithLabelsOp::decomposeRows(
    OpBuilder &b) {
  PrimitiveBuilder p(b, getLoc());
  Value logits = p.toCompute(getLogits());
  Type computeType = PrimitiveBuilder::elementType(logits);
  auto labels = p.labelMask(getLabels(), getLogits().getType().getDimSize(1));
  Value picked = p.reduce(
      p.op<WhereOp>(labels.isLabel, logits, p.scalar(computeType, 0.0)),
      ReduceKind::Sum, 1);

  auto lse = p.logSumExp(logits, 1);
  Value loss = p.op<SubOp>(p.op<AddOp>(lse.max, lse.logSum), picked);
  Value nan =
      p.scalar(computeType, std::numeric_limits<double>::quiet_NaN());
  return {toLossResult(p, p.op<WhereOp>(labels.inRange, loss, nan),
                       getType())};
}

static bool hasNoElements(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  return tensor && tensor.hasStaticShape() && tensor.getNumElements() == 0;
}

LogicalResult mlir::rlx::verifyRowsNotEmpty(Operation *op) {
  if (op->getNumOperands() == 0 || !hasNoElements(op->getOperand(0).getType()))
    return success();
  for (auto [index, type] : llvm::enumerate(op->getResultTypes()))
    if (!hasNoElements(type))
      return op->emitOpError("has empty rows (operand #0 of type ")
             << op->getOperand(0).getType() << " has no elements), so result #"
             << index << " of type " << type << " is undefined";
  return success();
}

RegionOp mlir::rlx::decomposeIntoRowRegion(RewriterBase &rewriter,
                                           RowOpInterface op) {
  // Without elements (the verifier makes every result empty too) there is
  // nothing to compute.
  if (hasNoElements(op->getOperand(0).getType())) {
    rewriter.setInsertionPoint(op);
    SmallVector<Value> empty;
    for (Type type : op->getResultTypes())
      empty.push_back(ConstantOp::create(
          rewriter, op.getLoc(),
          DenseElementsAttr::get(cast<ShapedType>(type),
                                 ArrayRef<Attribute>{})));
    rewriter.replaceOp(op, empty);
    return nullptr;
  }
  Block *block = op->getBlock();
  Operation *previous = op->getPrevNode();
  rewriter.setInsertionPoint(op);
  SmallVector<Value> replacements = op.decomposeRows(rewriter);
  SmallVector<Operation *> created;
  for (Operation *it = previous ? previous->getNextNode() : &block->front();
       it != op.getOperation(); it = it->getNextNode())
    created.push_back(it);
  rewriter.replaceOp(op, replacements);

  // The rows' work joins the region; parameter and result reshapes and
  // constants stay outside.
  auto first = llvm::find_if(created, [](Operation *member) {
    return isa<ReductionOpInterface>(member);
  });
  if (first == created.end())
    return nullptr;
  auto reduction = cast<ReductionOpInterface>(*first);
  SmallVector<int64_t> shape(
      cast<RankedTensorType>(reduction.getReducedInput().getType()).getShape());
  SmallVector<int64_t> axes = reduction.getReducedAxes();
  SmallVector<Operation *> members;
  for (Operation *member : created)
    if (canJoinRegion(member, FusionKind::Row, shape, axes))
      members.push_back(member);
  return outlineIntoRegion(rewriter, members, FusionKind::Row);
}
