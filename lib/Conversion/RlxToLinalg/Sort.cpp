//===- Sort.cpp - Sorts, top-k, cummax indices and histograms to linalg ---===//
//
// A sort is sequential within a line and linalg has no sort op (IREE's
// LinalgExt sort is the tiled op it would otherwise mirror), so sort,
// argsort and topk become an scf.forall over the lines (every position off
// the sorted axis) whose iterations run scalar scf loops over their line's
// tensors: one-shot bufferization writes those in place into the results
// and into scratch buffers of one line. The CPU pipeline runs the forall on
// its threads, the GPU pipeline as one kernel of a thread per line. Each
// line is its own problem, so the results do not depend on the thread
// count.
//
// - sort, argsort: a bottom-up merge sort, O(n log n) comparisons. Runs of
//   width w are merged from one buffer into the other and back with width
//   2w, so the sorted line ends where it started (the result) and every
//   loop yields the buffers it was given, as bufferization needs to stay
//   in place; a pass whose one run spans the line is a copy.
// - topk: a binary heap of the k best elements seen, worst at the root, in
//   the result line, O(n log k): an element better than the root replaces
//   it and sifts down; then the heap is sorted in place (heapsort),
//   O(k log k).
//
// Elements rank by Ranking (value, then position), a strict total order, so
// the merge sort is stable and the heap's k best are the first k of that
// sort: every tie and NaN rule is the ops' documented one.
//
// cummax_indices is the running maximum followed by a running maximum of
// the positions where the input reaches it (two scans that code generation
// tiles). histogram counts chunks of the input in an scf.forall of scalar
// loops, each into its own row of counts, and sums the rows in a reduction
// generic.
//
//===----------------------------------------------------------------------===//
#include "Ranking.h"
#include "Utils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "rlx/Conversion/RlxToLinalg/RlxToLinalg.h"
#include "rlx/Dialect/Rlx/IR/RlxOps.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::rlx;

//===----------------------------------------------------------------------===//
// Scalar code over one line
//===----------------------------------------------------------------------===//

namespace {
/// Builds the scalar code of one line: index arithmetic, element access to
/// 1-D tensors, and the ranking of (value, position) pairs, whose values
/// are stored in the line's element type and compared in its computation
/// type (an exact widening for f16 and bf16).
class LineBuilder {
public:
  LineBuilder(OpBuilder &b, Location loc, Ranking ranking, Type storage)
      : b(b), loc(loc), ranking(ranking), storage(storage),
        computeType(ScalarBuilder::computeType(storage)) {}

  OpBuilder &getBuilder() { return b; }
  Location getLoc() const { return loc; }

  Value index(int64_t value) {
    return arith::ConstantIndexOp::create(b, loc, value);
  }
  Value add(Value x, Value y) { return arith::AddIOp::create(b, loc, x, y); }
  Value sub(Value x, Value y) { return arith::SubIOp::create(b, loc, x, y); }
  Value min(Value x, Value y) { return arith::MinSIOp::create(b, loc, x, y); }
  Value lessThan(Value x, Value y) {
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, x, y);
  }
  Value greaterEqual(Value x, Value y) {
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, x, y);
  }
  Value select(Value condition, Value x, Value y) {
    return arith::SelectOp::create(b, loc, condition, x, y);
  }
  Value andI(Value x, Value y) { return arith::AndIOp::create(b, loc, x, y); }
  Value orI(Value x, Value y) { return arith::OrIOp::create(b, loc, x, y); }
  /// An index as the i64 the results store.
  Value toI64(Value position) {
    return arith::IndexCastOp::create(b, loc, b.getI64Type(), position);
  }

  Value read(Value line, Value position) {
    return tensor::ExtractOp::create(b, loc, line, position);
  }
  Value write(Value element, Value line, Value position) {
    return tensor::InsertOp::create(b, loc, element, line, position);
  }

  /// Whether the pair (x, xIndex) ranks strictly before (y, yIndex); values
  /// in the storage type, indices i64.
  Value ranksBefore(Value x, Value xIndex, Value y, Value yIndex) {
    ScalarBuilder scalar(b, loc);
    return rlx::ranksBefore(scalar, ranking, scalar.convert(x, computeType),
                            xIndex, scalar.convert(y, computeType), yIndex);
  }

  /// The storage value that ranks after every element (paired with an
  /// index past the line).
  Value worstValue() {
    return createExtremeValue(b, loc, ranking, storage, /*best=*/false);
  }

