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
#include "mlir/Dialect/MemRef/Utils/MemRefUtils.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/Transforms.h"
#include "mlir/Dialect/SCF/Utils/Utils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ValueBoundsOpInterface.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "mlir/Transforms/DialectConversion.h"
#include "mlir/Transforms/RegionUtils.h"

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

/// Frees each of `buffers` (device memory) before every return of `func`.
static void freeBeforeReturns(func::FuncOp func, ArrayRef<Value> buffers,
                              RewriterBase &rewriter) {
  for (Block &block : func.getBody()) {
    auto ret = dyn_cast<func::ReturnOp>(block.getTerminator());
    if (!ret)
      continue;
    rewriter.setInsertionPoint(ret);
    for (Value buffer : buffers)
      createAndWait<gpu::DeallocOp>(
          rewriter, ret.getLoc(), [&](Type token, ValueRange dependencies) {
            return gpu::DeallocOp::create(rewriter, ret.getLoc(), token,
                                          dependencies, buffer);
          });
  }
}

/// Whether a terminator (an scf.yield of a loop, say) takes `buffer` or a view
/// of it: then each allocation of the buffer must stay a new one.
static bool isCarriedByTerminator(Value buffer) {
  for (Operation *user : buffer.getUsers()) {
    if (user->hasTrait<OpTrait::IsTerminator>())
      return true;
    if (auto view = dyn_cast<ViewLikeOpInterface>(user))
      if (view.getViewSource() == buffer &&
          isCarriedByTerminator(view->getResult(0)))
        return true;
  }
  return false;
}

/// The loop whose iterations become a kernel's threads that `op` is in, when
/// it is the only such loop around `op` and runs on the host.
static LoopLikeOpInterface getHostThreadLoop(Operation *op) {
  LoopLikeOpInterface threadLoop;
  for (Operation *parent = op->getParentOp(); parent;
       parent = parent->getParentOp()) {
    if (isa<gpu::LaunchOp>(parent))
      return nullptr;
    if (isa<scf::ForallOp, scf::ParallelOp>(parent)) {
      if (threadLoop)
        return nullptr;
      threadLoop = cast<LoopLikeOpInterface>(parent);
    }
  }
  return threadLoop;
}

