//===- Norms.cpp - batch_norm_inference, gated_residual, rope to linalg ---===//
//
// The ops here normalize with given statistics or none: each is one
// elementwise pass. Every normalization that computes its statistics
// (layer_norm, rms_norm, their residual forms, layer_norm2d, group_norm,
// ada_layer_norm) and the softmax losses are row ops: rlx-to-linalg lowers
// them as row regions of their decompositions (RowOps.cpp).
//
//===----------------------------------------------------------------------===//
#include "Utils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "rlx/Conversion/RlxToLinalg/RlxToLinalg.h"
#include "rlx/Dialect/Rlx/IR/RlxOps.h"

#include <limits>

using namespace mlir;
using namespace mlir::rlx;

/// A parallel generic producing `op`'s result (iterated with its identity
/// map) from `inputs` read through `maps`; `body` gets the raw element
/// arguments and returns the result element.
static Value mapRows(OpBuilder &b, Operation *op, ValueRange inputs,
                     ArrayRef<AffineMap> maps,
                     function_ref<Value(ScalarBuilder &, ValueRange)> body) {
  Location loc = op->getLoc();
  auto resultType = cast<RankedTensorType>(op->getResult(0).getType());
  int64_t rank = resultType.getRank();
  SmallVector<AffineMap> allMaps(maps);
  allMaps.push_back(b.getMultiDimIdentityMap(rank));
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  Value init = createEmptyTensor(b, loc, getResultSizes(b, op),
                                 resultType.getElementType());
  auto generic = linalg::GenericOp::create(
      b, loc, resultType, inputs, init, allMaps, iterators,
      [&](OpBuilder &nested, Location bodyLoc, ValueRange args) {
        ScalarBuilder scalar(nested, bodyLoc);
        linalg::YieldOp::create(nested, bodyLoc,
                                body(scalar, args.drop_back()));
      });
  return generic.getResult(0);
}

namespace {
/// One elementwise generic with the frozen statistics read per channel.
struct BatchNormInferenceToLinalg : OpConversionPattern<BatchNormInferenceOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(BatchNormInferenceOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType type = op.getType();
    int64_t rank = type.getRank();
    Type storage = type.getElementType();
    Type computeType = ScalarBuilder::computeType(storage);
    double eps = op.getEps().convertToDouble();
    AffineMap channel = getLoopsMap(rewriter.getContext(), rank, {1});
    rewriter.replaceOp(
        op, mapRows(rewriter, op,
                    {adaptor.getInput(), adaptor.getGamma(), adaptor.getBeta(),
                     adaptor.getMean(), adaptor.getVariance()},
                    {rewriter.getMultiDimIdentityMap(rank), channel, channel,
                     channel, channel},
                    [&](ScalarBuilder &s, ValueRange args) {
                      SmallVector<Value> v;
                      for (Value arg : args)
                        v.push_back(s.convert(arg, computeType));
                      Value rstd = s.rsqrt(s.add(v[4], s.constant(v[4], eps)));
                      Value normalized = s.mul(s.sub(v[0], v[3]), rstd);
                      return s.convert(s.add(s.mul(normalized, v[1]), v[2]),
                                       storage);
                    }));
    return success();
  }
};

struct GatedResidualToLinalg : OpConversionPattern<GatedResidualOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(GatedResidualOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType type = op.getType();
    int64_t rank = type.getRank();
    Type storage = type.getElementType();
    Type computeType = ScalarBuilder::computeType(storage);
    AffineMap identity = rewriter.getMultiDimIdentityMap(rank);
    rewriter.replaceOp(
        op,
        mapRows(
            rewriter, op,
            {adaptor.getInput(), adaptor.getUpdate(), adaptor.getGate()},
            {identity, identity,
             getBroadcastIndexingMap(op.getGate().getType(), type.getShape())},
            [&](ScalarBuilder &s, ValueRange args) {
              Value x = s.convert(args[0], computeType);
              Value y = s.convert(args[1], computeType);
              Value gate = s.convert(args[2], computeType);
              return s.convert(s.add(x, s.mul(gate, y)), storage);
            }));
    return success();
  }
};

