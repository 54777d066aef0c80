//===- FusedOps.cpp - Named fused ops to linalg ---------------------------===//
//
// Each fused op becomes one loop nest that reads its input once, doing what
// the unfused graph does in several passes with the same rounding; a fused
// contraction becomes the contraction's linalg op(s) and one elementwise
// epilogue, which code generation then runs tile by tile.
//
//===----------------------------------------------------------------------===//
#include "Utils.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "rlx/Conversion/RlxToLinalg/RlxToLinalg.h"
#include "rlx/Dialect/Rlx/IR/Activation.h"
#include "rlx/Dialect/Rlx/IR/RlxOps.h"

using namespace mlir;
using namespace mlir::rlx;

/// The epilogue of a fused contraction: one generic over the accumulator
/// `acc` (the result shape, in the computation type) giving
/// `act(round(round(round(acc) + bias) + residual))`, each step rounded to
/// the element type as the unfused op stores it. `bias` is read at
/// `biasDim` of the result; `residual` may be null.
static Value createContractionEpilogue(OpBuilder &b, Location loc, Value acc,
                                       Value bias, int64_t biasDim,
                                       Value residual,
                                       std::optional<ActivationKind> activation,
                                       RankedTensorType resultType) {
  int64_t rank = resultType.getRank();
  AffineMap identity = b.getMultiDimIdentityMap(rank);
  SmallVector<Value> inputs = {acc};
  SmallVector<AffineMap> maps = {identity};
  if (bias) {
    inputs.push_back(bias);
    maps.push_back(AffineMap::get(rank, 0, b.getAffineDimExpr(biasDim)));
  }
  if (residual) {
    inputs.push_back(residual);
    maps.push_back(identity);
  }
  maps.push_back(identity);
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  Type storage = resultType.getElementType();
  Type computeType = ScalarBuilder::computeType(storage);
  // The accumulator has the result's sizes.
  Value init = createEmptyTensor(b, loc, tensor::getMixedSizes(b, loc, acc),
                                 resultType.getElementType());
  return linalg::GenericOp::create(
             b, loc, resultType, inputs, init, maps, iterators,
             [&](OpBuilder &nested, Location bodyLoc, ValueRange args) {
               ScalarBuilder scalar(nested, bodyLoc);
               auto addRounded = [&](Value stored, Value operand) {
                 return scalar.convert(
                     scalar.add(scalar.convert(stored, computeType),
                                scalar.convert(operand, computeType)),
                     storage);
               };
               // The contraction result as the unfused op stores it.
               Value result = scalar.convert(args[0], storage);
               for (Value operand : args.drop_front().drop_back())
                 result = addRounded(result, operand);
               if (activation)
                 result = scalar.convert(
                     buildActivation(scalar, *activation,
                                     scalar.convert(result, computeType)),
                     storage);
               linalg::YieldOp::create(nested, bodyLoc, result);
             })
      .getResult(0);
}

