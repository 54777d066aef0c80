//===- Attention.cpp - Attention to its code generation forms -------------===//
//
// rlx.attention becomes rlx.online_attention, the destination-style op the
// codegen layer tiles (query tiles in parallel, key tiles a reduction) and
// decomposes into linalg ops, from the initial state (acc = 0, m = -inf,
// l = 0), followed by the normalization out = acc / l (0 for a row that saw
// no key) and logsumexp = m + log(l).
//
// rlx.attention_backward becomes FlashAttention-2's two passes, each a
// destination-style op tiled the same way: rlx.attention_dq (parallel over
// queries, keys reduced; with the bias gradient) and rlx.attention_dkdv
// (parallel over keys, the queries of every query head of the group
// reduced), after delta = rowsum(dout * out), which both read. Each output
// element is then written by one tile, with no atomics and in a fixed
// order; the scores are computed twice, once per pass.
//
// How any of them is tiled is not decided here.
//
//===----------------------------------------------------------------------===//
#include "Utils.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "rlx/Conversion/RlxToLinalg/RlxToLinalg.h"
#include "rlx/Dialect/Rlx/IR/RlxOps.h"

#include <limits>

using namespace mlir;
using namespace mlir::rlx;

static constexpr double kNegativeInfinity =
    -std::numeric_limits<double>::infinity();

namespace {
/// q, k, v (and values of their layout) as 4-D tensors: single-head
/// [B, S, D] gets a unit head axis, [B, S, 1, D].
struct FourDimensional {
  AttentionLayout layout;
  SmallVector<ReassociationIndices> addHead = {{0}, {1}, {2, 3}};

  explicit FourDimensional(AttentionLayout original)
      : layout(original == AttentionLayout::BSD ? AttentionLayout::BSHD
                                                : original),
        single(original == AttentionLayout::BSD) {}

  Value expand(OpBuilder &b, Location loc, Value value) const {
    if (!single)
      return value;
    auto type = cast<RankedTensorType>(value.getType());
    ArrayRef<int64_t> shape = type.getShape();
    SmallVector<OpFoldResult> sizes = tensor::getMixedSizes(b, loc, value);
    return tensor::ExpandShapeOp::create(
        b, loc,
        RankedTensorType::get({shape[0], shape[1], 1, shape[2]},
                              type.getElementType()),
        value, addHead, {sizes[0], sizes[1], b.getIndexAttr(1), sizes[2]});
  }
  Value collapse(OpBuilder &b, Location loc, Value value) const {
    if (!single)
      return value;
    return tensor::CollapseShapeOp::create(b, loc, value, addHead);
  }

  bool single;
};
} // namespace

/// A tensor of `sizes` and `elementType` filled with `value`.
static Value createFilled(OpBuilder &b, Location loc,
                          ArrayRef<OpFoldResult> sizes, Type elementType,
                          double value) {
  Value empty = createEmptyTensor(b, loc, sizes, elementType);
  Value constant =
      arith::ConstantOp::create(b, loc, b.getFloatAttr(elementType, value));
  return linalg::FillOp::create(b, loc, constant, empty).getResult(0);
}

/// A tensor of the sizes of `like` and `elementType` filled with `value`.
static Value createFilledLike(OpBuilder &b, Location loc, Value like,
                              Type elementType, double value) {
  return createFilled(b, loc, tensor::getMixedSizes(b, loc, like), elementType,
                      value);
}

/// The diagonal of a positional mask: the queries are the last S_q
/// positions of the keys' sequence, so query i sees key j when
/// j <= i + S_k - S_q.
static Value createDiagonal(OpBuilder &b, Location loc, AttentionMask kind,
                            Value q, Value k, AttentionLayout layout) {
  if (kind != AttentionMask::Causal && kind != AttentionMask::SlidingWindow)
    return nullptr;
  int64_t axis = AttentionOp::getSequenceAxis(layout);
  AffineExpr keys, queries;
  bindSymbols(b.getContext(), keys, queries);
  return getValueOrCreateConstantIndexOp(
      b, loc,
      affine::makeComposedFoldedAffineApply(
          b, loc, keys - queries,
          {tensor::getMixedSize(b, loc, k, axis),
           tensor::getMixedSize(b, loc, q, axis)}));
}

