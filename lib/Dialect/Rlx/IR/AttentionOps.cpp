//===- AttentionOps.cpp - Attention ops: verifiers, shape inference ------===//
//
// Every shape and attribute rule is checked while inferring the result types,
// which runs before any other verifier, so no rule is ever read from an
// unverified shape.
//
//===----------------------------------------------------------------------===//
#include "rlx/Dialect/Rlx/IR/RlxOps.h"

#include "OpUtils.h"

#include <cmath>

using namespace mlir;
using namespace mlir::rlx;

int64_t AttentionOp::getSequenceAxis(AttentionLayout layout) {
  return layout == AttentionLayout::BHSD ? 2 : 1;
}

std::optional<int64_t> AttentionOp::getHeadAxis(AttentionLayout layout) {
  switch (layout) {
  case AttentionLayout::BSHD:
    return 2;
  case AttentionLayout::BHSD:
    return 1;
  case AttentionLayout::BSD:
    return std::nullopt;
  }
  llvm_unreachable("unknown attention layout");
}

template <typename OpTy>
static double getScaleOrDefault(OpTy op) {
  if (std::optional<APFloat> scale = op.getScale())
    return scale->convertToDouble();
  return 1.0 / std::sqrt(static_cast<double>(
                   op.getQ().getType().getShape().back()));
}

double AttentionOp::getScaleOrDefault() { return ::getScaleOrDefault(*this); }

double AttentionBackwardOp::getScaleOrDefault() {
  return ::getScaleOrDefault(*this);
}

/// The axes of q, k and v in `layout`, spelled for diagnostics.
static StringRef getLayoutShape(AttentionLayout layout) {
  switch (layout) {
  case AttentionLayout::BSHD:
    return "[B, S, H, D]";
  case AttentionLayout::BHSD:
    return "[B, H, S, D]";
  case AttentionLayout::BSD:
    return "[B, S, D]";
  }
  llvm_unreachable("unknown attention layout");
}

namespace {
/// The sizes of one of q, k and v, read through the layout.
struct AttentionOperand {
  AffineExpr batch, heads, sequence, features;
};
} // namespace

/// Reads `value` (named `what`) as a tensor of `layout` with the element type
/// `element` and `expectedHeads` heads.
static FailureOr<AttentionOperand>
readOperand(ShapeContext &context, std::optional<Location> loc, Value value,
            StringRef what, AttentionLayout layout, Type element,
            int64_t expectedHeads, StringRef headsAttr) {
  FailureOr<RankedTensorType> type = getRankedType(loc, value, what);
  if (failed(type))
    return failure();
  int64_t rank = layout == AttentionLayout::BSD ? 3 : 4;
  ArrayRef<int64_t> shape = type->getShape();
  if (type->getRank() != rank)
    return emitOptionalError(loc, what, " must be ", getLayoutShape(layout),
                             " for layout ", stringifyAttentionLayout(layout),
                             ", got ", formatShape(shape));
  if (type->getElementType() != element)
    return emitOptionalError(loc, what, " must have the element type of q, ",
                             element, ", got ", type->getElementType());
  SymbolicShape sizes = context.getShape(value);
  for (AffineExpr size : sizes)
    if (!context.requireLessEqual(context.getConstant(1), size))
      return emitOptionalError(loc, what, " must not be empty, got ",
                               formatShape(shape));
  std::optional<int64_t> headAxis = AttentionOp::getHeadAxis(layout);
  AttentionOperand operand = {
      sizes[0], headAxis ? sizes[*headAxis] : context.getConstant(1),
      sizes[AttentionOp::getSequenceAxis(layout)], sizes.back()};
  if (headAxis &&
      !context.requireEqual(operand.heads, context.getConstant(expectedHeads)))
    return emitOptionalError(loc, what, " has ", formatSize(operand.heads),
                             " heads on axis ", *headAxis, ", but ", headsAttr,
                             " is ", expectedHeads);
  return operand;
}

