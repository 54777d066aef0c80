//===- TileOpConfigs.cpp - Schedules of the ops that decompose ------------===//
#include "Common/TileOpConfigs.h"

#include "rlx/Dialect/Rlx/IR/RlxOps.h"

using namespace mlir;
using namespace mlir::rlx;

static bool isIncreasing(AffineExpr expr) {
  if (isa<AffineDimExpr, AffineConstantExpr>(expr))
    return true;
  auto binary = dyn_cast<AffineBinaryOpExpr>(expr);
  if (!binary)
    return false;
  if (binary.getKind() == AffineExprKind::Add)
    return isIncreasing(binary.getLHS()) && isIncreasing(binary.getRHS());
  if (binary.getKind() != AffineExprKind::Mul)
    return false;
  auto factor = dyn_cast<AffineConstantExpr>(binary.getRHS());
  return factor && factor.getValue() >= 0 && isIncreasing(binary.getLHS());
}

bool mlir::rlx::hasIncreasingIndexingMaps(linalg::LinalgOp op) {
  return llvm::all_of(op.getIndexingMapsArray(), [](AffineMap map) {
    return llvm::all_of(map.getResults(), isIncreasing);
  });
}

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

LoweringConfigAttr mlir::rlx::splitAttentionKeys(Operation *op,
                                                 LoweringConfigAttr config,
                                                 int64_t minThreadTiles,
                                                 int64_t minKeys) {
  auto attention = dyn_cast<OnlineAttentionOp>(op);
  if (!attention || !config)
    return config;
  AttentionLayout layout = attention.getLayout();
  ArrayRef<int64_t> q = attention.getQ().getType().getShape();
  int64_t heads = q[*AttentionOp::getHeadAxis(layout)],
          queries = q[AttentionOp::getSequenceAxis(layout)],
          keys = attention.getK().getType().getDimSize(
              AttentionOp::getSequenceAxis(layout));
  SmallVector<int64_t> distribution(config.getDistribution());
  int64_t keyTile = config.getCache()[3];
  if (ShapedType::isDynamic(q[0]) || ShapedType::isDynamic(heads) ||
      ShapedType::isDynamic(queries) || ShapedType::isDynamic(keys) ||
      keyTile == 0 || distribution[2] == 0)
    return config;
  int64_t threadTiles =
      q[0] * heads * llvm::divideCeil(queries, distribution[2]);
  if (threadTiles >= minThreadTiles)
    return config;
  int64_t split = std::max<int64_t>(
      llvm::divideCeil(keys, llvm::divideCeil(minThreadTiles, threadTiles)),
      minKeys);
  split = llvm::divideCeil(split, keyTile) * keyTile;
  if (split >= keys)
    return config;
  // Parts that divide the keys have static sizes, as do their cache tiles.
  for (int64_t dividing = split; 2 * dividing >= split; dividing -= keyTile)
    if (keys % dividing == 0) {
      split = dividing;
      break;
    }
  distribution[3] = split;
  return LoweringConfigAttr::get(op->getContext(), distribution,
                                 config.getCache(), config.getVector(),
                                 config.getPacked());
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
  if (!isa<AssociativeScanOp, ScatterOp>(op))
    return {};
  // Both ops iterate over the shape of their first operand.
  return SmallVector<int64_t>(
      cast<RankedTensorType>(op->getOperand(0).getType()).getShape());
}

LoweringConfigAttr mlir::rlx::getSequentialLineConfig(Operation *op) {
  if (!isa<AssociativeScanOp, ScatterOp>(op))
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
