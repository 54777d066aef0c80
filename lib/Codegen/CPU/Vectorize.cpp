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

#include "mlir/Dialect/Affine/IR/AffineOps.h"
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
#include "mlir/IR/Dominance.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/CSE.h"
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
/// loops are dropped and the others follow the result's dimensions. The
/// output positions may be `?` (a partial tile of a `?` image size); `bounds`
/// (one per loop) follows the loops. Fails and leaves `op` alone when an
/// input would still not be read through a projected permutation.
static FailureOr<linalg::GenericOp>
rewriteUnitWindowConvolution(RewriterBase &rewriter, linalg::LinalgOp op,
                             SmallVectorImpl<int64_t> &bounds) {
  if (!linalg::isaConvolutionOpInterface(op))
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
  rewriter.setInsertionPoint(op);
  SmallVector<OpFoldResult> loopSizes =
      llvm::map_to_vector(op.createLoopRanges(rewriter, op.getLoc()),
                          [](Range range) { return range.size; });

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
      SmallVector<OpFoldResult> sizes =
          tensor::getMixedSizes(rewriter, loc, input->get());
      for (auto [dim, expr] : llvm::enumerate(maps[index].getResults()))
        if (strides[dim] != 1)
          sizes[dim] = loopSizes[cast<AffineDimExpr>(expr).getPosition()];
      SmallVector<int64_t> offsets(sizes.size(), 0);
      input->set(tensor::ExtractSliceOp::create(
          rewriter, loc, input->get(), getAsIndexOpFoldResult(context, offsets),
          sizes, getAsIndexOpFoldResult(context, strides)));
    }
    generic->setIndexingMapsAttr(rewriter.getAffineMapArrayAttr(allMaps));
  });

  // The window loops, with one iteration each, go. The input channel loop
  // stays as the reduction of the matmul-shaped tile that is left, and the
  // loops of the result's dimensions stay so that the result tile is
  // written whole by one transfer, which folds into the slices around it
  // (the accumulator then moves out of the reduction loops).
  SmallVector<unsigned> windowLoops(dims->filterLoop.begin(),
                                    dims->filterLoop.end());
  FailureOr<linalg::GenericOp> dropped =
      dropUnitLoops(rewriter, *generic, windowLoops);
  if (failed(dropped))
    return generic;
  linalg::GenericOp tile = *dropped;
  llvm::sort(windowLoops);
  for (unsigned loop : llvm::reverse(windowLoops))
    bounds.erase(bounds.begin() + loop);

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
  SmallVector<int64_t> unordered(bounds.begin(), bounds.end());
  for (auto [loop, old] : llvm::enumerate(order))
    bounds[loop] = unordered[old];
  return linalg::interchangeGenericOp(rewriter, tile, order);
}

