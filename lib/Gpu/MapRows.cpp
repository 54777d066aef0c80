//===- MapRows.cpp - Tile loops as one block per iteration ----------------===//
//
// An scf.forall whose iterations work on independent rows or tiles (the row
// loops of row regions, attention's loops over query tiles or kv heads)
// becomes a kernel with one block per iteration. Every thread of the block
// runs the iteration's ops in order:
//
// - per-iteration values (scalar ops, one-element loads) are computed by
//   every thread, so every thread holds them, and control flow on them
//   (scf.for over key tiles, scf.if of a remainder tile) is uniform across
//   the block;
// - a linalg op strides over its parallel iterations: thread t runs
//   iterations t, t + T, t + 2T, ... of T threads, each running the op's
//   reduction loops, if any, sequentially;
// - a reduction without parallel iterations strides over its reduction
//   iterations into a partial result per thread, which gpu.all_reduce
//   combines across the block with the op of the reduction's combiner;
//   every thread folds the total into its copy of the accumulator;
// - one-element buffers (accumulators) are private to each thread; other
//   buffers the iteration allocates, at any depth, live in shared memory, or
//   in a global scratch slice of the iteration when shared memory is short.
//
// Every op gives parallel iteration i to thread i mod T, so an element
// written and then accessed through the same indexing map over the same
// iterations stays in one thread. Any other access to memory that another
// thread may have written, or read before it is overwritten, waits on a
// gpu.barrier.
//
//===----------------------------------------------------------------------===//
#include "Kernels.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/ADT/SmallBitVector.h"

using namespace mlir;
using namespace mlir::rlx;

/// The allocation or argument that view `memref` looks into.
static Value getRoot(Value memref) {
  while (auto view = memref.getDefiningOp<ViewLikeOpInterface>())
    memref = view.getViewSource();
  return memref;
}

static int64_t getProduct(ArrayRef<int64_t> sizes) {
  int64_t product = 1;
  for (int64_t size : sizes)
    product *= size;
  return product;
}

/// A shared buffer of several rows has them padded by 4 bytes, so that
/// threads walking down a column (a transposed tile being written) hit
/// different banks.
static bool isPaddedInShared(MemRefType type) {
  return type.getRank() >= 2 && getProduct(type.getShape().drop_back()) > 1;
}
static SmallVector<int64_t> getSharedShape(MemRefType type) {
  SmallVector<int64_t> shape(type.getShape());
  if (isPaddedInShared(type))
    shape.back() += std::max<int64_t>(1, 32 / type.getElementTypeBitWidth());
  return shape;
}

namespace {
/// Where a kernel keeps a buffer an iteration of the loop allocates.
enum class Placement { Private, Shared, Scratch };

/// A memory access of the iteration's ops, to decide where barriers go. `map`
/// is the indexing map of an access strided over `iterations`; null when every
/// thread reads the same element or one thread writes it.
struct Access {
  Value root;
  Value memref;
  AffineMap map;
  int64_t iterations;
  bool write;

  /// Whether `other`, following this access, may touch memory this access
  /// touched in another thread, with at least one of them writing.
  bool conflictsWith(const Access &other) const {
    if (root != other.root || (!write && !other.write))
      return false;
    return !map || map != other.map || memref != other.memref ||
           iterations != other.iterations;
  }
};

class TileKernel {
public:
  /// With `emulation`, the kernel is built for the CPU instead (see
  /// emulateTileLoopOnCpu).
  TileKernel(scf::ForallOp loop, std::optional<ThreadOrder> emulation)
      : loop(loop), emulation(emulation) {}

  /// Checks that every op of the iteration is handled and plans the kernel.
  LogicalResult analyze(int64_t blockSize, int64_t sharedMemoryBytes);

  /// Replaces the loop with the kernel.
  void emit(RewriterBase &rewriter);

private:
  /// Checks the ops of `block` (the loop's body or a region nested in it)
  /// and collects the buffers it allocates.
  LogicalResult analyzeBlock(Block &block,
                             SmallVectorImpl<memref::AllocOp> &allocs);
  LogicalResult analyzeLinalgOp(linalg::LinalgOp op);
  bool isBuffer(Value value) const {
    auto alloc = value.getDefiningOp<memref::AllocOp>();
    return alloc && loop->isProperAncestor(alloc);
  }
  bool isPrivate(Value memref) const {
    auto it = placements.find(memref);
    return it != placements.end() && it->second == Placement::Private;
  }
  /// Whether the threads of the block share the iterations of `op`.
  bool isStrided(linalg::LinalgOp op) const;
  /// The iterations of `op` its threads stride over: its parallel ones when
  /// each thread runs the reduction loops.
  int64_t getStridedIterations(linalg::LinalgOp op) const;
  /// Spreads the iterations of parallel ops that fill buffers from global
  /// memory so that neighbouring threads read neighbouring elements.
  void chooseThreadOrders();
  /// The iteration of `op` that strided position `linear` stands for.
  SmallVector<Value> getIteration(OpBuilder &b, Location loc,
                                  linalg::LinalgOp op, Value linear);
  /// Finds copies out of buffers that the op writing the buffer's last
  /// value can make itself, writing the copy's target directly.
  void forwardCopies();
  /// The memref `op` accesses through `operand`: for an op whose copy is
  /// forwarded, the copy's target in place of the buffer.
  Value getAccessed(linalg::LinalgOp op, OpOperand &operand) const;

