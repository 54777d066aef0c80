//===- SplitReductions.cpp - Blocked and lane-wise float sums -------------===//
//
// Upstream's linalg::splitReduction has the right shape (partial reductions
// over a new parallel loop, then a reduction of the partials) but takes one
// result and lengths the split divides; row regions reduce several values
// per stage (the softmax losses' sums, a reduction region's results) over
// any length, and fused and unfused graphs must split alike. The rewrite
// below is the same transformation for any number of results, with the
// remainder peeled.
//
//===----------------------------------------------------------------------===//
#include "rlx/Transforms/Passes.h"

#include "mlir/Analysis/SliceAnalysis.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StructuredOpsUtils.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "mlir/Interfaces/ValueBoundsOpInterface.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::rlx {
#define GEN_PASS_DEF_RLXSPLITREDUCTIONS
#include "rlx/Transforms/Passes.h.inc"
} // namespace mlir::rlx

using namespace mlir;

/// Marks the sum of the partials of a `?` length's blocks, which is not
/// split again: their number is `?` too, and splitting would not end (nor
/// would a later run of the pass add a level).
static constexpr StringLiteral kPartialSumsAttr = "rlx.partial_sums";

namespace {
/// A reduction loop `dim` of `size` elements (`?`: dynamic), split into the
/// loops (dim, dim + 1) of sizes (size / chunk, chunk). Blocks: the outer
/// loop is parallel (one partial per block of `chunk` contiguous elements).
/// Lanes: the inner loop is (one partial per lane, element i in lane i mod
/// chunk); only for a static size.
struct ReductionSplit {
  unsigned dim;
  int64_t size;
  int64_t chunk;
  bool lanes;

  /// The loop over the partial results in the split op.
  unsigned partialLoop() const { return lanes ? dim + 1 : dim; }
};
} // namespace

/// The combiner of each result of `op` (its one op folding a value into the
/// accumulator), or failure if a result is not such a reduction with a
/// neutral element.
static FailureOr<SmallVector<Operation *>> getCombiners(linalg::GenericOp op) {
  SmallVector<Operation *> combiners;
  for (unsigned i = 0, e = op.getNumDpsInits(); i < e; ++i) {
    SmallVector<Operation *> ops;
    if (!matchReduction(op.getRegionOutputArgs(), i, ops) || ops.size() != 1 ||
        ops[0]->getNumOperands() != 2 || !arith::getNeutralElement(ops[0]))
      return failure();
    combiners.push_back(ops[0]);
  }
  return combiners;
}

/// Whether `op` sums floats over its reduction loops (other results may be
/// any reduction with a neutral element), each result over all of them,
/// and reads an operand over all of its loops (a contraction, whose
/// partials would be as large as its result times the blocks, is left as
/// it is).
static bool isFloatSum(linalg::GenericOp op) {
  if (!op.hasPureTensorSemantics() || op.hasIndexSemantics() ||
      op.getNumReductionLoops() == 0 ||
      !cast<linalg::LinalgOp>(*op).hasOnlyProjectedPermutations())
    return false;
  unsigned kept = op.getNumParallelLoops();
  for (OpOperand &init : op.getDpsInitsMutable())
    if (op.getMatchingIndexingMap(&init).getNumResults() != kept)
      return false;
  if (llvm::none_of(op.getDpsInputOperands(), [&](OpOperand *input) {
        return op.getMatchingIndexingMap(input).isPermutation();
      }))
    return false;
  FailureOr<SmallVector<Operation *>> combiners = getCombiners(op);
  return succeeded(combiners) &&
         llvm::any_of(*combiners, llvm::IsaPred<arith::AddFOp>);
}

/// How `op` should be split, if it is a float sum (isFloatSum) over one
/// long reduction loop.
static std::optional<ReductionSplit>
getReductionSplit(linalg::GenericOp op, int64_t blockSize, int64_t lanes) {
  if (op.getNumReductionLoops() != 1 || !isFloatSum(op))
    return std::nullopt;
  unsigned numLoops = op.getNumLoops();
  SmallVector<unsigned> reductionDims;
  op.getReductionDims(reductionDims);
  unsigned dim = reductionDims.front();
  int64_t size = op.getStaticLoopRanges()[dim];
  if (ShapedType::isDynamic(size)) {
    // Blocks, once: not for the sum of a split's partials, nor for a loop
    // known to be short (the remainder of a split).
    if (op->hasAttr(kPartialSumsAttr))
      return std::nullopt;
    for (OpOperand *input : op.getDpsInputOperands()) {
      std::optional<unsigned> position =
          op.getMatchingIndexingMap(input).getResultPosition(
              getAffineDimExpr(dim, op.getContext()));
      if (!position)
        continue;
      FailureOr<int64_t> bound = ValueBoundsConstraintSet::computeConstantBound(
          presburger::BoundType::UB,
          ValueBoundsConstraintSet::Variable(input->get(), *position),
          /*stopCondition=*/nullptr, /*closedUB=*/true);
      if (succeeded(bound) && *bound <= blockSize)
        return std::nullopt;
    }
    return ReductionSplit{dim, size, blockSize, /*lanes=*/false};
  }
  if (size > blockSize)
    return ReductionSplit{dim, size, blockSize, /*lanes=*/false};
  if (dim + 1 == numLoops && size > lanes)
    return ReductionSplit{dim, size, lanes, /*lanes=*/true};
  return std::nullopt;
}