/// Checks the mask operand and the attributes that go with each mask kind.
template <typename Adaptor>
static LogicalResult
verifyMask(ShapeContext &context, std::optional<Location> loc, Adaptor adaptor,
           AttentionOperand q, AttentionOperand k, Type element) {
  AttentionMask kind = adaptor.getMaskKind();
  StringRef kindName = stringifyAttentionMask(kind);
  bool takesOperand =
      kind == AttentionMask::Padding || kind == AttentionMask::Bias;
  Value mask = adaptor.getMask();
  if (takesOperand && !mask)
    return emitOptionalError(loc, "mask = ", kindName,
                             " needs a mask operand");
  if (!takesOperand && mask)
    return emitOptionalError(loc, "mask = ", kindName,
                             " takes no mask operand");
  std::optional<int64_t> window = adaptor.getWindow();
  if (kind == AttentionMask::SlidingWindow) {
    if (!window)
      return emitOptionalError(loc, "mask = sliding_window needs a window");
    if (*window < 0)
      return emitOptionalError(loc, "window must be non-negative, got ",
                               *window);
  } else if (window) {
    return emitOptionalError(
        loc, "window is only accepted with mask = sliding_window, not ",
        kindName);
  }
  if (!mask)
    return success();

  FailureOr<RankedTensorType> type = getRankedType(loc, mask, "mask");
  if (failed(type))
    return failure();
  ArrayRef<int64_t> shape = type->getShape();
  SymbolicShape sizes = context.getShape(mask);
  auto isOne = [&](AffineExpr size) {
    return context.isKnownEqual(size, context.getConstant(1));
  };
  if (kind == AttentionMask::Padding) {
    if (sizes.size() != 2 || !context.requireEqual(sizes[0], q.batch) ||
        !context.requireEqual(sizes[1], k.sequence))
      return emitOptionalError(
          loc, "padding mask must be [B, S_k] = [", formatSize(q.batch), ", ",
          formatSize(k.sequence), "], got ", formatShape(shape));
    return success();
  }
  if (type->getElementType() != element)
    return emitOptionalError(loc, "bias must have the element type of q, ",
                             element, ", got ", type->getElementType());
  // The bias broadcasts over batches and heads only where its size is a
  // static 1.
  if (type->getRank() != 4 ||
      (!isOne(sizes[0]) && !context.requireEqual(sizes[0], q.batch)) ||
      (!isOne(sizes[1]) && !context.requireEqual(sizes[1], q.heads)) ||
      !context.requireEqual(sizes[2], q.sequence) ||
      !context.requireEqual(sizes[3], k.sequence))
    return emitOptionalError(loc,
                             "bias must be [B or 1, H or 1, S_q, S_k] "
                             "with B = ",
                             formatSize(q.batch), ", H = ", formatSize(q.heads),
                             ", S_q = ", formatSize(q.sequence),
                             ", S_k = ", formatSize(k.sequence), ", got ",
                             formatShape(shape));
  return success();
}

namespace {
/// The sizes of q, k and v of a verified attention op.
struct AttentionSizes {
  RankedTensorType qType;
  AttentionOperand q, k, v;
  SymbolicShape qShape;
};
} // namespace

/// Checks the operands and attributes that attention and its backward op
/// share.
template <typename Adaptor>
static FailureOr<AttentionSizes> verifyAttention(ShapeContext &context,
                                                 std::optional<Location> loc,
                                                 Adaptor adaptor) {
  AttentionLayout layout = adaptor.getLayout();
  int64_t heads = adaptor.getNumHeads(), kvHeads = adaptor.getNumKvHeads();
  if (heads <= 0 || kvHeads <= 0 || heads % kvHeads != 0)
    return emitOptionalError(loc,
                             "num_kv_heads must be positive and divide "
                             "num_heads, got num_heads = ",
                             heads, " and num_kv_heads = ", kvHeads);
  if (layout == AttentionLayout::BSD && heads != 1)
    return emitOptionalError(loc, "layout bsd has one head, got num_heads = ",
                             heads, " and num_kv_heads = ", kvHeads);

  FailureOr<RankedTensorType> qType = getRankedType(loc, adaptor.getQ(), "q");
  if (failed(qType))
    return failure();
  Type element = qType->getElementType();
  FailureOr<AttentionOperand> q = readOperand(
      context, loc, adaptor.getQ(), "q", layout, element, heads, "num_heads");
  if (failed(q))
    return failure();
  FailureOr<AttentionOperand> k =
      readOperand(context, loc, adaptor.getK(), "k", layout, element, kvHeads,
                  "num_kv_heads");
  if (failed(k))
    return failure();
  FailureOr<AttentionOperand> v =
      readOperand(context, loc, adaptor.getV(), "v", layout, element, kvHeads,
                  "num_kv_heads");
  if (failed(v))
    return failure();
  if (!context.requireEqual(k->batch, q->batch) ||
      !context.requireEqual(v->batch, q->batch))
    return emitOptionalError(loc, "q, k and v must have the same batch, got ",
                             formatSize(q->batch), ", ", formatSize(k->batch),
                             " and ", formatSize(v->batch));
  if (!context.requireEqual(v->sequence, k->sequence))
    return emitOptionalError(loc, "v must have the ", formatSize(k->sequence),
                             " keys of k, got ", formatSize(v->sequence));
  if (!context.requireEqual(k->features, q->features))
    return emitOptionalError(loc, "k must have the head_dim of q, ",
                             formatSize(q->features), ", got ",
                             formatSize(k->features));
  // The default scale reads head_dim.
  if (!adaptor.getScale() && qType->isDynamicDim(qType->getRank() - 1))
    return emitOptionalError(loc, "q's head_dim must be static unless a "
                                  "scale is given");

  if (std::optional<APFloat> scale = adaptor.getScale())
    if (!scale->isFinite())
      return emitOptionalError(loc, "scale must be finite, got ",
                               scale->convertToDouble());
  if (std::optional<APFloat> softcap = adaptor.getSoftcap())
    if (!softcap->isFinite() || softcap->isZero() || softcap->isNegative())
      return emitOptionalError(loc, "softcap must be finite and positive, got ",
                               softcap->convertToDouble());
  if (failed(verifyMask(context, loc, adaptor, *q, *k, element)))
    return failure();
  return AttentionSizes{*qType, *q, *k, *v, context.getShape(adaptor.getQ())};
}