/// The [B, H, S] rows of a value of `layout`, read by a 4-loop generic over
/// it.
static AffineMap getRowsMap(MLIRContext *context, AttentionLayout layout) {
  return getLoopsMap(context, 4,
                     layout == AttentionLayout::BHSD
                         ? ArrayRef<int64_t>{0, 1, 2}
                         : ArrayRef<int64_t>{0, 2, 1});
}

namespace {
struct AttentionToLinalg : OpConversionPattern<AttentionOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(AttentionOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    FourDimensional dims(op.getLayout());
    AttentionLayout layout = dims.layout;
    Value q = dims.expand(rewriter, loc, adaptor.getQ());
    Value k = dims.expand(rewriter, loc, adaptor.getK());
    Value v = dims.expand(rewriter, loc, adaptor.getV());
    auto qType = cast<RankedTensorType>(q.getType());
    Type storage = qType.getElementType();
    Type computeType = ScalarBuilder::computeType(storage);
    int64_t headAxis = *AttentionOp::getHeadAxis(layout);
    int64_t sequenceAxis = AttentionOp::getSequenceAxis(layout);
    SmallVector<OpFoldResult> accSizes =
        tensor::getMixedSizes(rewriter, loc, q);
    accSizes.back() = tensor::getMixedSize(rewriter, loc, v, 3);
    SmallVector<OpFoldResult> rowSizes = {accSizes[0], accSizes[headAxis],
                                          accSizes[sequenceAxis]};
    Value accInit = createFilled(rewriter, loc, accSizes, computeType, 0.0);
    Value maxInit =
        createFilled(rewriter, loc, rowSizes, computeType, kNegativeInfinity);
    Value sumInit = createFilled(rewriter, loc, rowSizes, computeType, 0.0);
    auto accType = cast<RankedTensorType>(accInit.getType());
    auto rowType = cast<RankedTensorType>(maxInit.getType());

    auto online = OnlineAttentionOp::create(
        rewriter, loc, TypeRange{accType, rowType, rowType}, q, k, v,
        adaptor.getMask(),
        createDiagonal(rewriter, loc, op.getMaskKind(), q, k, layout), accInit,
        maxInit, sumInit, layout, op.getMaskKind(), op.getWindowAttr(),
        APFloat(op.getScaleOrDefault()), op.getSoftcapAttr());
    // A schedule written on the op is the online form's.
    if (Attribute config = op->getAttr(LoweringConfigAttr::kAttrName))
      online->setAttr(LoweringConfigAttr::kAttrName, config);
    Value acc = online.getUpdatedAcc(), maximum = online.getUpdatedMax(),
          sum = online.getUpdatedSum();

    // out = acc / l, 0 for a row that saw no key.
    auto parallel = utils::IteratorType::parallel;
    Value out =
        linalg::GenericOp::create(
            rewriter, loc, accType.clone(storage), ValueRange{acc, sum},
            createEmptyTensor(rewriter, loc, accSizes, storage),
            {rewriter.getMultiDimIdentityMap(4),
             getRowsMap(rewriter.getContext(), layout),
             rewriter.getMultiDimIdentityMap(4)},
            SmallVector<utils::IteratorType>(4, parallel),
            [&](OpBuilder &b, Location bodyLoc, ValueRange args) {
              ScalarBuilder s(b, bodyLoc);
              Value zero = s.constant(args[0], 0.0);
              Value empty = s.compare(ComparePredicate::eq, args[1], zero);
              Value normalized = s.select(empty, zero, s.div(args[0], args[1]));
              linalg::YieldOp::create(b, bodyLoc,
                                      s.convert(normalized, storage));
            })
            .getResult(0);
    SmallVector<Value> results = {dims.collapse(rewriter, loc, out)};
    if (op.getLogsumexp()) {
      // logsumexp = m + log(l): -inf for a row that saw no key.
      results.push_back(
          linalg::GenericOp::create(
              rewriter, loc, rowType, ValueRange{maximum, sum},
              createEmptyTensor(rewriter, loc, rowSizes, computeType),
              SmallVector<AffineMap>(3, rewriter.getMultiDimIdentityMap(3)),
              SmallVector<utils::IteratorType>(3, parallel),
              [&](OpBuilder &b, Location bodyLoc, ValueRange args) {
                ScalarBuilder s(b, bodyLoc);
                linalg::YieldOp::create(b, bodyLoc,
                                        s.add(args[0], s.log(args[1])));
              })
              .getResult(0));
    }
    rewriter.replaceOp(op, results);
    return success();
  }
};

