//===- RlxDialect.cpp - The rlx dialect -----------------------------------===//
#include "rlx/Dialect/Rlx/IR/RlxDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/Builders.h"
#include "rlx/Dialect/Rlx/IR/RlxOps.h"

using namespace mlir;
using namespace mlir::rlx;

#include "rlx/Dialect/Rlx/IR/RlxOpsDialect.cpp.inc"
#include "rlx/Dialect/Rlx/IR/RlxEnums.cpp.inc"
#include "rlx/Dialect/Rlx/IR/RlxInterfaces.cpp.inc"

void RlxDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "rlx/Dialect/Rlx/IR/RlxOps.cpp.inc"
      >();
}

Operation *RlxDialect::materializeConstant(OpBuilder &builder, Attribute value,
                                           Type type, Location loc) {
  auto elements = dyn_cast<ElementsAttr>(value);
  if (!elements || elements.getType() != type)
    return nullptr;
  return ConstantOp::create(builder, loc, type, elements);
}
