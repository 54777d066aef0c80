//===- TileAndFuse.cpp - Thread, cache and register tiles -----------------===//
#include "rlx/Codegen/Passes.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/PatternMatch.h"
#include "rlx/Dialect/Rlx/IR/RlxDialect.h"

namespace mlir::rlx {
#define GEN_PASS_DEF_RLXCPUTILEANDFUSE
#include "rlx/Codegen/Passes.h.inc"
} // namespace mlir::rlx

using namespace mlir;
using namespace mlir::rlx;

static LoweringConfigAttr getLoweringConfig(Operation *op) {
  return op->getAttrOfType<LoweringConfigAttr>(LoweringConfigAttr::kAttrName);
}

/// The all-parallel generic that reads `op`'s single result element for
/// element (an identity indexing map over its own loops) and is its only
/// user: the epilogue that computes each result tile right after it.
static linalg::GenericOp getFusibleEpilogue(linalg::LinalgOp op) {
  if (op->getNumResults() != 1 || !op->getResult(0).hasOneUse())
    return nullptr;
  OpOperand &use = *op->getResult(0).getUses().begin();
  auto epilogue = dyn_cast<linalg::GenericOp>(use.getOwner());
  if (!epilogue || !epilogue.hasPureTensorSemantics() ||
      epilogue.getNumLoops() != epilogue.getNumParallelLoops() ||
      !epilogue.isDpsInput(&use) ||
      !epilogue.getMatchingIndexingMap(&use).isIdentity())
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
  return LoweringConfigAttr::get(op->getContext(),
                                 project(config.getDistribution()),
                                 SmallVector<int64_t>(resultMap.getNumResults()),
                                 project(config.getVector()));
}

/// Whether `value` is computed elementwise for the left operand of
/// `contraction` (an op with reduction loops) only: a tile of result rows reads its own rows of it, so
/// computing them per tile costs nothing extra (a right operand is read
/// whole by every tile and stays materialized).
static bool isLeftPrologue(Value value, Operation *contraction) {
  auto generic = value.getDefiningOp<linalg::GenericOp>();
  auto linalgOp = cast<linalg::LinalgOp>(contraction);
  return generic && generic.getNumLoops() == generic.getNumParallelLoops() &&
         linalgOp.getNumReductionLoops() > 0 &&
         linalgOp.getNumDpsInputs() > 0 &&
         linalgOp.getDpsInputOperand(0)->get() == value &&
         llvm::all_of(value.getUsers(), [&](Operation *user) {
           return user == contraction || isa<tensor::ExtractSliceOp>(user);
         });
}

/// Tiles `op` with `sizes` into scf.for loops, replacing it; returns the
/// tiled op (`op` itself when there is nothing to tile).
static FailureOr<Operation *> tileWithLoops(RewriterBase &rewriter,
                                            TilingInterface op,
                                            ArrayRef<int64_t> sizes) {
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
  return tiled->tiledOps.front();
}

/// Loop sizes that cover their whole (static) loop are left untiled.
static SmallVector<int64_t> dropWholeLoopTiles(Operation *op,
                                               ArrayRef<int64_t> sizes) {
  SmallVector<int64_t> clamped(sizes);
  if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op))
    for (auto [size, extent] :
         llvm::zip_equal(clamped, linalgOp.getStaticLoopRanges()))
      if (ShapedType::isStatic(extent) && size >= extent)
        size = 0;
  return clamped;
}

namespace {
struct RlxCpuTileAndFusePass
    : rlx::impl::RlxCpuTileAndFuseBase<RlxCpuTileAndFusePass> {
  using Base::Base;

  void runOnOperation() override {
    SmallVector<linalg::LinalgOp> configured;
    getOperation().walk([&](linalg::LinalgOp op) {
      if (getLoweringConfig(op) && op.hasPureTensorSemantics())
        configured.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    // An op with a config of its own can be fused as another's epilogue;
    // it is then gone.
    llvm::SmallPtrSet<Operation *, 8> fusedRoots;
    for (linalg::LinalgOp op : configured)
      if (!fusedRoots.contains(op) &&
          failed(tileAndFuse(rewriter, op, fusedRoots)))
        return signalPassFailure();
  }

  LogicalResult tileAndFuse(RewriterBase &rewriter, linalg::LinalgOp op,
                            llvm::SmallPtrSetImpl<Operation *> &fusedRoots) {
    LoweringConfigAttr config = getLoweringConfig(op);
    linalg::LinalgOp root = op;
    linalg::GenericOp epilogue =
        fuseEpilogues ? getFusibleEpilogue(op) : nullptr;
    if (epilogue) {
      root = epilogue;
      fusedRoots.insert(epilogue);
      epilogue->setAttr(LoweringConfigAttr::kAttrName,
                        projectConfig(op, config));
    }

    // Thread tiles, with the producers computed per tile. An op without
    // thread tiles (small, or in a loop that runs in parallel already)
    // still has its epilogue fused: per register tile, in sequential loops.
    SmallVector<int64_t> outerTiles = dropWholeLoopTiles(
        root, getLoweringConfig(root).getDistribution());
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
      Operation *contraction = op;
      options.setFusionControlFn(
          [&](tensor::ExtractSliceOp, OpResult producer, bool isDestination)
              -> std::optional<scf::SCFTileAndFuseOptions::ControlFnResult> {
            Operation *owner = producer.getOwner();
            if (isDestination || isa<linalg::FillOp>(owner) ||
                (fuseEpilogues && (owner == contraction ||
                                   isLeftPrologue(producer, contraction))))
              return scf::SCFTileAndFuseOptions::ControlFnResult{};
            return std::nullopt;
          });
      rewriter.setInsertionPoint(root);
      FailureOr<scf::SCFTileAndFuseResult> tiled =
          scf::tileConsumerAndFuseProducersUsingSCF(
              rewriter, cast<TilingInterface>(root.getOperation()), options);
      if (failed(tiled))
        return root->emitError("rlx-cpu-tile-and-fuse: cannot tile at the "
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
    }

    // Cache tiles, then register tiles, of each configured op in the tile.
    for (Operation *tiledOp : tiledOps) {
      LoweringConfigAttr tiledConfig = getLoweringConfig(tiledOp);
      FailureOr<Operation *> current = tileWithLoops(
          rewriter, cast<TilingInterface>(tiledOp),
          dropWholeLoopTiles(tiledOp, tiledConfig.getCache()));
      if (succeeded(current))
        current = tileWithLoops(
            rewriter, cast<TilingInterface>(*current),
            dropWholeLoopTiles(*current, tiledConfig.getVector()));
      if (failed(current))
        return tiledOp->emitError("rlx-cpu-tile-and-fuse: cannot tile at the "
                                  "cache and vector levels of its "
                                  "lowering_config");
    }
    return success();
  }
};
} // namespace
