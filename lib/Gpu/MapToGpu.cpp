//===- MapToGpu.cpp - Bufferized linalg and row loops to gpu.launch -------===//
//
// Every top-level linalg op and every row loop becomes one kernel. Row loops
// run one block per row (MapRows.cpp) and elementwise ops are grid-stride
// loops (MapElementwise.cpp). What those do not handle falls back to an
// scf.parallel over its parallel iterations, collapsed to one dimension,
// tiled by the block size, tiles on blocks and tile positions on threads,
// everything else sequential inside the thread; upstream's
// parallel-loop-to-gpu patterns then build the gpu.launch ops.
//
//===----------------------------------------------------------------------===//
#include "Kernels.h"
#include "rlx/Gpu/Passes.h"

#include "mlir/Conversion/SCFToGPU/SCFToGPU.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/ParallelLoopMapper.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/Transforms.h"
#include "mlir/Dialect/SCF/Utils/Utils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir::rlx {
#define GEN_PASS_DEF_RLXMAPTOGPU
#include "rlx/Gpu/Passes.h.inc"
} // namespace mlir::rlx

using namespace mlir;

/// Whether `op` runs on the host: not inside a loop that becomes a kernel.
static bool isOnHost(Operation *op) {
  return !op->getParentOfType<scf::ParallelOp>() &&
         !op->getParentOfType<scf::ForallOp>() &&
         !op->getParentOfType<gpu::LaunchOp>();
}

/// Creates `build`'s op on a stream of its own and waits for it: upstream's
/// gpu-to-llvm lowers allocations and copies only in their async form.
template <typename OpTy>
static OpTy createAndWait(
    RewriterBase &rewriter, Location loc,
    llvm::function_ref<OpTy(Type, ValueRange)> build) {
  Type tokenType = gpu::AsyncTokenType::get(rewriter.getContext());
  Value start =
      gpu::WaitOp::create(rewriter, loc, tokenType, ValueRange()).getAsyncToken();
  OpTy op = build(tokenType, start);
  gpu::WaitOp::create(rewriter, loc, Type(), op.getAsyncToken());
  return op;
}

/// Places host buffers in device memory: allocations become gpu.alloc,
/// constants are copied into device buffers, and every such buffer is freed
/// before the function returns. Buffers inside row loops are per-thread.
static LogicalResult placeBuffers(func::FuncOp func, RewriterBase &rewriter) {
  SmallVector<Value> deviceBuffers;
  SmallVector<Operation *> allocs, globals;
  func.walk([&](Operation *op) {
    if (isa<memref::AllocOp>(op))
      allocs.push_back(op);
    else if (isa<memref::GetGlobalOp>(op) && isOnHost(op))
      globals.push_back(op);
  });
  auto allocate = [&](Location loc, MemRefType type, ValueRange dynamicSizes,
                      ValueRange symbols) {
    Value buffer = createAndWait<gpu::AllocOp>(
                       rewriter, loc,
                       [&](Type token, ValueRange dependencies) {
                         return gpu::AllocOp::create(rewriter, loc, type,
                                                     token, dependencies,
                                                     dynamicSizes, symbols);
                       })
                       .getMemref();
    deviceBuffers.push_back(buffer);
    return buffer;
  };
  for (Operation *op : allocs) {
    auto alloc = cast<memref::AllocOp>(op);
    rewriter.setInsertionPoint(alloc);
    if (!isOnHost(alloc)) {
      rewriter.replaceOpWithNewOp<memref::AllocaOp>(
          alloc, alloc.getType(), alloc.getDynamicSizes(),
          alloc.getSymbolOperands(), alloc.getAlignmentAttr());
      continue;
    }
    if (alloc->getParentOp() != func)
      return alloc.emitError(
          "a buffer allocated inside host control flow cannot be placed "
          "in device memory");
    rewriter.replaceOp(alloc, allocate(alloc.getLoc(), alloc.getType(),
                                       alloc.getDynamicSizes(),
                                       alloc.getSymbolOperands()));
  }
  for (Operation *op : globals) {
    auto global = cast<memref::GetGlobalOp>(op);
    Location loc = global.getLoc();
    rewriter.setInsertionPointAfter(global);
    Value device = allocate(loc, global.getType(), {}, {});
    rewriter.replaceAllUsesExcept(global.getResult(), device,
                                  device.getDefiningOp());
    createAndWait<gpu::MemcpyOp>(
        rewriter, loc, [&](Type token, ValueRange dependencies) {
          return gpu::MemcpyOp::create(rewriter, loc, token, dependencies,
                                       device, global.getResult());
        });
  }
  for (Block &block : func.getBody()) {
    auto ret = dyn_cast<func::ReturnOp>(block.getTerminator());
    if (!ret)
      continue;
    rewriter.setInsertionPoint(ret);
    for (Value buffer : deviceBuffers)
      createAndWait<gpu::DeallocOp>(
          rewriter, ret.getLoc(), [&](Type token, ValueRange dependencies) {
            return gpu::DeallocOp::create(rewriter, ret.getLoc(), token,
                                          dependencies, buffer);
          });
  }
  return success();
}

