//===- Quant.cpp - rlx quantization ops to linalg -------------------------===//
//
// quantize, dequantize, fake_quantize, fake_quantize_lsq and
// fake_quantize_backward are each one parallel linalg.generic whose body is
// the op's `buildElement`; a per-channel scale and zero point are read
// through the map that keeps only the channel loop, per-tensor ones through
// the map that keeps none. fake_quantize_lsq_backward is one such generic
// for the input gradient and one reduction for the parameters' gradients,
// which recomputes the element terms instead of storing them.
//
//===----------------------------------------------------------------------===//

#include "Utils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "rlx/Conversion/RlxToLinalg/RlxToLinalg.h"
#include "rlx/Dialect/Rlx/IR/RlxOps.h"

using namespace mlir;
using namespace mlir::rlx;

/// The map from `numLoops` loops to a quantization parameter: the `axis`
/// loop for a per-channel one, no loop for a per-tensor one.
static AffineMap getParameterMap(MLIRContext *context, int64_t numLoops,
                                 std::optional<int64_t> axis) {
  if (!axis)
    return AffineMap::get(numLoops, 0, context);
  return getLoopsMap(context, numLoops, {*axis});
}

/// The indexing maps of `op`'s operands for loops over its input: the
/// identity but for `scale` and `zero_point`.
template <typename OpTy>
static SmallVector<AffineMap> getOperandMaps(OpTy op, int64_t numLoops,
                                             std::optional<int64_t> axis) {
  MLIRContext *context = op.getContext();
  unsigned scale = op.getScaleMutable().getOperandNumber();
  unsigned zeroPoint = op.getZeroPointMutable().getOperandNumber();
  AffineMap identity = AffineMap::getMultiDimIdentityMap(numLoops, context);
  AffineMap parameter = getParameterMap(context, numLoops, axis);
  SmallVector<AffineMap> maps;
  for (unsigned i = 0, e = op->getNumOperands(); i < e; ++i)
    maps.push_back(i == scale || i == zeroPoint ? parameter : identity);
  return maps;
}

namespace {
/// An op whose one result is `buildElement` of its operands' elements.
template <typename OpTy>
struct QuantElementwiseToLinalg : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;

  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType type = op.getType();
    int64_t rank = type.getRank();
    SmallVector<AffineMap> maps = getOperandMaps(op, rank, op.getChannelAxis());
    maps.push_back(rewriter.getMultiDimIdentityMap(rank));
    SmallVector<utils::IteratorType> iterators(rank,
                                               utils::IteratorType::parallel);
    Value init = createEmptyTensor(rewriter, loc, getResultSizes(rewriter, op),
                                   type.getElementType());
    auto generic = linalg::GenericOp::create(
        rewriter, loc, type, adaptor.getOperands(), init, maps, iterators,
        [&](OpBuilder &nested, Location bodyLoc, ValueRange args) {
          ScalarBuilder b(nested, bodyLoc);
          linalg::YieldOp::create(nested, bodyLoc,
                                  op.buildElement(b, args.drop_back()));
        });
    rewriter.replaceOp(op, generic.getResults());
    return success();
  }
};

