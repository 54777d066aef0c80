//===- TileAndFuse.cpp - Thread, cache and register tiles -----------------===//
//
// Tiling and fusion are upstream's
// (`scf::tileConsumerAndFuseProducersUsingSCF`, `scf::tileUsingSCF`).
// Packing a matmul's right operand is written here:
// upstream's `linalg::pack` packs whole operands (and the result with them),
// while this packs each cache tile of B into register-tile panels inside
// the thread tile, so the panels stay small and are reused across calls.
//
//===----------------------------------------------------------------------===//
#include "MatmulLoops.h"
#include "TileOpConfigs.h"
#include "rlx/Codegen/Passes.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Affine/Utils.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/Dialect/SCF/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ValueBoundsOpInterface.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "mlir/Transforms/LoopInvariantCodeMotionUtils.h"
#include "rlx/Dialect/Rlx/IR/RlxDialect.h"
#include "rlx/Dialect/Rlx/IR/RlxOps.h"

namespace mlir::rlx {
#define GEN_PASS_DEF_RLXTILEANDFUSE
#include "rlx/Codegen/Passes.h.inc"
} // namespace mlir::rlx

using namespace mlir;
using namespace mlir::rlx;

static LoweringConfigAttr getLoweringConfig(Operation *op) {
  return op->getAttrOfType<LoweringConfigAttr>(LoweringConfigAttr::kAttrName);
}

/// The all-parallel generic that reads `op`'s single result element for
/// element (an identity indexing map over its own loops) and is its only
/// user: the epilogue that computes each result tile right after it. Not
/// one that reads another operand through an index that tiling cannot
/// slice (`hasIncreasingIndexingMaps`: a reversed read that elementwise
/// fusion folded into it).
static linalg::GenericOp getFusibleEpilogue(linalg::LinalgOp op) {
  if (op->getNumResults() != 1 || !op->getResult(0).hasOneUse())
    return nullptr;
  OpOperand &use = *op->getResult(0).getUses().begin();
  auto epilogue = dyn_cast<linalg::GenericOp>(use.getOwner());
  if (!epilogue || !epilogue.hasPureTensorSemantics() ||
      epilogue.getNumLoops() != epilogue.getNumParallelLoops() ||
      !epilogue.isDpsInput(&use) ||
      !epilogue.getMatchingIndexingMap(&use).isIdentity() ||
      !hasIncreasingIndexingMaps(epilogue))
    return nullptr;
  return epilogue;
}

/// The config of `epilogue`, which reads the result of `op` (config
/// `config`) through an identity map: loop i of the epilogue is result
/// dimension i of `op`, whose loop gives the tile sizes.
static LoweringConfigAttr projectConfig(linalg::LinalgOp op,
                                        LoweringConfigAttr config) {
  AffineMap resultMap = op.getIndexingMapMatchingResult(op->getResult(0));
  auto project = [&](ArrayRef<int64_t> sizes) {
    SmallVector<int64_t> projected;
    for (AffineExpr expr : resultMap.getResults())
      projected.push_back(sizes[cast<AffineDimExpr>(expr).getPosition()]);
    return projected;
  };
  return LoweringConfigAttr::get(
      op->getContext(), project(config.getDistribution()),
      SmallVector<int64_t>(resultMap.getNumResults()),
      project(config.getVector()), /*packed=*/{},
      config.getMinParallelIterations());
}

/// Whether only `op` reads the elements of `value`: other users are slices
/// of it for `op`'s tiles, or read its sizes (`tensor.dim`, which the
/// analyses of tile sizes leave and canonicalization folds away).
static bool isReadOnlyBy(Value value, Operation *op) {
  return llvm::all_of(value.getUsers(), [&](Operation *user) {
    return user == op || isa<tensor::ExtractSliceOp, tensor::DimOp>(user);
  });
}

/// Whether `value` is computed elementwise for the left operand of
/// `contraction` (an op with reduction loops) only: a tile of result rows reads
/// its own rows of it, so computing them per tile costs nothing extra (a right
/// operand is read whole by every tile and stays materialized).
static bool isLeftPrologue(Value value, Operation *contraction) {
  auto generic = value.getDefiningOp<linalg::GenericOp>();
  auto linalgOp = cast<linalg::LinalgOp>(contraction);
  return generic && generic.getNumLoops() == generic.getNumParallelLoops() &&
         linalgOp.getNumReductionLoops() > 0 &&
         linalgOp.getNumDpsInputs() > 0 &&
         linalgOp.getDpsInputOperand(0)->get() == value &&
         isReadOnlyBy(value, contraction);
}

/// Whether `value` is the padded input of convolution `op` (or a pooling
/// window) and read by nothing else: each thread tile then pads only the
/// part of the input it reads, in parallel and while that part is in cache,
/// rather than the whole input being copied into a padded one first, on one
/// thread. Not where the image has `?` sizes: a tile's pad would have
/// run-time sizes too, and the window op's tiles would read it in scalar
/// loops (27x slower than the whole pad, 3x3 64->64 at 56x56).
static bool isPaddedInput(Value value, Operation *op) {
  auto type = dyn_cast<RankedTensorType>(value.getType());
  return value.getDefiningOp<tensor::PadOp>() && type &&
         llvm::none_of(type.getShape().drop_front(), ShapedType::isDynamic) &&
         linalg::isaConvolutionOpInterface(cast<linalg::LinalgOp>(op)) &&
         isReadOnlyBy(value, op);
}

/// Whether `value` is computed elementwise for `rows` (an rlx.rows) only,
/// as the conversion of an input to the computation type is: a tile of
/// rows then computes its part (its rows, or all of a broadcast input) with
/// its stages, which on the GPU is one kernel rather than two. A generic
/// that computes from its indices alone (an iota) reads nothing worth
/// fusing and would be recomputed for every row.
static bool isRowsPrologue(Value value, Operation *rows) {
  auto generic = value.getDefiningOp<linalg::GenericOp>();
  return generic && generic.getNumDpsInputs() > 0 &&
         !generic.hasIndexSemantics() &&
         generic.getNumLoops() == generic.getNumParallelLoops() &&
         isReadOnlyBy(value, rows);
}

/// Makes all-parallel `op`, whose destination is a `tensor.empty`, write
/// into an input that only it reads, produced by another op (not a function
/// argument, which is read-only) and read element for element as the result
/// is written: the payload then reads that element from the destination.
/// Untiled, such ops bufferize in place of their dead input anyway (an
/// elementwise access); tiled into an `scf.forall`, the tiles read their
/// input through the loop's shared output only after this rewrite, and
/// bufferization otherwise gives each op's result a new buffer. A result
/// that a loop yields keeps its `tensor.empty`, which rlx-carry-tensors-in-
/// place turns into the loop's carried buffer.
static linalg::GenericOp useDeadInputAsDestination(RewriterBase &rewriter,
                                                   linalg::GenericOp op) {
  // An op that reads its indices (linalg.index) and nothing but its
  // destination is one upstream's vectorizer writes back with a malformed
  // transfer; such ops keep their inputs.
  if (op.getNumDpsInits() != 1 || op.hasIndexSemantics() ||
      llvm::any_of(op->getUsers(),
                   [](Operation *user) { return isa<scf::YieldOp>(user); }) ||
      op.getNumLoops() != op.getNumParallelLoops() ||
      !op.getDpsInits()[0].getDefiningOp<tensor::EmptyOp>() ||
      op.payloadUsesValueFromOperand(op.getDpsInitOperand(0)))
    return op;
  AffineMap resultMap = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
  for (OpOperand *input : op.getDpsInputOperands()) {
    Value value = input->get();
    if (value.getType() != op.getResultTypes()[0] || !value.hasOneUse() ||
        !value.getDefiningOp() || op.getMatchingIndexingMap(input) != resultMap)
      continue;
    SmallVector<Value> inputs;
    SmallVector<AffineMap> maps;
    for (OpOperand *other : op.getDpsInputOperands()) {
      if (other == input)
        continue;
      inputs.push_back(other->get());
      maps.push_back(op.getMatchingIndexingMap(other));
    }
    maps.push_back(resultMap);
    rewriter.setInsertionPoint(op);
    auto rewritten = linalg::GenericOp::create(
        rewriter, op.getLoc(), op.getResultTypes(), inputs, ValueRange{value},
        maps, op.getIteratorTypesArray());
    rewritten->setDiscardableAttrs(op->getDiscardableAttrDictionary());
    // The payload's block arguments: the remaining inputs, then the
    // destination, which stands for the input that became it.
    Block &body = op.getRegion().front();
    Block *newBody = rewriter.createBlock(&rewritten.getRegion());
    SmallVector<Value> arguments;
    for (BlockArgument argument : body.getArguments())
      if (argument.getArgNumber() != input->getOperandNumber() &&
          argument.getArgNumber() != body.getNumArguments() - 1)
        arguments.push_back(
            newBody->addArgument(argument.getType(), argument.getLoc()));
    BlockArgument destination =
        newBody->addArgument(body.getArguments().back().getType(), op.getLoc());
    arguments.insert(arguments.begin() + input->getOperandNumber(),
                     destination);
    arguments.push_back(destination);
    rewriter.mergeBlocks(&body, newBody, arguments);
    rewriter.replaceOp(op, rewritten->getResults());
    return rewritten;
  }
  return op;
}

