//===- MapReductions.cpp - Reductions as one block per output -------------===//
//
// A reduction whose reduced iterations are innermost (contiguous in memory)
// becomes a kernel with one block per output element: the block's threads
// stride over the reduced iterations into partial results, gpu.all_reduce
// combines them, and one thread folds the total into the output. Reductions
// over outer dimensions keep one thread per output, whose neighbours read
// neighbouring elements.
//
//===----------------------------------------------------------------------===//
#include "Kernels.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

using namespace mlir;
using namespace mlir::rlx;

LogicalResult rlx::mapReductionToBlocks(linalg::LinalgOp op, int64_t blockSize,
                                        RewriterBase &rewriter) {
  if (op.getNumReductionLoops() == 0 || !hasScalarPayload(op))
    return failure();
  std::optional<SmallVector<int64_t>> ranges = getStaticLoopRanges(op);
  if (!ranges)
    return failure();
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  if (iterators.back() != utils::IteratorType::reduction)
    return failure();
  SmallVector<int64_t> outputRanges, reducedRanges;
  for (auto [range, iterator] : llvm::zip(*ranges, iterators))
    (iterator == utils::IteratorType::parallel ? outputRanges : reducedRanges)
        .push_back(range);
  int64_t outputs = 1, reduced = 1;
  for (int64_t range : outputRanges)
    outputs *= range;
  for (int64_t range : reducedRanges)
    reduced *= range;
  // Reductions shorter than a warp are better one per thread.
  if (reduced < kWarpSize || outputs <= 0 ||
      outputs > std::numeric_limits<int32_t>::max())
    return failure();
  FailureOr<SmallVector<BlockReduction>> reductions = matchBlockReductions(op);
  if (failed(reductions))
    return failure();
  int64_t threads =
      std::min<int64_t>(blockSize, llvm::alignTo(reduced, kWarpSize));

  Location loc = op.getLoc();
  rewriter.setInsertionPoint(op);
  auto createIndex = [&](OpBuilder &b, int64_t value) -> Value {
    return arith::ConstantIndexOp::create(b, loc, value);
  };
  gpu::LaunchOp launch = createLaunch(rewriter, loc, outputs, threads);
  OpBuilder b = OpBuilder::atBlockBegin(&launch.getBody().front());
  Value threadId = launch.getThreadIds().x;
  SmallVector<Value> outputIvs =
      delinearize(b, loc, launch.getBlockIds().x, outputRanges);

  // The iteration from the output's position and the reduced one.
  auto getIvs = [&](OpBuilder &nested, Location nestedLoc,
                    ValueRange reducedIvs) {
    SmallVector<Value> ivs;
    unsigned nextOutput = 0, nextReduced = 0;
    for (utils::IteratorType iterator : iterators)
      ivs.push_back(iterator == utils::IteratorType::parallel
                        ? outputIvs[nextOutput++]
                        : reducedIvs[nextReduced++]);
    return ivs;
  };
  SmallVector<Value> operands(op->getOperands());
  IRMapping captured = sinkCapturedValues(b, op);
  SmallVector<Value> neutrals;
  for (const BlockReduction &reduction : *reductions)
    neutrals.push_back(arith::ConstantOp::create(b, loc, reduction.neutral));
  auto partials = scf::ForOp::create(
      b, loc, threadId, createIndex(b, reduced), createIndex(b, threads),
      neutrals,
      [&](OpBuilder &nested, Location nestedLoc, Value iv, ValueRange args) {
        SmallVector<Value> ivs =
            getIvs(nested, nestedLoc,
                   delinearize(nested, nestedLoc, iv, reducedRanges));
        scf::YieldOp::create(
            nested, nestedLoc,
            emitPayload(nested, nestedLoc, op, ivs, operands, args, &captured));
      });
  SmallVector<Value> totals;
  for (auto [i, reduction] : llvm::enumerate(*reductions))
    totals.push_back(gpu::AllReduceOp::create(
        b, loc, partials.getResult(i),
        gpu::AllReduceOperationAttr::get(b.getContext(), reduction.operation),
        /*uniform=*/b.getUnitAttr()));

  // One thread folds each total into its output.
  Value first = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                      threadId, createIndex(b, 0));
  scf::IfOp::create(b, loc, first, [&](OpBuilder &nested, Location nestedLoc) {
    SmallVector<Value> zeros(reducedRanges.size(), createIndex(nested, 0));
    SmallVector<Value> ivs = getIvs(nested, nestedLoc, zeros);
    for (auto [init, reduction, total] :
         llvm::zip(op.getDpsInitsMutable(), *reductions, totals)) {
      Value output = operands[init.getOperandNumber()];
      SmallVector<Value> indices = applyIndexingMap(
          nested, nestedLoc, op.getMatchingIndexingMap(&init), ivs);
      Value accumulator =
          memref::LoadOp::create(nested, nestedLoc, output, indices);
      Value folded =
          foldBlockTotal(nested, reduction, op.getMatchingBlockArgument(&init),
                         accumulator, total, captured);
      memref::StoreOp::create(nested, nestedLoc, folded, output, indices);
    }
    scf::YieldOp::create(nested, nestedLoc);
  });
  rewriter.eraseOp(op);
  return success();
}
