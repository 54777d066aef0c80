//===- AttentionTileOps.cpp - Attention's code generation forms -----------===//
//
// rlx.online_attention, rlx.attention_dq and rlx.attention_dkdv: the
// destination-style forms of attention and its backward op that code
// generation tiles, as IREE's LinalgExt `online_attention` is.
// `TilingInterface` cuts them into tiles of their loops, and
// `decomposeOperation` writes one tile (one batch and head) as linalg ops
// (the products as contractions, the softmax steps as elementwise ops and
// row reductions) for the codegen layer to tile further and vectorize.
// Upstream linalg has no attention op; linalg.softmax decomposes the same
// way but needs whole rows of scores, which attention never materializes.
//
//===----------------------------------------------------------------------===//
#include "rlx/Dialect/Rlx/IR/RlxOps.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StructuredOpsUtils.h"

#include <array>
#include <limits>

using namespace mlir;
using namespace mlir::rlx;

static constexpr double kNegativeInfinity =
    -std::numeric_limits<double>::infinity();

//===----------------------------------------------------------------------===//
// Verifiers
//===----------------------------------------------------------------------===//

/// Whether two sizes may be equal (a dynamic size may be anything).
static bool compatible(int64_t a, int64_t b) {
  return ShapedType::isDynamic(a) || ShapedType::isDynamic(b) || a == b;
}

static std::string formatShape(ArrayRef<int64_t> shape) {
  std::string text = "[";
  llvm::raw_string_ostream os(text);
  llvm::interleaveComma(shape, os, [&](int64_t size) {
    if (ShapedType::isDynamic(size))
      os << "?";
    else
      os << size;
  });
  return text + "]";
}

namespace {
/// What every attention tile op takes, read for its verifier.
struct AttentionTileOperands {
  Value q, k, v, mask, diagonal;
  AttentionLayout layout;
  AttentionMask kind;
  std::optional<int64_t> window;
  std::optional<APFloat> softcap;
};
} // namespace

/// Checks the operands and attributes every attention tile op shares, and
/// gives q's element type's computation type.
static FailureOr<Type> verifyAttentionTile(Operation *op,
                                           const AttentionTileOperands &in) {
  if (in.layout == AttentionLayout::BSD)
    return op->emitOpError("takes layout bshd or bhsd (bsd is bshd with one "
                           "head)");
  int64_t headAxis = *AttentionOp::getHeadAxis(in.layout);
  int64_t sequenceAxis = AttentionOp::getSequenceAxis(in.layout);
  auto qType = cast<RankedTensorType>(in.q.getType());
  auto kType = cast<RankedTensorType>(in.k.getType());
  auto vType = cast<RankedTensorType>(in.v.getType());
  for (auto [type, name] : {std::pair{qType, "q"}, {kType, "k"}, {vType, "v"}})
    if (type.getRank() != 4)
      return op->emitOpError() << name << " must have rank 4, got "
                               << formatShape(type.getShape());
  Type storage = qType.getElementType();
  if (!isa<FloatType>(storage) || kType.getElementType() != storage ||
      vType.getElementType() != storage)
    return op->emitOpError("q, k and v must have one float element type");
  ArrayRef<int64_t> q = qType.getShape(), k = kType.getShape(),
                    v = vType.getShape();
  if (!compatible(q[0], k[0]) || !compatible(k[0], v[0]) ||
      !compatible(k[headAxis], v[headAxis]) ||
      !compatible(k[sequenceAxis], v[sequenceAxis]) ||
      !compatible(q.back(), k.back()))
    return op->emitOpError("k and v must match q's batch, and each other's "
                           "heads and keys, and k q's head dimension; got q ")
           << formatShape(q) << ", k " << formatShape(k) << ", v "
           << formatShape(v);
  if (ShapedType::isStatic(q[headAxis]) && ShapedType::isStatic(k[headAxis]) &&
      q[headAxis] % k[headAxis] != 0)
    return op->emitOpError("the kv heads (")
           << k[headAxis] << ") must divide the query heads (" << q[headAxis]
           << ")";

  bool takesMask =
      in.kind == AttentionMask::Padding || in.kind == AttentionMask::Bias;
  if (takesMask != static_cast<bool>(in.mask))
    return op->emitOpError("mask_kind = ")
           << stringifyAttentionMask(in.kind)
           << (takesMask ? " needs" : " takes no") << " mask operand";
  bool positional = in.kind == AttentionMask::Causal ||
                    in.kind == AttentionMask::SlidingWindow;
  if (positional != static_cast<bool>(in.diagonal))
    return op->emitOpError("a diagonal goes with mask_kind causal or "
                           "sliding_window, and only with them");
  if ((in.kind == AttentionMask::SlidingWindow) != in.window.has_value())
    return op->emitOpError("a window goes with mask_kind sliding_window, and "
                           "only with it");
  if (in.window && *in.window < 0)
    return op->emitOpError("window must be non-negative, got ") << *in.window;
  if (in.mask) {
    ArrayRef<int64_t> shape =
        cast<RankedTensorType>(in.mask.getType()).getShape();
    if (in.kind == AttentionMask::Padding &&
        (shape.size() != 2 || !compatible(shape[0], q[0]) ||
         !compatible(shape[1], k[sequenceAxis])))
      return op->emitOpError("padding mask must be [B, S_k], got ")
             << formatShape(shape);
    if (in.kind == AttentionMask::Bias &&
        (shape.size() != 4 || (shape[0] != 1 && !compatible(shape[0], q[0])) ||
         (shape[1] != 1 && !compatible(shape[1], q[headAxis])) ||
         !compatible(shape[2], q[sequenceAxis]) ||
         !compatible(shape[3], k[sequenceAxis]) ||
         cast<RankedTensorType>(in.mask.getType()).getElementType() != storage))
      return op->emitOpError("bias must be [B or 1, H or 1, S_q, S_k] of q's "
                             "element type, got ")
             << in.mask.getType();
  }
  if (in.softcap && !(in.softcap->convertToDouble() > 0.0))
    return op->emitOpError("softcap must be positive");
  return ScalarBuilder::computeType(storage);
}

/// Checks that `value` (named `name`) is `expected` (dynamic sizes match
/// anything) of `element`s.
static LogicalResult verifyShape(Operation *op, Value value,
                                 ArrayRef<int64_t> expected, Type element,
                                 StringRef name) {
  auto type = cast<RankedTensorType>(value.getType());
  if (type.getElementType() != element)
    return op->emitOpError() << name << " must have the element type "
                             << element << ", got " << type.getElementType();
  if (type.getRank() != static_cast<int64_t>(expected.size()) ||
      !llvm::all_of(llvm::zip_equal(type.getShape(), expected), [](auto sizes) {
        return compatible(std::get<0>(sizes), std::get<1>(sizes));
      }))
    return op->emitOpError() << name << " must be " << formatShape(expected)
                             << ", got " << formatShape(type.getShape());
  return success();
}

/// [B, H, S_q] of q.
static SmallVector<int64_t> getRowShape(Value q, AttentionLayout layout) {
  ArrayRef<int64_t> shape = cast<RankedTensorType>(q.getType()).getShape();
  return {shape[0], shape[*AttentionOp::getHeadAxis(layout)],
          shape[AttentionOp::getSequenceAxis(layout)]};
}

/// `like`'s shape with `features` as its last size.
static SmallVector<int64_t> withFeatures(Value like, Value features) {
  SmallVector<int64_t> shape(cast<RankedTensorType>(like.getType()).getShape());
  shape.back() = cast<RankedTensorType>(features.getType()).getShape().back();
  return shape;
}

template <typename OpTy> static AttentionTileOperands getTileOperands(OpTy op) {
  return {op.getQ(),        op.getK(),        op.getV(),
          op.getMask(),     op.getDiagonal(), op.getLayout(),
          op.getMaskKind(), op.getWindow(),   op.getSoftcap()};
}