/// Gives the buffer `alloc` allocates in each iteration of `loop` a slice of
/// a scratch buffer the host allocates before the loop (which placeBuffers
/// places in device memory), viewed with the buffer's type (of identity
/// layout, which placeThreadBuffer checked). Fails, changing nothing, unless
/// the buffer's sizes and the loop's bounds are known before the loop and
/// its steps are constants.
static LogicalResult placeInScratch(memref::AllocOp alloc,
                                    LoopLikeOpInterface loop,
                                    RewriterBase &rewriter) {
  MemRefType type = alloc.getType();
  auto definedBefore = [&](Value value) {
    return !loop->isAncestor(value.getParentRegion()->getParentOp());
  };
  std::optional<SmallVector<OpFoldResult>> lbs = loop.getLoopLowerBounds(),
                                           ubs = loop.getLoopUpperBounds(),
                                           steps = loop.getLoopSteps();
  std::optional<SmallVector<Value>> ivs = loop.getLoopInductionVars();
  if (!type.getElementType().isIntOrFloat() ||
      !llvm::all_of(alloc.getDynamicSizes(), definedBefore) || !lbs || !ubs ||
      !steps || !ivs || !llvm::all_of(*steps, [](OpFoldResult step) {
        return getConstantIntValue(step).has_value();
      }))
    return failure();
  for (OpFoldResult bound : llvm::concat<OpFoldResult>(*lbs, *ubs))
    if (auto value = dyn_cast<Value>(bound); value && !definedBefore(value))
      return failure();

  Location loc = alloc.getLoc();
  MLIRContext *context = alloc.getContext();
  AffineExpr d0, d1, d2, d3;
  bindDims(context, d0, d1, d2, d3);
  rewriter.setInsertionPoint(loop);
  // Each slice keeps the buffer's alignment (at least 64 bytes).
  int64_t alignment = std::max<int64_t>(alloc.getAlignment().value_or(1), 64);
  OpFoldResult sliceBytes =
      rewriter.getIndexAttr(llvm::divideCeil(type.getElementTypeBitWidth(), 8));
  for (OpFoldResult size : alloc.getMixedSizes())
    sliceBytes = affine::makeComposedFoldedAffineApply(rewriter, loc, d0 * d1,
                                                       {sliceBytes, size});
  sliceBytes = affine::makeComposedFoldedAffineApply(
      rewriter, loc, d0.ceilDiv(alignment) * alignment, {sliceBytes});
  SmallVector<OpFoldResult> tripCounts;
  OpFoldResult totalBytes = sliceBytes;
  for (auto [lb, ub, step] : llvm::zip(*lbs, *ubs, *steps)) {
    tripCounts.push_back(affine::makeComposedFoldedAffineApply(
        rewriter, loc, (d1 - d0).ceilDiv(*getConstantIntValue(step)),
        {lb, ub}));
    totalBytes = affine::makeComposedFoldedAffineApply(
        rewriter, loc, d0 * d1, {totalBytes, tripCounts.back()});
  }
  Value scratch = memref::AllocOp::create(
      rewriter, loc,
      MemRefType::get({ShapedType::kDynamic}, rewriter.getI8Type()),
      ValueRange{getValueOrCreateConstantIndexOp(rewriter, loc, totalBytes)});

  // The iteration's slice: its position in the loop's iteration space.
  rewriter.setInsertionPoint(alloc);
  OpFoldResult iteration = rewriter.getIndexAttr(0);
  for (auto [iv, lb, step, tripCount] :
       llvm::zip(*ivs, *lbs, *steps, tripCounts))
    iteration = affine::makeComposedFoldedAffineApply(
        rewriter, loc, d0 * d1 + (d2 - d3).floorDiv(*getConstantIntValue(step)),
        {iteration, tripCount, iv, lb});
  rewriter.replaceOpWithNewOp<memref::ViewOp>(
      alloc, type, scratch,
      getValueOrCreateConstantIndexOp(
          rewriter, loc,
          affine::makeComposedFoldedAffineApply(rewriter, loc, d0 * d1,
                                                {iteration, sliceBytes})),
      alloc.getDynamicSizes());
  return success();
}

