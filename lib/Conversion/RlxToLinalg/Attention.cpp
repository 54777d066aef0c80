//===- Attention.cpp - Attention as online-softmax (flash) tiles ----------===//
//
// rlx.attention is computed the way FlashAttention does: an scf.forall over
// every batch, head and tile of queries (independent: on a GPU, a kernel)
// holds an scf.for over tiles of keys that carries the running
// row maximum `m`, the running sum `l` of exp(s - m) and the output
// accumulator `acc`, all in the computation type. Each key tile computes its
// [Tq, Tk] scores, raises `m`, rescales `l` and `acc` by exp(m_old - m_new)
// and adds its own probabilities and their product with the value tile. Only
// [Tq, Tk] scores ever exist, never [S_q, S_k]: memory per head is O(S * D).
//
// rlx.attention_backward is FlashAttention-2's backward pass: an scf.forall
// over batches and kv heads, whose iterations own disjoint slices of dq, dk
// and dv, holds, for every key tile, a loop over the query tiles of every
// query head reading it that recomputes the probabilities from the saved
// logsumexp, accumulates dk and dv for the key tile, and adds the query
// tile's share of dq into the iteration's dq slice. Again no [S_q, S_k]
// tensor exists.
//
// Masks that are functions of positions (causal, sliding window) are
// computed from indices inside the tile loops, and the tiles they hide
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

