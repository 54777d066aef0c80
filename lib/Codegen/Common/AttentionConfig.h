//===- AttentionConfig.h - Schedules of attention's tile ops ----*- C++ -*-===//
//
// The shape of a schedule for rlx.online_attention, rlx.attention_dq and
// rlx.attention_dkdv, shared by the targets' config passes, which choose
// the tile sizes.
//
//===----------------------------------------------------------------------===//
#ifndef RLX_LIB_CODEGEN_COMMON_ATTENTIONCONFIG_H
#define RLX_LIB_CODEGEN_COMMON_ATTENTIONCONFIG_H

#include "mlir/Interfaces/ViewLikeInterface.h"
#include "rlx/Dialect/Rlx/IR/RlxDialect.h"

namespace mlir::rlx {

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

} // namespace mlir::rlx

#endif // RLX_LIB_CODEGEN_COMMON_ATTENTIONCONFIG_H
