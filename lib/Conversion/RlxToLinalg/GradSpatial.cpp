//===- GradSpatial.cpp - Spatial and indexing backward ops to linalg ------===//
//
// The adjoints reuse their forward ops' lowerings where the adjoint is one:
// the input gradient of a convolution is the transposed convolution's
// accumulation and that of a transposed convolution the convolution's, the
// reverse cumulative sum is a cumsum between two reversals, and the rope
// adjoint is rope by the opposite angle. The others are written here: the
// weight gradients (of both convolutions, with the operand roles exchanged)
// as a contraction generic over the batch and the output positions, pooling
// gradients as a gather-style generic over the input positions and the
// window offsets (each input position sums the windows that reach it, so no
// two iterations write the same element), and the gather gradient as an
// rlx.scatter adding into the table, which code generation tiles. Every
// accumulation runs in the computation type and rounds once.
//
//===----------------------------------------------------------------------===//
#include "Utils.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "rlx/Conversion/RlxToLinalg/RlxToLinalg.h"
#include "rlx/Dialect/Rlx/IR/RlxOps.h"

using namespace mlir;
using namespace mlir::rlx;

static Value indexConstant(OpBuilder &b, Location loc, int64_t value) {
  return arith::ConstantIndexOp::create(b, loc, value);
}

static Value floatZero(OpBuilder &b, Location loc, Type type) {
  return arith::ConstantOp::create(b, loc, b.getFloatAttr(type, 0.0));
}

/// The row-major offset of spatial position `position` (index values) in an
/// activation whose spatial sizes are `sizes` (index values), as an i64.
static Value linearizeSpatial(OpBuilder &b, Location loc, ValueRange position,
                              ValueRange sizes) {
  Value offset = indexConstant(b, loc, 0);
  for (auto [p, size] : llvm::zip_equal(position, sizes))
    offset = arith::AddIOp::create(
        b, loc, arith::MulIOp::create(b, loc, offset, size), p);
  return arith::IndexCastOp::create(b, loc, b.getI64Type(), offset);
}

/// The spatial sizes of `value` [N, C, X...] as index values.
static SmallVector<Value> getSpatialSizes(OpBuilder &b, Location loc,
                                          Value value) {
  return llvm::map_to_vector(
      ArrayRef(tensor::getMixedSizes(b, loc, value)).drop_front(2),
      [&](OpFoldResult size) {
        return getValueOrCreateConstantIndexOp(b, loc, size);
      });
}

namespace {
/// The transposed convolution of `grad_output` by the weight with the
/// forward geometry, with the output padding that makes its size the
/// input size (the forward output size rounded down): a run-time value
/// where the input size is `?`.
struct ConvBackwardInputToLinalg
    : OpConversionPattern<ConvBackwardInputOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(ConvBackwardInputOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType inputType = op.getType();
    ArrayRef<int64_t> kernelShape = op.getWeight().getType().getShape(),
                      stride = op.getStride(), padding = op.getPadding(),
                      dilation = op.getDilation();
    SmallVector<OpFoldResult> inputSizes = getResultSizes(rewriter, op),
                              outputSizes = tensor::getMixedSizes(
                                  rewriter, loc, adaptor.getGradOutput());
    AffineExpr input = getAffineSymbolExpr(0, rewriter.getContext()),
               output = getAffineSymbolExpr(1, rewriter.getContext());
    SmallVector<OpFoldResult> outputPadding;
    for (size_t i = 0; i < stride.size(); ++i)
      outputPadding.push_back(affine::makeComposedFoldedAffineApply(
          rewriter, loc,
          input -
              ((output - 1) * stride[i] - padding[2 * i] - padding[2 * i + 1] +
               dilation[i] * (kernelShape[i + 2] - 1) + 1),
          {inputSizes[i + 2], outputSizes[i + 2]}));
    Type storage = inputType.getElementType();
    Value acc = createConvTransposeAccumulation(
        rewriter, loc, adaptor.getGradOutput(), adaptor.getWeight(), stride,
        padding, outputPadding, dilation, op.getGroups(),
        inputType.clone(ScalarBuilder::computeType(storage)));
    rewriter.replaceOp(op, convertElements(rewriter, loc, acc, storage));
    return success();
  }
};
} // namespace