private:
  OpBuilder &b;
  Location loc;
  Ranking ranking;
  Type storage;
  Type computeType;
};
} // namespace

//===----------------------------------------------------------------------===//
// sort / argsort: merge sort
//===----------------------------------------------------------------------===//

/// One merge pass: the runs [lo, lo + width) and [lo + width, lo + 2 width)
/// of (`values`, `indices`) merged into the same positions of (`toValues`,
/// `toIndices`) for every lo, n the line length. Returns the written pair.
static std::pair<Value, Value> buildMergePass(LineBuilder &lb, Value values,
                                              Value indices, Value toValues,
                                              Value toIndices, Value width,
                                              Value n) {
  OpBuilder &b = lb.getBuilder();
  Location loc = lb.getLoc();
  Value zero = lb.index(0), one = lb.index(1);
  Value last = lb.sub(n, one);
  Value pairWidth = lb.add(width, width);
  auto runs = scf::ForOp::create(
      b, loc, zero, n, pairWidth, ValueRange{toValues, toIndices},
      [&](OpBuilder &, Location, Value lo, ValueRange dest) {
        Value mid = lb.min(lb.add(lo, width), n);
        Value hi = lb.min(lb.add(lo, pairWidth), n);
        auto merge = scf::ForOp::create(
            b, loc, lo, hi, one, ValueRange{lo, mid, dest[0], dest[1]},
            [&](OpBuilder &, Location, Value k, ValueRange state) {
              Value i = state[0], j = state[1];
              // Reads stay inside the line; an exhausted run's read is
              // discarded.
              Value left = lb.min(i, last), right = lb.min(j, last);
              Value leftValue = lb.read(values, left);
              Value leftIndex = lb.read(indices, left);
              Value rightValue = lb.read(values, right);
              Value rightIndex = lb.read(indices, right);
              // The right element goes first while its run lasts, once the
              // left run is exhausted or when it ranks strictly before the
              // left one (never on a tie: stability).
              Value takeRight =
                  lb.andI(lb.lessThan(j, hi),
                          lb.orI(lb.greaterEqual(i, mid),
                                 lb.ranksBefore(rightValue, rightIndex,
                                                leftValue, leftIndex)));
              Value toV = lb.write(lb.select(takeRight, rightValue, leftValue),
                                   state[2], k);
              Value toI = lb.write(lb.select(takeRight, rightIndex, leftIndex),
                                   state[3], k);
              scf::YieldOp::create(
                  b, loc,
                  ValueRange{lb.select(takeRight, i, lb.add(i, one)),
                             lb.select(takeRight, lb.add(j, one), j), toV,
                             toI});
            });
        scf::YieldOp::create(
            b, loc, ValueRange{merge.getResult(2), merge.getResult(3)});
      });
  return {runs.getResult(0), runs.getResult(1)};
}

/// Sorts `line` (length `n`) into (`values`, `indices`), 1-D tensors of its
/// length: `values` the result line of rlx.sort or a scratch line for
/// argsort, `indices` the result line. Returns them written.
static std::pair<Value, Value> buildSortLine(LineBuilder &lb, Value line,
                                             Value values, Value indices,
                                             Value n) {
  OpBuilder &b = lb.getBuilder();
  Location loc = lb.getLoc();
  Value zero = lb.index(0), one = lb.index(1);
  // The line and its positions, the runs of width 1.
  auto copy = scf::ForOp::create(
      b, loc, zero, n, one, ValueRange{values, indices},
      [&](OpBuilder &, Location, Value k, ValueRange dest) {
        scf::YieldOp::create(b, loc,
                             ValueRange{lb.write(lb.read(line, k), dest[0], k),
                                        lb.write(lb.toI64(k), dest[1], k)});
      });
  // The other buffer, of the line's length (read before the line loop, so
  // the GPU can place it).
  Value scratchValues =
      createEmptyLine(b, loc, cast<RankedTensorType>(values.getType()), n);
  Value scratchIndices =
      createEmptyLine(b, loc, cast<RankedTensorType>(indices.getType()), n);
  // Two passes per step: width w into the scratch buffers, 2w back.
  Type indexType = b.getIndexType();
  SmallVector<Type> stateTypes = {indexType, values.getType(),
                                  indices.getType(), scratchValues.getType(),
                                  scratchIndices.getType()};
  auto steps = scf::WhileOp::create(
      b, loc, stateTypes,
      ValueRange{one, copy.getResult(0), copy.getResult(1), scratchValues,
                 scratchIndices},
      [&](OpBuilder &, Location, ValueRange state) {
        scf::ConditionOp::create(b, loc, lb.lessThan(state[0], n), state);
      },
      [&](OpBuilder &, Location, ValueRange state) {
        Value width = state[0];
        auto [scratchV, scratchI] = buildMergePass(
            lb, state[1], state[2], state[3], state[4], width, n);
        Value doubled = lb.add(width, width);
        auto [sortedV, sortedI] = buildMergePass(
            lb, scratchV, scratchI, state[1], state[2], doubled, n);
        scf::YieldOp::create(b, loc,
                             ValueRange{lb.add(doubled, doubled), sortedV,
                                        sortedI, scratchV, scratchI});
      });
  return {steps.getResult(1), steps.getResult(2)};
}

