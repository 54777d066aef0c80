//===- MapRows.cpp - Row loops as one block per row -----------------------===//
//
// A row loop (the scf.forall a row region lowers to) becomes a kernel with
// one block per row. Every thread of the block runs the row's ops in order:
//
// - per-row values (scalar ops, one-element loads) are computed by every
//   thread, so every thread holds them;
// - a linalg op over the row strides over its iterations: thread t runs
//   iterations t, t + T, t + 2T, ... of T threads;
// - a reduction strides the same way into a partial result per thread,
//   which gpu.all_reduce combines across the block with the op of the
//   reduction's combiner; every thread folds the total into its copy of
//   the accumulator;
// - one-element buffers (accumulators) are private to each thread; other
//   row buffers live in shared memory, or in a global scratch slice of the
//   row when shared memory is short.
//
// Every op gives iteration i to thread i mod T, so an element written and
// then accessed through the same indexing map over the same iterations
// stays in one thread. Any other access to memory that another thread may
// have written, or read before it is overwritten, waits on a gpu.barrier.
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

namespace {
/// Where a row kernel keeps a buffer the row allocates.
enum class Placement { Private, Shared, Scratch };

/// A memory access of the row's ops, to decide where barriers go. `map` is
/// the indexing map of an access strided over `iterations`; null when every
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

class RowKernel {
public:
  explicit RowKernel(scf::ForallOp loop) : loop(loop) {}

  /// Checks that every op of the row is handled and plans the kernel.
  LogicalResult analyze(int64_t blockSize, int64_t sharedMemoryBytes);

  /// Replaces the loop with the kernel.
  void emit(RewriterBase &rewriter);

private:
  LogicalResult analyzeReduction(linalg::LinalgOp op, ArrayRef<int64_t> ranges);
  bool isPrivate(Value memref) const {
    auto it = placements.find(memref);
    return it != placements.end() && it->second == Placement::Private;
  }
  /// Whether the threads of the block share the iterations of `op`.
  bool isStrided(linalg::LinalgOp op) const;
  /// Finds copies out of row buffers that the op writing the buffer's last
  /// value can make itself, writing the copy's target directly.
  void forwardCopies();
  /// The memref `op` accesses through `operand`: for an op whose copy is
  /// forwarded, the copy's target in place of the buffer.
  Value getAccessed(linalg::LinalgOp op, OpOperand &operand) const;

  /// Emits a barrier when `accesses` conflict with the ones since the last
  /// barrier, and records them.
  void synchronize(OpBuilder &b, Location loc, ArrayRef<Access> accesses);
  SmallVector<Access> getAccesses(linalg::LinalgOp op) const;

  void emitLinalgOp(OpBuilder &b, linalg::LinalgOp op);
  void emitReduction(OpBuilder &b, linalg::LinalgOp op,
                     ArrayRef<Value> operands);
  Value createIndex(OpBuilder &b, Location loc, int64_t value) {
    return arith::ConstantIndexOp::create(b, loc, value);
  }

  scf::ForallOp loop;
  SmallVector<int64_t> rowCounts;
  int64_t threads = 0;
  DenseMap<Operation *, SmallVector<int64_t>> loopRanges;
  DenseMap<Operation *, SmallVector<BlockReduction>> reductions;
  llvm::MapVector<Value, Placement> placements;
  /// Ops writing the target of a forwarded copy, and the copies.
  DenseMap<Operation *, Operation *> forwardedCopies;
  /// Buffers only forwarded copies read: not allocated.
  DenseSet<Value> elidedBuffers;

  // While emitting.
  IRMapping mapping;
  Value threadId;
  SmallVector<Access> pending;
};
} // namespace

LogicalResult RowKernel::analyzeReduction(linalg::LinalgOp op,
                                          ArrayRef<int64_t> ranges) {
  for (auto [range, iterator] : llvm::zip(ranges, op.getIteratorTypesArray()))
    if (iterator == utils::IteratorType::parallel && range != 1)
      return failure();
  FailureOr<SmallVector<BlockReduction>> blockReductions =
      matchBlockReductions(op);
  if (failed(blockReductions))
    return failure();
  reductions[op] = std::move(*blockReductions);
  return success();
}