LogicalResult OnlineAttentionOp::verify() {
  FailureOr<Type> computeType =
      verifyAttentionTile(*this, getTileOperands(*this));
  if (failed(computeType))
    return failure();
  if (getAcc().getType().getRank() != 4)
    return emitOpError("acc must have rank 4");
  SmallVector<int64_t> rows = getRowShape(getQ(), getLayout());
  if (failed(verifyShape(*this, getAcc(), withFeatures(getQ(), getV()),
                         *computeType, "acc")) ||
      failed(verifyShape(*this, getMax(), rows, *computeType, "max")) ||
      failed(verifyShape(*this, getSum(), rows, *computeType, "sum")))
    return failure();
  if (getResultTypes() != TypeRange(getDpsInits()))
    return emitOpError("results must have the types of acc, max and sum");
  return success();
}

/// The checks of the two backward tile ops' shared operands: dout, the
/// logsumexp and delta.
template <typename OpTy> static FailureOr<Type> verifyBackwardTile(OpTy op) {
  FailureOr<Type> computeType = verifyAttentionTile(op, getTileOperands(op));
  if (failed(computeType))
    return failure();
  SmallVector<int64_t> rows = getRowShape(op.getQ(), op.getLayout());
  Type storage = op.getQ().getType().getElementType();
  if (failed(verifyShape(op, op.getDout(), withFeatures(op.getQ(), op.getV()),
                         storage, "dout")) ||
      failed(verifyShape(op, op.getLogsumexp(), rows, *computeType,
                         "logsumexp")) ||
      failed(verifyShape(op, op.getDelta(), rows, *computeType, "delta")))
    return failure();
  if (op->getResultTypes() != TypeRange(op.getDpsInits()))
    return op.emitOpError("results must have the types of the inits");
  return computeType;
}

LogicalResult AttentionDqOp::verify() {
  FailureOr<Type> computeType = verifyBackwardTile(*this);
  if (failed(computeType) ||
      failed(verifyShape(*this, getDq(), getQ().getType().getShape(),
                         *computeType, "dq")))
    return failure();
  if (Value dbias = getDbias()) {
    if (getMaskKind() != AttentionMask::Bias)
      return emitOpError("a dbias init goes with mask_kind bias");
    if (failed(
            verifyShape(*this, dbias,
                        cast<RankedTensorType>(getMask().getType()).getShape(),
                        *computeType, "dbias")))
      return failure();
  }
  return success();
}

LogicalResult AttentionDkDvOp::verify() {
  FailureOr<Type> computeType = verifyBackwardTile(*this);
  if (failed(computeType) ||
      failed(verifyShape(*this, getDk(), getK().getType().getShape(),
                         *computeType, "dk")) ||
      failed(verifyShape(*this, getDv(), getV().getType().getShape(),
                         *computeType, "dv")))
    return failure();
  return success();
}

//===----------------------------------------------------------------------===//
// Tiling
//===----------------------------------------------------------------------===//

namespace {
/// A tile of one loop: its first iteration and its size.
struct LoopTile {
  OpFoldResult offset, size;
};

/// Builds the slices of one tile of an attention tile op.
class TileSlicer {
public:
  TileSlicer(OpBuilder &b, Location loc, AttentionLayout layout)
      : b(b), loc(loc), layout(layout) {}

  /// The (batch, head, sequence) tile of a value of the layout (q, k, v,
  /// their gradients and the accumulator), with all of its features.
  void getLayoutSlice(Value value, LoopTile batch, LoopTile head,
                      LoopTile sequence, SmallVectorImpl<OpFoldResult> &offsets,
                      SmallVectorImpl<OpFoldResult> &sizes) {
    OpFoldResult features = tensor::getMixedSize(b, loc, value, 3);
    if (layout == AttentionLayout::BHSD) {
      offsets.assign(
          {batch.offset, head.offset, sequence.offset, b.getIndexAttr(0)});
      sizes.assign({batch.size, head.size, sequence.size, features});
      return;
    }
    offsets.assign(
        {batch.offset, sequence.offset, head.offset, b.getIndexAttr(0)});
    sizes.assign({batch.size, sequence.size, head.size, features});
  }
  /// The [batch, head, query] tile of a row value (logsumexp, delta, the
  /// max and sum state).
  void getRowSlice(LoopTile batch, LoopTile head, LoopTile query,
                   SmallVectorImpl<OpFoldResult> &offsets,
                   SmallVectorImpl<OpFoldResult> &sizes) {
    offsets.assign({batch.offset, head.offset, query.offset});
    sizes.assign({batch.size, head.size, query.size});
  }
  /// The tile of the mask: the bias's [batch, head, query, key] (its
  /// broadcast axes read at 0) or the padding's [batch, key].
  void getMaskSlice(Value mask, AttentionMask kind, LoopTile batch,
                    LoopTile head, LoopTile query, LoopTile key,
                    SmallVectorImpl<OpFoldResult> &offsets,
                    SmallVectorImpl<OpFoldResult> &sizes) {
    if (kind == AttentionMask::Padding) {
      offsets.assign({batch.offset, key.offset});
      sizes.assign({batch.size, key.size});
      return;
    }
    ArrayRef<int64_t> shape = cast<RankedTensorType>(mask.getType()).getShape();
    OpFoldResult zero = b.getIndexAttr(0), one = b.getIndexAttr(1);
    offsets.assign({shape[0] == 1 ? zero : batch.offset,
                    shape[1] == 1 ? zero : head.offset, query.offset,
                    key.offset});
    sizes.assign({shape[0] == 1 ? one : batch.size,
                  shape[1] == 1 ? one : head.size, query.size, key.size});
  }

  /// Extracts a slice, recorded as one of the tile's.
  Value extract(Value value, ArrayRef<OpFoldResult> offsets,
                ArrayRef<OpFoldResult> sizes) {
    auto slice = tensor::ExtractSliceOp::create(
        b, loc, value, offsets, sizes,
        SmallVector<OpFoldResult>(offsets.size(), b.getIndexAttr(1)));
    slices.push_back(slice);
    return slice;
  }
  Value extractLayout(Value value, LoopTile batch, LoopTile head,
                      LoopTile sequence) {
    SmallVector<OpFoldResult> offsets, sizes;
    getLayoutSlice(value, batch, head, sequence, offsets, sizes);
    return extract(value, offsets, sizes);
  }
  Value extractRows(Value value, LoopTile batch, LoopTile head,
                    LoopTile query) {
    SmallVector<OpFoldResult> offsets, sizes;
    getRowSlice(batch, head, query, offsets, sizes);
    return extract(value, offsets, sizes);
  }
  Value extractMask(Value mask, AttentionMask kind, LoopTile batch,
                    LoopTile head, LoopTile query, LoopTile key) {
    SmallVector<OpFoldResult> offsets, sizes;
    getMaskSlice(mask, kind, batch, head, query, key, offsets, sizes);
    return extract(mask, offsets, sizes);
  }
  /// The tile's diagonal: query i of the tile is query i + a of the op and
  /// key j is key j + c, so j <= i + d becomes j <= i + (d + a - c).
  Value getDiagonal(Value diagonal, LoopTile query, LoopTile key) {
    AffineExpr d, a, c;
    bindDims(b.getContext(), d, a, c);
    return getValueOrCreateConstantIndexOp(
        b, loc,
        affine::makeComposedFoldedAffineApply(
            b, loc, d + a - c, {diagonal, query.offset, key.offset}));
  }

  /// The tile's q and its k and v (of the kv heads its query heads read),
  /// for ops whose loops are (batch, head, query, key).
  FailureOr<SmallVector<Value>>
  extractQueryKeyValue(Operation *op, Value q, Value k, Value v, LoopTile batch,
                       LoopTile head, LoopTile query, LoopTile key) {
    FailureOr<LoopTile> kvHead = getKvHeads(op, q, k, head);
    if (failed(kvHead))
      return failure();
    return SmallVector<Value>{extractLayout(q, batch, head, query),
                              extractLayout(k, batch, *kvHead, key),
                              extractLayout(v, batch, *kvHead, key)};
  }

