//===- Sample.cpp - rlx.sample as its expansion ---------------------------===//
//
// rlx.sample becomes the rlx ops its definition names (RlxSampleOps.td),
// which the same conversion then lowers: a stable descending rlx.sort,
// exp of the sorted logits minus the row maximum, sequential rlx.cumsum
// scans (the counts too, as integer running sums), comparisons and
// rlx.gather_elements; the rows' uniforms are one parallel linalg.generic
// computing rlx.rng_uniform's element formula from the row index (a generic
// rather than rlx.rng_uniform so the rows may be `?`). Every step is either
// elementwise, a gather or a sequential scan, so the token does
// not depend on the schedule.
//
//===----------------------------------------------------------------------===//
#include "Utils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "rlx/Conversion/RlxToLinalg/RlxToLinalg.h"
#include "rlx/Dialect/Rlx/IR/Random.h"
#include "rlx/Dialect/Rlx/IR/RlxOps.h"

using namespace mlir;
using namespace mlir::rlx;

/// A rank-0 constant of `element`.
static Value scalarConstant(OpBuilder &b, Location loc, Type element,
                            Attribute value) {
  return ConstantOp::create(
      b, loc,
      DenseElementsAttr::get(RankedTensorType::get({}, element), value));
}

/// `[..., 1]` (`F`): element `r` is rlx.rng_uniform's element `r` of the
/// stream of `seed` at `offset`, `r` the row-major index of the row.
static Value createRowUniforms(OpBuilder &b, Location loc, Value logits,
                               Value seed, Value offset, FloatType compute) {
  auto logitsType = cast<RankedTensorType>(logits.getType());
  int64_t rank = logitsType.getRank();
  SmallVector<OpFoldResult> sizes = tensor::getMixedSizes(b, loc, logits);
  sizes.back() = b.getIndexAttr(1);
  SmallVector<int64_t> shape(logitsType.getShape());
  shape.back() = 1;
  auto type = RankedTensorType::get(shape, compute);
  // Row-major strides of the rows (the last dimension has size 1).
  SmallVector<Value> strides(rank);
  Value stride = arith::ConstantIndexOp::create(b, loc, 1);
  for (int64_t d = rank - 1; d >= 0; --d) {
    strides[d] = stride;
    stride = arith::MulIOp::create(
        b, loc, stride, getValueOrCreateConstantIndexOp(b, loc, sizes[d]));
  }
  AffineMap scalarMap = AffineMap::get(rank, 0, b.getContext());
  SmallVector<AffineMap> maps = {scalarMap, scalarMap,
                                 b.getMultiDimIdentityMap(rank)};
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  return linalg::GenericOp::create(
             b, loc, type, ValueRange{seed, offset},
             createEmptyTensor(b, loc, sizes, compute), maps, iterators,
             [&](OpBuilder &nested, Location bodyLoc, ValueRange args) {
               Value linear =
                   arith::ConstantIndexOp::create(nested, bodyLoc, 0);
               for (int64_t d = 0; d < rank - 1; ++d) {
                 Value index = linalg::IndexOp::create(nested, bodyLoc, d);
                 linear = arith::AddIOp::create(
                     nested, bodyLoc, linear,
                     arith::MulIOp::create(nested, bodyLoc, index, strides[d]));
               }
               Value row = arith::IndexCastOp::create(
                   nested, bodyLoc, nested.getI64Type(), linear);
               Value word =
                   random::buildWord(nested, bodyLoc, row, args[0], args[1]);
               linalg::YieldOp::create(nested, bodyLoc,
                                       random::buildUniform(nested, bodyLoc,
                                                            word, compute, 0.0,
                                                            1.0));
             })
      .getResult(0);
}

/// Drops the size-1 last dimension of `value` (`[..., 1] -> [...]`).
static Value dropLastUnitDim(OpBuilder &b, Location loc, Value value) {
  auto type = cast<RankedTensorType>(value.getType());
  int64_t rank = type.getRank();
  SmallVector<ReassociationIndices> groups;
  for (int64_t d = 0; d + 2 < rank; ++d)
    groups.push_back({d});
  if (rank >= 2)
    groups.push_back({rank - 2, rank - 1});
  auto resultType =
      RankedTensorType::get(type.getShape().drop_back(), type.getElementType());
  return tensor::CollapseShapeOp::create(b, loc, resultType, value, groups);
}