  /// Emits a barrier when `accesses` conflict with the ones since the last
  /// barrier, and records them.
  void synchronize(OpBuilder &b, Location loc, ArrayRef<Access> accesses);
  SmallVector<Access> getAccesses(linalg::LinalgOp op) const;
  /// The accesses of the ops in `region` as a later iteration of `loopOp`
  /// sees them: through views the loop recomputes, any element.
  SmallVector<Access> getLoopAccesses(Region &region, Operation *loopOp) const;

  void emitBlock(OpBuilder &b, Block &block);
  /// Emits scf.for or scf.if `op` with its regions' ops mapped.
  void emitRegionOp(OpBuilder &b, Operation *op);
  void emitLinalgOp(OpBuilder &b, linalg::LinalgOp op);
  void emitBlockReduction(OpBuilder &b, linalg::LinalgOp op,
                          ArrayRef<Value> operands);
  void emitThreadReductions(OpBuilder &b, linalg::LinalgOp op,
                            ArrayRef<Value> operands);
  Value createIndex(OpBuilder &b, Location loc, int64_t value) {
    return arith::ConstantIndexOp::create(b, loc, value);
  }

  // What depends on the thread: on the GPU, nothing to do; emulated, a loop
  // over the threads that `exitThreads` (a barrier) closes.
  void enterThreads(OpBuilder &b, Location loc);
  void exitThreads(OpBuilder &b);
  /// Clones `op`, the same in every thread, where the block's threads all
  /// see it.
  void cloneUniform(OpBuilder &b, Operation &op);

  scf::ForallOp loop;
  std::optional<ThreadOrder> emulation;
  SmallVector<int64_t> tileCounts;
  int64_t threads = 0;
  DenseMap<Operation *, SmallVector<int64_t>> loopRanges;
  /// Reductions without parallel iterations, combined across the block.
  DenseMap<Operation *, SmallVector<BlockReduction>> blockReductions;
  /// Ops whose threads stride over parallel iterations, each running the
  /// reduction loops.
  DenseSet<Operation *> threadReductions;
  /// The loops of parallel ops in the order their iterations are spread
  /// over the threads (the last fastest), where it is not the ops' own.
  DenseMap<Operation *, SmallVector<unsigned>> threadOrders;
  llvm::MapVector<Value, Placement> placements;
  /// Ops writing the target of a forwarded copy, and the copies.
  DenseMap<Operation *, Operation *> forwardedCopies;
  /// The forwarded copies, which are not emitted.
  DenseSet<Operation *> forwarded;
  /// Buffers only forwarded copies read: not allocated.
  DenseSet<Value> elidedBuffers;

  // While emitting.
  IRMapping mapping;
  Value threadId;
  /// Emulated: the loop over the threads being emitted, if any.
  scf::ForOp threadLoop;
  /// Emulated: the loop over the blocks.
  scf::ForOp tileLoop;
  SmallVector<Access> pending;
};
} // namespace

LogicalResult TileKernel::analyzeLinalgOp(linalg::LinalgOp op) {
  std::optional<SmallVector<int64_t>> ranges = getStaticLoopRanges(op);
  if (!ranges || !hasScalarPayload(op))
    return failure();
  loopRanges[op] = *ranges;
  if (op.getNumReductionLoops() == 0)
    return success();
  int64_t parallelIterations = 1;
  for (auto [range, iterator] : llvm::zip(*ranges, op.getIteratorTypesArray()))
    if (iterator == utils::IteratorType::parallel)
      parallelIterations *= range;
  if (parallelIterations > 1) {
    threadReductions.insert(op);
    return success();
  }
  FailureOr<SmallVector<BlockReduction>> combined = matchBlockReductions(op);
  if (failed(combined))
    return failure();
  blockReductions[op] = std::move(*combined);
  return success();
}

bool TileKernel::isStrided(linalg::LinalgOp op) const {
  if (blockReductions.contains(op) || threadReductions.contains(op))
    return true;
  if (getProduct(loopRanges.lookup(op)) > 1)
    return true;
  return llvm::any_of(op.getDpsInits(),
                      [&](Value init) { return !isPrivate(init); });
}

int64_t TileKernel::getStridedIterations(linalg::LinalgOp op) const {
  SmallVector<int64_t> ranges = loopRanges.lookup(op);
  if (!threadReductions.contains(op))
    return getProduct(ranges);
  int64_t iterations = 1;
  for (auto [range, iterator] : llvm::zip(ranges, op.getIteratorTypesArray()))
    if (iterator == utils::IteratorType::parallel)
      iterations *= range;
  return iterations;
}

