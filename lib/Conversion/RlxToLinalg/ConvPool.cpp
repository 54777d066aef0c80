//===- ConvPool.cpp - Convolution, pooling and resampling ops to linalg ---===//
//
// Convolutions and pools become linalg named ops on explicitly padded inputs
// (tensor.pad with 0, or -inf for max pooling), accumulating in the
// computation type (f32 for f16/bf16) and rounding once at the end. The
// batch and the spatial sizes may be `?` (channels and weights are static):
// every tensor made here takes its sizes from the activation it is computed
// from, a window op's output sizes (X - window) / stride + 1 from its padded
// input.
//
//===----------------------------------------------------------------------===//
#include "Utils.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "rlx/Conversion/RlxToLinalg/RlxToLinalg.h"
#include "rlx/Dialect/Rlx/IR/RlxOps.h"

using namespace mlir;
using namespace mlir::rlx;

/// 0, or -inf when `negInf`, in float type `type`.
static Value createZeroOrNegInf(OpBuilder &b, Location loc, Type type,
                                bool negInf = false) {
  auto floatType = cast<FloatType>(type);
  APFloat value = negInf ? APFloat::getInf(floatType.getFloatSemantics(),
                                           /*Negative=*/true)
                         : APFloat::getZero(floatType.getFloatSemantics());
  return arith::ConstantOp::create(b, loc, b.getFloatAttr(type, value));
}

/// `input` [N, C, X...] with `low[i]` and `high[i]` zeros (-inf with
/// `negInf`) around spatial dimension i, which may be values.
static Value padSpatialBy(OpBuilder &b, Location loc, Value input,
                          ArrayRef<int64_t> low, ArrayRef<OpFoldResult> high,
                          bool negInf) {
  if (llvm::all_of(low, [](int64_t v) { return v == 0; }) &&
      llvm::all_of(high, [](OpFoldResult v) { return isZeroInteger(v); }))
    return input;
  auto type = cast<RankedTensorType>(input.getType());
  Value padValue = createZeroOrNegInf(b, loc, type.getElementType(), negInf);
  SmallVector<int64_t> shape(type.getShape());
  SmallVector<OpFoldResult> lowSizes(type.getRank(), b.getIndexAttr(0));
  SmallVector<OpFoldResult> highSizes(type.getRank(), b.getIndexAttr(0));
  for (auto [i, lo, hi] : llvm::enumerate(low, high)) {
    std::optional<int64_t> staticHigh = getConstantIntValue(hi);
    if (!type.isDynamicDim(i + 2))
      shape[i + 2] =
          staticHigh ? shape[i + 2] + lo + *staticHigh : ShapedType::kDynamic;
    lowSizes[i + 2] = b.getIndexAttr(lo);
    highSizes[i + 2] = hi;
  }
  return tensor::PadOp::create(b, loc, type.clone(shape), input, lowSizes,
                               highSizes, padValue);
}

Value mlir::rlx::padSpatial(OpBuilder &b, Location loc, Value input,
                            ArrayRef<int64_t> low, ArrayRef<int64_t> high,
                            bool negInf) {
  return padSpatialBy(b, loc, input, low,
                      getAsIndexOpFoldResult(b.getContext(), high), negInf);
}

/// The sizes [N, channels, O...] of a window op's result over the padded
/// `input` [N, C, X...]: O = (X - window) / stride + 1 in each spatial
/// dimension (`window` is the dilated extent).
static SmallVector<OpFoldResult>
getWindowResultSizes(OpBuilder &b, Location loc, Value input, int64_t channels,
                     ArrayRef<int64_t> window, ArrayRef<int64_t> stride) {
  SmallVector<OpFoldResult> sizes = {tensor::getMixedSize(b, loc, input, 0),
                                     b.getIndexAttr(channels)};
  AffineExpr size = getAffineSymbolExpr(0, b.getContext());
  for (auto [i, extent, step] : llvm::enumerate(window, stride))
    sizes.push_back(affine::makeComposedFoldedAffineApply(
        b, loc, (size - extent).floorDiv(step) + 1,
        {tensor::getMixedSize(b, loc, input, i + 2)}));
  return sizes;
}