/// Peels each of `loops` whose tile size does not divide it (upstream
/// `scf::peelForLoopAndSimplifyBounds`), innermost first, so that the full
/// tiles and the last, partial one of each loop all have static sizes and
/// vectorize as they are; returns the ops with a lowering config in the
/// partial tiles (copies of those in the full ones).
static SmallVector<Operation *>
peelPartialTiles(RewriterBase &rewriter, ArrayRef<LoopLikeOpInterface> loops) {
  SmallVector<Operation *> copies;
  for (LoopLikeOpInterface loop : llvm::reverse(loops)) {
    auto forOp = dyn_cast<scf::ForOp>(loop.getOperation());
    scf::ForOp partialTile;
    if (!forOp ||
        failed(scf::peelForLoopAndSimplifyBounds(rewriter, forOp, partialTile)))
      continue;
    // Copies of copies that an outer peel makes are found in its own walk.
    partialTile->walk([&](Operation *op) {
      if (getLoweringConfig(op) && !llvm::is_contained(copies, op))
        copies.push_back(op);
    });
  }
  return copies;
}

/// Tiles `op` with `sizes` into scf.for loops, replacing it; returns the
/// tiled op (`op` itself when there is nothing to tile). With `peel`, the
/// loops are peeled (`peelPartialTiles`).
static FailureOr<Operation *> tileWithLoops(RewriterBase &rewriter,
                                            TilingInterface op,
                                            ArrayRef<int64_t> sizes,
                                            bool peel = false) {
  if (llvm::all_of(sizes, [](int64_t size) { return size == 0; }))
    return op.getOperation();
  scf::SCFTilingOptions options;
  options.setTileSizes(getAsIndexOpFoldResult(rewriter.getContext(), sizes));
  rewriter.setInsertionPoint(op);
  FailureOr<scf::SCFTilingResult> tiled =
      scf::tileUsingSCF(rewriter, op, options);
  if (failed(tiled))
    return failure();
  rewriter.replaceOp(op, tiled->replacements);
  if (peel)
    (void)peelPartialTiles(rewriter, tiled->loops);
  return tiled->tiledOps.front();
}

/// Loop sizes that cover their whole loop are left untiled: a static loop,
/// or a `?` one bounded by them (a partial tile of a `?` loop, which the
/// next round of tiling must not cut again).
static SmallVector<int64_t> dropWholeLoopTiles(Operation *op,
                                               ArrayRef<int64_t> sizes) {
  SmallVector<int64_t> clamped(sizes);
  // The loops' sizes are materialized for the analysis only, and erased
  // after it: a `tensor.dim` left reading a producer's result would keep it
  // alive after its tiles are fused.
  struct Materialized : OpBuilder::Listener {
    void notifyOperationInserted(Operation *op,
                                 OpBuilder::InsertPoint) override {
      ops.push_back(op);
    }
    SmallVector<Operation *> ops;
  } materialized;
  OpBuilder b(op, &materialized);
  SmallVector<Range> domain = cast<TilingInterface>(op).getIterationDomain(b);
  for (auto [size, range] : llvm::zip_equal(clamped, domain)) {
    if (size == 0)
      continue;
    std::optional<int64_t> extent = getConstantIntValue(range.size);
    if (!extent) {
      FailureOr<int64_t> bound = ValueBoundsConstraintSet::computeConstantBound(
          presburger::BoundType::UB, cast<Value>(range.size),
          /*stopCondition=*/nullptr, /*closedUB=*/true);
      if (succeeded(bound))
        extent = *bound;
    }
    if (extent && size >= *extent)
      size = 0;
  }
  for (Operation *size : llvm::reverse(materialized.ops))
    if (size->use_empty())
      size->erase();
  return clamped;
}

/// Whether `op`, which has `config`, makes enough iterations for its thread
/// tiles `threadTiles` (of the fusion group's root) to run in parallel:
/// null where there are none, `config` has no min_parallel_iterations or
/// `op`'s loops all have static sizes (the config selection decided then),
/// else an i1 computed before `op`.
static Value getParallelCondition(RewriterBase &rewriter, TilingInterface op,
                                  LoweringConfigAttr config,
                                  ArrayRef<int64_t> threadTiles) {
  int64_t minIterations = config.getMinParallelIterations();
  if (minIterations == 0 ||
      llvm::all_of(threadTiles, [](int64_t size) { return size == 0; }))
    return nullptr;
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(op);
  Location loc = op.getLoc();
  SmallVector<Range> domain = op.getIterationDomain(rewriter);
  if (llvm::all_of(domain, [](const Range &range) {
        return getConstantIntValue(range.size).has_value();
      }))
    return nullptr;
  Value iterations = arith::ConstantIndexOp::create(rewriter, loc, 1);
  for (const Range &range : domain)
    iterations = arith::MulIOp::create(
        rewriter, loc, iterations,
        getValueOrCreateConstantIndexOp(rewriter, loc, range.size));
  return arith::CmpIOp::create(
      rewriter, loc, arith::CmpIPredicate::uge, iterations,
      arith::ConstantIndexOp::create(rewriter, loc, minIterations));
}

/// `config` for one version of a guarded fusion group: with its thread
/// tiles (`parallel`) or without them, and no longer guarded.
static LoweringConfigAttr getVersionConfig(LoweringConfigAttr config,
                                           bool parallel) {
  SmallVector<int64_t> distribution(config.getDistribution());
  if (!parallel)
    distribution.assign(distribution.size(), 0);
  return LoweringConfigAttr::get(config.getContext(), distribution,
                                 config.getCache(), config.getVector(),
                                 config.getPacked());
}

/// Versions `group` (ops of one block, in order, whose results ops outside
/// it use after its last op only: `isUsedAfter`) on `condition`:
///   scf.if %condition { group } else { group }
/// at the last op, yielding the group's results that ops outside it use.
/// Returns the two copies, each mapping the group's ops to their clones, so
/// that each can be tiled with its own schedule: versioning after tiling
/// would have to make static tile sizes out of run-time ones.
static std::pair<IRMapping, IRMapping> versionGroup(RewriterBase &rewriter,
                                                    ArrayRef<Operation *> group,
                                                    Value condition) {
  SmallVector<Value> escaping;
  for (Operation *op : group)
    for (Value result : op->getResults())
      if (llvm::any_of(result.getUsers(), [&](Operation *user) {
            return !llvm::is_contained(group, user);
          }))
        escaping.push_back(result);
  rewriter.setInsertionPoint(group.back());
  auto branches = scf::IfOp::create(rewriter, group.back()->getLoc(),
                                    ValueRange(escaping).getTypes(), condition,
                                    /*withElseRegion=*/true);
  std::pair<IRMapping, IRMapping> versions;
  for (auto [block, mapping] :
       {std::make_pair(branches.thenBlock(), &versions.first),
        std::make_pair(branches.elseBlock(), &versions.second)}) {
    rewriter.setInsertionPointToStart(block);
    for (Operation *op : group)
      rewriter.clone(*op, *mapping);
    SmallVector<Value> yielded;
    for (Value value : escaping)
      yielded.push_back(mapping->lookup(value));
    if (block->mightHaveTerminator())
      rewriter.eraseOp(block->getTerminator());
    rewriter.setInsertionPointToEnd(block);
    scf::YieldOp::create(rewriter, branches.getLoc(), yielded);
  }
  for (auto [value, result] : llvm::zip_equal(escaping, branches.getResults()))
    rewriter.replaceAllUsesWith(value, result);
  for (Operation *op : llvm::reverse(group))
    rewriter.eraseOp(op);
  return versions;
}