LogicalResult
TileKernel::analyzeBlock(Block &block,
                         SmallVectorImpl<memref::AllocOp> &allocs) {
  for (Operation &op : block.without_terminator()) {
    if (auto alloc = dyn_cast<memref::AllocOp>(op)) {
      MemRefType type = alloc.getType();
      if (!type.hasStaticShape() || !type.getLayout().isIdentity() ||
          !type.getElementType().isIntOrFloat() || type.getMemorySpace())
        return failure();
      // Views of buffers would change type with the buffers' placement.
      bool handledUses = llvm::all_of(alloc->getUsers(), [](Operation *user) {
        return isa<linalg::LinalgOp, memref::LoadOp, memref::StoreOp>(user);
      });
      if (!handledUses)
        return failure();
      allocs.push_back(alloc);
      continue;
    }
    if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op)) {
      if (failed(analyzeLinalgOp(linalgOp)))
        return failure();
      continue;
    }
    if (isa<memref::LoadOp, memref::StoreOp>(op))
      continue;
    // Loops and conditionals on per-iteration values, which every thread
    // holds: the whole block takes the same path.
    if (isa<scf::ForOp, scf::IfOp>(op) && op.getNumResults() == 0) {
      for (Region &region : op.getRegions())
        for (Block &nested : region)
          if (failed(analyzeBlock(nested, allocs)))
            return failure();
      continue;
    }
    if (op.getNumRegions() != 0 || !isMemoryEffectFree(&op))
      return failure();
  }
  return success();
}

LogicalResult TileKernel::analyze(int64_t blockSize,
                                  int64_t sharedMemoryBytes) {
  if (loop.getMapping() || loop.getNumResults() != 0 ||
      !loop.getTerminator().getYieldingOps().empty())
    return failure();
  for (auto [lb, ub, step] :
       llvm::zip(loop.getStaticLowerBound(), loop.getStaticUpperBound(),
                 loop.getStaticStep())) {
    if (ShapedType::isDynamic(lb) || ShapedType::isDynamic(ub) ||
        ShapedType::isDynamic(step) || step <= 0)
      return failure();
    tileCounts.push_back(llvm::divideCeil(std::max<int64_t>(ub - lb, 0), step));
  }
  int64_t tiles = getProduct(tileCounts);
  if (tiles <= 0 || tiles > std::numeric_limits<int32_t>::max())
    return failure();

  SmallVector<memref::AllocOp> allocs;
  if (failed(analyzeBlock(*loop.getBody(), allocs)))
    return failure();

  // One-element buffers are private copies when every op writing them is
  // a block reduction or one iteration writing only such buffers, which
  // every thread then runs.
  auto isOneElementBuffer = [&](Value value) {
    return isBuffer(value) &&
           cast<MemRefType>(value.getType()).getNumElements() == 1;
  };
  for (memref::AllocOp alloc : allocs) {
    bool writtenByAll = llvm::all_of(alloc->getUsers(), [&](Operation *user) {
      auto linalgOp = dyn_cast<linalg::LinalgOp>(user);
      if (!linalgOp ||
          !llvm::is_contained(linalgOp.getDpsInits(), alloc.getResult()))
        return true;
      return blockReductions.contains(linalgOp) ||
             (getProduct(loopRanges.lookup(linalgOp)) == 1 &&
              llvm::all_of(linalgOp.getDpsInits(), isOneElementBuffer));
    });
    if (alloc.getType().getNumElements() == 1 && writtenByAll)
      placements[alloc] = Placement::Private;
  }
  for (auto &[op, unused] : blockReductions)
    for (Value init : cast<linalg::LinalgOp>(op).getDpsInits())
      if (!isPrivate(init))
        return failure();

  int64_t widest = 0;
  for (auto &[op, ranges] : loopRanges)
    if (isStrided(cast<linalg::LinalgOp>(op)))
      widest =
          std::max(widest, getStridedIterations(cast<linalg::LinalgOp>(op)));
  // Rows shorter than a warp are better one per thread.
  if (widest < kWarpSize)
    return failure();
  threads = std::min<int64_t>(blockSize, llvm::alignTo(widest, kWarpSize));

  forwardCopies();
  chooseThreadOrders();

  // Upstream's lowering gives each gpu.all_reduce a 32-element shared
  // buffer of its type.
  int64_t sharedBytes = 0;
  for (auto &[op, combined] : blockReductions)
    for (const BlockReduction &reduction : combined)
      sharedBytes +=
          kWarpSize *
          reduction.combiner->getResult(0).getType().getIntOrFloatBitWidth() /
          8;
  // Buffers in loops are used most: they get shared memory first.
  auto getLoopDepth = [&](memref::AllocOp alloc) {
    int64_t depth = 0;
    for (Operation *parent = alloc->getParentOp(); parent != loop;
         parent = parent->getParentOp())
      depth += isa<scf::ForOp>(parent);
    return depth;
  };
  SmallVector<std::pair<int64_t, size_t>> byDepth;
  for (auto [i, alloc] : llvm::enumerate(allocs))
    byDepth.push_back({-getLoopDepth(alloc), i});
  llvm::sort(byDepth);
  for (size_t i : llvm::make_second_range(byDepth)) {
    memref::AllocOp alloc = allocs[i];
    if (isPrivate(alloc) || elidedBuffers.contains(alloc))
      continue;
    MemRefType type = alloc.getType();
    int64_t bytes = getProduct(getSharedShape(type)) *
                    llvm::divideCeil(type.getElementTypeBitWidth(), 8);
    bool fits = sharedBytes + bytes <= sharedMemoryBytes;
    if (fits)
      sharedBytes += bytes;
    placements[alloc] = fits ? Placement::Shared : Placement::Scratch;
  }
  return success();
}

