//===- rlx-opt.cpp - mlir-opt with the rlx dialect and passes -------------===//
#include "mlir/IR/MLIRContext.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "rlx/Codegen/Passes.h"
#include "rlx/Conversion/Passes.h"
#include "rlx/Dialect/Rlx/IR/RlxDialect.h"
#include "rlx/Gpu/Passes.h"
#include "rlx/Pipelines/Pipelines.h"
#include "rlx/Transforms/Passes.h"

int main(int argc, char **argv) {
  mlir::registerAllPasses();
  mlir::rlx::registerRlxConversionPasses();
  mlir::rlx::registerRlxTransformsPasses();
  mlir::rlx::registerRlxCodegenPasses();
  mlir::rlx::registerRlxGpuPasses();
  mlir::rlx::registerRlxPipelines();

  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  registry.insert<mlir::rlx::RlxDialect>();
  // gpu-module-to-binary translates kernels to LLVM IR.
  mlir::registerAllGPUToLLVMIRTranslations(registry);
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "rlx optimizer driver\n", registry));
}
