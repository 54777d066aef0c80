//===- InitRlx.cpp - register rlx's dialects and passes -------------------===//

#include "rlx/InitRlx.h"

#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "rlx/Codegen/Passes.h"
#include "rlx/Conversion/Passes.h"
#include "rlx/Dialect/Rlx/Extensions/MpiMemoryEffects.h"
#include "rlx/Dialect/Rlx/Extensions/ShardingInterfaceImpl.h"
#include "rlx/Dialect/Rlx/IR/RlxDialect.h"
#include "rlx/Gpu/Passes.h"
#include "rlx/Pipelines/Pipelines.h"
#include "rlx/Transforms/Passes.h"

void mlir::rlx::registerRlxDialects(DialectRegistry &registry) {
  registerAllDialects(registry);
  registerAllExtensions(registry);
  registry.insert<RlxDialect>();
  registerShardingInterfaceExternalModels(registry);
  registerMpiMemoryEffectModels(registry);
  registerBuiltinDialectTranslation(registry);
  registerLLVMDialectTranslation(registry);
  // CPU thread tiles are OpenMP loops; GPU kernels translate to NVVM IR.
  registerOpenMPDialectTranslation(registry);
  registerAllGPUToLLVMIRTranslations(registry);
}

void mlir::rlx::registerRlxPasses() {
  registerRlxConversionPasses();
  registerRlxTransformsPasses();
  registerRlxCodegenPasses();
  registerRlxGpuPasses();
  registerRlxPipelines();
}