/// `init += product of two tiles` as a three-loop contraction generic whose
/// operands read the loops `lhsDims`, `rhsDims` and (0, 1); the third loop
/// is the reduction. Operands are converted to the element type of `init`.
static Value accumulateProduct(OpBuilder &b, Location loc, Value lhs,
                               ArrayRef<int64_t> lhsDims, Value rhs,
                               ArrayRef<int64_t> rhsDims, Value init) {
  MLIRContext *context = b.getContext();
  Type accType = cast<RankedTensorType>(init.getType()).getElementType();
  return createGeneric(
      b, loc, {lhs, rhs}, init,
      {getLoopsMap(context, 3, lhsDims), getLoopsMap(context, 3, rhsDims),
       getLoopsMap(context, 3, {0, 1})},
      {utils::IteratorType::parallel, utils::IteratorType::parallel,
       utils::IteratorType::reduction},
      [&](ScalarBuilder &s, ValueRange args) {
        return s.add(args[2], s.mul(s.convert(args[0], accType),
                                    s.convert(args[1], accType)));
      });
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
/// A range [low, high) of sequence positions (index values).
struct PositionRange {
  Value low, high;
};

/// Emits the tile loops of rlx.attention and rlx.attention_backward, which
/// share their operands, attributes and score computation.
class AttentionBuilder {
public:
  template <typename OpTy>
  AttentionBuilder(OpBuilder &b, OpTy op, Value q, Value k, Value v,
                   Value mask, AttentionTileSizes tiles)
      : b(b), loc(op.getLoc()), q(q), k(k), v(v), mask(mask),
        layout(op.getLayout()), maskKind(op.getMaskKind()),
        scale(op.getScaleOrDefault()) {
    RankedTensorType qType = op.getQ().getType();
    storage = qType.getElementType();
    computeType = ScalarBuilder::computeType(storage);
    int64_t sequenceAxis = AttentionOp::getSequenceAxis(layout);
    batch = qType.getDimSize(0);
    heads = op.getNumHeads();
    kvHeads = op.getNumKvHeads();
    group = heads / kvHeads;
    queries = qType.getDimSize(sequenceAxis);
    keys = op.getK().getType().getDimSize(sequenceAxis);
    headDim = qType.getShape().back();
    vHeadDim = op.getV().getType().getShape().back();
    queryTile = std::min(tiles.query, queries);
    keyTile = std::min(tiles.key, keys);
    if (std::optional<APFloat> cap = op.getSoftcap())
      softcap = cap->convertToDouble();
    window = op.getWindow().value_or(0);
  }

  /// rlx.attention: `out`, then `logsumexp` when `logSumExpType` is set.
  SmallVector<Value> buildForward(RankedTensorType outType,
                                  RankedTensorType logSumExpType);
  /// rlx.attention_backward: dq, dk, dv, then the bias gradient when
  /// `withBiasGrad`.
  SmallVector<Value> buildBackward(Value out, Value dout, Value logSumExp,
                                   bool withBiasGrad);

private:
  using TileStep = function_ref<SmallVector<Value>(
      Value start, int64_t length, ValueRange carried)>;

  Value index(int64_t value) {
    return arith::ConstantIndexOp::create(b, loc, value);
  }
  Value zeros(RankedTensorType type) {
    return createFilledTensor(
        b, loc, type,
        arith::ConstantOp::create(
            b, loc, b.getFloatAttr(type.getElementType(), 0.0)));
  }
  bool hasPositionalMask() const {
    return maskKind == AttentionMask::Causal ||
           maskKind == AttentionMask::SlidingWindow;
  }
  /// `value` clamped to [0, size].
  Value clampToSize(Value value, int64_t size);

  /// Emits `step` for every tile of [0, size) in tiles of `tile` that meets
  /// `range` (every tile without one), threading `carried` through: an
  /// scf.for over the full tiles and, when `tile` does not divide `size`, a
  /// step of the remainder's length, under an scf.if when the range decides
  /// whether it is reached.
  SmallVector<Value> forEachTile(int64_t size, int64_t tile,
                                 std::optional<PositionRange> range,
                                 ValueRange carried, TileStep step);

  /// Offsets and sizes of the [length, features] tile at (batch, head,
  /// sequence start) of q, k, v or a value of their layout.
  SmallVector<OpFoldResult> getTileOffsets(Value batchIndex, Value head,
                                           Value start);
  SmallVector<OpFoldResult> getTileSizes(int64_t length, int64_t features);
  Value extractTile(Value source, Value batchIndex, Value head, Value start,
                    int64_t length, int64_t features);
  Value insertTile(Value tile, Value dest, Value batchIndex, Value head,
                   Value start);
  /// The [length] slice of a [B, H, S_q] row value (logsumexp).
  SmallVector<OpFoldResult> getRowOffsets(Value batchIndex, Value head,
                                          Value start);
  SmallVector<OpFoldResult> getRowSizes(int64_t length);
  Value extractRows(Value source, Value batchIndex, Value head, Value start,
                    int64_t length);
  /// `index` relative to `origin`.
  Value relativeTo(Value index, Value origin) {
    return arith::SubIOp::create(b, loc, index, origin);
  }
  /// Offsets and sizes of `batches` x `headCount` heads from (batchIndex,
  /// head) of a value of q's layout and `type`: whole sequences.
  SmallVector<OpFoldResult> getBlockSizes(RankedTensorType type,
                                          int64_t batches, int64_t headCount);
  /// The [Tq, Tk] slice of the bias, with its broadcast axes read at 0.
  SmallVector<OpFoldResult> getBiasOffsets(Value batchIndex, Value head,
                                           Value queryStart, Value keyStart);

  /// `tile` [rows, columns] transposed to [columns, rows].
  Value transposeTile(Value tile);
  /// q_tile · k_tileᵀ in the computation type, from k_tileᵀ ([D, Tk]).
  Value computeProducts(Value qTile, Value kTileTransposed);
  /// A [Tq, Tk] generic over `products` (q · k) that computes each score
  /// (scaled, capped, biased, masked to -inf) and yields `finish(score,
  /// rowArgs)`, where `rowArgs` are the elements of `rowInputs` ([Tq] each)
  /// of the score's query.
  Value mapScores(Value products, Value batchIndex, Value head,
                  Value queryStart, Value keyStart, ValueRange rowInputs,
                  function_ref<Value(ScalarBuilder &, Value, ValueRange)>
                      finish);

  /// Forward: the keys the queries [queryStart, queryStart + length) may
  /// see; backward: the queries that may see [keyStart, keyStart + length).
  std::optional<PositionRange> getVisibleKeys(Value queryStart,
                                              int64_t length);
  std::optional<PositionRange> getSeeingQueries(Value keyStart,
                                                int64_t length);

  /// Forward over `count` query tiles of `length` from `firstStart`, for
  /// every batch and head: an scf.forall writing into `results`.
  SmallVector<Value> attendQueryTiles(ValueRange results, int64_t count,
                                      int64_t length, int64_t firstStart);
  /// The out tile and, `withLogSumExp`, the logsumexp rows of a query tile.
  SmallVector<Value> attendQueryTile(Value batchIndex, Value head,
                                     Value queryStart, int64_t length,
                                     bool withLogSumExp);
  SmallVector<Value> attendKeyTile(ValueRange state, Value qTile,
                                   Value batchIndex, Value head, Value kvHead,
                                   Value queryStart, Value keyStart,
                                   int64_t length);
  SmallVector<Value> backwardKeyTile(ValueRange carried, Value batchIndex,
                                     Value kvHead, Value keyStart,
                                     int64_t keyLength);
  /// kTile and the transposed k and v tiles ([D, Tk], [Dv, Tk]) of the key
  /// tile, made once for all its query tiles.
  SmallVector<Value> backwardTilePair(ValueRange carried, Value batchIndex,
                                      Value head, Value kTile,
                                      Value kTileTransposed,
                                      Value vTileTransposed, Value keyStart,
                                      int64_t keyLength, Value queryStart,
                                      int64_t queryLength);

  OpBuilder &b;
  Location loc;
  Value q, k, v, mask;
  // Backward only.
  Value out, dout, logSumExp;
  bool withBiasGrad = false;
  /// Where the gradients an iteration of the backward's scf.forall owns
  /// start (batch, query head, kv head): they are slices of the results,
  /// indexed relative to these.
  Value batchOrigin, headOrigin, kvHeadOrigin;
  AttentionLayout layout;
  AttentionMask maskKind;
  double scale;
  std::optional<double> softcap;
  int64_t window;
  Type storage, computeType;
  int64_t batch, heads, kvHeads, group, queries, keys, headDim, vHeadDim;
  int64_t queryTile, keyTile;
};
} // namespace

Value AttentionBuilder::clampToSize(Value value, int64_t size) {
  return arith::MinSIOp::create(
      b, loc, arith::MaxSIOp::create(b, loc, value, index(0)), index(size));
}

