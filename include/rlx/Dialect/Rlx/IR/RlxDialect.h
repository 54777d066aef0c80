//===- RlxDialect.h - The rlx dialect ---------------------------*- C++ -*-===//
#ifndef RLX_DIALECT_RLX_IR_RLXDIALECT_H
#define RLX_DIALECT_RLX_IR_RLXDIALECT_H

#include "mlir/IR/Attributes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/DialectImplementation.h"

#include "rlx/Dialect/Rlx/IR/RlxOpsDialect.h.inc"

#define GET_ATTRDEF_CLASSES
#include "rlx/Dialect/Rlx/IR/RlxAttrs.h.inc"

#endif // RLX_DIALECT_RLX_IR_RLXDIALECT_H