/// The number of iterations of `loop`, when its bounds are constants.
static std::optional<int64_t> getStaticTripCount(scf::ParallelOp loop) {
  int64_t count = 1;
  for (auto [lb, ub, step] :
       llvm::zip(loop.getLowerBound(), loop.getUpperBound(), loop.getStep())) {
    std::optional<int64_t> l = getConstantIntValue(lb);
    std::optional<int64_t> u = getConstantIntValue(ub);
    std::optional<int64_t> s = getConstantIntValue(step);
    if (!l || !u || !s || *s <= 0)
      return std::nullopt;
    count *= llvm::divideCeil(std::max<int64_t>(*u - *l, 0), *s);
  }
  return count;
}

static void setMapping(scf::ParallelOp loop, gpu::Processor processor) {
  MLIRContext *context = loop.getContext();
  AffineMap identity = AffineMap::getMultiDimIdentityMap(1, context);
  SmallVector<gpu::ParallelLoopDimMappingAttr> mapping(
      loop.getNumLoops(),
      gpu::ParallelLoopDimMappingAttr::get(
          context, gpu::Processor::Sequential, identity, identity));
  mapping.front() = gpu::ParallelLoopDimMappingAttr::get(context, processor,
                                                         identity, identity);
  (void)gpu::setMappingAttr(loop, mapping);
}

/// Collapses `loop` to one dimension, tiles it by the block size (fewer when
/// the loop is shorter) and maps tiles to blocks, tile positions to threads
/// and every nested parallel loop to sequential iterations.
static void mapToBlocksAndThreads(scf::ParallelOp loop, int64_t blockSize,
                                  RewriterBase &rewriter) {
  std::optional<int64_t> tripCount = getStaticTripCount(loop);
  if (tripCount && *tripCount == 0) {
    rewriter.eraseOp(loop);
    return;
  }
  loop->walk([&](scf::ParallelOp nested) {
    if (nested != loop)
      setMapping(nested, gpu::Processor::Sequential);
  });
  if (loop.getNumLoops() > 1) {
    std::vector<unsigned> all(loop.getNumLoops());
    std::iota(all.begin(), all.end(), 0);
    rewriter.setInsertionPoint(loop);
    // collapseParallelLoops replaces the loop; find the new one by position.
    Block *block = loop->getBlock();
    Operation *next = loop->getNextNode();
    collapseParallelLoops(rewriter, loop, {all});
    loop = cast<scf::ParallelOp>(next ? next->getPrevNode() : &block->back());
  }
  int64_t tileSize = tripCount ? std::min(*tripCount, blockSize) : blockSize;
  auto [blocks, threads] =
      scf::tileParallelLoop(loop, {tileSize}, /*noMinMaxBounds=*/true);
  setMapping(blocks, gpu::Processor::BlockX);
  setMapping(threads, gpu::Processor::ThreadX);
}

/// Rewrites `op` as loops: parallel over its leading parallel iterators when
/// `parallel`, sequential otherwise.
static LogicalResult lowerToLoops(linalg::LinalgOp op, bool parallel,
                                  RewriterBase &rewriter) {
  rewriter.setInsertionPoint(op);
  if (!parallel)
    return linalg::linalgOpToLoops(rewriter, op);
  // Parallel loops first, so that they spread over threads.
  if (auto generic = dyn_cast<linalg::GenericOp>(op.getOperation())) {
    SmallVector<utils::IteratorType> iterators =
        generic.getIteratorTypesArray();
    SmallVector<unsigned> parallelFirst;
    for (auto kind :
         {utils::IteratorType::parallel, utils::IteratorType::reduction})
      for (auto [d, iterator] : llvm::enumerate(iterators))
        if (iterator == kind)
          parallelFirst.push_back(d);
    if (!llvm::is_sorted(parallelFirst)) {
      FailureOr<linalg::GenericOp> interchanged =
          linalg::interchangeGenericOp(rewriter, generic, parallelFirst);
      if (succeeded(interchanged))
        op = *interchanged;
    }
  }
  if (op.getNumLoops() == 0 ||
      op.getIteratorTypesArray().front() != utils::IteratorType::parallel) {
    // No parallel iterations to spread: one thread runs the whole op.
    Location loc = op.getLoc();
    Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
    Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
    auto single = scf::ParallelOp::create(rewriter, loc, ValueRange{zero},
                                          ValueRange{one}, ValueRange{one});
    rewriter.moveOpBefore(op, single.getBody()->getTerminator());
    rewriter.setInsertionPoint(op);
    return linalg::linalgOpToLoops(rewriter, op);
  }
  return linalg::linalgOpToParallelLoops(rewriter, op);
}

