//===- EmulateTileKernels.cpp - Block-per-tile kernels run on the CPU -----===//
//
// The kernels with a block per tile are the ones whose barriers rlx-map-to-gpu
// places by its own analysis; no GPU is needed to test that analysis, only a
// schedule of the threads that a missing barrier gets wrong (MapRows.cpp).
//
//===----------------------------------------------------------------------===//
#include "Kernels.h"
#include "rlx/Gpu/Passes.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

namespace mlir::rlx {
#define GEN_PASS_DEF_RLXGPUEMULATETILEKERNELS
#include "rlx/Gpu/Passes.h.inc"
} // namespace mlir::rlx

using namespace mlir;

namespace {
struct RlxGpuEmulateTileKernelsPass
    : rlx::impl::RlxGpuEmulateTileKernelsBase<RlxGpuEmulateTileKernelsPass> {
  using Base::Base;

  void runOnOperation() override {
    func::FuncOp func = getOperation();
    std::optional<rlx::ThreadOrder> order =
        llvm::StringSwitch<std::optional<rlx::ThreadOrder>>(threadOrder)
            .Case("ascending", rlx::ThreadOrder::Ascending)
            .Case("descending", rlx::ThreadOrder::Descending)
            .Default(std::nullopt);
    if (!order) {
      func.emitError("thread-order must be 'ascending' or 'descending', not '")
          << threadOrder << "'";
      return signalPassFailure();
    }
    if (blockSize <= 0) {
      func.emitError("block-size must be positive");
      return signalPassFailure();
    }
    IRRewriter rewriter(&getContext());
    SmallVector<scf::ForallOp> loops;
    func.walk([&](scf::ForallOp loop) {
      if (!loop->getParentOfType<scf::ForallOp>())
        loops.push_back(loop);
    });
    // Their copies as rlx-map-to-gpu sees them.
    for (scf::ForallOp loop : loops)
      rlx::convertCopiesToLinalg(loop, rewriter);
    for (scf::ForallOp loop : loops)
      (void)rlx::emulateTileLoopOnCpu(loop, blockSize, sharedMemoryBytes,
                                      *order, rewriter);
  }
};
} // namespace
