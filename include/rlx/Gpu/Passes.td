//===- Passes.td - rlx passes for NVIDIA GPUs --------------*- tablegen -*-===//
#ifndef RLX_GPU_PASSES_TD
#define RLX_GPU_PASSES_TD

include "mlir/Pass/PassBase.td"

def RlxGpuTileContractions
    : Pass<"rlx-gpu-tile-contractions", "::mlir::func::FuncOp"> {
  let summary = "Tile matmuls and convolutions through workgroup memory";
  let description = [{
    Runs on bufferized functions, before `rlx-gpu-map-foralls` and
    `rlx-map-to-gpu`. Rewrites each float contraction `C(b, m, n) +=
    A(b, m, k) * B(b, k, n)` of the function body, where b, m, n and k are
    groups of loop dimensions, into the shared-memory kernel:

    - matmuls: `linalg.matmul`, `linalg.batch_matmul`, contraction
      generics (operands in any layout; several m or n dimensions, e.g. a
      batched lhs times a 2-d rhs);
    - convolutions as implicit GEMMs (`linalg.conv_*` and convolution
      generics): b is the image batch (and groups), m the output channels,
      n the output image, k the input channels and the filter window; the
      B tile is gathered from the image through the convolution's indexing
      maps (strides, dilations).

    The body must be `out + ext(a) * ext(b)` in a float type, shapes
    static, and C laid out (b..., m..., n...), read as a (b, m, n) view
    (`memref.collapse_shape`). The kernel, written with ordinary loops and
    buffers:

    - an `scf.forall` over the `tile-m` x `tile-n` tiles of C (and the
      batch) mapped to `#gpu.block<y, x>` (`z` for the batch);
    - in each tile, `memref.alloc`s of a `tile-k` x `tile-m` tile of A
      (transposed) and a `tile-k` x `tile-n` tile of B in workgroup memory,
      and an `scf.for` over k by `tile-k`;
    - in the k loop, three sibling `scf.forall`s mapped to
      `#gpu.thread<y, x>` over a (`tile-m` / `thread-tile-m`) x
      (`tile-n` / `thread-tile-n`) thread grid: two copy the A and B tiles
      (consecutive threads copy consecutive elements, zeros past the
      operands' bounds), the third accumulates each thread's
      `thread-tile-m` x `thread-tile-n` micro-tile of C, a row vector per
      micro-tile row, from a vector of A's column and one of B's row per k
      (the tiles are 16-byte aligned), with masked loads and stores of C.

    With `tensor-cores`, f16 and bf16 contractions with an f32 accumulator
    whose C tiles divide C use tensor cores instead: 128 threads per block
    (copies spread over all of them), A's tile m-major, and an `scf.forall`
    over 4 warps (`#gpu.warp<x>`, a 2x2 grid) in which each warp reads its
    part of C as 16x8 tiles (`vector.transfer_read`), contracts 16x16 A
    tiles with 16x8 B tiles from workgroup memory for each k step of 16
    (`vector.contract`, f16 x f16 or bf16 x bf16 into f32), and writes them
    back; `rlx-gpu-map-foralls` turns this into ldmatrix and mma.sync
    (m16n8k16).

    Other contractions (integer, depthwise convolutions, dynamic shapes,
    C in another order, ops inside row loops) are left to
    `rlx-map-to-gpu`, one thread per output element.

    Sibling thread loops never overlap, so the same IR runs correctly on a
    CPU, where the loops are sequential: with `workgroup-memory=false` the
    tiles are ordinary buffers and the CPU pipeline can execute the kernel
    (`rlx-cpu-pipeline{gpu-tiled-contractions}`), which tests the tiling
    without a GPU.
  }];
  let options = [
    Option<"tileM", "tile-m", "int64_t", /*default=*/"64",
           "Rows of C per block">,
    Option<"tileN", "tile-n", "int64_t", /*default=*/"64",
           "Columns of C per block">,
    Option<"tileK", "tile-k", "int64_t", /*default=*/"16",
           "Reduction steps per workgroup tile">,
    Option<"threadTileM", "thread-tile-m", "int64_t", /*default=*/"4",
           "Rows of C per thread">,
    Option<"threadTileN", "thread-tile-n", "int64_t", /*default=*/"4",
           "Columns of C per thread (the width of its row vectors)">,
    Option<"tensorCores", "tensor-cores", "bool", /*default=*/"false",
           "Compute f16 and bf16 matmuls whose C tiles divide C on tensor "
           "cores "
           "(mma.sync, sm_80 and later)">,
    Option<"workgroupMemory", "workgroup-memory", "bool", /*default=*/"true",
           "Place the operand tiles in workgroup memory (false: ordinary "
           "buffers, to run the kernel on a CPU)">
  ];
  let dependentDialects = ["::mlir::gpu::GPUDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::vector::VectorDialect",
                           "::mlir::arith::ArithDialect"];
}

def RlxGpuMapForalls : Pass<"rlx-gpu-map-foralls", "::mlir::func::FuncOp"> {
  let summary = "Turn the kernels of rlx-gpu-tile-contractions into gpu.launch";
  let description = [{
    Each `scf.forall` mapped to `#gpu.block` becomes a `gpu.launch` whose
    grid is its trip counts and whose block is the largest thread grid of
    the thread loops it contains. Block loop indices become block ids,
    workgroup buffers allocated in the loop become workgroup attributions of
    the launch, and the thread loops are mapped to thread ids by upstream's
    `mapNestedForallToThreadsImpl`, which inserts a `gpu.barrier` after each
    one (loops mapped to `#gpu.warp` go to warps). In a kernel with
    warp-level `vector.contract`s, upstream's `convert-vector-to-gpu`
    steps (`populatePrepareVectorToMMAPatterns`,
    `convertVectorToNVVMCompatibleMMASync`) then make them
    `nvgpu.ldmatrix` and `nvgpu.mma.sync`. Upstream has no mma.sync
    fragments for bf16, though ldmatrix and the fragment layouts depend only
    on the 16-bit width: bf16 contractions go through that conversion
    reading f16 views of their bf16 tiles (no value is converted), after
    which the ldmatrix ops read the bf16 tiles again and each mma.sync
    becomes `nvvm.mma.sync` with bf16 multiplicands (which upstream's
    `convert-nvgpu-to-nvvm` cannot lower). Last, each thread's accumulator
    rows (vector loads and stores of C in the k loop, and the lanes' parts
    of the mma tiles of C) move out of the k loop, so that the accumulation
    stays in registers. Loops without static bounds, or with thread loops
    not mapped to `x`, `y` or `z`, are errors.
  }];
  let dependentDialects = ["::mlir::gpu::GPUDialect",
                           "::mlir::nvgpu::NVGPUDialect",
                           "::mlir::NVVM::NVVMDialect",
                           "::mlir::LLVM::LLVMDialect",
                           "::mlir::vector::VectorDialect",
                           "::mlir::affine::AffineDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::arith::ArithDialect"];
}

def RlxGpuEmulateTileKernels
    : Pass<"rlx-gpu-emulate-tile-kernels", "::mlir::func::FuncOp"> {
  let summary = "Test mode: run rlx-map-to-gpu's block-per-tile kernels "
                "on the CPU";
  let description = [{
    Runs on bufferized functions, where `rlx-map-to-gpu` would run. Each
    loop over independent tiles (`scf.forall`) that `rlx-map-to-gpu` makes a
    kernel with one block per iteration (attention's loops, for one) is
    planned exactly as for the GPU, with `block-size` threads and the same
    barriers, but built as a CPU program: the blocks run one after another,
    and between two barriers every thread runs its share of the ops before
    the next thread starts, in `thread-order` (`ascending` or
    `descending`). The GPU may run that schedule too, so the results must
    be right under it, and an access a missing barrier should have ordered
    reads data of the wrong step; running the numeric tests in both orders
    catches a read of an element another thread writes before or after
    it. A block reduction becomes the threads' partial results in a
    buffer, folded in thread order once all are done; a per-thread private
    buffer, whose copies all hold the same values, one copy written once.
  }];
  let options = [
    Option<"blockSize", "block-size", "int64_t", /*default=*/"256",
           "Threads per block, as rlx-map-to-gpu's">,
    Option<"sharedMemoryBytes", "shared-memory-bytes", "int64_t",
           /*default=*/"49152",
           "Shared memory a kernel may use, as rlx-map-to-gpu's">,
    Option<"threadOrder", "thread-order", "std::string",
           /*default=*/"\"ascending\"",
           "The order threads take turns in: ascending or descending">
  ];
  let dependentDialects = ["::mlir::scf::SCFDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::affine::AffineDialect",
                           "::mlir::arith::ArithDialect"];
}

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
      directly, when the two iterate alike. Other loops over independent
      tiles (attention's) run the same way, a block per iteration: loops
      and conditionals on per-iteration values are uniform across the
      block, ops with parallel and reduction loops stride over their
      parallel iterations with the reduction loops in each thread, and
      buffers inside loops get shared memory first. Rows shorter than a warp, and rows whose ops or
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

    - An element the host itself needs (a loop bound, a condition of
      `scf.if` or `scf.while`, a returned scalar) and that no kernel can
      compute instead is read back: a one-thread kernel copies it into a
      device scalar, `gpu.memcpy` into a host stack scalar.

    Row and elementwise kernels are built as `gpu.launch` directly, the
    others through upstream's parallel-loop-to-gpu patterns. Any other
    memref read or write left outside a kernel would make the host touch
    device memory: it is reported at its location and the pass fails.
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

def RlxGpuAlignWorkgroupMemory
    : Pass<"rlx-gpu-align-workgroup-memory", "::mlir::gpu::GPUModuleOp"> {
  let summary = "Align the shared-memory buffers of kernels";
  let description = [{
    Runs on outlined kernels. Their workgroup attributions become
    shared-memory globals aligned to their element type unless an
    `llvm.align` attribute says more; this pass sets it to `alignment`
    bytes (keeping larger ones). The tensor-core matmul's tiles need it:
    `ldmatrix` reads 16-byte rows.
  }];
  let options = [
    Option<"alignment", "alignment", "int64_t", /*default=*/"16",
           "Bytes (a power of two)">
  ];
}

def RlxCheckGpuBinaries : Pass<"rlx-check-gpu-binaries", "::mlir::ModuleOp"> {
  let summary = "Reject PTX that calls functions it does not define or "
                "allocates stack of run-time size";
  let description = [{
    Runs after `gpu-module-to-binary` with PTX (`isa`) objects. Kernels
    call libdevice for math functions (`__nv_expf`, `__nv_erff`, ...);
    when the CUDA toolkit's libdevice was not found, the PTX keeps
    `.extern .func` declarations that ptxas and the driver reject. Each
    such module is an error naming the function, so a missing toolkit
    fails compilation instead of producing unloadable code.

    A PTX `alloca` (stack of run-time size) is an error too: the driver
    sizes a thread's stack from the kernel's static frame, and a dynamic
    allocation past it is an illegal address at run time, which neither
    ptxas nor the driver's JIT reports. `rlx-map-to-gpu` gives threads'
    buffers static sizes; this check keeps any other source out.
  }];
}

#endif // RLX_GPU_PASSES_TD
