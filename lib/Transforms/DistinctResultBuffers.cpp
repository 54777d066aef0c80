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

namespace {
struct RlxDistinctResultBuffersPass
    : rlx::impl::RlxDistinctResultBuffersBase<RlxDistinctResultBuffersPass> {
  void runOnOperation() override {
    getOperation().walk([](func::ReturnOp ret) {
      OpBuilder b(ret);
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