bool RowKernel::isStrided(linalg::LinalgOp op) const {
  if (reductions.contains(op))
    return true;
  if (getProduct(loopRanges.lookup(op)) > 1)
    return true;
  return llvm::any_of(op.getDpsInits(),
                      [&](Value init) { return !isPrivate(init); });
}

LogicalResult RowKernel::analyze(int64_t blockSize, int64_t sharedMemoryBytes) {
  if (loop.getMapping() || loop.getNumResults() != 0 ||
      !loop.getTerminator().getYieldingOps().empty())
    return failure();
  for (auto [lb, ub, step] :
       llvm::zip(loop.getStaticLowerBound(), loop.getStaticUpperBound(),
                 loop.getStaticStep())) {
    if (ShapedType::isDynamic(lb) || ShapedType::isDynamic(ub) ||
        ShapedType::isDynamic(step) || step <= 0)
      return failure();
    rowCounts.push_back(llvm::divideCeil(std::max<int64_t>(ub - lb, 0), step));
  }
  int64_t rows = getProduct(rowCounts);
  if (rows <= 0 || rows > std::numeric_limits<int32_t>::max())
    return failure();

  Block *body = loop.getBody();
  SmallVector<memref::AllocOp> allocs;
  for (Operation &op : body->without_terminator()) {
    if (auto alloc = dyn_cast<memref::AllocOp>(op)) {
      MemRefType type = alloc.getType();
      if (!type.hasStaticShape() || !type.getLayout().isIdentity() ||
          !type.getElementType().isIntOrFloat() || type.getMemorySpace())
        return failure();
      bool handledUses = llvm::all_of(alloc->getUsers(), [](Operation *user) {
        return isa<linalg::LinalgOp, memref::LoadOp, memref::StoreOp>(user);
      });
      if (!handledUses)
        return failure();
      allocs.push_back(alloc);
      continue;
    }
    if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op)) {
      std::optional<SmallVector<int64_t>> ranges =
          getStaticLoopRanges(linalgOp);
      if (!ranges || !hasScalarPayload(linalgOp))
        return failure();
      if (linalgOp.getNumReductionLoops() != 0 &&
          failed(analyzeReduction(linalgOp, *ranges)))
        return failure();
      loopRanges[linalgOp] = *ranges;
      continue;
    }
    if (isa<memref::LoadOp, memref::StoreOp>(op))
      continue;
    // Views of row buffers would change type with the buffers' placement.
    if (op.getNumRegions() != 0 || !isMemoryEffectFree(&op) ||
        llvm::any_of(op.getOperands(), [&](Value operand) {
          auto alloc = operand.getDefiningOp<memref::AllocOp>();
          return alloc && alloc->getBlock() == body;
        }))
      return failure();
  }

  // One-element buffers are private copies when every op writing them is
  // a reduction or one iteration writing only such buffers, which every
  // thread then runs.
  auto isOneElementBuffer = [&](Value value) {
    auto alloc = value.getDefiningOp<memref::AllocOp>();
    return alloc && alloc->getBlock() == body &&
           alloc.getType().getNumElements() == 1;
  };
  for (memref::AllocOp alloc : allocs) {
    bool writtenByAll = llvm::all_of(alloc->getUsers(), [&](Operation *user) {
      auto linalgOp = dyn_cast<linalg::LinalgOp>(user);
      if (!linalgOp ||
          !llvm::is_contained(linalgOp.getDpsInits(), alloc.getResult()))
        return true;
      return reductions.contains(linalgOp) ||
             (getProduct(loopRanges.lookup(linalgOp)) == 1 &&
              llvm::all_of(linalgOp.getDpsInits(), isOneElementBuffer));
    });
    if (alloc.getType().getNumElements() == 1 && writtenByAll)
      placements[alloc] = Placement::Private;
  }
  for (auto &[op, unused] : reductions)
    for (Value init : cast<linalg::LinalgOp>(op).getDpsInits())
      if (!isPrivate(init))
        return failure();

  int64_t widest = 0;
  for (auto &[op, ranges] : loopRanges)
    if (isStrided(cast<linalg::LinalgOp>(op)))
      widest = std::max(widest, getProduct(ranges));
  // Rows shorter than a warp are better one per thread.
  if (widest < kWarpSize)
    return failure();
  threads = std::min<int64_t>(blockSize, llvm::alignTo(widest, kWarpSize));

  forwardCopies();

  // Upstream's lowering gives each gpu.all_reduce a 32-element shared
  // buffer of its type.
  int64_t sharedBytes = 0;
  for (auto &[op, blockReductions] : reductions)
    for (const BlockReduction &reduction : blockReductions)
      sharedBytes +=
          kWarpSize *
          reduction.combiner->getResult(0).getType().getIntOrFloatBitWidth() /
          8;
  for (memref::AllocOp alloc : allocs) {
    if (isPrivate(alloc) || elidedBuffers.contains(alloc))
      continue;
    MemRefType type = alloc.getType();
    int64_t bytes = type.getNumElements() *
                    llvm::divideCeil(type.getElementTypeBitWidth(), 8);
    bool fits = sharedBytes + bytes <= sharedMemoryBytes;
    if (fits)
      sharedBytes += bytes;
    placements[alloc] = fits ? Placement::Shared : Placement::Scratch;
  }
  return success();
}

