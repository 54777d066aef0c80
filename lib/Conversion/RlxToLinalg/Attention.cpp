//===- Attention.cpp - Attention as online-softmax (flash) tiles ----------===//
//
// rlx.attention is computed the way FlashAttention does: for every batch,
// head and tile of queries, an scf.for over tiles of keys carries the running
// row maximum `m`, the running sum `l` of exp(s - m) and the output
// accumulator `acc`, all in the computation type. Each key tile computes its
// [Tq, Tk] scores, raises `m`, rescales `l` and `acc` by exp(m_old - m_new)
// and adds its own probabilities and their product with the value tile. Only
// [Tq, Tk] scores ever exist, never [S_q, S_k]: memory per head is O(S * D).
//
// Masks that are functions of positions (causal, sliding window) are
// computed from indices inside the tile loop, and the key tiles they hide
// entirely are never visited. Tiles have static sizes: the full tiles of an
// axis are one scf.for and the remainder of a size the tile does not divide
// is one more step with its own static size.
//
//===----------------------------------------------------------------------===//
#include "Utils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "rlx/Conversion/RlxToLinalg/RlxToLinalg.h"
#include "rlx/Dialect/Rlx/IR/RlxOps.h"

#include <limits>

using namespace mlir;
using namespace mlir::rlx;

static constexpr double kNegativeInfinity =
    -std::numeric_limits<double>::infinity();

/// The map of a `numLoops`-loop generic that reads the loops `dims`.
static AffineMap getLoopsMap(MLIRContext *context, int64_t numLoops,
                             ArrayRef<int64_t> dims) {
  SmallVector<AffineExpr> exprs;
  for (int64_t d : dims)
    exprs.push_back(getAffineDimExpr(d, context));
  return AffineMap::get(numLoops, 0, exprs, context);
}

using ElementBody = function_ref<Value(ScalarBuilder &, ValueRange args)>;

/// A generic writing `init` (read through the last of `maps`) from `inputs`;
/// `body` gets the element arguments, the init element last.
static Value createGeneric(OpBuilder &b, Location loc, ValueRange inputs,
                           Value init, ArrayRef<AffineMap> maps,
                           ArrayRef<utils::IteratorType> iterators,
                           ElementBody body) {
  auto generic = linalg::GenericOp::create(
      b, loc, init.getType(), inputs, init, maps, iterators,
      [&](OpBuilder &nested, Location bodyLoc, ValueRange args) {
        ScalarBuilder s(nested, bodyLoc);
        linalg::YieldOp::create(nested, bodyLoc, body(s, args));
      });
  return generic.getResult(0);
}

/// `m`, or 0 where `m` is -inf: the offset that exp(s - m) subtracts, so a
/// row that has seen only masked keys gives exp(-inf) = 0 rather than
/// exp(-inf - -inf) = NaN.
static Value getSafeMaximum(ScalarBuilder &s, Value m) {
  Value isEmpty = s.compare(ComparePredicate::eq, m,
                            s.constant(m, kNegativeInfinity));
  return s.select(isEmpty, s.constant(m, 0.0), m);
}

namespace {
/// The online-softmax state of one query tile.
struct RowState {
  /// [Tq]: the running maximum of the scores seen.
  Value maximum;
  /// [Tq]: the running sum of exp(score - maximum).
  Value sum;
  /// [Tq, Dv]: the running sum of exp(score - maximum) * v.
  Value acc;
};

/// Builds the loops of one rlx.attention op.
class AttentionBuilder {
public:
  AttentionBuilder(OpBuilder &b, AttentionOp op, Value q, Value k, Value v,
                   Value mask, AttentionTileSizes tiles)
      : b(b), loc(op.getLoc()), op(op), q(q), k(k), v(v), mask(mask),
        layout(op.getLayout()), maskKind(op.getMaskKind()),
        scale(op.getScaleOrDefault()) {
    RankedTensorType qType = op.getQ().getType();
    RankedTensorType kType = op.getK().getType();
    storage = qType.getElementType();
    computeType = ScalarBuilder::computeType(storage);
    int64_t sequenceAxis = AttentionOp::getSequenceAxis(layout);
    batch = qType.getDimSize(0);
    heads = op.getNumHeads();
    group = heads / op.getNumKvHeads();
    queries = qType.getDimSize(sequenceAxis);
    keys = kType.getDimSize(sequenceAxis);
    headDim = qType.getShape().back();
    vHeadDim = op.getV().getType().getShape().back();
    queryTile = std::min(tiles.query, queries);
    keyTile = std::min(tiles.key, keys);
    if (std::optional<APFloat> cap = op.getSoftcap())
      softcap = cap->convertToDouble();
    window = op.getWindow().value_or(0);
  }