std::pair<SmallVector<int64_t>, SmallVector<int64_t>>
mlir::rlx::splitPadding(ArrayRef<int64_t> padding) {
  SmallVector<int64_t> low, high;
  for (size_t i = 0; i < padding.size(); i += 2) {
    low.push_back(padding[i]);
    high.push_back(padding[i + 1]);
  }
  return {low, high};
}

/// Reassociation grouping dimensions `[first, first + count)` of a tensor of
/// rank `rank` (its result has rank `rank - count + 1`) and keeping the
/// others alone.
static SmallVector<ReassociationIndices>
groupDims(int64_t rank, int64_t first, int64_t count) {
  SmallVector<ReassociationIndices> groups;
  for (int64_t d = 0; d < rank;) {
    if (d == first) {
      ReassociationIndices group;
      for (int64_t i = 0; i < count; ++i)
        group.push_back(d++);
      groups.push_back(group);
    } else {
      groups.push_back({d++});
    }
  }
  return groups;
}

Value mlir::rlx::splitDim(OpBuilder &b, Location loc, Value value,
                          int64_t dim, int64_t outer) {
  auto type = cast<RankedTensorType>(value.getType());
  SmallVector<int64_t> shape(type.getShape());
  shape[dim] /= outer;
  shape.insert(shape.begin() + dim, outer);
  return tensor::ExpandShapeOp::create(b, loc, type.clone(shape), value,
                                       groupDims(shape.size(), dim, 2));
}

Value mlir::rlx::mergeDims(OpBuilder &b, Location loc, Value value,
                           int64_t dim) {
  auto type = cast<RankedTensorType>(value.getType());
  return tensor::CollapseShapeOp::create(b, loc, value,
                                         groupDims(type.getRank(), dim, 2));
}

/// A named strided, dilated window op (convolution or pooling) reading
/// `input` and `filter` into `init`.
template <typename OpTy>
static Value createWindowOp(OpBuilder &b, Location loc, Value input,
                            Value filter, Value init, ArrayRef<int64_t> stride,
                            ArrayRef<int64_t> dilation) {
  return OpTy::create(b, loc, TypeRange{init.getType()},
                      ValueRange{input, filter}, ValueRange{init},
                      b.getI64TensorAttr(stride), b.getI64TensorAttr(dilation))
      .getResult(0);
}

/// Grouped convolution for spatial ranks without a grouped named op: a
/// contraction generic over input [N, G, C, X...], weight [G, F, C, K...]
/// into init [N, G, F, O...], with loops (n, g, f, o..., c, k...).
static Value createGroupedConvGeneric(OpBuilder &b, Location loc, Value input,
                                      Value weight, Value init,
                                      ArrayRef<int64_t> stride,
                                      ArrayRef<int64_t> dilation) {
  int64_t spatial = stride.size();
  int64_t numLoops = 4 + 2 * spatial;
  MLIRContext *ctx = b.getContext();
  auto dim = [&](int64_t d) { return getAffineDimExpr(d, ctx); };
  AffineExpr n = dim(0), g = dim(1), f = dim(2), c = dim(3 + spatial);
  SmallVector<AffineExpr> inputExprs = {n, g, c}, weightExprs = {g, f, c},
                          initExprs = {n, g, f};
  for (int64_t i = 0; i < spatial; ++i) {
    AffineExpr o = dim(3 + i), k = dim(4 + spatial + i);
    inputExprs.push_back(o * stride[i] + k * dilation[i]);
    weightExprs.push_back(k);
    initExprs.push_back(o);
  }
  SmallVector<AffineMap> maps = {AffineMap::get(numLoops, 0, inputExprs, ctx),
                                 AffineMap::get(numLoops, 0, weightExprs, ctx),
                                 AffineMap::get(numLoops, 0, initExprs, ctx)};
  SmallVector<utils::IteratorType> iterators(3 + spatial,
                                             utils::IteratorType::parallel);
  iterators.append(1 + spatial, utils::IteratorType::reduction);
  Type accType = cast<RankedTensorType>(init.getType()).getElementType();
  return linalg::GenericOp::create(
             b, loc, init.getType(), ValueRange{input, weight}, init, maps,
             iterators,
             [&](OpBuilder &nested, Location bodyLoc, ValueRange args) {
               ScalarBuilder scalar(nested, bodyLoc);
               Value x = scalar.convert(args[0], accType);
               Value w = scalar.convert(args[1], accType);
               linalg::YieldOp::create(nested, bodyLoc,
                                       scalar.add(args[2], scalar.mul(x, w)));
             })
      .getResult(0);
}