/// The padding of rlx.conv_transpose's result gradient that turns the
/// forward's writes at x * stride + k * dilation - lo into a convolution's
/// reads at x * stride + k * dilation: lo before, and after, the
/// hi - output_padding positions the forward cropped (none when the output
/// padding covers them).
static SmallVector<int64_t>
getTransposeReadPadding(ArrayRef<int64_t> padding,
                        ArrayRef<int64_t> outputPadding) {
  SmallVector<int64_t> readPadding;
  for (auto [i, op] : llvm::enumerate(outputPadding)) {
    readPadding.push_back(padding[2 * i]);
    readPadding.push_back(std::max<int64_t>(padding[2 * i + 1] - op, 0));
  }
  return readPadding;
}

/// The weight gradient of a convolution whose result gradient is
/// `gradOutput` [N, G*F, O...] and whose already padded input is `input`
/// [N, G*C, X...]: a contraction generic over [N, G, F, O...] and
/// [N, G, C, X...] into [G, F, C, K...] with loops (g, f, c, k..., n, o...),
/// accumulated in `accType` ([G*F, C, K...] in the computation type).
static Value createConvWeightGradient(OpBuilder &b, Location loc,
                                      Value gradOutput, Value input,
                                      ArrayRef<int64_t> stride,
                                      ArrayRef<int64_t> dilation,
                                      int64_t groups,
                                      RankedTensorType accType) {
  int64_t spatial = stride.size();
  Type accElement = accType.getElementType();
  Value groupedInput = splitDim(b, loc, input, 1, groups);
  Value groupedGrad = splitDim(b, loc, gradOutput, 1, groups);
  SmallVector<int64_t> groupedShape(accType.getShape());
  groupedShape[0] /= groups;
  groupedShape.insert(groupedShape.begin(), groups);
  Value init = createFilledTensor(b, loc, accType.clone(groupedShape),
                                  floatZero(b, loc, accElement));

  MLIRContext *ctx = b.getContext();
  auto dim = [&](int64_t d) { return getAffineDimExpr(d, ctx); };
  int64_t numLoops = 4 + 2 * spatial;
  AffineExpr g = dim(0), f = dim(1), c = dim(2), n = dim(3 + spatial);
  SmallVector<AffineExpr> gradExprs = {n, g, f}, inputExprs = {n, g, c},
                          weightExprs = {g, f, c};
  for (int64_t i = 0; i < spatial; ++i) {
    AffineExpr k = dim(3 + i), o = dim(4 + spatial + i);
    gradExprs.push_back(o);
    inputExprs.push_back(o * stride[i] + k * dilation[i]);
    weightExprs.push_back(k);
  }
  SmallVector<AffineMap> maps = {AffineMap::get(numLoops, 0, gradExprs, ctx),
                                 AffineMap::get(numLoops, 0, inputExprs, ctx),
                                 AffineMap::get(numLoops, 0, weightExprs, ctx)};
  SmallVector<utils::IteratorType> iterators(3 + spatial,
                                             utils::IteratorType::parallel);
  iterators.append(1 + spatial, utils::IteratorType::reduction);
  Value grouped =
      linalg::GenericOp::create(
          b, loc, init.getType(), ValueRange{groupedGrad, groupedInput}, init,
          maps, iterators,
          [&](OpBuilder &nested, Location bodyLoc, ValueRange args) {
            ScalarBuilder scalar(nested, bodyLoc);
            Value dy = scalar.convert(args[0], accElement);
            Value x = scalar.convert(args[1], accElement);
            linalg::YieldOp::create(nested, bodyLoc,
                                    scalar.add(args[2], scalar.mul(dy, x)));
          })
          .getResult(0);
  return mergeDims(b, loc, grouped, 0);
}

/// The weight gradient, of type `weightType`, of a convolution reading
/// `image` padded by `padding` and whose result gradient is `resultGrad`.
static Value lowerWeightGradient(OpBuilder &b, Location loc, Value resultGrad,
                                 Value image, ArrayRef<int64_t> padding,
                                 ArrayRef<int64_t> stride,
                                 ArrayRef<int64_t> dilation, int64_t groups,
                                 RankedTensorType weightType) {
  auto [low, high] = splitPadding(padding);
  Value padded = padSpatial(b, loc, image, low, high);
  Type storage = weightType.getElementType();
  Value acc = createConvWeightGradient(
      b, loc, resultGrad, padded, stride, dilation, groups,
      weightType.clone(ScalarBuilder::computeType(storage)));
  return convertElements(b, loc, acc, storage);
}