/// Reports the first memref read or write left on the host.
static LogicalResult checkHostCode(func::FuncOp func) {
  WalkResult result = func.walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (isa<gpu::LaunchOp>(op))
      return WalkResult::skip();
    if (op->getDialect() && isa<gpu::GPUDialect>(op->getDialect()))
      return WalkResult::advance();
    auto effects = dyn_cast<MemoryEffectOpInterface>(op);
    if (!effects)
      return WalkResult::advance();
    SmallVector<MemoryEffects::EffectInstance> instances;
    effects.getEffects(instances);
    for (const MemoryEffects::EffectInstance &effect : instances) {
      Value value = effect.getValue();
      if (!value || !isa<BaseMemRefType>(value.getType()) ||
          !isa<MemoryEffects::Read, MemoryEffects::Write>(effect.getEffect()))
        continue;
      op->emitError() << "'" << op->getName()
                      << "' would access device memory from the host";
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

namespace {
struct RlxMapToGpuPass : rlx::impl::RlxMapToGpuBase<RlxMapToGpuPass> {
  using Base::Base;

  void runOnOperation() override {
    func::FuncOp func = getOperation();
    if (blockSize <= 0) {
      func.emitError("block-size must be positive");
      return signalPassFailure();
    }
    if (maxBlocks <= 0) {
      func.emitError("max-blocks must be positive");
      return signalPassFailure();
    }
    IRRewriter rewriter(&getContext());

    // Host copies run as kernels like every other linalg op.
    SmallVector<memref::CopyOp> copies;
    func.walk([&](memref::CopyOp copy) { copies.push_back(copy); });
    for (memref::CopyOp copy : copies) {
      rewriter.setInsertionPoint(copy);
      rewriter.replaceOpWithNewOp<linalg::CopyOp>(copy, copy.getSource(),
                                                  copy.getTarget());
    }

    // Row loops run one block per row where they can; their buffers are
    // placed by the kernel.
    SmallVector<scf::ForallOp> rowLoops;
    func.walk([&](scf::ForallOp forall) {
      if (isOnHost(forall))
        rowLoops.push_back(forall);
    });
    for (scf::ForallOp forall : rowLoops)
      (void)rlx::mapRowLoopToBlocks(forall, blockSize, sharedMemoryBytes,
                                    rewriter);

    if (failed(placeBuffers(func, rewriter)))
      return signalPassFailure();

    // Other row loops: the row's ops run sequentially in the row's thread.
    SmallVector<linalg::LinalgOp> rowOps, hostOps;
    func.walk([&](linalg::LinalgOp op) {
      (isOnHost(op) ? hostOps : rowOps).push_back(op);
    });
    for (linalg::LinalgOp op : rowOps) {
      if (failed(lowerToLoops(op, /*parallel=*/false, rewriter)))
        return signalPassFailure();
      rewriter.eraseOp(op);
    }
    SmallVector<scf::ForallOp> foralls;
    func.walk([&](scf::ForallOp forall) { foralls.push_back(forall); });
    for (scf::ForallOp forall : llvm::reverse(foralls)) {
      rewriter.setInsertionPoint(forall);
      if (failed(scf::forallToParallelLoop(rewriter, forall))) {
        forall.emitError("cannot map this loop with results to the GPU");
        return signalPassFailure();
      }
    }
    for (linalg::LinalgOp op : hostOps) {
      if (succeeded(rlx::mapElementwiseToGridStride(op, blockSize, maxBlocks,
                                                    vectorize, rewriter)) ||
          succeeded(rlx::mapReductionToBlocks(op, blockSize, rewriter)))
        continue;
      if (failed(lowerToLoops(op, /*parallel=*/true, rewriter))) {
        op.emitError("cannot lower to loops for the GPU");
        return signalPassFailure();
      }
      rewriter.eraseOp(op);
    }

    // Host values the kernels now compute themselves (loads of results of
    // earlier kernels) are dead.
    for (Operation &op :
         llvm::make_early_inc_range(llvm::reverse(func.getBody().front())))
      if (isOpTriviallyDead(&op))
        rewriter.eraseOp(&op);

    SmallVector<scf::ParallelOp> kernels;
    func.walk([&](scf::ParallelOp loop) {
      if (!loop->getParentOfType<scf::ParallelOp>())
        kernels.push_back(loop);
    });
    for (scf::ParallelOp loop : kernels)
      mapToBlocksAndThreads(loop, blockSize, rewriter);

    RewritePatternSet patterns(&getContext());
    populateParallelLoopToGPUPatterns(patterns);
    ConversionTarget target(getContext());
    target.markUnknownOpDynamicallyLegal([](Operation *) { return true; });
    configureParallelLoopToGPULegality(target);
    if (failed(applyPartialConversion(func, target, std::move(patterns))))
      return signalPassFailure();
    finalizeParallelLoopToGPUConversion(func);

    if (failed(checkHostCode(func)))
      return signalPassFailure();
  }
};
} // namespace