  /// The op's results: `out`, then `logsumexp` when the op returns it.
  SmallVector<Value> build();

private:
  Value index(int64_t value) {
    return arith::ConstantIndexOp::create(b, loc, value);
  }
  bool hasPositionalMask() const {
    return maskKind == AttentionMask::Causal ||
           maskKind == AttentionMask::SlidingWindow;
  }

  /// The [length, features] tile of `source` (q, k, v or out in the op's
  /// layout) at batch `batchIndex`, head `head` and sequence `start`.
  SmallVector<OpFoldResult> getTileOffsets(Value batchIndex, Value head,
                                           Value start);
  SmallVector<OpFoldResult> getTileSizes(int64_t length, int64_t features);
  Value extractTile(Value source, Value batchIndex, Value head, Value start,
                    int64_t length, int64_t features);

  /// Attends the `length` queries from `queryStart` of (batchIndex, head) and
  /// inserts their rows into `results` (out, then logsumexp).
  SmallVector<Value> attendQueryTile(ValueRange results, Value batchIndex,
                                     Value head, Value queryStart,
                                     int64_t length);
  /// One key tile of `length` keys from `keyStart` folded into `state`;
  /// `kvHead` is the key/value head that query head `head` reads.
  RowState attendKeyTile(RowState state, Value qTile, Value batchIndex,
                         Value head, Value kvHead, Value queryStart,
                         Value keyStart, int64_t length);
  /// The scaled, capped, biased and masked [Tq, Tk] scores of a key tile.
  Value computeScores(Value qTile, Value kTile, Value batchIndex, Value head,
                      Value queryStart, Value keyStart, int64_t keyLength);

  OpBuilder &b;
  Location loc;
  AttentionOp op;
  Value q, k, v, mask;
  AttentionLayout layout;
  AttentionMask maskKind;
  double scale;
  std::optional<double> softcap;
  int64_t window;
  Type storage, computeType;
  int64_t batch, heads, group, queries, keys, headDim, vHeadDim;
  int64_t queryTile, keyTile;
};
} // namespace

SmallVector<OpFoldResult>
AttentionBuilder::getTileOffsets(Value batchIndex, Value head, Value start) {
  OpFoldResult zero = b.getIndexAttr(0);
  switch (layout) {
  case AttentionLayout::BSHD:
    return {batchIndex, start, head, zero};
  case AttentionLayout::BHSD:
    return {batchIndex, head, start, zero};
  case AttentionLayout::BSD:
    return {batchIndex, start, zero};
  }
  llvm_unreachable("unknown attention layout");
}

SmallVector<OpFoldResult> AttentionBuilder::getTileSizes(int64_t length,
                                                         int64_t features) {
  OpFoldResult one = b.getIndexAttr(1);
  OpFoldResult lengthAttr = b.getIndexAttr(length);
  OpFoldResult featuresAttr = b.getIndexAttr(features);
  switch (layout) {
  case AttentionLayout::BSHD:
    return {one, lengthAttr, one, featuresAttr};
  case AttentionLayout::BHSD:
    return {one, one, lengthAttr, featuresAttr};
  case AttentionLayout::BSD:
    return {one, lengthAttr, featuresAttr};
  }
  llvm_unreachable("unknown attention layout");
}

Value AttentionBuilder::extractTile(Value source, Value batchIndex, Value head,
                                    Value start, int64_t length,
                                    int64_t features) {
  auto type = RankedTensorType::get({length, features}, storage);
  int64_t rank = cast<RankedTensorType>(source.getType()).getRank();
  SmallVector<OpFoldResult> strides(rank, b.getIndexAttr(1));
  return tensor::ExtractSliceOp::create(
      b, loc, type, source, getTileOffsets(batchIndex, head, start),
      getTileSizes(length, features), strides);
}