SmallVector<Value> AttentionBuilder::forEachTile(
    int64_t size, int64_t tile, std::optional<PositionRange> range,
    ValueRange carried, TileStep step) {
  int64_t fullTiles = size / tile;
  int64_t remainder = size % tile;
  Value firstTile = index(0), endTile = index(fullTiles);
  Value visitRemainder;
  if (range) {
    firstTile = arith::DivUIOp::create(b, loc, range->low, index(tile));
    Value tilesToHigh = arith::DivUIOp::create(
        b, loc, arith::AddIOp::create(b, loc, range->high, index(tile - 1)),
        index(tile));
    endTile = arith::MinSIOp::create(b, loc, tilesToHigh, endTile);
    visitRemainder = arith::CmpIOp::create(
        b, loc, arith::CmpIPredicate::sgt, range->high,
        index(fullTiles * tile));
  }
  // The loop bodies build with `b` itself: scf.for and scf.if hand their
  // body builders the builder they were created with.
  auto loop = scf::ForOp::create(
      b, loc, firstTile, endTile, index(1), carried,
      [&](OpBuilder &, Location, Value tileIndex, ValueRange iterArgs) {
        Value start = arith::MulIOp::create(b, loc, tileIndex, index(tile));
        scf::YieldOp::create(b, loc, step(start, tile, iterArgs));
      });
  SmallVector<Value> results(loop.getResults());
  if (remainder == 0)
    return results;
  Value start = index(fullTiles * tile);
  if (!visitRemainder)
    return step(start, remainder, results);
  auto ifOp = scf::IfOp::create(
      b, loc, visitRemainder,
      [&](OpBuilder &, Location) {
        scf::YieldOp::create(b, loc, step(start, remainder, results));
      },
      [&](OpBuilder &, Location) { scf::YieldOp::create(b, loc, results); });
  return ifOp.getResults();
}

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
  auto sourceType = cast<RankedTensorType>(source.getType());
  auto type =
      RankedTensorType::get({length, features}, sourceType.getElementType());
  SmallVector<OpFoldResult> strides(sourceType.getRank(), b.getIndexAttr(1));
  return tensor::ExtractSliceOp::create(
      b, loc, type, source, getTileOffsets(batchIndex, head, start),
      getTileSizes(length, features), strides);
}

Value AttentionBuilder::insertTile(Value tile, Value dest, Value batchIndex,
                                   Value head, Value start) {
  ArrayRef<int64_t> shape = cast<RankedTensorType>(tile.getType()).getShape();
  int64_t rank = cast<RankedTensorType>(dest.getType()).getRank();
  return tensor::InsertSliceOp::create(
      b, loc, tile, dest, getTileOffsets(batchIndex, head, start),
      getTileSizes(shape[0], shape[1]),
      SmallVector<OpFoldResult>(rank, b.getIndexAttr(1)));
}

SmallVector<OpFoldResult>
AttentionBuilder::getRowOffsets(Value batchIndex, Value head, Value start) {
  return {batchIndex, head, start};
}

SmallVector<OpFoldResult> AttentionBuilder::getRowSizes(int64_t length) {
  OpFoldResult one = b.getIndexAttr(1);
  return {one, one, b.getIndexAttr(length)};
}

Value AttentionBuilder::extractRows(Value source, Value batchIndex, Value head,
                                    Value start, int64_t length) {
  Type element = cast<RankedTensorType>(source.getType()).getElementType();
  return tensor::ExtractSliceOp::create(
      b, loc, RankedTensorType::get({length}, element), source,
      getRowOffsets(batchIndex, head, start), getRowSizes(length),
      SmallVector<OpFoldResult>(3, b.getIndexAttr(1)));
}

SmallVector<OpFoldResult>
AttentionBuilder::getBlockSizes(RankedTensorType type, int64_t batches,
                                int64_t headCount) {
  SmallVector<OpFoldResult> sizes;
  for (int64_t size : type.getShape())
    sizes.push_back(b.getIndexAttr(size));
  sizes[0] = b.getIndexAttr(batches);
  if (layout != AttentionLayout::BSD)
    sizes[layout == AttentionLayout::BSHD ? 2 : 1] = b.getIndexAttr(headCount);
  return sizes;
}

SmallVector<OpFoldResult>
AttentionBuilder::getBiasOffsets(Value batchIndex, Value head,
                                 Value queryStart, Value keyStart) {
  ArrayRef<int64_t> shape = cast<RankedTensorType>(mask.getType()).getShape();
  OpFoldResult zero = b.getIndexAttr(0);
  return {shape[0] == 1 ? zero : OpFoldResult(batchIndex),
          shape[1] == 1 ? zero : OpFoldResult(head), queryStart, keyStart};
}

Value AttentionBuilder::transposeTile(Value tile) {
  auto type = cast<RankedTensorType>(tile.getType());
  auto transposedType = RankedTensorType::get(
      {type.getDimSize(1), type.getDimSize(0)}, type.getElementType());
  return linalg::TransposeOp::create(b, loc, tile,
                                     createEmptyTensor(b, loc, transposedType),
                                     ArrayRef<int64_t>{1, 0})
      .getResult()
      .front();
}

Value AttentionBuilder::computeProducts(Value qTile, Value kTileTransposed) {
  int64_t queryLength = cast<RankedTensorType>(qTile.getType()).getDimSize(0);
  int64_t keyLength =
      cast<RankedTensorType>(kTileTransposed.getType()).getDimSize(1);
  // products[i, j] = sum_d q[i, d] * kᵀ[d, j], loops (i, j, d). Reading kᵀ
  // lets --rlx-interchange-reductions make the key loop j innermost, where
  // kᵀ and the products are contiguous, so it vectorizes; each product
  // still sums over d in order.
  return accumulateProduct(
      b, loc, qTile, {0, 2}, kTileTransposed, {2, 1},
      zeros(RankedTensorType::get({queryLength, keyLength}, computeType)));
}

