//===- CpuPipeline.cpp - rlx to LLVM for CPUs -----------------------------===//
#include "rlx/Pipelines/Pipelines.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/Bufferization/Pipelines/Passes.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Dialect/SCF/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"
#include "rlx/Codegen/Passes.h"
#include "rlx/Conversion/Passes.h"
#include "rlx/Gpu/Passes.h"
#include "rlx/Transforms/Passes.h"

using namespace mlir;

void mlir::rlx::buildCpuPipeline(OpPassManager &pm,
                                 const CpuPipelineOptions &options) {
  // Gradient functions first, so they are exported and compiled like any
  // other; a no-op without rlx.differentiate.
  pm.addPass(createRlxAutodiff());
  pm.addPass(createRlxDecompose());
  // Signatures are read while functions still take tensors.
  if (!options.specialize.empty()) {
    RlxSpecializeShapesOptions specialize;
    specialize.sizes.assign(options.specialize.begin(),
                            options.specialize.end());
    pm.addPass(createRlxSpecializeShapes(specialize));
  }
  // SPMD: each process's part of the graph, whole-graph autodiff included
  // (docs/distributed.md); no-ops without a mesh.
  if (!options.mesh.empty())
    pm.addPass(createInlinerPass());
  RlxShardAnnotateOptions sharding;
  sharding.mesh.assign(options.mesh.begin(), options.mesh.end());
  sharding.dataParallel.assign(options.dataParallel.begin(),
                               options.dataParallel.end());
  pm.addPass(createRlxShardAnnotate(sharding));
  pm.addPass(createRlxShardPartition());
  pm.addPass(createRlxExportAbi());
  pm.addPass(createRlxLowerCustomCalls());
  addFusionPasses(pm, options.fusePatterns, options.formRegions);
  pm.addNestedPass<func::FuncOp>(createRlxToLinalg());
  // Upstream elementwise ops on tensors written next to rlx ops.
  pm.addNestedPass<func::FuncOp>(createConvertElementwiseToLinalgPass());
  // Collectives on buffers, before schedules see the graph's linalg ops.
  pm.addPass(createConvertShardToMPIPass());
  pm.addPass(createCanonicalizerPass());
  if (options.fuseElementwise)
    pm.addNestedPass<func::FuncOp>(createRlxFuseElementwise());
  pm.addPass(createCSEPass());
  // The GPU test modes see the linalg ops the GPU pipeline sees.
  bool asOnGpu =
      options.gpuTiledContractions || !options.gpuBlocksOnCpu.empty();
  // The order in which long sums add up (blocks, lanes) is the graph's,
  // fixed before any schedule is chosen: every schedule then keeps it.
  if (options.splitReductions && !asOnGpu)
    pm.addNestedPass<func::FuncOp>(createRlxSplitReductions());
  if (options.tileAndVectorize && !asOnGpu) {
    // The codegen layer: schedules chosen per op for this CPU, then thread,
    // cache and register tiles with their elementwise neighbours fused, then
    // vector ops.
    RlxCpuSelectLoweringConfigOptions config;
    config.vectorBits = options.vectorBits;
    config.strictFp = options.strictFp;
    config.attentionQueryTile = options.attentionQueryTile;
    config.attentionKeyTile = options.attentionKeyTile;
    RlxTileAndFuseOptions tiling;
    tiling.fuseEpilogues = options.fuseEpilogues;
    // Twice: ops that decompose when tiled (attention, rows) leave linalg
    // ops in their tiles, whose sums split as any others before the second
    // round schedules and tiles them; it leaves what the first round tiled
    // as it is.
    for (int round = 0; round < 2; ++round) {
      if (round == 1 && options.splitReductions)
        pm.addNestedPass<func::FuncOp>(createRlxSplitReductions());
      pm.addNestedPass<func::FuncOp>(createRlxCpuSelectLoweringConfig(config));
      pm.addNestedPass<func::FuncOp>(createRlxTileAndFuse(tiling));
      pm.addPass(createCanonicalizerPass());
    }
    RlxCpuVectorizeOptions vectorize;
    vectorize.strictFp = options.strictFp;
    pm.addNestedPass<func::FuncOp>(createRlxCpuVectorize(vectorize));
    pm.addPass(createCanonicalizerPass());
    pm.addPass(createCSEPass());
  }
  // Attention in the GPU's blocks, as the GPU pipeline tiles it. Without
  // the CPU's schedules, the ops that only lower through their tiles'
  // decomposition (attention, rows) are tiled the same way, and the rest
  // become scalar loops.
  if (asOnGpu || !options.tileAndVectorize)
    addGpuTilingPasses(pm, options.attentionQueryTile,
                       options.attentionKeyTile);
  if (options.kernelReport)
    pm.addPass(createRlxKernelReport());

  buildBufferizationPipeline(pm);
  if (!options.gpuBlocksOnCpu.empty()) {
    RlxGpuEmulateTileKernelsOptions emulation;
    emulation.threadOrder = options.gpuBlocksOnCpu;
    pm.addNestedPass<func::FuncOp>(createRlxGpuEmulateTileKernels(emulation));
  }
  bufferization::buildBufferDeallocationPipeline(pm);
  if (options.gpuTiledContractions) {
    RlxGpuTileContractionsOptions tiling;
    tiling.workgroupMemory = false;
    tiling.tensorCores = true;
    pm.addNestedPass<func::FuncOp>(createRlxGpuTileContractions(tiling));
    pm.addPass(createConvertVectorToSCFPass());
  }

  // From here on the lowering calls C functions by name (libm, malloc).
  pm.addPass(createRlxMangleFunctionNames());
  pm.addPass(createRlxEmitMeshEntryPoints());
  pm.addPass(createRlxStridedCopyToLinalg());
  // Transfers of more than one dimension unrolled into rows, with no
  // stack buffer.
  VectorTransferToSCFOptions transfers;
  transfers.enableFullUnroll(true);
  pm.addNestedPass<func::FuncOp>(createRlxCpuSplitBroadcastReads());
  pm.addNestedPass<func::FuncOp>(createConvertVectorToSCFPass(transfers));
  // Thread tiles become OpenMP work-sharing loops (the GPU test modes keep
  // the kernels' loops sequential, as they emulate them).
  bool threads = !asOnGpu;
  if (threads)
    pm.addNestedPass<func::FuncOp>(createForallToParallelLoopPass());
  pm.addNestedPass<func::FuncOp>(createConvertLinalgToLoopsPass());
  pm.addPass(memref::createExpandStridedMetadataPass());
  if (threads) {
    pm.addPass(createRlxCpuGuardParallelRegions());
    pm.addPass(createConvertSCFToOpenMPPass());
    // Each loop body is put in a memref.alloca_scope, which must be inlined
    // (it holds no alloca) before its loops become blocks.
    pm.addPass(createCanonicalizerPass());
  }
  // A thread's tile buffers go to its parallel region, with bounds read
  // from the affine ops that size them.
  pm.addPass(createRlxCpuBuffersToStack());
  pm.addPass(createLowerAffinePass());
  pm.addPass(createSCFToControlFlowPass());
  arith::ArithExpandOpsPassOptions expand;
  expand.includeBf16 = true;
  pm.addPass(arith::createArithExpandOpsPass(expand));
  if (options.polynomialExp)
    pm.addPass(createRlxPolynomialExp());
  // LLVM intrinsics where they exist (vectorizable), libm for the rest.
  ConvertMathToLLVMPassOptions mathToLLVM;
  mathToLLVM.approximateLog1p = false;
  pm.addPass(createConvertMathToLLVMPass(mathToLLVM));
  pm.addPass(createConvertMathToLibmPass());
  // Contractions as broadcast-multiply-adds of one row by one column
  // (outer products): the register tiles' FMAs.
  ConvertVectorToLLVMPassOptions vectorToLLVM;
  vectorToLLVM.vectorContractLowering =
      vector::VectorContractLowering::OuterProduct;
  // A horizontal reduction in any order (a tree) unless the strict mode
  // keeps the scalar loop's order.
  vectorToLLVM.reassociateFPReductions = !options.strictFp;
  pm.addPass(createConvertVectorToLLVMPass(vectorToLLVM));
  pm.addPass(createConvertToLLVMPass());
  pm.addPass(createRlxRenameOpenMpiOps());
  pm.addPass(createReconcileUnrealizedCastsPass());
  pm.addPass(createRlxEmitInvokeWrappers());
  pm.addPass(createCanonicalizerPass());
}

void mlir::rlx::buildBufferizationPipeline(OpPassManager &pm) {
  // Loops carry their tensors in one buffer, not a new one per iteration.
  pm.addNestedPass<func::FuncOp>(createRlxCarryTensorsInPlace());
  // A tile computed into a new tensor and then inserted into a loop's
  // result is computed in that result's slice instead (no copy).
  pm.addPass(bufferization::createEmptyTensorEliminationPass());
  bufferization::OneShotBufferizePassOptions bufferize;
  bufferize.bufferizeFunctionBoundaries = true;
  bufferize.functionBoundaryTypeConversion =
      bufferization::LayoutMapOption::IdentityLayoutMap;
  // What rlx-carry-tensors-in-place leaves out of place (a loop yielding a
  // view of its carried tensor) yields a new buffer each iteration.
  bufferize.allowReturnAllocsFromLoops = true;
  pm.addPass(bufferization::createOneShotBufferizePass(bufferize));
  // A result written in place by a loop is then the loop's init buffer, an
  // allocation that becomes the out-parameter instead of being copied to
  // it.
  pm.addPass(createCanonicalizerPass());
  pm.addNestedPass<func::FuncOp>(createRlxDistinctResultBuffers());
  bufferization::BufferResultsToOutParamsPassOptions outParams;
  outParams.hoistStaticAllocs = true;
  outParams.hoistDynamicAllocs = true;
  outParams.modifyPublicFunctions = true;
  pm.addPass(bufferization::createBufferResultsToOutParamsPass(outParams));
  // Bufferization leaves copies between equal views of one buffer (a loop's
  // result inserted where it was extracted from): CSE makes them copies of a
  // buffer onto itself, which canonicalization erases.
  pm.addPass(createCSEPass());
  pm.addPass(createCanonicalizerPass());
}

void mlir::rlx::addFusionPasses(OpPassManager &pm, bool fusePatterns,
                                bool formRegions) {
  // Named patterns first: region formation would absorb their ops.
  if (fusePatterns)
    pm.addNestedPass<func::FuncOp>(createRlxFusePatterns());
  if (formRegions)
    pm.addNestedPass<func::FuncOp>(createRlxFormRegions());
}

void mlir::rlx::addGpuTilingPasses(OpPassManager &pm, int64_t queryTile,
                                   int64_t keyTile) {
  RlxGpuSelectLoweringConfigOptions config;
  config.attentionQueryTile = queryTile;
  config.attentionKeyTile = keyTile;
  pm.addNestedPass<func::FuncOp>(createRlxGpuSelectLoweringConfig(config));
  pm.addNestedPass<func::FuncOp>(createRlxTileAndFuse());
  pm.addPass(createCanonicalizerPass());
}

void mlir::rlx::buildFusionPipeline(OpPassManager &pm) {
  addFusionPasses(pm, /*fusePatterns=*/true, /*formRegions=*/true);
}

void mlir::rlx::registerRlxPipelines() {
  PassPipelineRegistration<>(
      "rlx-fuse", "Fuse rlx graphs into rlx.region kernels",
      buildFusionPipeline);
  PassPipelineRegistration<CpuPipelineOptions>(
      "rlx-cpu-pipeline",
      "Lower rlx to the LLVM dialect for CPUs, with the runtime's C ABI",
      buildCpuPipeline);
  PassPipelineRegistration<GpuPipelineOptions>(
      "rlx-gpu-pipeline",
      "Lower rlx to PTX kernels and LLVM host code for NVIDIA GPUs",
      buildGpuPipeline);
}