Value AttentionBuilder::computeScores(Value qTile, Value kTile,
                                      Value batchIndex, Value head,
                                      Value queryStart, Value keyStart,
                                      int64_t keyLength) {
  MLIRContext *context = b.getContext();
  int64_t queryLength = cast<RankedTensorType>(qTile.getType()).getDimSize(0);
  auto scoresType =
      RankedTensorType::get({queryLength, keyLength}, computeType);
  Value zero =
      arith::ConstantOp::create(b, loc, b.getFloatAttr(computeType, 0));
  Value products = createGeneric(
      b, loc, {qTile, kTile}, createFilledTensor(b, loc, scoresType, zero),
      {getLoopsMap(context, 3, {0, 2}), getLoopsMap(context, 3, {1, 2}),
       getLoopsMap(context, 3, {0, 1})},
      {utils::IteratorType::parallel, utils::IteratorType::parallel,
       utils::IteratorType::reduction},
      [&](ScalarBuilder &s, ValueRange args) {
        return s.add(args[2], s.mul(s.convert(args[0], computeType),
                                    s.convert(args[1], computeType)));
      });

  // The mask operand's tile: [Tq, Tk] of the bias, or [Tk] of the padding.
  SmallVector<Value> inputs = {products};
  SmallVector<AffineMap> maps = {b.getMultiDimIdentityMap(2)};
  if (maskKind == AttentionMask::Bias) {
    ArrayRef<int64_t> biasShape =
        cast<RankedTensorType>(mask.getType()).getShape();
    OpFoldResult zeroIndex = b.getIndexAttr(0);
    SmallVector<OpFoldResult> offsets = {
        biasShape[0] == 1 ? zeroIndex : OpFoldResult(batchIndex),
        biasShape[1] == 1 ? zeroIndex : OpFoldResult(head), queryStart,
        keyStart};
    SmallVector<OpFoldResult> sizes = {
        b.getIndexAttr(1), b.getIndexAttr(1), b.getIndexAttr(queryLength),
        b.getIndexAttr(keyLength)};
    inputs.push_back(tensor::ExtractSliceOp::create(
        b, loc,
        RankedTensorType::get({queryLength, keyLength}, storage), mask,
        offsets, sizes, SmallVector<OpFoldResult>(4, b.getIndexAttr(1))));
    maps.push_back(b.getMultiDimIdentityMap(2));
  } else if (maskKind == AttentionMask::Padding) {
    auto maskType = cast<RankedTensorType>(mask.getType());
    inputs.push_back(tensor::ExtractSliceOp::create(
        b, loc, RankedTensorType::get({keyLength}, maskType.getElementType()),
        mask, ArrayRef<OpFoldResult>{batchIndex, keyStart},
        ArrayRef<OpFoldResult>{b.getIndexAttr(1), b.getIndexAttr(keyLength)},
        ArrayRef<OpFoldResult>{b.getIndexAttr(1), b.getIndexAttr(1)}));
    maps.push_back(getLoopsMap(context, 2, {1}));
  }
  maps.push_back(b.getMultiDimIdentityMap(2));

  // Query i of the tile sits at absolute position firstPosition + i, key j
  // at keyStart + j.
  Value firstPosition;
  if (hasPositionalMask())
    firstPosition = arith::AddIOp::create(b, loc, queryStart,
                                          index(keys - queries));
  return createGeneric(
      b, loc, inputs, createEmptyTensor(b, loc, scoresType), maps,
      {utils::IteratorType::parallel, utils::IteratorType::parallel},
      [&](ScalarBuilder &s, ValueRange args) {
        Value score = s.mul(args[0], s.constant(args[0], scale));
        if (softcap) {
          Value cap = s.constant(score, *softcap);
          score = s.mul(cap, s.tanh(s.div(score, cap)));
        }
        Value minusInf = s.constant(score, kNegativeInfinity);
        switch (maskKind) {
        case AttentionMask::None:
          return score;
        case AttentionMask::Bias:
          return s.add(score, s.convert(args[1], computeType));
        case AttentionMask::Padding: {
          Value valid = s.compare(ComparePredicate::ne, args[1],
                                  s.constant(args[1], 0.0));
          return s.select(valid, score, minusInf);
        }
        case AttentionMask::Causal:
        case AttentionMask::SlidingWindow: {
          OpBuilder &nested = s.getBuilder();
          Location bodyLoc = s.getLoc();
          Value position = arith::AddIOp::create(
              nested, bodyLoc, firstPosition,
              linalg::IndexOp::create(nested, bodyLoc, 0));
          Value key = arith::AddIOp::create(
              nested, bodyLoc, keyStart,
              linalg::IndexOp::create(nested, bodyLoc, 1));
          Value visible = arith::CmpIOp::create(
              nested, bodyLoc, arith::CmpIPredicate::sle, key, position);
          if (maskKind == AttentionMask::SlidingWindow) {
            Value oldest = arith::SubIOp::create(
                nested, bodyLoc, position,
                arith::ConstantIndexOp::create(nested, bodyLoc, window));
            visible = arith::AndIOp::create(
                nested, bodyLoc, visible,
                arith::CmpIOp::create(nested, bodyLoc,
                                      arith::CmpIPredicate::sge, key, oldest));
          }
          return s.select(visible, score, minusInf);
        }
        }
        llvm_unreachable("unknown attention mask");
      });
}

