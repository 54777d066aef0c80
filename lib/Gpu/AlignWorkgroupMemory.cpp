//===- AlignWorkgroupMemory.cpp - Alignment of kernels' shared buffers ----===//
//
// Workgroup attributions become shared-memory globals aligned to their
// element type unless the kernel says otherwise; ldmatrix reads 16-byte
// rows, so the tiles of the tensor-core kernels need more.
//
//===----------------------------------------------------------------------===//
#include "rlx/Gpu/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

namespace mlir::rlx {
#define GEN_PASS_DEF_RLXGPUALIGNWORKGROUPMEMORY
#include "rlx/Gpu/Passes.h.inc"
} // namespace mlir::rlx

using namespace mlir;

namespace {
struct RlxGpuAlignWorkgroupMemoryPass
    : rlx::impl::RlxGpuAlignWorkgroupMemoryBase<
          RlxGpuAlignWorkgroupMemoryPass> {
  using Base::Base;

  void runOnOperation() override {
    if (alignment <= 0 || !llvm::isPowerOf2_64(alignment)) {
      getOperation().emitError("alignment must be a power of two");
      return signalPassFailure();
    }
    StringRef alignName = LLVM::LLVMDialect::getAlignAttrName();
    Builder builder(&getContext());
    getOperation().walk([&](gpu::GPUFuncOp func) {
      for (unsigned i = 0, e = func.getNumWorkgroupAttributions(); i < e;
           ++i) {
        auto current = dyn_cast_or_null<IntegerAttr>(
            func.getWorkgroupAttributionAttr(i, alignName));
        if (!current || current.getInt() < alignment)
          func.setWorkgroupAttributionAttr(
              i, alignName, builder.getI64IntegerAttr(alignment));
      }
    });
  }
};
} // namespace
