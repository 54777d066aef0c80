//===- ControlFlow.cpp - rlx.if, rlx.while, rlx.scan to scf; custom_fn ----===//
//
// The control-flow ops become their scf counterparts on tensors, their
// regions moved in (the ops inside are converted as any others):
//
//   rlx.if     scf.if on the condition's element
//   rlx.while  scf.while: the condition region before (its tensor<i1>
//              read and passed to scf.condition with the carried values),
//              the body after
//   rlx.scan   scf.for over the positions carrying the carried values and
//              the stacked outputs: each step extracts the xs' slices at
//              its position (the last first with `reverse`) and inserts the
//              body's y slices there; the stacked outputs start as
//              tensor.empty of the sizes the op's shape rule gives.
//   rlx.custom_fn  its body inlined (its backward is --rlx-autodiff's).
//
// Bufferization later writes the carried tensors in place where it can, so
// a step reuses its buffers; the codegen layer tiles the ops inside each
// region as it tiles a function body's.
//
//===----------------------------------------------------------------------===//
#include "Utils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "rlx/Conversion/RlxToLinalg/RlxToLinalg.h"
#include "rlx/Dialect/Rlx/IR/RlxOps.h"

using namespace mlir;
using namespace mlir::rlx;

/// Moves the single block of `from` into the empty region `to`.
static void moveRegion(ConversionPatternRewriter &rewriter, Region &from,
                       Region &to) {
  rewriter.inlineRegionBefore(from, to, to.end());
}

/// `values` cast to `types` where a value's type is a static refinement of
/// the type required.
static SmallVector<Value> castTo(OpBuilder &b, Location loc, ValueRange values,
                                 TypeRange types) {
  SmallVector<Value> cast;
  for (auto [value, type] : llvm::zip(values, types))
    cast.push_back(value.getType() == type
                       ? value
                       : tensor::CastOp::create(b, loc, type, value));
  return cast;
}

namespace {
struct IfToScf : OpConversionPattern<IfOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(IfOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value condition = tensor::ExtractOp::create(
        rewriter, loc, adaptor.getCondition(), ValueRange());
    auto ifOp = scf::IfOp::create(rewriter, loc, op.getResultTypes(), condition,
                                  /*addThenBlock=*/false,
                                  /*addElseBlock=*/false);
    for (auto [from, to] :
         {std::pair{&op.getThenRegion(), &ifOp.getThenRegion()},
          std::pair{&op.getElseRegion(), &ifOp.getElseRegion()}}) {
      auto yield = cast<YieldOp>(from->front().getTerminator());
      moveRegion(rewriter, *from, *to);
      rewriter.setInsertionPoint(yield);
      rewriter.replaceOpWithNewOp<scf::YieldOp>(
          yield, castTo(rewriter, loc, yield.getValues(), op.getResultTypes()));
    }
    rewriter.replaceOp(op, ifOp.getResults());
    return success();
  }
};

struct WhileToScf : OpConversionPattern<WhileOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(WhileOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto whileOp = scf::WhileOp::create(rewriter, loc, op.getResultTypes(),
                                        adaptor.getInits());
    auto conditionYield =
        cast<YieldOp>(op.getConditionRegion().front().getTerminator());
    auto bodyYield = cast<YieldOp>(op.getBody().front().getTerminator());
    moveRegion(rewriter, op.getConditionRegion(), whileOp.getBefore());
    moveRegion(rewriter, op.getBody(), whileOp.getAfter());

    rewriter.setInsertionPoint(conditionYield);
    Value condition = tensor::ExtractOp::create(
        rewriter, loc, conditionYield.getValues().front(), ValueRange());
    rewriter.replaceOpWithNewOp<scf::ConditionOp>(
        conditionYield, condition, whileOp.getBefore().getArguments());
    rewriter.setInsertionPoint(bodyYield);
    rewriter.replaceOpWithNewOp<scf::YieldOp>(bodyYield, bodyYield.getValues());
    rewriter.replaceOp(op, whileOp.getResults());
    return success();
  }
};