/// Convolution of the already padded `input` [N, C_in, X...] with `weight`
/// [C_out, C_in / groups, K...], accumulated in `accType` [N, C_out, O...]:
/// the plain named op for one group, the depthwise one when every group is
/// one channel in and out, the NGCHW named op for other 2-D groupings and a
/// generic for other 1-D and 3-D groupings.
static Value createConvolution(OpBuilder &b, Location loc, Value input,
                               Value weight, ArrayRef<int64_t> stride,
                               ArrayRef<int64_t> dilation, int64_t groups,
                               RankedTensorType accType) {
  int64_t spatial = stride.size();
  Value zero = createZeroOrNegInf(b, loc, accType.getElementType());
  int64_t inChannels =
      cast<RankedTensorType>(input.getType()).getDimSize(1);
  int64_t outChannels = accType.getDimSize(1);
  ArrayRef<int64_t> kernel =
      cast<RankedTensorType>(weight.getType()).getShape().drop_front(2);
  SmallVector<int64_t> window;
  for (auto [k, d] : llvm::zip(kernel, dilation))
    window.push_back(d * (k - 1) + 1);
  SmallVector<OpFoldResult> sizes =
      getWindowResultSizes(b, loc, input, outChannels, window, stride);

  if (groups == 1) {
    Value init = createFilledTensor(b, loc, sizes, zero);
    if (spatial == 1)
      return createWindowOp<linalg::Conv1DNcwFcwOp>(b, loc, input, weight,
                                                    init, stride, dilation);
    if (spatial == 2)
      return createWindowOp<linalg::Conv2DNchwFchwOp>(b, loc, input, weight,
                                                      init, stride, dilation);
    return createWindowOp<linalg::Conv3DNcdhwFcdhwOp>(b, loc, input, weight,
                                                      init, stride, dilation);
  }

  if (groups == inChannels && groups == outChannels) {
    // Weight [C, 1, K...] -> [C, K...].
    Value filter = mergeDims(b, loc, weight, 0);
    Value init = createFilledTensor(b, loc, sizes, zero);
    if (spatial == 1)
      return createWindowOp<linalg::DepthwiseConv1DNcwCwOp>(
          b, loc, input, filter, init, stride, dilation);
    if (spatial == 2)
      return createWindowOp<linalg::DepthwiseConv2DNchwChwOp>(
          b, loc, input, filter, init, stride, dilation);
    return createWindowOp<linalg::DepthwiseConv3DNcdhwCdhwOp>(
        b, loc, input, filter, init, stride, dilation);
  }

  // Channels are group-major: input [N, G*C, X...] -> [N, G, C, X...],
  // weight [G*F, C, K...] -> [G, F, C, K...], result [N, G, F, O...].
  Value groupedInput = splitDim(b, loc, input, 1, groups);
  Value groupedWeight = splitDim(b, loc, weight, 0, groups);
  sizes[1] = b.getIndexAttr(outChannels / groups);
  sizes.insert(sizes.begin() + 1, b.getIndexAttr(groups));
  Value init = createFilledTensor(b, loc, sizes, zero);
  Value grouped =
      spatial == 2
          ? createWindowOp<linalg::Conv2DNgchwGfchwOp>(
                b, loc, groupedInput, groupedWeight, init, stride, dilation)
          : createGroupedConvGeneric(b, loc, groupedInput, groupedWeight, init,
                                     stride, dilation);
  return mergeDims(b, loc, grouped, 1);
}

Value mlir::rlx::createConvAccumulation(OpBuilder &b, Location loc, Value input,
                                        Value weight, ArrayRef<int64_t> stride,
                                        ArrayRef<int64_t> padding,
                                        ArrayRef<int64_t> dilation,
                                        int64_t groups,
                                        RankedTensorType accType) {
  auto [low, high] = splitPadding(padding);
  Value padded = padSpatial(b, loc, input, low, high);
  return createConvolution(b, loc, padded, weight, stride, dilation, groups,
                           accType);
}