Value AttentionBuilder::mapScores(
    Value products, Value batchIndex, Value head, Value queryStart,
    Value keyStart, ValueRange rowInputs,
    function_ref<Value(ScalarBuilder &, Value, ValueRange)> finish) {
  MLIRContext *context = b.getContext();
  auto scoresType = cast<RankedTensorType>(products.getType());
  int64_t queryLength = scoresType.getDimSize(0);
  int64_t keyLength = scoresType.getDimSize(1);

  // The mask operand's tile: [Tq, Tk] of the bias, or [Tk] of the padding.
  SmallVector<Value> inputs = {products};
  SmallVector<AffineMap> maps = {b.getMultiDimIdentityMap(2)};
  OpFoldResult one = b.getIndexAttr(1);
  if (maskKind == AttentionMask::Bias) {
    inputs.push_back(tensor::ExtractSliceOp::create(
        b, loc, RankedTensorType::get({queryLength, keyLength}, storage),
        mask, getBiasOffsets(batchIndex, head, queryStart, keyStart),
        ArrayRef<OpFoldResult>{one, one, b.getIndexAttr(queryLength),
                               b.getIndexAttr(keyLength)},
        SmallVector<OpFoldResult>(4, one)));
    maps.push_back(b.getMultiDimIdentityMap(2));
  } else if (maskKind == AttentionMask::Padding) {
    auto maskType = cast<RankedTensorType>(mask.getType());
    inputs.push_back(tensor::ExtractSliceOp::create(
        b, loc, RankedTensorType::get({keyLength}, maskType.getElementType()),
        mask, ArrayRef<OpFoldResult>{batchIndex, keyStart},
        ArrayRef<OpFoldResult>{one, b.getIndexAttr(keyLength)},
        ArrayRef<OpFoldResult>{one, one}));
    maps.push_back(getLoopsMap(context, 2, {1}));
  }
  size_t firstRowInput = inputs.size();
  for (Value rows : rowInputs) {
    inputs.push_back(rows);
    maps.push_back(getLoopsMap(context, 2, {0}));
  }
  maps.push_back(b.getMultiDimIdentityMap(2));

  // Query i of the tile sits at absolute position firstPosition + i, key j
  // at keyStart + j.
  Value firstPosition;
  if (hasPositionalMask())
    firstPosition =
        arith::AddIOp::create(b, loc, queryStart, index(keys - queries));
  auto score = [&](ScalarBuilder &s, ValueRange args) -> Value {
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
      Value position =
          arith::AddIOp::create(nested, bodyLoc, firstPosition,
                                linalg::IndexOp::create(nested, bodyLoc, 0));
      Value key =
          arith::AddIOp::create(nested, bodyLoc, keyStart,
                                linalg::IndexOp::create(nested, bodyLoc, 1));
      Value visible = arith::CmpIOp::create(
          nested, bodyLoc, arith::CmpIPredicate::sle, key, position);
      if (maskKind == AttentionMask::SlidingWindow) {
        Value oldest = arith::SubIOp::create(
            nested, bodyLoc, position,
            arith::ConstantIndexOp::create(nested, bodyLoc, window));
        visible = arith::AndIOp::create(
            nested, bodyLoc, visible,
            arith::CmpIOp::create(nested, bodyLoc, arith::CmpIPredicate::sge,
                                  key, oldest));
      }
      return s.select(visible, score, minusInf);
    }
    }
    llvm_unreachable("unknown attention mask");
  };
  return createGeneric(
      b, loc, inputs, createEmptyTensor(b, loc, scoresType), maps,
      {utils::IteratorType::parallel, utils::IteratorType::parallel},
      [&](ScalarBuilder &s, ValueRange args) {
        ValueRange rowArgs = args.slice(firstRowInput, rowInputs.size());
        return finish(s, score(s, args), rowArgs);
      });
}

std::optional<PositionRange>
AttentionBuilder::getVisibleKeys(Value queryStart, int64_t length) {
  if (!hasPositionalMask())
    return std::nullopt;
  // Positions p0 .. p0 + length - 1 see keys up to p0 + length - 1 and,
  // with a window, from p0 - window.
  Value firstPosition =
      arith::AddIOp::create(b, loc, queryStart, index(keys - queries));
  PositionRange range;
  range.high = clampToSize(
      arith::AddIOp::create(b, loc, firstPosition, index(length)), keys);
  range.low = maskKind == AttentionMask::SlidingWindow
                  ? clampToSize(arith::SubIOp::create(b, loc, firstPosition,
                                                      index(window)),
                                keys)
                  : index(0);
  return range;
}

std::optional<PositionRange>
AttentionBuilder::getSeeingQueries(Value keyStart, int64_t length) {
  if (!hasPositionalMask())
    return std::nullopt;
  // Query i (position i + S_k - S_q) sees key j when j <= position and, with
  // a window, position <= j + window.
  PositionRange range;
  range.low = clampToSize(
      arith::SubIOp::create(b, loc, keyStart, index(keys - queries)),
      queries);
  range.high =
      maskKind == AttentionMask::SlidingWindow
          ? clampToSize(
                arith::AddIOp::create(
                    b, loc, keyStart,
                    index(length + window - (keys - queries))),
                queries)
          : index(queries);
  return range;
}

//===----------------------------------------------------------------------===//
// Forward
//===----------------------------------------------------------------------===//