namespace {
/// rlx.sort and rlx.argsort: a merge sort of every line along the axis.
template <typename OpTy> struct SortToLinalg : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  using OpAdaptor = typename OpTy::Adaptor;
  static constexpr bool kGivesValues = std::is_same_v<OpTy, SortOp>;

  LogicalResult
  matchAndRewrite(OpTy op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value input = adaptor.getInput();
    RankedTensorType inputType = op.getInput().getType();
    Type storage = inputType.getElementType();
    int64_t axis = op.getNormalizedAxis();
    SmallVector<OpFoldResult> sizes =
        tensor::getMixedSizes(rewriter, loc, input);
    Value emptyIndices =
        createEmptyTensor(rewriter, loc, sizes, rewriter.getI64Type());
    SmallVector<Value> inits = {emptyIndices};
    if (kGivesValues)
      inits.push_back(createEmptyTensor(rewriter, loc, sizes, storage));
    // Nothing to order (and a zero-length line would be sliced past its
    // end once the loop position is known).
    if (inputType.hasStaticShape() && inputType.getNumElements() == 0) {
      replace(op, inits, rewriter);
      return success();
    }
    Ranking ranking{/*preferLarger=*/op.getDescending(),
                    /*nanFirst=*/op.getDescending()};
    Value n = getValueOrCreateConstantIndexOp(rewriter, loc, sizes[axis]);
    SmallVector<Value> results = buildLineLoop(
        rewriter, loc, input, axis, inits,
        [&](OpBuilder &b, Location bodyLoc, Value line, ValueRange lineInits) {
          LineBuilder lb(b, bodyLoc, ranking, storage);
          Value values =
              kGivesValues
                  ? lineInits[1]
                  : createEmptyLine(b, bodyLoc, getLineType(input, axis), n);
          auto [sortedValues, sortedIndices] =
              buildSortLine(lb, line, values, lineInits[0], n);
          SmallVector<Value> lineResults = {sortedIndices};
          if (kGivesValues)
            lineResults.push_back(sortedValues);
          return lineResults;
        });
    replace(op, results, rewriter);
    return success();
  }

  /// Replaces `op` by (indices[, values]) in its result order.
  static void replace(OpTy op, ArrayRef<Value> indicesThenValues,
                      ConversionPatternRewriter &rewriter) {
    if (kGivesValues)
      rewriter.replaceOp(
          op, ValueRange{indicesThenValues[1], indicesThenValues[0]});
    else
      rewriter.replaceOp(op, indicesThenValues[0]);
  }
};
} // namespace

//===----------------------------------------------------------------------===//
// topk: a heap of the k best
//===----------------------------------------------------------------------===//