namespace {
struct ConvToLinalg : OpConversionPattern<ConvOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(ConvOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType resultType = op.getType();
    Type storage = resultType.getElementType();
    Value acc = createConvAccumulation(
        rewriter, loc, adaptor.getInput(), adaptor.getWeight(), op.getStride(),
        op.getPadding(), op.getDilation(), op.getGroups(),
        resultType.clone(ScalarBuilder::computeType(storage)));
    rewriter.replaceOp(op, convertElements(rewriter, loc, acc, storage));
    return success();
  }
};
} // namespace

/// A transposed convolution is the stride-1 convolution, with the same
/// dilation, of the input spread out by the stride (stride - 1 zeros between
/// neighbours) and padded by `dilation * (K - 1) - lo` before and
/// `dilation * (K - 1) - hi + output_padding` after each spatial dimension,
/// with the spatially flipped weight whose channel roles are swapped within
/// each group. A negative pad (padding larger than the dilated kernel) crops.
/// The output padding may be a value (an input gradient's run-time
/// remainder): the spread tensor then holds `dilation * (K - 1) - hi`
/// (at least 0) plus the output padding after the input, and the crop takes
/// what a negative `dilation * (K - 1) - hi` removes.
Value mlir::rlx::createConvTransposeAccumulation(
    OpBuilder &b, Location loc, Value input, Value weight,
    ArrayRef<int64_t> stride, ArrayRef<int64_t> padding,
    ArrayRef<OpFoldResult> outputPadding, ArrayRef<int64_t> dilation,
    int64_t groups, RankedTensorType accType) {
  auto inputType = cast<RankedTensorType>(input.getType());
  auto weightType = cast<RankedTensorType>(weight.getType());
  auto [low, high] = splitPadding(padding);
  int64_t rank = inputType.getRank(), spatial = rank - 2;

  // Spread and pad: zeros, with the input inserted at a stride. Sizes are
  // affine in the input's (values where those are `?`).
  MLIRContext *ctx = b.getContext();
  SmallVector<OpFoldResult> inputSizes = tensor::getMixedSizes(b, loc, input);
  SmallVector<OpFoldResult> spreadSizes(inputSizes), croppedSizes(inputSizes);
  SmallVector<int64_t> cropOffsets(rank, 0);
  SmallVector<int64_t> insertOffsets(rank, 0), insertStrides(rank, 1);
  bool crop = false;
  AffineExpr size = getAffineSymbolExpr(0, ctx),
             extra = getAffineSymbolExpr(1, ctx);
  for (int64_t i = 0; i < spatial; ++i) {
    int64_t window = dilation[i] * (weightType.getDimSize(i + 2) - 1);
    int64_t padLow = window - low[i];
    int64_t padHigh = window - high[i];
    OpFoldResult runTimeExtra = outputPadding[i];
    if (std::optional<int64_t> staticExtra =
            getConstantIntValue(outputPadding[i])) {
      padHigh += *staticExtra;
      runTimeExtra = b.getIndexAttr(0);
    }
    AffineExpr spread = (size - 1) * stride[i] + 1;
    spreadSizes[i + 2] = affine::makeComposedFoldedAffineApply(
        b, loc,
        spread + std::max<int64_t>(padLow, 0) + std::max<int64_t>(padHigh, 0) +
            extra,
        {inputSizes[i + 2], runTimeExtra});
    insertOffsets[i + 2] = std::max<int64_t>(padLow, 0);
    insertStrides[i + 2] = stride[i];
    cropOffsets[i + 2] = std::max<int64_t>(-padLow, 0);
    croppedSizes[i + 2] = affine::makeComposedFoldedAffineApply(
        b, loc, spread + padLow + padHigh + extra,
        {inputSizes[i + 2], runTimeExtra});
    crop |= padLow < 0 || padHigh < 0;
  }
  Value zero = createZeroOrNegInf(b, loc, inputType.getElementType());
  auto indices = [&](ArrayRef<int64_t> values) {
    return getAsIndexOpFoldResult(ctx, values);
  };
  Value spreadInput = tensor::InsertSliceOp::create(
      b, loc, input, createFilledTensor(b, loc, spreadSizes, zero),
      indices(insertOffsets), inputSizes, indices(insertStrides));
  if (crop)
    spreadInput = tensor::ExtractSliceOp::create(
        b, loc, spreadInput, indices(cropOffsets), croppedSizes,
        indices(SmallVector<int64_t>(rank, 1)));

  // Weight [G*C, F, K...] -> [G, C, F, K...] -> flipped [G, F, C, K...]
  // -> [G*F, C, K...].
  Value groupedWeight = splitDim(b, loc, weight, 0, groups);
  auto groupedType = cast<RankedTensorType>(groupedWeight.getType());
  SmallVector<int64_t> flippedShape(groupedType.getShape());
  std::swap(flippedShape[1], flippedShape[2]);
  SmallVector<AffineExpr> readExprs = {getAffineDimExpr(0, ctx),
                                       getAffineDimExpr(2, ctx),
                                       getAffineDimExpr(1, ctx)};
  for (int64_t i = 0; i < spatial; ++i)
    readExprs.push_back(weightType.getDimSize(i + 2) - 1 -
                        getAffineDimExpr(i + 3, ctx));
  Value flipped = createIndexedCopy(
      b, loc, groupedWeight,
      AffineMap::get(rank + 1, 0, readExprs, ctx),
      groupedType.clone(flippedShape));
  Value convWeight = mergeDims(b, loc, flipped, 0);

  return createConvolution(b, loc, spreadInput, convWeight,
                           SmallVector<int64_t>(spatial, 1), dilation, groups,
                           accType);
}