  /// Appends the tile's mask and diagonal, where the op has them.
  void appendMaskAndDiagonal(SmallVectorImpl<Value> &operands, Value mask,
                             AttentionMask kind, Value diagonal, LoopTile batch,
                             LoopTile head, LoopTile query, LoopTile key) {
    if (mask)
      operands.push_back(extractMask(mask, kind, batch, head, query, key));
    if (diagonal)
      operands.push_back(getDiagonal(diagonal, query, key));
  }

  /// The kv heads a tile of query heads reads: the same ones without
  /// groups, head / group for one head, all of them for all heads.
  FailureOr<LoopTile> getKvHeads(Operation *op, Value q, Value k,
                                 LoopTile head) {
    int64_t headAxis = *AttentionOp::getHeadAxis(layout);
    int64_t heads = cast<RankedTensorType>(q.getType()).getDimSize(headAxis);
    int64_t kvHeads = cast<RankedTensorType>(k.getType()).getDimSize(headAxis);
    if (heads == kvHeads)
      return head;
    std::optional<int64_t> headOffset = getConstantIntValue(head.offset);
    std::optional<int64_t> headSize = getConstantIntValue(head.size);
    if (headSize == 1 && ShapedType::isStatic(heads) &&
        ShapedType::isStatic(kvHeads)) {
      AffineExpr h = b.getAffineDimExpr(0);
      return LoopTile{affine::makeComposedFoldedAffineApply(
                          b, loc, h.floorDiv(heads / kvHeads), {head.offset}),
                      head.size};
    }
    if (headOffset == 0 && headSize == heads)
      return LoopTile{head.offset, tensor::getMixedSize(b, loc, k, headAxis)};
    return op->emitOpError("a tile of grouped heads must hold one head or "
                           "all of them");
  }

  /// The tiled op: `op` cloned on `operands` with the types of its inits.
  TilingResult finish(Operation *op, ValueRange operands, ValueRange inits) {
    Operation *tiled = mlir::clone(b, op, TypeRange(inits), operands);
    return TilingResult{
        {tiled}, SmallVector<Value>(tiled->getResults()), slices};
  }

  OpBuilder &b;
  Location loc;
  AttentionLayout layout;
  SmallVector<Operation *> slices;
};
} // namespace

static SmallVector<Range> getDomain(OpBuilder &b, Location loc,
                                    ArrayRef<std::pair<Value, int64_t>> dims) {
  OpFoldResult zero = b.getIndexAttr(0), one = b.getIndexAttr(1);
  SmallVector<Range> domain;
  for (auto [value, axis] : dims)
    domain.push_back(
        Range{zero, tensor::getMixedSize(b, loc, value, axis), one});
  return domain;
}

/// The keys [low, high) that queries [0, S_q) see with `diagonal` (and
/// `window`): query i sees keys up to i + diagonal and from i + diagonal -
/// window.
static std::pair<OpFoldResult, OpFoldResult>
getVisibleKeys(OpBuilder &b, Location loc, OpFoldResult queries,
               OpFoldResult keys, Value diagonal,
               std::optional<int64_t> window) {
  MLIRContext *context = b.getContext();
  AffineExpr d0, d1;
  bindDims(context, d0, d1);
  AffineExpr zero = getAffineConstantExpr(0, context);
  OpFoldResult high = affine::makeComposedFoldedAffineMax(
      b, loc, AffineMap::get(2, 0, {d0 + d1, zero}, context),
      {queries, diagonal});
  high = affine::makeComposedFoldedAffineMin(
      b, loc, AffineMap::get(2, 0, {d0, d1}, context), {high, keys});
  OpFoldResult low = b.getIndexAttr(0);
  if (window) {
    low = affine::makeComposedFoldedAffineMax(
        b, loc, AffineMap::get(1, 0, {d0 - *window, zero}, context),
        {diagonal});
    low = affine::makeComposedFoldedAffineMin(
        b, loc, AffineMap::get(2, 0, {d0, d1}, context), {low, high});
  }
  return {low, high};
}

/// The queries [low, high) that see some key of [0, S_k): query i sees key
/// j when i >= j - diagonal and, with a window, i <= j - diagonal + window.
static std::pair<OpFoldResult, OpFoldResult>
getSeeingQueries(OpBuilder &b, Location loc, OpFoldResult queries,
                 OpFoldResult keys, Value diagonal,
                 std::optional<int64_t> window) {
  MLIRContext *context = b.getContext();
  AffineExpr d0, d1;
  bindDims(context, d0, d1);
  AffineExpr zero = getAffineConstantExpr(0, context);
  OpFoldResult low = affine::makeComposedFoldedAffineMax(
      b, loc, AffineMap::get(1, 0, {-d0, zero}, context), {diagonal});
  low = affine::makeComposedFoldedAffineMin(
      b, loc, AffineMap::get(2, 0, {d0, d1}, context), {low, queries});
  OpFoldResult high = queries;
  if (window) {
    high = affine::makeComposedFoldedAffineMax(
        b, loc, AffineMap::get(2, 0, {d0 - d1 + *window, zero}, context),
        {keys, diagonal});
    high = affine::makeComposedFoldedAffineMin(
        b, loc, AffineMap::get(2, 0, {d0, d1}, context), {high, queries});
    high = affine::makeComposedFoldedAffineMax(
        b, loc, AffineMap::get(2, 0, {d0, d1}, context), {high, low});
  }
  return {low, high};
}

// rlx.online_attention: loops (batch, head, query, key).

/// The loops (batch, head, query, key) of the forward and dq ops.
template <typename OpTy>
static SmallVector<Range> getQueryKeyDomain(OpTy op, OpBuilder &b) {
  int64_t sequenceAxis = AttentionOp::getSequenceAxis(op.getLayout());
  return getDomain(b, op.getLoc(),
                   {{op.getQ(), 0},
                    {op.getQ(), *AttentionOp::getHeadAxis(op.getLayout())},
                    {op.getQ(), sequenceAxis},
                    {op.getK(), sequenceAxis}});
}

/// The keys that some query of the forward or dq op `op` sees.
template <typename OpTy>
static std::pair<OpFoldResult, OpFoldResult> getVisibleKeysOf(OpTy op,
                                                              OpBuilder &b) {
  Location loc = op.getLoc();
  int64_t sequenceAxis = AttentionOp::getSequenceAxis(op.getLayout());
  OpFoldResult keys = tensor::getMixedSize(b, loc, op.getK(), sequenceAxis);
  if (!op.hasPositionalMask())
    return {b.getIndexAttr(0), keys};
  return getVisibleKeys(b, loc,
                        tensor::getMixedSize(b, loc, op.getQ(), sequenceAxis),
                        keys, op.getDiagonal(), op.getWindow());
}

SmallVector<Range> OnlineAttentionOp::getIterationDomain(OpBuilder &b) {
  return getQueryKeyDomain(*this, b);
}

SmallVector<utils::IteratorType> OnlineAttentionOp::getLoopIteratorTypes() {
  return {utils::IteratorType::parallel, utils::IteratorType::parallel,
          utils::IteratorType::parallel, utils::IteratorType::reduction};
}

/// The inputs of the tile of `op` at `offsets` and `sizes` (batch, head,
/// query, key): q, k, v, and the mask and diagonal where the op has them.
static FailureOr<SmallVector<Value>>
extractTileInputs(OnlineAttentionOp op, TileSlicer &slicer,
                  ArrayRef<OpFoldResult> offsets,
                  ArrayRef<OpFoldResult> sizes) {
  LoopTile batch{offsets[0], sizes[0]}, head{offsets[1], sizes[1]},
      query{offsets[2], sizes[2]}, key{offsets[3], sizes[3]};
  FailureOr<SmallVector<Value>> operands = slicer.extractQueryKeyValue(
      op, op.getQ(), op.getK(), op.getV(), batch, head, query, key);
  if (failed(operands))
    return failure();
  slicer.appendMaskAndDiagonal(*operands, op.getMask(), op.getMaskKind(),
                               op.getDiagonal(), batch, head, query, key);
  return operands;
}

