//===- GpuPipeline.cpp - rlx to PTX kernels and host code -----------------===//
#include "rlx/Pipelines/Pipelines.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"
#include "rlx/Conversion/Passes.h"
#include "rlx/Gpu/Passes.h"
#include "rlx/Transforms/Passes.h"

using namespace mlir;

/// Whether `chip` (sm_NN) has the f16 m16n8k16 mma.sync: sm_80 and later.
static bool hasMmaSync(StringRef chip) {
  unsigned version;
  return chip.consume_front("sm_") &&
         !chip.take_while(llvm::isDigit).getAsInteger(10, version) &&
         version >= 80;
}

void mlir::rlx::buildGpuPipeline(OpPassManager &pm,
                                 const GpuPipelineOptions &options) {
  // Gradient functions are compiled like any other, as on the CPU.
  pm.addPass(createRlxAutodiff());
  pm.addPass(createRlxDecompose());
  if (!options.specialize.empty()) {
    RlxSpecializeShapesOptions specialize;
    specialize.sizes.assign(options.specialize.begin(),
                            options.specialize.end());
    pm.addPass(createRlxSpecializeShapes(specialize));
  }
  pm.addPass(createRlxExportAbi({AbiTarget::Cuda}));
  addFusionPasses(pm, options.fusePatterns, options.formRegions);
  pm.addNestedPass<func::FuncOp>(createRlxToLinalg());
  pm.addNestedPass<func::FuncOp>(createConvertElementwiseToLinalgPass());
  pm.addPass(createCanonicalizerPass());
  if (options.fuseElementwise)
    pm.addNestedPass<func::FuncOp>(createRlxFuseElementwise());
  pm.addPass(createCSEPass());
  // Attention's blocks and the rows of row ops: tiled on tensors and
  // decomposed into linalg ops, which the kernels below map to threads.
  addGpuTilingPasses(pm, options.attentionQueryTile, options.attentionKeyTile);

  buildBufferizationPipeline(pm);

  RlxGpuTileContractionsOptions tiling;
  tiling.tensorCores = hasMmaSync(options.chip);
  pm.addNestedPass<func::FuncOp>(createRlxGpuTileContractions(tiling));
  pm.addNestedPass<func::FuncOp>(createRlxGpuMapForalls());
  pm.addNestedPass<func::FuncOp>(createRlxMapToGpu({options.blockSize, options.maxBlocks}));
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createConvertNVGPUToNVVMPass());

  // Upstream's gpu-lower-to-nvvm-pipeline, spelled out so that
  // gpu-module-to-binary gets the toolkit whose libdevice it links.
  // Constants become immediates of the kernels, not kernel arguments.
  pm.addPass(createGpuLaunchSinkIndexComputationsPass());
  pm.addPass(createGpuKernelOutliningPass());
  // Kernels are named after the program's functions; from here on the host
  // code's lowering calls C functions by name (malloc, mgpu*).
  pm.addPass(createRlxMangleFunctionNames());
  pm.addNestedPass<gpu::GPUModuleOp>(createRlxGpuAlignWorkgroupMemory());
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(createConvertFuncToLLVMPass());
  pm.addPass(memref::createExpandStridedMetadataPass());
  GpuNVVMAttachTargetOptions target;
  target.chip = options.chip;
  target.features = options.features;
  target.optLevel = options.optLevel;
  pm.addPass(createGpuNVVMAttachTarget(target));
  pm.addPass(createLowerAffinePass());
  // Kernels before the host: a module-wide arith-to-llvm would turn
  // arith.remf into llvm.frem, which the NVVM conversion cannot lower (it
  // maps arith.remf to libdevice's fmod).
  pm.addNestedPass<gpu::GPUModuleOp>(createConvertGpuOpsToNVVMOps());
  pm.addNestedPass<gpu::GPUModuleOp>(createCanonicalizerPass());
  pm.addNestedPass<gpu::GPUModuleOp>(createCSEPass());
  pm.addNestedPass<gpu::GPUModuleOp>(createReconcileUnrealizedCastsPass());
  pm.addPass(createArithToLLVMConversionPass());
  pm.addPass(createConvertIndexToLLVMPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  pm.addPass(createGpuToLLVMConversionPass());
  GpuModuleToBinaryPassOptions binary;
  binary.compilationTarget = "isa";
  binary.toolkitPath =
      options.cudaPath.empty() ? RLX_DEFAULT_CUDA_PATH : options.cudaPath.getValue();
  pm.addPass(createGpuModuleToBinaryPass(binary));
  pm.addPass(createRlxCheckGpuBinaries());
  pm.addPass(createConvertMathToLLVMPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
  pm.addPass(createRlxEmitInvokeWrappers());
  pm.addPass(createCanonicalizerPass());
}