/// Whether ops outside `group` (ops of one block, in order) use its
/// results only after its last op, where `versionGroup` puts its versions.
static bool isUsedAfter(ArrayRef<Operation *> group) {
  Operation *last = group.back();
  for (Operation *member : group)
    for (Operation *user : member->getUsers()) {
      if (llvm::is_contained(group, user))
        continue;
      Operation *ancestor = last->getBlock()->findAncestorOpInBlock(*user);
      if (!ancestor || !last->isBeforeInBlock(ancestor))
        return false;
    }
  return true;
}

/// Sorts `ops`, ops of one block, in their order in it.
static void sortInBlockOrder(MutableArrayRef<Operation *> ops) {
  llvm::sort(ops,
             [](Operation *a, Operation *b) { return a->isBeforeInBlock(b); });
}

/// Replaces each `tensor.dim` of a result of `op` with the size that `op`'s
/// shape rule computes from its operands (`reifyResultShapes`), before `op`.
static void readSizesFromOperands(RewriterBase &rewriter, Operation *op) {
  SmallVector<tensor::DimOp> dims;
  for (Operation *user : op->getUsers())
    if (auto dim = dyn_cast<tensor::DimOp>(user))
      dims.push_back(dim);
  if (dims.empty())
    return;
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(op);
  ReifiedRankedShapedTypeDims shapes;
  if (failed(reifyResultShapes(rewriter, op, shapes)))
    return;
  for (tensor::DimOp dim : dims) {
    std::optional<int64_t> index = dim.getConstantIndex();
    if (!index)
      continue;
    auto result = cast<OpResult>(dim.getSource());
    OpFoldResult size = shapes[result.getResultNumber()][*index];
    rewriter.replaceOp(
        dim, getValueOrCreateConstantIndexOp(rewriter, dim.getLoc(), size));
  }
}

/// Adds to `group` (ops of one block) the producers, in its block, that its
/// tiles compute (`fuses`, given the producer and whether it is read as a
/// destination) and that nothing outside the group reads, transitively;
/// sorts the group in block order. A version of the group then computes
/// them in its tiles, rather than the code before it for both versions.
static void addFusedProducers(RewriterBase &rewriter,
                              SmallVectorImpl<Operation *> &group,
                              function_ref<bool(OpResult, bool)> fuses) {
  for (size_t i = 0; i < group.size(); ++i) {
    Operation *member = group[i];
    auto dps = dyn_cast<DestinationStyleOpInterface>(member);
    for (OpOperand &use : member->getOpOperands()) {
      auto producer = dyn_cast<OpResult>(use.get());
      if (!producer)
        continue;
      Operation *owner = producer.getOwner();
      if (owner->getBlock() != member->getBlock() ||
          !isa<TilingInterface>(owner) || llvm::is_contained(group, owner) ||
          !fuses(producer, dps && dps.isDpsInit(&use)))
        continue;
      // Sizes read from the producer's results (by the analyses of tile
      // sizes) are computed from its operands instead: only the group then
      // reads the producer.
      readSizesFromOperands(rewriter, owner);
      if (llvm::all_of(owner->getUsers(), [&](Operation *user) {
            return llvm::is_contained(group, user);
          }))
        group.push_back(owner);
    }
  }
  sortInBlockOrder(group);
}

/// Whether the producer of a destination may be computed in the tiles: not
/// when it has effects (a `func.call`), which upstream would clone whole
/// into every tile, running the call once per tile.
static bool isFusableDestination(OpResult producer, bool isDestination) {
  return isDestination && isMemoryEffectFree(producer.getOwner());
}

/// Whether the thread tiles of `op`, which decomposes (attention, rows),
/// compute their part of `producer` (read as a destination where
/// `isDestination`).
static bool fusesIntoRowTiles(OpResult producer, Operation *op,
                              bool isDestination) {
  return isFusableDestination(producer, isDestination) ||
         isa<linalg::FillOp>(producer.getOwner()) ||
         (isa<RowsOp>(op) && isRowsPrologue(producer, op));
}

/// Runs `loop`, which tiles a masked loop, only over the part of it that
/// some element sees (`visible`, a range of the masked loop: causal and
/// sliding-window masks hide the rest from whole tiles): from the tile
/// holding the first visible iteration to the last one, within the loop's
/// own bounds. The loop's steps stay where they were, multiples of the tile
/// size from the start of the masked loop, so tiles keep their sizes.
static void skipHiddenTiles(RewriterBase &rewriter,
                            std::pair<OpFoldResult, OpFoldResult> visible,
                            scf::ForOp loop) {
  rewriter.setInsertionPoint(loop);
  Location loc = loop.getLoc();
  MLIRContext *context = rewriter.getContext();
  AffineExpr first, step;
  bindDims(context, first);
  bindSymbols(context, step);
  OpFoldResult low = affine::makeComposedFoldedAffineApply(
      rewriter, loc, first.floorDiv(step) * step,
      {visible.first, loop.getStep()});
  OpFoldResult high = visible.second;
  // The tiles of a peeled loop are a part of the masked loop's.
  auto identity = AffineMap::getMultiDimIdentityMap(2, context);
  if (!isZeroInteger(loop.getLowerBound()))
    low = affine::makeComposedFoldedAffineMax(rewriter, loc, identity,
                                              {low, loop.getLowerBound()});
  high = affine::makeComposedFoldedAffineMin(rewriter, loc, identity,
                                             {high, loop.getUpperBound()});
  rewriter.modifyOpInPlace(loop, [&] {
    loop.setLowerBound(getValueOrCreateConstantIndexOp(rewriter, loc, low));
    loop.setUpperBound(getValueOrCreateConstantIndexOp(rewriter, loc, high));
  });
}

/// Tiles `op`, the tile op in the partial tile of a peeled masked loop, by
/// `tile` along the masked loop `dim` and peels that loop too, so that a
/// partial tile of at least `tile` iterations starts with a full, static
/// one. Its extent along `dim` is the peel's `ub - iv`, an affine.apply:
/// expanded into arith ops first, so that the tiling does not compose it
/// into its tile-size minimum, which the peel could then not relate to the
/// loop's bound and simplify.
static void tilePartialTile(RewriterBase &rewriter, TilingInterface op,
                            unsigned dim, int64_t tile) {
  rewriter.setInsertionPoint(op);
  SmallVector<Range> domain = op.getIterationDomain(rewriter);
  auto extent = dyn_cast<Value>(domain[dim].size);
  auto apply = extent ? extent.getDefiningOp<affine::AffineApplyOp>()
                      : affine::AffineApplyOp();
  if (apply) {
    rewriter.setInsertionPointAfter(apply);
    std::optional<SmallVector<Value, 8>> expanded = affine::expandAffineMap(
        rewriter, apply.getLoc(), apply.getAffineMap(),
        llvm::to_vector_of<Value>(apply.getMapOperands()));
    if (!expanded)
      return;
    Operation *loop = op->getParentOp();
    rewriter.replaceUsesWithIf(apply, expanded->front(), [&](OpOperand &use) {
      return loop->isAncestor(use.getOwner());
    });
  }
  SmallVector<int64_t> sizes(op.getLoopIteratorTypes().size(), 0);
  sizes[dim] = tile;
  (void)tileWithLoops(rewriter, op, sizes, /*peel=*/true);
}

/// Peels `loop`, which tiles the masked loop `dim` of attention by `tile`
/// (upstream `scf::peelForLoopAndSimplifyBounds`), so that its full tiles
/// have static sizes; the last, partial tile is tiled again by half as many
/// (`tilePartialTile`), so that a short `?` length, or the rest of a long
/// one, is not computed in masked vectors of the whole tile. Returns the
/// loops that step through tiles of the masked loop: the full tiles' and,
/// if some length leaves one, the partial tile's.
static SmallVector<scf::ForOp> peelMaskedLoop(RewriterBase &rewriter,
                                              scf::ForOp loop, unsigned dim,
                                              int64_t tile) {
  scf::ForOp partialTile;
  if (failed(scf::peelForLoopAndSimplifyBounds(rewriter, loop, partialTile)))
    return {loop};
  if (tile % 2 == 0) {
    SmallVector<TilingInterface> partialOps;
    partialTile->walk([&](TilingInterface op) {
      if (isa<PositionalMaskOpInterface>(op.getOperation()))
        partialOps.push_back(op);
    });
    for (TilingInterface op : partialOps)
      tilePartialTile(rewriter, op, dim, tile / 2);
  }
  return {loop, partialTile};
}

