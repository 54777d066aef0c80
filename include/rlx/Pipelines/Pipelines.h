//===- Pipelines.h - rlx compilation pipelines ------------------*- C++ -*-===//
#ifndef RLX_PIPELINES_PIPELINES_H
#define RLX_PIPELINES_PIPELINES_H

#include "mlir/Pass/PassOptions.h"

namespace mlir {
class OpPassManager;
namespace rlx {

struct CpuPipelineOptions : public PassPipelineOptions<CpuPipelineOptions> {
  PassOptions::Option<bool> fuseElementwise{
      *this, "fuse-elementwise",
      llvm::cl::desc("Fuse producer/consumer linalg elementwise ops"),
      llvm::cl::init(true)};
};

/// rlx on tensors all the way to the LLVM dialect: rlx-export-abi,
/// rlx-to-linalg, elementwise fusion, one-shot bufferization with results
/// as out-parameters, deallocation, loops, and conversion to LLVM, ending
/// with the runtime's `rlx_invoke_*` entry points.
void buildCpuPipeline(OpPassManager &pm, const CpuPipelineOptions &options);

/// Registers `rlx-cpu-pipeline`.
void registerRlxPipelines();

} // namespace rlx
} // namespace mlir

#endif // RLX_PIPELINES_PIPELINES_H