namespace {
struct ConvBackwardWeightToLinalg
    : OpConversionPattern<ConvBackwardWeightOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(ConvBackwardWeightOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOp(
        op, lowerWeightGradient(rewriter, op.getLoc(), adaptor.getGradOutput(),
                                adaptor.getInput(), op.getPadding(),
                                op.getStride(), op.getDilation(),
                                op.getGroups(), op.getType()));
    return success();
  }
};

/// rlx.conv of grad_output by the weight (whose layout is a convolution
/// weight with the channel roles exchanged) with the forward stride,
/// dilation and groups, padded by `lo` and the uncropped part of `hi`, and
/// cut to the declared input size.
struct ConvTransposeBackwardInputToLinalg
    : OpConversionPattern<ConvTransposeBackwardInputOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(ConvTransposeBackwardInputOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType inputType = op.getType();
    Type storage = inputType.getElementType();
    ArrayRef<int64_t> stride = op.getStride(), dilation = op.getDilation(),
                      outputShape = op.getGradOutput().getType().getShape(),
                      kernelShape = op.getWeight().getType().getShape();
    SmallVector<int64_t> readPadding =
        getTransposeReadPadding(op.getPadding(), op.getOutputPadding());
    SmallVector<int64_t> convShape(inputType.getShape());
    for (size_t i = 0; i < stride.size(); ++i)
      if (!ShapedType::isDynamic(outputShape[i + 2]))
        convShape[i + 2] =
            (outputShape[i + 2] + readPadding[2 * i] + readPadding[2 * i + 1] -
             dilation[i] * (kernelShape[i + 2] - 1) - 1) /
                stride[i] +
            1;
    Type accElement = ScalarBuilder::computeType(storage);
    Value acc = createConvAccumulation(
        rewriter, loc, adaptor.getGradOutput(), adaptor.getWeight(), stride,
        readPadding, dilation, op.getGroups(),
        RankedTensorType::get(convShape, accElement));
    // The convolution may read past the input's last position (where the
    // forward's output padding wrote nothing): cut it to the input's sizes.
    if (ArrayRef<int64_t>(convShape) != inputType.getShape() ||
        !inputType.hasStaticShape()) {
      int64_t rank = inputType.getRank();
      acc = tensor::ExtractSliceOp::create(
          rewriter, loc, inputType.clone(accElement), acc,
          SmallVector<OpFoldResult>(rank, rewriter.getIndexAttr(0)),
          getResultSizes(rewriter, op),
          SmallVector<OpFoldResult>(rank, rewriter.getIndexAttr(1)));
    }
    rewriter.replaceOp(op, convertElements(rewriter, loc, acc, storage));
    return success();
  }
};

/// The weight gradient of a convolution whose result is the transposed
/// convolution's input and whose input is grad_output.
struct ConvTransposeBackwardWeightToLinalg
    : OpConversionPattern<ConvTransposeBackwardWeightOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(ConvTransposeBackwardWeightOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOp(
        op, lowerWeightGradient(
                rewriter, op.getLoc(), adaptor.getInput(),
                adaptor.getGradOutput(),
                getTransposeReadPadding(op.getPadding(), op.getOutputPadding()),
                op.getStride(), op.getDilation(), op.getGroups(),
                op.getType()));
    return success();
  }
};

} // namespace