/// The panels of a packed matmul: its right operand's cache tile
/// B[k, n], copied as P[n / w, k, w] for panels `w` columns wide, and the
/// matmul on them, C[m, n / w, w] += A[m, k] * P[n / w, k, w].
struct PackedMatmul {
  linalg::TransposeOp pack;
  linalg::GenericOp contraction;
};

/// Rewrites the matmul-shaped cache tile `op` (A[m, k] times B[k, n], as
/// rlx-cpu-select-lowering-config checks before it packs) to read its
/// right operand from panels `panelWidth` columns wide. Each panel is
/// contiguous along k, so a register tile's reduction walks memory in order
/// instead of striding by a whole row of B. The result is reshaped back:
/// C's [m, n / w, w] view is C itself. m may be `?` (a partial thread tile
/// of rows); B is static.
static FailureOr<PackedMatmul> packRightOperand(RewriterBase &rewriter,
                                                linalg::LinalgOp op,
                                                int64_t panelWidth) {
  auto rhsType = dyn_cast<RankedTensorType>(op.getDpsInputs()[1].getType());
  auto outType = dyn_cast<RankedTensorType>(op.getDpsInits()[0].getType());
  if (!rhsType || !outType || !rhsType.hasStaticShape() ||
      outType.getRank() != 2 || ShapedType::isDynamic(outType.getDimSize(1)) ||
      rhsType.getRank() != 2 || panelWidth <= 0 ||
      rhsType.getDimSize(1) % panelWidth != 0)
    return failure();
  rewriter.setInsertionPoint(op);
  FailureOr<linalg::GenericOp> generic =
      isa<linalg::GenericOp>(op.getOperation())
          ? cast<linalg::GenericOp>(op.getOperation())
          : linalg::generalizeNamedOp(rewriter, op);
  if (failed(generic))
    return failure();
  MLIRContext *context = op->getContext();
  Location loc = op.getLoc();
  int64_t k = rhsType.getDimSize(0),
          panels = rhsType.getDimSize(1) / panelWidth;
  Type element = rhsType.getElementType();
  SmallVector<ReassociationIndices> splitColumns = {{0}, {1, 2}};

  rewriter.setInsertionPoint(*generic);
  Value rhs = tensor::ExpandShapeOp::create(
      rewriter, loc, RankedTensorType::get({k, panels, panelWidth}, element),
      generic->getDpsInputs()[1], splitColumns);
  Value panelsInit = tensor::EmptyOp::create(
      rewriter, loc, ArrayRef<int64_t>{panels, k, panelWidth}, element);
  auto pack = linalg::TransposeOp::create(rewriter, loc, rhs, panelsInit,
                                          ArrayRef<int64_t>{1, 0, 2});
  Value out = tensor::ExpandShapeOp::create(
      rewriter, loc,
      RankedTensorType::get({outType.getDimSize(0), panels, panelWidth},
                            outType.getElementType()),
      generic->getDpsInits()[0], splitColumns);

  // Loops (m, panel, column in panel, k).
  AffineExpr m, panel, column, reduction;
  bindDims(context, m, panel, column, reduction);
  SmallVector<AffineMap> maps = {
      AffineMap::get(4, 0, {m, reduction}, context),
      AffineMap::get(4, 0, {panel, reduction, column}, context),
      AffineMap::get(4, 0, {m, panel, column}, context)};
  SmallVector<utils::IteratorType> iterators(3, utils::IteratorType::parallel);
  iterators.push_back(utils::IteratorType::reduction);
  auto contraction = linalg::GenericOp::create(
      rewriter, loc, TypeRange{out.getType()},
      ValueRange{generic->getDpsInputs()[0], pack.getResult()[0]},
      ValueRange{out}, maps, iterators);
  rewriter.inlineRegionBefore(generic->getRegion(), contraction.getRegion(),
                              contraction.getRegion().end());
  rewriter.replaceOpWithNewOp<tensor::CollapseShapeOp>(
      *generic, outType, contraction.getResult(0), splitColumns);
  return PackedMatmul{pack, contraction};
}

/// The batch and head dimensions of each init of attention's tile op
/// `op`: the layout's for values of q's, k's or v's layout, the leading two
/// of the row state ([B, H, S]) and of the bias gradient ([B, H, S_q, S_k]).
static SmallVector<std::pair<ArrayRef<int64_t>, SmallVector<unsigned>>>
getStateBatchAndHeadDims(Operation *op) {
  SmallVector<std::pair<ArrayRef<int64_t>, SmallVector<unsigned>>> dims;
  auto layoutAttr = op->getAttrOfType<AttentionLayoutAttr>("layout");
  if (!layoutAttr || !isa<PositionalMaskOpInterface>(op))
    return dims;
  std::optional<int64_t> headAxis =
      AttentionOp::getHeadAxis(layoutAttr.getValue());
  if (!headAxis)
    return dims;
  SmallVector<unsigned> layoutDims = {0, static_cast<unsigned>(*headAxis)};
  auto dps = cast<DestinationStyleOpInterface>(op);
  for (OpOperand &init : dps.getDpsInitsMutable()) {
    auto type = cast<RankedTensorType>(init.get().getType());
    bool biasGradient = isa<AttentionDqOp>(op) &&
                        init.getOperandNumber() == dps.getNumDpsInputs() + 1;
    dims.push_back({type.getShape(), type.getRank() == 3 || biasGradient
                                         ? SmallVector<unsigned>{0, 1}
                                         : layoutDims});
  }
  return dims;
}

/// Drops the unit batch and head dimensions of the ops around attention's
/// loops in a thread tile (the state's initialization, the consumers that
/// normalize or convert it), after the loops carry the state's [S, D] and
/// [S] slices (upstream `hoistLoopInvariantSubsets`): the state is then
/// buffers of those shapes rather than views of 4-D ones, as GPU kernels,
/// which place buffers in shared memory, need. `stateDims` gives, for the
/// shape of each state value, its batch and head dimensions.
static void dropStateUnitDims(
    RewriterBase &rewriter, scf::ForallOp forall,
    ArrayRef<std::pair<ArrayRef<int64_t>, SmallVector<unsigned>>> stateDims) {
  for (linalg::FillOp fill :
       llvm::make_early_inc_range(forall.getBody()->getOps<linalg::FillOp>())) {
    rewriter.setInsertionPoint(fill);
    (void)linalg::generalizeNamedOp(rewriter, fill);
  }
  linalg::ControlDropUnitDims options;
  options.rankReductionStrategy =
      linalg::ControlDropUnitDims::RankReductionStrategy::ExtractInsertSlice;
  options.controlFn = [&](Operation *op) -> SmallVector<unsigned> {
    auto generic = dyn_cast<linalg::GenericOp>(op);
    if (!generic || op->getParentOp() != forall ||
        generic.getNumDpsInits() != 1)
      return {};
    ArrayRef<int64_t> shape =
        cast<RankedTensorType>(generic.getDpsInits()[0].getType()).getShape();
    for (const auto &[stateShape, dims] : stateDims)
      if (stateShape == shape &&
          generic.getMatchingIndexingMap(generic.getDpsInitOperand(0))
              .isIdentity())
        return dims;
    return {};
  };
  RewritePatternSet patterns(forall.getContext());
  linalg::populateFoldUnitExtentDimsPatterns(patterns, options);
  tensor::ExtractSliceOp::getCanonicalizationPatterns(patterns,
                                                      forall.getContext());
  tensor::InsertSliceOp::getCanonicalizationPatterns(patterns,
                                                     forall.getContext());
  tensor::populateFoldTensorEmptyPatterns(patterns);
  (void)applyPatternsGreedily(forall.getRegion(), std::move(patterns));
}

/// The reduction loops of `op` that `threadTiles` tile.
static SetVector<unsigned> getSplitLoops(TilingInterface op,
                                         ArrayRef<int64_t> threadTiles) {
  SetVector<unsigned> loops;
  for (auto [loop, iterator] : llvm::enumerate(op.getLoopIteratorTypes()))
    if (threadTiles[loop] != 0 && iterator == utils::IteratorType::reduction)
      loops.insert(loop);
  return loops;
}

