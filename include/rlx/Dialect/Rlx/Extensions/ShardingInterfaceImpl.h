//===- ShardingInterfaceImpl.h - rlx ops under upstream sharding -*- C++
//-*-===//
#ifndef RLX_DIALECT_RLX_EXTENSIONS_SHARDINGINTERFACEIMPL_H
#define RLX_DIALECT_RLX_EXTENSIONS_SHARDINGINTERFACEIMPL_H

namespace mlir {
class DialectRegistry;

namespace rlx {
/// Attaches upstream's `shard::ShardingInterface` to every rlx op, so that
/// `sharding-propagation` and `shard-partition` run on rlx graphs
/// (docs/distributed.md).
void registerShardingInterfaceExternalModels(DialectRegistry &registry);
} // namespace rlx
} // namespace mlir

#endif // RLX_DIALECT_RLX_EXTENSIONS_SHARDINGINTERFACEIMPL_H