FailureOr<TilingResult>
OnlineAttentionOp::getTiledImplementation(OpBuilder &b,
                                          ArrayRef<OpFoldResult> offsets,
                                          ArrayRef<OpFoldResult> sizes) {
  TileSlicer slicer(b, getLoc(), getLayout());
  LoopTile batch{offsets[0], sizes[0]}, head{offsets[1], sizes[1]},
      query{offsets[2], sizes[2]};
  FailureOr<SmallVector<Value>> operands =
      extractTileInputs(*this, slicer, offsets, sizes);
  if (failed(operands))
    return failure();
  SmallVector<Value> inits = {
      slicer.extractLayout(getAcc(), batch, head, query),
      slicer.extractRows(getMax(), batch, head, query),
      slicer.extractRows(getSum(), batch, head, query)};
  llvm::append_range(*operands, inits);
  return slicer.finish(*this, *operands, inits);
}

LogicalResult OnlineAttentionOp::getResultTilePosition(
    OpBuilder &b, unsigned resultNumber, ArrayRef<OpFoldResult> offsets,
    ArrayRef<OpFoldResult> sizes, SmallVector<OpFoldResult> &resultOffsets,
    SmallVector<OpFoldResult> &resultSizes) {
  TileSlicer slicer(b, getLoc(), getLayout());
  LoopTile batch{offsets[0], sizes[0]}, head{offsets[1], sizes[1]},
      query{offsets[2], sizes[2]};
  if (resultNumber == 0)
    slicer.getLayoutSlice(getAcc(), batch, head, query, resultOffsets,
                          resultSizes);
  else
    slicer.getRowSlice(batch, head, query, resultOffsets, resultSizes);
  return success();
}

unsigned OnlineAttentionOp::getMaskedLoop() { return 3; }

// Split-K: the key loop (3) splits into partial reductions whose states
// ([P, ...] of the op's, split `p` at [p]) start empty and merge after
// them (`mergeReductions`, below with the decomposition).

/// Fails with a diagnostic unless the key loop alone is split, at once
/// (the outer-parallel strategy: the splits are a parallel loop).
static LogicalResult checkKeySplit(OnlineAttentionOp op,
                                   ReductionTilingStrategy strategy,
                                   const SetVector<unsigned> &reductionDims) {
  if (strategy != ReductionTilingStrategy::PartialReductionOuterParallel ||
      reductionDims.size() != 1 || reductionDims.front() != 3)
    return op.emitOpError("splits its key loop (3) only, into partial "
                          "reductions that run at once");
  return success();
}

FailureOr<SmallVector<Value>>
OnlineAttentionOp::generateInitialTensorForPartialReduction(
    OpBuilder &b, Location loc, ArrayRef<OpFoldResult> sizes,
    const SetVector<unsigned> &reductionDims) {
  if (failed(checkKeySplit(
          *this, ReductionTilingStrategy::PartialReductionOuterParallel,
          reductionDims)))
    return failure();
  // sizes[3] is the number of splits; the rest are the state's own.
  SmallVector<Value> partials;
  std::array<double, 3> emptyState = {0.0, kNegativeInfinity, 0.0};
  for (auto [init, empty] : llvm::zip_equal(getDpsInits(), emptyState)) {
    SmallVector<OpFoldResult> shape = {sizes[3]};
    llvm::append_range(shape, tensor::getMixedSizes(b, loc, init));
    Type element = cast<RankedTensorType>(init.getType()).getElementType();
    Value value =
        arith::ConstantOp::create(b, loc, b.getFloatAttr(element, empty));
    partials.push_back(
        linalg::FillOp::create(
            b, loc, value,
            tensor::EmptyOp::create(b, loc, shape, element).getResult())
            .getResult(0));
  }
  return partials;
}

LogicalResult OnlineAttentionOp::getPartialResultTilePosition(
    OpBuilder &b, unsigned resultNumber, ReductionTilingStrategy strategy,
    ArrayRef<OpFoldResult> offsets, ArrayRef<OpFoldResult> sizes,
    const SetVector<unsigned> &reductionDims,
    ArrayRef<OpFoldResult> splitReductionIvs,
    SmallVector<OpFoldResult> &resultOffsets,
    SmallVector<OpFoldResult> &resultSizes) {
  if (failed(checkKeySplit(*this, strategy, reductionDims)) ||
      failed(getResultTilePosition(b, resultNumber, offsets, sizes,
                                   resultOffsets, resultSizes)))
    return failure();
  resultOffsets.insert(resultOffsets.begin(), splitReductionIvs.front());
  resultSizes.insert(resultSizes.begin(), b.getIndexAttr(1));
  return success();
}

FailureOr<TilingResult> OnlineAttentionOp::tileToPartialReduction(
    OpBuilder &b, Location loc, ReductionTilingStrategy strategy,
    ValueRange partials, ArrayRef<OpFoldResult> offsets,
    ArrayRef<OpFoldResult> sizes, const SetVector<unsigned> &reductionDims,
    ArrayRef<OpFoldResult> splitReductionIvs) {
  if (failed(checkKeySplit(*this, strategy, reductionDims)))
    return failure();
  TileSlicer slicer(b, loc, getLayout());
  FailureOr<SmallVector<Value>> operands =
      extractTileInputs(*this, slicer, offsets, sizes);
  if (failed(operands))
    return failure();
  // The split's state: its [p] slice of each partial, without the unit
  // split axis, so that the tile is an op like any other.
  SmallVector<Value> inits;
  for (auto [resultNumber, partial] : llvm::enumerate(partials)) {
    SmallVector<OpFoldResult> partialOffsets, partialSizes;
    if (failed(getPartialResultTilePosition(
            b, resultNumber, strategy, offsets, sizes, reductionDims,
            splitReductionIvs, partialOffsets, partialSizes)))
      return failure();
    SmallVector<OpFoldResult> strides(partialOffsets.size(), b.getIndexAttr(1));
    auto partialType = cast<RankedTensorType>(partial.getType());
    auto slice = tensor::ExtractSliceOp::create(
        b, loc,
        tensor::ExtractSliceOp::inferCanonicalRankReducedResultType(
            partialType.getRank() - 1, partialType, partialSizes),
        partial, partialOffsets, partialSizes, strides);
    slicer.slices.push_back(slice);
    inits.push_back(slice);
  }
  llvm::append_range(*operands, inits);
  return slicer.finish(*this, *operands, inits);
}

std::pair<OpFoldResult, OpFoldResult>
OnlineAttentionOp::getVisibleRange(OpBuilder &b) {
  return getVisibleKeysOf(*this, b);
}

// rlx.attention_dq: loops (batch, head, query, key).

SmallVector<Range> AttentionDqOp::getIterationDomain(OpBuilder &b) {
  return getQueryKeyDomain(*this, b);
}

SmallVector<utils::IteratorType> AttentionDqOp::getLoopIteratorTypes() {
  // A bias gradient that broadcasts over batches or heads sums over them.
  auto parallel = utils::IteratorType::parallel;
  auto reduction = utils::IteratorType::reduction;
  SmallVector<utils::IteratorType> iterators = {parallel, parallel, parallel,
                                                reduction};
  if (Value dbias = getDbias()) {
    ArrayRef<int64_t> shape =
        cast<RankedTensorType>(dbias.getType()).getShape();
    ArrayRef<int64_t> q = getQ().getType().getShape();
    int64_t headAxis = *AttentionOp::getHeadAxis(getLayout());
    if (shape[0] == 1 && q[0] != 1)
      iterators[0] = reduction;
    if (shape[1] == 1 && q[headAxis] != 1)
      iterators[1] = reduction;
  }
  return iterators;
}