RowState AttentionBuilder::attendKeyTile(RowState state, Value qTile,
                                         Value batchIndex, Value head,
                                         Value kvHead, Value queryStart,
                                         Value keyStart, int64_t length) {
  MLIRContext *context = b.getContext();
  Value kTile = extractTile(k, batchIndex, kvHead, keyStart, length, headDim);
  Value vTile = extractTile(v, batchIndex, kvHead, keyStart, length, vHeadDim);
  Value scores = computeScores(qTile, kTile, batchIndex, head, queryStart,
                               keyStart, length);

  AffineMap rows2 = getLoopsMap(context, 2, {0});
  AffineMap identity1 = b.getMultiDimIdentityMap(1);
  AffineMap identity2 = b.getMultiDimIdentityMap(2);
  auto parallel = utils::IteratorType::parallel;
  auto reduction = utils::IteratorType::reduction;
  auto rowType = cast<RankedTensorType>(state.maximum.getType());

  // Every update of the carried state writes into it (destination-passing
  // style), so the key loop bufferizes in place.
  Value minusInf = arith::ConstantOp::create(
      b, loc, b.getFloatAttr(computeType, kNegativeInfinity));
  Value tileMaximum = createGeneric(
      b, loc, scores, createFilledTensor(b, loc, rowType, minusInf),
      {identity2, rows2}, {parallel, reduction},
      [](ScalarBuilder &s, ValueRange args) {
        return s.max(args[1], args[0]);
      });
  // exp(m_old - m_new): how much the running sums shrink as the maximum
  // rises.
  Value correction = createGeneric(
      b, loc, {state.maximum, tileMaximum}, createEmptyTensor(b, loc, rowType),
      {identity1, identity1, identity1}, {parallel},
      [](ScalarBuilder &s, ValueRange args) {
        Value maximum = s.max(args[0], args[1]);
        return s.exp(s.sub(args[0], getSafeMaximum(s, maximum)));
      });
  Value maximum = createGeneric(
      b, loc, tileMaximum, state.maximum, {identity1, identity1}, {parallel},
      [](ScalarBuilder &s, ValueRange args) {
        return s.max(args[1], args[0]);
      });
  // The probabilities overwrite the scores.
  Value probabilities = createGeneric(
      b, loc, maximum, scores, {rows2, identity2}, {parallel, parallel},
      [](ScalarBuilder &s, ValueRange args) {
        return s.exp(s.sub(args[1], getSafeMaximum(s, args[0])));
      });

  // l = l * correction + sum_j p[i, j].
  Value sum = createGeneric(
      b, loc, correction, state.sum, {identity1, identity1}, {parallel},
      [](ScalarBuilder &s, ValueRange args) {
        return s.mul(args[1], args[0]);
      });
  sum = createGeneric(b, loc, probabilities, sum, {identity2, rows2},
                      {parallel, reduction},
                      [](ScalarBuilder &s, ValueRange args) {
                        return s.add(args[1], args[0]);
                      });

  // acc = acc * correction + p · v, the product with loops (i, d, j).
  Value acc = createGeneric(
      b, loc, correction, state.acc, {rows2, identity2}, {parallel, parallel},
      [](ScalarBuilder &s, ValueRange args) {
        return s.mul(args[1], args[0]);
      });
  acc = createGeneric(
      b, loc, {probabilities, vTile}, acc,
      {getLoopsMap(context, 3, {0, 2}), getLoopsMap(context, 3, {2, 1}),
       getLoopsMap(context, 3, {0, 1})},
      {parallel, parallel, reduction}, [&](ScalarBuilder &s, ValueRange args) {
        return s.add(args[2],
                     s.mul(args[0], s.convert(args[1], computeType)));
      });
  return {maximum, sum, acc};
}

