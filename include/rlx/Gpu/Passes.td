//===- Passes.td - rlx passes for NVIDIA GPUs --------------*- tablegen -*-===//
#ifndef RLX_GPU_PASSES_TD
#define RLX_GPU_PASSES_TD

include "mlir/Pass/PassBase.td"

def RlxMapToGpu : Pass<"rlx-map-to-gpu", "::mlir::func::FuncOp"> {
  let summary = "Turn bufferized linalg and row loops into gpu.launch kernels";
  let description = [{
    Runs on bufferized functions whose arguments are device buffers.

    - Row loops (`scf.forall` from row regions) run one block per row:
      `block-size` threads (fewer for short rows, a multiple of the warp
      size) stride over the row's elements in each stage. A reduction stage
      is a per-thread partial result followed by `gpu.all_reduce` (warp
      shuffles and shared memory) with the op of the reduction's combiner;
      its result, like every per-row value, is held by every thread. Row
      buffers live in shared memory (workgroup attributions, at most
      `shared-memory-bytes` in all; the rest in a global scratch buffer with
      one slice per row), and `gpu.barrier` separates stages that exchange
      elements through them. A copy of a row buffer to the result is made
      by the op computing the buffer's last value, which writes the result
      directly, when the two iterate alike. Rows shorter than a warp, and rows whose ops or
      combiners this mapping does not handle (a combiner `gpu.all_reduce`
      cannot express), keep the mapping of one row per thread, the row's
      ops sequential and its buffers thread-local.
    - Elementwise linalg ops (every loop parallel) are grid-stride loops
      over a grid of at most `max-blocks` blocks of `block-size` threads.
      When the innermost dimension of every operand is contiguous and its
      extent a multiple of the vector width (16 bytes), each iteration
      loads and stores whole vectors (`vector<4xf32>`, `vector<8xf16>`);
      an op whose operands are all contiguous and whose size is not such a
      multiple runs as one dimension, with a scalar loop for the remainder.
      Kernel arguments are assumed 16-byte aligned, as CUDA allocations are.
    - Reductions whose innermost loop is reduced, over at least a warp's
      worth of elements and with a combiner `gpu.all_reduce` expresses, run
      one block per output element: the threads stride over the reduced
      iterations, `gpu.all_reduce` combines their partial results and
      thread 0 folds the total into the output.
    - Every other top-level linalg op becomes one kernel: its parallel
      loops (interchanged to the front), collapsed into one, are tiled by
      `block-size`; tiles map to blocks (`x`), positions within a tile to
      threads (`x`), and the op's remaining loops run sequentially in the
      thread. An op without parallel loops is one single-thread kernel.
    - Buffers the function allocates become `gpu.alloc` (freed before it
      returns), constants are copied to device buffers with `gpu.memcpy`,
      and `memref.copy` runs as a `linalg.copy` kernel.

    Row and elementwise kernels are built as `gpu.launch` directly, the
    others through upstream's parallel-loop-to-gpu patterns. Any memref read
    or write left outside a kernel would make the host touch device memory:
    it is reported at its location and the pass fails.
  }];
  let options = [
    Option<"blockSize", "block-size", "int64_t", /*default=*/"256",
           "Threads per block (elements or rows per tile)">,
    Option<"maxBlocks", "max-blocks", "int64_t", /*default=*/"1024",
           "Most blocks of a grid-stride elementwise kernel (enough to fill "
           "an A100 or H100 at 256 threads per block)">,
    Option<"sharedMemoryBytes", "shared-memory-bytes", "int64_t",
           /*default=*/"49152",
           "Shared memory a row kernel may use for its row buffers">,
    Option<"vectorize", "vectorize", "bool", /*default=*/"true",
           "Load and store 16-byte vectors in elementwise kernels">
  ];
  let dependentDialects = ["::mlir::gpu::GPUDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::affine::AffineDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::vector::VectorDialect"];
}

def RlxCheckGpuBinaries : Pass<"rlx-check-gpu-binaries", "::mlir::ModuleOp"> {
  let summary = "Reject PTX that calls functions it does not define";
  let description = [{
    Runs after `gpu-module-to-binary` with PTX (`isa`) objects. Kernels
    call libdevice for math functions (`__nv_expf`, `__nv_erff`, ...);
    when the CUDA toolkit's libdevice was not found, the PTX keeps
    `.extern .func` declarations that ptxas and the driver reject. Each
    such module is an error naming the function, so a missing toolkit
    fails compilation instead of producing unloadable code.
  }];
}

#endif // RLX_GPU_PASSES_TD
