//===- Pipelines.h - rlx compilation pipelines ------------------*- C++ -*-===//
#ifndef RLX_PIPELINES_PIPELINES_H
#define RLX_PIPELINES_PIPELINES_H

#include "mlir/Pass/PassOptions.h"

namespace mlir {
class OpPassManager;
namespace rlx {

struct CpuPipelineOptions : public PassPipelineOptions<CpuPipelineOptions> {
  PassOptions::ListOption<std::string> specialize{
      *this, "specialize",
      llvm::cl::desc("NAME=VALUE: give the `?` size the manifest names NAME "
                     "a static value (rlx-specialize-shapes)")};
  PassOptions::ListOption<int64_t> mesh{
      *this, "mesh",
      llvm::cl::desc("Run the module once per process of a mesh of this "
                     "shape, over MPI (rlx-shard-annotate)")};
  PassOptions::ListOption<std::string> dataParallel{
      *this, "data-parallel",
      llvm::cl::desc("FUNC:ARG[:ARG...]: split dimension 0 of those "
                     "arguments over the mesh (rlx-shard-annotate)")};
  PassOptions::Option<bool> fusePatterns{
      *this, "fuse-patterns",
      llvm::cl::desc("Replace named patterns by fused rlx ops "
                     "(rlx-fuse-patterns)"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> formRegions{
      *this, "form-regions",
      llvm::cl::desc("Group rlx chains into rlx.region kernels "
                     "(rlx-form-regions)"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> fuseElementwise{
      *this, "fuse-elementwise",
      llvm::cl::desc("Fuse producer/consumer linalg generics "
                     "(rlx-fuse-elementwise)"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> fuseEpilogues{
      *this, "fuse-epilogues",
      llvm::cl::desc("Fuse elementwise epilogues and left-operand "
                     "prologues into the tiles of contractions and "
                     "reductions (rlx-tile-and-fuse)"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> tileAndVectorize{
      *this, "tile-and-vectorize",
      llvm::cl::desc("Tile contractions and their epilogues into thread, "
                     "cache and register tiles and vectorize them "
                     "(rlx-cpu-select-lowering-config, rlx-tile-and-fuse, "
                     "rlx-cpu-vectorize)"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> strictFp{
      *this, "strict-fp",
      llvm::cl::desc("Round every multiply and add as written (no fused "
                     "multiply-adds in elementwise code): fused and unfused "
                     "code give the same bits"),
      llvm::cl::init(false)};
  PassOptions::Option<int64_t> vectorBits{
      *this, "vector-bits",
      llvm::cl::desc("Width of the target's vector registers in bits"),
      llvm::cl::init(512)};
  PassOptions::Option<bool> splitReductions{
      *this, "split-reductions",
      llvm::cl::desc("Sum long float reductions in blocks and lanes "
                     "(rlx-split-reductions)"),
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
  PassOptions::Option<bool> gpuTiledContractions{
      *this, "gpu-tiled-contractions",
      llvm::cl::desc("Test mode: run matmuls as the GPU pipeline tiles "
                     "them (rlx-gpu-tile-contractions), on the CPU, without "
                     "epilogue fusion"),
      llvm::cl::init(false)};
  PassOptions::Option<std::string> gpuBlocksOnCpu{
      *this, "gpu-blocks-on-cpu",
      llvm::cl::desc("Test mode: run the kernels rlx-map-to-gpu builds with "
                     "a block per tile on the CPU, as the GPU pipeline "
                     "prepares them, threads taking turns between barriers "
                     "in this order: ascending or descending "
                     "(rlx-gpu-emulate-tile-kernels)"),
      llvm::cl::init("")};
};

/// rlx on tensors all the way to the LLVM dialect: rlx-export-abi,
/// rlx-fuse-patterns, rlx-form-regions, rlx-to-linalg, elementwise fusion,
/// epilogue fusion, rlx-split-reductions, one-shot bufferization with results
/// as out-parameters, deallocation, rlx-mangle-function-names, loops, and
/// conversion to LLVM, ending with the runtime's `rlx_invoke_*` entry points.
void buildCpuPipeline(OpPassManager &pm, const CpuPipelineOptions &options);

struct GpuPipelineOptions : public PassPipelineOptions<GpuPipelineOptions> {
  PassOptions::ListOption<std::string> specialize{
      *this, "specialize",
      llvm::cl::desc("NAME=VALUE: give the `?` size the manifest names NAME "
                     "a static value (rlx-specialize-shapes)")};
  PassOptions::Option<std::string> chip{
      *this, "chip", llvm::cl::desc("NVIDIA GPU architecture (sm_80, sm_90)"),
      llvm::cl::init("sm_80")};
  PassOptions::Option<std::string> features{
      *this, "features",
      llvm::cl::desc("NVPTX target features, e.g. the PTX ISA version"),
      llvm::cl::init("+ptx80")};
  PassOptions::Option<std::string> cudaPath{
      *this, "cuda-path",
      llvm::cl::desc("CUDA toolkit whose libdevice kernels link (default: "
                     "the one found at configure time, else $CUDA_ROOT, "
                     "$CUDA_HOME or $CUDA_PATH)"),
      llvm::cl::init("")};
  PassOptions::Option<int64_t> blockSize{
      *this, "block-size",
      llvm::cl::desc("Threads per block: elements (or rows) per tile"),
      llvm::cl::init(256)};
  PassOptions::Option<int64_t> maxBlocks{
      *this, "max-blocks",
      llvm::cl::desc("Most blocks of a grid-stride elementwise kernel"),
      llvm::cl::init(1024)};
  PassOptions::Option<bool> fusePatterns{
      *this, "fuse-patterns",
      llvm::cl::desc("Replace named patterns by fused rlx ops "
                     "(rlx-fuse-patterns)"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> formRegions{
      *this, "form-regions",
      llvm::cl::desc("Group rlx chains into rlx.region kernels "
                     "(rlx-form-regions)"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> fuseElementwise{
      *this, "fuse-elementwise",
      llvm::cl::desc("Fuse producer/consumer linalg generics "
                     "(rlx-fuse-elementwise)"),
      llvm::cl::init(true)};
  // rlx.attention is one kernel, a block per (batch, head, query tile)
  // running the tile's online softmax over the key tiles, the key tile and
  // the tile's scores and accumulator in shared memory: 32 x 32 tiles keep
  // them within 48 KiB up to head dimension 128 in f32.
  PassOptions::Option<int64_t> attentionQueryTile{
      *this, "attention-query-tile",
      llvm::cl::desc("Queries per rlx.attention tile (per GPU block)"),
      llvm::cl::init(32)};
  PassOptions::Option<int64_t> attentionKeyTile{
      *this, "attention-key-tile",
      llvm::cl::desc("Keys per rlx.attention tile"), llvm::cl::init(32)};
  PassOptions::Option<int> optLevel{
      *this, "opt-level",
      llvm::cl::desc("Optimization level of the NVPTX code generator"),
      llvm::cl::init(2)};
};

/// rlx on tensors to kernels in PTX and host code in the LLVM dialect:
/// rlx-export-abi, rlx-fuse, rlx-to-linalg,
/// elementwise fusion, bufferization with results as out-parameters,
/// rlx-gpu-tile-contractions, rlx-gpu-map-foralls, rlx-map-to-gpu, then the
/// passes of upstream's gpu-lower-to-nvvm-pipeline (with
/// rlx-gpu-align-workgroup-memory and rlx-mangle-function-names after
/// outlining) with PTX (`isa`) as the
/// embedded binary format and libdevice from
/// `cuda-path`, rlx-check-gpu-binaries, and the runtime's `rlx_invoke_*`
/// entry points. Function arguments are device buffers.
void buildGpuPipeline(OpPassManager &pm, const GpuPipelineOptions &options);

/// The fusion pipeline, `rlx-fuse`: rlx-fuse-patterns, then
/// rlx-form-regions, on every function.
void buildFusionPipeline(OpPassManager &pm);

/// The GPU's tiling on tensors: attention's tile ops in blocks of
/// `queryTile` queries and steps of `keyTile` keys (or the reverse for dk
/// and dv), decomposed into linalg ops. Used by the GPU pipeline and the
/// CPU pipeline's GPU test modes.
void addGpuTilingPasses(OpPassManager &pm, int64_t queryTile, int64_t keyTile);

/// The passes of `rlx-fuse` that are enabled.
void addFusionPasses(OpPassManager &pm, bool fusePatterns, bool formRegions);

/// Tensors to buffers for the runtime's C ABI, shared by the CPU and GPU
/// pipelines: one-shot bufferization across function boundaries (identity
/// layouts), canonicalization, function results as out-parameters (static
/// allocations hoisted), cse and canonicalization.
void buildBufferizationPipeline(OpPassManager &pm);

/// Registers `rlx-cpu-pipeline`, `rlx-gpu-pipeline` and `rlx-fuse`.
void registerRlxPipelines();

} // namespace rlx
} // namespace mlir

#endif // RLX_PIPELINES_PIPELINES_H