SmallVector<Value> AttentionBuilder::attendKeyTile(
    ValueRange state, Value qTile, Value batchIndex, Value head, Value kvHead,
    Value queryStart, Value keyStart, int64_t length) {
  Value kTile = extractTile(k, batchIndex, kvHead, keyStart, length, headDim);
  Value vTile = extractTile(v, batchIndex, kvHead, keyStart, length, vHeadDim);
  Value scores = mapScores(computeProducts(qTile, transposeTile(kTile)),
                           batchIndex, head, queryStart, keyStart, {},
                           [](ScalarBuilder &, Value score, ValueRange) {
                             return score;
                           });

  Value oldMaximum = state[0], oldSum = state[1], oldAcc = state[2];
  AffineMap rows2 = getLoopsMap(b.getContext(), 2, {0});
  AffineMap identity1 = b.getMultiDimIdentityMap(1);
  AffineMap identity2 = b.getMultiDimIdentityMap(2);
  auto parallel = utils::IteratorType::parallel;
  auto reduction = utils::IteratorType::reduction;
  auto rowType = cast<RankedTensorType>(oldMaximum.getType());

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
      b, loc, {oldMaximum, tileMaximum}, createEmptyTensor(b, loc, rowType),
      {identity1, identity1, identity1}, {parallel},
      [](ScalarBuilder &s, ValueRange args) {
        Value maximum = s.max(args[0], args[1]);
        return s.exp(s.sub(args[0], getSafeMaximum(s, maximum)));
      });
  Value maximum = createGeneric(
      b, loc, tileMaximum, oldMaximum, {identity1, identity1}, {parallel},
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
      b, loc, correction, oldSum, {identity1, identity1}, {parallel},
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
      b, loc, correction, oldAcc, {rows2, identity2}, {parallel, parallel},
      [](ScalarBuilder &s, ValueRange args) {
        return s.mul(args[1], args[0]);
      });
  acc = accumulateProduct(b, loc, probabilities, {0, 2}, vTile, {2, 1}, acc);
  return {maximum, sum, acc};
}

SmallVector<Value> AttentionBuilder::attendQueryTile(Value batchIndex,
                                                     Value head,
                                                     Value queryStart,
                                                     int64_t length,
                                                     bool withLogSumExp) {
  Value qTile = extractTile(q, batchIndex, head, queryStart, length, headDim);
  Value kvHead = arith::DivUIOp::create(b, loc, head, index(group));
  auto rowType = RankedTensorType::get({length}, computeType);
  Value minusInf = arith::ConstantOp::create(
      b, loc, b.getFloatAttr(computeType, kNegativeInfinity));
  SmallVector<Value> state = {
      createFilledTensor(b, loc, rowType, minusInf), zeros(rowType),
      zeros(RankedTensorType::get({length, vHeadDim}, computeType))};
  state = forEachTile(
      keys, keyTile, getVisibleKeys(queryStart, length), state,
      [&](Value keyStart, int64_t keyLength, ValueRange carried) {
        return attendKeyTile(carried, qTile, batchIndex, head, kvHead,
                             queryStart, keyStart, keyLength);
      });
  Value maximum = state[0], sum = state[1], acc = state[2];

  // out = acc / l (0 for a row that saw no key); logsumexp = m + log(l).
  AffineMap identity1 = b.getMultiDimIdentityMap(1);
  AffineMap identity2 = b.getMultiDimIdentityMap(2);
  auto parallel = utils::IteratorType::parallel;
  SmallVector<Value> tiles = {createGeneric(
      b, loc, {acc, sum},
      createEmptyTensor(b, loc,
                        RankedTensorType::get({length, vHeadDim}, storage)),
      {identity2, getLoopsMap(b.getContext(), 2, {0}), identity2},
      {parallel, parallel}, [&](ScalarBuilder &s, ValueRange args) {
        Value zero = s.constant(args[0], 0.0);
        Value empty = s.compare(ComparePredicate::eq, args[1], zero);
        Value normalized = s.select(empty, zero, s.div(args[0], args[1]));
        return s.convert(normalized, storage);
      })};
  if (withLogSumExp)
    tiles.push_back(createGeneric(b, loc, {maximum, sum},
                                  createEmptyTensor(b, loc, rowType),
                                  {identity1, identity1, identity1},
                                  {parallel},
                                  [](ScalarBuilder &s, ValueRange args) {
                                    return s.add(args[0], s.log(args[1]));
                                  }));
  return tiles;
}

SmallVector<Value> AttentionBuilder::attendQueryTiles(ValueRange results,
                                                      int64_t count,
                                                      int64_t length,
                                                      int64_t firstStart) {
  SmallVector<OpFoldResult> counts = {b.getIndexAttr(batch),
                                      b.getIndexAttr(heads),
                                      b.getIndexAttr(count)};
  // The body builds with `b` itself, which scf.forall hands its body
  // builder.
  auto forall = scf::ForallOp::create(
      b, loc, counts, results, /*mapping=*/std::nullopt,
      [&](OpBuilder &, Location, ValueRange args) {
        Value batchIndex = args[0], head = args[1];
        Value queryStart = arith::AddIOp::create(
            b, loc, arith::MulIOp::create(b, loc, args[2], index(length)),
            index(firstStart));
        ValueRange outs = args.drop_front(3);
        SmallVector<Value> tiles = attendQueryTile(
            batchIndex, head, queryStart, length, outs.size() > 1);
        auto inParallel = scf::InParallelOp::create(b, loc);
        b.setInsertionPointToStart(inParallel.getBody());
        tensor::ParallelInsertSliceOp::create(
            b, loc, tiles[0], outs[0],
            getTileOffsets(batchIndex, head, queryStart),
            getTileSizes(length, vHeadDim),
            SmallVector<OpFoldResult>(
                cast<RankedTensorType>(outs[0].getType()).getRank(),
                b.getIndexAttr(1)));
        if (tiles.size() > 1)
          tensor::ParallelInsertSliceOp::create(
              b, loc, tiles[1], outs[1],
              getRowOffsets(batchIndex, head, queryStart),
              getRowSizes(length),
              SmallVector<OpFoldResult>(3, b.getIndexAttr(1)));
      });
  return forall.getResults();
}