FailureOr<TilingResult>
AttentionDqOp::getTiledImplementation(OpBuilder &b,
                                      ArrayRef<OpFoldResult> offsets,
                                      ArrayRef<OpFoldResult> sizes) {
  TileSlicer slicer(b, getLoc(), getLayout());
  LoopTile batch{offsets[0], sizes[0]}, head{offsets[1], sizes[1]},
      query{offsets[2], sizes[2]}, key{offsets[3], sizes[3]};
  FailureOr<SmallVector<Value>> operands = slicer.extractQueryKeyValue(
      *this, getQ(), getK(), getV(), batch, head, query, key);
  if (failed(operands))
    return failure();
  operands->append({slicer.extractLayout(getDout(), batch, head, query),
                    slicer.extractRows(getLogsumexp(), batch, head, query),
                    slicer.extractRows(getDelta(), batch, head, query)});
  slicer.appendMaskAndDiagonal(*operands, getMask(), getMaskKind(),
                               getDiagonal(), batch, head, query, key);
  SmallVector<Value> inits = {
      slicer.extractLayout(getDq(), batch, head, query)};
  if (Value dbias = getDbias())
    inits.push_back(
        slicer.extractMask(dbias, getMaskKind(), batch, head, query, key));
  llvm::append_range(*operands, inits);
  return slicer.finish(*this, *operands, inits);
}

LogicalResult AttentionDqOp::getResultTilePosition(
    OpBuilder &b, unsigned resultNumber, ArrayRef<OpFoldResult> offsets,
    ArrayRef<OpFoldResult> sizes, SmallVector<OpFoldResult> &resultOffsets,
    SmallVector<OpFoldResult> &resultSizes) {
  TileSlicer slicer(b, getLoc(), getLayout());
  LoopTile batch{offsets[0], sizes[0]}, head{offsets[1], sizes[1]},
      query{offsets[2], sizes[2]}, key{offsets[3], sizes[3]};
  if (resultNumber == 0)
    slicer.getLayoutSlice(getDq(), batch, head, query, resultOffsets,
                          resultSizes);
  else
    slicer.getMaskSlice(getDbias(), getMaskKind(), batch, head, query, key,
                        resultOffsets, resultSizes);
  return success();
}

unsigned AttentionDqOp::getMaskedLoop() { return 3; }

std::pair<OpFoldResult, OpFoldResult>
AttentionDqOp::getVisibleRange(OpBuilder &b) {
  return getVisibleKeysOf(*this, b);
}

// rlx.attention_dkdv: loops (batch, kv head, key, group member, query).

SmallVector<Range> AttentionDkDvOp::getIterationDomain(OpBuilder &b) {
  Location loc = getLoc();
  int64_t sequenceAxis = AttentionOp::getSequenceAxis(getLayout());
  int64_t headAxis = *AttentionOp::getHeadAxis(getLayout());
  SmallVector<Range> domain = getDomain(b, loc,
                                        {{getK(), 0},
                                         {getK(), headAxis},
                                         {getK(), sequenceAxis},
                                         {getQ(), headAxis},
                                         {getQ(), sequenceAxis}});
  // The group's size, H / H_kv.
  std::optional<int64_t> heads = getConstantIntValue(domain[3].size);
  std::optional<int64_t> kvHeads = getConstantIntValue(domain[1].size);
  domain[3].size =
      heads && kvHeads
          ? OpFoldResult(b.getIndexAttr(*heads / *kvHeads))
          : OpFoldResult(arith::DivUIOp::create(
                b, loc, getValueOrCreateConstantIndexOp(b, loc, domain[3].size),
                getValueOrCreateConstantIndexOp(b, loc, domain[1].size)));
  return domain;
}

SmallVector<utils::IteratorType> AttentionDkDvOp::getLoopIteratorTypes() {
  return {utils::IteratorType::parallel, utils::IteratorType::parallel,
          utils::IteratorType::parallel, utils::IteratorType::reduction,
          utils::IteratorType::reduction};
}

FailureOr<TilingResult>
AttentionDkDvOp::getTiledImplementation(OpBuilder &b,
                                        ArrayRef<OpFoldResult> offsets,
                                        ArrayRef<OpFoldResult> sizes) {
  Location loc = getLoc();
  TileSlicer slicer(b, loc, getLayout());
  LoopTile batch{offsets[0], sizes[0]}, kvHead{offsets[1], sizes[1]},
      key{offsets[2], sizes[2]}, member{offsets[3], sizes[3]},
      query{offsets[4], sizes[4]};
  // Query heads h * G + g: contiguous for one kv head, or for whole groups.
  int64_t headAxis = *AttentionOp::getHeadAxis(getLayout());
  int64_t heads = getQ().getType().getDimSize(headAxis);
  int64_t kvHeads = getK().getType().getDimSize(headAxis);
  if (ShapedType::isDynamic(heads) || ShapedType::isDynamic(kvHeads))
    return emitOpError("needs static head counts to be tiled");
  int64_t group = heads / kvHeads;
  std::optional<int64_t> memberSize = getConstantIntValue(member.size);
  std::optional<int64_t> kvHeadSize = getConstantIntValue(kvHead.size);
  if (kvHeadSize != 1 && memberSize != group)
    return emitOpError("a tile of several kv heads must hold their whole "
                       "groups");
  AffineExpr h, g;
  bindDims(b.getContext(), h, g);
  LoopTile head{affine::makeComposedFoldedAffineApply(
                    b, loc, h * group + g, {kvHead.offset, member.offset}),
                affine::makeComposedFoldedAffineApply(
                    b, loc, h * g, {kvHead.size, member.size})};
  SmallVector<Value> operands = {
      slicer.extractLayout(getQ(), batch, head, query),
      slicer.extractLayout(getK(), batch, kvHead, key),
      slicer.extractLayout(getV(), batch, kvHead, key),
      slicer.extractLayout(getDout(), batch, head, query),
      slicer.extractRows(getLogsumexp(), batch, head, query),
      slicer.extractRows(getDelta(), batch, head, query)};
  slicer.appendMaskAndDiagonal(operands, getMask(), getMaskKind(),
                               getDiagonal(), batch, head, query, key);
  SmallVector<Value> inits = {
      slicer.extractLayout(getDk(), batch, kvHead, key),
      slicer.extractLayout(getDv(), batch, kvHead, key)};
  llvm::append_range(operands, inits);
  return slicer.finish(*this, operands, inits);
}

LogicalResult AttentionDkDvOp::getResultTilePosition(
    OpBuilder &b, unsigned resultNumber, ArrayRef<OpFoldResult> offsets,
    ArrayRef<OpFoldResult> sizes, SmallVector<OpFoldResult> &resultOffsets,
    SmallVector<OpFoldResult> &resultSizes) {
  TileSlicer slicer(b, getLoc(), getLayout());
  slicer.getLayoutSlice(getDpsInits()[resultNumber], {offsets[0], sizes[0]},
                        {offsets[1], sizes[1]}, {offsets[2], sizes[2]},
                        resultOffsets, resultSizes);
  return success();
}

unsigned AttentionDkDvOp::getMaskedLoop() { return 4; }

std::pair<OpFoldResult, OpFoldResult>
AttentionDkDvOp::getVisibleRange(OpBuilder &b) {
  int64_t sequenceAxis = AttentionOp::getSequenceAxis(getLayout());
  OpFoldResult queries =
      tensor::getMixedSize(b, getLoc(), getQ(), sequenceAxis);
  if (!hasPositionalMask())
    return {b.getIndexAttr(0), queries};
  return getSeeingQueries(
      b, getLoc(), queries,
      tensor::getMixedSize(b, getLoc(), getK(), sequenceAxis), getDiagonal(),
      getWindow());
}

//===----------------------------------------------------------------------===//
// Decomposition
//===----------------------------------------------------------------------===//

namespace {
/// Builds the linalg ops of one tile on its matrices.
class TileBuilder {
public:
  TileBuilder(OpBuilder &b, Location loc) : b(b), loc(loc) {}

