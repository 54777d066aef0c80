//===- Scatter.cpp - Scatters to rlx.scatter ------------------------------===//
//
// Every scatter becomes the destination-style rlx.scatter into its data,
// whose combiner is the reduction: the codegen layer tiles its parallel
// loops and steps through the others in order. scatter_elements addresses
// every data dimension but the axis by the update's own position, so only
// the axis is sequential.
//
//===----------------------------------------------------------------------===//
#include "Utils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Transforms/DialectConversion.h"
#include "rlx/Conversion/RlxToLinalg/RlxToLinalg.h"
#include "rlx/Dialect/Rlx/IR/RlxOps.h"
#include "rlx/Dialect/Rlx/IR/ScalarBuilder.h"

using namespace mlir;
using namespace mlir::rlx;

/// The combiner of `reduction`: the new element from an update and the
/// element it lands on.
static Value combine(ScalarBuilder &scalar, ScatterReduction reduction,
                     Value update, Value current) {
  switch (reduction) {
  case ScatterReduction::None:
    return update;
  case ScatterReduction::Add:
    return scalar.add(current, update);
  case ScatterReduction::Mul:
    return scalar.mul(current, update);
  case ScatterReduction::Max:
    return scalar.max(current, update);
  case ScatterReduction::Min:
    return scalar.min(current, update);
  }
  llvm_unreachable("every ScatterReduction case is handled above");
}

/// rlx.scatter of the updates into the data, with the schedule a user gave
/// on `op` kept for the tiled form.
static Value createDataScatter(OpBuilder &b, Operation *op, Value updates,
                               Value indices, Value data,
                               ArrayRef<int64_t> loopDims,
                               ArrayRef<int64_t> indexLoops,
                               ArrayRef<int64_t> indexDims,
                               ScatterReduction reduction) {
  Value result = createScatter(
      b, op->getLoc(), updates, indices, data, loopDims, indexLoops, indexDims,
      /*clampIndices=*/false,
      [&](ScalarBuilder &scalar, Value update, Value current) {
        return combine(scalar, reduction, update, current);
      });
  if (Attribute config = op->getAttr(LoweringConfigAttr::kAttrName))
    result.getDefiningOp()->setAttr(LoweringConfigAttr::kAttrName, config);
  return result;
}

namespace {
/// result[q with axis = indices[q]] = combine(., updates[q]): loop d
/// addresses data dimension d, except the axis, which indices address.
template <typename OpTy>
struct ScatterElementsToScatter : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  using OpAdaptor = typename OpTy::Adaptor;

  static ScatterReduction getReduction(OpTy op) {
    if constexpr (std::is_same_v<OpTy, ScatterAddOp>)
      return ScatterReduction::Add;
    else
      return op.getReduction();
  }

  LogicalResult
  matchAndRewrite(OpTy op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    int64_t rank = op.getType().getRank();
    int64_t axis = op.getNormalizedAxis();
    auto loopDims = llvm::to_vector(llvm::seq<int64_t>(0, rank));
    loopDims[axis] = -1;
    Value indices = appendUnitDim(rewriter, op.getLoc(), adaptor.getIndices());
    rewriter.replaceOp(
        op, createDataScatter(rewriter, op, adaptor.getUpdates(), indices,
                              adaptor.getData(), loopDims,
                              llvm::to_vector(llvm::seq<int64_t>(0, rank)),
                              {axis}, getReduction(op)));
    return success();
  }
};

/// updates [B..., i..., s...] into data [B..., k addressed..., s...]: the
/// batch loops address the batch dimensions and index indices with the i
/// loops, the s loops address the dimensions after the addressed ones.
struct ScatterNdToScatter : OpConversionPattern<ScatterNdOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(ScatterNdOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    int64_t rank = op.getType().getRank();
    int64_t batch = op.getBatchDims();
    RankedTensorType indicesType = op.getIndices().getType();
    int64_t depth = indicesType.getShape().back();
    int64_t indexLoopCount = indicesType.getRank() - 1;
    SmallVector<int64_t> loopDims;
    for (int64_t loop = 0; loop < indexLoopCount; ++loop)
      loopDims.push_back(loop < batch ? loop : -1);
    for (int64_t dim = batch + depth; dim < rank; ++dim)
      loopDims.push_back(dim);
    rewriter.replaceOp(
        op, createDataScatter(
                rewriter, op, adaptor.getUpdates(), adaptor.getIndices(),
                adaptor.getData(), loopDims,
                llvm::to_vector(llvm::seq<int64_t>(0, indexLoopCount)),
                llvm::to_vector(llvm::seq<int64_t>(batch, batch + depth)),
                op.getReduction()));
    return success();
  }
};
} // namespace

void mlir::rlx::populateScatterToLinalgPatterns(RewritePatternSet &patterns) {
  patterns.add<ScatterElementsToScatter<ScatterElementsOp>,
               ScatterElementsToScatter<ScatterAddOp>, ScatterNdToScatter>(
      patterns.getContext());
}