namespace {
/// swiglu: the two halves are views of the input (extract_slice, no copy
/// after bufferization) read by one generic:
/// result[..., j] = silu(gate[..., j]) * up[..., j].
struct SwigluToGeneric : OpConversionPattern<SwigluOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(SwigluOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType type = op.getType();
    int64_t rank = type.getRank();
    int64_t half = op.getHalfLength();
    SmallVector<OpFoldResult> sizes = getResultSizes(rewriter, op);
    auto halfView = [&](int64_t start) -> Value {
      SmallVector<OpFoldResult> offsets(rank, rewriter.getIndexAttr(0));
      SmallVector<OpFoldResult> strides(rank, rewriter.getIndexAttr(1));
      offsets.back() = rewriter.getIndexAttr(start);
      return tensor::ExtractSliceOp::create(rewriter, loc, type,
                                            adaptor.getInput(), offsets, sizes,
                                            strides);
    };
    Value up = halfView(op.getGateFirst() ? half : 0);
    Value gate = halfView(op.getGateFirst() ? 0 : half);
    AffineMap identity = rewriter.getMultiDimIdentityMap(rank);
    SmallVector<AffineMap> maps(3, identity);
    SmallVector<utils::IteratorType> iterators(rank,
                                               utils::IteratorType::parallel);
    Type storage = type.getElementType();
    Type computeType = ScalarBuilder::computeType(storage);
    auto generic = linalg::GenericOp::create(
        rewriter, loc, type, ValueRange{up, gate},
        createEmptyTensor(rewriter, loc, sizes, type.getElementType()), maps,
        iterators, [&](OpBuilder &b, Location bodyLoc, ValueRange args) {
          ScalarBuilder scalar(b, bodyLoc);
          Value up = scalar.convert(args[0], computeType);
          Value gate = scalar.convert(args[1], computeType);
          // Round silu to the element type as the unfused rlx.silu stores it.
          Value activated = scalar.convert(
              scalar.convert(scalar.silu(gate), storage), computeType);
          linalg::YieldOp::create(
              b, bodyLoc, scalar.convert(scalar.mul(activated, up), storage));
        });
    rewriter.replaceOp(op, generic.getResults());
    return success();
  }
};

/// matmul_bias_act: the matmul accumulation, then bias (along the last axis)
/// and activation in one epilogue.
struct MatmulBiasActToLinalg : OpConversionPattern<MatmulBiasActOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(MatmulBiasActOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType type = op.getType();
    Value acc = createMatmulAccumulation(
        rewriter, loc, adaptor.getLhs(), adaptor.getRhs(),
        type.clone(ScalarBuilder::computeType(type.getElementType())));
    rewriter.replaceOp(
        op, createContractionEpilogue(rewriter, loc, acc, adaptor.getBias(),
                                      type.getRank() - 1, /*residual=*/{},
                                      op.getActivation(), type));
    return success();
  }
};

/// matmul_residual: the matmul accumulation, then the residual in one
/// epilogue.
struct MatmulResidualToLinalg : OpConversionPattern<MatmulResidualOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(MatmulResidualOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType type = op.getType();
    Value acc = createMatmulAccumulation(
        rewriter, loc, adaptor.getLhs(), adaptor.getRhs(),
        type.clone(ScalarBuilder::computeType(type.getElementType())));
    rewriter.replaceOp(op, createContractionEpilogue(
                               rewriter, loc, acc, /*bias=*/{}, 0,
                               adaptor.getResidual(), std::nullopt, type));
    return success();
  }
};

/// conv_bias_act: the convolution accumulation, then bias (along the
/// channels), residual and activation in one epilogue.
struct ConvBiasActToLinalg : OpConversionPattern<ConvBiasActOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(ConvBiasActOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType type = op.getType();
    Value acc = createConvAccumulation(
        rewriter, loc, adaptor.getInput(), adaptor.getWeight(), op.getStride(),
        op.getPadding(), op.getDilation(), op.getGroups(),
        type.clone(ScalarBuilder::computeType(type.getElementType())));
    rewriter.replaceOp(
        op, createContractionEpilogue(rewriter, loc, acc, adaptor.getBias(),
                                      /*biasDim=*/1, adaptor.getResidual(),
                                      op.getActivation(), type));
    return success();
  }
};
/// lora_matmul: its expansion, whose rlx ops the conversion lowers in turn
/// (three contractions: the adapter's two are not one loop nest with the
/// main product).
struct LoraMatmulToPrimitives : OpConversionPattern<LoraMatmulOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(LoraMatmulOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOp(op, op.unfuse(rewriter));
    return success();
  }
};
} // namespace

void mlir::rlx::populateFusedOpToLinalgPatterns(RewritePatternSet &patterns) {
  patterns.add<SwigluToGeneric, MatmulBiasActToLinalg, MatmulResidualToLinalg,
               ConvBiasActToLinalg, LoraMatmulToPrimitives>(
      patterns.getContext());
}
