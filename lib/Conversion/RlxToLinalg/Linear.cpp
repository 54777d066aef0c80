//===- Linear.cpp - rlx.matmul to linalg ----------------------------------===//
#include "Utils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "rlx/Conversion/RlxToLinalg/RlxToLinalg.h"
#include "rlx/Dialect/Rlx/IR/RlxOps.h"

using namespace mlir;
using namespace mlir::rlx;

namespace {
/// Rank-2 products become linalg.matmul; batched ones a contraction generic
/// whose indexing maps broadcast the batch dimensions. f16/bf16 accumulate
/// in f32 and round once at the end.
struct MatmulToLinalg : OpConversionPattern<MatmulOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(MatmulOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType resultType = op.getType();
    Type storage = resultType.getElementType();
    Type accType = ScalarBuilder::computeType(storage);
    auto accTensorType = resultType.clone(accType);
    Value zero = arith::ConstantOp::create(rewriter, loc, accType,
                                           rewriter.getZeroAttr(accType));
    Value acc = createFilledTensor(rewriter, loc, accTensorType, zero);
    Value lhs = adaptor.getLhs(), rhs = adaptor.getRhs();
    auto lhsType = cast<RankedTensorType>(lhs.getType());
    auto rhsType = cast<RankedTensorType>(rhs.getType());

    Value product;
    if (lhsType.getRank() == 2 && rhsType.getRank() == 2) {
      product = linalg::MatmulOp::create(rewriter, loc, ValueRange{lhs, rhs},
                                         ValueRange{acc})
                    .getResult(0);
    } else {
      // Loops: (batch..., m, n, k).
      int64_t batchRank = resultType.getRank() - 2;
      int64_t numLoops = batchRank + 3;
      MLIRContext *ctx = rewriter.getContext();
      auto dim = [&](int64_t d) { return getAffineDimExpr(d, ctx); };
      AffineExpr m = dim(batchRank), n = dim(batchRank + 1),
                 k = dim(batchRank + 2);
      auto operandMap = [&](RankedTensorType type, AffineExpr row,
                            AffineExpr col) {
        ArrayRef<int64_t> shape = type.getShape();
        int64_t lead = batchRank - (type.getRank() - 2);
        SmallVector<AffineExpr> exprs;
        for (int64_t d = 0; d < type.getRank() - 2; ++d)
          exprs.push_back(shape[d] == 1 ? getAffineConstantExpr(0, ctx)
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
      SmallVector<AffineMap> maps = {
          operandMap(lhsType, m, k), operandMap(rhsType, k, n),
          AffineMap::get(numLoops, 0, outExprs, ctx)};
      SmallVector<utils::IteratorType> iterators(numLoops,
                                                 utils::IteratorType::parallel);
      iterators.back() = utils::IteratorType::reduction;
      product =
          linalg::GenericOp::create(
              rewriter, loc, accTensorType, ValueRange{lhs, rhs}, acc, maps,
              iterators,
              [&](OpBuilder &b, Location bodyLoc, ValueRange args) {
                ScalarBuilder scalar(b, bodyLoc);
                Value a = scalar.convert(args[0], accType);
                Value c = scalar.convert(args[1], accType);
                linalg::YieldOp::create(
                    b, bodyLoc, scalar.add(args[2], scalar.mul(a, c)));
              })
              .getResult(0);
    }
    rewriter.replaceOp(op, convertElements(rewriter, loc, product, storage));
    return success();
  }
};
} // namespace

void mlir::rlx::populateLinearToLinalgPatterns(RewritePatternSet &patterns) {
  patterns.add<MatmulToLinalg>(patterns.getContext());
}
