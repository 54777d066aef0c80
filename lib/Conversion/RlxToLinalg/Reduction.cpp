//===- Reduction.cpp - rlx reductions and softmax to linalg ---------------===//
#include "Utils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "rlx/Conversion/RlxToLinalg/RlxToLinalg.h"
#include "rlx/Dialect/Rlx/IR/RlxOps.h"

#include <limits>

using namespace mlir;
using namespace mlir::rlx;

/// The identity of `kind` in `type` (mean accumulates a sum).
static Value createIdentity(OpBuilder &b, Location loc, ReduceKind kind,
                            Type type) {
  TypedAttr attr;
  if (auto floatType = dyn_cast<FloatType>(type)) {
    const llvm::fltSemantics &sem = floatType.getFloatSemantics();
    switch (kind) {
    case ReduceKind::Sum:
    case ReduceKind::Mean:
      attr = b.getFloatAttr(type, 0.0);
      break;
    case ReduceKind::Prod:
      attr = b.getFloatAttr(type, 1.0);
      break;
    case ReduceKind::Max:
      attr = b.getFloatAttr(type, APFloat::getInf(sem, /*Negative=*/true));
      break;
    case ReduceKind::Min:
      attr = b.getFloatAttr(type, APFloat::getInf(sem, /*Negative=*/false));
      break;
    }
  } else {
    unsigned width = type.getIntOrFloatBitWidth();
    switch (kind) {
    case ReduceKind::Sum:
    case ReduceKind::Mean:
      attr = b.getIntegerAttr(type, 0);
      break;
    case ReduceKind::Prod:
      attr = b.getIntegerAttr(type, 1);
      break;
    case ReduceKind::Max:
      attr = b.getIntegerAttr(type, APInt::getSignedMinValue(width));
      break;
    case ReduceKind::Min:
      attr = b.getIntegerAttr(type, APInt::getSignedMaxValue(width));
      break;
    }
  }
  return arith::ConstantOp::create(b, loc, attr);
}

static Value combine(ScalarBuilder &b, ReduceKind kind, Value acc, Value x) {
  switch (kind) {
  case ReduceKind::Sum:
  case ReduceKind::Mean:
    return b.add(acc, x);
  case ReduceKind::Prod:
    return b.mul(acc, x);
  case ReduceKind::Max:
    return b.max(acc, x);
  case ReduceKind::Min:
    return b.min(acc, x);
  }
  llvm_unreachable("covered switch");
}

/// Reduces `input` over the sorted `axes` with `kind`, dropping them from the
/// shape. Accumulates in the computation type of the element type and
/// returns a tensor of that type. With `rowValue`, each input element is
/// first transformed by `rowValue(x, row)` where `row` is the element of
/// `rowOperand` (shaped like the result) at the same kept indices.
static Value reduceAxes(
    OpBuilder &b, Location loc, Value input, ArrayRef<int64_t> axes,
    ReduceKind kind, Value rowOperand = {},
    function_ref<Value(ScalarBuilder &, Value, Value)> rowValue = nullptr) {
  auto inputType = cast<RankedTensorType>(input.getType());
  int64_t rank = inputType.getRank();
  Type accType = ScalarBuilder::computeType(inputType.getElementType());
  SmallVector<int64_t> shape;
  SmallVector<AffineExpr> kept;
  SmallVector<utils::IteratorType> iterators;
  for (int64_t d = 0; d < rank; ++d) {
    bool reduced = llvm::is_contained(axes, d);
    iterators.push_back(reduced ? utils::IteratorType::reduction
                                : utils::IteratorType::parallel);
    if (!reduced) {
      shape.push_back(inputType.getDimSize(d));
      kept.push_back(b.getAffineDimExpr(d));
    }
  }
  auto resultType = RankedTensorType::get(shape, accType);
  Value init = createFilledTensor(b, loc, resultType,
                                  createIdentity(b, loc, kind, accType));
  AffineMap keptMap = AffineMap::get(rank, 0, kept, b.getContext());
  SmallVector<Value> inputs = {input};
  SmallVector<AffineMap> maps = {b.getMultiDimIdentityMap(rank)};
  if (rowOperand) {
    inputs.push_back(rowOperand);
    maps.push_back(keptMap);
  }
  maps.push_back(keptMap);
  auto generic = linalg::GenericOp::create(
      b, loc, resultType, inputs, init, maps, iterators,
      [&](OpBuilder &nested, Location bodyLoc, ValueRange args) {
        ScalarBuilder scalar(nested, bodyLoc);
        Value x = scalar.convert(args[0], accType);
        if (rowValue)
          x = rowValue(scalar, x, args[1]);
        linalg::YieldOp::create(nested, bodyLoc,
                                combine(scalar, kind, args.back(), x));
      });
  return generic.getResult(0);
}

