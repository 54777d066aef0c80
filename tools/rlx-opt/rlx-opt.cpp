//===- rlx-opt.cpp - mlir-opt with the rlx dialect and passes -------------===//
#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "rlx/InitRlx.h"

int main(int argc, char **argv) {
  mlir::registerAllPasses();
  mlir::rlx::registerRlxPasses();

  mlir::DialectRegistry registry;
  mlir::rlx::registerRlxDialects(registry);
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "rlx optimizer driver\n", registry));
}
