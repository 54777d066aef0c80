//===- SelectLoweringConfig.cpp - GPU schedules for ops on tensors --------===//
//
// On the GPU, tiles on tensors are blocks: attention gets a block per
// (batch, head, tile of queries) running the online softmax over tiles of
// keys (and, where those are few, per part of the keys: split-K), rlx.rows a
// block per row, and scans and index-adds a thread per line (a loop of lines
// without shared work), the shapes the GPU kernels (rlx-gpu-tile-contractions,
// rlx-map-to-gpu) then map to threads after bufferization. Other ops are mapped
// there too, from their loops; they get no config here yet.
//
//===----------------------------------------------------------------------===//
#include "Common/TileOpConfigs.h"
#include "rlx/Codegen/Passes.h"

#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "rlx/Dialect/Rlx/IR/RlxDialect.h"
#include "rlx/Dialect/Rlx/IR/RlxOps.h"

namespace mlir::rlx {
#define GEN_PASS_DEF_RLXGPUSELECTLOWERINGCONFIG
#include "rlx/Codegen/Passes.h.inc"
} // namespace mlir::rlx

using namespace mlir;
using namespace mlir::rlx;

/// Attention with fewer blocks than this splits its keys (split-K), so
/// that a decode step fills a GPU's multiprocessors, in parts of at least
/// kMinSplitKeys keys.
constexpr int64_t kMinBlocks = 128;
constexpr int64_t kMinSplitKeys = 256;

namespace {
struct RlxGpuSelectLoweringConfigPass
    : rlx::impl::RlxGpuSelectLoweringConfigBase<
          RlxGpuSelectLoweringConfigPass> {
  using Base::Base;

  /// A kernel needs a parallel loop for its blocks: when no thread tile
  /// splits a loop (one batch and head, or batches and heads that reduce
  /// into a broadcast bias gradient, and a sequence that fits in one tile),
  /// the parallel sequence (loop 2 of each attention op) is split into two
  /// tiles or more where it can be.
  static LoweringConfigAttr splitSingleBlock(TilingInterface op,
                                             LoweringConfigAttr config) {
    OpBuilder b(op);
    SmallVector<Range> domain = op.getIterationDomain(b);
    ArrayRef<int64_t> distribution = config.getDistribution();
    for (auto [size, range] : llvm::zip_equal(distribution, domain)) {
      std::optional<int64_t> extent = getConstantIntValue(range.size);
      if (size != 0 && (!extent || size < *extent))
        return config;
    }
    std::optional<int64_t> sequence = getConstantIntValue(domain[2].size);
    if (!sequence)
      return config;
    int64_t tile = *sequence / 2;
    while (tile > 1 && *sequence % tile != 0)
      --tile;
    if (tile < 1)
      return config;
    SmallVector<int64_t> split(distribution);
    split[2] = tile;
    return LoweringConfigAttr::get(op->getContext(), split, config.getCache(),
                                   config.getVector(), config.getPacked());
  }

  void runOnOperation() override {
    if (attentionQueryTile <= 0 || attentionKeyTile <= 0) {
      getOperation().emitError()
          << "rlx-gpu-select-lowering-config: attention tile sizes must be "
             "positive, got "
          << attentionQueryTile.getValue() << " queries and "
          << attentionKeyTile.getValue() << " keys";
      return signalPassFailure();
    }
    // A tile of at most the given size, and the whole loop when it is
    // shorter: a block's shared buffers have static sizes.
    auto tile = [](const Range &range, int64_t size) {
      std::optional<int64_t> extent = getConstantIntValue(range.size);
      return extent ? std::min(*extent, size) : size;
    };
    getOperation().walk([&](Operation *op) {
      if (op->hasAttr(LoweringConfigAttr::kAttrName))
        return;
      // A block per row, which its threads share.
      if (LoweringConfigAttr config = getRowsConfig(op, /*distribute=*/true)) {
        op->setAttr(LoweringConfigAttr::kAttrName, config);
        return;
      }
      // A thread per line of a scan or an index-add: the loop of lines
      // becomes one kernel (rlx-map-to-gpu), each thread stepping along its
      // line.
      if (LoweringConfigAttr config = getSequentialLineConfig(op)) {
        op->setAttr(LoweringConfigAttr::kAttrName, config);
        return;
      }
      LoweringConfigAttr config = splitAttentionKeys(
          op,
          getAttentionConfig(op, attentionQueryTile, attentionKeyTile, tile),
          kMinBlocks, kMinSplitKeys);
      if (!config)
        return;
      op->setAttr(LoweringConfigAttr::kAttrName,
                  splitSingleBlock(cast<TilingInterface>(op), config));
    });
  }
};
} // namespace