/// Thread tiles of `op` that split its reduction loops `splitLoops` too
/// (split-K): one scf.forall over the tiles of every tiled loop, each tile
/// reducing its part into a partial result of its own (its slice of the
/// partials that `PartialReductionOpInterface` creates), and the partials
/// merged after the loop; returns the loop and the tiled op. Upstream's
/// `scf::tileUsingSCF` splits reductions only in a loop of their own (it
/// rejects tiling parallel loops with them, and IREE folds its two loops
/// into one afterwards); nested loops would not both run in parallel.
static FailureOr<std::pair<scf::ForallOp, Operation *>>
tileWithSplitReductions(RewriterBase &rewriter, TilingInterface op,
                        ArrayRef<int64_t> threadTiles,
                        const SetVector<unsigned> &splitLoops) {
  auto partialOp = dyn_cast<PartialReductionOpInterface>(op.getOperation());
  if (!partialOp)
    return op->emitOpError("cannot split a reduction loop into thread tiles "
                           "(no PartialReductionOpInterface)");
  MLIRContext *context = op->getContext();
  Location loc = op.getLoc();
  rewriter.setInsertionPoint(op);
  SmallVector<Range> domain = op.getIterationDomain(rewriter);
  AffineExpr size, tile, offset;
  bindSymbols(context, size, tile);
  bindDims(context, offset);
  // The partials have the number of tiles of each split loop where the
  // results have none, and the whole of every other loop.
  SmallVector<OpFoldResult> partialSizes, lowerBounds, upperBounds, steps;
  for (auto [loop, range, tileSize] : llvm::enumerate(domain, threadTiles)) {
    if (!isZeroInteger(range.offset) || !isOneInteger(range.stride))
      return op->emitOpError("cannot split reductions of a loop that does not "
                             "start at 0 with step 1");
    OpFoldResult step = rewriter.getIndexAttr(tileSize);
    partialSizes.push_back(
        splitLoops.contains(loop)
            ? affine::makeComposedFoldedAffineApply(
                  rewriter, loc, size.ceilDiv(tile), {range.size, step})
            : range.size);
    if (tileSize == 0)
      continue;
    lowerBounds.push_back(range.offset);
    upperBounds.push_back(range.size);
    steps.push_back(step);
  }
  FailureOr<SmallVector<Value>> partials =
      partialOp.generateInitialTensorForPartialReduction(
          rewriter, loc, partialSizes, splitLoops);
  if (failed(partials))
    return failure();
  auto forall =
      scf::ForallOp::create(rewriter, loc, lowerBounds, upperBounds, steps,
                            *partials, /*mapping=*/std::nullopt);

  // The tile at the loop's indices: whole loops where untiled, else a tile
  // from the index (up to one, unless tiles divide the loop); split loops'
  // tiles numbered.
  rewriter.setInsertionPointToStart(forall.getBody());
  SmallVector<OpFoldResult> offsets, sizes, splitIndices;
  unsigned tiled = 0;
  for (auto [loop, range, tileSize] : llvm::enumerate(domain, threadTiles)) {
    if (tileSize == 0) {
      offsets.push_back(range.offset);
      sizes.push_back(range.size);
      continue;
    }
    Value index = forall.getInductionVar(tiled++);
    OpFoldResult step = rewriter.getIndexAttr(tileSize);
    offsets.push_back(index);
    std::optional<int64_t> extent = getConstantIntValue(range.size);
    sizes.push_back(
        extent && *extent % tileSize == 0
            ? step
            : affine::makeComposedFoldedAffineMin(
                  rewriter, loc,
                  AffineMap::get(1, 2, {tile, size - offset}, context),
                  {index, range.size, step}));
    if (splitLoops.contains(loop))
      splitIndices.push_back(affine::makeComposedFoldedAffineApply(
          rewriter, loc, offset.floorDiv(tile), {index, range.size, step}));
  }
  auto strategy = ReductionTilingStrategy::PartialReductionOuterParallel;
  FailureOr<TilingResult> tiledOp = partialOp.tileToPartialReduction(
      rewriter, loc, strategy, forall.getRegionIterArgs(), offsets, sizes,
      splitLoops, splitIndices);
  if (failed(tiledOp))
    return failure();
  // Each tile starts its state in a tensor of its own, as a fill fused
  // into the tile as a destination does, rather than in a view of the
  // partials: a GPU block's state is then the block's (shared or private),
  // and a CPU thread's contiguous.
  auto split = cast<DestinationStyleOpInterface>(tiledOp->tiledOps.front());
  for (OpOperand &init : split.getDpsInitsMutable()) {
    auto slice = init.get().getDefiningOp<tensor::ExtractSliceOp>();
    auto partial = slice ? dyn_cast<BlockArgument>(slice.getSource()) : nullptr;
    auto fill = partial && partial.getOwner() == forall.getBody()
                    ? forall.getTiedLoopInit(partial)
                          ->get()
                          .getDefiningOp<linalg::FillOp>()
                    : nullptr;
    if (!fill)
      continue;
    rewriter.setInsertionPoint(slice);
    llvm::SmallBitVector dropped = slice.getDroppedDims();
    SmallVector<OpFoldResult> stateSizes;
    for (auto [dim, size] : llvm::enumerate(slice.getMixedSizes()))
      if (!dropped.test(dim))
        stateSizes.push_back(size);
    Value empty = tensor::EmptyOp::create(rewriter, loc, stateSizes,
                                          slice.getType().getElementType());
    Value state = linalg::FillOp::create(rewriter, loc, fill.getInputs(), empty)
                      .getResult(0);
    rewriter.modifyOpInPlace(split, [&] { init.set(state); });
    if (slice->use_empty())
      rewriter.eraseOp(slice);
  }
  SmallVector<SmallVector<OpFoldResult>> resultOffsets, resultSizes;
  for (unsigned result = 0; result < partials->size(); ++result)
    if (failed(partialOp.getPartialResultTilePosition(
            rewriter, result, strategy, offsets, sizes, splitLoops,
            splitIndices, resultOffsets.emplace_back(),
            resultSizes.emplace_back())))
      return failure();
  rewriter.setInsertionPointToStart(forall.getTerminator().getBody());
  for (auto [value, partial, resultOffset, resultSize] :
       llvm::zip_equal(tiledOp->tiledValues, forall.getRegionIterArgs(),
                       resultOffsets, resultSizes))
    tensor::ParallelInsertSliceOp::create(
        rewriter, loc, value, partial, resultOffset, resultSize,
        SmallVector<OpFoldResult>(resultOffset.size(),
                                  rewriter.getIndexAttr(1)));

  rewriter.setInsertionPointAfter(forall);
  FailureOr<MergeResult> merged =
      partialOp.mergeReductions(rewriter, loc, forall.getResults(), splitLoops);
  if (failed(merged))
    return failure();
  rewriter.replaceOp(op, merged->replacements);
  return std::make_pair(forall, tiledOp->tiledOps.front());
}

namespace {
struct RlxTileAndFusePass : rlx::impl::RlxTileAndFuseBase<RlxTileAndFusePass> {
  using Base::Base;

  void runOnOperation() override {
    // Ops that fuse their neighbours into their tiles (reductions fuse an
    // elementwise epilogue, contractions also a prologue, attention its
    // consumers) go first; elementwise ops that none of them took are then
    // tiled on their own.
    SmallVector<Operation *> fusing, elementwise;
    getOperation().walk([&](TilingInterface op) {
      auto linalgOp = dyn_cast<linalg::LinalgOp>(op.getOperation());
      if (!getLoweringConfig(op) ||
          (linalgOp && !linalgOp.hasPureTensorSemantics()))
        return;
      if (linalgOp && linalgOp.getNumLoops() == linalgOp.getNumParallelLoops())
        elementwise.push_back(op);
      else
        fusing.push_back(op);
    });
    worklist.order.clear();
    worklist.pending.clear();
    for (Operation *op : llvm::concat<Operation *>(fusing, elementwise))
      worklist.push(op);
    IRRewriter rewriter(&getContext(), &worklist);
    // Versions of a guarded op append the copies of its fusion group.
    for (size_t i = 0; i < worklist.order.size(); ++i) {
      Operation *op = worklist.order[i];
      if (!worklist.pending.erase(op))
        continue;
      // A producer fused into all of its users' tiles is left unused.
      if (isOpTriviallyDead(op)) {
        rewriter.eraseOp(op);
        continue;
      }
      LogicalResult tiled =
          isa<linalg::LinalgOp>(op)
              ? tileAndFuse(rewriter, cast<linalg::LinalgOp>(op))
              : tileAndDecompose(rewriter, cast<TilingInterface>(op));
      if (failed(tiled))
        return signalPassFailure();
    }
  }

