//===- Vectorize.cpp - Register tiles to vector ops -----------------------===//
//
// Upstream `linalg::vectorize` takes any linalg op whose operands are read
// through projected permutations, and 1-D convolutions. A 2-D or 3-D
// convolution's register tile has one iteration of each window loop, and
// then reads its input through `oh * s + kh * d` with `kh` = 0: a projected
// permutation of a (strided) slice. Upstream's `DecomposeConvolution`
// patterns would instead make it a 1-D convolution, whose vectorizer keeps
// channels innermost (NWC) and transposes NCHW tiles in and out of every
// step; reading the tile as a generic keeps the output row innermost, so
// the tile is the same broadcast-multiply-add kernel as a matmul's.
//
//===----------------------------------------------------------------------===//
#include "rlx/Codegen/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tensor/Transforms/Transforms.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/Vector/Transforms/LoweringPatterns.h"
#include "mlir/Dialect/Vector/Transforms/VectorRewritePatterns.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "mlir/Transforms/LoopInvariantCodeMotionUtils.h"
#include "rlx/Dialect/Rlx/IR/RlxDialect.h"

namespace mlir::rlx {
#define GEN_PASS_DEF_RLXCPUVECTORIZE
#include "rlx/Codegen/Passes.h.inc"
} // namespace mlir::rlx

using namespace mlir;
using namespace mlir::rlx;

/// Drops `loops` (each of one iteration) from `generic` with upstream
/// `linalg::dropUnitDims`, its operands sliced to the remaining dimensions;
/// returns the new generic, or failure with `generic` left as it is.
static FailureOr<linalg::GenericOp> dropUnitLoops(RewriterBase &rewriter,
                                                  linalg::GenericOp generic,
                                                  SmallVector<unsigned> loops) {
  llvm::sort(loops);
  linalg::ControlDropUnitDims control;
  control.rankReductionStrategy =
      linalg::ControlDropUnitDims::RankReductionStrategy::ExtractInsertSlice;
  control.controlFn = [&](Operation *) { return loops; };
  rewriter.setInsertionPoint(generic);
  FailureOr<linalg::DropUnitDimsResult> dropped =
      linalg::dropUnitDims(rewriter, generic, control);
  if (failed(dropped))
    return failure();
  rewriter.replaceOp(generic, dropped->replacements);
  return cast<linalg::GenericOp>(dropped->resultOp.getOperation());
}

