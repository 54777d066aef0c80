//===- ShardPartition.cpp - Annotated functions to their SPMD form --------===//
//
// Upstream does the work: `sharding-propagation` and `shard-partition` on
// rlx ops through their ShardingInterface models
// (rlx/Dialect/Rlx/Extensions), `convert-shard-to-mpi` afterwards. This pass
// fills the two gaps between them. Partitioning needs every op annotated,
// and propagation leaves an op alone when nothing around it is sharded (an
// optimizer's scalar arithmetic): those run replicated. And the MPI
// lowering takes `all_reduce` but not `all_gather`: a gather is written as
// an all-reduce sum of zero tensors that each hold one process's block.
// That moves the gathered bytes twice where MPI_Allgather moves them once;
// it goes when upstream lowers all_gather.
//
//===----------------------------------------------------------------------===//
#include "rlx/Transforms/Passes.h"

#include "rlx/Dialect/Rlx/IR/RlxOps.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Shard/IR/ShardDialect.h"
#include "mlir/Dialect/Shard/IR/ShardOps.h"
#include "mlir/Dialect/Shard/Interfaces/ShardingInterface.h"
#include "mlir/Dialect/Shard/Transforms/Passes.h"
#include "mlir/Dialect/Shard/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::rlx {
#define GEN_PASS_DEF_RLXSHARDPARTITION
#include "rlx/Transforms/Passes.h.inc"
} // namespace mlir::rlx

using namespace mlir;
using shard::Sharding;

/// The sharding of a tensor that every process holds whole.
static Sharding getReplicated(FlatSymbolRefAttr grid, Type type) {
  if (cast<RankedTensorType>(type).getRank() == 0)
    return Sharding(grid);
  return Sharding::get(grid, {shard::GridAxesAttr::get(grid.getContext(), {})});
}

static bool isAnnotatedResult(Value result) {
  if (!result.hasOneUse())
    return false;
  auto shardOp = dyn_cast<shard::ShardOp>(*result.user_begin());
  return shardOp && !shardOp.getAnnotateForUsers();
}

static bool isAnnotatedOperand(Value operand) {
  auto shardOp = operand.getDefiningOp<shard::ShardOp>();
  return shardOp && shardOp.getAnnotateForUsers();
}

/// The shardings an op's tensors should have that the propagation did not
/// annotate: what its sharding model infers from the annotated ones (a
/// result nothing uses, which the propagation skips, must still be a block
/// like its siblings), or replicated where nothing is known.
static std::vector<Sharding> inferMissingShardings(Operation *op,
                                                   FlatSymbolRefAttr grid) {
  SmallVector<Sharding, 0> operands, results;
  bool any = false;
  for (Value operand : op->getOperands()) {
    operands.push_back(
        isAnnotatedOperand(operand)
            ? Sharding(operand.getDefiningOp<shard::ShardOp>().getSharding())
            : Sharding());
    any |= bool(operands.back());
  }
  for (Value result : op->getResults()) {
    results.push_back(
        isAnnotatedResult(result)
            ? Sharding(cast<shard::ShardOp>(*result.user_begin()).getSharding())
            : Sharding());
    any |= bool(results.back());
  }
  auto model = dyn_cast<shard::ShardingInterface>(op);
  if (any && model) {
    FailureOr<shard::ShardingOption> option =
        model.getShardingOption(operands, results);
    if (succeeded(option) && !option->empty) {
      FailureOr<std::vector<Sharding>> inferred =
          model.getShardingAnnotations(*option);
      if (succeeded(inferred))
        return *inferred;
    }
  }
  std::vector<Sharding> replicated;
  for (Value value : llvm::concat<Value>(op->getOperands(), op->getResults()))
    replicated.push_back(isa<RankedTensorType>(value.getType())
                             ? getReplicated(grid, value.getType())
                             : Sharding());
  return replicated;
}