  /// An uninitialized tensor of `element`s whose dimensions are those of
  /// `dims` (pairs of a value and one of its axes).
  Value empty(ArrayRef<std::pair<Value, int64_t>> dims, Type element) {
    SmallVector<OpFoldResult> sizes;
    for (auto [value, axis] : dims)
      sizes.push_back(tensor::getMixedSize(b, loc, value, axis));
    return tensor::EmptyOp::create(b, loc, sizes, element);
  }
  Value filled(Value tensor, double value) {
    Type element = cast<RankedTensorType>(tensor.getType()).getElementType();
    Value scalar =
        arith::ConstantOp::create(b, loc, b.getFloatAttr(element, value));
    return linalg::FillOp::create(b, loc, scalar, tensor).getResult(0);
  }
  Value transposed(Value matrix) {
    Type element = cast<RankedTensorType>(matrix.getType()).getElementType();
    return linalg::TransposeOp::create(
               b, loc, matrix, empty({{matrix, 1}, {matrix, 0}}, element),
               ArrayRef<int64_t>{1, 0})
        .getResult()
        .front();
  }
  /// A generic writing `init` (read through the last of `maps`); `body`
  /// gets the element arguments, the init element last.
  Value generic(ValueRange inputs, Value init, ArrayRef<AffineMap> maps,
                ArrayRef<utils::IteratorType> iterators,
                function_ref<Value(ScalarBuilder &, ValueRange)> body) {
    return linalg::GenericOp::create(
               b, loc, init.getType(), inputs, init, maps, iterators,
               [&](OpBuilder &nested, Location bodyLoc, ValueRange args) {
                 ScalarBuilder s(nested, bodyLoc);
                 linalg::YieldOp::create(nested, bodyLoc, body(s, args));
               })
        .getResult(0);
  }
  /// The map of a `count`-loop generic reading the loops `dims`.
  AffineMap loops(unsigned count, ArrayRef<unsigned> dims) {
    SmallVector<AffineExpr> exprs;
    for (unsigned dim : dims)
      exprs.push_back(b.getAffineDimExpr(dim));
    return AffineMap::get(count, 0, exprs, b.getContext());
  }
  /// `init += lhs · rhs` as a three-loop contraction whose operands read the
  /// loops `lhsDims` and `rhsDims` and whose result reads (0, 1); operands
  /// are converted to the element type of `init`.
  Value accumulateProduct(Value lhs, ArrayRef<unsigned> lhsDims, Value rhs,
                          ArrayRef<unsigned> rhsDims, Value init) {
    Type accType = cast<RankedTensorType>(init.getType()).getElementType();
    return generic({lhs, rhs}, init,
                   {loops(3, lhsDims), loops(3, rhsDims), loops(3, {0, 1})},
                   {utils::IteratorType::parallel,
                    utils::IteratorType::parallel,
                    utils::IteratorType::reduction},
                   [&](ScalarBuilder &s, ValueRange args) {
                     return s.add(args[2], s.mul(s.convert(args[0], accType),
                                                 s.convert(args[1], accType)));
                   });
  }

  OpBuilder &b;
  Location loc;
};

/// The score rule of a tile: what rlx.attention does to q · k.
struct ScoreRule {
  AttentionMask kind;
  double scale;
  std::optional<double> softcap;
  std::optional<int64_t> window;
  /// The tile's [S_q, S_k] bias or [S_k] padding.
  Value mask;
  Value diagonal;
  Type computeType;

  template <typename OpTy> static ScoreRule get(OpTy op, Value mask) {
    ScoreRule rule{
        op.getMaskKind(),
        op.getScale().convertToDouble(),
        std::nullopt,
        op.getWindow(),
        mask,
        op.getDiagonal(),
        ScalarBuilder::computeType(op.getQ().getType().getElementType())};
    if (std::optional<APFloat> cap = op.getSoftcap())
      rule.softcap = cap->convertToDouble();
    return rule;
  }
};
} // namespace

/// `m`, or 0 where `m` is -inf: the offset that exp(s - m) subtracts, so a
/// row that has seen only masked keys gives exp(-inf) = 0 rather than
/// exp(-inf - -inf) = NaN.
static Value getSafeMaximum(ScalarBuilder &s, Value m) {
  Value isEmpty =
      s.compare(ComparePredicate::eq, m, s.constant(m, kNegativeInfinity));
  return s.select(isEmpty, s.constant(m, 0.0), m);
}

/// q · kᵀ for the tile ([S_q, S_k] in the computation type), from k
/// transposed: the key loop is then contiguous in kᵀ and in the products.
static Value buildProducts(TileBuilder &t, Value q, Value k, Type computeType) {
  return t.accumulateProduct(
      q, {0, 2}, t.transposed(k), {2, 1},
      t.filled(t.empty({{q, 0}, {k, 0}}, computeType), 0.0));
}

/// A [S_q, S_k] generic over `products` that computes each score (scaled,
/// capped, biased, masked to -inf) and yields `finish(score, rowArgs)`,
/// where `rowArgs` are the elements of `rowInputs` ([S_q] each) of the
/// score's query.
static Value
buildScores(TileBuilder &t, Value products, const ScoreRule &rule,
            ValueRange rowInputs,
            function_ref<Value(ScalarBuilder &, Value, ValueRange)> finish) {
  auto parallel = utils::IteratorType::parallel;
  SmallVector<Value> inputs = {products};
  SmallVector<AffineMap> maps = {t.loops(2, {0, 1})};
  if (rule.kind == AttentionMask::Bias) {
    inputs.push_back(rule.mask);
    maps.push_back(t.loops(2, {0, 1}));
  } else if (rule.kind == AttentionMask::Padding) {
    inputs.push_back(rule.mask);
    maps.push_back(t.loops(2, {1}));
  }
  size_t firstRow = inputs.size();
  for (Value rows : rowInputs) {
    inputs.push_back(rows);
    maps.push_back(t.loops(2, {0}));
  }
  maps.push_back(t.loops(2, {0, 1}));
  auto score = [&](ScalarBuilder &s, ValueRange args) -> Value {
    Value score = s.mul(args[0], s.constant(args[0], rule.scale));
    if (rule.softcap) {
      Value cap = s.constant(score, *rule.softcap);
      score = s.mul(cap, s.tanh(s.div(score, cap)));
    }
    Value minusInf = s.constant(score, kNegativeInfinity);
    switch (rule.kind) {
    case AttentionMask::None:
      return score;
    case AttentionMask::Bias:
      return s.add(score, s.convert(args[1], rule.computeType));
    case AttentionMask::Padding:
      return s.select(
          s.compare(ComparePredicate::ne, args[1], s.constant(args[1], 0.0)),
          score, minusInf);
    case AttentionMask::Causal:
    case AttentionMask::SlidingWindow: {
      // Query i sees key j when j <= i + diagonal (and, with a window w,
      // j >= i + diagonal - w).
      OpBuilder &nested = s.getBuilder();
      Location loc = s.getLoc();
      Value last = arith::AddIOp::create(
          nested, loc, linalg::IndexOp::create(nested, loc, 0), rule.diagonal);
      Value key = linalg::IndexOp::create(nested, loc, 1);
      Value visible = arith::CmpIOp::create(
          nested, loc, arith::CmpIPredicate::sle, key, last);
      if (rule.window) {
        Value first = arith::SubIOp::create(
            nested, loc, last,
            arith::ConstantIndexOp::create(nested, loc, *rule.window));
        visible = arith::AndIOp::create(
            nested, loc, visible,
            arith::CmpIOp::create(nested, loc, arith::CmpIPredicate::sge, key,
                                  first));
      }
      return s.select(visible, score, minusInf);
    }
    }
    llvm_unreachable("unknown attention mask");
  };
  return t.generic(
      inputs, t.empty({{products, 0}, {products, 1}}, rule.computeType), maps,
      {parallel, parallel}, [&](ScalarBuilder &s, ValueRange args) {
        return finish(s, score(s, args),
                      args.slice(firstRow, rowInputs.size()));
      });
}

