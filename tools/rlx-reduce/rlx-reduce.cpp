//===- rlx-reduce.cpp - MLIR's test-case reducer with rlx -----------------===//
//
// Shrinks an .mlir file with rlx ops while an "interestingness" script keeps
// reporting the bug, for bug reports:
//
//   rlx-reduce crash.mlir --test=./still-crashes.sh \
//       --pass-pipeline='builtin.module(opt-reduction-pass{...})'
//
//===----------------------------------------------------------------------===//

#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Tools/mlir-reduce/MlirReduceMain.h"
#include "rlx/InitRlx.h"

int main(int argc, char **argv) {
  // Reductions may run any pass (opt-reduction-pass{opt-pass=...}).
  mlir::registerAllPasses();
  mlir::rlx::registerRlxPasses();
  mlir::DialectRegistry registry;
  mlir::rlx::registerRlxDialects(registry);
  mlir::MLIRContext context(registry);
  return mlir::failed(mlir::mlirReduceMain(argc, argv, context));
}