void TileKernel::chooseThreadOrders() {
  for (auto &[operation, ranges] : loopRanges) {
    auto op = cast<linalg::LinalgOp>(operation);
    if (op.getNumReductionLoops() != 0 || op.getNumLoops() < 2 ||
        !isStrided(op) || forwardedCopies.contains(op) ||
        !llvm::all_of(op.getDpsInits(),
                      [&](Value init) { return isBuffer(init); }))
      continue;
    for (OpOperand *input : op.getDpsInputOperands()) {
      auto type = dyn_cast<MemRefType>(input->get().getType());
      if (!type || type.getRank() == 0 || isBuffer(input->get()) ||
          !type.isLastDimUnitStride())
        continue;
      auto dim = dyn_cast<AffineDimExpr>(
          op.getMatchingIndexingMap(input).getResults().back());
      if (!dim || dim.getPosition() == op.getNumLoops() - 1)
        continue;
      // The loop along the input's contiguous dimension goes last (a
      // transposed copy reads rows, writing columns of a padded buffer).
      SmallVector<unsigned> order;
      for (unsigned loop = 0; loop < op.getNumLoops(); ++loop)
        if (loop != dim.getPosition())
          order.push_back(loop);
      order.push_back(dim.getPosition());
      threadOrders[op] = std::move(order);
      break;
    }
  }
}

SmallVector<Value> TileKernel::getIteration(OpBuilder &b, Location loc,
                                            linalg::LinalgOp op, Value linear) {
  SmallVector<int64_t> ranges = loopRanges.lookup(op);
  auto it = threadOrders.find(op);
  if (it == threadOrders.end())
    return delinearize(b, loc, linear, ranges);
  SmallVector<int64_t> orderedRanges;
  for (unsigned loop : it->second)
    orderedRanges.push_back(ranges[loop]);
  SmallVector<Value> ivs(ranges.size());
  for (auto [loop, iv] :
       llvm::zip(it->second, delinearize(b, loc, linear, orderedRanges)))
    ivs[loop] = iv;
  return ivs;
}

void TileKernel::forwardCopies() {
  Block *body = loop.getBody();
  // Buffers the loop body itself allocates and uses.
  auto isBodyBuffer = [&](Value value) {
    auto alloc = value.getDefiningOp<memref::AllocOp>();
    return alloc && alloc->getBlock() == body &&
           llvm::all_of(alloc->getUsers(), [&](Operation *user) {
             return user->getBlock() == body;
           });
  };
  for (auto copy : body->getOps<linalg::CopyOp>()) {
    Value buffer = copy.getInputs().front();
    Value target = copy.getOutputs().front();
    if (!isBodyBuffer(buffer) || isPrivate(buffer) || isBuffer(target))
      continue;
    // The copy is the buffer's last use; the use before it writes it.
    Operation *writer = nullptr;
    bool usedAfter = false;
    for (Operation *user : buffer.getUsers()) {
      if (user == copy)
        continue;
      if (copy->isBeforeInBlock(user))
        usedAfter = true;
      else if (!writer || writer->isBeforeInBlock(user))
        writer = user;
    }
    auto writerOp = dyn_cast_or_null<linalg::LinalgOp>(writer);
    if (usedAfter || !writerOp || blockReductions.contains(writerOp) ||
        threadReductions.contains(writerOp) ||
        forwardedCopies.contains(writerOp) || writerOp.getNumDpsInits() != 1 ||
        writerOp.getDpsInits().front() != buffer)
      continue;
    // Iteration i of the writer writes the element iteration i of the copy
    // copies, and the writer does not read what it overwrites.
    OpOperand &init = writerOp.getDpsInitsMutable()[0];
    if (!writerOp.getMatchingBlockArgument(&init).use_empty() ||
        writerOp.getMatchingIndexingMap(&init) !=
            copy.getMatchingIndexingMap(copy.getDpsInputOperand(0)) ||
        loopRanges.lookup(writerOp) != loopRanges.lookup(copy))
      continue;
    // Nothing between them touches memory, and the target can be computed
    // where the writer runs.
    bool quietBetween = true;
    for (Operation *op = writer->getNextNode(); op != copy;
         op = op->getNextNode())
      quietBetween &= isMemoryEffectFree(op);
    Operation *targetDef = target.getDefiningOp();
    auto isReady = [&](Value value) {
      Operation *def = value.getDefiningOp();
      return !def || def->getBlock() != body || def->isBeforeInBlock(writer);
    };
    bool targetReady =
        isReady(target) || (isMemoryEffectFree(targetDef) &&
                            llvm::all_of(targetDef->getOperands(), isReady));
    if (!quietBetween || !targetReady)
      continue;
    forwardedCopies[writerOp] = copy;
    if (llvm::all_of(buffer.getUsers(), [&](Operation *user) {
          return user == copy || user == writer;
        }))
      elidedBuffers.insert(buffer);
  }
}

Value TileKernel::getAccessed(linalg::LinalgOp op, OpOperand &operand) const {
  auto it = forwardedCopies.find(op);
  if (it != forwardedCopies.end() && op.isDpsInit(&operand))
    return cast<linalg::CopyOp>(it->second).getOutputs().front();
  return operand.get();
}