/// `value` without its unit batch and head axes (`rows` for [B, H, S]).
static Value dropBatchAndHead(OpBuilder &b, Location loc, Value value,
                              AttentionLayout layout, bool rows) {
  auto type = cast<RankedTensorType>(value.getType());
  SmallVector<int64_t> shape;
  int64_t sequenceAxis = rows ? 2 : AttentionOp::getSequenceAxis(layout);
  shape.push_back(type.getDimSize(sequenceAxis));
  if (!rows)
    shape.push_back(type.getDimSize(3));
  return tensor::createCanonicalRankReducingExtractSliceOp(
      b, loc, value, RankedTensorType::get(shape, type.getElementType()));
}

/// The bias's [S_q, S_k] or the padding's [S_k] of a tile's mask.
static Value dropMaskBatchAndHead(OpBuilder &b, Location loc, Value mask,
                                  AttentionMask kind) {
  if (!mask)
    return nullptr;
  auto type = cast<RankedTensorType>(mask.getType());
  return tensor::createCanonicalRankReducingExtractSliceOp(
      b, loc, mask,
      RankedTensorType::get(
          type.getShape().take_back(kind == AttentionMask::Bias ? 2 : 1),
          type.getElementType()));
}

/// Fails unless `op`'s q has one batch and one head.
template <typename OpTy> static LogicalResult checkOneBatchAndHead(OpTy op) {
  ArrayRef<int64_t> shape = op.getQ().getType().getShape();
  if (shape[0] != 1 || shape[*AttentionOp::getHeadAxis(op.getLayout())] != 1)
    return op.emitOpError("decomposes one batch and one head at a time (tile "
                          "those loops by 1 first)");
  return success();
}

FailureOr<SmallVector<Value>>
OnlineAttentionOp::decomposeOperation(OpBuilder &b) {
  if (failed(checkOneBatchAndHead(*this)))
    return failure();
  Location loc = getLoc();
  AttentionLayout layout = getLayout();
  Type computeType = getAcc().getType().getElementType();
  Value q = dropBatchAndHead(b, loc, getQ(), layout, false);
  Value k = dropBatchAndHead(b, loc, getK(), layout, false);
  Value v = dropBatchAndHead(b, loc, getV(), layout, false);
  Value acc = dropBatchAndHead(b, loc, getAcc(), layout, false);
  Value oldMaximum = dropBatchAndHead(b, loc, getMax(), layout, true);
  Value oldSum = dropBatchAndHead(b, loc, getSum(), layout, true);
  ScoreRule rule = ScoreRule::get(
      *this, dropMaskBatchAndHead(b, loc, getMask(), getMaskKind()));

  TileBuilder t(b, loc);
  auto parallel = utils::IteratorType::parallel;
  auto reduction = utils::IteratorType::reduction;
  AffineMap rows2 = t.loops(2, {0}), identity2 = t.loops(2, {0, 1}),
            identity1 = t.loops(1, {0});
  Value scores = buildScores(
      t, buildProducts(t, q, k, computeType), rule, {},
      [](ScalarBuilder &, Value score, ValueRange) { return score; });

  // Every update of the state writes into it (destination-passing style),
  // so a loop over key tiles bufferizes in place.
  Value tileMaximum = t.generic(
      scores, t.filled(t.empty({{q, 0}}, computeType), kNegativeInfinity),
      {identity2, rows2}, {parallel, reduction},
      [](ScalarBuilder &s, ValueRange args) {
        return s.max(args[1], args[0]);
      });
  // exp(m_old - m_new): how much the running sums shrink as the maximum
  // rises.
  Value correction =
      t.generic({oldMaximum, tileMaximum}, t.empty({{q, 0}}, computeType),
                {identity1, identity1, identity1}, {parallel},
                [](ScalarBuilder &s, ValueRange args) {
                  Value maximum = s.max(args[0], args[1]);
                  return s.exp(s.sub(args[0], getSafeMaximum(s, maximum)));
                });
  Value maximum = t.generic(tileMaximum, oldMaximum, {identity1, identity1},
                            {parallel}, [](ScalarBuilder &s, ValueRange args) {
                              return s.max(args[1], args[0]);
                            });
  // The probabilities overwrite the scores.
  Value probabilities =
      t.generic(maximum, scores, {rows2, identity2}, {parallel, parallel},
                [](ScalarBuilder &s, ValueRange args) {
                  return s.exp(s.sub(args[1], getSafeMaximum(s, args[0])));
                });
  // l = l * correction + sum_j p[i, j].
  Value sum = t.generic(correction, oldSum, {identity1, identity1}, {parallel},
                        [](ScalarBuilder &s, ValueRange args) {
                          return s.mul(args[1], args[0]);
                        });
  sum = t.generic(probabilities, sum, {identity2, rows2}, {parallel, reduction},
                  [](ScalarBuilder &s, ValueRange args) {
                    return s.add(args[1], args[0]);
                  });
  // acc = acc * correction + p · v, the product with loops (i, d, j).
  acc = t.generic(correction, acc, {rows2, identity2}, {parallel, parallel},
                  [](ScalarBuilder &s, ValueRange args) {
                    return s.mul(args[1], args[0]);
                  });
  acc = t.accumulateProduct(probabilities, {0, 2}, v, {2, 1}, acc);

  return SmallVector<Value>{
      tensor::createCanonicalRankReducingInsertSliceOp(b, loc, acc, getAcc()),
      tensor::createCanonicalRankReducingInsertSliceOp(b, loc, maximum,
                                                       getMax()),
      tensor::createCanonicalRankReducingInsertSliceOp(b, loc, sum, getSum())};
}

FailureOr<MergeResult>
OnlineAttentionOp::mergeReductions(OpBuilder &b, Location loc,
                                   ValueRange partials,
                                   const SetVector<unsigned> &reductionDims) {
  if (failed(checkKeySplit(
          *this, ReductionTilingStrategy::PartialReductionOuterParallel,
          reductionDims)))
    return failure();
  TileBuilder t(b, loc);
  MergeResult merge;
  // Every op the merge computes with, for the caller.
  auto merged = [&](Value value) {
    merge.mergeOps.push_back(value.getDefiningOp());
    return value;
  };
  auto parallel = utils::IteratorType::parallel;
  auto reduction = utils::IteratorType::reduction;
  Value accPartials = partials[0], maxPartials = partials[1],
        sumPartials = partials[2];
  Value acc = getAcc(), oldMaximum = getMax(), sum = getSum();
  Type computeType = getAcc().getType().getElementType();
  // Loops (b, h, s) of the rows, then the split p; the partials are
  // [p, b, h, s].
  AffineMap rows = t.loops(4, {0, 1, 2}),
            partialRows = t.loops(4, {3, 0, 1, 2});
  SmallVector<utils::IteratorType> rowsThenSplits = {parallel, parallel,
                                                     parallel, reduction};
  // m' = max(m, max_p m_p).
  Value maximum =
      t.generic({maxPartials, oldMaximum},
                merged(t.filled(
                    t.empty({{oldMaximum, 0}, {oldMaximum, 1}, {oldMaximum, 2}},
                            computeType),
                    kNegativeInfinity)),
                {partialRows, rows, rows}, rowsThenSplits,
                [](ScalarBuilder &s, ValueRange args) {
                  return s.max(args[2], s.max(args[0], args[1]));
                });
  // The weight of each state in the merged one: exp(m - m'), 0 for a
  // state that has seen no key.
  auto weight = [](ScalarBuilder &s, ValueRange args) {
    return s.exp(s.sub(args[0], getSafeMaximum(s, args[1])));
  };
  AffineMap identity3 = t.loops(3, {0, 1, 2});
  Value oldWeight = t.generic(
      {oldMaximum, maximum},
      t.empty({{oldMaximum, 0}, {oldMaximum, 1}, {oldMaximum, 2}}, computeType),
      {identity3, identity3, identity3}, {parallel, parallel, parallel},
      weight);
  AffineMap identity4 = t.loops(4, {0, 1, 2, 3});
  Value partialWeights =
      t.generic({maxPartials, maximum},
                t.empty({{maxPartials, 0},
                         {maxPartials, 1},
                         {maxPartials, 2},
                         {maxPartials, 3}},
                        computeType),
                {identity4, t.loops(4, {1, 2, 3}), identity4},
                {parallel, parallel, parallel, parallel}, weight);
  auto scale = [](ScalarBuilder &s, ValueRange args) {
    return s.mul(args[1], args[0]);
  };
  auto accumulate = [](ScalarBuilder &s, ValueRange args) {
    return s.add(args[2], s.mul(args[0], args[1]));
  };
  // l' = l * exp(m - m') + sum_p l_p * exp(m_p - m').
  sum = merged(t.generic(oldWeight, sum, {identity3, identity3},
                         {parallel, parallel, parallel}, scale));
  sum = t.generic({sumPartials, partialWeights}, sum,
                  {partialRows, partialRows, rows}, rowsThenSplits, accumulate);
  // acc' likewise, over acc's loops in its layout (b and its sequence and
  // head axes, then the features d) and then p.
  AttentionLayout layout = getLayout();
  unsigned head = *AttentionOp::getHeadAxis(layout),
           sequence = AttentionOp::getSequenceAxis(layout);
  AffineMap accRows = t.loops(4, {0, head, sequence});
  acc = merged(t.generic(oldWeight, acc, {accRows, identity4},
                         {parallel, parallel, parallel, parallel}, scale));
  acc = t.generic(
      {accPartials, partialWeights}, acc,
      {t.loops(5, {4, 0, 1, 2, 3}), t.loops(5, {4, 0, head, sequence}),
       t.loops(5, {0, 1, 2, 3})},
      {parallel, parallel, parallel, parallel, reduction}, accumulate);

  for (Value value : {maximum, oldWeight, partialWeights, sum, acc})
    merged(value);
  merge.replacements = {acc, maximum, sum};
  return merge;
}

