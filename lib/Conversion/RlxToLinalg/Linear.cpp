//===- Linear.cpp - rlx.matmul to linalg ----------------------------------===//
#include "Utils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "rlx/Conversion/RlxToLinalg/RlxToLinalg.h"
#include "rlx/Dialect/Rlx/IR/RlxOps.h"

using namespace mlir;
using namespace mlir::rlx;

/// Rank-2 products become linalg.matmul; batched ones a contraction generic
/// whose indexing maps broadcast the batch dimensions.
Value mlir::rlx::createMatmulAccumulation(OpBuilder &b, Location loc, Value lhs,
                                          Value rhs,
                                          RankedTensorType accTensorType) {
  Type accType = accTensorType.getElementType();
  Value zero =
      arith::ConstantOp::create(b, loc, accType, b.getZeroAttr(accType));
  auto lhsType = cast<RankedTensorType>(lhs.getType());
  auto rhsType = cast<RankedTensorType>(rhs.getType());
  auto createAccumulator = [&](ArrayRef<OpFoldResult> sizes) {
    Value empty = createEmptyTensor(b, loc, sizes, accType);
    return linalg::FillOp::create(b, loc, zero, empty).getResult(0);
  };
  if (lhsType.getRank() == 2 && rhsType.getRank() == 2) {
    Value acc = createAccumulator({tensor::getMixedSize(b, loc, lhs, 0),
                                   tensor::getMixedSize(b, loc, rhs, 1)});
    return linalg::MatmulOp::create(b, loc, ValueRange{lhs, rhs},
                                    ValueRange{acc})
        .getResult(0);
  }

  // Loops: (batch..., m, n, k).
  int64_t batchRank = accTensorType.getRank() - 2;
  int64_t numLoops = batchRank + 3;
  MLIRContext *ctx = b.getContext();
  auto dim = [&](int64_t d) { return getAffineDimExpr(d, ctx); };
  AffineExpr m = dim(batchRank), n = dim(batchRank + 1), k = dim(batchRank + 2);
  auto operandMap = [&](RankedTensorType type, AffineExpr row, AffineExpr col) {
    ArrayRef<int64_t> shape = type.getShape();
    int64_t lead = batchRank - (type.getRank() - 2);
    SmallVector<AffineExpr> exprs;
    // A batch of one broadcasts (index 0) unless the result's batch is one
    // too: then the loop is the index, and the map stays a projection that
    // the contraction schedules recognize.
    for (int64_t d = 0; d < type.getRank() - 2; ++d)
      exprs.push_back(shape[d] == 1 && accTensorType.getDimSize(lead + d) != 1
                          ? getAffineConstantExpr(0, ctx)
                          : dim(lead + d));
    exprs.push_back(row);
    exprs.push_back(col);
    return AffineMap::get(numLoops, 0, exprs, ctx);
  };
  SmallVector<AffineExpr> outExprs;
  for (int64_t d = 0; d < batchRank; ++d)
    outExprs.push_back(dim(d));
  outExprs.push_back(m);
  outExprs.push_back(n);
  SmallVector<AffineMap> maps = {operandMap(lhsType, m, k),
                                 operandMap(rhsType, k, n),
                                 AffineMap::get(numLoops, 0, outExprs, ctx)};
  SmallVector<int64_t> loopShape(accTensorType.getShape());
  loopShape.push_back(lhsType.getShape().back());
  SmallVector<OpFoldResult> loopSizes = getLoopSizes(
      b, loc, loopShape, ValueRange{lhs, rhs}, ArrayRef(maps).take_front(2));
  Value acc = createAccumulator(ArrayRef(loopSizes).drop_back());
  SmallVector<utils::IteratorType> iterators(numLoops,
                                             utils::IteratorType::parallel);
  iterators.back() = utils::IteratorType::reduction;
  return linalg::GenericOp::create(
             b, loc, accTensorType, ValueRange{lhs, rhs}, acc, maps, iterators,
             [&](OpBuilder &nested, Location bodyLoc, ValueRange args) {
               ScalarBuilder scalar(nested, bodyLoc);
               Value a = scalar.convert(args[0], accType);
               Value c = scalar.convert(args[1], accType);
               linalg::YieldOp::create(nested, bodyLoc,
                                       scalar.add(args[2], scalar.mul(a, c)));
             })
      .getResult(0);
}

namespace {
/// f16/bf16 accumulate in f32 and round once at the end.
struct MatmulToLinalg : OpConversionPattern<MatmulOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(MatmulOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType resultType = op.getType();
    Type storage = resultType.getElementType();
    Value product = createMatmulAccumulation(
        rewriter, loc, adaptor.getLhs(), adaptor.getRhs(),
        resultType.clone(ScalarBuilder::computeType(storage)));
    rewriter.replaceOp(op, convertElements(rewriter, loc, product, storage));
    return success();
  }
};
} // namespace

void mlir::rlx::populateLinearToLinalgPatterns(RewritePatternSet &patterns) {
  patterns.add<MatmulToLinalg>(patterns.getContext());
}