namespace {
struct ConvTransposeToLinalg : OpConversionPattern<ConvTransposeOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(ConvTransposeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType resultType = op.getType();
    Type storage = resultType.getElementType();
    Value acc = createConvTransposeAccumulation(
        rewriter, loc, adaptor.getInput(), adaptor.getWeight(), op.getStride(),
        op.getPadding(),
        getAsIndexOpFoldResult(rewriter.getContext(), op.getOutputPadding()),
        op.getDilation(), op.getGroups(),
        resultType.clone(ScalarBuilder::computeType(storage)));
    rewriter.replaceOp(op, convertElements(rewriter, loc, acc, storage));
    return success();
  }
};
} // namespace

/// Max or sum pooling of the already padded `input` [N, C, X...] with
/// `kernel` and `stride`, accumulated in `accType` [N, C, O...] starting
/// from -inf or 0. 3-D pooling has only channels-last named ops, so it runs
/// on transposed tensors.
static Value createPooling(OpBuilder &b, Location loc, PoolKind kind,
                           Value input, ArrayRef<int64_t> kernel,
                           ArrayRef<int64_t> stride, RankedTensorType accType) {
  bool isMax = kind == PoolKind::Max;
  int64_t spatial = kernel.size();
  Type accElement = accType.getElementType();
  Value initValue = createZeroOrNegInf(b, loc, accElement, isMax);
  Value window = tensor::EmptyOp::create(b, loc, kernel, accElement);
  SmallVector<int64_t> dilation(spatial, 1);
  SmallVector<OpFoldResult> sizes = getWindowResultSizes(
      b, loc, input, accType.getDimSize(1), kernel, stride);
  if (spatial < 3) {
    Value init = createFilledTensor(b, loc, sizes, initValue);
    if (spatial == 1)
      return isMax ? createWindowOp<linalg::PoolingNcwMaxOp>(
                         b, loc, input, window, init, stride, dilation)
                   : createWindowOp<linalg::PoolingNcwSumOp>(
                         b, loc, input, window, init, stride, dilation);
    return isMax ? createWindowOp<linalg::PoolingNchwMaxOp>(
                       b, loc, input, window, init, stride, dilation)
                 : createWindowOp<linalg::PoolingNchwSumOp>(
                       b, loc, input, window, init, stride, dilation);
  }
  auto channelsLast = [](ArrayRef<OpFoldResult> sizes) {
    return SmallVector<OpFoldResult>{sizes[0], sizes[2], sizes[3], sizes[4],
                                     sizes[1]};
  };
  Value lastInput =
      linalg::TransposeOp::create(
          b, loc, input,
          createEmptyTensor(
              b, loc, channelsLast(tensor::getMixedSizes(b, loc, input)),
              cast<RankedTensorType>(input.getType()).getElementType()),
          ArrayRef<int64_t>{0, 2, 3, 4, 1})
          .getResult()[0];
  Value lastInit = createFilledTensor(b, loc, channelsLast(sizes), initValue);
  Value pooled = isMax ? createWindowOp<linalg::PoolingNdhwcMaxOp>(
                             b, loc, lastInput, window, lastInit, stride,
                             dilation)
                       : createWindowOp<linalg::PoolingNdhwcSumOp>(
                             b, loc, lastInput, window, lastInit, stride,
                             dilation);
  return linalg::TransposeOp::create(
             b, loc, pooled, createEmptyTensor(b, loc, sizes, accElement),
             ArrayRef<int64_t>{0, 4, 1, 2, 3})
      .getResult()[0];
}

