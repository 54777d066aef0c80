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

double AttentionOp::getScaleOrDefault() {
  if (std::optional<APFloat> scale = getScale())
    return scale->convertToDouble();
  return 1.0 / std::sqrt(static_cast<double>(
                   getQ().getType().getShape().back()));
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
  int64_t batch, heads, sequence, features;
};
} // namespace

/// Reads `value` (named `what`) as a tensor of `layout` with the element type
/// `element` and `expectedHeads` heads.
static FailureOr<AttentionOperand>
readOperand(std::optional<Location> loc, Value value, StringRef what,
            AttentionLayout layout, Type element, int64_t expectedHeads,
            StringRef headsAttr) {
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
  if (llvm::is_contained(shape, 0))
    return emitOptionalError(loc, what, " must not be empty, got ",
                             formatShape(shape));
  std::optional<int64_t> headAxis = AttentionOp::getHeadAxis(layout);
  AttentionOperand sizes = {
      shape[0], headAxis ? shape[*headAxis] : 1,
      shape[AttentionOp::getSequenceAxis(layout)], shape.back()};
  if (headAxis && sizes.heads != expectedHeads)
    return emitOptionalError(loc, what, " has ", sizes.heads,
                             " heads on axis ", *headAxis, ", but ", headsAttr,
                             " is ", expectedHeads);
  return sizes;
}

/// Checks the mask operand and the attributes that go with each mask kind.
static LogicalResult verifyMask(std::optional<Location> loc,
                                AttentionOp::Adaptor adaptor,
                                AttentionOperand q, AttentionOperand k,
                                Type element) {
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
  if (kind == AttentionMask::Padding) {
    SmallVector<int64_t> expected = {q.batch, k.sequence};
    if (shape != ArrayRef<int64_t>(expected))
      return emitOptionalError(loc, "padding mask must be [B, S_k] = ",
                               formatShape(expected), ", got ",
                               formatShape(shape));
    return success();
  }
  if (type->getElementType() != element)
    return emitOptionalError(loc, "bias must have the element type of q, ",
                             element, ", got ", type->getElementType());
  if (type->getRank() != 4 || (shape[0] != 1 && shape[0] != q.batch) ||
      (shape[1] != 1 && shape[1] != q.heads) || shape[2] != q.sequence ||
      shape[3] != k.sequence)
    return emitOptionalError(loc, "bias must be [B or 1, H or 1, S_q, S_k] "
                                  "with B = ",
                             q.batch, ", H = ", q.heads, ", S_q = ",
                             q.sequence, ", S_k = ", k.sequence, ", got ",
                             formatShape(shape));
  return success();
}

LogicalResult AttentionOp::inferReturnTypes(MLIRContext *,
                                            std::optional<Location> loc,
                                            Adaptor adaptor,
                                            SmallVectorImpl<Type> &inferred) {
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
      loc, adaptor.getQ(), "q", layout, element, heads, "num_heads");
  if (failed(q))
    return failure();
  FailureOr<AttentionOperand> k = readOperand(
      loc, adaptor.getK(), "k", layout, element, kvHeads, "num_kv_heads");
  if (failed(k))
    return failure();
  FailureOr<AttentionOperand> v = readOperand(
      loc, adaptor.getV(), "v", layout, element, kvHeads, "num_kv_heads");
  if (failed(v))
    return failure();
  if (k->batch != q->batch || v->batch != q->batch)
    return emitOptionalError(loc, "q, k and v must have the same batch, got ",
                             q->batch, ", ", k->batch, " and ", v->batch);
  if (v->sequence != k->sequence)
    return emitOptionalError(loc, "v must have the ", k->sequence,
                             " keys of k, got ", v->sequence);
  if (k->features != q->features)
    return emitOptionalError(loc, "k must have the head_dim of q, ",
                             q->features, ", got ", k->features);

  if (std::optional<APFloat> scale = adaptor.getScale())
    if (!scale->isFinite())
      return emitOptionalError(loc, "scale must be finite, got ",
                               scale->convertToDouble());
  if (std::optional<APFloat> softcap = adaptor.getSoftcap())
    if (!softcap->isFinite() || softcap->isZero() || softcap->isNegative())
      return emitOptionalError(loc, "softcap must be finite and positive, got ",
                               softcap->convertToDouble());
  if (failed(verifyMask(loc, adaptor, *q, *k, element)))
    return failure();

  SmallVector<int64_t> outShape(qType->getShape());
  outShape.back() = v->features;
  inferred.push_back(RankedTensorType::get(outShape, element));
  if (adaptor.getWithLogsumexp())
    inferred.push_back(
        RankedTensorType::get({q->batch, q->heads, q->sequence},
                              ScalarBuilder::computeType(element)));
  return success();
}