SmallVector<Access> TileKernel::getAccesses(linalg::LinalgOp op) const {
  bool strided = isStrided(op);
  int64_t iterations = getStridedIterations(op);
  // With reductions in each thread, an operand the reduction loops do not
  // index is accessed per parallel iteration, as by an op over those alone;
  // one they index, by every thread anywhere.
  llvm::SmallBitVector reductionDims(op.getNumLoops());
  if (threadReductions.contains(op))
    for (auto [dim, iterator] : llvm::enumerate(op.getIteratorTypesArray()))
      if (iterator == utils::IteratorType::reduction)
        reductionDims.set(dim);
  SmallVector<Access> accesses;
  for (OpOperand &operand : op->getOpOperands()) {
    Value memref = getAccessed(op, operand);
    if (!isa<MemRefType>(memref.getType()) || isPrivate(memref))
      continue;
    bool init = op.isDpsInit(&operand);
    bool read = !op.getMatchingBlockArgument(&operand).use_empty();
    AffineMap map;
    if (strided) {
      map = op.getMatchingIndexingMap(&operand);
      // Threads take iterations in the order of the reordered loops.
      if (auto it = threadOrders.find(op); it != threadOrders.end())
        map = map.compose(inversePermutation(
            AffineMap::getPermutationMap(it->second, op.getContext())));
      if (reductionDims.any()) {
        bool indexedByReductions =
            llvm::any_of(reductionDims.set_bits(), [&](unsigned dim) {
              return map.isFunctionOfDim(dim);
            });
        map = indexedByReductions ? AffineMap()
                                  : compressDims(map, reductionDims);
      }
    }
    if (read)
      accesses.push_back({getRoot(memref), memref, map, iterations, false});
    if (init)
      accesses.push_back({getRoot(memref), memref, map, iterations, true});
  }
  return accesses;
}

SmallVector<Access> TileKernel::getLoopAccesses(Region &region,
                                                Operation *loopOp) const {
  SmallVector<Access> accesses;
  region.walk([&](Operation *op) {
    if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op)) {
      llvm::append_range(accesses, getAccesses(linalgOp));
      return;
    }
    Value memref;
    if (auto load = dyn_cast<memref::LoadOp>(op))
      memref = load.getMemRef();
    else if (auto store = dyn_cast<memref::StoreOp>(op))
      memref = store.getMemRef();
    if (memref && !isPrivate(memref))
      accesses.push_back(
          {getRoot(memref), memref, AffineMap(), 0, isa<memref::StoreOp>(op)});
  });
  // A view the loop computes may look at other elements in each iteration.
  for (Access &access : accesses)
    if (Operation *def = access.memref.getDefiningOp();
        def && !isa<memref::AllocOp>(def) && loopOp->isProperAncestor(def))
      access.map = AffineMap();
  return accesses;
}

void TileKernel::synchronize(OpBuilder &b, Location loc,
                             ArrayRef<Access> accesses) {
  bool conflict = llvm::any_of(accesses, [&](const Access &access) {
    return llvm::any_of(pending, [&](const Access &earlier) {
      return earlier.conflictsWith(access);
    });
  });
  if (conflict) {
    if (emulation)
      exitThreads(b);
    else
      gpu::BarrierOp::create(b, loc);
    pending.clear();
  }
  llvm::append_range(pending, accesses);
}

void TileKernel::emitBlockReduction(OpBuilder &b, linalg::LinalgOp op,
                                    ArrayRef<Value> operands) {
  Location loc = op.getLoc();
  ArrayRef<BlockReduction> combined = blockReductions.find(op)->second;
  SmallVector<int64_t> ranges = loopRanges.lookup(op);
  // The accumulators are private: emulated, written outside thread loops.
  OpBuilder uniform = threadLoop ? OpBuilder(threadLoop) : b;
  SmallVector<Value> zeros(ranges.size(), createIndex(uniform, loc, 0));
  SmallVector<Value> accumulators, neutrals;
  for (auto [init, reduction] : llvm::zip(op.getDpsInitsMutable(), combined)) {
    accumulators.push_back(memref::LoadOp::create(
        uniform, loc, operands[init.getOperandNumber()],
        applyIndexingMap(uniform, loc, op.getMatchingIndexingMap(&init),
                         zeros)));
    neutrals.push_back(
        arith::ConstantOp::create(uniform, loc, reduction.neutral));
  }
  // Each thread's part of the row, from the neutral element.
  auto emitPartials = [&](OpBuilder &b) {
    return scf::ForOp::create(
        b, loc, threadId, createIndex(b, loc, getProduct(ranges)),
        createIndex(b, loc, threads), neutrals,
        [&](OpBuilder &nested, Location nestedLoc, Value iv, ValueRange args) {
          SmallVector<Value> ivs = delinearize(nested, nestedLoc, iv, ranges);
          scf::YieldOp::create(nested, nestedLoc,
                               emitPayload(nested, nestedLoc, op, ivs, operands,
                                           args, &mapping));
        });
  };
  SmallVector<Value> totals;
  if (emulation) {
    // The threads leave their partial results in a buffer, and the block's
    // total is folded from them in thread order.
    OpBuilder outside(tileLoop);
    SmallVector<Value> partialBuffers;
    for (Value neutral : neutrals)
      partialBuffers.push_back(memref::AllocOp::create(
          outside, loc, MemRefType::get({threads}, neutral.getType())));
    enterThreads(b, loc);
    for (auto [partial, buffer] :
         llvm::zip(emitPartials(b).getResults(), partialBuffers))
      memref::StoreOp::create(b, loc, partial, buffer, threadId);
    exitThreads(b);
    for (auto [i, init, reduction] :
         llvm::enumerate(op.getDpsInitsMutable(), combined)) {
      BlockArgument outArg = op.getMatchingBlockArgument(&init);
      Value partialBuffer = partialBuffers[i];
      const BlockReduction &combiner = reduction;
      totals.push_back(
          scf::ForOp::create(
              b, loc, createIndex(b, loc, 0), createIndex(b, loc, threads),
              createIndex(b, loc, 1), ValueRange{neutrals[i]},
              [&](OpBuilder &nested, Location nestedLoc, Value thread,
                  ValueRange args) {
                Value partial = memref::LoadOp::create(nested, nestedLoc,
                                                       partialBuffer, thread);
                scf::YieldOp::create(nested, nestedLoc,
                                     foldBlockTotal(nested, combiner, outArg,
                                                    args.front(), partial,
                                                    mapping));
              })
              .getResult(0));
    }
  } else {
    scf::ForOp partials = emitPartials(b);
    for (auto [partial, reduction] : llvm::zip(partials.getResults(), combined))
      totals.push_back(gpu::AllReduceOp::create(
          b, loc, partial,
          gpu::AllReduceOperationAttr::get(b.getContext(), reduction.operation),
          /*uniform=*/b.getUnitAttr()));
  }
  for (auto [i, init, reduction] :
       llvm::enumerate(op.getDpsInitsMutable(), combined)) {
    Value total = totals[i];
    Value folded =
        foldBlockTotal(b, reduction, op.getMatchingBlockArgument(&init),
                       accumulators[i], total, mapping);
    memref::StoreOp::create(
        b, loc, folded, operands[init.getOperandNumber()],
        applyIndexingMap(b, loc, op.getMatchingIndexingMap(&init), zeros));
  }
}