SmallVector<Value>
AttentionBuilder::buildForward(RankedTensorType outType,
                               RankedTensorType logSumExpType) {
  SmallVector<Value> results = {createEmptyTensor(b, loc, outType)};
  if (logSumExpType)
    results.push_back(createEmptyTensor(b, loc, logSumExpType));
  // The full query tiles, then the remainder tile with its own static size.
  int64_t fullTiles = queries / queryTile;
  if (fullTiles > 0)
    results = attendQueryTiles(results, fullTiles, queryTile, 0);
  if (int64_t remainder = queries % queryTile)
    results = attendQueryTiles(results, 1, remainder, fullTiles * queryTile);
  return results;
}

//===----------------------------------------------------------------------===//
// Backward
//===----------------------------------------------------------------------===//

/// carried: dq (computation type, q's layout), the bias gradient when there
/// is one, then the key tile's dk and dv accumulators.
SmallVector<Value> AttentionBuilder::backwardTilePair(
    ValueRange carried, Value batchIndex, Value head, Value kTile,
    Value kTileTransposed, Value vTileTransposed, Value keyStart,
    int64_t keyLength, Value queryStart, int64_t queryLength) {
  MLIRContext *context = b.getContext();
  Value dq = carried[0];
  Value dkTile = carried[carried.size() - 2];
  Value dvTile = carried[carried.size() - 1];
  Value qTile =
      extractTile(q, batchIndex, head, queryStart, queryLength, headDim);
  Value outTile =
      extractTile(out, batchIndex, head, queryStart, queryLength, vHeadDim);
  Value doutTile =
      extractTile(dout, batchIndex, head, queryStart, queryLength, vHeadDim);
  Value lseRows =
      extractRows(logSumExp, batchIndex, head, queryStart, queryLength);
  AffineMap rows2 = getLoopsMap(context, 2, {0});
  AffineMap identity2 = b.getMultiDimIdentityMap(2);
  auto parallel = utils::IteratorType::parallel;
  auto reduction = utils::IteratorType::reduction;

  // rowsum(dout * out): the softmax's own term of the gradient.
  auto rowType = RankedTensorType::get({queryLength}, computeType);
  Value rowDot = createGeneric(
      b, loc, {doutTile, outTile}, zeros(rowType),
      {identity2, identity2, rows2}, {parallel, reduction},
      [&](ScalarBuilder &s, ValueRange args) {
        return s.add(args[2], s.mul(s.convert(args[0], computeType),
                                    s.convert(args[1], computeType)));
      });

  // p = exp(s - logsumexp), recomputed; 0 for masked keys and rows.
  Value products = computeProducts(qTile, kTileTransposed);
  Value probabilities =
      mapScores(products, batchIndex, head, queryStart, keyStart, lseRows,
                [](ScalarBuilder &s, Value score, ValueRange rowArgs) {
                  return s.exp(s.sub(score, getSafeMaximum(s, rowArgs[0])));
                });

  // dv[j, d] += sum_i p[i, j] * dout[i, d], loops (j, d, i).
  dvTile = accumulateProduct(b, loc, probabilities, {2, 0}, doutTile, {2, 1},
                             dvTile);
  // ds = p * (dout · vᵀ - rowsum(dout * out)), over dout · vᵀ in place.
  auto pairType = RankedTensorType::get({queryLength, keyLength}, computeType);
  Value ds = accumulateProduct(b, loc, doutTile, {0, 2}, vTileTransposed,
                               {2, 1}, zeros(pairType));
  ds = createGeneric(b, loc, {probabilities, rowDot}, ds,
                     {identity2, rows2, identity2}, {parallel, parallel},
                     [](ScalarBuilder &s, ValueRange args) {
                       return s.mul(args[0], s.sub(args[2], args[1]));
                     });

  SmallVector<Value> updated;
  if (withBiasGrad) {
    // The bias gradient is ds, summed where the bias broadcasts.
    Value dbias = carried[1];
    SmallVector<OpFoldResult> offsets =
        getBiasOffsets(relativeTo(batchIndex, batchOrigin),
                       relativeTo(head, headOrigin), queryStart, keyStart);
    OpFoldResult one = b.getIndexAttr(1);
    SmallVector<OpFoldResult> sizes = {one, one, b.getIndexAttr(queryLength),
                                       b.getIndexAttr(keyLength)};
    SmallVector<OpFoldResult> strides(4, one);
    Value slice = tensor::ExtractSliceOp::create(b, loc, pairType, dbias,
                                                 offsets, sizes, strides);
    slice = createGeneric(b, loc, ds, slice, {identity2, identity2},
                          {parallel, parallel},
                          [](ScalarBuilder &s, ValueRange args) {
                            return s.add(args[1], args[0]);
                          });
    updated.push_back(tensor::InsertSliceOp::create(b, loc, slice, dbias,
                                                    offsets, sizes, strides));
  }

  // dx = scale * ds * softcap'(x), with softcap'(x) = 1 - tanh(x / c)^2 at
  // the scaled score x = scale * q · k; in place over ds.
  ds = createGeneric(
      b, loc, products, ds, {identity2, identity2}, {parallel, parallel},
      [&](ScalarBuilder &s, ValueRange args) {
        Value scaled = s.mul(args[1], s.constant(args[1], scale));
        if (!softcap)
          return scaled;
        Value cap = s.constant(args[0], *softcap);
        Value t = s.tanh(s.div(s.mul(args[0], s.constant(args[0], scale)),
                               cap));
        return s.mul(scaled, s.sub(s.constant(t, 1.0), s.mul(t, t)));
      });

  // dq[i, d] += sum_j dx[i, j] * k[j, d], loops (i, d, j), into the dq tile.
  Value dqBatch = relativeTo(batchIndex, batchOrigin);
  Value dqHead = relativeTo(head, headOrigin);
  Value dqTile =
      extractTile(dq, dqBatch, dqHead, queryStart, queryLength, headDim);
  dqTile = accumulateProduct(b, loc, ds, {0, 2}, kTile, {2, 1}, dqTile);
  updated.insert(updated.begin(),
                 insertTile(dqTile, dq, dqBatch, dqHead, queryStart));
  // dk[j, d] += sum_i dx[i, j] * q[i, d], loops (j, d, i).
  updated.push_back(
      accumulateProduct(b, loc, ds, {2, 0}, qTile, {2, 1}, dkTile));
  updated.push_back(dvTile);
  return updated;
}

