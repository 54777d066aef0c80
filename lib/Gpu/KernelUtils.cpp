//===- KernelUtils.cpp - A linalg op's payload at one iteration -----------===//
#include "Kernels.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;

std::optional<SmallVector<int64_t>>
rlx::getStaticLoopRanges(linalg::LinalgOp op) {
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  if (llvm::any_of(ranges, ShapedType::isDynamic))
    return std::nullopt;
  return ranges;
}

bool rlx::hasScalarPayload(linalg::LinalgOp op) {
  if (!op.hasPureBufferSemantics())
    return false;
  return llvm::all_of(op.getBlock()->without_terminator(), [](Operation &op) {
    return op.getNumRegions() == 0 && isMemoryEffectFree(&op);
  });
}

SmallVector<Value> rlx::delinearize(OpBuilder &b, Location loc, Value linear,
                                    ArrayRef<int64_t> ranges) {
  if (ranges.empty())
    return {};
  if (ranges.size() == 1)
    return {linear};
  return affine::AffineDelinearizeIndexOp::create(b, loc, linear, ranges,
                                                  /*hasOuterBound=*/true)
      .getResults();
}

SmallVector<Value> rlx::applyIndexingMap(OpBuilder &b, Location loc,
                                         AffineMap map, ValueRange ivs) {
  SmallVector<OpFoldResult> operands(ivs.begin(), ivs.end());
  SmallVector<Value> indices;
  for (unsigned i = 0; i < map.getNumResults(); ++i)
    indices.push_back(getValueOrCreateConstantIndexOp(
        b, loc,
        affine::makeComposedFoldedAffineApply(b, loc, map.getSubMap({i}),
                                              operands)));
  return indices;
}

SmallVector<Value> rlx::emitPayload(OpBuilder &b, Location loc,
                                    linalg::LinalgOp op, ValueRange ivs,
                                    ValueRange operands,
                                    ValueRange initValues,
                                    const IRMapping *captured) {
  IRMapping mapping;
  if (captured)
    mapping = *captured;
  for (OpOperand &operand : op->getOpOperands()) {
    BlockArgument arg = op.getMatchingBlockArgument(&operand);
    if (arg.use_empty())
      continue;
    if (op.isDpsInit(&operand) && !initValues.empty()) {
      mapping.map(arg, initValues[operand.getOperandNumber() -
                                   op.getNumDpsInputs()]);
      continue;
    }
    Value source = operands[operand.getOperandNumber()];
    if (!isa<MemRefType>(source.getType())) {
      mapping.map(arg, source);
      continue;
    }
    mapping.map(arg, memref::LoadOp::create(
                         b, loc, source,
                         applyIndexingMap(b, loc,
                                          op.getMatchingIndexingMap(&operand),
                                          ivs)));
  }
  Block *body = op.getBlock();
  for (Operation &inner : body->without_terminator()) {
    if (auto index = dyn_cast<linalg::IndexOp>(inner)) {
      mapping.map(index.getResult(), ivs[index.getDim()]);
      continue;
    }
    b.clone(inner, mapping);
  }
  return llvm::to_vector(llvm::map_range(
      body->getTerminator()->getOperands(),
      [&](Value v) { return mapping.lookupOrDefault(v); }));
}

void rlx::storeResults(OpBuilder &b, Location loc, linalg::LinalgOp op,
                       ValueRange ivs, ValueRange operands,
                       ValueRange values) {
  for (auto [init, value] : llvm::zip(op.getDpsInitsMutable(), values))
    memref::StoreOp::create(
        b, loc, value, operands[init.getOperandNumber()],
        applyIndexingMap(b, loc, op.getMatchingIndexingMap(&init), ivs));
}
