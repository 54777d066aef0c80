//===- RlxIndexingOps.td - Indexing and data movement ops -*- tablegen -*-===//
//
// Included by RlxOps.td; enums defined here are generated with the others.
//
//===----------------------------------------------------------------------===//
#ifndef RLX_DIALECT_RLX_IR_RLXINDEXINGOPS_TD
#define RLX_DIALECT_RLX_IR_RLXINDEXINGOPS_TD

include "mlir/IR/EnumAttr.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "rlx/Dialect/Rlx/IR/RlxDialect.td"

#endif // RLX_DIALECT_RLX_IR_RLXINDEXINGOPS_TD