/// `op`'s inputs sliced to the elements [offset, offset + size) of the
/// reduction loop `dim`.
static SmallVector<Value> sliceInputs(OpBuilder &b, linalg::GenericOp op,
                                      unsigned dim, OpFoldResult offset,
                                      OpFoldResult size) {
  SmallVector<Value> slices;
  for (OpOperand *input : op.getDpsInputOperands()) {
    AffineMap map = op.getMatchingIndexingMap(input);
    std::optional<unsigned> result =
        map.getResultPosition(b.getAffineDimExpr(dim));
    if (!result) {
      slices.push_back(input->get());
      continue;
    }
    auto type = cast<RankedTensorType>(input->get().getType());
    SmallVector<OpFoldResult> offsets(type.getRank(), b.getIndexAttr(0));
    SmallVector<OpFoldResult> strides(type.getRank(), b.getIndexAttr(1));
    SmallVector<OpFoldResult> sizes =
        tensor::getMixedSizes(b, op.getLoc(), input->get());
    offsets[*result] = offset;
    sizes[*result] = size;
    slices.push_back(tensor::ExtractSliceOp::create(
        b, op.getLoc(), input->get(), offsets, sizes, strides));
  }
  return slices;
}

/// Replaces `op` by the same reduction over the largest multiple of
/// `split.chunk` elements of its reduction loop, which is then split, and
/// the same reduction of the rest onto that result. Returns the first.
static linalg::GenericOp peelRemainder(RewriterBase &rewriter,
                                       linalg::GenericOp op,
                                       const ReductionSplit &split) {
  Location loc = op.getLoc();
  AffineExpr size = rewriter.getAffineSymbolExpr(0);
  OpFoldResult extent = cast<linalg::LinalgOp>(*op)
                            .createLoopRanges(rewriter, loc)[split.dim]
                            .size;
  OpFoldResult divisible = affine::makeComposedFoldedAffineApply(
      rewriter, loc, size - size % split.chunk, {extent});
  OpFoldResult rest = affine::makeComposedFoldedAffineApply(
      rewriter, loc, size % split.chunk, {extent});
  auto clone = [&](ValueRange inputs, ValueRange inits) {
    auto part = cast<linalg::GenericOp>(rewriter.clone(*op));
    part.getInputsMutable().assign(inputs);
    part.getOutputsMutable().assign(inits);
    return part;
  };
  linalg::GenericOp main = clone(
      sliceInputs(rewriter, op, split.dim, rewriter.getIndexAttr(0), divisible),
      op.getDpsInits());
  linalg::GenericOp last = clone(
      sliceInputs(rewriter, op, split.dim, divisible, rest), main.getResults());
  rewriter.replaceOp(op, last.getResults());
  return main;
}