namespace {
/// The shared part of the backward tiles: the recomputed probabilities and
/// the score gradient of one (query tile, key tile) pair.
struct BackwardTile {
  Value q, k, v, dout, products, probabilities, ds;
};
} // namespace

template <typename OpTy>
static BackwardTile buildBackwardTile(TileBuilder &t, OpTy op) {
  OpBuilder &b = t.b;
  Location loc = t.loc;
  AttentionLayout layout = op.getLayout();
  Type computeType =
      ScalarBuilder::computeType(op.getQ().getType().getElementType());
  BackwardTile tile;
  tile.q = dropBatchAndHead(b, loc, op.getQ(), layout, false);
  tile.k = dropBatchAndHead(b, loc, op.getK(), layout, false);
  tile.v = dropBatchAndHead(b, loc, op.getV(), layout, false);
  tile.dout = dropBatchAndHead(b, loc, op.getDout(), layout, false);
  Value logSumExp = dropBatchAndHead(b, loc, op.getLogsumexp(), layout, true);
  Value delta = dropBatchAndHead(b, loc, op.getDelta(), layout, true);
  ScoreRule rule = ScoreRule::get(
      op, dropMaskBatchAndHead(b, loc, op.getMask(), op.getMaskKind()));

  // p = exp(s - logsumexp), recomputed; 0 for masked keys and rows.
  tile.products = buildProducts(t, tile.q, tile.k, computeType);
  tile.probabilities =
      buildScores(t, tile.products, rule, logSumExp,
                  [](ScalarBuilder &s, Value score, ValueRange rowArgs) {
                    return s.exp(s.sub(score, getSafeMaximum(s, rowArgs[0])));
                  });
  // ds = p * (dout · vᵀ - delta), over dout · vᵀ in place.
  auto parallel = utils::IteratorType::parallel;
  Value ds = t.accumulateProduct(
      tile.dout, {0, 2}, t.transposed(tile.v), {2, 1},
      t.filled(t.empty({{tile.q, 0}, {tile.k, 0}}, computeType), 0.0));
  tile.ds =
      t.generic({tile.probabilities, delta}, ds,
                {t.loops(2, {0, 1}), t.loops(2, {0}), t.loops(2, {0, 1})},
                {parallel, parallel}, [](ScalarBuilder &s, ValueRange args) {
                  return s.mul(args[0], s.sub(args[2], args[1]));
                });
  return tile;
}

/// dx = scale * ds * softcap'(x), with softcap'(x) = 1 - tanh(x / c)^2 at
/// the scaled score x = scale * q · k; in place over ds.
template <typename OpTy>
static Value buildScoreGradient(TileBuilder &t, OpTy op,
                                const BackwardTile &tile) {
  double scale = op.getScale().convertToDouble();
  std::optional<double> softcap;
  if (std::optional<APFloat> cap = op.getSoftcap())
    softcap = cap->convertToDouble();
  auto parallel = utils::IteratorType::parallel;
  return t.generic(
      tile.products, tile.ds, {t.loops(2, {0, 1}), t.loops(2, {0, 1})},
      {parallel, parallel}, [&](ScalarBuilder &s, ValueRange args) {
        Value scaled = s.mul(args[1], s.constant(args[1], scale));
        if (!softcap)
          return scaled;
        Value cap = s.constant(args[0], *softcap);
        Value tanh =
            s.tanh(s.div(s.mul(args[0], s.constant(args[0], scale)), cap));
        return s.mul(scaled, s.sub(s.constant(tanh, 1.0), s.mul(tanh, tanh)));
      });
}

FailureOr<SmallVector<Value>> AttentionDqOp::decomposeOperation(OpBuilder &b) {
  if (failed(checkOneBatchAndHead(*this)))
    return failure();
  Location loc = getLoc();
  TileBuilder t(b, loc);
  BackwardTile tile = buildBackwardTile(t, *this);
  SmallVector<Value> results;
  Value dbias;
  if (getDbias()) {
    // The bias gradient is ds, summed where the bias broadcasts (over the
    // tiles of those loops).
    Value slice = dropMaskBatchAndHead(b, loc, getDbias(), getMaskKind());
    auto parallel = utils::IteratorType::parallel;
    slice =
        t.generic(tile.ds, slice, {t.loops(2, {0, 1}), t.loops(2, {0, 1})},
                  {parallel, parallel}, [](ScalarBuilder &s, ValueRange args) {
                    return s.add(args[1], args[0]);
                  });
    dbias = tensor::createCanonicalRankReducingInsertSliceOp(b, loc, slice,
                                                             getDbias());
  }
  // dq[i, d] += sum_j dx[i, j] * k[j, d], loops (i, d, j).
  Value dx = buildScoreGradient(t, *this, tile);
  Value dq = dropBatchAndHead(b, loc, getDq(), getLayout(), false);
  dq = t.accumulateProduct(dx, {0, 2}, tile.k, {2, 1}, dq);
  results.push_back(
      tensor::createCanonicalRankReducingInsertSliceOp(b, loc, dq, getDq()));
  if (dbias)
    results.push_back(dbias);
  return results;
}

FailureOr<SmallVector<Value>>
AttentionDkDvOp::decomposeOperation(OpBuilder &b) {
  if (failed(checkOneBatchAndHead(*this)))
    return failure();
  Location loc = getLoc();
  TileBuilder t(b, loc);
  BackwardTile tile = buildBackwardTile(t, *this);
  // dv[j, d] += sum_i p[i, j] * dout[i, d], loops (j, d, i).
  Value dv = dropBatchAndHead(b, loc, getDv(), getLayout(), false);
  dv = t.accumulateProduct(tile.probabilities, {2, 0}, tile.dout, {2, 1}, dv);
  // dk[j, d] += sum_i dx[i, j] * q[i, d], loops (j, d, i).
  Value dx = buildScoreGradient(t, *this, tile);
  Value dk = dropBatchAndHead(b, loc, getDk(), getLayout(), false);
  dk = t.accumulateProduct(dx, {2, 0}, tile.q, {2, 1}, dk);
  return SmallVector<Value>{
      tensor::createCanonicalRankReducingInsertSliceOp(b, loc, dk, getDk()),
      tensor::createCanonicalRankReducingInsertSliceOp(b, loc, dv, getDv())};
}