/// Drops the reduction loops of tile `op` when they all have one iteration,
/// all but the last of them for a contraction. A contraction (a projection
/// from [heads, features] takes one step of each k loop per tile) is then
/// matmul-shaped, which the outer-product lowering takes; a reduction whose
/// vectors run along a parallel loop (the lanes of a split sum, a sum over
/// rows) becomes an elementwise accumulation. Either way no unit loop is
/// reduced through scalar reductions, one element at a time. `bounds`, one
/// per loop, loses the dropped loops' entries.
static linalg::LinalgOp
dropUnitReductionLoops(RewriterBase &rewriter, linalg::LinalgOp op,
                       SmallVectorImpl<int64_t> &bounds) {
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
  if (failed(dropped))
    return op;
  for (unsigned loop : llvm::reverse(reductions))
    bounds.erase(bounds.begin() + loop);
  return *dropped;
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

/// Whether every op of `op`'s payload computes a lane without touching
/// memory or trapping, whatever its operands: float and integer arithmetic,
/// math functions and index computations (a causal mask's), but not
/// integer division (a masked lane's divisor is undefined) or reads of
/// tensors (a masked lane's indices may be out of bounds).
static bool hasMaskablePayload(linalg::LinalgOp op) {
  return llvm::all_of(op.getBlock()->without_terminator(), [](Operation
                                                                  &inner) {
    return (isa<arith::ArithDialect, math::MathDialect>(inner.getDialect()) ||
            isa<linalg::IndexOp, affine::AffineApplyOp>(inner)) &&
           !isa<arith::DivSIOp, arith::DivUIOp, arith::RemSIOp, arith::RemUIOp,
                arith::CeilDivSIOp, arith::CeilDivUIOp, arith::FloorDivSIOp>(
               inner);
  });
}

/// Tiles of more elements than this are not vectorized with masks: a loop
/// that no register tile cuts has no small bound.
constexpr int64_t kMaxMaskedElements = 4096;

/// The vector sizes of register tile `op` when it needs masks, empty when
/// it needs none, failure when it cannot have them. `bounds` holds an upper
/// bound of each loop's extent (its register tile size; 0 when there is
/// none). A tile needs masks when a loop has a dynamic extent (a partial
/// tile of a dynamic loop): the vector then covers the bound (rounded up to
/// a power of two for the innermost loop, whose lanes are masked anyway).
/// It also needs them when its result rows are not a power of two elements
/// (the partial last tile of a static loop, 12 of 16 columns): the loop of
/// the result's innermost dimension is rounded up to one, so that LLVM gets
/// whole vectors rather than ones of 12 lanes, which it splits into pieces
/// and reassembles at every step (only when that loop is parallel: its
/// masked lanes are result elements that are not written). Masked lanes
/// compute on undefined values, so the payload must be maskable
/// (`hasMaskablePayload`); a contraction or convolution must not mask a
/// reduced loop (its outer-product lowering has no masks).
static FailureOr<SmallVector<int64_t>>
getVectorSizes(linalg::LinalgOp op, ArrayRef<int64_t> bounds) {
  bool maskable = hasMaskablePayload(op);
  SmallVector<int64_t> sizes = op.getStaticLoopRanges();
  SmallVector<bool> masked(sizes.size(), false);
  for (auto [loop, size] : llvm::enumerate(sizes)) {
    if (ShapedType::isStatic(size))
      continue;
    if (bounds[loop] < 1)
      return failure();
    size = bounds[loop];
    masked[loop] = true;
  }
  // The innermost loop makes the vectors' lanes: whole vectors, as below.
  if (masked.back())
    sizes.back() = llvm::PowerOf2Ceil(sizes.back());
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  if (op.getNumDpsInits() == 1) {
    AffineMap resultMap = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
    auto lane = resultMap.getNumResults() > 0
                    ? dyn_cast<AffineDimExpr>(resultMap.getResults().back())
                    : nullptr;
    if (lane && linalg::isParallelIterator(iterators[lane.getPosition()])) {
      int64_t &lanes = sizes[lane.getPosition()];
      if (lanes > 1 && !llvm::isPowerOf2_64(lanes) && maskable) {
        lanes = llvm::PowerOf2Ceil(lanes);
        masked[lane.getPosition()] = true;
      }
    }
  }
  if (llvm::none_of(masked, [](bool m) { return m; }))
    return SmallVector<int64_t>();
  bool product = linalg::isaContractionOpInterface(op) ||
                 linalg::isaConvolutionOpInterface(op);
  int64_t elements = 1;
  for (auto [loop, size] : llvm::enumerate(sizes)) {
    elements *= size;
    if (masked[loop] && product && !linalg::isParallelIterator(iterators[loop]))
      return failure();
  }
  if (!maskable || elements > kMaxMaskedElements)
    return failure();
  return sizes;
}

namespace {
/// Unmasks the ops of a tile that `getVectorSizes` masks. The vectorizer's
/// masks cover the tile: each operand is read and written from its first
/// element, and its extents are the tile's, so a transfer's mask is the
/// part of its vector that is in bounds, and an out-of-bounds transfer
/// (`in_bounds` false) pads the lanes past the tile's end on a read and
/// drops them on a write, as the mask would. Every other op but a
/// reduction (`UnmaskReduction`) computes its masked lanes: they belong
/// to result elements that the write drops, or feed a reduction that
/// leaves them out (a mask without a passthru leaves them undefined
/// anyway). The tile is then what an unmasked one would be (multiply-add
/// reductions become contractions), with wider vectors.
struct UnmaskTileLanes : OpRewritePattern<vector::MaskOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(vector::MaskOp mask,
                                PatternRewriter &rewriter) const override {
    Operation *masked = mask.getMaskableOp();
    if (!masked || mask.hasPassthru())
      return failure();
    auto transfer = dyn_cast<VectorTransferOpInterface>(masked);
    if ((!transfer && !isPure(masked)) ||
        isa<vector::MultiDimReductionOp>(masked))
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

/// The identity of reduction `kind` on elements of `type` (a masked lane
/// adds 0, multiplies by 1, and takes the max with the lowest value).
static Value getReductionIdentity(OpBuilder &builder, Location loc,
                                  vector::CombiningKind kind, Type type) {
  bool isFloat = isa<FloatType>(type);
  using Kind = vector::CombiningKind;
  arith::AtomicRMWKind identity;
  switch (kind) {
  case Kind::ADD:
  case Kind::XOR:
    identity =
        isFloat ? arith::AtomicRMWKind::addf : arith::AtomicRMWKind::addi;
    break;
  case Kind::MUL:
    identity =
        isFloat ? arith::AtomicRMWKind::mulf : arith::AtomicRMWKind::muli;
    break;
  case Kind::MINUI:
    identity = arith::AtomicRMWKind::minu;
    break;
  case Kind::MINSI:
    identity = arith::AtomicRMWKind::mins;
    break;
  case Kind::MINNUMF:
    identity = arith::AtomicRMWKind::minnumf;
    break;
  case Kind::MAXUI:
    identity = arith::AtomicRMWKind::maxu;
    break;
  case Kind::MAXSI:
    identity = arith::AtomicRMWKind::maxs;
    break;
  case Kind::MAXNUMF:
    identity = arith::AtomicRMWKind::maxnumf;
    break;
  case Kind::AND:
    identity = arith::AtomicRMWKind::andi;
    break;
  case Kind::OR:
    identity = arith::AtomicRMWKind::ori;
    break;
  case Kind::MAXIMUMF:
    identity = arith::AtomicRMWKind::maximumf;
    break;
  case Kind::MINIMUMF:
    identity = arith::AtomicRMWKind::minimumf;
    break;
  }
  return arith::getIdentityValue(identity, type, builder, loc);
}

/// Whether `mask` (a `vector.create_mask`) sets every lane along each of
/// `dims`.
static bool isWholeAlong(Value mask, ArrayRef<int64_t> dims) {
  auto create = mask.getDefiningOp<vector::CreateMaskOp>();
  if (!create)
    return false;
  auto type = cast<VectorType>(mask.getType());
  return llvm::all_of(dims, [&](int64_t dim) {
    std::optional<int64_t> size = getConstantIntValue(create.getOperand(dim));
    return size && *size >= type.getDimSize(dim);
  });
}

/// A masked multi-reduction whose mask cuts only kept dimensions (a
/// partial tile's rows past the end, which are not written) is unmasked;
/// one whose mask cuts reduced lanes reduces its source with those lanes
/// replaced by the reduction's identity: a select per tile, then the
/// unmasked reduction that the lowering patterns below take.
struct UnmaskReduction : OpRewritePattern<vector::MaskOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(vector::MaskOp mask,
                                PatternRewriter &rewriter) const override {
    auto reduction =
        dyn_cast_or_null<vector::MultiDimReductionOp>(mask.getMaskableOp());
    if (!reduction || mask.hasPassthru())
      return failure();
    Location loc = reduction.getLoc();
    rewriter.setInsertionPoint(mask);
    if (isWholeAlong(mask.getMask(), reduction.getReductionDims())) {
      rewriter.replaceOp(mask, rewriter.clone(*reduction)->getResults());
      return success();
    }
    VectorType sourceType = reduction.getSourceVectorType();
    Value identity = vector::BroadcastOp::create(
        rewriter, loc, sourceType,
        getReductionIdentity(rewriter, loc, reduction.getKind(),
                             sourceType.getElementType()));
    Value source = arith::SelectOp::create(rewriter, loc, mask.getMask(),
                                           reduction.getSource(), identity);
    rewriter.replaceOpWithNewOp<vector::MultiDimReductionOp>(
        mask, reduction.getType(), reduction.getKind(), source,
        reduction.getAcc(), reduction.getReductionDims());
    return success();
  }
};

/// The slice `slice` reads or writes from its source unless it is rank
/// reducing or strided.
static bool isPlainSlice(OffsetSizeAndStrideOpInterface slice,
                         int64_t sourceRank, int64_t rank) {
  return sourceRank == rank &&
         llvm::all_of(slice.getMixedStrides(), [](OpFoldResult stride) {
           return isConstantIntValue(stride, 1);
         });
}

/// For a minor-identity transfer at `indices` of a slice at `offsets` of
/// `sizes`: the indices into the slice's source, and the mask of the
/// vector's lanes that fall in the slice.
static std::pair<SmallVector<Value>, Value> getIndicesAndLanesInSource(
    OpBuilder &builder, Location loc, VectorType vectorType, ValueRange indices,
    ArrayRef<OpFoldResult> offsets, ArrayRef<OpFoldResult> sizes) {
  SmallVector<Value> sourceIndices, lanes;
  int64_t firstVectorDim = indices.size() - vectorType.getRank();
  for (auto [dim, index] : llvm::enumerate(indices)) {
    Value offset = getValueOrCreateConstantIndexOp(builder, loc, offsets[dim]);
    sourceIndices.push_back(arith::AddIOp::create(builder, loc, offset, index));
    if (static_cast<int64_t>(dim) >= firstVectorDim)
      lanes.push_back(arith::SubIOp::create(
          builder, loc,
          getValueOrCreateConstantIndexOp(builder, loc, sizes[dim]), index));
  }
  VectorType maskType = vectorType.cloneWith(std::nullopt, builder.getI1Type());
  return {sourceIndices,
          vector::CreateMaskOp::create(builder, loc, maskType, lanes)};
}

/// transfer_read(extract_slice(x)) -> transfer_read(x) masked to the
/// slice, for a read that may pass the end of a slice of dynamic size (a
/// partial tile of a dynamic loop). Upstream's fold takes in-bounds reads
/// only (and those of static slices, which it infers in bounds). The tile
/// then reads its operands in place, as a full tile does, and no slice
/// of dynamic size is left for bufferization to match (each match of two
/// such slices is a query of upstream's bounds analysis, seconds apiece).
struct FoldSliceIntoMaskedRead : OpRewritePattern<vector::TransferReadOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(vector::TransferReadOp read,
                                PatternRewriter &rewriter) const override {
    auto slice = read.getBase().getDefiningOp<tensor::ExtractSliceOp>();
    if (!slice || slice.getType().hasStaticShape() || read.getMask() ||
        !read.hasOutOfBoundsDim() ||
        !read.getPermutationMap().isMinorIdentity() ||
        !isPlainSlice(slice, slice.getSourceType().getRank(),
                      slice.getType().getRank()))
      return failure();
    auto [indices, lanes] = getIndicesAndLanesInSource(
        rewriter, read.getLoc(), read.getVectorType(), read.getIndices(),
        slice.getMixedOffsets(), slice.getMixedSizes());
    rewriter.replaceOpWithNewOp<vector::TransferReadOp>(
        read, read.getVectorType(), slice.getSource(), indices,
        read.getPermutationMapAttr(), read.getPadding(), lanes,
        read.getInBoundsAttr());
    return success();
  }
};

/// insert_slice(transfer_write(v, extract_slice(x)), x) at the same place
/// -> transfer_write(v, x) masked to the slice, the write counterpart of
/// `FoldSliceIntoMaskedRead`.
struct FoldSliceIntoMaskedWrite : OpRewritePattern<tensor::InsertSliceOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(tensor::InsertSliceOp insert,
                                PatternRewriter &rewriter) const override {
    auto write = insert.getSource().getDefiningOp<vector::TransferWriteOp>();
    auto slice = write ? write.getBase().getDefiningOp<tensor::ExtractSliceOp>()
                       : tensor::ExtractSliceOp();
    if (!slice || slice.getType().hasStaticShape() || !write->hasOneUse() ||
        write.getMask() || !write.hasOutOfBoundsDim() ||
        !write.getPermutationMap().isMinorIdentity() ||
        slice.getSource() != insert.getDest() ||
        !isPlainSlice(slice, slice.getSourceType().getRank(),
                      slice.getType().getRank()) ||
        !isPlainSlice(insert, insert.getDestType().getRank(),
                      insert.getSourceType().getRank()) ||
        !llvm::equal(slice.getMixedOffsets(), insert.getMixedOffsets()) ||
        !llvm::equal(slice.getMixedSizes(), insert.getMixedSizes()))
      return failure();
    auto [indices, lanes] = getIndicesAndLanesInSource(
        rewriter, write.getLoc(), write.getVectorType(), write.getIndices(),
        slice.getMixedOffsets(), slice.getMixedSizes());
    rewriter.replaceOpWithNewOp<vector::TransferWriteOp>(
        insert, write.getVector(), insert.getDest(), indices,
        write.getPermutationMapAttr(), lanes, write.getInBoundsAttr());
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

/// vector.fma(a, b, c) -> (a * b) + c, each rounded: the strict mode's form
/// of the multiply-adds that upstream lowers contractions to, so that a
/// vectorized tile rounds as the scalar loops of a tile left unvectorized
/// (or of the unfused op) do.
struct SplitFma : OpRewritePattern<vector::FMAOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(vector::FMAOp fma,
                                PatternRewriter &rewriter) const override {
    Value product = arith::MulFOp::create(rewriter, fma.getLoc(), fma.getLhs(),
                                          fma.getRhs());
    rewriter.replaceOpWithNewOp<arith::AddFOp>(fma, product, fma.getAcc());
    return success();
  }
};

/// math.absi(x) -> maxsi(x, 0 - x) on vectors of more than one dimension,
/// which upstream's math-to-llvm lowers only for 1-D vectors (an integer
/// abs tile of rows is 2-D). Both wrap the most negative value to itself.
struct ExpandMultiDimAbsI : OpRewritePattern<math::AbsIOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(math::AbsIOp abs,
                                PatternRewriter &rewriter) const override {
    auto type = dyn_cast<VectorType>(abs.getType());
    if (!type || type.getRank() < 2)
      return failure();
    Location loc = abs.getLoc();
    Value zero = arith::ConstantOp::create(rewriter, loc, type,
                                           rewriter.getZeroAttr(type));
    Value negated =
        arith::SubIOp::create(rewriter, loc, zero, abs.getOperand());
    rewriter.replaceOpWithNewOp<arith::MaxSIOp>(abs, abs.getOperand(), negated);
    return success();
  }
};