/// dx as one parallel generic; dscale and dzero_point as one reduction over
/// every loop but the channel's. The reduction runs over the input viewed
/// with the dimensions on either side of the channel axis collapsed ([N]
/// per tensor; [C, N], [N, C] or [N, C, M] per channel), so a reduction
/// over a leading or trailing channel axis has one reduction loop, which
/// rlx-split-reductions splits into blocks and lanes.
struct FakeQuantizeLsqBackwardToLinalg
    : OpConversionPattern<FakeQuantizeLsqBackwardOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(FakeQuantizeLsqBackwardOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    std::optional<int64_t> axis = op.getChannelAxis();
    RankedTensorType dxType = op.getDx().getType();
    int64_t rank = dxType.getRank();

    SmallVector<AffineMap> maps = getOperandMaps(op, rank, axis);
    maps.push_back(rewriter.getMultiDimIdentityMap(rank));
    SmallVector<utils::IteratorType> parallel(rank,
                                              utils::IteratorType::parallel);
    Value dxInit =
        createEmptyTensor(rewriter, loc, getResultSizes(rewriter, op, 0),
                          dxType.getElementType());
    auto dx = linalg::GenericOp::create(
        rewriter, loc, dxType, adaptor.getOperands(), dxInit, maps, parallel,
        [&](OpBuilder &nested, Location bodyLoc, ValueRange args) {
          ScalarBuilder b(nested, bodyLoc);
          Value term = op.buildGradientTerms(b, args.drop_back())[0];
          linalg::YieldOp::create(nested, bodyLoc,
                                  b.convert(term, dxType.getElementType()));
        });

    // The collapsed view of dy and the input.
    SmallVector<ReassociationIndices> groups;
    std::optional<int64_t> collapsedAxis;
    auto addGroup = [&](int64_t begin, int64_t end) {
      if (begin < end)
        groups.push_back(llvm::to_vector(llvm::seq(begin, end)));
    };
    if (axis) {
      addGroup(0, *axis);
      collapsedAxis = groups.size();
      addGroup(*axis, *axis + 1);
      addGroup(*axis + 1, rank);
    } else {
      addGroup(0, rank);
    }
    auto collapse = [&](Value value) -> Value {
      if (rank == 0)
        return value;
      return tensor::CollapseShapeOp::create(rewriter, loc, value, groups);
    };
    Value dy = collapse(adaptor.getDy()), input = collapse(adaptor.getInput());
    int64_t loops = rank == 0 ? 0 : groups.size();

    Type storage = op.getDscale().getType().getElementType();
    Type compute = ScalarBuilder::computeType(storage);
    Value zero = arith::ConstantOp::create(rewriter, loc, compute,
                                           rewriter.getFloatAttr(compute, 0.0));
    SmallVector<OpFoldResult> accSizes =
        tensor::getMixedSizes(rewriter, loc, adaptor.getScale());
    Value scaleInit = createFilledTensor(rewriter, loc, accSizes, zero);
    Value zeroPointInit = createFilledTensor(rewriter, loc, accSizes, zero);

    AffineMap identity = rewriter.getMultiDimIdentityMap(loops);
    AffineMap parameter =
        getParameterMap(rewriter.getContext(), loops, collapsedAxis);
    SmallVector<AffineMap> reductionMaps = {identity,  identity,  parameter,
                                            parameter, parameter, parameter};
    SmallVector<utils::IteratorType> iterators(loops,
                                               utils::IteratorType::reduction);
    if (collapsedAxis)
      iterators[*collapsedAxis] = utils::IteratorType::parallel;
    auto sums = linalg::GenericOp::create(
        rewriter, loc, TypeRange{scaleInit.getType(), zeroPointInit.getType()},
        ValueRange{dy, input, adaptor.getScale(), adaptor.getZeroPoint()},
        ValueRange{scaleInit, zeroPointInit}, reductionMaps, iterators,
        [&](OpBuilder &nested, Location bodyLoc, ValueRange args) {
          ScalarBuilder b(nested, bodyLoc);
          SmallVector<Value, 3> terms =
              op.buildGradientTerms(b, args.take_front(4));
          linalg::YieldOp::create(
              nested, bodyLoc,
              ValueRange{b.add(args[4], terms[1]), b.add(args[5], terms[2])});
        });

    // The sums, in the computation type, rounded once to the parameters'.
    auto round = [&](Value sum) {
      return compute == storage ? sum
                                : convertElements(rewriter, loc, sum, storage);
    };
    rewriter.replaceOp(op, {dx.getResult(0), round(sums.getResult(0)),
                            round(sums.getResult(1))});
    return success();
  }
};
} // namespace

void mlir::rlx::populateQuantToLinalgPatterns(RewritePatternSet &patterns) {
  patterns.add<QuantElementwiseToLinalg<QuantizeOp>,
               QuantElementwiseToLinalg<DequantizeOp>,
               QuantElementwiseToLinalg<FakeQuantizeOp>,
               QuantElementwiseToLinalg<FakeQuantizeLsqOp>,
               QuantElementwiseToLinalg<FakeQuantizeBackwardOp>,
               FakeQuantizeLsqBackwardToLinalg>(patterns.getContext());
}
