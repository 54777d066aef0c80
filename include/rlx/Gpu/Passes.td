//===- Passes.td - rlx passes for NVIDIA GPUs --------------*- tablegen -*-===//
#ifndef RLX_GPU_PASSES_TD
#define RLX_GPU_PASSES_TD

include "mlir/Pass/PassBase.td"

def RlxCheckGpuSupport : Pass<"rlx-check-gpu-support"> {
  let summary = "Reject rlx ops the GPU pipeline cannot compile yet";
  let description = [{
    Runs on rlx ops, before lowering. The GPU pipeline turns every linalg
    op into a kernel; ops whose lowering iterates sequentially on the host
    over tensor slices (`rlx.cumsum`, `rlx.cumprod`, `rlx.cummax`,
    `rlx.topk`, `rlx.attention`, `rlx.attention_backward`) would read
    device memory from the host, so each one is an error at its location
    that names it, and compilation stops instead of producing wrong code.
  }];
}

def RlxMapToGpu : Pass<"rlx-map-to-gpu", "::mlir::func::FuncOp"> {
  let summary = "Turn bufferized linalg and row loops into gpu.launch kernels";
  let description = [{
    Runs on bufferized functions whose arguments are device buffers.

    - Each top-level linalg op becomes one kernel: its leading parallel
      loops, collapsed into one, are tiled by `block-size`; tiles map to
      blocks (`x`), positions within a tile to threads (`x`), and the op's
      remaining loops run sequentially in the thread. An op without leading
      parallel loops (a full reduction) is one single-thread kernel.
    - Row loops (`scf.forall` from row regions) map the same way, one row
      per thread; the linalg ops of a row run as sequential loops and the
      row's buffers live in the thread's local memory (`memref.alloca`).
    - Buffers the function allocates become `gpu.alloc` (freed before it
      returns), constants are copied to device buffers with `gpu.memcpy`,
      and `memref.copy` runs as a `linalg.copy` kernel.

    The loops become `gpu.launch` through upstream's parallel-loop-to-gpu
    patterns. Any memref read or write left outside a kernel would make the
    host touch device memory: it is reported at its location and the pass
    fails.
  }];
  let options = [
    Option<"blockSize", "block-size", "int64_t", /*default=*/"256",
           "Threads per block (elements or rows per tile)">
  ];
  let dependentDialects = ["::mlir::gpu::GPUDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::affine::AffineDialect",
                           "::mlir::arith::ArithDialect"];
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