struct AttentionBackwardToLinalg : OpConversionPattern<AttentionBackwardOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(AttentionBackwardOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    FourDimensional dims(op.getLayout());
    AttentionLayout layout = dims.layout;
    Value q = dims.expand(rewriter, loc, adaptor.getQ());
    Value k = dims.expand(rewriter, loc, adaptor.getK());
    Value v = dims.expand(rewriter, loc, adaptor.getV());
    Value out = dims.expand(rewriter, loc, adaptor.getOut());
    Value dout = dims.expand(rewriter, loc, adaptor.getDout());
    Value logSumExp = adaptor.getLogsumexp();
    Value mask = adaptor.getMask();
    auto qType = cast<RankedTensorType>(q.getType());
    Type storage = qType.getElementType();
    Type computeType = ScalarBuilder::computeType(storage);
    auto rowType = cast<RankedTensorType>(logSumExp.getType());

    // delta = rowsum(dout * out): the softmax's own term of the gradient.
    auto parallel = utils::IteratorType::parallel;
    Value delta =
        linalg::GenericOp::create(
            rewriter, loc, rowType, ValueRange{dout, out},
            createFilledLike(rewriter, loc, logSumExp, computeType, 0.0),
            {rewriter.getMultiDimIdentityMap(4),
             rewriter.getMultiDimIdentityMap(4),
             getRowsMap(rewriter.getContext(), layout)},
            {parallel, parallel, parallel, utils::IteratorType::reduction},
            [&](OpBuilder &b, Location bodyLoc, ValueRange args) {
              ScalarBuilder s(b, bodyLoc);
              linalg::YieldOp::create(
                  b, bodyLoc,
                  s.add(args[2], s.mul(s.convert(args[0], computeType),
                                       s.convert(args[1], computeType))));
            })
            .getResult(0);
    Value diagonal =
        createDiagonal(rewriter, loc, op.getMaskKind(), q, k, layout);
    APFloat scale(op.getScaleOrDefault());

    SmallVector<Value> dqInits = {
        createFilledLike(rewriter, loc, q, computeType, 0.0)};
    if (op.getWithBiasGrad())
      dqInits.push_back(
          createFilledLike(rewriter, loc, mask, computeType, 0.0));
    auto dq = AttentionDqOp::create(
        rewriter, loc, TypeRange(ValueRange(dqInits)), q, k, v, dout, logSumExp,
        delta, mask, diagonal, dqInits[0],
        op.getWithBiasGrad() ? dqInits[1] : Value(), layout, op.getMaskKind(),
        op.getWindowAttr(), scale, op.getSoftcapAttr());
    auto dkdv = AttentionDkDvOp::create(
        rewriter, loc,
        TypeRange{cast<RankedTensorType>(k.getType()).clone(computeType),
                  cast<RankedTensorType>(v.getType()).clone(computeType)},
        q, k, v, dout, logSumExp, delta, mask, diagonal,
        createFilledLike(rewriter, loc, k, computeType, 0.0),
        createFilledLike(rewriter, loc, v, computeType, 0.0), layout,
        op.getMaskKind(), op.getWindowAttr(), scale, op.getSoftcapAttr());

    SmallVector<Value> gradients;
    for (Value gradient :
         {dq.getUpdatedDq(), dkdv.getUpdatedDk(), dkdv.getUpdatedDv()})
      gradients.push_back(dims.collapse(
          rewriter, loc, convertElements(rewriter, loc, gradient, storage)));
    if (Value dbias = dq.getUpdatedDbias())
      gradients.push_back(convertElements(rewriter, loc, dbias, storage));
    rewriter.replaceOp(op, gradients);
    return success();
  }
};
} // namespace

void mlir::rlx::populateAttentionToLinalgPatterns(RewritePatternSet &patterns) {
  patterns.add<AttentionToLinalg, AttentionBackwardToLinalg>(
      patterns.getContext());
}