  /// The ops to tile, in order; an op stays pending until it is tiled,
  /// taken as another's epilogue, or erased (fused into another's tiles,
  /// or replaced by its versions). An op created where an erased one was is
  /// not pending unless pushed.
  struct Worklist : RewriterBase::Listener {
    void push(Operation *op) {
      if (pending.insert(op).second)
        order.push_back(op);
    }
    void notifyOperationErased(Operation *op) override { pending.erase(op); }
    SmallVector<Operation *> order;
    llvm::SmallPtrSet<Operation *, 16> pending;
  };
  Worklist worklist;

  /// Versions `group` on `parallel` (`versionGroup`), each copy with its
  /// version's config, and tiles each version with `tile`. The configured
  /// copies of members other than `tiled` (the ops that `tile` takes) go on
  /// the worklist: a producer that the version's tiles did not fuse is tiled
  /// there with the version's config, one that they did is erased.
  LogicalResult
  tileVersions(RewriterBase &rewriter, ArrayRef<Operation *> group,
               Value parallel, ArrayRef<Operation *> tiled,
               function_ref<LogicalResult(const IRMapping &)> tile) {
    auto [parallelVersion, serialVersion] =
        versionGroup(rewriter, group, parallel);
    for (auto [version, isParallel] : {std::make_pair(&parallelVersion, true),
                                       std::make_pair(&serialVersion, false)}) {
      for (Operation *member : group) {
        Operation *copy = version->lookup(member);
        LoweringConfigAttr config = getLoweringConfig(copy);
        if (!config)
          continue;
        copy->setAttr(LoweringConfigAttr::kAttrName,
                      getVersionConfig(config, isParallel));
        if (!llvm::is_contained(tiled, member))
          worklist.push(copy);
      }
      if (failed(tile(*version)))
        return failure();
      // A member without a config that the tiles computed (a padded input)
      // may still be read for its sizes, by the bounds of the loops that
      // tile its consumer: they are computed from its operands instead, so
      // that it is erased rather than also computed whole.
      for (Operation *member : group) {
        Operation *copy = version->lookup(member);
        if (llvm::is_contained(tiled, member) || getLoweringConfig(copy))
          continue;
        readSizesFromOperands(rewriter, copy);
        if (isOpTriviallyDead(copy))
          rewriter.eraseOp(copy);
      }
    }
    return success();
  }

  /// Whether a result of `generic` is the left prologue of a contraction
  /// whose tiles will compute it (`fusesIntoTiles`): a row op's versions
  /// leave it out of their group, as the static op's thread tiles do, so
  /// that the contraction still fuses it (an RMS norm's scaling, in the
  /// tiles of the projection that reads it).
  bool isContractionPrologue(linalg::GenericOp generic) {
    if (!fuseEpilogues)
      return false;
    return llvm::any_of(generic->getResults(), [&](Value result) {
      return llvm::any_of(result.getUsers(), [&](Operation *user) {
        return isa<linalg::LinalgOp>(user) && getLoweringConfig(user) &&
               isLeftPrologue(result, user);
      });
    });
  }

  /// An op that decomposes (attention, rows), tiled and decomposed
  /// (`tileAndDecomposeVersion`); where its config guards its thread tiles
  /// (rows of `?` sizes), first versioned with the producers and the
  /// elementwise consumers that its thread tiles fuse.
  LogicalResult tileAndDecompose(RewriterBase &rewriter, TilingInterface op) {
    LoweringConfigAttr config = getLoweringConfig(op);
    SmallVector<int64_t> threadTiles =
        dropWholeLoopTiles(op, config.getDistribution());
    Value parallel;
    if (getSplitLoops(op, threadTiles).empty())
      parallel = getParallelCondition(rewriter, op, config, threadTiles);
    if (!parallel)
      return tileAndDecomposeVersion(rewriter, op);
    SmallVector<Operation *> group = {op};
    addFusedProducers(rewriter, group,
                      [&](OpResult producer, bool isDestination) {
                        return fusesIntoRowTiles(producer, op, isDestination);
                      });
    SmallVector<Operation *> withConsumers(group);
    for (Operation *user : op->getUsers()) {
      auto generic = dyn_cast<linalg::GenericOp>(user);
      if (generic && generic->getBlock() == op->getBlock() &&
          generic.getNumLoops() == generic.getNumParallelLoops() &&
          !isContractionPrologue(generic) &&
          !llvm::is_contained(withConsumers, user))
        withConsumers.push_back(user);
    }
    sortInBlockOrder(withConsumers);
    if (isUsedAfter(withConsumers))
      group = std::move(withConsumers);
    return tileVersions(
        rewriter, group, parallel, {op}, [&](const IRMapping &version) {
          return tileAndDecomposeVersion(
              rewriter,
              cast<TilingInterface>(version.lookup(op.getOperation())));
        });
  }