/// The expansion of `op` (RlxSampleOps.td), reading `logits`, `seed` and
/// `offset`.
static Value expandSample(OpBuilder &b, SampleOp op, Value logits, Value seed,
                          Value offset) {
  Location loc = op.getLoc();
  auto logitsType = cast<RankedTensorType>(logits.getType());
  RankedTensorType resultType = op.getType();
  Type resultElement = resultType.getElementType();
  double temperature = op.getTemperature().convertToDouble();
  if (temperature == 0)
    return ArgMaxOp::create(b, loc, resultType, logits, /*axis=*/-1);

  int64_t vocabulary = logitsType.getShape().back();
  int64_t topK = op.getTopK();
  double topP = op.getTopP().convertToDouble();
  Type i64 = b.getI64Type();
  FloatType compute =
      logitsType.getElementType().isF64() ? b.getF64Type() : b.getF32Type();

  // x = logits / temperature in F, sorted descending (stable).
  Value x = logits;
  if (logitsType.getElementType() != compute)
    x = CastOp::create(b, loc, logitsType.clone(compute), x);
  if (temperature != 1.0)
    x = DivOp::create(
        b, loc, x,
        scalarConstant(b, loc, compute, b.getFloatAttr(compute, temperature)));
  // With top_k, only the k best are ever kept: rlx.topk (a heap per row,
  // O(V log k)) orders them as the stable descending sort would (ties by
  // position, NaN first), so the rest of the row is never sorted.
  Value sorted, order;
  int64_t width = vocabulary;
  if (topK > 0 && topK < vocabulary) {
    auto top = TopKOp::create(b, loc, x, b.getI64IntegerAttr(topK));
    sorted = top.getValues();
    order = top.getIndices();
    width = topK;
  } else {
    auto sort = SortOp::create(b, loc, x, /*axis=*/-1, /*descending=*/true);
    sorted = sort.getValues();
    order = sort.getIndices();
  }

  // e = exp(s - s[0]).
  Value rowMax = SliceOp::create(b, loc, sorted, /*axis=*/-1, /*start=*/0,
                                 /*length=*/1, /*step=*/1);
  Value e = ExpOp::create(b, loc, SubOp::create(b, loc, sorted, rowMax));

  // The kept prefix: e > 0 and, for top_p < 1, exclusive sum < top_p * T.
  Value cumulative = CumsumOp::create(b, loc, e, /*axis=*/-1);
  Value zero = scalarConstant(b, loc, compute, b.getFloatAttr(compute, 0.0));
  Value kept = GtOp::create(b, loc, e, zero);
  if (topP < 1.0) {
    Value before = CumsumOp::create(b, loc, e, /*axis=*/-1,
                                    /*exclusive=*/true);
    Value total = SliceOp::create(b, loc, cumulative, /*axis=*/-1,
                                  /*start=*/width - 1, /*length=*/1,
                                  /*step=*/1);
    Value threshold = MulOp::create(
        b, loc, total,
        scalarConstant(b, loc, compute, b.getFloatAttr(compute, topP)));
    kept =
        BitAndOp::create(b, loc, kept, LtOp::create(b, loc, before, threshold));
  }

  // n = the number kept; M = c[max(n - 1, 0)], t = u * M; the counts are
  // the last elements of integer running sums (exact, and scans rather
  // than reductions: the pattern runs after --rlx-to-linalg has wrapped the
  // graph's reductions in regions).
  auto i64Scalar = [&](int64_t value) {
    return scalarConstant(b, loc, i64, b.getI64IntegerAttr(value));
  };
  auto countOf = [&](Value condition) -> Value {
    auto type = cast<RankedTensorType>(condition.getType());
    Value counts = CastOp::create(b, loc, type.clone(i64), condition);
    return SliceOp::create(b, loc, CumsumOp::create(b, loc, counts, -1),
                           /*axis=*/-1, /*start=*/width - 1,
                           /*length=*/1, /*step=*/1);
  };
  Value keptCount = countOf(kept);
  Value last = MaxOp::create(
      b, loc, SubOp::create(b, loc, keptCount, i64Scalar(1)), i64Scalar(0));
  Value mass = GatherElementsOp::create(b, loc, cumulative, last, /*axis=*/-1);
  Value u = createRowUniforms(b, loc, logits, seed, offset, compute);
  Value target = MulOp::create(b, loc, u, mass);

  // j = min(#{kept i : c[i] <= t}, max(n - 1, 0)).
  Value below = countOf(
      BitAndOp::create(b, loc, kept, LeOp::create(b, loc, cumulative, target)));
  Value position = MinOp::create(b, loc, below, last);
  Value token = GatherElementsOp::create(b, loc, order, position, /*axis=*/-1);
  if (resultElement != i64) {
    auto type = cast<RankedTensorType>(token.getType());
    token = CastOp::create(b, loc, type.clone(resultElement), token);
  }
  return dropLastUnitDim(b, loc, token);
}

namespace {
struct SampleToPrimitives : OpConversionPattern<SampleOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(SampleOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOp(op,
                       expandSample(rewriter, op, adaptor.getLogits(),
                                    adaptor.getSeed(), adaptor.getOffset()));
    return success();
  }
};
} // namespace

void mlir::rlx::populateSampleToLinalgPatterns(RewritePatternSet &patterns) {
  patterns.add<SampleToPrimitives>(patterns.getContext());
}