namespace {
struct ReduceToLinalg : OpConversionPattern<ReduceOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(ReduceOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    SmallVector<int64_t> axes = op.getNormalizedAxes();
    Value result =
        reduceAxes(rewriter, loc, adaptor.getInput(), axes, op.getKind());
    auto accType = cast<RankedTensorType>(result.getType());
    if (op.getKind() == ReduceKind::Mean) {
      int64_t count = 1;
      for (int64_t axis : axes)
        count *= op.getInput().getType().getDimSize(axis);
      result = mapElements(
          rewriter, loc, result, accType,
          [&](OpBuilder &b, Location bodyLoc, Value sum) {
            ScalarBuilder scalar(b, bodyLoc);
            return scalar.div(sum, scalar.constant(sum, count));
          });
    }
    Type storage = op.getType().getElementType();
    result = convertElements(rewriter, loc, result, storage);
    if (op.getKeepDim()) {
      result = tensor::ExpandShapeOp::create(
          rewriter, loc, op.getType(), result,
          getKeepDimReassociation(op.getType().getRank(), axes));
    }
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// softmax = exp(x - max) / sum(exp(x - max)): a max pass, a pass that
/// stages e = exp(x - max), a sum pass over e and a divide pass. Staging e
/// (storing a value a later pass needs) computes each exp once instead of
/// twice, which is what bounds this op on CPU.
/// log_softmax = x - max - log(sum(exp(x - max))): a max pass, an exp-sum
/// pass and one elementwise pass. f16/bf16 compute in f32.
template <typename OpTy, bool isLog>
struct SoftmaxToLinalg : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  using OpAdaptor = typename OpTy::Adaptor;

  LogicalResult
  matchAndRewrite(OpTy op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value input = adaptor.getInput();
    RankedTensorType type = op.getType();
    int64_t axis = op.getNormalizedAxis();
    int64_t rank = type.getRank();
    SmallVector<AffineExpr> kept;
    for (int64_t d = 0; d < rank; ++d)
      if (d != axis)
        kept.push_back(rewriter.getAffineDimExpr(d));
    AffineMap identity = rewriter.getMultiDimIdentityMap(rank);
    AffineMap rowMap = AffineMap::get(rank, 0, kept, rewriter.getContext());
    SmallVector<utils::IteratorType> iterators(rank,
                                               utils::IteratorType::parallel);
    Type storage = type.getElementType();
    Type computeType = ScalarBuilder::computeType(storage);
    // A parallel pass over the full shape reading `inputs` (full, then
    // per-row values) and yielding `body(args)` as `resultType`.
    auto rowwisePass = [&](RankedTensorType resultType, ValueRange inputs,
                           function_ref<Value(ScalarBuilder &, ValueRange)>
                               body) {
      SmallVector<AffineMap> maps = {identity};
      maps.append(inputs.size() - 1, rowMap);
      maps.push_back(identity);
      return linalg::GenericOp::create(
                 rewriter, loc, resultType, inputs,
                 createEmptyTensor(rewriter, loc, resultType), maps, iterators,
                 [&](OpBuilder &b, Location bodyLoc, ValueRange args) {
                   ScalarBuilder scalar(b, bodyLoc);
                   linalg::YieldOp::create(b, bodyLoc, body(scalar, args));
                 })
          .getResult(0);
    };

    Value rowMax = reduceAxes(rewriter, loc, input, axis, ReduceKind::Max);
    Value result;
    if constexpr (isLog) {
      Value rowSum = reduceAxes(
          rewriter, loc, input, axis, ReduceKind::Sum, rowMax,
          [](ScalarBuilder &b, Value x, Value max) {
            return b.exp(b.sub(x, max));
          });
      result = rowwisePass(
          type, ValueRange{input, rowMax, rowSum},
          [&](ScalarBuilder &b, ValueRange args) {
            Value shifted = b.sub(b.convert(args[0], computeType), args[1]);
            return b.convert(b.sub(shifted, b.log(args[2])), storage);
          });
    } else {
      Value exps = rowwisePass(
          type.clone(computeType), ValueRange{input, rowMax},
          [&](ScalarBuilder &b, ValueRange args) {
            return b.exp(b.sub(b.convert(args[0], computeType), args[1]));
          });
      Value rowSum = reduceAxes(rewriter, loc, exps, axis, ReduceKind::Sum);
      result = rowwisePass(type, ValueRange{exps, rowSum},
                           [&](ScalarBuilder &b, ValueRange args) {
                             return b.convert(b.div(args[0], args[1]),
                                              storage);
                           });
    }
    rewriter.replaceOp(op, result);
    return success();
  }
};
} // namespace

void mlir::rlx::populateReductionToLinalgPatterns(
    RewritePatternSet &patterns) {
  patterns.add<ReduceToLinalg, SoftmaxToLinalg<SoftmaxOp, false>,
               SoftmaxToLinalg<LogSoftmaxOp, true>>(patterns.getContext());
}