/// The rlx.pool gradient of `input` from `gradOutput`. For max pooling, a reduction generic first records each window's winner
/// as the row-major spatial offset of an input position; for avg pooling a
/// parallel generic divides grad_output by each window's divisor. Then one
/// generic over (n, c, x..., k...) sums, for every input position x, the
/// gradient of each window o with o * stride + k - lo = x that exists (and,
/// for max, whose winner is x).
static Value createPoolGradient(OpBuilder &b, Location loc, PoolKind kind,
                                Value gradOutput, Value input,
                                ArrayRef<OpFoldResult> kernel,
                                ArrayRef<int64_t> stride,
                                ArrayRef<int64_t> padding, bool ceilMode,
                                bool countIncludePad) {
  auto inputType = cast<RankedTensorType>(input.getType());
  auto outputType = cast<RankedTensorType>(gradOutput.getType());
  Type storage = inputType.getElementType();
  Type accElement = ScalarBuilder::computeType(storage);
  SmallVector<OpFoldResult> inputSizes = tensor::getMixedSizes(b, loc, input);
  SmallVector<Value> inputSpatial = getSpatialSizes(b, loc, input),
                     outputSpatial = getSpatialSizes(b, loc, gradOutput);
  SmallVector<int64_t> low = splitPadding(padding).first;
  int64_t rank = inputType.getRank(), spatial = rank - 2;
  bool isMax = kind == PoolKind::Max;
  MLIRContext *ctx = b.getContext();
  auto dim = [&](int64_t d) { return getAffineDimExpr(d, ctx); };

  // Loops (n, c, o..., k...) or (n, c, x..., k...): the spatial indices of
  // the first group, and of the window offsets.
  auto spatialIndices = [&](OpBuilder &b, Location bodyLoc, int64_t first) {
    SmallVector<Value> indices;
    for (int64_t i = 0; i < spatial; ++i)
      indices.push_back(linalg::IndexOp::create(b, bodyLoc, first + i));
    return indices;
  };
  AffineMap outerMap =
      AffineMap::getMultiDimIdentityMap(rank + spatial, ctx)
          .getMajorSubMap(rank);
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  iterators.append(spatial, utils::IteratorType::reduction);

  // The window offsets k are not the only index of any operand dimension:
  // an empty tensor of the kernel shape gives their loops a size, as in
  // linalg's named poolings.
  SmallVector<AffineExpr> kernelExprs;
  for (int64_t i = 0; i < spatial; ++i)
    kernelExprs.push_back(dim(rank + i));
  AffineMap kernelMap = AffineMap::get(rank + spatial, 0, kernelExprs, ctx);
  Value window = tensor::EmptyOp::create(b, loc, kernel, accElement);

  Value gradient = gradOutput;
  Value winners;
  if (isMax) {
    // A run-time kernel (a global pool's) has neither padding nor ceil mode.
    Value padded = input;
    if (std::optional<SmallVector<int64_t>> staticKernel =
            getConstantIntValues(kernel))
      padded = padPoolInput(b, loc, input, *staticKernel, stride, padding,
                            outputType.getShape(), ceilMode,
                            /*negInf=*/false);
    SmallVector<AffineExpr> windowExprs = {dim(0), dim(1)};
    for (int64_t i = 0; i < spatial; ++i)
      windowExprs.push_back(dim(2 + i) * stride[i] + dim(rank + i));
    Value maxInit = createFilledTensor(
        b, loc, tensor::getMixedSizes(b, loc, gradOutput),
        arith::ConstantOp::create(
            b, loc,
            b.getFloatAttr(
                accElement,
                APFloat::getInf(cast<FloatType>(accElement).getFloatSemantics(),
                                /*Negative=*/true))));
    Value indexInit = createFilledTensor(
        b, loc, tensor::getMixedSizes(b, loc, gradOutput),
        arith::ConstantOp::create(b, loc, b.getI64IntegerAttr(-1)));
    auto argmax = linalg::GenericOp::create(
        b, loc, TypeRange{maxInit.getType(), indexInit.getType()},
        ValueRange{padded, window}, ValueRange{maxInit, indexInit},
        ArrayRef<AffineMap>{
            AffineMap::get(rank + spatial, 0, windowExprs, ctx), kernelMap,
            outerMap, outerMap},
        iterators, [&](OpBuilder &b, Location bodyLoc, ValueRange args) {
          ScalarBuilder scalar(b, bodyLoc);
          Value value = scalar.convert(args[0], accElement);
          SmallVector<Value> window = spatialIndices(b, bodyLoc, 2);
          SmallVector<Value> offsets = spatialIndices(b, bodyLoc, rank);
          SmallVector<Value> position;
          Value valid = arith::ConstantOp::create(b, bodyLoc,
                                                  b.getBoolAttr(true));
          for (int64_t i = 0; i < spatial; ++i) {
            Value p = arith::SubIOp::create(
                b, bodyLoc,
                arith::AddIOp::create(
                    b, bodyLoc,
                    arith::MulIOp::create(b, bodyLoc, window[i],
                                          indexConstant(b, bodyLoc,
                                                        stride[i])),
                    offsets[i]),
                indexConstant(b, bodyLoc, low[i]));
            Value inside = arith::AndIOp::create(
                b, bodyLoc,
                arith::CmpIOp::create(b, bodyLoc, arith::CmpIPredicate::sge, p,
                                      indexConstant(b, bodyLoc, 0)),
                arith::CmpIOp::create(b, bodyLoc, arith::CmpIPredicate::slt, p,
                                      inputSpatial[i]));
            valid = arith::AndIOp::create(b, bodyLoc, valid, inside);
            position.push_back(p);
          }
          // PyTorch's rule: the first input position of the window, then
          // any larger value or any NaN.
          Value first = arith::CmpIOp::create(
              b, bodyLoc, arith::CmpIPredicate::slt, args[3],
              arith::ConstantOp::create(b, bodyLoc, b.getI64IntegerAttr(0)));
          Value larger = arith::CmpFOp::create(
              b, bodyLoc, arith::CmpFPredicate::OGT, value, args[2]);
          Value isNan = arith::CmpFOp::create(
              b, bodyLoc, arith::CmpFPredicate::UNO, value, value);
          Value take = arith::AndIOp::create(
              b, bodyLoc, valid,
              arith::OrIOp::create(
                  b, bodyLoc, first,
                  arith::OrIOp::create(b, bodyLoc, larger, isNan)));
          Value offset = linearizeSpatial(b, bodyLoc, position, inputSpatial);
          linalg::YieldOp::create(
              b, bodyLoc,
              ValueRange{
                  arith::SelectOp::create(b, bodyLoc, take, value, args[2]),
                  arith::SelectOp::create(b, bodyLoc, take, offset,
                                          args[3])});
        });
    winners = argmax.getResult(1);
  } else {
    AffineMap identity = b.getMultiDimIdentityMap(rank);
    gradient =
        linalg::GenericOp::create(
            b, loc, outputType.clone(accElement), gradient,
            createEmptyTensor(b, loc, tensor::getMixedSizes(b, loc, gradOutput),
                              accElement),
            ArrayRef<AffineMap>{identity, identity},
            SmallVector<utils::IteratorType>(rank,
                                             utils::IteratorType::parallel),
            [&](OpBuilder &b, Location bodyLoc, ValueRange args) {
              Value count = createPoolWindowCount(
                  b, bodyLoc, spatialIndices(b, bodyLoc, 2), inputSizes, kernel,
                  stride, padding, countIncludePad);
              Value divisor = arith::SIToFPOp::create(
                  b, bodyLoc, accElement,
                  arith::IndexCastOp::create(b, bodyLoc, b.getI64Type(),
                                             count));
              ScalarBuilder scalar(b, bodyLoc);
              linalg::YieldOp::create(
                  b, bodyLoc,
                  scalar.div(scalar.convert(args[0], accElement), divisor));
            })
            .getResult(0);
  }

  Value init =
      createFilledTensor(b, loc, inputSizes, floatZero(b, loc, accElement));
  SmallVector<Value> lastWindow =
      llvm::map_to_vector(outputSpatial, [&](Value size) -> Value {
        return arith::SubIOp::create(b, loc, size, indexConstant(b, loc, 1));
      });
  auto scatter = linalg::GenericOp::create(
      b, loc, init.getType(), window, init,
      ArrayRef<AffineMap>{kernelMap, outerMap},
      iterators, [&](OpBuilder &b, Location bodyLoc, ValueRange args) {
        SmallVector<Value> position = spatialIndices(b, bodyLoc, 2);
        SmallVector<Value> offsets = spatialIndices(b, bodyLoc, rank);
        SmallVector<Value> at = {linalg::IndexOp::create(b, bodyLoc, 0),
                                 linalg::IndexOp::create(b, bodyLoc, 1)};
        Value zero = indexConstant(b, bodyLoc, 0);
        Value valid = arith::ConstantOp::create(b, bodyLoc,
                                                b.getBoolAttr(true));
        for (int64_t i = 0; i < spatial; ++i) {
          // Window o reaches x at offset k when o * stride = x + lo - k.
          Value shifted = arith::SubIOp::create(
              b, bodyLoc,
              arith::AddIOp::create(b, bodyLoc, position[i],
                                    indexConstant(b, bodyLoc, low[i])),
              offsets[i]);
          Value strideValue = indexConstant(b, bodyLoc, stride[i]);
          Value o = arith::DivSIOp::create(b, bodyLoc, shifted, strideValue);
          Value exists = arith::AndIOp::create(
              b, bodyLoc,
              arith::CmpIOp::create(b, bodyLoc, arith::CmpIPredicate::sge,
                                    shifted, zero),
              arith::AndIOp::create(
                  b, bodyLoc,
                  arith::CmpIOp::create(
                      b, bodyLoc, arith::CmpIPredicate::eq,
                      arith::RemSIOp::create(b, bodyLoc, shifted, strideValue),
                      zero),
                  arith::CmpIOp::create(b, bodyLoc, arith::CmpIPredicate::slt,
                                        o, outputSpatial[i])));
          valid = arith::AndIOp::create(b, bodyLoc, valid, exists);
          // Read in bounds even where the window does not exist.
          at.push_back(arith::MinSIOp::create(
              b, bodyLoc, arith::MaxSIOp::create(b, bodyLoc, o, zero),
              lastWindow[i]));
        }
        if (winners) {
          Value winner = tensor::ExtractOp::create(b, bodyLoc, winners, at);
          Value self = linearizeSpatial(b, bodyLoc, position, inputSpatial);
          valid = arith::AndIOp::create(
              b, bodyLoc, valid,
              arith::CmpIOp::create(b, bodyLoc, arith::CmpIPredicate::eq,
                                    winner, self));
        }
        ScalarBuilder scalar(b, bodyLoc);
        Value dy = scalar.convert(
            tensor::ExtractOp::create(b, bodyLoc, gradient, at), accElement);
        Value contribution = arith::SelectOp::create(
            b, bodyLoc, valid, dy, floatZero(b, bodyLoc, accElement));
        linalg::YieldOp::create(b, bodyLoc,
                                scalar.add(args[1], contribution));
      });
  return convertElements(b, loc, scatter.getResult(0), storage);
}

