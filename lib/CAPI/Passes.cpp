//===- Passes.cpp - C API for rlx's passes and pipelines ------------------===//

#include "rlx-c/Passes.h"

#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Support.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "rlx/InitRlx.h"
#include "llvm/Support/raw_ostream.h"

#include <mutex>

using namespace mlir;

void rlxRegisterPasses(void) {
  static std::once_flag registered;
  std::call_once(registered, [] { rlx::registerRlxPasses(); });
}

MlirLogicalResult rlxRunPassPipeline(MlirOperation op, MlirStringRef pipeline) {
  rlxRegisterPasses();
  Operation *operation = unwrap(op);
  llvm::StringRef text = unwrap(pipeline);
  // A bare pass list is anchored on the op it runs on.
  std::string anchored =
      text.contains('(')
          ? text.str()
          : (operation->getName().getStringRef() + "(" + text + ")").str();
  std::string error;
  llvm::raw_string_ostream errorStream(error);
  FailureOr<OpPassManager> parsed = parsePassPipeline(anchored, errorStream);
  if (failed(parsed)) {
    operation->emitError() << "invalid pass pipeline '" << text
                           << "': " << error;
    return wrap(failure());
  }
  PassManager pm(operation->getName());
  static_cast<OpPassManager &>(pm) = std::move(*parsed);
  return wrap(pm.run(operation));
}