/// Rewrites `op` into partial reductions over the loops of `split` and a
/// reduction of the partials (as linalg::splitReduction, for any number of
/// results).
static void splitReduction(RewriterBase &rewriter, linalg::GenericOp op,
                           const ReductionSplit &split,
                           ArrayRef<Operation *> combiners) {
  MLIRContext *context = rewriter.getContext();
  Location loc = op.getLoc();
  unsigned numLoops = op.getNumLoops();
  rewriter.setInsertionPoint(op);
  OpFoldResult numPartials =
      split.lanes ? rewriter.getIndexAttr(split.chunk)
                  : affine::makeComposedFoldedAffineApply(
                        rewriter, loc,
                        rewriter.getAffineSymbolExpr(0).floorDiv(split.chunk),
                        {cast<linalg::LinalgOp>(*op)
                             .createLoopRanges(rewriter, loc)[split.dim]
                             .size});
  OpFoldResult numChunks = split.lanes
                               ? rewriter.getIndexAttr(split.size / split.chunk)
                               : numPartials;
  // Loop d of `op` is loop d, or d + 1 past the split, of the split op.
  auto splitLoop = [&](AffineExpr expr) {
    unsigned d = cast<AffineDimExpr>(expr).getPosition();
    return rewriter.getAffineDimExpr(d < split.dim ? d : d + 1);
  };

  SmallVector<Value> inputs;
  SmallVector<AffineMap> maps;
  for (OpOperand *input : op.getDpsInputOperands()) {
    auto type = cast<RankedTensorType>(input->get().getType());
    SmallVector<AffineExpr> exprs;
    SmallVector<int64_t> shape;
    SmallVector<OpFoldResult> sizes;
    SmallVector<ReassociationIndices> reassociation;
    bool expanded = false;
    for (auto [r, expr] :
         llvm::enumerate(op.getMatchingIndexingMap(input).getResults())) {
      int64_t first = shape.size();
      if (expr == rewriter.getAffineDimExpr(split.dim)) {
        expanded = true;
        reassociation.push_back({first, first + 1});
        std::optional<int64_t> chunks = getConstantIntValue(numChunks);
        shape.append({chunks ? *chunks : ShapedType::kDynamic, split.chunk});
        sizes.append({numChunks, rewriter.getIndexAttr(split.chunk)});
        exprs.append({rewriter.getAffineDimExpr(split.dim),
                      rewriter.getAffineDimExpr(split.dim + 1)});
        continue;
      }
      reassociation.push_back({first});
      shape.push_back(type.getDimSize(r));
      sizes.push_back(tensor::getMixedSize(rewriter, loc, input->get(), r));
      exprs.push_back(splitLoop(expr));
    }
    maps.push_back(AffineMap::get(numLoops + 1, 0, exprs, context));
    inputs.push_back(
        expanded ? tensor::ExpandShapeOp::create(
                       rewriter, loc,
                       RankedTensorType::get(shape, type.getElementType()),
                       input->get(), reassociation, sizes)
                       .getResult()
                 : input->get());
  }

  // One partial per block or lane, after the dimensions of each result.
  SmallVector<Value> partialInits;
  for (auto [init, combiner] : llvm::zip(op.getDpsInitsMutable(), combiners)) {
    auto type = cast<RankedTensorType>(init.get().getType());
    SmallVector<OpFoldResult> sizes =
        tensor::getMixedSizes(rewriter, loc, init.get());
    sizes.push_back(numPartials);
    SmallVector<AffineExpr> exprs = llvm::map_to_vector(
        op.getMatchingIndexingMap(&init).getResults(), splitLoop);
    exprs.push_back(rewriter.getAffineDimExpr(split.partialLoop()));
    maps.push_back(AffineMap::get(numLoops + 1, 0, exprs, context));
    Value empty =
        tensor::EmptyOp::create(rewriter, loc, sizes, type.getElementType());
    Value neutral = arith::ConstantOp::create(
        rewriter, loc, *arith::getNeutralElement(combiner));
    partialInits.push_back(
        linalg::FillOp::create(rewriter, loc, neutral, empty).getResult(0));
  }
  SmallVector<utils::IteratorType> iterators;
  for (auto [d, iterator] : llvm::enumerate(op.getIteratorTypesArray())) {
    if (d != split.dim) {
      iterators.push_back(iterator);
      continue;
    }
    iterators.append({split.lanes ? utils::IteratorType::reduction
                                  : utils::IteratorType::parallel,
                      split.lanes ? utils::IteratorType::parallel
                                  : utils::IteratorType::reduction});
  }
  auto partial = linalg::GenericOp::create(
      rewriter, loc, ValueRange(partialInits).getTypes(), inputs, partialInits,
      maps, iterators);
  rewriter.inlineRegionBefore(op.getRegion(), partial.getRegion(),
                              partial.getRegion().begin());

  // The partials reduced over the last loop, innermost, in place of `op`:
  // the loops of `op` but its reduction, then the partials' loop.
  auto combineLoop = [&](AffineExpr expr) {
    unsigned d = cast<AffineDimExpr>(expr).getPosition();
    return rewriter.getAffineDimExpr(d < split.dim ? d : d - 1);
  };
  SmallVector<AffineMap> combineMaps;
  for (OpOperand &init : op.getDpsInitsMutable()) {
    SmallVector<AffineExpr> exprs = llvm::map_to_vector(
        op.getMatchingIndexingMap(&init).getResults(), combineLoop);
    exprs.push_back(rewriter.getAffineDimExpr(numLoops - 1));
    combineMaps.push_back(AffineMap::get(numLoops, 0, exprs, context));
  }
  for (OpOperand &init : op.getDpsInitsMutable())
    combineMaps.push_back(AffineMap::get(
        numLoops, 0,
        llvm::map_to_vector(op.getMatchingIndexingMap(&init).getResults(),
                            combineLoop),
        context));
  SmallVector<utils::IteratorType> combineIterators(
      numLoops, utils::IteratorType::parallel);
  combineIterators.back() = utils::IteratorType::reduction;
  size_t numResults = combiners.size();
  auto combine = linalg::GenericOp::create(
      rewriter, loc, op.getResultTypes(), partial.getResults(),
      op.getDpsInits(), combineMaps, combineIterators,
      [&](OpBuilder &b, Location bodyLoc, ValueRange args) {
        SmallVector<Value> combined;
        for (auto [i, combiner] : llvm::enumerate(combiners)) {
          Operation *clone = b.clone(*combiner);
          clone->setOperands({args[numResults + i], args[i]});
          combined.push_back(clone->getResult(0));
        }
        linalg::YieldOp::create(b, bodyLoc, combined);
      });
  if (ShapedType::isDynamic(split.size))
    combine->setAttr(kPartialSumsAttr, rewriter.getUnitAttr());
  rewriter.replaceOp(op, combine.getResults());
}