  /// An op that decomposes into linalg ops (attention, rows): thread tiles with
  /// its destinations' producers and its elementwise consumers computed per
  /// tile, then cache tiles, each of which is decomposed. The decomposition's
  /// ops are scheduled and tiled like any others, by the next round of
  /// config selection and tiling.
  LogicalResult tileAndDecomposeVersion(RewriterBase &rewriter,
                                        TilingInterface op) {
    LoweringConfigAttr config = getLoweringConfig(op);
    SmallVector<int64_t> threadTiles =
        dropWholeLoopTiles(op, config.getDistribution());
    Operation *tiledOp = op;
    scf::ForallOp threadLoop;
    SmallVector<linalg::GenericOp> prologues;
    SetVector<unsigned> splitLoops = getSplitLoops(op, threadTiles);
    if (!splitLoops.empty()) {
      if (config.getMinParallelIterations() != 0)
        return op->emitError("rlx-tile-and-fuse: min_parallel_iterations "
                             "cannot guard thread tiles that split a "
                             "reduction (their partial results are merged "
                             "whatever the sizes)");
      FailureOr<std::pair<scf::ForallOp, Operation *>> tiled =
          tileWithSplitReductions(rewriter, op, threadTiles, splitLoops);
      if (failed(tiled))
        return op->emitError("rlx-tile-and-fuse: cannot split the reduction "
                             "at the distribution level of its "
                             "lowering_config");
      std::tie(threadLoop, tiledOp) = *tiled;
    } else if (llvm::any_of(threadTiles,
                            [](int64_t size) { return size != 0; })) {
      scf::SCFTilingOptions tiling;
      tiling.setTileSizes(getAsIndexOpFoldResult(&getContext(), threadTiles));
      tiling.setLoopType(scf::SCFTilingOptions::LoopType::ForallOp);
      scf::SCFTileAndFuseOptions options;
      options.setTilingOptions(tiling);
      // The query gradient with a bias gradient that broadcasts over
      // batches or heads: a thread tile then holds every batch or head of
      // its queries and steps through them, each step updating another
      // slice of dq. That state stays in the destination (initialized
      // before the loop) rather than in a tile-local buffer viewed slice by
      // slice, which GPU kernels cannot place.
      auto dq = dyn_cast<AttentionDqOp>(op.getOperation());
      bool stateInDestination = dq && dq.getDbias() &&
                                llvm::count(op.getLoopIteratorTypes(),
                                            utils::IteratorType::reduction) > 1;
      options.setFusionControlFn(
          [&](tensor::ExtractSliceOp, OpResult producer, bool isDestination)
              -> std::optional<scf::SCFTileAndFuseOptions::ControlFnResult> {
            if (!stateInDestination &&
                fusesIntoRowTiles(producer, op, isDestination))
              return scf::SCFTileAndFuseOptions::ControlFnResult{};
            return std::nullopt;
          });
      rewriter.setInsertionPoint(op);
      FailureOr<scf::SCFTileAndFuseResult> tiled =
          scf::tileConsumerAndFuseProducersUsingSCF(rewriter, op, options);
      if (failed(tiled))
        return op->emitError("rlx-tile-and-fuse: cannot tile at the "
                             "distribution level of its lowering_config");
      for (OpResult result : op->getResults())
        rewriter.replaceAllUsesWith(result, tiled->replacements.lookup(result));
      tiledOp = tiled->tiledAndFusedOps.front();
      for (Operation *fusedOp : tiled->tiledAndFusedOps)
        if (auto generic = dyn_cast<linalg::GenericOp>(fusedOp))
          prologues.push_back(generic);
      rewriter.eraseOp(op);
      // Elementwise consumers of the results (attention's normalization)
      // compute their tiles in the same iteration.
      SmallVector<LoopLikeOpInterface> loops = tiled->loops;
      SmallVector<Operation *> consumers;
      for (Operation *user : loops.front()->getUsers())
        if (auto generic = dyn_cast<linalg::GenericOp>(user))
          if (generic.getNumLoops() == generic.getNumParallelLoops() &&
              !llvm::is_contained(consumers, user))
            consumers.push_back(user);
      for (Operation *consumer : consumers) {
        FailureOr<scf::SCFFuseConsumerOfSliceResult> fusedConsumer =
            scf::tileAndFuseConsumer(rewriter, consumer, loops);
        if (failed(fusedConsumer))
          continue;
        if (consumer->use_empty())
          rewriter.eraseOp(consumer);
      }
      // Consumer fusion replaces the loop.
      threadLoop = cast<scf::ForallOp>(loops.front());
    }

    SmallVector<int64_t> cacheTiles =
        dropWholeLoopTiles(tiledOp, config.getCache());
    SmallVector<LoopLikeOpInterface> cacheLoops;
    // The outermost loops of the cache tiles: the tiling's and the partial
    // tile a peel puts after it.
    SmallVector<Operation *> tileLoops;
    if (llvm::any_of(cacheTiles, [](int64_t size) { return size != 0; })) {
      scf::SCFTilingOptions tiling;
      tiling.setTileSizes(getAsIndexOpFoldResult(&getContext(), cacheTiles));
      rewriter.setInsertionPoint(tiledOp);
      FailureOr<scf::SCFTilingResult> tiled =
          scf::tileUsingSCF(rewriter, cast<TilingInterface>(tiledOp), tiling);
      if (failed(tiled))
        return tiledOp->emitError("rlx-tile-and-fuse: cannot tile at the "
                                  "cache level of its lowering_config");
      // The loop of the masked dimension, if it was tiled, and the range
      // of it that the mask shows, computed before the loop.
      scf::ForOp maskedLoop;
      std::pair<OpFoldResult, OpFoldResult> visible;
      auto masked = dyn_cast<PositionalMaskOpInterface>(tiledOp);
      unsigned maskedDim = masked ? masked.getMaskedLoop() : 0;
      if (masked && cacheTiles[maskedDim] != 0) {
        size_t loop =
            llvm::count_if(ArrayRef<int64_t>(cacheTiles).take_front(maskedDim),
                           [](int64_t size) { return size != 0; });
        maskedLoop = cast<scf::ForOp>(tiled->loops[loop]);
        rewriter.setInsertionPoint(maskedLoop);
        visible = masked.getVisibleRange(rewriter);
      }
      rewriter.replaceOp(tiledOp, tiled->replacements);
      tiledOp = tiled->tiledOps.front();
      cacheLoops = tiled->loops;
      tileLoops.push_back(cacheLoops.front());
      if (maskedLoop) {
        for (scf::ForOp loop : peelMaskedLoop(rewriter, maskedLoop, maskedDim,
                                              cacheTiles[maskedDim])) {
          skipHiddenTiles(rewriter, visible, loop);
          if (!cacheLoops.front()->isAncestor(loop))
            tileLoops.push_back(loop);
        }
      }
    }

    if (!isa<linalg::AggregatedOpInterface>(tiledOp))
      return success();
    auto stateDims = getStateBatchAndHeadDims(tiledOp);
    // The tile op and its copies in peeled tiles, each decomposed.
    SmallVector<Operation *> tileOps = {tiledOp};
    for (Operation *loop : tileLoops)
      loop->walk([&](Operation *op) {
        if (op != tiledOp && op->getName() == tiledOp->getName())
          tileOps.push_back(op);
      });
    for (Operation *tileOp : tileOps) {
      rewriter.setInsertionPoint(tileOp);
      FailureOr<SmallVector<Value>> decomposed =
          cast<linalg::AggregatedOpInterface>(tileOp).decomposeOperation(
              rewriter);
      if (failed(decomposed))
        return failure();
      rewriter.replaceOp(tileOp, *decomposed);
    }
    fusePrologues(rewriter, prologues);
    // Innermost first: each loop then carries slices of what the next one
    // out carries.
    SmallVector<LoopLikeOpInterface> stateLoops;
    for (Operation *loop : tileLoops)
      loop->walk<WalkOrder::PostOrder>(
          [&](LoopLikeOpInterface inner) { stateLoops.push_back(inner); });
    for (LoopLikeOpInterface loop : stateLoops)
      hoistLoopInvariantSubsets(rewriter, loop);
    if (threadLoop && !stateDims.empty())
      dropStateUnitDims(rewriter, threadLoop, stateDims);
    return success();
  }

  /// Fuses each prologue fused into a row tile into the one generic of the
  /// decomposition that reads it, so that the conversion (a bf16 gamma to
  /// f32) happens where the value is used, not into a buffer per tile.
  static void fusePrologues(RewriterBase &rewriter,
                            ArrayRef<linalg::GenericOp> prologues) {
    for (linalg::GenericOp prologue : prologues) {
      if (!prologue->hasOneUse())
        continue;
      OpOperand &use = *prologue->use_begin();
      if (!linalg::areElementwiseOpsFusable(&use))
        continue;
      Operation *consumer = use.getOwner();
      rewriter.setInsertionPoint(consumer);
      FailureOr<linalg::ElementwiseOpFusionResult> fusion =
          linalg::fuseElementwiseOps(rewriter, &use);
      if (failed(fusion))
        continue;
      for (auto [original, replacement] : fusion->replacements)
        rewriter.replaceUsesWithIf(original, replacement, [&](OpOperand &u) {
          return u.getOwner() != prologue;
        });
      rewriter.eraseOp(consumer);
      if (prologue->use_empty())
        rewriter.eraseOp(prologue);
    }
  }

  /// Whether the tiles of `contraction` (or of its epilogue) compute their
  /// part of `producer` (read as a destination where `isDestination`); a
  /// padded input only in thread tiles (`threadLoop`), not register tiles.
  bool fusesIntoTiles(OpResult producer, Operation *contraction,
                      bool isDestination, bool threadLoop) {
    Operation *owner = producer.getOwner();
    return isFusableDestination(producer, isDestination) ||
           isa<linalg::FillOp>(owner) ||
           (threadLoop && isPaddedInput(producer, contraction)) ||
           (fuseEpilogues &&
            (owner == contraction || isLeftPrologue(producer, contraction)));
  }

  LogicalResult tileAndFuse(RewriterBase &rewriter, linalg::LinalgOp op) {
    if (auto generic = dyn_cast<linalg::GenericOp>(op.getOperation()))
      op = useDeadInputAsDestination(rewriter, generic);
    LoweringConfigAttr config = getLoweringConfig(op);
    // A reduction split across thread tiles (the maximum of a whole
    // tensor): each tile reduces into a partial result, and upstream's
    // merge (a linalg.reduce of the partials) is scheduled in the next
    // round, as is an elementwise consumer, which cannot compute its tiles
    // before the merge.
    SmallVector<int64_t> threadTiles =
        dropWholeLoopTiles(op, config.getDistribution());
    SetVector<unsigned> splitLoops =
        getSplitLoops(cast<TilingInterface>(op.getOperation()), threadTiles);
    if (!splitLoops.empty()) {
      if (config.getMinParallelIterations() != 0)
        return op->emitError("rlx-tile-and-fuse: min_parallel_iterations "
                             "cannot guard thread tiles that split a "
                             "reduction (their partial results are merged "
                             "whatever the sizes)");
      FailureOr<std::pair<scf::ForallOp, Operation *>> tiled =
          tileWithSplitReductions(rewriter,
                                  cast<TilingInterface>(op.getOperation()),
                                  threadTiles, splitLoops);
      if (failed(tiled))
        return op->emitError("rlx-tile-and-fuse: cannot split the reduction "
                             "at the distribution level of its "
                             "lowering_config");
      return tileCacheAndRegisters(rewriter, tiled->second);
    }
    linalg::LinalgOp root = op;
    // Elementwise ops fuse with each other in rlx-fuse-elementwise, or
    // stay apart when the user asked for that.
    linalg::GenericOp epilogue = fuseEpilogues && op.getNumReductionLoops() > 0
                                     ? getFusibleEpilogue(op)
                                     : nullptr;
    if (epilogue) {
      root = epilogue;
      worklist.pending.erase(epilogue);
      epilogue->setAttr(LoweringConfigAttr::kAttrName,
                        projectConfig(op, config));
    }
    // A guarded op: versioned with the producers that its thread tiles
    // fuse, each version tiled with its own schedule.
    Value parallel = getParallelCondition(
        rewriter, cast<TilingInterface>(op.getOperation()), config,
        dropWholeLoopTiles(root, getLoweringConfig(root).getDistribution()));
    if (!parallel)
      return tileFusionGroup(rewriter, op, root);
    SmallVector<Operation *> group = {root};
    addFusedProducers(rewriter, group,
                      [&](OpResult producer, bool isDestination) {
                        return fusesIntoTiles(producer, op, isDestination,
                                              /*threadLoop=*/true);
                      });
    return tileVersions(
        rewriter, group, parallel, {op, root}, [&](const IRMapping &version) {
          return tileFusionGroup(
              rewriter,
              cast<linalg::LinalgOp>(version.lookup(op.getOperation())),
              cast<linalg::LinalgOp>(version.lookup(root.getOperation())));
        });
  }