struct RlxCpuVectorizePass
    : rlx::impl::RlxCpuVectorizeBase<RlxCpuVectorizePass> {
  using Base::Base;

  /// Vectorizes register tile `op` in place; leaves it as it is when it is
  /// not one (no register tiles in its config) or the vectorizer does not
  /// take it: slower, not wrong.
  void vectorizeTile(RewriterBase &rewriter, linalg::LinalgOp op) {
    auto config =
        op->getAttrOfType<LoweringConfigAttr>(LoweringConfigAttr::kAttrName);
    if (llvm::all_of(config.getVector(), [](int64_t s) { return s == 0; }) ||
        readsOrWritesBooleans(op))
      return;
    // A tile's extents are at most its config's register tile sizes.
    SmallVector<int64_t> bounds(config.getVector());
    if (bounds.size() != op.getNumLoops())
      return;
    op = dropUnitReductionLoops(rewriter, op, bounds);
    // Upstream vectorizes no convolution of `?` sizes.
    if (op.hasDynamicShape() ? linalg::isaConvolutionOpInterface(op)
                             : failed(linalg::vectorizeOpPrecondition(op))) {
      FailureOr<linalg::GenericOp> generic =
          rewriteUnitWindowConvolution(rewriter, op, bounds);
      if (failed(generic))
        return;
      op = *generic;
    }
    FailureOr<SmallVector<int64_t>> vectorSizes = getVectorSizes(op, bounds);
    if (failed(vectorSizes))
      return;
    // The scalable flags are given (all false) with the sizes: without
    // them, the masked tiles' vector types did not compare equal to those
    // that the LLVM conversion builds for the same shapes, which then
    // failed to verify the masks it made.
    SmallVector<bool> scalable(vectorSizes->size(), false);
    if (failed(linalg::vectorizeOpPrecondition(op, *vectorSizes, scalable)))
      return;
    rewriter.setInsertionPoint(op);
    FailureOr<linalg::VectorizationResult> vectorized =
        linalg::vectorize(rewriter, op, *vectorSizes, scalable);
    if (failed(vectorized))
      return;
    if (op->getNumResults() > 0)
      rewriter.replaceOp(op, vectorized->replacements);
    else
      rewriter.eraseOp(op);
  }

  /// Unmasks the tiles vectorized with masks (`UnmaskTileLanes`,
  /// `UnmaskReduction`).
  void unmaskTileLanes() {
    SmallVector<Operation *> masks;
    getOperation().walk([&](vector::MaskOp mask) { masks.push_back(mask); });
    RewritePatternSet patterns(&getContext());
    patterns.add<UnmaskTileLanes, UnmaskReduction>(&getContext());
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
    patterns.add<BroadcastInTransposedLayout, ExpandMultiDimAbsI>(context);
    if (!strictFp)
      patterns.add<MultiplyAddToFma>(context);
    vector::populateVectorTransferPermutationMapLoweringPatterns(patterns);
    tensor::populateFoldTensorSubsetIntoVectorTransferPatterns(patterns);
    patterns.add<FoldSliceIntoMaskedRead, FoldSliceIntoMaskedWrite>(context);
    vector::TransferReadOp::getCanonicalizationPatterns(patterns, context);
    vector::TransferWriteOp::getCanonicalizationPatterns(patterns, context);
    tensor::ExtractSliceOp::getCanonicalizationPatterns(patterns, context);
    tensor::InsertSliceOp::getCanonicalizationPatterns(patterns, context);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();

    getOperation().walk([&](vector::ContractionOp contract) {
      putRowOperandSecond(rewriter, contract);
    });

    // The masks of a partial tile's transfers, made inside its loops, out
    // of them and one per shape: a masked read and write of an accumulator
    // are then the same subset at every step, which hoisting needs.
    getOperation().walk(
        [](LoopLikeOpInterface loop) { moveLoopInvariantCode(loop); });
    DominanceInfo dominance;
    eliminateCommonSubExpressions(rewriter, dominance, getOperation());

    // Innermost loops first, so an accumulator moves out of every loop it
    // does not depend on. A loop that carries a tensor of dynamic shape only
    // when no loop inside it does (a register tile's reductions, whose
    // accumulators the inner loops already carry as vectors): proving the
    // subsets of such a tensor disjoint takes upstream's bounds analysis
    // (Presburger sets), which costs seconds over a nest of partial tiles.
    // A tensor that a loop only passes on, to its yield or through inner
    // loops (as hoisting leaves it), counts as not carried.
    std::function<bool(Value)> isAccessed = [&](Value carried) {
      for (OpOperand &use : carried.getUses()) {
        Operation *user = use.getOwner();
        if (isa<scf::YieldOp>(user))
          continue;
        auto inner = dyn_cast<scf::ForOp>(user);
        if (!inner || use.getOperandNumber() < inner.getNumControlOperands() ||
            isAccessed(inner.getTiedLoopRegionIterArg(&use)))
          return true;
      }
      return false;
    };
    auto carriesDynamicTensor = [&](scf::ForOp loop) {
      return llvm::any_of(loop.getRegionIterArgs(), [&](Value carried) {
        auto type = dyn_cast<ShapedType>(carried.getType());
        return type && !type.hasStaticShape() && isAccessed(carried);
      });
    };
    getOperation().walk([&](scf::ForOp loop) {
      bool nestedDynamic = false;
      loop.getBody()->walk([&](scf::ForOp inner) {
        nestedDynamic |= carriesDynamicTensor(inner);
      });
      if (carriesDynamicTensor(loop) && nestedDynamic)
        return;
      (void)hoistLoopInvariantSubsets(rewriter, loop);
    });

    // Upstream lowers contractions to fused multiply-adds (outer products
    // of vector.fma) whatever the flags; the strict mode lowers them here,
    // as the LLVM conversion would, with every multiply and add rounded.
    if (strictFp) {
      RewritePatternSet lowering(context);
      vector::populateVectorContractLoweringPatterns(
          lowering, vector::VectorContractLowering::OuterProduct);
      vector::populateVectorOuterProductLoweringPatterns(lowering);
      lowering.add<SplitFma>(context);
      if (failed(applyPatternsGreedily(getOperation(), std::move(lowering))))
        return signalPassFailure();
    }
  }
};
} // namespace