Value mlir::rlx::padPoolInput(OpBuilder &b, Location loc, Value input,
                              ArrayRef<int64_t> kernel,
                              ArrayRef<int64_t> stride,
                              ArrayRef<int64_t> padding,
                              ArrayRef<int64_t> resultShape, bool ceilMode,
                              bool negInf) {
  auto inputType = cast<RankedTensorType>(input.getType());
  auto [low, high] = splitPadding(padding);
  SmallVector<OpFoldResult> paddedHigh;
  for (size_t i = 0; i < kernel.size(); ++i) {
    if (!ceilMode) {
      paddedHigh.push_back(b.getIndexAttr(high[i]));
      continue;
    }
    if (!inputType.isDynamicDim(i + 2)) {
      int64_t needed = (resultShape[i + 2] - 1) * stride[i] + kernel[i];
      int64_t available = inputType.getDimSize(i + 2) + low[i] + high[i];
      paddedHigh.push_back(
          b.getIndexAttr(high[i] + std::max<int64_t>(needed - available, 0)));
      continue;
    }
    // A `?` size keeps every rounded-up window (the verifier saw to it), so
    // the last one ends (-span) mod stride past the padding, span being
    // size + lo + hi - kernel.
    AffineExpr size = getAffineSymbolExpr(0, b.getContext());
    AffineExpr span = size + low[i] + high[i] - kernel[i];
    paddedHigh.push_back(affine::makeComposedFoldedAffineApply(
        b, loc, (-span) % stride[i] + high[i],
        {tensor::getMixedSize(b, loc, input, i + 2)}));
  }
  return padSpatialBy(b, loc, input, low, paddedHigh, negInf);
}

Value mlir::rlx::createPoolWindowCount(
    OpBuilder &b, Location loc, ValueRange window,
    ArrayRef<OpFoldResult> inputSizes, ArrayRef<OpFoldResult> kernel,
    ArrayRef<int64_t> stride, ArrayRef<int64_t> padding, bool countIncludePad) {
  auto index = [&](int64_t v) {
    return arith::ConstantIndexOp::create(b, loc, v).getResult();
  };
  auto [low, high] = splitPadding(padding);
  Value count;
  for (auto [i, o] : llvm::enumerate(window)) {
    OpFoldResult size = inputSizes[i + 2];
    std::optional<int64_t> staticSize = getConstantIntValue(size);
    Value sizeValue = getValueOrCreateConstantIndexOp(b, loc, size);
    Value paddedEnd =
        staticSize ? index(*staticSize + high[i])
                   : arith::AddIOp::create(b, loc, sizeValue, index(high[i]))
                         .getResult();
    // The window [start, end) clipped to the padded input, or to the input
    // without count_include_pad.
    Value start = arith::SubIOp::create(
        b, loc, arith::MulIOp::create(b, loc, o, index(stride[i])),
        index(low[i]));
    Value end = arith::MinSIOp::create(
        b, loc,
        arith::AddIOp::create(
            b, loc, start, getValueOrCreateConstantIndexOp(b, loc, kernel[i])),
        paddedEnd);
    if (!countIncludePad) {
      start = arith::MaxSIOp::create(b, loc, start, index(0));
      end = arith::MinSIOp::create(b, loc, end, sizeValue);
    }
    Value dimCount = arith::SubIOp::create(b, loc, end, start);
    count = count ? arith::MulIOp::create(b, loc, count, dimCount).getResult()
                  : dimCount;
  }
  return count;
}