  /// Tiles `root` (`op`, or the epilogue of contraction `op`) with `op`
  /// and its other producers fused.
  LogicalResult tileFusionGroup(RewriterBase &rewriter, linalg::LinalgOp op,
                                linalg::LinalgOp root) {
    // Thread tiles, with the producers computed per tile. An op without
    // thread tiles (small, or in a loop that runs in parallel already)
    // still has its epilogue fused: per register tile, in sequential loops.
    SmallVector<int64_t> outerTiles =
        dropWholeLoopTiles(root, getLoweringConfig(root).getDistribution());
    auto loopType = scf::SCFTilingOptions::LoopType::ForallOp;
    auto untiled = [](ArrayRef<int64_t> sizes) {
      return llvm::all_of(sizes, [](int64_t size) { return size == 0; });
    };
    if (untiled(outerTiles) && root != op) {
      outerTiles =
          dropWholeLoopTiles(root, getLoweringConfig(root).getVector());
      loopType = scf::SCFTilingOptions::LoopType::ForOp;
    }
    SmallVector<Operation *> tiledOps = {op};
    if (root != op)
      tiledOps.push_back(root);
    if (!untiled(outerTiles)) {
      scf::SCFTilingOptions tiling;
      tiling.setTileSizes(getAsIndexOpFoldResult(&getContext(), outerTiles));
      tiling.setLoopType(loopType);
      scf::SCFTileAndFuseOptions options;
      options.setTilingOptions(tiling);
      options.setFusionControlFn(
          [&](tensor::ExtractSliceOp, OpResult producer, bool isDestination)
              -> std::optional<scf::SCFTileAndFuseOptions::ControlFnResult> {
            if (fusesIntoTiles(producer, op, isDestination,
                               loopType ==
                                   scf::SCFTilingOptions::LoopType::ForallOp))
              return scf::SCFTileAndFuseOptions::ControlFnResult{};
            return std::nullopt;
          });
      rewriter.setInsertionPoint(root);
      FailureOr<scf::SCFTileAndFuseResult> tiled =
          scf::tileConsumerAndFuseProducersUsingSCF(
              rewriter, cast<TilingInterface>(root.getOperation()), options);
      if (failed(tiled))
        return root->emitError("rlx-tile-and-fuse: cannot tile at the "
                               "distribution (or, without one, register) "
                               "level of its lowering_config");
      for (OpResult result : root->getResults())
        rewriter.replaceAllUsesWith(result, tiled->replacements.lookup(result));
      rewriter.eraseOp(root);
      if (root != op && op->use_empty())
        rewriter.eraseOp(op);
      tiledOps = llvm::to_vector(llvm::make_filter_range(
          tiled->tiledAndFusedOps,
          [](Operation *tiledOp) { return getLoweringConfig(tiledOp); }));
      // A fused pad becomes a fill of the padded tile and a copy of the
      // input into it (upstream `DecomposePadOpPattern`): loops that LLVM
      // vectorizes, where the bufferized pad would evaluate its padding
      // region element by element.
      SmallVector<Operation *> pads;
      tiled->loops.front()->walk(
          [&](tensor::PadOp pad) { pads.push_back(pad); });
      RewritePatternSet padPatterns(&getContext());
      padPatterns.add<linalg::DecomposePadOpPattern>(&getContext());
      (void)applyOpPatternsGreedily(pads, std::move(padPatterns));
      // Register tiles (an epilogue fused without thread tiles) are peeled
      // as `tileWithLoops` peels them; the partial tiles' copies of the ops
      // are tiled below like the others.
      if (loopType == scf::SCFTilingOptions::LoopType::ForOp)
        llvm::append_range(tiledOps, peelPartialTiles(rewriter, tiled->loops));
    }

    // Cache tiles, then register tiles, of each configured op in the tile.
    for (Operation *tiledOp : tiledOps)
      if (failed(tileCacheAndRegisters(rewriter, tiledOp)))
        return failure();
    return success();
  }

  /// The cache tiles and then the register tiles of `op`, an op of a
  /// thread tile (or one without thread tiles), with its config.
  LogicalResult tileCacheAndRegisters(RewriterBase &rewriter, Operation *op) {
    LoweringConfigAttr config = getLoweringConfig(op);
    if (!config.getPacked().empty()) {
      if (failed(tilePacked(rewriter, cast<linalg::LinalgOp>(op), config)))
        return op->emitError(
            "rlx-tile-and-fuse: cannot pack the right operand of this "
            "op (packing needs a matmul-shaped contraction of static shape "
            "whose panels divide its columns)");
      return success();
    }
    FailureOr<Operation *> current =
        tileWithLoops(rewriter, cast<TilingInterface>(op),
                      dropWholeLoopTiles(op, config.getCache()));
    if (succeeded(current))
      current = tileWithLoops(rewriter, cast<TilingInterface>(*current),
                              dropWholeLoopTiles(*current, config.getVector()),
                              /*peel=*/true);
    if (failed(current))
      return op->emitError("rlx-tile-and-fuse: cannot tile at the cache and "
                           "vector levels of its lowering_config");
    return success();
  }

  /// The cache and register tiles of a matmul that packs its right operand
  /// (loops m, n, k): the reduction is cut into cache tiles, each tile of B
  /// is packed once, and the rows are swept in cache tiles that all read
  /// the same panels. The pack is copied a register-tile row at a time.
  LogicalResult tilePacked(RewriterBase &rewriter, linalg::LinalgOp op,
                           LoweringConfigAttr config) {
    ArrayRef<int64_t> cache = config.getCache(), vector = config.getVector();
    // The panels are cut from B's rows as they are laid out.
    std::optional<MatmulLoops> loops = getMatmulLoops(op);
    if (!loops)
      return failure();
    auto [m, n, k] = *loops;
    SmallVector<int64_t> reductionTiles(3, 0);
    reductionTiles[k] = cache[k];
    FailureOr<Operation *> tile =
        tileWithLoops(rewriter, cast<TilingInterface>(op.getOperation()),
                      dropWholeLoopTiles(op, reductionTiles));
    if (failed(tile))
      return failure();
    FailureOr<PackedMatmul> packed =
        packRightOperand(rewriter, cast<linalg::LinalgOp>(*tile), vector[n]);
    if (failed(packed))
      return failure();
    // Loops of the packed contraction: m, panel, column in panel, k.
    FailureOr<Operation *> rows = tileWithLoops(
        rewriter, cast<TilingInterface>(packed->contraction.getOperation()),
        dropWholeLoopTiles(packed->contraction, {cache[m], 0, 0, 0}));
    if (failed(rows))
      return failure();
    SmallVector<int64_t> registerTile = {vector[m], 1, vector[n], vector[k]};
    MLIRContext *context = op->getContext();
    auto zeros = [](size_t size) { return SmallVector<int64_t>(size, 0); };
    (*rows)->setAttr(LoweringConfigAttr::kAttrName,
                     LoweringConfigAttr::get(context, zeros(4), zeros(4),
                                             registerTile, /*packed=*/{}));
    SmallVector<int64_t> packTile = {1, 1, vector[n]};
    packed->pack->setAttr(LoweringConfigAttr::kAttrName,
                          LoweringConfigAttr::get(context, zeros(3), zeros(3),
                                                  packTile, /*packed=*/{}));
    // A partial cache tile of a `?` m is peeled to whole register tiles.
    if (failed(tileWithLoops(rewriter, cast<TilingInterface>(*rows),
                             dropWholeLoopTiles(*rows, registerTile),
                             /*peel=*/true)) ||
        failed(tileWithLoops(rewriter,
                             cast<TilingInterface>(packed->pack.getOperation()),
                             dropWholeLoopTiles(packed->pack, packTile))))
      return failure();
    return success();
  }
};
} // namespace