/// The input as heads of `head_dim` along its last axis: `bshd` and `bhsd`
/// already are; `bsd`'s [..., S, W] is viewed as [..., S, H, D]. The two
/// members of every pair are two strided slices of the last dimension
/// ([0, n/2) and [n/2, n) for neox, even and odd for gptj). One generic over
/// the heads' shape with n/2 last rotates them, reading the tables at (the
/// layout's S, pair), and writes both, and the results are inserted back
/// into the input, which keeps the dimensions past n_rot.
struct RopeToLinalg : OpConversionPattern<RopeOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(RopeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType type = op.getType();
    int64_t rank = type.getRank();
    int64_t headDim = op.getHeadDim(), half = op.getNRot() / 2;
    int64_t sequenceAxis = RopeOp::getSequenceAxis(op.getLayout(), rank);
    bool packed = op.getLayout() == AttentionLayout::BSD;
    Type storage = type.getElementType();
    Value heads = adaptor.getInput();
    SmallVector<ReassociationIndices> reassociation;
    if (packed) {
      SmallVector<int64_t> split(type.getShape().drop_back());
      split.append({type.getShape().back() / headDim, headDim});
      for (int64_t d = 0; d < rank - 1; ++d)
        reassociation.push_back({d});
      reassociation.push_back({rank - 1, rank});
      SmallVector<OpFoldResult> splitSizes =
          tensor::getMixedSizes(rewriter, loc, heads);
      splitSizes.back() = rewriter.getIndexAttr(split[rank - 1]);
      splitSizes.push_back(rewriter.getIndexAttr(headDim));
      heads = tensor::ExpandShapeOp::create(
          rewriter, loc, RankedTensorType::get(split, storage), heads,
          reassociation, splitSizes);
    }
    ArrayRef<int64_t> headShape =
        cast<RankedTensorType>(heads.getType()).getShape();

    bool neox = op.getStyle() == RopeStyle::NeoX;
    int64_t headRank = headShape.size();
    SmallVector<int64_t> pairShape(headShape);
    pairShape.back() = half;
    auto pairType = RankedTensorType::get(pairShape, storage);
    SmallVector<OpFoldResult> sizes =
                                  tensor::getMixedSizes(rewriter, loc, heads),
                              strides(headRank, rewriter.getIndexAttr(1));
    sizes.back() = rewriter.getIndexAttr(half);
    strides.back() = rewriter.getIndexAttr(neox ? 1 : 2);
    auto offsetsOf = [&](int64_t member) {
      SmallVector<OpFoldResult> offsets(headRank, rewriter.getIndexAttr(0));
      offsets.back() = rewriter.getIndexAttr(neox ? member * half : member);
      return offsets;
    };
    Value first = tensor::ExtractSliceOp::create(rewriter, loc, pairType, heads,
                                                 offsetsOf(0), sizes, strides);
    Value second = tensor::ExtractSliceOp::create(
        rewriter, loc, pairType, heads, offsetsOf(1), sizes, strides);

    MLIRContext *context = rewriter.getContext();
    AffineMap identity = rewriter.getMultiDimIdentityMap(headRank);
    AffineMap table =
        getLoopsMap(context, headRank, {sequenceAxis, headRank - 1});
    Type computeType = ScalarBuilder::computeType(storage);
    SmallVector<utils::IteratorType> iterators(headRank,
                                               utils::IteratorType::parallel);
    Value empty = createEmptyTensor(rewriter, loc, sizes, storage);
    auto rotate = linalg::GenericOp::create(
        rewriter, loc, TypeRange{pairType, pairType},
        ValueRange{first, second, adaptor.getCos(), adaptor.getSin()},
        ValueRange{empty, empty},
        ArrayRef<AffineMap>{identity, identity, table, table, identity,
                            identity},
        iterators, [&](OpBuilder &b, Location bodyLoc, ValueRange args) {
          ScalarBuilder s(b, bodyLoc);
          Value a = s.convert(args[0], computeType);
          Value c = s.convert(args[1], computeType);
          Value cos = s.convert(args[2], computeType);
          Value sin = s.convert(args[3], computeType);
          Value rotatedA = s.sub(s.mul(a, cos), s.mul(c, sin));
          Value rotatedB = s.add(s.mul(c, cos), s.mul(a, sin));
          linalg::YieldOp::create(b, bodyLoc,
                                  ValueRange{s.convert(rotatedA, storage),
                                             s.convert(rotatedB, storage)});
        });
    Value result =
        tensor::InsertSliceOp::create(rewriter, loc, rotate.getResult(0), heads,
                                      offsetsOf(0), sizes, strides);
    result =
        tensor::InsertSliceOp::create(rewriter, loc, rotate.getResult(1),
                                      result, offsetsOf(1), sizes, strides);
    if (packed)
      result = tensor::CollapseShapeOp::create(rewriter, loc, type, result,
                                               reassociation);
    rewriter.replaceOp(op, result);
    return success();
  }
};
} // namespace

void mlir::rlx::populateNormToLinalgPatterns(RewritePatternSet &patterns) {
  patterns
      .add<BatchNormInferenceToLinalg, GatedResidualToLinalg, RopeToLinalg>(
          patterns.getContext());
}