/// Annotates every tensor the propagation left without a sharding, so the
/// partition sees every op fully annotated; ops nothing was known about run
/// replicated.
static void annotateRest(func::FuncOp func, FlatSymbolRefAttr grid) {
  OpBuilder b(func.getContext());
  SmallVector<Operation *> ops;
  for (Operation &op : func.getBody().front())
    if (!isa<shard::ShardOp, shard::ShardingOp>(op) &&
        !op.hasTrait<OpTrait::IsTerminator>())
      ops.push_back(&op);
  for (Operation *op : ops) {
    std::vector<Sharding> shardings = inferMissingShardings(op, grid);
    unsigned numOperands = op->getNumOperands();
    for (OpResult result : op->getResults()) {
      Sharding sharding = shardings[numOperands + result.getResultNumber()];
      if (!sharding || isAnnotatedResult(result))
        continue;
      b.setInsertionPointAfter(op);
      // Upstream's helper annotates uses, and an unused result has none.
      if (result.use_empty()) {
        Value spec = shard::ShardingOp::create(b, op->getLoc(), sharding);
        shard::ShardOp::create(b, op->getLoc(), result, spec,
                               /*annotate_for_users=*/false);
        continue;
      }
      shard::maybeInsertTargetShardingAnnotation(sharding, result, b);
    }
    for (OpOperand &operand : op->getOpOperands()) {
      auto type = dyn_cast<RankedTensorType>(operand.get().getType());
      Sharding sharding = shardings[operand.getOperandNumber()];
      if (!type || type.getRank() == 0 || !sharding ||
          isAnnotatedOperand(operand.get()))
        continue;
      b.setInsertionPoint(op);
      shard::maybeInsertSourceShardingAnnotation(sharding, operand, b);
    }
  }
}

namespace {
/// all_gather as an all-reduce sum: each process writes its block into zeros
/// at its index in the group; adding zeros is exact.
struct AllGatherAsAllReduce : OpRewritePattern<shard::AllGatherOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(shard::AllGatherOp op,
                                PatternRewriter &rewriter) const override {
    auto localType = cast<RankedTensorType>(op.getInput().getType());
    auto wholeType = cast<RankedTensorType>(op.getType());
    if (!localType.hasStaticShape() || !wholeType.hasStaticShape())
      return rewriter.notifyMatchFailure(op, "dynamic block");
    ImplicitLocOpBuilder b(op.getLoc(), rewriter);
    int64_t axis = op.getGatherAxis().getSExtValue();
    ArrayRef<shard::GridAxis> gridAxes = op.getGridAxes();
    Value index = shard::createProcessLinearIndex(op.getGrid(), gridAxes, b);
    Value blockSize =
        arith::ConstantIndexOp::create(b, localType.getDimSize(axis));
    Value offset = arith::MulIOp::create(b, index, blockSize);

    Type element = wholeType.getElementType();
    Value zero = arith::ConstantOp::create(b, b.getZeroAttr(element));
    Value empty = tensor::EmptyOp::create(b, wholeType.getShape(), element);
    Value zeros = linalg::FillOp::create(b, zero, empty).getResult(0);
    SmallVector<OpFoldResult> offsets(wholeType.getRank(), b.getIndexAttr(0));
    offsets[axis] = offset;
    SmallVector<OpFoldResult> sizes;
    for (int64_t size : localType.getShape())
      sizes.push_back(b.getIndexAttr(size));
    SmallVector<OpFoldResult> strides(wholeType.getRank(), b.getIndexAttr(1));
    Value placed = tensor::InsertSliceOp::create(b, op.getInput(), zeros,
                                                 offsets, sizes, strides);
    // A bool's blocks combine by or: i1 has no sum in MPI.
    shard::ReductionKind kind = element.isInteger(1)
                                    ? shard::ReductionKind::BitwiseOr
                                    : shard::ReductionKind::Sum;
    rewriter.replaceOp(op, shard::AllReduceOp::create(b, placed, op.getGrid(),
                                                      gridAxes, kind));
    return success();
  }
};

