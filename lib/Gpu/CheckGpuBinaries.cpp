//===- CheckGpuBinaries.cpp - Reject PTX that cannot load or run ----------===//
#include "rlx/Gpu/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/BuiltinOps.h"

namespace mlir::rlx {
#define GEN_PASS_DEF_RLXCHECKGPUBINARIES
#include "rlx/Gpu/Passes.h.inc"
} // namespace mlir::rlx

using namespace mlir;

/// The name of the first function `ptx` declares `.extern`, if any.
static std::optional<StringRef> findExternFunction(StringRef ptx) {
  StringRef directive = ".extern .func";
  size_t at = ptx.find(directive);
  if (at == StringRef::npos)
    return std::nullopt;
  // `.extern .func (.param .b32 func_retval0) NAME` then the parameters.
  StringRef rest = ptx.substr(at + directive.size()).ltrim();
  if (rest.starts_with("("))
    rest = rest.drop_until([](char c) { return c == ')'; }).drop_front().ltrim();
  return rest.take_until([](char c) { return c == '(' || isspace(c); });
}

/// Whether `ptx` allocates stack of run-time size (an `alloca` instruction).
static bool hasDynamicStackAllocation(StringRef ptx) {
  SmallVector<StringRef> lines;
  ptx.split(lines, '\n');
  return llvm::any_of(lines, [](StringRef line) {
    return line.ltrim().starts_with("alloca.");
  });
}

namespace {
struct RlxCheckGpuBinariesPass
    : rlx::impl::RlxCheckGpuBinariesBase<RlxCheckGpuBinariesPass> {
  void runOnOperation() override {
    bool unresolved = false;
    getOperation().walk([&](gpu::BinaryOp binary) {
      for (Attribute attr : binary.getObjects()) {
        auto object = cast<gpu::ObjectAttr>(attr);
        if (object.getFormat() != gpu::CompilationTarget::Assembly)
          continue;
        StringRef ptx = object.getObject().getValue();
        if (hasDynamicStackAllocation(ptx)) {
          binary.emitError()
              << "kernel module '" << binary.getSymName()
              << "' allocates stack of run-time size (PTX `alloca`), which "
                 "runs past the stack the driver sizes from the kernel's "
                 "frame";
          unresolved = true;
        }
        std::optional<StringRef> name = findExternFunction(ptx);
        if (!name)
          continue;
        binary.emitError() << "kernel module '" << binary.getSymName()
                           << "' calls '" << *name
                           << "', which is not linked: libdevice was not "
                              "found; point the GPU pipeline's cuda-path "
                              "(rlx-compile --cuda-path) at a CUDA toolkit";
        unresolved = true;
      }
    });
    if (unresolved)
      signalPassFailure();
  }
};
} // namespace