namespace {
/// Max pooling pads with -inf; average pooling sums a zero-padded input and
/// divides each output by its window count, computed from the output indices
/// (it varies at the borders without count_include_pad and for ceil_mode's
/// truncated last windows). In ceil_mode the input is padded further at the
/// high end so that every window lies inside it; those positions never count.
struct PoolToLinalg : OpConversionPattern<PoolOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(PoolOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType resultType = op.getType();
    Type storage = resultType.getElementType();
    Type accType = ScalarBuilder::computeType(storage);
    ArrayRef<int64_t> kernel = op.getKernel(), stride = op.getStride();
    bool isMax = op.getKind() == PoolKind::Max;
    Value padded = padPoolInput(rewriter, loc, adaptor.getInput(), kernel,
                                stride, op.getPadding(), resultType.getShape(),
                                op.getCeilMode(), /*negInf=*/isMax);
    SmallVector<OpFoldResult> inputSizes =
        tensor::getMixedSizes(rewriter, loc, adaptor.getInput());
    Value pooled = createPooling(rewriter, loc, op.getKind(), padded, kernel,
                                 stride, resultType.clone(accType));
    if (isMax) {
      rewriter.replaceOp(op, convertElements(rewriter, loc, pooled, storage));
      return success();
    }

    int64_t rank = resultType.getRank();
    SmallVector<utils::IteratorType> iterators(rank,
                                               utils::IteratorType::parallel);
    AffineMap identity = rewriter.getMultiDimIdentityMap(rank);
    auto average = linalg::GenericOp::create(
        rewriter, loc, resultType, pooled,
        createEmptyTensor(rewriter, loc, getResultSizes(rewriter, op), storage),
        ArrayRef<AffineMap>{identity, identity}, iterators,
        [&](OpBuilder &b, Location bodyLoc, ValueRange args) {
          SmallVector<Value> window;
          for (int64_t d = 2; d < rank; ++d)
            window.push_back(linalg::IndexOp::create(b, bodyLoc, d));
          Value count = createPoolWindowCount(
              b, bodyLoc, window, inputSizes,
              getAsIndexOpFoldResult(b.getContext(), kernel), stride,
              op.getPadding(), op.getCountIncludePad());
          Value countInt = arith::IndexCastOp::create(
              b, bodyLoc, b.getI64Type(), count);
          Value divisor =
              arith::SIToFPOp::create(b, bodyLoc, accType, countInt);
          ScalarBuilder scalar(b, bodyLoc);
          linalg::YieldOp::create(
              b, bodyLoc,
              scalar.convert(scalar.div(args[0], divisor), storage));
        });
    rewriter.replaceOp(op, average.getResult(0));
    return success();
  }
};

