//===- KernelUtils.cpp - Helpers of the kernels of rlx-map-to-gpu ---------===//
#include "Kernels.h"

#include "mlir/Analysis/SliceAnalysis.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;

gpu::LaunchOp rlx::createLaunch(RewriterBase &rewriter, Location loc,
                                int64_t blocks, int64_t threads,
                                TypeRange workgroupTypes) {
  auto index = [&](int64_t value) -> Value {
    return arith::ConstantIndexOp::create(rewriter, loc, value);
  };
  Value one = index(1);
  auto launch = gpu::LaunchOp::create(
      rewriter, loc, index(blocks), one, one, index(threads), one, one,
      /*dynamicSharedMemorySize=*/nullptr, /*asyncTokenType=*/nullptr,
      /*asyncDependencies=*/{}, workgroupTypes);
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPointToEnd(&launch.getBody().front());
  gpu::TerminatorOp::create(rewriter, loc);
  return launch;
}

void rlx::convertCopiesToLinalg(Operation *root, RewriterBase &rewriter) {
  SmallVector<memref::CopyOp> copies;
  root->walk([&](memref::CopyOp copy) { copies.push_back(copy); });
  for (memref::CopyOp copy : copies) {
    rewriter.setInsertionPoint(copy);
    rewriter.replaceOpWithNewOp<linalg::CopyOp>(copy, copy.getSource(),
                                                copy.getTarget());
  }
}

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

IRMapping rlx::sinkCapturedValues(OpBuilder &b, linalg::LinalgOp op) {
  llvm::SetVector<Value> captured;
  getUsedValuesDefinedAbove(op->getRegion(0), captured);
  IRMapping mapping;
  std::function<void(Value)> sink = [&](Value value) {
    Operation *def = value.getDefiningOp();
    if (!def || mapping.contains(value) ||
        !(isa<memref::LoadOp>(def) ||
          (def->getNumRegions() == 0 && isMemoryEffectFree(def))))
      return;
    for (Value operand : def->getOperands())
      sink(operand);
    b.clone(*def, mapping);
  };
  for (Value value : captured)
    sink(value);
  return mapping;
}

SmallVector<Value> rlx::emitPayload(OpBuilder &b, Location loc,
                                    linalg::LinalgOp op, ValueRange ivs,
                                    ValueRange operands, ValueRange initValues,
                                    const IRMapping *captured) {
  IRMapping mapping;
  if (captured)
    mapping = *captured;
  for (OpOperand &operand : op->getOpOperands()) {
    BlockArgument arg = op.getMatchingBlockArgument(&operand);
    if (arg.use_empty())
      continue;
    if (op.isDpsInit(&operand) && !initValues.empty()) {
      mapping.map(
          arg, initValues[operand.getOperandNumber() - op.getNumDpsInputs()]);
      continue;
    }
    Value source = operands[operand.getOperandNumber()];
    if (!isa<MemRefType>(source.getType())) {
      mapping.map(arg, source);
      continue;
    }
    mapping.map(
        arg, memref::LoadOp::create(
                 b, loc, source,
                 applyIndexingMap(b, loc, op.getMatchingIndexingMap(&operand),
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
  return llvm::to_vector(
      llvm::map_range(body->getTerminator()->getOperands(),
                      [&](Value v) { return mapping.lookupOrDefault(v); }));
}

void rlx::storeResults(OpBuilder &b, Location loc, linalg::LinalgOp op,
                       ValueRange ivs, ValueRange operands, ValueRange values) {
  for (auto [init, value] : llvm::zip(op.getDpsInitsMutable(), values))
    memref::StoreOp::create(
        b, loc, value, operands[init.getOperandNumber()],
        applyIndexingMap(b, loc, op.getMatchingIndexingMap(&init), ivs));
}

/// The gpu.all_reduce operation computing what `combiner` folds, if any.
static std::optional<gpu::AllReduceOperation>
getAllReduceOperation(Operation *combiner) {
  using Kind = gpu::AllReduceOperation;
  return llvm::TypeSwitch<Operation *, std::optional<Kind>>(combiner)
      .Case<arith::AddFOp, arith::AddIOp>([](auto) { return Kind::ADD; })
      .Case<arith::MulFOp, arith::MulIOp>([](auto) { return Kind::MUL; })
      .Case([](arith::MaximumFOp) { return Kind::MAXIMUMF; })
      .Case([](arith::MinimumFOp) { return Kind::MINIMUMF; })
      .Case([](arith::MaxNumFOp) { return Kind::MAXNUMF; })
      .Case([](arith::MinNumFOp) { return Kind::MINNUMF; })
      .Case([](arith::MaxSIOp) { return Kind::MAXSI; })
      .Case([](arith::MinSIOp) { return Kind::MINSI; })
      .Case([](arith::MaxUIOp) { return Kind::MAXUI; })
      .Case([](arith::MinUIOp) { return Kind::MINUI; })
      .Case([](arith::AndIOp) { return Kind::AND; })
      .Case([](arith::OrIOp) { return Kind::OR; })
      .Case([](arith::XOrIOp) { return Kind::XOR; })
      .Default([](Operation *) { return std::nullopt; });
}

FailureOr<SmallVector<rlx::BlockReduction>>
rlx::matchBlockReductions(linalg::LinalgOp op) {
  SmallVector<BlockArgument> outArgs(op.getRegionOutputArgs());
  Operation *yield = op.getBlock()->getTerminator();
  SmallVector<BlockReduction> reductions;
  for (auto [i, outArg] : llvm::enumerate(outArgs)) {
    SmallVector<Operation *> combiners;
    if (!matchReduction(outArgs, i, combiners) || combiners.size() != 1)
      return failure();
    Operation *combiner = combiners.front();
    if (yield->getOperand(i) != combiner->getResult(0) ||
        llvm::count(combiner->getOperands(), outArg) != 1)
      return failure();
    // The upstream lowering shuffles 32-bit values, 64-bit ones as two.
    Type type = combiner->getResult(0).getType();
    if (!type.isIntOrFloat() || (type.getIntOrFloatBitWidth() != 32 &&
                                 type.getIntOrFloatBitWidth() != 64))
      return failure();
    std::optional<gpu::AllReduceOperation> operation =
        getAllReduceOperation(combiner);
    std::optional<TypedAttr> neutral = arith::getNeutralElement(combiner);
    if (!operation || !neutral)
      return failure();
    reductions.push_back({*operation, combiner, *neutral});
  }
  return reductions;
}

Value rlx::foldBlockTotal(OpBuilder &b, const BlockReduction &reduction,
                          BlockArgument outArg, Value accumulator, Value total,
                          const IRMapping &captured) {
  IRMapping combine(captured);
  for (Value operand : reduction.combiner->getOperands())
    combine.map(operand, operand == outArg ? accumulator : total);
  return b.clone(*reduction.combiner, combine)->getResult(0);
}
