//===- TileOpConfigs.cpp - Schedules of the ops that decompose ------------===//
#include "Common/TileOpConfigs.h"

#include "rlx/Dialect/Rlx/IR/RlxOps.h"

using namespace mlir;
using namespace mlir::rlx;

LoweringConfigAttr mlir::rlx::getAttentionConfig(Operation *op,
                                                 int64_t queryTile,
                                                 int64_t keyTile,
                                                 TileSizeFn tile) {
  if (!isa<OnlineAttentionOp, AttentionDqOp, AttentionDkDvOp>(op))
    return nullptr;
  auto tileable = cast<TilingInterface>(op);
  OpBuilder b(op);
  SmallVector<Range> domain = tileable.getIterationDomain(b);
  SmallVector<int64_t> distribution, cache;
  if (isa<AttentionDkDvOp>(op)) {
    // (batch, kv head, key, group member, query).
    distribution = {1, 1, tile(domain[2], keyTile), 0, 0};
    cache = {0, 0, 0, 1, tile(domain[4], queryTile)};
  } else {
    // (batch, head, query, key): batches and heads that reduce (into a
    // broadcast bias gradient) are steps inside the thread tile.
    SmallVector<utils::IteratorType> iterators =
        tileable.getLoopIteratorTypes();
    auto parallel = [&](unsigned loop) {
      return iterators[loop] == utils::IteratorType::parallel;
    };
    distribution = {parallel(0) ? 1 : 0, parallel(1) ? 1 : 0,
                    tile(domain[2], queryTile), 0};
    cache = {parallel(0) ? 0 : 1, parallel(1) ? 0 : 1, 0,
             tile(domain[3], keyTile)};
  }
  return LoweringConfigAttr::get(op->getContext(), distribution, cache,
                                 SmallVector<int64_t>(distribution.size(), 0),
                                 /*packed=*/{});
}

LoweringConfigAttr mlir::rlx::getRowsConfig(Operation *op, bool distribute) {
  auto rows = dyn_cast<RowsOp>(op);
  if (!rows)
    return nullptr;
  SmallVector<int64_t> shape = rows.getIterationShape();
  SmallVector<int64_t> oneRow(shape.size(), 1);
  for (int64_t axis : rows.getReducedAxes())
    oneRow[axis] = 0;
  SmallVector<int64_t> none(shape.size(), 0);
  return LoweringConfigAttr::get(op->getContext(), distribute ? oneRow : none,
                                 distribute ? none : oneRow, none,
                                 /*packed=*/{});
}

SmallVector<int64_t> mlir::rlx::getSequentialLoopRanges(Operation *op) {
  if (!isa<ScanOp, IndexAddOp>(op))
    return {};
  // Both ops iterate over the shape of their first operand.
  return SmallVector<int64_t>(
      cast<RankedTensorType>(op->getOperand(0).getType()).getShape());
}

LoweringConfigAttr mlir::rlx::getSequentialLineConfig(Operation *op) {
  if (!isa<ScanOp, IndexAddOp>(op))
    return nullptr;
  SmallVector<int64_t> lines = llvm::map_to_vector(
      cast<TilingInterface>(op).getLoopIteratorTypes(),
      [](utils::IteratorType iterator) -> int64_t {
        return iterator == utils::IteratorType::parallel ? 1 : 0;
      });
  SmallVector<int64_t> none(lines.size(), 0);
  // An empty loop: nothing to tile, the decomposition leaves the
  // destination as it is.
  if (llvm::is_contained(getSequentialLoopRanges(op), 0))
    return LoweringConfigAttr::get(op->getContext(), none, none, none,
                                   /*packed=*/{});
  return LoweringConfigAttr::get(op->getContext(), lines, none, none,
                                 /*packed=*/{});
}