/// Replaces the convolution `op` (named or generic) whose window loops all
/// have one iteration by the generic it then is: inputs read at
/// `o * s + k * d` are read at `o` from a slice with stride `s`, the window
/// loops are dropped and the others follow the result's dimensions. Fails
/// and leaves `op` alone when an input would still not be read through a
/// projected permutation.
static FailureOr<linalg::GenericOp>
rewriteUnitWindowConvolution(RewriterBase &rewriter, linalg::LinalgOp op) {
  if (!linalg::isaConvolutionOpInterface(op) || op.hasDynamicShape())
    return failure();
  FailureOr<linalg::ConvolutionDimensions> dims =
      linalg::inferConvolutionDims(op);
  if (failed(dims))
    return failure();
  MLIRContext *context = op.getContext();
  SmallVector<int64_t> extents = op.getStaticLoopRanges();
  unsigned numLoops = extents.size();
  SmallVector<AffineExpr> windowLoopsAtZero;
  for (unsigned loop = 0; loop < numLoops; ++loop)
    windowLoopsAtZero.push_back(getAffineDimExpr(loop, context));
  for (unsigned window : dims->filterLoop) {
    if (extents[window] != 1)
      return failure();
    windowLoopsAtZero[window] = getAffineConstantExpr(0, context);
  }

  // Per input: its new map, and the strides of the slice it is read from.
  // Window expressions (`o * s + k * d`) lose their window loop; a window
  // loop read alone (by the filter) keeps its place.
  SmallVector<AffineMap> maps;
  SmallVector<SmallVector<int64_t>> sliceStrides;
  for (OpOperand *input : op.getDpsInputOperands()) {
    AffineMap map = op.getMatchingIndexingMap(input);
    SmallVector<AffineExpr> results;
    SmallVector<int64_t> strides;
    for (AffineExpr expr : map.getResults()) {
      if (!isa<AffineDimExpr>(expr))
        expr = simplifyAffineExpr(
            expr.replaceDimsAndSymbols(windowLoopsAtZero, {}), numLoops, 0);
      int64_t stride = 1;
      if (auto product = dyn_cast<AffineBinaryOpExpr>(expr);
          product && product.getKind() == AffineExprKind::Mul) {
        auto loop = dyn_cast<AffineDimExpr>(product.getLHS());
        auto factor = dyn_cast<AffineConstantExpr>(product.getRHS());
        if (!loop || !factor || factor.getValue() < 1)
          return failure();
        expr = loop;
        stride = factor.getValue();
      }
      results.push_back(expr);
      strides.push_back(stride);
    }
    map = AffineMap::get(numLoops, 0, results, context);
    if (!map.isProjectedPermutation(/*allowZeroInResults=*/true))
      return failure();
    maps.push_back(map);
    sliceStrides.push_back(strides);
  }

  FailureOr<linalg::GenericOp> generic =
      dyn_cast<linalg::GenericOp>(op.getOperation());
  if (!*generic) {
    rewriter.setInsertionPoint(op);
    generic = linalg::generalizeNamedOp(rewriter, op);
    if (failed(generic))
      return failure();
  }
  Location loc = generic->getLoc();
  SmallVector<AffineMap> allMaps = generic->getIndexingMapsArray();
  rewriter.setInsertionPoint(*generic);
  rewriter.modifyOpInPlace(*generic, [&] {
    for (auto [index, strides] : llvm::enumerate(sliceStrides)) {
      allMaps[index] = maps[index];
      if (llvm::all_of(strides, [](int64_t stride) { return stride == 1; }))
        continue;
      OpOperand *input = generic->getDpsInputOperand(index);
      auto type = cast<RankedTensorType>(input->get().getType());
      SmallVector<int64_t> sizes(type.getShape());
      for (auto [dim, expr] : llvm::enumerate(maps[index].getResults()))
        if (strides[dim] != 1)
          sizes[dim] = extents[cast<AffineDimExpr>(expr).getPosition()];
      SmallVector<int64_t> offsets(type.getRank(), 0);
      input->set(tensor::ExtractSliceOp::create(
          rewriter, loc, input->get(), getAsIndexOpFoldResult(context, offsets),
          getAsIndexOpFoldResult(context, sizes),
          getAsIndexOpFoldResult(context, strides)));
    }
    generic->setIndexingMapsAttr(rewriter.getAffineMapArrayAttr(allMaps));
  });

  // The window loops, with one iteration each, go. The input channel loop
  // stays as the reduction of the matmul-shaped tile that is left, and the
  // loops of the result's dimensions stay so that the result tile is
  // written whole by one transfer, which folds into the slices around it
  // (the accumulator then moves out of the reduction loops).
  FailureOr<linalg::GenericOp> dropped = dropUnitLoops(
      rewriter, *generic,
      SmallVector<unsigned>(dims->filterLoop.begin(), dims->filterLoop.end()));
  if (failed(dropped))
    return generic;
  linalg::GenericOp tile = *dropped;

  // Loops in the order of the result's dimensions, reductions last: the
  // vectorizer builds its vectors in loop order, and any other order
  // (depthwise convolutions have channels after the image's rows and
  // columns) would transpose every operand into the result's layout.
  SmallVector<unsigned> order;
  for (AffineExpr expr : tile.getIndexingMapsArray().back().getResults())
    if (auto loop = dyn_cast<AffineDimExpr>(expr))
      order.push_back(loop.getPosition());
  for (unsigned loop = 0; loop < tile.getNumLoops(); ++loop)
    if (!llvm::is_contained(order, loop))
      order.push_back(loop);
  if (llvm::equal(order, llvm::seq<unsigned>(0, order.size())))
    return tile;
  return linalg::interchangeGenericOp(rewriter, tile, order);
}

/// Drops the reduction loops of tile `op` when they all have one iteration,
/// all but the last of them for a contraction. A contraction (a projection
/// from [heads, features] takes one step of each k loop per tile) is then
/// matmul-shaped, which the outer-product lowering takes; a reduction whose
/// vectors run along a parallel loop (the lanes of a split sum, a sum over
/// rows) becomes an elementwise accumulation. Either way no unit loop is
/// reduced through scalar reductions, one element at a time.
static linalg::LinalgOp dropUnitReductionLoops(RewriterBase &rewriter,
                                               linalg::LinalgOp op) {
  auto generic = dyn_cast<linalg::GenericOp>(op.getOperation());
  SmallVector<unsigned> reductions;
  op.getReductionDims(reductions);
  SmallVector<int64_t> extents = op.getStaticLoopRanges();
  bool contraction = linalg::isaContractionOpInterface(op);
  if (!generic || reductions.size() < (contraction ? 2 : 1) ||
      llvm::any_of(reductions,
                   [&](unsigned loop) { return extents[loop] != 1; }))
    return op;
  if (contraction)
    reductions.pop_back();
  FailureOr<linalg::GenericOp> dropped =
      dropUnitLoops(rewriter, generic, reductions);
  return succeeded(dropped) ? linalg::LinalgOp(*dropped) : op;
}