struct ScanToScf : OpConversionPattern<ScanOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(ScanOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    int64_t numCarried = op.getInits().size();
    // `axis` of an x or a stacked y (a negative axis counts from the end of
    // each).
    auto axisOf = [&](Value value) {
      int64_t rank = cast<RankedTensorType>(value.getType()).getRank();
      return op.getAxis() < 0 ? op.getAxis() + rank : op.getAxis();
    };

    // The sizes of every result, for the stacked outputs' tensors.
    ReifiedRankedShapedTypeDims sizes;
    if (failed(reifyResultShapes(rewriter, op, sizes)))
      return op.emitOpError("cannot lower: the sizes of a stacked output "
                            "depend on the iterations' values");
    Value length;
    if (ValueRange xs = adaptor.getXs(); !xs.empty())
      length = getValueOrCreateConstantIndexOp(
          rewriter, loc,
          tensor::getMixedSize(rewriter, loc, xs.front(), axisOf(xs.front())));
    else
      length = arith::ConstantIndexOp::create(rewriter, loc, *op.getLength());

    SmallVector<Value> iterArgs(adaptor.getInits());
    for (auto [result, resultSizes] : llvm::zip(
             op.getStackedOutputs(), ArrayRef(sizes).drop_front(numCarried)))
      iterArgs.push_back(tensor::EmptyOp::create(
          rewriter, loc, resultSizes,
          cast<RankedTensorType>(result.getType()).getElementType()));
    Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
    Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
    auto forOp = scf::ForOp::create(rewriter, loc, zero, length, one, iterArgs);

    // The step's position and the xs' slices there. (A loop without
    // iteration arguments comes with a terminator; the body brings its own.)
    Block *step = forOp.getBody();
    if (!step->empty())
      rewriter.eraseOp(step->getTerminator());
    rewriter.setInsertionPointToStart(step);
    Value position = forOp.getInductionVar();
    if (op.getReverse())
      position = arith::SubIOp::create(
          rewriter, loc, arith::SubIOp::create(rewriter, loc, length, one),
          position);
    auto sliceAt = [&](OpBuilder &b, Value whole) {
      auto type = cast<RankedTensorType>(whole.getType());
      SmallVector<OpFoldResult> offsets(type.getRank(), b.getIndexAttr(0));
      SmallVector<OpFoldResult> strides(type.getRank(), b.getIndexAttr(1));
      SmallVector<OpFoldResult> extents = tensor::getMixedSizes(b, loc, whole);
      offsets[axisOf(whole)] = position;
      extents[axisOf(whole)] = b.getIndexAttr(1);
      return std::tuple{offsets, extents, strides};
    };
    SmallVector<Value> arguments(
        forOp.getRegionIterArgs().take_front(numCarried));
    for (Value x : adaptor.getXs()) {
      auto [offsets, extents, strides] = sliceAt(rewriter, x);
      auto sliceType = cast<RankedTensorType>(
          op.getBody().front().getArgument(arguments.size()).getType());
      arguments.push_back(tensor::ExtractSliceOp::create(
          rewriter, loc, sliceType, x, offsets, extents, strides));
    }
    auto yield = cast<YieldOp>(op.getBody().front().getTerminator());
    rewriter.mergeBlocks(&op.getBody().front(), step, arguments);

    // The next carried values, and each y slice inserted at the position.
    rewriter.setInsertionPoint(yield);
    SmallVector<Value> next(yield.getValues().take_front(numCarried));
    for (auto [slice, stacked] :
         llvm::zip(yield.getValues().drop_front(numCarried),
                   forOp.getRegionIterArgs().drop_front(numCarried))) {
      auto [offsets, extents, strides] = sliceAt(rewriter, stacked);
      next.push_back(tensor::InsertSliceOp::create(
          rewriter, loc, slice, stacked, offsets, extents, strides));
    }
    rewriter.replaceOpWithNewOp<scf::YieldOp>(yield, next);
    rewriter.replaceOp(op, forOp.getResults());
    return success();
  }
};

struct InlineCustomFn : OpConversionPattern<CustomFnOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(CustomFnOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Block &body = op.getBody().front();
    auto yield = cast<YieldOp>(body.getTerminator());
    SmallVector<Value> results(yield.getValues());
    rewriter.inlineBlockBefore(&body, op, adaptor.getInputs());
    rewriter.eraseOp(yield);
    rewriter.replaceOp(op, results);
    return success();
  }
};
} // namespace

void mlir::rlx::populateControlFlowToScfPatterns(RewritePatternSet &patterns) {
  patterns.add<IfToScf, WhileToScf, ScanToScf, InlineCustomFn>(
      patterns.getContext());
}