void TileKernel::emitThreadReductions(OpBuilder &b, linalg::LinalgOp op,
                                      ArrayRef<Value> operands) {
  Location loc = op.getLoc();
  SmallVector<int64_t> parallelRanges, reductionRanges;
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  for (auto [range, iterator] : llvm::zip(loopRanges.lookup(op), iterators))
    (iterator == utils::IteratorType::parallel ? parallelRanges
                                               : reductionRanges)
        .push_back(range);
  // The op's iteration from its parallel and reduction indices.
  auto merge = [&](ValueRange parallelIvs, ValueRange reductionIvs) {
    SmallVector<Value> ivs;
    for (utils::IteratorType iterator : iterators) {
      bool parallel = iterator == utils::IteratorType::parallel;
      ivs.push_back(parallel ? parallelIvs.front() : reductionIvs.front());
      (parallel ? parallelIvs : reductionIvs) =
          (parallel ? parallelIvs : reductionIvs).drop_front();
    }
    return ivs;
  };
  scf::ForOp::create(
      b, loc, threadId, createIndex(b, loc, getProduct(parallelRanges)),
      createIndex(b, loc, threads), ValueRange(),
      [&](OpBuilder &nested, Location nestedLoc, Value iv, ValueRange) {
        SmallVector<Value> parallelIvs =
            delinearize(nested, nestedLoc, iv, parallelRanges);
        SmallVector<Value> first = merge(
            parallelIvs, SmallVector<Value>(reductionRanges.size(),
                                            createIndex(nested, nestedLoc, 0)));
        SmallVector<Value> accumulators;
        for (OpOperand &init : op.getDpsInitsMutable())
          accumulators.push_back(memref::LoadOp::create(
              nested, nestedLoc, operands[init.getOperandNumber()],
              applyIndexingMap(nested, nestedLoc,
                               op.getMatchingIndexingMap(&init), first)));
        auto reduced = scf::ForOp::create(
            nested, nestedLoc, createIndex(nested, nestedLoc, 0),
            createIndex(nested, nestedLoc, getProduct(reductionRanges)),
            createIndex(nested, nestedLoc, 1), accumulators,
            [&](OpBuilder &inner, Location innerLoc, Value reductionIv,
                ValueRange args) {
              SmallVector<Value> ivs =
                  merge(parallelIvs, delinearize(inner, innerLoc, reductionIv,
                                                 reductionRanges));
              scf::YieldOp::create(inner, innerLoc,
                                   emitPayload(inner, innerLoc, op, ivs,
                                               operands, args, &mapping));
            });
        storeResults(nested, nestedLoc, op, first, operands,
                     reduced.getResults());
        scf::YieldOp::create(nested, nestedLoc);
      });
}

void TileKernel::emitLinalgOp(OpBuilder &b, linalg::LinalgOp op) {
  Location loc = op.getLoc();
  SmallVector<Value> operands;
  for (OpOperand &operand : op->getOpOperands()) {
    Value accessed = getAccessed(op, operand);
    // A forwarded copy's target may be a view the loop defines later.
    if (Operation *def = accessed.getDefiningOp();
        def && def->getBlock() == loop.getBody() && !mapping.contains(accessed))
      cloneUniform(b, *def);
    operands.push_back(mapping.lookupOrDefault(accessed));
  }
  synchronize(b, loc, getAccesses(op));
  if (blockReductions.contains(op))
    return emitBlockReduction(b, op, operands);
  enterThreads(b, loc);
  if (threadReductions.contains(op))
    return emitThreadReductions(b, op, operands);
  SmallVector<int64_t> ranges = loopRanges.lookup(op);
  if (!isStrided(op)) {
    // One iteration writing private buffers: every thread runs it
    // (emulated, once: the threads' copies are one).
    exitThreads(b);
    SmallVector<Value> zeros(ranges.size(), createIndex(b, loc, 0));
    storeResults(b, loc, op, zeros, operands,
                 emitPayload(b, loc, op, zeros, operands, {}, &mapping));
    return;
  }
  scf::ForOp::create(
      b, loc, threadId, createIndex(b, loc, getProduct(ranges)),
      createIndex(b, loc, threads), ValueRange(),
      [&](OpBuilder &nested, Location nestedLoc, Value iv, ValueRange) {
        SmallVector<Value> ivs = getIteration(nested, nestedLoc, op, iv);
        storeResults(
            nested, nestedLoc, op, ivs, operands,
            emitPayload(nested, nestedLoc, op, ivs, operands, {}, &mapping));
        scf::YieldOp::create(nested, nestedLoc);
      });
}