/// Places (x, xIndex) in the heap (`values`, `indices`) of `size` elements
/// (of the buffers' `capacity`) whose root (position 0) is free, the heap
/// keeping every parent ranking after its children: at each of `depth`
/// levels (floor(log2(capacity)), the longest path from the root), the worse
/// child of the free position moves up into it while (x, xIndex) ranks
/// before it; the pair then fills the free position. Returns the written
/// buffers.
///
/// A loop of constant trip count rather than an scf.while that stops early:
/// the rlx pipelines carry a loop's buffers in place through scf.for
/// results, and an scf.while's results yielded by the enclosing loop would
/// be copied there. Once the pair has settled, the remaining steps change
/// nothing: each writes the pair into the free position, which the last
/// write fills anyway.
static std::pair<Value, Value> buildSiftDown(LineBuilder &lb, Value values,
                                             Value indices, Value size,
                                             Value capacity, int64_t depth,
                                             Value x, Value xIndex) {
  OpBuilder &b = lb.getBuilder();
  Location loc = lb.getLoc();
  Value zero = lb.index(0), one = lb.index(1);
  Value last = lb.sub(capacity, one);
  auto levels = scf::ForOp::create(
      b, loc, zero, lb.index(depth), one, ValueRange{zero, values, indices},
      [&](OpBuilder &, Location, Value, ValueRange state) {
        Value position = state[0];
        Value first = lb.add(lb.add(position, position), one);
        Value second = lb.add(first, one);
        // Reads stay inside the buffers; a missing child's is discarded.
        Value firstValue = lb.read(state[1], lb.min(first, last));
        Value firstIndex = lb.read(state[2], lb.min(first, last));
        Value secondValue = lb.read(state[1], lb.min(second, last));
        Value secondIndex = lb.read(state[2], lb.min(second, last));
        Value secondIsWorse = lb.andI(
            lb.lessThan(second, size),
            lb.ranksBefore(firstValue, firstIndex, secondValue, secondIndex));
        Value child = lb.select(secondIsWorse, second, first);
        Value childValue = lb.select(secondIsWorse, secondValue, firstValue);
        Value childIndex = lb.select(secondIsWorse, secondIndex, firstIndex);
        Value movesUp =
            lb.andI(lb.lessThan(first, size),
                    lb.ranksBefore(x, xIndex, childValue, childIndex));
        scf::YieldOp::create(
            b, loc,
            ValueRange{
                lb.select(movesUp, child, position),
                lb.write(lb.select(movesUp, childValue, x), state[1], position),
                lb.write(lb.select(movesUp, childIndex, xIndex), state[2],
                         position)});
      });
  Value position = levels.getResult(0);
  return {lb.write(x, levels.getResult(1), position),
          lb.write(xIndex, levels.getResult(2), position)};
}

/// The k best elements of `line` (length `n`) in ranking order, written to
/// `values` and `indices` (lines of length k).
static std::pair<Value, Value> buildTopKLine(LineBuilder &lb, Value line,
                                             Value values, Value indices,
                                             Value n, int64_t k) {
  OpBuilder &b = lb.getBuilder();
  Location loc = lb.getLoc();
  Value zero = lb.index(0), one = lb.index(1), capacity = lb.index(k);
  int64_t depth = llvm::Log2_64(k);
  // k copies of a pair ranking after every element: a valid heap that the
  // first k elements (k <= n) replace.
  Value worstValue = lb.worstValue(), pastIndex = lb.toI64(n);
  auto fill = scf::ForOp::create(
      b, loc, zero, capacity, one, ValueRange{values, indices},
      [&](OpBuilder &, Location, Value p, ValueRange heap) {
        scf::YieldOp::create(b, loc,
                             ValueRange{lb.write(worstValue, heap[0], p),
                                        lb.write(pastIndex, heap[1], p)});
      });
  // Each element better than the worst kept replaces it; most elements of
  // a long line are not, and cost one comparison.
  auto select = scf::ForOp::create(
      b, loc, zero, n, one, fill.getResults(),
      [&](OpBuilder &, Location, Value e, ValueRange heap) {
        Value x = lb.read(line, e), xIndex = lb.toI64(e);
        Value better = lb.ranksBefore(x, xIndex, lb.read(heap[0], zero),
                                      lb.read(heap[1], zero));
        auto replace = scf::IfOp::create(b, loc, heap.getTypes(), better,
                                         /*withElseRegion=*/true);
        {
          OpBuilder::InsertionGuard guard(b);
          b.setInsertionPointToStart(replace.thenBlock());
          auto [v, i] = buildSiftDown(lb, heap[0], heap[1], capacity, capacity,
                                      depth, x, xIndex);
          scf::YieldOp::create(b, loc, ValueRange{v, i});
          b.setInsertionPointToStart(replace.elseBlock());
          scf::YieldOp::create(b, loc, heap);
        }
        scf::YieldOp::create(b, loc, replace.getResults());
      });
  // Heapsort: the root (the worst of the heap) moves to the end of the
  // shrinking heap, whose last element sifts down from the root.
  auto order = scf::ForOp::create(
      b, loc, one, capacity, one, select.getResults(),
      [&](OpBuilder &, Location, Value t, ValueRange heap) {
        Value end = lb.sub(capacity, t);
        Value endValue = lb.read(heap[0], end);
        Value endIndex = lb.read(heap[1], end);
        Value v = lb.write(lb.read(heap[0], zero), heap[0], end);
        Value i = lb.write(lb.read(heap[1], zero), heap[1], end);
        auto [sortedV, sortedI] =
            buildSiftDown(lb, v, i, end, capacity, depth, endValue, endIndex);
        scf::YieldOp::create(b, loc, ValueRange{sortedV, sortedI});
      });
  return {order.getResult(0), order.getResult(1)};
}