/// carried: dq, the bias gradient when there is one, dk and dv. The key
/// tile's dk and dv accumulate over the query tiles of every query head of
/// the group that reads `kvHead`, then are written once.
SmallVector<Value> AttentionBuilder::backwardKeyTile(ValueRange carried,
                                                     Value batchIndex,
                                                     Value kvHead,
                                                     Value keyStart,
                                                     int64_t keyLength) {
  Value kTile =
      extractTile(k, batchIndex, kvHead, keyStart, keyLength, headDim);
  Value kTileTransposed = transposeTile(kTile);
  Value vTileTransposed = transposeTile(
      extractTile(v, batchIndex, kvHead, keyStart, keyLength, vHeadDim));
  SmallVector<Value> accumulators(carried.drop_back(2));
  accumulators.push_back(
      zeros(RankedTensorType::get({keyLength, headDim}, computeType)));
  accumulators.push_back(
      zeros(RankedTensorType::get({keyLength, vHeadDim}, computeType)));
  auto groupLoop = scf::ForOp::create(
      b, loc, index(0), index(group), index(1), accumulators,
      [&](OpBuilder &, Location, Value member, ValueRange groupCarried) {
        Value head = arith::AddIOp::create(
            b, loc, arith::MulIOp::create(b, loc, kvHead, index(group)),
            member);
        scf::YieldOp::create(
            b, loc,
            forEachTile(queries, queryTile,
                        getSeeingQueries(keyStart, keyLength), groupCarried,
                        [&](Value queryStart, int64_t queryLength,
                            ValueRange pairCarried) {
                          return backwardTilePair(
                              pairCarried, batchIndex, head, kTile,
                              kTileTransposed, vTileTransposed, keyStart,
                              keyLength, queryStart, queryLength);
                        }));
      });
  SmallVector<Value> results(groupLoop.getResults().drop_back(2));
  ValueRange tileGradients = groupLoop.getResults().take_back(2);
  ValueRange gradients = carried.take_back(2);
  for (auto [tile, gradient] : llvm::zip_equal(tileGradients, gradients))
    results.push_back(insertTile(convertElements(b, loc, tile, storage),
                                 gradient, relativeTo(batchIndex, batchOrigin),
                                 relativeTo(kvHead, kvHeadOrigin), keyStart));
  return results;
}

