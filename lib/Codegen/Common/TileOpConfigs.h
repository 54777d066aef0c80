//===- TileOpConfigs.h - Schedules of the ops that decompose ----*- C++ -*-===//
//
// The shape of a schedule for the ops that rlx-tile-and-fuse tiles and then
// decomposes into linalg ops (attention's rlx.online_attention,
// rlx.attention_dq and rlx.attention_dkdv; rlx.rows; rlx.associative_scan and
// rlx.scatter), shared by the targets' config passes, which choose the tile
// sizes.
//
//===----------------------------------------------------------------------===//
#ifndef RLX_LIB_CODEGEN_COMMON_TILEOPCONFIGS_H
#define RLX_LIB_CODEGEN_COMMON_TILEOPCONFIGS_H

#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "rlx/Dialect/Rlx/IR/RlxDialect.h"

namespace mlir::rlx {

/// Whether every index of `op`'s indexing maps only grows with each loop
/// (loops and constants, added or scaled by constants that are not
/// negative): upstream tiling then reads a tile's operands from a slice
/// whose size it can compute. An index that falls as a loop rises (`o - k`,
/// a transposed convolution's gather, a reversed read) or wraps
/// (`floordiv`, `mod`) would be read from a slice the tiled op indexes out
/// of bounds: such an op is not tiled, alone or fused into another's tiles.
bool hasIncreasingIndexingMaps(linalg::LinalgOp op);

/// Chooses the size of a tile of a loop of `range` near `preferred`.
using TileSizeFn = function_ref<int64_t(const Range &range, int64_t preferred)>;

/// The config of attention's tile op `op` (an rlx.online_attention,
/// rlx.attention_dq or rlx.attention_dkdv): thread tiles of one batch, one
/// head (one kv head for dk and dv) and a tile of the parallel sequence
/// (`queryTile` queries, or `keyTile` keys for dk and dv); cache tiles of
/// the reduced sequence, and one step per member of the loops that reduce
/// otherwise (the group's query heads for dk and dv, the batches and heads
/// a bias gradient broadcasts over). Null for other ops.
LoweringConfigAttr getAttentionConfig(Operation *op, int64_t queryTile,
                                      int64_t keyTile, TileSizeFn tile);

/// `config` of rlx.online_attention `op` with its keys split into thread
/// tiles too (split-K) where its batches, heads and query tiles make fewer
/// than `minThreadTiles` (a decode step: a query per head, a few heads, a
/// long KV cache): parts of whole cache tiles of keys, enough to make up
/// that many thread tiles but at least `minKeys` keys each (fewer would
/// cost more to merge than to run), or down to half that where such a
/// part divides the keys (all parts then have one static size). Sizes come from
/// shapes alone, so the partials, and the order in which they merge, are the
/// same at any thread count. `config` unchanged for other ops.
LoweringConfigAttr splitAttentionKeys(Operation *op, LoweringConfigAttr config,
                                      int64_t minThreadTiles, int64_t minKeys);

/// The config of rlx.rows `op`: one row per tile, as thread tiles when
/// `distribute`, else as cache tiles (steps of a loop on the calling
/// thread). Each tile decomposes into its stages, so a row's stages run
/// one after another while the row is in cache. Null for other ops.
LoweringConfigAttr getRowsConfig(Operation *op, bool distribute);

/// The static extents of the loops of rlx.associative_scan or rlx.scatter `op`
/// (the shape of its input or source), read off the types without building IR;
/// empty for other ops.
SmallVector<int64_t> getSequentialLoopRanges(Operation *op);

/// The config of rlx.associative_scan or rlx.scatter `op` as one line per
/// thread tile: every parallel loop in tiles of 1, the sequential loops whole,
/// so that each tile decomposes into a loop of scalar steps. Null for other
/// ops.
LoweringConfigAttr getSequentialLineConfig(Operation *op);

} // namespace mlir::rlx

#endif // RLX_LIB_CODEGEN_COMMON_TILEOPCONFIGS_H