namespace {
struct PoolBackwardToLinalg : OpConversionPattern<PoolBackwardOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(PoolBackwardOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOp(
        op, createPoolGradient(
                rewriter, op.getLoc(), op.getKind(), adaptor.getGradOutput(),
                adaptor.getInput(),
                getAsIndexOpFoldResult(rewriter.getContext(), op.getKernel()),
                op.getStride(), op.getPadding(), op.getCeilMode(),
                op.getCountIncludePad()));
    return success();
  }
};

/// rlx.pool's gradient with one window over the whole spatial extent (of
/// run-time size where it is `?`); an input without elements has nothing to
/// receive it.
struct GlobalPoolBackwardToLinalg : OpConversionPattern<GlobalPoolBackwardOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(GlobalPoolBackwardOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType inputType = op.getType();
    if (inputType.hasStaticShape() && inputType.getNumElements() == 0) {
      rewriter.replaceOp(op, createEmptyTensor(rewriter, op.getLoc(),
                                               inputType));
      return success();
    }
    Location loc = op.getLoc();
    SmallVector<OpFoldResult> window = llvm::to_vector(
        ArrayRef(tensor::getMixedSizes(rewriter, loc, adaptor.getInput()))
            .drop_front(2));
    SmallVector<int64_t> stride(window.size(), 1),
        padding(2 * window.size(), 0);
    rewriter.replaceOp(
        op, createPoolGradient(rewriter, op.getLoc(), op.getKind(),
                               adaptor.getGradOutput(), adaptor.getInput(),
                               window, stride, padding, /*ceilMode=*/false,
                               /*countIncludePad=*/false));
    return success();
  }
};

