//===- RlxDialect.h - The rlx dialect ---------------------------*- C++ -*-===//
#ifndef RLX_DIALECT_RLX_IR_RLXDIALECT_H
#define RLX_DIALECT_RLX_IR_RLXDIALECT_H

#include "mlir/IR/Dialect.h"

#include "rlx/Dialect/Rlx/IR/RlxOpsDialect.h.inc"

#endif // RLX_DIALECT_RLX_IR_RLXDIALECT_H