/// all_reduce(a) + all_reduce(b) = all_reduce(a + b) for sums: one
/// collective where upstream's partition made one per partial result (the
/// backward pass of a column-parallel layer adds the partial input gradients
/// of its projections, Megatron's single all-reduce per block). Both
/// all-reduces must feed only the add, over the same axes, with the add's
/// type (no broadcasting).
template <typename OpTy> struct CombineAllReduceSums : OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;

  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    auto lhs = op.getLhs().template getDefiningOp<shard::AllReduceOp>();
    auto rhs = op.getRhs().template getDefiningOp<shard::AllReduceOp>();
    auto isPartialSum = [&](shard::AllReduceOp reduce) {
      return reduce && reduce->hasOneUse() &&
             reduce.getReduction() == shard::ReductionKind::Sum &&
             reduce.getType() == op.getType();
    };
    if (!isPartialSum(lhs) || !isPartialSum(rhs) ||
        lhs.getGrid() != rhs.getGrid() ||
        lhs.getGridAxes() != rhs.getGridAxes())
      return rewriter.notifyMatchFailure(op, "not two all-reduced sums");
    Value combined = OpTy::create(rewriter, op.getLoc(), op.getType(),
                                  lhs.getInput(), rhs.getInput());
    rewriter.replaceOpWithNewOp<shard::AllReduceOp>(
        op, op.getType(), lhs.getGridAttr(), lhs.getGridAxesAttr(), combined,
        lhs.getReductionAttr());
    rewriter.eraseOp(lhs);
    rewriter.eraseOp(rhs);
    return success();
  }
};

struct RlxShardPartitionPass
    : rlx::impl::RlxShardPartitionBase<RlxShardPartitionPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    for (auto func : llvm::to_vector(module.getOps<func::FuncOp>())) {
      shard::ShardOp anyShard;
      func.walk([&](shard::ShardOp op) {
        anyShard = op;
        return WalkResult::interrupt();
      });
      if (!anyShard)
        continue;
      if (failed(partition(func, anyShard)))
        return signalPassFailure();
    }
  }

  LogicalResult partition(func::FuncOp func, shard::ShardOp anyShard) {
    auto sharding = anyShard.getSharding().getDefiningOp<shard::ShardingOp>();
    if (!sharding)
      return anyShard.emitError() << "expected a shard.sharding operand";
    OpPassManager propagate(func::FuncOp::getOperationName());
    // Forward first: the splits start at the arguments (the batch, the
    // weights' columns) and flow to the replicated results through the
    // reductions that combine them; backward first would replicate from the
    // results back before the arguments' splits are seen.
    shard::ShardingPropagationOptions order;
    order.traversal = shard::TraversalOrder::ForwardBackward;
    propagate.addPass(shard::createShardingPropagation(order));
    if (failed(runPipeline(propagate, func)))
      return failure();
    annotateRest(func, sharding.getGridAttr());
    OpPassManager partition(func::FuncOp::getOperationName());
    partition.addPass(shard::createPartition());
    if (failed(runPipeline(partition, func)))
      return failure();

    SymbolTableCollection symbolTables;
    RewritePatternSet patterns(&getContext());
    patterns.add<AllGatherAsAllReduce, CombineAllReduceSums<rlx::AddOp>,
                 CombineAllReduceSums<rlx::SubOp>>(&getContext());
    shard::populateAllSliceOpLoweringPatterns(patterns, symbolTables);
    // The slices' sizes follow from the grid's static shape: folded, the
    // blocks have static types again, as the rest of the pipeline expects.
    for (RegisteredOperationName name : getContext().getRegisteredOperations())
      name.getCanonicalizationPatterns(patterns, &getContext());
    if (failed(applyPatternsGreedily(func, std::move(patterns))))
      return func.emitError() << "collectives did not converge";
    // What convert-shard-to-mpi lowers, besides the shardings themselves.
    WalkResult unsupported = func.walk([](Operation *op) {
      if (op->getDialect() != op->getContext()->getLoadedDialect("shard") ||
          isa<shard::AllReduceOp, shard::ProcessMultiIndexOp,
              shard::ProcessLinearIndexOp, shard::GridShapeOp,
              shard::ShardingOp, shard::ShardShapeOp, shard::UpdateHaloOp,
              shard::NeighborsLinearIndicesOp, shard::GetShardingOp>(op))
        return WalkResult::advance();
      op->emitError() << "'" << op->getName()
                      << "' has no MPI lowering: the partition needs a "
                         "collective that rlx cannot run yet";
      return WalkResult::interrupt();
    });
    return failure(unsupported.wasInterrupted());
  }
};
} // namespace