/// The table gradient: rlx.scatter adding grad_output into a zero table in
/// the computation type at the rows the gather read (its clamped indices),
/// rounded once to the table's type: loops before the axis address the
/// table's leading dimensions, the index loops index the indices, the rest
/// address the trailing dimensions.
struct GatherBackwardToLinalg : OpConversionPattern<GatherBackwardOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(GatherBackwardOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType tableType = op.getType();
    Type storage = tableType.getElementType();
    Type accElement = ScalarBuilder::computeType(storage);
    int64_t rank = tableType.getRank();
    int64_t axis = op.getAxis() < 0 ? op.getAxis() + rank : op.getAxis();
    Value sums = createFilledTensor(rewriter, loc, getResultSizes(rewriter, op),
                                    floatZero(rewriter, loc, accElement));
    auto provablyEmpty = [](RankedTensorType type) {
      return llvm::is_contained(type.getShape(), 0);
    };
    if (!provablyEmpty(op.getIndices().getType()) &&
        !provablyEmpty(tableType)) {
      int64_t indexRank = op.getIndices().getType().getRank();
      SmallVector<int64_t> loopDims, indexLoops;
      for (int64_t dim = 0; dim < axis; ++dim)
        loopDims.push_back(dim);
      for (int64_t j = 0; j < indexRank; ++j) {
        indexLoops.push_back(axis + j);
        loopDims.push_back(-1);
      }
      for (int64_t dim = axis + 1; dim < rank; ++dim)
        loopDims.push_back(dim);
      sums = createScatter(
          rewriter, loc, adaptor.getGradOutput(),
          appendUnitDim(rewriter, loc, adaptor.getIndices()), sums, loopDims,
          indexLoops, {axis}, /*clampIndices=*/true,
          [&](ScalarBuilder &scalar, Value update, Value current) {
            return scalar.add(current, scalar.convert(update, accElement));
          });
      // A schedule given on the op holds for its tiled form.
      if (Attribute config = op->getAttr(LoweringConfigAttr::kAttrName))
        sums.getDefiningOp()->setAttr(LoweringConfigAttr::kAttrName, config);
    }
    rewriter.replaceOp(op, convertElements(rewriter, loc, sums, storage));
    return success();
  }
};

