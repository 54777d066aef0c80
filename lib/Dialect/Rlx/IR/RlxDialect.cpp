//===- RlxDialect.cpp - The rlx dialect -----------------------------------===//
#include "rlx/Dialect/Rlx/IR/RlxDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/Builders.h"
#include "mlir/Transforms/InliningUtils.h"
#include "rlx/Dialect/Rlx/IR/RlxOps.h"

using namespace mlir;
using namespace mlir::rlx;

#include "rlx/Dialect/Rlx/IR/RlxOpsDialect.cpp.inc"
#include "rlx/Dialect/Rlx/IR/RlxEnums.cpp.inc"
#include "rlx/Dialect/Rlx/IR/RlxInterfaces.cpp.inc"

namespace {
/// rlx ops compute values from values (no memory, no control flow out of
/// their regions), so any of them can move into a caller: `--inline` and
/// rlx-autodiff inline calls between functions of rlx ops.
struct RlxInlinerInterface : DialectInlinerInterface {
  using DialectInlinerInterface::DialectInlinerInterface;

  bool isLegalToInline(Operation *, Region *, bool, IRMapping &) const final {
    return true;
  }
};
} // namespace

void RlxDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "rlx/Dialect/Rlx/IR/RlxOps.cpp.inc"
      >();
  addInterfaces<RlxInlinerInterface>();
}

Operation *RlxDialect::materializeConstant(OpBuilder &builder, Attribute value,
                                           Type type, Location loc) {
  auto elements = dyn_cast<ElementsAttr>(value);
  if (!elements || elements.getType() != type)
    return nullptr;
  return ConstantOp::create(builder, loc, type, elements);
}