void TileKernel::emitRegionOp(OpBuilder &b, Operation *op) {
  // A loop's body may follow itself; a conditional's regions are
  // alternatives, after either of which come the accesses it left pending.
  bool isLoop = isa<scf::ForOp>(op);
  SmallVector<Access> before = pending, after;
  Operation *clone = b.cloneWithoutRegions(*op, mapping);
  for (auto [region, cloneRegion] :
       llvm::zip(op->getRegions(), clone->getRegions())) {
    if (region.empty()) {
      llvm::append_range(after, before);
      continue;
    }
    pending = before;
    if (isLoop)
      llvm::append_range(pending, getLoopAccesses(region, op));
    Block &block = region.front();
    Block *cloneBlock = new Block();
    cloneRegion.push_back(cloneBlock);
    for (BlockArgument arg : block.getArguments())
      mapping.map(arg, cloneBlock->addArgument(arg.getType(), arg.getLoc()));
    OpBuilder nested = OpBuilder::atBlockEnd(cloneBlock);
    emitBlock(nested, block);
    exitThreads(nested);
    nested.clone(*block.getTerminator(), mapping);
    llvm::append_range(after, pending);
  }
  if (isLoop)
    llvm::append_range(after, before);
  pending = std::move(after);
}

void TileKernel::emitBlock(OpBuilder &b, Block &block) {
  for (Operation &op : block.without_terminator()) {
    // Allocations are placed, forwarded copies made by their writers, and
    // views of their targets may already be there.
    bool emitted = op.getNumResults() != 0 &&
                   llvm::all_of(op.getResults(),
                                [&](Value v) { return mapping.contains(v); });
    if (isa<memref::AllocOp>(op) || forwarded.contains(&op) || emitted)
      continue;
    if (isa<scf::ForOp, scf::IfOp>(op)) {
      exitThreads(b);
      emitRegionOp(b, &op);
      continue;
    }
    if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op)) {
      emitLinalgOp(b, linalgOp);
      continue;
    }
    if (auto load = dyn_cast<memref::LoadOp>(op);
        load && !isPrivate(load.getMemRef())) {
      Value memref = load.getMemRef();
      synchronize(b, op.getLoc(),
                  {{getRoot(memref), memref, AffineMap(), 0, false}});
    }
    // Emulated, the threads' private copies are one, which every thread
    // has written once it is read or written outside a strided op.
    if (isa<memref::LoadOp, memref::StoreOp>(op) &&
        llvm::any_of(op.getOperands(),
                     [&](Value operand) { return isPrivate(operand); }))
      exitThreads(b);
    if (auto store = dyn_cast<memref::StoreOp>(op);
        store && !isPrivate(store.getMemRef())) {
      // One thread writes what every thread computed.
      Value memref = store.getMemRef();
      synchronize(b, op.getLoc(),
                  {{getRoot(memref), memref, AffineMap(), 0, true}});
      enterThreads(b, op.getLoc());
      Value first =
          arith::CmpIOp::create(b, op.getLoc(), arith::CmpIPredicate::eq,
                                threadId, createIndex(b, op.getLoc(), 0));
      scf::IfOp::create(b, op.getLoc(), first,
                        [&](OpBuilder &nested, Location nestedLoc) {
                          nested.clone(op, mapping);
                          scf::YieldOp::create(nested, nestedLoc);
                        });
      continue;
    }
    cloneUniform(b, op);
  }
}

void TileKernel::enterThreads(OpBuilder &b, Location loc) {
  if (!emulation || threadLoop)
    return;
  threadLoop =
      scf::ForOp::create(b, loc, createIndex(b, loc, 0),
                         createIndex(b, loc, threads), createIndex(b, loc, 1));
  b.setInsertionPoint(threadLoop.getBody()->getTerminator());
  threadId = threadLoop.getInductionVar();
  if (*emulation == ThreadOrder::Descending)
    threadId = arith::SubIOp::create(b, loc, createIndex(b, loc, threads - 1),
                                     threadId);
}

void TileKernel::exitThreads(OpBuilder &b) {
  if (!threadLoop)
    return;
  b.setInsertionPointAfter(threadLoop);
  threadLoop = nullptr;
}

void TileKernel::cloneUniform(OpBuilder &b, Operation &op) {
  if (!threadLoop) {
    b.clone(op, mapping);
    return;
  }
  OpBuilder beforeThreads(threadLoop);
  beforeThreads.clone(op, mapping);
}