void RowKernel::forwardCopies() {
  Block *body = loop.getBody();
  auto isRowBuffer = [&](Value value) {
    auto alloc = value.getDefiningOp<memref::AllocOp>();
    return alloc && alloc->getBlock() == body;
  };
  for (auto copy : body->getOps<linalg::CopyOp>()) {
    Value buffer = copy.getInputs().front();
    Value target = copy.getOutputs().front();
    if (!isRowBuffer(buffer) || isPrivate(buffer) || isRowBuffer(target))
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
    if (usedAfter || !writerOp || reductions.contains(writerOp) ||
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
    bool targetReady =
        !targetDef || targetDef->getBlock() != body ||
        (isMemoryEffectFree(targetDef) &&
         llvm::all_of(targetDef->getOperands(), [&](Value operand) {
           Operation *def = operand.getDefiningOp();
           return !def || def->getBlock() != body;
         }));
    if (!quietBetween || !targetReady)
      continue;
    forwardedCopies[writerOp] = copy;
    if (llvm::all_of(buffer.getUsers(), [&](Operation *user) {
          return user == copy || user == writer;
        }))
      elidedBuffers.insert(buffer);
  }
}

Value RowKernel::getAccessed(linalg::LinalgOp op, OpOperand &operand) const {
  auto it = forwardedCopies.find(op);
  if (it != forwardedCopies.end() && op.isDpsInit(&operand))
    return cast<linalg::CopyOp>(it->second).getOutputs().front();
  return operand.get();
}

SmallVector<Access> RowKernel::getAccesses(linalg::LinalgOp op) const {
  bool strided = isStrided(op);
  int64_t iterations = getProduct(loopRanges.lookup(op));
  SmallVector<Access> accesses;
  for (OpOperand &operand : op->getOpOperands()) {
    Value memref = getAccessed(op, operand);
    if (!isa<MemRefType>(memref.getType()) || isPrivate(memref))
      continue;
    bool init = op.isDpsInit(&operand);
    bool read = !op.getMatchingBlockArgument(&operand).use_empty();
    AffineMap map = strided ? op.getMatchingIndexingMap(&operand) : AffineMap();
    if (read)
      accesses.push_back({getRoot(memref), memref, map, iterations, false});
    if (init)
      accesses.push_back({getRoot(memref), memref, map, iterations, true});
  }
  return accesses;
}

void RowKernel::synchronize(OpBuilder &b, Location loc,
                            ArrayRef<Access> accesses) {
  bool conflict = llvm::any_of(accesses, [&](const Access &access) {
    return llvm::any_of(pending, [&](const Access &earlier) {
      return earlier.conflictsWith(access);
    });
  });
  if (conflict) {
    gpu::BarrierOp::create(b, loc);
    pending.clear();
  }
  llvm::append_range(pending, accesses);
}

void RowKernel::emitReduction(OpBuilder &b, linalg::LinalgOp op,
                              ArrayRef<Value> operands) {
  Location loc = op.getLoc();
  ArrayRef<BlockReduction> blockReductions = reductions.find(op)->second;
  SmallVector<int64_t> ranges = loopRanges.lookup(op);
  SmallVector<Value> zeros(ranges.size(), createIndex(b, loc, 0));
  SmallVector<Value> accumulators, neutrals;
  for (auto [init, reduction] :
       llvm::zip(op.getDpsInitsMutable(), blockReductions)) {
    accumulators.push_back(memref::LoadOp::create(
        b, loc, operands[init.getOperandNumber()],
        applyIndexingMap(b, loc, op.getMatchingIndexingMap(&init), zeros)));
    neutrals.push_back(arith::ConstantOp::create(b, loc, reduction.neutral));
  }
  // Each thread's part of the row, from the neutral element.
  auto partials = scf::ForOp::create(
      b, loc, threadId, createIndex(b, loc, getProduct(ranges)),
      createIndex(b, loc, threads), neutrals,
      [&](OpBuilder &nested, Location nestedLoc, Value iv, ValueRange args) {
        SmallVector<Value> ivs = delinearize(nested, nestedLoc, iv, ranges);
        scf::YieldOp::create(
            nested, nestedLoc,
            emitPayload(nested, nestedLoc, op, ivs, operands, args, &mapping));
      });
  for (auto [i, init, reduction] :
       llvm::enumerate(op.getDpsInitsMutable(), blockReductions)) {
    Value total = gpu::AllReduceOp::create(
        b, loc, partials.getResult(i),
        gpu::AllReduceOperationAttr::get(b.getContext(), reduction.operation),
        /*uniform=*/b.getUnitAttr());
    Value folded =
        foldBlockTotal(b, reduction, op.getMatchingBlockArgument(&init),
                       accumulators[i], total, mapping);
    memref::StoreOp::create(
        b, loc, folded, operands[init.getOperandNumber()],
        applyIndexingMap(b, loc, op.getMatchingIndexingMap(&init), zeros));
  }
}

void RowKernel::emitLinalgOp(OpBuilder &b, linalg::LinalgOp op) {
  Location loc = op.getLoc();
  SmallVector<Value> operands;
  for (OpOperand &operand : op->getOpOperands()) {
    Value accessed = getAccessed(op, operand);
    // A forwarded copy's target may be a view the row defines later.
    if (Operation *def = accessed.getDefiningOp();
        def && def->getBlock() == loop.getBody() && !mapping.contains(accessed))
      b.clone(*def, mapping);
    operands.push_back(mapping.lookupOrDefault(accessed));
  }
  synchronize(b, loc, getAccesses(op));
  if (reductions.contains(op))
    return emitReduction(b, op, operands);
  SmallVector<int64_t> ranges = loopRanges.lookup(op);
  if (!isStrided(op)) {
    // One iteration writing private buffers: every thread runs it.
    SmallVector<Value> zeros(ranges.size(), createIndex(b, loc, 0));
    storeResults(b, loc, op, zeros, operands,
                 emitPayload(b, loc, op, zeros, operands, {}, &mapping));
    return;
  }
  scf::ForOp::create(
      b, loc, threadId, createIndex(b, loc, getProduct(ranges)),
      createIndex(b, loc, threads), ValueRange(),
      [&](OpBuilder &nested, Location nestedLoc, Value iv, ValueRange) {
        SmallVector<Value> ivs = delinearize(nested, nestedLoc, iv, ranges);
        storeResults(
            nested, nestedLoc, op, ivs, operands,
            emitPayload(nested, nestedLoc, op, ivs, operands, {}, &mapping));
        scf::YieldOp::create(nested, nestedLoc);
      });
}

void RowKernel::emit(RewriterBase &rewriter) {
  Location loc = loop.getLoc();
  MLIRContext *context = loop.getContext();
  rewriter.setInsertionPoint(loop);
  int64_t rows = getProduct(rowCounts);

  // Scratch buffers hold one slice per row; shared ones are attributions.
  DenseMap<Value, Value> scratch;
  SmallVector<Type> workgroupTypes;
  auto workgroup =
      gpu::AddressSpaceAttr::get(context, gpu::AddressSpace::Workgroup);
  for (auto &[buffer, placement] : placements) {
    auto type = cast<MemRefType>(buffer.getType());
    if (placement == Placement::Shared) {
      workgroupTypes.push_back(MemRefType::get(
          type.getShape(), type.getElementType(), AffineMap(), workgroup));
    } else if (placement == Placement::Scratch) {
      SmallVector<int64_t> shape = {rows};
      llvm::append_range(shape, type.getShape());
      scratch[buffer] = memref::AllocOp::create(
          rewriter, loc, MemRefType::get(shape, type.getElementType()));
    }
  }

  gpu::LaunchOp launch =
      createLaunch(rewriter, loc, rows, threads, workgroupTypes);
  OpBuilder b = OpBuilder::atBlockBegin(&launch.getBody().front());
  threadId = launch.getThreadIds().x;
  Value row = launch.getBlockIds().x;

  SmallVector<Value> rowIvs = delinearize(b, loc, row, rowCounts);
  for (auto [iv, rowIv, lb, step] :
       llvm::zip(loop.getInductionVars(), rowIvs, loop.getStaticLowerBound(),
                 loop.getStaticStep())) {
    AffineExpr d0 = b.getAffineDimExpr(0);
    mapping.map(iv, getValueOrCreateConstantIndexOp(
                        b, loc,
                        affine::makeComposedFoldedAffineApply(
                            b, loc, d0 * step + lb, {OpFoldResult(rowIv)})));
  }

  ArrayRef<BlockArgument> sharedBuffers = launch.getWorkgroupAttributions();
  unsigned nextShared = 0;
  for (auto &[buffer, placement] : placements) {
    auto type = cast<MemRefType>(buffer.getType());
    switch (placement) {
    case Placement::Private:
      mapping.map(buffer, memref::AllocaOp::create(b, loc, type).getResult());
      break;
    case Placement::Shared:
      mapping.map(buffer, sharedBuffers[nextShared++]);
      break;
    case Placement::Scratch: {
      SmallVector<OpFoldResult> offsets(type.getRank() + 1, b.getIndexAttr(0));
      offsets.front() = row;
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

  DenseSet<Operation *> forwarded;
  for (auto &[writer, copy] : forwardedCopies)
    forwarded.insert(copy);
  for (Operation &op : loop.getBody()->without_terminator()) {
    // Allocations are placed, forwarded copies made by their writers, and
    // views of their targets may already be there.
    bool emitted = op.getNumResults() != 0 &&
                   llvm::all_of(op.getResults(),
                                [&](Value v) { return mapping.contains(v); });
    if (isa<memref::AllocOp>(op) || forwarded.contains(&op) || emitted)
      continue;
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
    if (auto store = dyn_cast<memref::StoreOp>(op);
        store && !isPrivate(store.getMemRef())) {
      // One thread writes what every thread computed.
      Value memref = store.getMemRef();
      synchronize(b, op.getLoc(),
                  {{getRoot(memref), memref, AffineMap(), 0, true}});
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
    b.clone(op, mapping);
  }
  rewriter.eraseOp(loop);
}

LogicalResult rlx::mapRowLoopToBlocks(scf::ForallOp loop, int64_t blockSize,
                                      int64_t sharedMemoryBytes,
                                      RewriterBase &rewriter) {
  RowKernel kernel(loop);
  if (failed(kernel.analyze(blockSize, sharedMemoryBytes)))
    return failure();
  kernel.emit(rewriter);
  return success();
}