namespace {
/// topk: a heap per line along the last axis.
struct TopKToLinalg : OpConversionPattern<TopKOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(TopKOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value input = adaptor.getInput();
    RankedTensorType inputType = op.getInput().getType();
    Type storage = inputType.getElementType();
    SmallVector<OpFoldResult> resultSizes = getResultSizes(rewriter, op);
    Value emptyValues = createEmptyTensor(rewriter, loc, resultSizes, storage);
    Value emptyIndices =
        createEmptyTensor(rewriter, loc, resultSizes, rewriter.getI64Type());
    // No lines: nothing to compute (and a zero-length dimension would be
    // sliced past its end once the loop position is known).
    if (inputType.hasStaticShape() && inputType.getNumElements() == 0) {
      rewriter.replaceOp(op, ValueRange{emptyValues, emptyIndices});
      return success();
    }
    int64_t axis = inputType.getRank() - 1;
    Ranking ranking{/*preferLarger=*/!op.getSmallest(),
                    /*nanFirst=*/!op.getSmallest()};
    Value n = getValueOrCreateConstantIndexOp(
        rewriter, loc, tensor::getMixedSize(rewriter, loc, input, axis));
    SmallVector<Value> results = buildLineLoop(
        rewriter, loc, input, axis, ValueRange{emptyValues, emptyIndices},
        [&](OpBuilder &b, Location bodyLoc, Value line, ValueRange lineInits) {
          LineBuilder lb(b, bodyLoc, ranking, storage);
          auto [values, indices] =
              buildTopKLine(lb, line, lineInits[0], lineInits[1], n, op.getK());
          return SmallVector<Value>{values, indices};
        });
    rewriter.replaceOp(op, results);
    return success();
  }
};
} // namespace

//===----------------------------------------------------------------------===//
// cummax_indices
//===----------------------------------------------------------------------===//

namespace {
/// cummax_indices: with y the running maximum (rlx.cummax, NaN
/// propagating), position j takes over exactly where x[j] == y[j] or x[j]
/// is NaN (x[j] >= the maximum before it, which is then x[j]; or a NaN,
/// which y then is). The result is the running maximum of those positions
/// (0 elsewhere; position 0 always takes over).
struct CummaxIndicesToLinalg : OpConversionPattern<CummaxIndicesOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(CummaxIndicesOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value input = adaptor.getInput();
    RankedTensorType inputType = op.getInput().getType();
    int64_t rank = inputType.getRank(), axis = op.getNormalizedAxis();
    Type computeType = ScalarBuilder::computeType(inputType.getElementType());
    Type i64 = rewriter.getI64Type();
    // rlx ops, which this conversion then lowers to rlx.associative_scan.
    Value running = CummaxOp::create(rewriter, loc, input, axis);
    Value empty = createEmptyTensor(
        rewriter, loc, tensor::getMixedSizes(rewriter, loc, input), i64);
    SmallVector<AffineMap> maps(3, rewriter.getMultiDimIdentityMap(rank));
    SmallVector<utils::IteratorType> iterators(rank,
                                               utils::IteratorType::parallel);
    auto takeovers = linalg::GenericOp::create(
        rewriter, loc, empty.getType(), ValueRange{input, running}, empty, maps,
        iterators, [&](OpBuilder &b, Location bodyLoc, ValueRange args) {
          ScalarBuilder scalar(b, bodyLoc);
          Value x = scalar.convert(args[0], computeType);
          Value y = scalar.convert(args[1], computeType);
          Value takes = scalar.compare(ComparePredicate::eq, x, y);
          if (isa<FloatType>(computeType))
            takes = arith::OrIOp::create(
                b, bodyLoc, takes, scalar.compare(ComparePredicate::ne, x, x));
          Value position = arith::IndexCastOp::create(
              b, bodyLoc, i64, linalg::IndexOp::create(b, bodyLoc, axis));
          Value zero = arith::ConstantIntOp::create(b, bodyLoc, i64, 0);
          linalg::YieldOp::create(b, bodyLoc,
                                  scalar.select(takes, position, zero));
        });
    rewriter.replaceOp(
        op, CummaxOp::create(rewriter, loc, takeovers.getResult(0), axis));
    return success();
  }
};
} // namespace