/// Swaps the operands of `contract` when its first operand holds the
/// result's innermost dimension and its second does not: the outer-product
/// lowering broadcasts elements of the first operand against vectors of the
/// second, so the vectors then run along the result's rows (a convolution
/// tile reads its input first and its filter second) rather than across
/// them, which would transpose the accumulators at every step.
static void putRowOperandSecond(RewriterBase &rewriter,
                                vector::ContractionOp contract) {
  SmallVector<AffineMap> maps = contract.getIndexingMapsArray();
  AffineExpr innermost = maps[2].getResults().back();
  auto holdsInnermost = [&](AffineMap map) {
    return llvm::is_contained(map.getResults(), innermost);
  };
  if (!holdsInnermost(maps[0]) || holdsInnermost(maps[1]))
    return;
  std::swap(maps[0], maps[1]);
  Value lhs = contract.getLhs(), rhs = contract.getRhs();
  rewriter.modifyOpInPlace(contract, [&] {
    contract->setOperand(0, rhs);
    contract->setOperand(1, lhs);
    contract.setIndexingMapsAttr(rewriter.getAffineMapArrayAttr(maps));
  });
}

/// Whether `op` has an operand of i1 elements. Memory holds them a byte
/// each (as numpy's bools), but a vector of i1 is loaded and stored as
/// packed bits, so such an op stays a loop nest.
static bool readsOrWritesBooleans(linalg::LinalgOp op) {
  return llvm::any_of(op->getOperandTypes(), [](Type type) {
    auto shaped = dyn_cast<ShapedType>(type);
    return shaped && shaped.getElementType().isInteger(1);
  });
}

/// The vector sizes of static register tile `op` whose result rows are
/// not a whole number of vectors (the partial last tile of a loop, 12 of 16
/// columns): its extents, with the loop of the result's innermost
/// dimension rounded up to a power of two. The vectorizer then masks the
/// lanes past the tile's end, and LLVM gets whole vectors rather than ones
/// of 12 lanes, which it splits into pieces and reassembles at every step.
/// Empty when the tile needs no mask, or when its masked lanes could
/// change what it writes: that loop must be parallel (every masked lane is
/// a result element that is not written) and the payload float arithmetic
/// (no integer division of a masked lane's undefined value).
static SmallVector<int64_t> getMaskedVectorSizes(linalg::LinalgOp op) {
  if (op.getNumDpsInits() != 1 || op.hasDynamicShape())
    return {};
  AffineMap resultMap = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
  if (resultMap.getNumResults() == 0)
    return {};
  auto lane = dyn_cast<AffineDimExpr>(resultMap.getResults().back());
  if (!lane || !linalg::isParallelIterator(
                   op.getIteratorTypesArray()[lane.getPosition()]))
    return {};
  SmallVector<int64_t> sizes = op.getStaticLoopRanges();
  int64_t &lanes = sizes[lane.getPosition()];
  if (lanes <= 1 || llvm::isPowerOf2_64(lanes))
    return {};
  bool floatsOnly =
      llvm::all_of(op->getOperandTypes(),
                   [](Type type) {
                     return isa<FloatType>(getElementTypeOrSelf(type));
                   }) &&
      !op.hasIndexSemantics() &&
      llvm::all_of(op.getBlock()->without_terminator(), [](Operation &inner) {
        return isa<arith::ArithDialect, math::MathDialect>(
                   inner.getDialect()) &&
               llvm::all_of(inner.getResultTypes(),
                            [](Type type) { return isa<FloatType>(type); });
      });
  if (!floatsOnly)
    return {};
  lanes = llvm::PowerOf2Ceil(lanes);
  return sizes;
}