void TileKernel::emit(RewriterBase &rewriter) {
  Location loc = loop.getLoc();
  MLIRContext *context = loop.getContext();
  rewriter.setInsertionPoint(loop);
  int64_t tiles = getProduct(tileCounts);

  // Scratch buffers hold one slice per iteration; shared ones are
  // attributions (emulated: buffers the blocks take turns with).
  DenseMap<Value, Value> scratch;
  SmallVector<Type> workgroupTypes;
  SmallVector<Value> sharedBuffers;
  for (auto &[buffer, placement] : placements) {
    auto type = cast<MemRefType>(buffer.getType());
    if (placement == Placement::Shared) {
      SmallVector<int64_t> shape = getSharedShape(type);
      if (emulation)
        sharedBuffers.push_back(memref::AllocOp::create(
            rewriter, loc, MemRefType::get(shape, type.getElementType())));
      else
        workgroupTypes.push_back(MemRefType::get(
            shape, type.getElementType(), AffineMap(),
            gpu::AddressSpaceAttr::get(context, gpu::AddressSpace::Workgroup)));
    } else if (placement == Placement::Scratch) {
      SmallVector<int64_t> shape = {tiles};
      llvm::append_range(shape, type.getShape());
      scratch[buffer] = memref::AllocOp::create(
          rewriter, loc, MemRefType::get(shape, type.getElementType()));
    }
  }

  OpBuilder b(context);
  Value tile;
  if (emulation) {
    tileLoop = scf::ForOp::create(rewriter, loc, createIndex(rewriter, loc, 0),
                                  createIndex(rewriter, loc, tiles),
                                  createIndex(rewriter, loc, 1));
    b.setInsertionPoint(tileLoop.getBody()->getTerminator());
    tile = tileLoop.getInductionVar();
  } else {
    gpu::LaunchOp launch =
        createLaunch(rewriter, loc, tiles, threads, workgroupTypes);
    b.setInsertionPointToStart(&launch.getBody().front());
    threadId = launch.getThreadIds().x;
    tile = launch.getBlockIds().x;
    llvm::append_range(sharedBuffers, launch.getWorkgroupAttributions());
  }

  SmallVector<Value> tileIvs = delinearize(b, loc, tile, tileCounts);
  for (auto [iv, tileIv, lb, step] :
       llvm::zip(loop.getInductionVars(), tileIvs, loop.getStaticLowerBound(),
                 loop.getStaticStep())) {
    AffineExpr d0 = b.getAffineDimExpr(0);
    mapping.map(iv, getValueOrCreateConstantIndexOp(
                        b, loc,
                        affine::makeComposedFoldedAffineApply(
                            b, loc, d0 * step + lb, {OpFoldResult(tileIv)})));
  }

  unsigned nextShared = 0;
  for (auto &[buffer, placement] : placements) {
    auto type = cast<MemRefType>(buffer.getType());
    switch (placement) {
    case Placement::Private:
      if (emulation) {
        OpBuilder outside(tileLoop);
        mapping.map(buffer, memref::AllocOp::create(outside, loc, type));
      } else {
        mapping.map(buffer, memref::AllocaOp::create(b, loc, type));
      }
      break;
    case Placement::Shared: {
      Value shared = sharedBuffers[nextShared++];
      if (isPaddedInShared(type))
        shared = memref::SubViewOp::create(
            b, loc, shared,
            SmallVector<OpFoldResult>(type.getRank(), b.getIndexAttr(0)),
            getAsIndexOpFoldResult(context, type.getShape()),
            SmallVector<OpFoldResult>(type.getRank(), b.getIndexAttr(1)));
      mapping.map(buffer, shared);
      break;
    }
    case Placement::Scratch: {
      SmallVector<OpFoldResult> offsets(type.getRank() + 1, b.getIndexAttr(0));
      offsets.front() = tile;
      SmallVector<OpFoldResult> sizes = {b.getIndexAttr(1)};
      for (int64_t size : type.getShape())
        sizes.push_back(b.getIndexAttr(size));
      SmallVector<OpFoldResult> strides(type.getRank() + 1, b.getIndexAttr(1));
      Value slices = scratch.lookup(buffer);
      auto sliceType = memref::SubViewOp::inferRankReducedResultType(
          type.getShape(), cast<MemRefType>(slices.getType()), offsets, sizes,
          strides);
      mapping.map(buffer, memref::SubViewOp::create(b, loc, sliceType, slices,
                                                    offsets, sizes, strides)
                              .getResult());
      break;
    }
    }
  }

  for (auto &[writer, copy] : forwardedCopies)
    forwarded.insert(copy);
  emitBlock(b, *loop.getBody());
  exitThreads(b);
  rewriter.eraseOp(loop);
}

LogicalResult rlx::mapTileLoopToBlocks(scf::ForallOp loop, int64_t blockSize,
                                       int64_t sharedMemoryBytes,
                                       RewriterBase &rewriter) {
  TileKernel kernel(loop, /*emulation=*/std::nullopt);
  if (failed(kernel.analyze(blockSize, sharedMemoryBytes)))
    return failure();
  kernel.emit(rewriter);
  return success();
}

LogicalResult rlx::emulateTileLoopOnCpu(scf::ForallOp loop, int64_t blockSize,
                                        int64_t sharedMemoryBytes,
                                        ThreadOrder order,
                                        RewriterBase &rewriter) {
  TileKernel kernel(loop, order);
  if (failed(kernel.analyze(blockSize, sharedMemoryBytes)))
    return failure();
  kernel.emit(rewriter);
  return success();
}