/// Reduces the spatial dimensions into [N, C] in the computation type, then
/// restores them as size-1 dimensions; the average divides by their product.
struct GlobalPoolToLinalg : OpConversionPattern<GlobalPoolOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(GlobalPoolOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType resultType = op.getType();
    Type storage = resultType.getElementType();
    Type accType = ScalarBuilder::computeType(storage);
    auto inputType = cast<RankedTensorType>(adaptor.getInput().getType());
    int64_t rank = inputType.getRank();
    bool isMax = op.getKind() == PoolKind::Max;

    auto reducedType = RankedTensorType::get(
        {inputType.getDimSize(0), inputType.getDimSize(1)}, accType);
    Value init = createFilledTensor(
        rewriter, loc,
        {tensor::getMixedSize(rewriter, loc, adaptor.getInput(), 0),
         rewriter.getIndexAttr(inputType.getDimSize(1))},
        createZeroOrNegInf(rewriter, loc, accType, /*negInf=*/isMax));
    SmallVector<utils::IteratorType> iterators(rank,
                                               utils::IteratorType::reduction);
    iterators[0] = iterators[1] = utils::IteratorType::parallel;
    MLIRContext *ctx = rewriter.getContext();
    AffineMap keptMap = AffineMap::get(
        rank, 0, {getAffineDimExpr(0, ctx), getAffineDimExpr(1, ctx)}, ctx);
    // The number of positions averaged, a value when a size is `?`.
    OpFoldResult count = rewriter.getIndexAttr(1);
    AffineExpr lhs = getAffineSymbolExpr(0, ctx),
               rhs = getAffineSymbolExpr(1, ctx);
    for (int64_t d = 2; d < rank && !isMax; ++d)
      count = affine::makeComposedFoldedAffineApply(
          rewriter, loc, lhs * rhs,
          {count, tensor::getMixedSize(rewriter, loc, adaptor.getInput(), d)});
    Value dynamicCount;
    if (!getConstantIntValue(count))
      dynamicCount = arith::IndexCastOp::create(
          rewriter, loc, rewriter.getI64Type(),
          getValueOrCreateConstantIndexOp(rewriter, loc, count));
    Value reduced =
        linalg::GenericOp::create(
            rewriter, loc, reducedType, adaptor.getInput(), init,
            ArrayRef<AffineMap>{rewriter.getMultiDimIdentityMap(rank),
                                keptMap},
            iterators,
            [&](OpBuilder &b, Location bodyLoc, ValueRange args) {
              ScalarBuilder scalar(b, bodyLoc);
              Value x = scalar.convert(args[0], accType);
              linalg::YieldOp::create(b, bodyLoc,
                                      isMax ? scalar.max(args[1], x)
                                            : scalar.add(args[1], x));
            })
            .getResult(0);
    Value result = mapElements(
        rewriter, loc, reduced, reducedType.clone(storage),
        [&](OpBuilder &b, Location bodyLoc, Value x) {
          ScalarBuilder scalar(b, bodyLoc);
          if (!isMax)
            x = scalar.div(
                x,
                dynamicCount
                    ? arith::SIToFPOp::create(b, bodyLoc, accType, dynamicCount)
                          .getResult()
                    : scalar.constant(
                          x, static_cast<double>(*getConstantIntValue(count))));
          return scalar.convert(x, storage);
        });
    rewriter.replaceOpWithNewOp<tensor::ExpandShapeOp>(
        op, resultType, result, groupDims(rank, 1, rank - 1));
    return success();
  }
};

/// Nearest-neighbour resampling is one indexed copy: output index o of a
/// spatial dimension of size O reads input index (o * X) floordiv O, which
/// is o floordiv 2 for rlx.resize_nearest2x (whose sizes may be `?`).
template <typename OpTy>
struct NearestResampleToLinalg : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;

  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Value input = adaptor.getInput();
    auto inputType = cast<RankedTensorType>(input.getType());
    RankedTensorType resultType = op.getType();
    MLIRContext *ctx = rewriter.getContext();
    int64_t rank = resultType.getRank();
    SmallVector<AffineExpr> exprs = {getAffineDimExpr(0, ctx),
                                     getAffineDimExpr(1, ctx)};
    for (int64_t d = 2; d < rank; ++d)
      exprs.push_back(std::is_same_v<OpTy, ResizeNearest2xOp>
                          ? getAffineDimExpr(d, ctx).floorDiv(2)
                          : (getAffineDimExpr(d, ctx) * inputType.getDimSize(d))
                                .floorDiv(resultType.getDimSize(d)));
    rewriter.replaceOp(
        op, createIndexedCopy(rewriter, op.getLoc(), input,
                              AffineMap::get(rank, 0, exprs, ctx), resultType,
                              getResultSizes(rewriter, op)));
    return success();
  }
};
} // namespace

void mlir::rlx::populateConvPoolToLinalgPatterns(RewritePatternSet &patterns) {
  patterns.add<ConvToLinalg, ConvTransposeToLinalg, PoolToLinalg,
               GlobalPoolToLinalg, NearestResampleToLinalg<ResizeNearest2xOp>,
               NearestResampleToLinalg<InterpolateNearestOp>>(
      patterns.getContext());
}