//===----------------------------------------------------------------------===//
// histogram
//===----------------------------------------------------------------------===//

/// Chunks of the flattened input that histogram counts in parallel: at
/// least kMinChunkLength elements each (a chunk's private counts cost a
/// pass over the bins), and at most kMaxChunks of them (the partial counts
/// take kMaxChunks * bins * 8 bytes).
static constexpr int64_t kMinChunkLength = 1024, kMaxChunks = 256;

/// The bin of `x` (in [min, max] of the element type), or whether it is
/// counted at all: trunc((x - min) * bins / (max - min)), at most bins - 1,
/// for min <= x <= max (false for NaN). Returns (counted, bin as i64).
static std::pair<Value, Value> buildBin(OpBuilder &b, Location loc, Value x,
                                        HistogramOp op) {
  auto element = cast<FloatType>(x.getType());
  Type i64 = b.getI64Type();
  ScalarBuilder scalar(b, loc);
  auto constant = [&](APFloat value) -> Value {
    bool losesInfo;
    value.convert(element.getFloatSemantics(), APFloat::rmNearestTiesToEven,
                  &losesInfo);
    return arith::ConstantOp::create(b, loc, b.getFloatAttr(element, value));
  };
  Value lo = constant(op.getMin()), hi = constant(op.getMax());
  Value counted =
      arith::AndIOp::create(b, loc, scalar.compare(ComparePredicate::ge, x, lo),
                            scalar.compare(ComparePredicate::le, x, hi));
  Value scaled = scalar.div(
      scalar.mul(scalar.sub(x, lo),
                 constant(APFloat(static_cast<double>(op.getBins())))),
      scalar.sub(hi, lo));
  // An uncounted element's conversion (NaN, out of range) is never used.
  Value bin = arith::MinSIOp::create(
      b, loc, arith::FPToSIOp::create(b, loc, i64, scaled),
      arith::ConstantIntOp::create(b, loc, i64, op.getBins() - 1));
  return {counted, bin};
}