/// `out`: q's shape with v_head_dim features.
static SymbolicShape getOutShape(const AttentionSizes &sizes) {
  SymbolicShape shape = sizes.qShape;
  shape.back() = sizes.v.features;
  return shape;
}

/// `logsumexp`: [B, H, S_q].
static SymbolicShape getLogSumExpShape(const AttentionSizes &sizes) {
  return {sizes.q.batch, sizes.q.heads, sizes.q.sequence};
}

LogicalResult
AttentionOp::inferSymbolicShapes(ShapeContext &context,
                                 SmallVectorImpl<SymbolicShape> &shapes) {
  FailureOr<AttentionSizes> sizes =
      verifyAttention(context, getLoc(), Adaptor(*this));
  if (failed(sizes))
    return failure();
  shapes.push_back(getOutShape(*sizes));
  if (getWithLogsumexp())
    shapes.push_back(getLogSumExpShape(*sizes));
  return success();
}

LogicalResult AttentionOp::inferReturnTypes(MLIRContext *context,
                                            std::optional<Location> loc,
                                            Adaptor adaptor,
                                            SmallVectorImpl<Type> &inferred) {
  ShapeContext shapes(context);
  FailureOr<AttentionSizes> sizes = verifyAttention(shapes, loc, adaptor);
  if (failed(sizes))
    return failure();
  Type element = sizes->qType.getElementType();
  inferred.push_back(ShapeContext::getType(getOutShape(*sizes), element));
  if (adaptor.getWithLogsumexp())
    inferred.push_back(ShapeContext::getType(
        getLogSumExpShape(*sizes), ScalarBuilder::computeType(element)));
  return success();
}

LogicalResult AttentionBackwardOp::inferSymbolicShapes(
    ShapeContext &context, SmallVectorImpl<SymbolicShape> &shapes) {
  FailureOr<AttentionSizes> sizes =
      verifyAttention(context, getLoc(), Adaptor(*this));
  if (failed(sizes))
    return failure();
  // out and dout have the forward output's sizes, logsumexp [B, H, S_q].
  auto requireShape = [&](Value value, ArrayRef<AffineExpr> expected,
                          StringRef name) -> LogicalResult {
    SymbolicShape shape = context.getShape(value);
    if (shape.size() == expected.size() &&
        llvm::all_of(llvm::zip_equal(shape, expected), [&](auto pair) {
          return context.requireEqual(std::get<0>(pair), std::get<1>(pair));
        }))
      return success();
    return emitOpError() << name << " must be "
                         << ShapeContext::format(expected) << ", got "
                         << ShapeContext::format(shape);
  };
  SymbolicShape out = getOutShape(*sizes);
  if (failed(requireShape(getOut(), out, "out")) ||
      failed(requireShape(getDout(), out, "dout")) ||
      failed(
          requireShape(getLogsumexp(), getLogSumExpShape(*sizes), "logsumexp")))
    return failure();
  for (Value operand : {getQ(), getK(), getV()})
    shapes.push_back(context.getShape(operand));
  if (getWithBiasGrad())
    shapes.push_back(context.getShape(getMask()));
  return success();
}

LogicalResult AttentionBackwardOp::inferReturnTypes(
    MLIRContext *context, std::optional<Location> loc, Adaptor adaptor,
    SmallVectorImpl<Type> &inferred) {
  ShapeContext shapes(context);
  FailureOr<AttentionSizes> sizes = verifyAttention(shapes, loc, adaptor);
  if (failed(sizes))
    return failure();
  Type element = sizes->qType.getElementType();
  RankedTensorType outType =
      ShapeContext::getType(getOutShape(*sizes), element);
  Value forwardValues[] = {adaptor.getOut(), adaptor.getDout()};
  StringRef names[] = {"out", "dout"};
  for (auto [value, name] : llvm::zip_equal(forwardValues, names))
    if (value.getType() != outType)
      return emitOptionalError(loc, name, " must have the type of the "
                                          "forward output, ",
                               outType, ", got ", value.getType());
  RankedTensorType logSumExpType = ShapeContext::getType(
      getLogSumExpShape(*sizes), ScalarBuilder::computeType(element));
  if (adaptor.getLogsumexp().getType() != logSumExpType)
    return emitOptionalError(loc, "logsumexp must be [B, H, S_q] in the "
                                  "computation type, ",
                             logSumExpType, ", got ",
                             adaptor.getLogsumexp().getType());
  if (adaptor.getWithBiasGrad() &&
      adaptor.getMaskKind() != AttentionMask::Bias)
    return emitOptionalError(loc, "with_bias_grad needs mask = bias, not ",
                             stringifyAttentionMask(adaptor.getMaskKind()));
  inferred.append({adaptor.getQ().getType(), adaptor.getK().getType(),
                   adaptor.getV().getType()});
  if (adaptor.getWithBiasGrad())
    inferred.push_back(adaptor.getMask().getType());
  return success();
}