/// Places a buffer a kernel's thread allocates. The driver sizes a thread's
/// stack from the kernel's frame: an alloca of run-time size, or one inside
/// a loop (LLVM grows the stack at each iteration), can run past it into an
/// illegal address. So the buffer goes on the stack with a static size: a
/// dynamic size that upstream's bounds analysis bounds by a constant (a
/// partial tile) gets a buffer of that bound, viewed with the size it has,
/// and a buffer no loop carries is allocated once, where the thread's code
/// begins. A buffer of sizes without a constant bound gets a slice of a
/// device scratch buffer instead (placeInScratch).
static LogicalResult placeThreadBuffer(memref::AllocOp alloc,
                                       RewriterBase &rewriter) {
  MemRefType type = alloc.getType();
  Location loc = alloc.getLoc();
  if (!type.getLayout().isIdentity())
    return alloc.emitError(
        "a GPU thread's buffer with a layout cannot be placed");
  SmallVector<int64_t> bounds(type.getShape());
  SmallVector<OpFoldResult> sizes = alloc.getMixedSizes();
  for (auto [bound, size] : llvm::zip(bounds, sizes)) {
    if (!ShapedType::isDynamic(bound))
      continue;
    FailureOr<int64_t> upperBound =
        ValueBoundsConstraintSet::computeConstantBound(
            presburger::BoundType::UB, ValueBoundsConstraintSet::Variable(size),
            /*stopCondition=*/nullptr, /*closedUB=*/true);
    if (failed(upperBound)) {
      LoopLikeOpInterface loop = getHostThreadLoop(alloc);
      if (loop && succeeded(placeInScratch(alloc, loop, rewriter)))
        return success();
      return alloc.emitError(
          "a GPU thread's buffer whose size is neither bounded by a "
          "constant nor known before its kernel starts cannot be placed");
    }
    bound = std::max<int64_t>(*upperBound, 0);
  }
  Operation *thread = alloc->getParentOp();
  while (thread && !isa<scf::ForallOp, scf::ParallelOp, gpu::LaunchOp>(thread))
    thread = thread->getParentOp();
  if (thread && !isCarriedByTerminator(alloc.getResult()))
    rewriter.setInsertionPointToStart(&thread->getRegion(0).front());
  else
    rewriter.setInsertionPoint(alloc);
  Value buffer = memref::AllocaOp::create(
      rewriter, loc,
      MemRefType::get(bounds, type.getElementType(),
                      MemRefLayoutAttrInterface(), type.getMemorySpace()),
      alloc.getAlignmentAttr());
  if (type.hasStaticShape()) {
    rewriter.replaceOp(alloc, buffer);
    return success();
  }
  // The buffer viewed as a dense one of the sizes it has: it fits, each size
  // being at most its bound.
  rewriter.setInsertionPoint(alloc);
  rewriter.replaceOpWithNewOp<memref::ReinterpretCastOp>(
      alloc, type, buffer, rewriter.getIndexAttr(0), sizes,
      memref::computeStridesIRBlock(loc, rewriter, sizes));
  return success();
}