/// The sums over [i, n) are the cumsum of the reversed axis, reversed back;
/// the exclusive form is the exclusive cumsum.
struct CumsumBackwardToLinalg : OpConversionPattern<CumsumBackwardOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(CumsumBackwardOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType type = op.getType();
    int64_t axis = op.getAxis() < 0 ? op.getAxis() + type.getRank()
                                    : op.getAxis();
    Value reversed =
        ReverseOp::create(rewriter, loc, type, adaptor.getGradOutput(),
                          ArrayRef<int64_t>{axis});
    Value sums =
        CumsumOp::create(rewriter, loc, type, reversed, axis, op.getExclusive());
    rewriter.replaceOpWithNewOp<ReverseOp>(op, type, sums,
                                           ArrayRef<int64_t>{axis});
    return success();
  }
};

/// Rope by the opposite angle: the same pairs rotated with -sin.
struct RopeBackwardToLinalg : OpConversionPattern<RopeBackwardOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(RopeBackwardOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Value negatedSin = NegOp::create(rewriter, op.getLoc(),
                                     adaptor.getSin().getType(),
                                     adaptor.getSin());
    rewriter.replaceOpWithNewOp<RopeOp>(
        op, op.getType(), op.getStyle(), op.getLayout(),
        adaptor.getGradOutput(), adaptor.getCos(), negatedSin,
        op.getHeadDim(), op.getNRot());
    return success();
  }
};
} // namespace

void mlir::rlx::populateGradSpatialToLinalgPatterns(
    RewritePatternSet &patterns) {
  MLIRContext *context = patterns.getContext();
  patterns.add<ConvBackwardInputToLinalg, ConvBackwardWeightToLinalg,
               ConvTransposeBackwardInputToLinalg,
               ConvTransposeBackwardWeightToLinalg, PoolBackwardToLinalg,
               GlobalPoolBackwardToLinalg, CumsumBackwardToLinalg,
               RopeBackwardToLinalg, GatherBackwardToLinalg>(context);
}
