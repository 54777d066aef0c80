//===- DistinctResultBuffers.cpp - One buffer per returned result --------===//
#include "rlx/Transforms/Passes.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"

namespace mlir::rlx {
#define GEN_PASS_DEF_RLXDISTINCTRESULTBUFFERS
#include "rlx/Transforms/Passes.h.inc"
} // namespace mlir::rlx

using namespace mlir;

/// A new buffer holding a copy of `buffer`, of the same type, or null where
/// no allocation can have that type (a layout other than the identity or a
/// fully dynamic one, which buffer-results-to-out-params rejects).
static Value copyIntoNewBuffer(OpBuilder &b, Location loc, Value buffer) {
  auto type = cast<MemRefType>(buffer.getType());
  // Out-parameters are allocated with the identity layout; a returned
  // strided view gets a contiguous buffer cast to its type.
  auto allocType =
      MemRefType::get(type.getShape(), type.getElementType(),
                      MemRefLayoutAttrInterface(), type.getMemorySpace());
  if (!memref::CastOp::areCastCompatible(allocType, type))
    return Value();
  SmallVector<Value> dynamicSizes;
  for (auto [dim, size] : llvm::enumerate(type.getShape()))
    if (ShapedType::isDynamic(size))
      dynamicSizes.push_back(memref::DimOp::create(b, loc, buffer, dim));
  Value copy = memref::AllocOp::create(b, loc, allocType, dynamicSizes);
  memref::CopyOp::create(b, loc, buffer, copy);
  if (allocType == type)
    return copy;
  return memref::CastOp::create(b, loc, type, copy);
}

/// Where `value` is a reshape of an allocation used by nothing else (a
/// row loop's [rows, 1] result returned as [rows]), allocates the
/// reshaped buffer itself and makes the old allocation a view of it, so
/// that the returned value is an allocation, which out-parameter promotion
/// then replaces by the caller's buffer (instead of copying into it).
/// Returns the new allocation, or null.
static Value allocateReshapeDirectly(OpBuilder &b, Value value) {
  Operation *reshape = value.getDefiningOp();
  if (!isa_and_present<memref::CollapseShapeOp, memref::ExpandShapeOp>(
          reshape) ||
      !value.hasOneUse())
    return Value();
  auto alloc = reshape->getOperand(0).getDefiningOp<memref::AllocOp>();
  auto type = cast<MemRefType>(value.getType());
  if (!alloc || !alloc.getType().hasStaticShape() ||
      !alloc.getType().getLayout().isIdentity() ||
      !type.getLayout().isIdentity())
    return Value();
  b.setInsertionPoint(alloc);
  Value direct = memref::AllocOp::create(b, alloc.getLoc(), type,
                                         alloc.getAlignmentAttr());
  Value view;
  if (auto collapse = dyn_cast<memref::CollapseShapeOp>(reshape))
    view = memref::ExpandShapeOp::create(b, alloc.getLoc(),
                                         alloc.getType().getShape(), direct,
                                         collapse.getReassociationIndices());
  else
    view = memref::CollapseShapeOp::create(
        b, alloc.getLoc(), direct,
        cast<memref::ExpandShapeOp>(reshape).getReassociationIndices());
  if (view.getType() != alloc.getType()) {
    view.getDefiningOp()->erase();
    direct.getDefiningOp()->erase();
    return Value();
  }
  alloc.replaceAllUsesWith(view);
  alloc.erase();
  value.replaceAllUsesWith(direct);
  reshape->erase();
  return direct;
}

namespace {
struct RlxDistinctResultBuffersPass
    : rlx::impl::RlxDistinctResultBuffersBase<RlxDistinctResultBuffersPass> {
  void runOnOperation() override {
    getOperation().walk([](func::ReturnOp ret) {
      OpBuilder b(ret);
      for (OpOperand &operand : ret->getOpOperands())
        if (isa<MemRefType>(operand.get().getType()))
          allocateReshapeDirectly(b, operand.get());
      b.setInsertionPoint(ret);
      for (OpOperand &operand : ret->getOpOperands()) {
        Value value = operand.get();
        if (!isa<MemRefType>(value.getType()) ||
            !llvm::is_contained(
                ret->getOperands().take_front(operand.getOperandNumber()),
                value))
          continue;
        if (Value copy = copyIntoNewBuffer(b, ret.getLoc(), value))
          operand.set(copy);
      }
    });
  }
};
} // namespace
