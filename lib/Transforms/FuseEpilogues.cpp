//===- FuseEpilogues.cpp - Contraction epilogues fused per tile -----------===//
#include "rlx/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::rlx {
#define GEN_PASS_DEF_RLXFUSEEPILOGUES
#include "rlx/Transforms/Passes.h.inc"
} // namespace mlir::rlx

using namespace mlir;

/// The contraction results `epilogue` reads element for element and nothing
/// else reads (a contraction being any linalg op with reduction loops, none
/// of them empty).
static SmallVector<Operation *> getFusibleContractions(linalg::GenericOp
                                                           epilogue) {
  SmallVector<Operation *> contractions;
  for (OpOperand *operand : epilogue.getDpsInputOperands()) {
    Value input = operand->get();
    auto producer = input.getDefiningOp<linalg::LinalgOp>();
    // A broadcast read (a row statistic used across the row) would make
    // every tile recompute the whole contraction.
    if (producer && producer.getNumReductionLoops() > 0 &&
        epilogue.getMatchingIndexingMap(operand).isPermutation() &&
        producer->getNumResults() == 1 && input.hasOneUse() &&
        llvm::all_of(producer.getStaticLoopRanges(),
                     [](int64_t bound) { return bound > 0; }))
      contractions.push_back(producer);
  }
  return contractions;
}

/// Whether `value` is computed elementwise for the left operand of one of
/// `contractions` only: a tile of whole result rows reads the same rows of
/// it, so computing them per tile costs nothing extra (a right operand is
/// read whole by every tile and stays materialized).
static bool isLeftPrologue(Value value, ArrayRef<Operation *> contractions) {
  auto generic = value.getDefiningOp<linalg::GenericOp>();
  // Besides the contraction, only the slices tiling creates read it.
  return generic && generic.getNumLoops() == generic.getNumParallelLoops() &&
         llvm::all_of(value.getUsers(),
                      [&](Operation *user) {
                        return isa<tensor::ExtractSliceOp>(user) ||
                               llvm::is_contained(contractions, user);
                      }) &&
         llvm::any_of(contractions, [&](Operation *contraction) {
           auto linalgOp = cast<linalg::LinalgOp>(contraction);
           return linalgOp.getNumDpsInputs() > 0 &&
                  linalgOp.getDpsInputOperand(0)->get() == value;
         });
}

/// A tile size for a loop of `extent` iterations: the whole loop when it is
/// at most `requested` or `requested` is 0, else the largest divisor of `extent` not above
/// `requested`, unless that is under a quarter of it (then the whole loop).
static int64_t getDividingTileSize(int64_t extent, int64_t requested) {
  if (requested == 0 || extent <= requested)
    return extent;
  for (int64_t size = requested; size * 4 >= requested; --size)
    if (extent % size == 0)
      return size;
  return extent;
}

namespace {
struct RlxFuseEpiloguesPass
    : rlx::impl::RlxFuseEpiloguesBase<RlxFuseEpiloguesPass> {
  using Base::Base;

  void runOnOperation() override {
    SmallVector<int64_t> innerSizes(tileSizes.begin(), tileSizes.end());
    // Row blocks over whole rows by default: the contraction keeps its
    // long contiguous inner loop, and a block of rows stays in cache.
    if (innerSizes.empty())
      innerSizes = {16, 0};
    if (innerSizes.size() != 2 ||
        llvm::any_of(innerSizes, [](int64_t s) { return s < 0; })) {
      getOperation().emitError()
          << "rlx-fuse-epilogues: 'tile-sizes' takes two sizes >= 0";
      return signalPassFailure();
    }

    SmallVector<linalg::GenericOp> epilogues;
    getOperation().walk([&](linalg::GenericOp generic) {
      if (generic.getNumLoops() > 0 &&
          generic.getNumLoops() == generic.getNumParallelLoops() &&
          !getFusibleContractions(generic).empty())
        epilogues.push_back(generic);
    });

    IRRewriter rewriter(&getContext());
    for (linalg::GenericOp epilogue : epilogues) {
      SmallVector<Operation *> contractions = getFusibleContractions(epilogue);
      // Outer loops one at a time, the two innermost in tiles that divide
      // them, so every tile is full and static.
      SmallVector<int64_t> bounds = epilogue.getStaticLoopRanges();
      // Nothing to tile in an empty iteration space.
      if (llvm::any_of(bounds, [](int64_t bound) { return bound <= 0; }))
        continue;
      int64_t loops = bounds.size();
      SmallVector<int64_t> sizes(loops, 1);
      for (int64_t i = 0; i < std::min<int64_t>(loops, 2); ++i)
        sizes[loops - 1 - i] =
            getDividingTileSize(bounds[loops - 1 - i], innerSizes[1 - i]);
      // With whole rows per tile, each block of rows reads its own rows of
      // the left operand only once.
      bool wholeRows = sizes.back() == bounds.back();
      scf::SCFTilingOptions tiling;
      tiling.setTileSizes(getAsIndexOpFoldResult(&getContext(), sizes));
      scf::SCFTileAndFuseOptions options;
      options.setTilingOptions(tiling);
      options.setFusionControlFn(
          [&](tensor::ExtractSliceOp, OpResult producer, bool isDestination)
              -> std::optional<scf::SCFTileAndFuseOptions::ControlFnResult> {
            Operation *owner = producer.getOwner();
            if (isDestination || isa<linalg::FillOp>(owner) ||
                llvm::is_contained(contractions, owner) ||
                (wholeRows && isLeftPrologue(producer, contractions)))
              return scf::SCFTileAndFuseOptions::ControlFnResult{};
            return std::nullopt;
          });
      rewriter.setInsertionPoint(epilogue);
      FailureOr<scf::SCFTileAndFuseResult> tiled =
          scf::tileConsumerAndFuseProducersUsingSCF(
              rewriter, cast<TilingInterface>(epilogue.getOperation()),
              options);
      if (failed(tiled))
        continue;
      for (OpResult result : epilogue->getResults())
        rewriter.replaceAllUsesWith(result, tiled->replacements.lookup(result));
      rewriter.eraseOp(epilogue);
      for (Operation *contraction : contractions)
        if (contraction->use_empty())
          rewriter.eraseOp(contraction);
    }
  }
};
} // namespace
