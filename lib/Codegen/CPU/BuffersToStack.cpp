//===- BuffersToStack.cpp - Bounded block-local buffers on the stack ------===//
//
// Written here because upstream's `promote-buffers-to-stack` leaves an
// allocation where it is (in a loop, each iteration's alloca would grow the
// stack) and takes `?` sizes by the memref's rank rather than by a bound;
// IREE hoists statically bounded allocations the same way, outside MLIR.
//
//===----------------------------------------------------------------------===//
#include "rlx/Codegen/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "mlir/Interfaces/ValueBoundsOpInterface.h"

namespace mlir::rlx {
#define GEN_PASS_DEF_RLXCPUBUFFERSTOSTACK
#include "rlx/Codegen/Passes.h.inc"
} // namespace mlir::rlx

using namespace mlir;

static constexpr int64_t kMinAlignment = 64;

/// The block at whose start `alloc`'s stack buffer goes: the entry block of
/// the region of its nearest automatic allocation scope other than a loop
/// (an `scf.for` is one, but its LLVM lowering does not restore the stack
/// after an iteration), unless an op between them runs its iterations in
/// parallel (each would need a buffer of its own).
static Block *getScopeBlock(memref::AllocOp alloc) {
  Region *region = alloc->getParentRegion();
  while (region) {
    Operation *parent = region->getParentOp();
    if (!parent || isa<scf::ForallOp, scf::ParallelOp>(parent))
      return nullptr;
    if (parent->hasTrait<OpTrait::AutomaticAllocationScope>() &&
        !isa<LoopLikeOpInterface>(parent))
      return &region->front();
    region = parent->getParentRegion();
  }
  return nullptr;
}

/// The unconditional `memref.dealloc` of `alloc` in its own block, which
/// ends its lifetime there; null if it has another one, or none.
static memref::DeallocOp getBlockLocalDealloc(memref::AllocOp alloc) {
  memref::DeallocOp dealloc;
  for (Operation *user : alloc->getUsers()) {
    auto free = dyn_cast<memref::DeallocOp>(user);
    if (!free)
      continue;
    if (dealloc || free->getBlock() != alloc->getBlock())
      return nullptr;
    dealloc = free;
  }
  return dealloc;
}

/// The bytes of `alloc` at its largest size: each `?` size bounded by a
/// constant; failure where one is not, or the element has no fixed size.
/// bf16 buffers stay on the heap: LLVM promotes a small stack buffer to
/// registers, and its x86 back end cannot legalize every bf16 operation
/// that makes ("Do not know how to soft promote this operator's operand",
/// a rope on bf16).
static FailureOr<int64_t> getLargestBytes(memref::AllocOp alloc) {
  MemRefType type = alloc.getType();
  if (!type.getElementType().isIntOrFloat() || type.getElementType().isBF16())
    return failure();
  int64_t bytes =
      llvm::divideCeil(type.getElementType().getIntOrFloatBitWidth(), 8);
  auto dynamicSizes = alloc.getDynamicSizes().begin();
  for (int64_t size : type.getShape()) {
    if (ShapedType::isDynamic(size)) {
      FailureOr<int64_t> bound = ValueBoundsConstraintSet::computeConstantBound(
          presburger::BoundType::UB,
          ValueBoundsConstraintSet::Variable(*dynamicSizes++),
          /*stopCondition=*/nullptr, /*closedUB=*/true);
      if (failed(bound))
        return failure();
      size = std::max<int64_t>(*bound, 0);
    }
    if (size != 0 && bytes > std::numeric_limits<int64_t>::max() / size)
      return failure();
    bytes *= size;
  }
  return bytes;
}

namespace {
struct RlxCpuBuffersToStackPass
    : rlx::impl::RlxCpuBuffersToStackBase<RlxCpuBuffersToStackPass> {
  using Base::Base;

  void runOnOperation() override {
    struct Buffer {
      memref::AllocOp alloc;
      memref::DeallocOp dealloc;
      Block *scope;
      int64_t bytes;
    };
    SmallVector<Buffer> buffers;
    llvm::DenseMap<Block *, int64_t> scopeBytes;
    getOperation()->walk([&](memref::AllocOp alloc) {
      MemRefType type = alloc.getType();
      if (!type.getLayout().isIdentity() || type.getMemorySpace())
        return;
      memref::DeallocOp dealloc = getBlockLocalDealloc(alloc);
      Block *scope = getScopeBlock(alloc);
      if (!dealloc || !scope)
        return;
      FailureOr<int64_t> bytes = getLargestBytes(alloc);
      if (failed(bytes) || *bytes > maxBufferBytes ||
          scopeBytes[scope] + *bytes > maxScopeBytes)
        return;
      scopeBytes[scope] += *bytes;
      buffers.push_back({alloc, dealloc, scope, *bytes});
    });

    IRRewriter rewriter(&getContext());
    for (Buffer &buffer : buffers) {
      memref::AllocOp alloc = buffer.alloc;
      Location loc = alloc.getLoc();
      rewriter.setInsertionPointToStart(buffer.scope);
      // Bytes viewed as any element type, aligned as the runtime aligns
      // the data it allocates (or more, where the allocation asked).
      int64_t alignment =
          std::max<int64_t>(kMinAlignment, alloc.getAlignment().value_or(0));
      auto stack = memref::AllocaOp::create(
          rewriter, loc,
          MemRefType::get({std::max<int64_t>(buffer.bytes, 1)},
                          rewriter.getI8Type()),
          rewriter.getI64IntegerAttr(alignment));
      rewriter.setInsertionPoint(alloc);
      Value start = arith::ConstantIndexOp::create(rewriter, loc, 0);
      rewriter.replaceOpWithNewOp<memref::ViewOp>(
          alloc, alloc.getType(), stack, start, alloc.getDynamicSizes());
      rewriter.eraseOp(buffer.dealloc);
    }
  }
};
} // namespace