namespace {
/// A float sum over several consecutive reduction loops that every operand
/// reads in order (a sum over trailing axes, or over a whole tensor) as one
/// loop over their elements (upstream linalg::collapseOpIterationDims), so
/// that it is split like a sum over one axis: in blocks whose partials are
/// a parallel loop, which threads share.
///
/// Only ops outside loops, whose operands are whole tensors: the slices a
/// tile reads (a later round, inside the tiles' loops) may be strided, and
/// collapsing them would need a copy.
struct CollapseReductionLoops : OpRewritePattern<linalg::GenericOp> {
  CollapseReductionLoops(MLIRContext *context, int64_t lanes)
      : OpRewritePattern(context), lanes(lanes) {}

  LogicalResult matchAndRewrite(linalg::GenericOp op,
                                PatternRewriter &rewriter) const override {
    if (op.getNumReductionLoops() < 2 || !isFloatSum(op) ||
        op->getParentOfType<LoopLikeOpInterface>())
      return rewriter.notifyMatchFailure(op, "not a float sum over loops");
    SmallVector<unsigned> dims;
    op.getReductionDims(dims);
    ReassociationIndices folded;
    for (unsigned dim : dims) {
      if (!folded.empty() && dim != folded.back() + 1)
        return rewriter.notifyMatchFailure(op, "reduction loops apart");
      folded.push_back(dim);
    }
    // Only what the split then takes: more elements than lanes.
    int64_t elements = 1;
    for (unsigned dim : dims)
      elements *= op.getStaticLoopRanges()[dim];
    if (llvm::any_of(dims,
                     [&](unsigned dim) {
                       return ShapedType::isDynamic(
                           op.getStaticLoopRanges()[dim]);
                     }) ||
        elements <= lanes ||
        !linalg::areDimSequencesPreserved(op.getIndexingMapsArray(), {folded}))
      return rewriter.notifyMatchFailure(op, "operands not read in order");
    FailureOr<linalg::CollapseResult> collapsed =
        linalg::collapseOpIterationDims(cast<linalg::LinalgOp>(*op), {folded},
                                        rewriter);
    if (failed(collapsed))
      return failure();
    rewriter.replaceOp(op, collapsed->results);
    return success();
  }

  int64_t lanes;
};

struct SplitLongReduction : OpRewritePattern<linalg::GenericOp> {
  SplitLongReduction(MLIRContext *context, int64_t blockSize, int64_t lanes)
      : OpRewritePattern(context), blockSize(blockSize), lanes(lanes) {}

  LogicalResult matchAndRewrite(linalg::GenericOp op,
                                PatternRewriter &rewriter) const override {
    std::optional<ReductionSplit> split =
        getReductionSplit(op, blockSize, lanes);
    if (!split)
      return rewriter.notifyMatchFailure(op, "not a long float sum");
    // A `?` length is split after its largest multiple of the block at run
    // time; the rest, shorter than a block, is summed in order.
    if (ShapedType::isDynamic(split->size)) {
      linalg::GenericOp main = peelRemainder(rewriter, op, *split);
      rewriter.setInsertionPoint(main);
      splitReduction(rewriter, main, *split, *getCombiners(main));
      return success();
    }
    if (split->size % split->chunk != 0) {
      peelRemainder(rewriter, op, *split);
      return success();
    }
    splitReduction(rewriter, op, *split, *getCombiners(op));
    return success();
  }

  int64_t blockSize, lanes;
};

struct RlxSplitReductionsPass
    : rlx::impl::RlxSplitReductionsBase<RlxSplitReductionsPass> {
  using Base::Base;

  void runOnOperation() override {
    if (lanes < 1 || blockSize <= lanes) {
      getOperation().emitError("rlx-split-reductions needs 1 <= lanes < "
                               "block-size, got lanes = ")
          << lanes.getValue() << ", block-size = " << blockSize.getValue();
      return signalPassFailure();
    }
    RewritePatternSet patterns(&getContext());
    patterns.add<SplitLongReduction>(&getContext(), blockSize, lanes);
    patterns.add<CollapseReductionLoops>(&getContext(), lanes);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace
