//===- Pipelines.h - rlx compilation pipelines ------------------*- C++ -*-===//
#ifndef RLX_PIPELINES_PIPELINES_H
#define RLX_PIPELINES_PIPELINES_H

#include "mlir/Pass/PassOptions.h"

namespace mlir {
class OpPassManager;
namespace rlx {

struct CpuPipelineOptions : public PassPipelineOptions<CpuPipelineOptions> {
  PassOptions::Option<bool> formRegions{
      *this, "form-regions",
      llvm::cl::desc("Group elementwise rlx chains into rlx.region kernels"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> fuseElementwise{
      *this, "fuse-elementwise",
      llvm::cl::desc("Fuse producer/consumer linalg elementwise ops"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> fuseEpilogues{
      *this, "fuse-epilogues",
      llvm::cl::desc("Apply contraction epilogues tile by tile"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> polynomialExp{
      *this, "polynomial-exp",
      llvm::cl::desc("Expand f32 exp into a polynomial that vectorizes "
                     "instead of calling libm"),
      llvm::cl::init(true)};
  PassOptions::Option<int64_t> attentionQueryTile{
      *this, "attention-query-tile",
      llvm::cl::desc("Queries per rlx.attention tile"), llvm::cl::init(64)};
  PassOptions::Option<int64_t> attentionKeyTile{
      *this, "attention-key-tile",
      llvm::cl::desc("Keys per rlx.attention tile"), llvm::cl::init(64)};
  PassOptions::Option<bool> kernelReport{
      *this, "kernel-report",
      llvm::cl::desc("Remark the number of loop nests of each function "
                     "after lowering and fusion"),
      llvm::cl::init(false)};
};

/// rlx on tensors all the way to the LLVM dialect: rlx-export-abi,
/// rlx-form-regions, rlx-to-linalg, elementwise fusion, epilogue fusion, one-shot bufferization with results
/// as out-parameters, deallocation, loops, and conversion to LLVM, ending
/// with the runtime's `rlx_invoke_*` entry points.
void buildCpuPipeline(OpPassManager &pm, const CpuPipelineOptions &options);

/// The fusion pipeline, `rlx-fuse`: rlx-fuse-patterns, then
/// rlx-form-regions, on every function.
void buildFusionPipeline(OpPassManager &pm);

/// Registers `rlx-cpu-pipeline` and `rlx-fuse`.
void registerRlxPipelines();

} // namespace rlx
} // namespace mlir

#endif // RLX_PIPELINES_PIPELINES_H
