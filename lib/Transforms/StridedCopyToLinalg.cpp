//===- StridedCopyToLinalg.cpp - Strided memref.copy to linalg.copy -------===//
#include "rlx/Transforms/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/Utils/MemRefUtils.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::rlx {
#define GEN_PASS_DEF_RLXSTRIDEDCOPYTOLINALG
#include "rlx/Transforms/Passes.h.inc"
} // namespace mlir::rlx

using namespace mlir;

namespace {
struct RlxStridedCopyToLinalgPass
    : rlx::impl::RlxStridedCopyToLinalgBase<RlxStridedCopyToLinalgPass> {
  void runOnOperation() override {
    SmallVector<memref::CopyOp> strided;
    getOperation()->walk([&](memref::CopyOp copy) {
      // As the LLVM lowering decides between memcpy and memrefCopy.
      auto isContiguous = [](Value v) {
        auto type = dyn_cast<MemRefType>(v.getType());
        return type && (type.getLayout().isIdentity() ||
                        memref::isStaticShapeAndContiguousRowMajor(type));
      };
      if (!isContiguous(copy.getSource()) || !isContiguous(copy.getTarget()))
        strided.push_back(copy);
    });
    IRRewriter rewriter(&getContext());
    for (memref::CopyOp copy : strided) {
      rewriter.setInsertionPoint(copy);
      rewriter.replaceOpWithNewOp<linalg::CopyOp>(copy, copy.getSource(),
                                                  copy.getTarget());
    }
  }
};
} // namespace