namespace {
/// Unmasks the ops of a tile that `getMaskedVectorSizes` masks. The
/// vectorizer's masks cover the tile: each operand is read and written
/// from its first element, and its extents are the tile's, so a transfer's
/// mask is the part of its vector that is in bounds, and an out-of-bounds
/// transfer (`in_bounds` false) pads the lanes past the tile's end on a
/// read and drops them on a write, as the mask would. Every other op
/// computes its masked lanes: they belong to result elements that the
/// write drops (a mask without a passthru leaves them undefined anyway).
/// The tile is then what an unmasked one would be (multiply-add reductions
/// become contractions, transfers fold into slices), with wider vectors.
struct UnmaskTileLanes : OpRewritePattern<vector::MaskOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(vector::MaskOp mask,
                                PatternRewriter &rewriter) const override {
    Operation *masked = mask.getMaskableOp();
    if (!masked || mask.hasPassthru())
      return failure();
    auto transfer = dyn_cast<VectorTransferOpInterface>(masked);
    if (!transfer && !isPure(masked))
      return failure();
    rewriter.setInsertionPoint(mask);
    Operation *unmasked = rewriter.clone(*masked);
    if (transfer)
      unmasked->setAttr(
          transfer.getInBoundsAttrName(),
          rewriter.getBoolArrayAttr(SmallVector<bool>(
              transfer.getPermutationMap().getNumResults(), false)));
    rewriter.replaceOp(mask, unmasked->getResults());
    return success();
  }
};

/// transpose(broadcast(x)) -> broadcast(shape_cast(x)) when the broadcast
/// only adds leading dimensions and the transpose keeps x's own dimensions
/// in order: x is then laid out with unit dimensions where the others go,
/// and broadcast along them. The vectorizer broadcasts operands in loop
/// order and transposes them into the result's layout; a depthwise
/// filter's column of channels would otherwise be transposed, element by
/// element, at every step. (Upstream's folder takes only transposes after
/// which x broadcasts as it is.)
struct BroadcastInTransposedLayout : OpRewritePattern<vector::TransposeOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(vector::TransposeOp transpose,
                                PatternRewriter &rewriter) const override {
    auto broadcast = transpose.getVector().getDefiningOp<vector::BroadcastOp>();
    auto sourceType = broadcast
                          ? dyn_cast<VectorType>(broadcast.getSourceType())
                          : VectorType();
    if (!sourceType || sourceType.isScalable())
      return failure();
    VectorType broadcastType = broadcast.getResultVectorType();
    int64_t added = broadcastType.getRank() - sourceType.getRank();
    if (broadcastType.getShape().drop_front(added) != sourceType.getShape())
      return failure();
    // Where each of x's dimensions goes, and the shape that puts it there.
    ArrayRef<int64_t> permutation = transpose.getPermutation();
    SmallVector<int64_t> laidOut(permutation.size(), 1);
    int64_t previous = -1;
    for (auto [to, from] : llvm::enumerate(permutation)) {
      if (from < added)
        continue;
      if (static_cast<int64_t>(to) < previous)
        return failure();
      previous = to;
      laidOut[to] = broadcastType.getDimSize(from);
    }
    Value source = vector::ShapeCastOp::create(
        rewriter, transpose.getLoc(),
        VectorType::get(laidOut, sourceType.getElementType()),
        broadcast.getSource());
    rewriter.replaceOpWithNewOp<vector::BroadcastOp>(
        transpose, transpose.getResultVectorType(), source);
    return success();
  }
};

/// addf(c, mulf(a, b)) -> fma(a, b, c) on vectors: one rounding instead of
/// two, as the contractions' outer products do, and one instruction (LLVM
/// fuses only under fast-math flags, which the lowering does not set).
struct MultiplyAddToFma : OpRewritePattern<arith::AddFOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(arith::AddFOp add,
                                PatternRewriter &rewriter) const override {
    if (!isa<VectorType>(add.getType()))
      return failure();
    for (unsigned operand = 0; operand < 2; ++operand) {
      auto mul = add->getOperand(operand).getDefiningOp<arith::MulFOp>();
      if (!mul || !mul->hasOneUse())
        continue;
      rewriter.replaceOpWithNewOp<vector::FMAOp>(
          add, mul.getLhs(), mul.getRhs(), add->getOperand(1 - operand));
      return success();
    }
    return failure();
  }
};