namespace {
/// histogram: the input flattened to one dimension and cut into chunks, an
/// scf.forall over them in which each chunk counts its elements into its own
/// row of i64 counts (a scalar loop, O(chunk length)); a reduction generic
/// sums the rows, converted to the result type. O(n + chunks * bins) with
/// no atomics, and integer counts add up the same in any order, so the
/// result does not depend on the thread count.
struct HistogramToLinalg : OpConversionPattern<HistogramOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(HistogramOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value input = adaptor.getInput();
    RankedTensorType inputType = op.getInput().getType();
    auto element = cast<FloatType>(inputType.getElementType());
    Type i64 = rewriter.getI64Type();
    int64_t bins = op.getBins();

    Value flat = input;
    if (inputType.getRank() == 0)
      flat = tensor::ExpandShapeOp::create(
          rewriter, loc, RankedTensorType::get({1}, element), input,
          ArrayRef<ReassociationIndices>{});
    else if (inputType.getRank() > 1)
      flat = tensor::CollapseShapeOp::create(
          rewriter, loc, input,
          ArrayRef<ReassociationIndices>{
              llvm::to_vector(llvm::seq<int64_t>(inputType.getRank()))});

    // chunk length = max(kMinChunkLength, ceil(n / kMaxChunks)), chunks =
    // ceil(n / chunk length); constants where n is static.
    auto index = [&](int64_t value) -> Value {
      return arith::ConstantIndexOp::create(rewriter, loc, value);
    };
    // (Written with divsi, n >= 0: the GPU pipeline expands no ceildivsi.)
    auto ceilDiv = [&](Value x, Value y) {
      Value rounded = rewriter.createOrFold<arith::SubIOp>(
          loc, rewriter.createOrFold<arith::AddIOp>(loc, x, y), index(1));
      return rewriter.createOrFold<arith::DivSIOp>(loc, rounded, y);
    };
    Value n = getValueOrCreateConstantIndexOp(
        rewriter, loc, tensor::getMixedSize(rewriter, loc, flat, 0));
    Value chunkLength = rewriter.createOrFold<arith::MaxSIOp>(
        loc, index(kMinChunkLength), ceilDiv(n, index(kMaxChunks)));
    Value chunks = ceilDiv(n, chunkLength);

    Value zero = arith::ConstantIntOp::create(rewriter, loc, i64, 0);
    Value partial =
        createFilledTensor(rewriter, loc,
                           ArrayRef<OpFoldResult>{getAsOpFoldResult(chunks),
                                                  rewriter.getIndexAttr(bins)},
                           zero);
    auto forall = scf::ForallOp::create(
        rewriter, loc, ArrayRef<OpFoldResult>{getAsOpFoldResult(chunks)},
        partial, /*mapping=*/std::nullopt);
    {
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPointToStart(forall.getBody());
      Value chunk = forall.getInductionVars().front();
      SmallVector<OpFoldResult> offsets = {chunk, rewriter.getIndexAttr(0)};
      SmallVector<OpFoldResult> sizes = {rewriter.getIndexAttr(1),
                                         rewriter.getIndexAttr(bins)};
      SmallVector<OpFoldResult> strides(2, rewriter.getIndexAttr(1));
      auto rowType = RankedTensorType::get({bins}, i64);
      Value row = tensor::ExtractSliceOp::create(
          rewriter, loc, rowType, forall.getRegionIterArgs().front(), offsets,
          sizes, strides);
      Value begin = arith::MulIOp::create(rewriter, loc, chunk, chunkLength);
      Value end = arith::MinSIOp::create(
          rewriter, loc,
          arith::AddIOp::create(rewriter, loc, begin, chunkLength), n);
      auto count = scf::ForOp::create(
          rewriter, loc, begin, end, index(1), row,
          [&](OpBuilder &b, Location bodyLoc, Value e, ValueRange counts) {
            Value x = tensor::ExtractOp::create(b, bodyLoc, flat, e);
            auto [counted, bin] = buildBin(b, bodyLoc, x, op);
            // Every element adds to a valid slot: 0 to bin 0 when it is
            // not counted.
            Value slot = arith::IndexCastOp::create(
                b, bodyLoc, b.getIndexType(),
                arith::SelectOp::create(b, bodyLoc, counted, bin, zero));
            Value current =
                tensor::ExtractOp::create(b, bodyLoc, counts.front(), slot);
            Value next = arith::AddIOp::create(
                b, bodyLoc, current,
                arith::ExtUIOp::create(b, bodyLoc, i64, counted));
            scf::YieldOp::create(
                b, bodyLoc,
                tensor::InsertOp::create(b, bodyLoc, next, counts.front(), slot)
                    .getResult());
          });
      rewriter.setInsertionPointToStart(forall.getTerminator().getBody());
      tensor::ParallelInsertSliceOp::create(rewriter, loc, count.getResult(0),
                                            forall.getRegionIterArgs().front(),
                                            offsets, sizes, strides);
    }

    // Sum the chunks' rows: loops (bin, chunk).
    Value counts = createFilledTensor(rewriter, loc,
                                      RankedTensorType::get({bins}, i64), zero);
    MLIRContext *context = rewriter.getContext();
    auto sum = linalg::GenericOp::create(
        rewriter, loc, counts.getType(), forall.getResult(0), counts,
        ArrayRef<AffineMap>{getLoopsMap(context, 2, {1, 0}),
                            getLoopsMap(context, 2, {0})},
        ArrayRef<utils::IteratorType>{utils::IteratorType::parallel,
                                      utils::IteratorType::reduction},
        [&](OpBuilder &b, Location bodyLoc, ValueRange args) {
          Value total = arith::AddIOp::create(b, bodyLoc, args[1], args[0]);
          linalg::YieldOp::create(b, bodyLoc, total);
        });
    rewriter.replaceOp(
        op, convertElements(rewriter, loc, sum.getResult(0), element));
    return success();
  }
};
} // namespace

void mlir::rlx::populateSortToLinalgPatterns(RewritePatternSet &patterns) {
  patterns.add<SortToLinalg<SortOp>, SortToLinalg<ArgsortOp>, TopKToLinalg,
               CummaxIndicesToLinalg, HistogramToLinalg>(patterns.getContext());
}
