//===- GpuPipeline.cpp - rlx to PTX kernels and host code -----------------===//
#include "rlx/Pipelines/Pipelines.h"

#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/Pipelines/Passes.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"
#include "rlx/Conversion/Passes.h"
#include "rlx/Gpu/Passes.h"
#include "rlx/Transforms/Passes.h"

using namespace mlir;

void mlir::rlx::buildGpuPipeline(OpPassManager &pm,
                                 const GpuPipelineOptions &options) {
  // Fail on what the GPU path cannot compile while the rlx ops still exist
  // to be named.
  pm.addPass(createRlxCheckGpuSupport());
  pm.addPass(createRlxExportAbi());
  if (options.formRegions)
    buildFusionPipeline(pm);
  pm.addNestedPass<func::FuncOp>(createRlxToLinalg());
  pm.addPass(createCanonicalizerPass());
  pm.addNestedPass<func::FuncOp>(createLinalgElementwiseOpFusionPass());
  pm.addPass(createCSEPass());

  bufferization::OneShotBufferizePassOptions bufferize;
  bufferize.bufferizeFunctionBoundaries = true;
  bufferize.functionBoundaryTypeConversion =
      bufferization::LayoutMapOption::IdentityLayoutMap;
  pm.addPass(bufferization::createOneShotBufferizePass(bufferize));
  bufferization::BufferResultsToOutParamsPassOptions outParams;
  outParams.hoistStaticAllocs = true;
  outParams.modifyPublicFunctions = true;
  pm.addPass(bufferization::createBufferResultsToOutParamsPass(outParams));
  pm.addPass(createCanonicalizerPass());

  pm.addNestedPass<func::FuncOp>(createRlxMapToGpu({options.blockSize}));
  pm.addPass(createCanonicalizerPass());

  // Outlining, NVVM, PTX embedded in the host module, host code to LLVM.
  gpu::GPUToNVVMPipelineOptions nvvm;
  nvvm.cubinChip = options.chip;
  nvvm.cubinFeatures = options.features;
  nvvm.cubinFormat = "isa";
  nvvm.optLevel = options.optLevel;
  gpu::buildLowerToNVVMPassPipeline(pm, nvvm);
  pm.addPass(createRlxEmitInvokeWrappers());
  pm.addPass(createCanonicalizerPass());
}