struct RlxCpuVectorizePass
    : rlx::impl::RlxCpuVectorizeBase<RlxCpuVectorizePass> {
  using Base::Base;

  /// Vectorizes register tile `op` in place; leaves it as it is when it is
  /// not one (no register tiles in its config, a partial tile) or the
  /// vectorizer does not take it: slower, not wrong. Partial tiles need
  /// masked vectorization, which the contraction patterns below do not
  /// keep consistent yet.
  void vectorizeTile(RewriterBase &rewriter, linalg::LinalgOp op) {
    auto config =
        op->getAttrOfType<LoweringConfigAttr>(LoweringConfigAttr::kAttrName);
    if (llvm::all_of(config.getVector(), [](int64_t s) { return s == 0; }) ||
        op.hasDynamicShape() || readsOrWritesBooleans(op))
      return;
    op = dropUnitReductionLoops(rewriter, op);
    if (failed(linalg::vectorizeOpPrecondition(op))) {
      FailureOr<linalg::GenericOp> generic =
          rewriteUnitWindowConvolution(rewriter, op);
      if (failed(generic) || failed(linalg::vectorizeOpPrecondition(*generic)))
        return;
      op = *generic;
    }
    SmallVector<int64_t> vectorSizes = getMaskedVectorSizes(op);
    rewriter.setInsertionPoint(op);
    // The scalable flags are given (all false) with the sizes: without
    // them, the masked tiles' vector types did not compare equal to those
    // that the LLVM conversion builds for the same shapes, which then
    // failed to verify the masks it made.
    SmallVector<bool> scalable(vectorSizes.size(), false);
    FailureOr<linalg::VectorizationResult> vectorized =
        linalg::vectorize(rewriter, op, vectorSizes, scalable);
    if (failed(vectorized))
      return;
    if (op->getNumResults() > 0)
      rewriter.replaceOp(op, vectorized->replacements);
    else
      rewriter.eraseOp(op);
  }

  /// Unmasks the tiles vectorized with masks (`UnmaskTileLanes`).
  void unmaskTileLanes() {
    SmallVector<Operation *> masks;
    getOperation().walk([&](vector::MaskOp mask) { masks.push_back(mask); });
    RewritePatternSet patterns(&getContext());
    patterns.add<UnmaskTileLanes>(&getContext());
    (void)applyOpPatternsGreedily(masks, std::move(patterns));
  }

  void runOnOperation() override {
    MLIRContext *context = &getContext();
    SmallVector<linalg::LinalgOp> products, others;
    getOperation().walk([&](linalg::LinalgOp op) {
      if (!op->hasAttr(LoweringConfigAttr::kAttrName) ||
          !op.hasPureTensorSemantics())
        return;
      if (linalg::isaContractionOpInterface(op) ||
          linalg::isaConvolutionOpInterface(op))
        products.push_back(op);
      else
        others.push_back(op);
    });
    IRRewriter rewriter(context);

    // Elementwise ops and reductions first. A reduction's tile of a row
    // becomes one horizontal reduction per tile, before the patterns below
    // could take a reduction of products (a sum of squares) for a
    // contraction: its outer-product lowering would be one scalar
    // multiply-add per element.
    for (linalg::LinalgOp op : others)
      vectorizeTile(rewriter, op);
    unmaskTileLanes();
    SmallVector<Operation *> reductions;
    getOperation().walk(
        [&](vector::MultiDimReductionOp op) { reductions.push_back(op); });
    RewritePatternSet reductionPatterns(context);
    vector::populateVectorMultiReductionLoweringPatterns(
        reductionPatterns,
        vector::VectorMultiReductionLowering::InnerReduction);
    if (failed(
            applyOpPatternsGreedily(reductions, std::move(reductionPatterns))))
      return signalPassFailure();

    for (linalg::LinalgOp op : products)
      vectorizeTile(rewriter, op);
    unmaskTileLanes();

    // Multiply-add reductions to vector.contract, slices into transfers.
    RewritePatternSet patterns(context);
    vector::populateVectorReductionToContractPatterns(patterns);
    vector::populateSinkVectorOpsPatterns(patterns);
    patterns.add<BroadcastInTransposedLayout>(context);
    if (!strictFp)
      patterns.add<MultiplyAddToFma>(context);
    vector::populateVectorTransferPermutationMapLoweringPatterns(patterns);
    tensor::populateFoldTensorSubsetIntoVectorTransferPatterns(patterns);
    vector::TransferReadOp::getCanonicalizationPatterns(patterns, context);
    vector::TransferWriteOp::getCanonicalizationPatterns(patterns, context);
    tensor::ExtractSliceOp::getCanonicalizationPatterns(patterns, context);
    tensor::InsertSliceOp::getCanonicalizationPatterns(patterns, context);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();

    getOperation().walk([&](vector::ContractionOp contract) {
      putRowOperandSecond(rewriter, contract);
    });

    // Innermost loops first, so an accumulator moves out of every loop it
    // does not depend on.
    getOperation().walk([&](scf::ForOp loop) {
      (void)hoistLoopInvariantSubsets(rewriter, loop);
    });
  }
};
} // namespace