SmallVector<Value> AttentionBuilder::attendQueryTile(ValueRange results,
                                                     Value batchIndex,
                                                     Value head,
                                                     Value queryStart,
                                                     int64_t length) {
  Value qTile = extractTile(q, batchIndex, head, queryStart, length, headDim);
  Value kvHead = arith::DivUIOp::create(b, loc, head, index(group));
  auto rowType = RankedTensorType::get({length}, computeType);
  auto accType = RankedTensorType::get({length, vHeadDim}, computeType);
  auto constant = [&](double value) -> Value {
    return arith::ConstantOp::create(b, loc,
                                     b.getFloatAttr(computeType, value));
  };
  RowState state = {
      createFilledTensor(b, loc, rowType, constant(kNegativeInfinity)),
      createFilledTensor(b, loc, rowType, constant(0.0)),
      createFilledTensor(b, loc, accType, constant(0.0))};

  // The keys [low, high) this tile's queries may see, as key tiles
  // [firstTile, endTile) of full tiles and the remainder tile past them.
  int64_t fullKeyTiles = keys / keyTile;
  int64_t remainder = keys % keyTile;
  Value firstTile = index(0), endTile = index(fullKeyTiles);
  Value visitRemainder;
  if (hasPositionalMask()) {
    Value firstPosition =
        arith::AddIOp::create(b, loc, queryStart, index(keys - queries));
    auto clampToKeys = [&](Value key) -> Value {
      return arith::MinSIOp::create(
          b, loc, arith::MaxSIOp::create(b, loc, key, index(0)), index(keys));
    };
    Value high = clampToKeys(
        arith::AddIOp::create(b, loc, firstPosition, index(length)));
    endTile = arith::MinSIOp::create(
        b, loc,
        arith::DivUIOp::create(
            b, loc, arith::AddIOp::create(b, loc, high, index(keyTile - 1)),
            index(keyTile)),
        endTile);
    if (maskKind == AttentionMask::SlidingWindow) {
      Value low = clampToKeys(
          arith::SubIOp::create(b, loc, firstPosition, index(window)));
      firstTile = arith::DivUIOp::create(b, loc, low, index(keyTile));
    }
    visitRemainder =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sgt, high,
                              index(fullKeyTiles * keyTile));
  }

  auto loop = scf::ForOp::create(
      b, loc, firstTile, endTile, index(1),
      ValueRange{state.maximum, state.sum, state.acc},
      [&](OpBuilder &, Location, Value tileIndex, ValueRange carried) {
        Value keyStart =
            arith::MulIOp::create(b, loc, tileIndex, index(keyTile));
        RowState next =
            attendKeyTile({carried[0], carried[1], carried[2]}, qTile,
                          batchIndex, head, kvHead, queryStart, keyStart,
                          keyTile);
        scf::YieldOp::create(b, loc,
                             ValueRange{next.maximum, next.sum, next.acc});
      });
  state = {loop.getResult(0), loop.getResult(1), loop.getResult(2)};

  if (remainder > 0) {
    Value keyStart = index(fullKeyTiles * keyTile);
    auto attendRemainder = [&]() {
      return attendKeyTile(state, qTile, batchIndex, head, kvHead,
                           queryStart, keyStart, remainder);
    };
    if (visitRemainder) {
      auto ifOp = scf::IfOp::create(
          b, loc, visitRemainder,
          [&](OpBuilder &, Location) {
            RowState next = attendRemainder();
            scf::YieldOp::create(b, loc,
                                 ValueRange{next.maximum, next.sum, next.acc});
          },
          [&](OpBuilder &, Location) {
            scf::YieldOp::create(b, loc,
                                 ValueRange{state.maximum, state.sum,
                                            state.acc});
          });
      state = {ifOp.getResult(0), ifOp.getResult(1), ifOp.getResult(2)};
    } else {
      state = attendRemainder();
    }
  }

  // out = acc / l (0 for a row that saw no key); logsumexp = m + log(l).
  AffineMap identity1 = b.getMultiDimIdentityMap(1);
  AffineMap identity2 = b.getMultiDimIdentityMap(2);
  auto parallel = utils::IteratorType::parallel;
  Value outTile = createGeneric(
      b, loc, {state.acc, state.sum},
      createEmptyTensor(b, loc,
                        RankedTensorType::get({length, vHeadDim}, storage)),
      {identity2, getLoopsMap(b.getContext(), 2, {0}), identity2},
      {parallel, parallel}, [&](ScalarBuilder &s, ValueRange args) {
        Value zero = s.constant(args[0], 0.0);
        Value empty = s.compare(ComparePredicate::eq, args[1], zero);
        Value normalized =
            s.select(empty, zero, s.div(args[0], args[1]));
        return s.convert(normalized, storage);
      });
  int64_t outRank = cast<RankedTensorType>(results[0].getType()).getRank();
  SmallVector<Value> updated = {tensor::InsertSliceOp::create(
      b, loc, outTile, results[0],
      getTileOffsets(batchIndex, head, queryStart),
      getTileSizes(length, vHeadDim),
      SmallVector<OpFoldResult>(outRank, b.getIndexAttr(1)))};
  if (results.size() > 1) {
    Value logSumExp = createGeneric(
        b, loc, {state.maximum, state.sum},
        createEmptyTensor(b, loc, rowType),
        {identity1, identity1, identity1}, {parallel},
        [](ScalarBuilder &s, ValueRange args) {
          return s.add(args[0], s.log(args[1]));
        });
    OpFoldResult one = b.getIndexAttr(1);
    updated.push_back(tensor::InsertSliceOp::create(
        b, loc, logSumExp, results[1],
        ArrayRef<OpFoldResult>{batchIndex, head, queryStart},
        ArrayRef<OpFoldResult>{one, one, b.getIndexAttr(length)},
        ArrayRef<OpFoldResult>{one, one, one}));
  }
  return updated;
}