SmallVector<Value> AttentionBuilder::buildBackward(Value outValue,
                                                   Value doutValue,
                                                   Value logSumExpValue,
                                                   bool biasGrad) {
  out = outValue;
  dout = doutValue;
  logSumExp = logSumExpValue;
  withBiasGrad = biasGrad;
  auto qType = cast<RankedTensorType>(q.getType());
  auto kType = cast<RankedTensorType>(k.getType());
  auto vType = cast<RankedTensorType>(v.getType());
  // Carried: dq and the bias gradient, which accumulate over key tiles in
  // the computation type, then dk and dv, written once per key tile.
  SmallVector<Value> results = {zeros(qType.clone(computeType))};
  if (withBiasGrad)
    results.push_back(zeros(
        cast<RankedTensorType>(mask.getType()).clone(computeType)));
  results.push_back(createEmptyTensor(b, loc, kType));
  results.push_back(createEmptyTensor(b, loc, vType));

  // The (batch, kv head) iterations own disjoint parts of dq, dk and dv (a
  // kv head's dk and dv, and dq of the query heads of its group): an
  // scf.forall over them, each iteration working on its slices. A bias
  // gradient broadcast over batches or heads is shared: that axis stays a
  // loop inside the iteration.
  ArrayRef<int64_t> biasShape;
  if (withBiasGrad)
    biasShape = cast<RankedTensorType>(mask.getType()).getShape();
  bool parallelBatches = !withBiasGrad || biasShape[0] != 1;
  bool parallelKvHeads = !withBiasGrad || biasShape[1] != 1;
  int64_t batches = parallelBatches ? 1 : batch;
  int64_t kvHeadCount = parallelKvHeads ? 1 : kvHeads;
  SmallVector<OpFoldResult> counts = {
      b.getIndexAttr(parallelBatches ? batch : 1),
      b.getIndexAttr(parallelKvHeads ? kvHeads : 1)};
  auto forall = scf::ForallOp::create(
      b, loc, counts, results, /*mapping=*/std::nullopt,
      [&](OpBuilder &, Location, ValueRange args) {
        batchOrigin = parallelBatches ? args[0] : index(0);
        kvHeadOrigin = parallelKvHeads ? args[1] : index(0);
        headOrigin = arith::MulIOp::create(b, loc, kvHeadOrigin, index(group));
        ValueRange shared = args.drop_front(2);
        // Offsets and sizes of this iteration's slice of each result.
        SmallVector<SmallVector<OpFoldResult>> offsets, sizes;
        offsets.push_back(getTileOffsets(batchOrigin, headOrigin, index(0)));
        sizes.push_back(getBlockSizes(qType, batches, kvHeadCount * group));
        if (withBiasGrad) {
          OpFoldResult zero = b.getIndexAttr(0);
          offsets.push_back(
              {biasShape[0] == 1 ? zero : OpFoldResult(batchOrigin),
               biasShape[1] == 1 ? zero : OpFoldResult(headOrigin), zero,
               zero});
          sizes.push_back(
              {b.getIndexAttr(biasShape[0] == 1 ? 1 : batches),
               b.getIndexAttr(biasShape[1] == 1 ? 1 : kvHeadCount * group),
               b.getIndexAttr(biasShape[2]), b.getIndexAttr(biasShape[3])});
        }
        for (RankedTensorType type : {kType, vType}) {
          offsets.push_back(
              getTileOffsets(batchOrigin, kvHeadOrigin, index(0)));
          sizes.push_back(getBlockSizes(type, batches, kvHeadCount));
        }
        SmallVector<Value> slices;
        for (auto [value, offset, size] :
             llvm::zip_equal(shared, offsets, sizes))
          slices.push_back(tensor::ExtractSliceOp::create(
              b, loc, value, offset, size,
              SmallVector<OpFoldResult>(offset.size(), b.getIndexAttr(1))));

        auto forEachIndex = [&](bool fixed, Value index0, int64_t count,
                                ValueRange carried, TileStep step) {
          if (fixed)
            return step(index0, 1, carried);
          auto loop = scf::ForOp::create(
              b, loc, index(0), index(count), index(1), carried,
              [&](OpBuilder &, Location, Value i, ValueRange iterArgs) {
                scf::YieldOp::create(b, loc, step(i, 1, iterArgs));
              });
          return SmallVector<Value>(loop.getResults());
        };
        slices = forEachIndex(
            parallelBatches, batchOrigin, batch, slices,
            [&](Value batchIndex, int64_t, ValueRange batchCarried) {
              return forEachIndex(
                  parallelKvHeads, kvHeadOrigin, kvHeads, batchCarried,
                  [&](Value kvHead, int64_t, ValueRange kvCarried) {
                    return forEachTile(
                        keys, keyTile, std::nullopt, kvCarried,
                        [&](Value keyStart, int64_t keyLength,
                            ValueRange carried) {
                          return backwardKeyTile(carried, batchIndex, kvHead,
                                                 keyStart, keyLength);
                        });
                  });
            });

        auto inParallel = scf::InParallelOp::create(b, loc);
        b.setInsertionPointToStart(inParallel.getBody());
        for (auto [slice, value, offset, size] :
             llvm::zip_equal(slices, shared, offsets, sizes))
          tensor::ParallelInsertSliceOp::create(
              b, loc, slice, value, offset, size,
              SmallVector<OpFoldResult>(offset.size(), b.getIndexAttr(1)));
      });
  ValueRange carried = forall.getResults();
  SmallVector<Value> gradients = {
      convertElements(b, loc, carried[0], storage),
      carried[carried.size() - 2], carried[carried.size() - 1]};
  if (withBiasGrad)
    gradients.push_back(convertElements(b, loc, carried[1], storage));
  return gradients;
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
    Value logSumExp = op.getLogsumexp();
    rewriter.replaceOp(
        op, builder.buildForward(
                cast<RankedTensorType>(op.getOut().getType()),
                logSumExp ? cast<RankedTensorType>(logSumExp.getType())
                          : RankedTensorType()));
    return success();
  }

  AttentionTileSizes tiles;
};

struct AttentionBackwardToLinalg : OpConversionPattern<AttentionBackwardOp> {
  AttentionBackwardToLinalg(MLIRContext *context, AttentionTileSizes tiles)
      : OpConversionPattern(context), tiles(tiles) {}

  LogicalResult
  matchAndRewrite(AttentionBackwardOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    AttentionBuilder builder(rewriter, op, adaptor.getQ(), adaptor.getK(),
                             adaptor.getV(), adaptor.getMask(), tiles);
    rewriter.replaceOp(op, builder.buildBackward(
                               adaptor.getOut(), adaptor.getDout(),
                               adaptor.getLogsumexp(), op.getWithBiasGrad()));
    return success();
  }

  AttentionTileSizes tiles;
};
} // namespace

void mlir::rlx::populateAttentionToLinalgPatterns(RewritePatternSet &patterns,
                                                  AttentionTileSizes tiles) {
  patterns.add<AttentionToLinalg, AttentionBackwardToLinalg>(
      patterns.getContext(), tiles);
}
