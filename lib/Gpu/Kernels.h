//===- Kernels.h - gpu.launch kernels built by rlx-map-to-gpu ---*- C++ -*-===//
//
// The kernels rlx-map-to-gpu builds directly as gpu.launch ops, and the
// helpers they share for running a linalg op's payload at one iteration.
//
//===----------------------------------------------------------------------===//
#ifndef RLX_LIB_GPU_KERNELS_H
#define RLX_LIB_GPU_KERNELS_H

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::rlx {

/// Threads in a warp: block sizes of row kernels are multiples of it.
constexpr int64_t kWarpSize = 32;

/// Replaces `loop`, whose iterations work on independent rows or tiles, with
/// a kernel running one block per iteration; fails without changing
/// anything when the loop's ops are not all handled.
LogicalResult mapTileLoopToBlocks(scf::ForallOp loop, int64_t blockSize,
                                  int64_t sharedMemoryBytes,
                                  RewriterBase &rewriter);

/// The order in which an emulated block runs its threads.
enum class ThreadOrder { Ascending, Descending };

/// Replaces `loop` as mapTileLoopToBlocks does, but with a CPU program
/// running the blocks one after another and, between two barriers, each
/// thread's share after the other's in `order`: a schedule the GPU may run
/// too, under which an access a missing barrier should have ordered sees
/// the wrong data. Block reductions fold the threads' partial results in
/// thread order; a private buffer is one copy, which all threads would fill
/// alike. Fails without changing anything when the loop's ops are not all
/// handled.
LogicalResult emulateTileLoopOnCpu(scf::ForallOp loop, int64_t blockSize,
                                   int64_t sharedMemoryBytes, ThreadOrder order,
                                   RewriterBase &rewriter);

/// Replaces elementwise `op` with a grid-stride kernel of at most
/// `maxBlocks` blocks, vectorized when `vectorize` and the operands allow;
/// fails without changing anything when `op` is not elementwise.
LogicalResult mapElementwiseToGridStride(linalg::LinalgOp op, int64_t blockSize,
                                         int64_t maxBlocks, bool vectorize,
                                         RewriterBase &rewriter);

/// Replaces reduction `op` with a kernel running one block per output
/// element when the reduced iterations are contiguous and at least a warp;
/// fails without changing anything otherwise.
LogicalResult mapReductionToBlocks(linalg::LinalgOp op, int64_t blockSize,
                                   RewriterBase &rewriter);

/// One accumulator of a reduction and how a block combines it.
struct BlockReduction {
  /// The gpu.all_reduce operation of the combiner.
  gpu::AllReduceOperation operation;
  /// The op of the payload folding an element into the accumulator.
  Operation *combiner;
  /// The combiner's neutral element, every thread's partial result at first.
  TypedAttr neutral;
};

/// How a block reduces each init of `op`: fails unless every init is folded
/// by one 32- or 64-bit combiner that gpu.all_reduce has an operation for.
FailureOr<SmallVector<BlockReduction>>
matchBlockReductions(linalg::LinalgOp op);

/// `accumulator` and the block's `total` folded by `reduction`'s combiner,
/// whose accumulator operand is `outArg`.
Value foldBlockTotal(OpBuilder &b, const BlockReduction &reduction,
                     BlockArgument outArg, Value accumulator, Value total,
                     const IRMapping &captured);

/// A one-dimensional gpu.launch of `blocks` x `threads` at the rewriter's
/// insertion point, its body holding only the terminator.
gpu::LaunchOp createLaunch(RewriterBase &rewriter, Location loc,
                           int64_t blocks, int64_t threads,
                           TypeRange workgroupTypes = {});

/// Replaces every memref.copy inside `root` with a linalg.copy, which the
/// kernels map like any other linalg op.
void convertCopiesToLinalg(Operation *root, RewriterBase &rewriter);

/// The loop ranges of `op` when they are all static.
std::optional<SmallVector<int64_t>> getStaticLoopRanges(linalg::LinalgOp op);

/// Whether `op` works on buffers and its payload is scalar computation: no
/// regions and no memory effects.
bool hasScalarPayload(linalg::LinalgOp op);

/// The iteration of a loop nest over `ranges` at row-major position
/// `linear`.
SmallVector<Value> delinearize(OpBuilder &b, Location loc, Value linear,
                               ArrayRef<int64_t> ranges);

/// The indices `map` gives at iteration `ivs`.
SmallVector<Value> applyIndexingMap(OpBuilder &b, Location loc, AffineMap map,
                                    ValueRange ivs);

/// Clones into a kernel, at `b`, the host computation of the values the
/// payload of host op `op` uses from outside it: loads (of a reduction's
/// result, say), which only the device may run, and the pure ops between
/// them. Returns the mapping to the clones.
IRMapping sinkCapturedValues(OpBuilder &b, linalg::LinalgOp op);

/// Runs the payload of `op` at iteration `ivs` and returns the values it
/// yields. `operands` are the kernel's values of `op`'s operands; the block
/// arguments of inputs are loaded from them, those of inits too unless
/// `initValues` gives them. `captured` maps values the payload uses from
/// outside `op` to the kernel's.
SmallVector<Value> emitPayload(OpBuilder &b, Location loc, linalg::LinalgOp op,
                               ValueRange ivs, ValueRange operands,
                               ValueRange initValues = {},
                               const IRMapping *captured = nullptr);

/// Stores `values` into the inits of `op` (kernel values among `operands`)
/// at iteration `ivs`.
void storeResults(OpBuilder &b, Location loc, linalg::LinalgOp op,
                  ValueRange ivs, ValueRange operands, ValueRange values);

} // namespace mlir::rlx

#endif // RLX_LIB_GPU_KERNELS_H