SmallVector<Value> AttentionBuilder::build() {
  // The loop bodies build with `b` itself: scf.for and scf.if hand their
  // body builders the builder they were created with.
  SmallVector<Value> results = {
      createEmptyTensor(b, loc, cast<RankedTensorType>(op.getOut().getType()))};
  if (Value logSumExp = op.getLogsumexp())
    results.push_back(
        createEmptyTensor(b, loc, cast<RankedTensorType>(logSumExp.getType())));

  // for b, for h: the full query tiles, then the remainder.
  int64_t fullQueryTiles = queries / queryTile;
  int64_t remainder = queries % queryTile;
  auto batchLoop = scf::ForOp::create(
      b, loc, index(0), index(batch), index(1), results,
      [&](OpBuilder &, Location, Value batchIndex, ValueRange batchCarried) {
        auto headLoop = scf::ForOp::create(
            b, loc, index(0), index(heads), index(1), batchCarried,
            [&](OpBuilder &, Location, Value head, ValueRange headCarried) {
              auto queryLoop = scf::ForOp::create(
                  b, loc, index(0), index(fullQueryTiles), index(1),
                  headCarried,
                  [&](OpBuilder &, Location, Value tileIndex,
                      ValueRange carried) {
                    Value queryStart = arith::MulIOp::create(
                        b, loc, tileIndex, index(queryTile));
                    scf::YieldOp::create(
                        b, loc,
                        attendQueryTile(carried, batchIndex, head, queryStart,
                                        queryTile));
                  });
              SmallVector<Value> updated(queryLoop.getResults());
              if (remainder > 0)
                updated = attendQueryTile(updated, batchIndex, head,
                                          index(fullQueryTiles * queryTile),
                                          remainder);
              scf::YieldOp::create(b, loc, updated);
            });
        scf::YieldOp::create(b, loc, headLoop.getResults());
      });
  return batchLoop.getResults();
}

namespace {
struct AttentionToLinalg : OpConversionPattern<AttentionOp> {
  AttentionToLinalg(MLIRContext *context, AttentionTileSizes tiles)
      : OpConversionPattern(context), tiles(tiles) {}

  LogicalResult
  matchAndRewrite(AttentionOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    AttentionBuilder builder(rewriter, op, adaptor.getQ(), adaptor.getK(),
                             adaptor.getV(), adaptor.getMask(), tiles);
    rewriter.replaceOp(op, builder.build());
    return success();
  }

  AttentionTileSizes tiles;
};
} // namespace

void mlir::rlx::populateAttentionToLinalgPatterns(RewritePatternSet &patterns,
                                                  AttentionTileSizes tiles) {
  patterns.add<AttentionToLinalg>(patterns.getContext(), tiles);
}