/// Places buffers in device memory: those of kernels' threads first
/// (placeThreadBuffer, which may add host scratch buffers), then the host's:
/// allocations become gpu.alloc, constants are copied into device buffers,
/// and every such buffer is freed before the function returns.
static LogicalResult placeBuffers(func::FuncOp func, RewriterBase &rewriter) {
  SmallVector<memref::AllocOp> threadAllocs;
  func.walk([&](memref::AllocOp alloc) {
    if (!isOnHost(alloc))
      threadAllocs.push_back(alloc);
  });
  for (memref::AllocOp alloc : threadAllocs)
    if (failed(placeThreadBuffer(alloc, rewriter)))
      return failure();

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
    if (alloc->getParentOp() != func) {
      // Host loops and conditionals (scans, attention tiles) allocate their
      // buffers where they use them. A static buffer that does not leave
      // its block is allocated once for the whole function instead.
      if (isCarriedByTerminator(alloc.getResult()))
        return alloc.emitError(
            "this value is carried out of a host loop or conditional in a "
            "new buffer each time, which the GPU pipeline cannot place in "
            "device memory (compute the carried tensor in place, or compile "
            "for the CPU)");
      if (!alloc.getDynamicSizes().empty() ||
          !alloc.getSymbolOperands().empty())
        return alloc.emitError(
            "a buffer allocated inside host control flow cannot be placed "
            "in device memory");
      rewriter.setInsertionPointToStart(&func.getBody().front());
    }
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
  freeBeforeReturns(func, deviceBuffers, rewriter);
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

/// Moves `op` into a one-iteration scf.parallel: a kernel of one thread.
static void moveIntoSingleThreadLoop(Operation *op, RewriterBase &rewriter) {
  Location loc = op->getLoc();
  rewriter.setInsertionPoint(op);
  Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
  Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
  auto single = scf::ParallelOp::create(rewriter, loc, ValueRange{zero},
                                        ValueRange{one}, ValueRange{one});
  rewriter.moveOpBefore(op, single.getBody()->getTerminator());
  rewriter.setInsertionPoint(op);
}

/// Replaces `op` by loops: parallel over its leading parallel iterators
/// when `parallel`, sequential otherwise.
static LogicalResult lowerToLoops(linalg::LinalgOp op, bool parallel,
                                  RewriterBase &rewriter) {
  rewriter.setInsertionPoint(op);
  auto replaceBy = [&](auto loops) -> LogicalResult {
    if (failed(loops))
      return failure();
    rewriter.eraseOp(op);
    return success();
  };
  if (!parallel)
    return replaceBy(linalg::linalgOpToLoops(rewriter, op));
  // Parallel iterators after a reduction would become a parallel loop
  // inside a sequential one, outside the kernel: move them to the front.
  SmallVector<unsigned> parallelFirst;
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  for (bool parallelPass : {true, false})
    for (auto [i, iterator] : llvm::enumerate(iterators))
      if ((iterator == utils::IteratorType::parallel) == parallelPass)
        parallelFirst.push_back(i);
  if (!llvm::is_sorted(parallelFirst)) {
    auto existing = dyn_cast<linalg::GenericOp>(op.getOperation());
    FailureOr<linalg::GenericOp> generic =
        existing ? existing : linalg::generalizeNamedOp(rewriter, op);
    if (failed(generic) ||
        failed(linalg::interchangeGenericOp(rewriter, *generic,
                                            parallelFirst)))
      return failure();
    op = *generic;
  }
  if (op.getNumLoops() == 0 ||
      op.getIteratorTypesArray().front() != utils::IteratorType::parallel) {
    // No parallel iterations to spread: one thread runs the whole op.
    moveIntoSingleThreadLoop(op, rewriter);
    return replaceBy(linalg::linalgOpToLoops(rewriter, op));
  }
  return replaceBy(linalg::linalgOpToParallelLoops(rewriter, op));
}

/// The buffer `value` is a view of, through subviews, casts and reshapes.
static Value getRootBuffer(Value value) {
  while (auto view = value.getDefiningOp<ViewLikeOpInterface>())
    value = view.getViewSource();
  return value;
}

/// Whether `buffer` is host memory: a stack buffer of the host code.
static bool isHostBuffer(Value buffer) {
  Operation *alloca = getRootBuffer(buffer).getDefiningOp<memref::AllocaOp>();
  return alloca && isOnHost(alloca);
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
          !isa<MemoryEffects::Read, MemoryEffects::Write>(effect.getEffect()) ||
          isHostBuffer(value))
        continue;
      op->emitError() << "'" << op->getName()
                      << "' would access device memory from the host";
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

/// Whether each kernel that uses `op`'s results can compute them itself:
/// reads of device memory, views of it and side-effect-free scalar code.
static bool isSinkable(Operation *op) {
  return op->getNumResults() > 0 && op->getNumRegions() == 0 &&
         (isa<memref::LoadOp>(op) || isMemoryEffectFree(op));
}

/// Whether `load` may be moved down to `user`, in the same block: nothing
/// in between touches the buffer it reads, other than by reading it.
static bool canDelayLoad(memref::LoadOp load, Operation *user) {
  Value root = getRootBuffer(load.getMemRef());
  for (Operation *op = load->getNextNode(); op && op != user;
       op = op->getNextNode()) {
    if (isa<memref::LoadOp>(op) || isMemoryEffectFree(op))
      continue;
    WalkResult touches = op->walk([&](Operation *nested) {
      if (isa<memref::LoadOp>(nested) || isMemoryEffectFree(nested))
        return WalkResult::advance();
      for (Value operand : nested->getOperands())
        if (isa<BaseMemRefType>(operand.getType()) &&
            getRootBuffer(operand) == root)
          return WalkResult::interrupt();
      return WalkResult::advance();
    });
    if (touches.wasInterrupted())
      return false;
  }
  return true;
}

/// Bufferization reuses buffers: a value read on the host may be
/// overwritten before the kernels that use it run. Such a value is copied
/// into a buffer of its own (by a one-thread kernel) and read from there.
static void snapshotOverwrittenHostReads(func::FuncOp func,
                                         RewriterBase &rewriter) {
  SmallVector<memref::LoadOp> loads;
  func.walk([&](memref::LoadOp load) {
    if (isOnHost(load))
      loads.push_back(load);
  });
  for (memref::LoadOp load : loads) {
    bool overwritten = llvm::any_of(load->getUsers(), [&](Operation *user) {
      Operation *ancestor = load->getBlock()->findAncestorOpInBlock(*user);
      return ancestor && !canDelayLoad(load, ancestor);
    });
    if (!overwritten)
      continue;
    Location loc = load.getLoc();
    rewriter.setInsertionPointAfter(load);
    Value snapshot = memref::AllocOp::create(
        rewriter, loc, MemRefType::get({}, load.getType()));
    auto store = memref::StoreOp::create(rewriter, loc, load, snapshot);
    Value copy = memref::LoadOp::create(rewriter, loc, snapshot);
    rewriter.replaceAllUsesExcept(load, copy, store);
  }
}

/// Host code that reads device memory to compute a kernel's scalars or
/// views (a row's statistics when a one-row loop was folded away, a runtime
/// offset such as kv_append's position) moves into each kernel that uses
/// it; what is left unused on the host is erased. Reads that host control
/// flow needs stay, and checkHostCode reports them.
static void sinkHostReadsIntoKernels(func::FuncOp func, RewriterBase &rewriter) {
  SmallVector<gpu::LaunchOp> launches;
  func.walk([&](gpu::LaunchOp launch) { launches.push_back(launch); });
  for (gpu::LaunchOp launch : launches) {
    SetVector<Value> usedAbove;
    getUsedValuesDefinedAbove(launch.getBody(), usedAbove);
    SetVector<Operation *> toSink;
    SmallVector<Value> worklist(usedAbove.begin(), usedAbove.end());
    while (!worklist.empty()) {
      Operation *op = worklist.pop_back_val().getDefiningOp();
      if (!op || toSink.contains(op) || op->getBlock() != launch->getBlock() ||
          !isSinkable(op))
        continue;
      if (auto load = dyn_cast<memref::LoadOp>(op);
          load && !canDelayLoad(load, launch))
        continue;
      toSink.insert(op);
      llvm::append_range(worklist, op->getOperands());
    }
    SmallVector<Operation *> ordered(toSink.begin(), toSink.end());
    llvm::sort(ordered, [](Operation *a, Operation *b) {
      return a->isBeforeInBlock(b);
    });
    IRMapping mapping;
    rewriter.setInsertionPointToStart(&launch.getBody().front());
    for (Operation *op : ordered) {
      Operation *clone = rewriter.clone(*op, mapping);
      rewriter.replaceUsesWithIf(op->getResults(), clone->getResults(),
                                 [&](OpOperand &use) {
                                   return launch->isProperAncestor(
                                       use.getOwner());
                                 });
    }
  }
  SmallVector<Operation *> hostOps;
  func.walk([&](Operation *op) {
    if (isOnHost(op) && isSinkable(op))
      hostOps.push_back(op);
  });
  for (Operation *op : llvm::reverse(hostOps))
    if (op->use_empty())
      rewriter.eraseOp(op);
}

/// Reads back each element the host code itself needs from device memory
/// (a loop's or a conditional's condition): a one-thread kernel copies it
/// into a device scalar, which is copied into a host stack scalar and loaded
/// from there. Both scalars are allocated once per read at the function's
/// entry. (gpu.memcpy lowers only for buffers of the identity layout, which
/// the element's view is not.)
static void readBackHostLoads(func::FuncOp func, RewriterBase &rewriter) {
  SmallVector<memref::LoadOp> loads;
  func.walk([&](memref::LoadOp load) {
    if (isOnHost(load) && !isHostBuffer(load.getMemRef()))
      loads.push_back(load);
  });
  SmallVector<Value> deviceScalars;
  for (memref::LoadOp load : loads) {
    Location loc = load.getLoc();
    auto scalarType = MemRefType::get({}, load.getType());
    rewriter.setInsertionPointToStart(&func.getBody().front());
    Value device = createAndWait<gpu::AllocOp>(
                       rewriter, loc,
                       [&](Type token, ValueRange dependencies) {
                         return gpu::AllocOp::create(
                             rewriter, loc, scalarType, token, dependencies,
                             ValueRange(), ValueRange());
                       })
                       .getMemref();
    deviceScalars.push_back(device);
    Value host = memref::AllocaOp::create(rewriter, loc, scalarType);

    rewriter.setInsertionPoint(load);
    Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
    auto launch =
        gpu::LaunchOp::create(rewriter, loc, one, one, one, one, one, one);
    rewriter.setInsertionPointToStart(&launch.getBody().front());
    Value element = memref::LoadOp::create(rewriter, loc, load.getMemRef(),
                                           load.getIndices());
    memref::StoreOp::create(rewriter, loc, element, device);
    gpu::TerminatorOp::create(rewriter, loc);
    rewriter.setInsertionPointAfter(launch);
    createAndWait<gpu::MemcpyOp>(
        rewriter, loc, [&](Type token, ValueRange dependencies) {
          return gpu::MemcpyOp::create(rewriter, loc, token, dependencies, host,
                                       device);
        });
    rewriter.replaceOpWithNewOp<memref::LoadOp>(load, host);
  }
  freeBeforeReturns(func, deviceScalars, rewriter);
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
    // A declaration has no host code to map.
    if (func.isExternal())
      return;
    IRRewriter rewriter(&getContext());

    // Host copies run as kernels like every other linalg op.
    rlx::convertCopiesToLinalg(func, rewriter);
    snapshotOverwrittenHostReads(func, rewriter);

    // Row loops run one block per row where they can; their buffers are
    // placed by the kernel.
    SmallVector<scf::ForallOp> rowLoops;
    func.walk([&](scf::ForallOp forall) {
      if (isOnHost(forall))
        rowLoops.push_back(forall);
    });
    for (scf::ForallOp forall : rowLoops)
      (void)rlx::mapTileLoopToBlocks(forall, blockSize, sharedMemoryBytes,
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
    }

    // Sequential loops of scalar code left on the host (a scan of a single
    // line, whose loop over lines canonicalization folded away) run in a
    // one-thread kernel.
    SmallVector<scf::ForOp> hostLoops;
    func.walk<WalkOrder::PreOrder>([&](scf::ForOp loop) {
      if (!isOnHost(loop))
        return WalkResult::skip();
      WalkResult launchesKernels = loop->walk([](Operation *op) {
        return isa<scf::ParallelOp, gpu::LaunchOp>(op) ? WalkResult::interrupt()
                                                       : WalkResult::advance();
      });
      // A loop whose results the host uses must stay there.
      if (launchesKernels.wasInterrupted() || !loop->use_empty())
        return WalkResult::advance();
      hostLoops.push_back(loop);
      return WalkResult::skip();
    });
    for (scf::ForOp loop : hostLoops)
      moveIntoSingleThreadLoop(loop, rewriter);

    // Scalar stores left on the host (what canonicalization makes of an op
    // over one element) run in a one-thread kernel.
    SmallVector<memref::StoreOp> hostStores;
    func.walk([&](memref::StoreOp store) {
      if (isOnHost(store))
        hostStores.push_back(store);
    });
    for (memref::StoreOp store : hostStores)
      moveIntoSingleThreadLoop(store, rewriter);

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

    sinkHostReadsIntoKernels(func, rewriter);
    readBackHostLoads(func, rewriter);
    if (failed(checkHostCode(func)))
      return signalPassFailure();
  }
};
} // namespace
