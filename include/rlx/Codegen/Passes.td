//===- Passes.td - rlx code generation passes --------------*- tablegen -*-===//
//
// The codegen layer: schedules for linalg ops on tensors, kept apart from
// the conversions that say what the ops compute. A per-target pass chooses a
// #rlx.lowering_config for each op it knows how to schedule; the tiling and
// vectorization passes read the configs, whoever attached them.
//
//===----------------------------------------------------------------------===//
#ifndef RLX_CODEGEN_PASSES_TD
#define RLX_CODEGEN_PASSES_TD

include "mlir/Pass/PassBase.td"

def RlxCpuSelectLoweringConfig
    : Pass<"rlx-cpu-select-lowering-config", "::mlir::func::FuncOp"> {
  let summary = "Choose thread, cache and register tiles of linalg ops, attention, rows and scans for a CPU";
  let description = [{
    Attaches an `rlx.lowering_config` to every linalg op with float or
    integer results (of a byte or more) that has none, for a CPU with
    vectors of `vector-bits` bits: to
    contractions (a linalg op whose body multiplies and adds: matmul,
    batched matmul, a [batch, sequence, features] activation times a weight,
    a matrix times a batch of matrices, a projection from [heads,
    features]), to convolutions and pooling windows, and to elementwise ops
    and reductions. Of several m (or n) loops the innermost makes the
    register rows (columns) and the others are taken one at a time, like
    batches; of several k loops each takes one step per register tile and
    the innermost is cut into cache tiles.

    Contractions:

    - register tiles of 8 rows by two vectors of columns, one step of the
      reduction: 16 accumulators of `vector-bits` each, updated by
      broadcast-multiply-adds (outer products);
    - cache tiles of 256 steps of the reduction;
    - thread tiles of 64 rows by 256 columns (one batch at a time), or of
      one register tile of rows when the whole problem fits in one.

    Convolutions (with filters, grouped or depthwise, any number of spatial
    dimensions; `linalg::inferConvolutionDims`) and pooling windows (no
    filters: a register tile of one row of columns), when output columns
    are the result's contiguous dimension:

    - register tiles of one image, one output row, up to two vectors of
      output columns and as many output channels as make 16 vectors, and
      one iteration of the input channel and window loops: the same
      outer-product kernel as a matmul, with the filters' column broadcast
      against a row of input;
    - cache tiles of one output row;
    - thread tiles of one image, one group and 64 output channels, and of
      output rows where that makes fewer than 16 tiles.

    Columns come in whole vectors where they divide the loop, else in one
    partly filled vector.

    Attention's tile ops (`rlx.online_attention`, `rlx.attention_dq`,
    `rlx.attention_dkdv`) get thread tiles of one batch, one head and
    `attention-query-tile` queries (`attention-key-tile` keys for dk and
    dv) and cache tiles of the other sequence, sizes that divide their
    loops where one of at least a quarter of these does. `rlx.rows` gets
    thread tiles of one row (a cache tile of one row, a step of a loop,
    when it is in a loop or has fewer than 2^16 elements). `rlx.associative_scan` and
    `rlx.scatter` keep their sequential loops whole; a cache tile is one
    line when the lines are contiguous (no loop after the sequential ones
    is longer than 1), else up to four vectors of the innermost loop, and
    thread tiles split the parallel loops as for elementwise rows (none in
    a loop or under 2^16 iterations).

    Ops in loops (the products of attention's tiles after decomposition,
    the stages of a row) get cache and register tiles only: their
    loops already run in parallel where they can. So do ops of fewer than
    2^16 iterations: a parallel region's fork and join would cost more than
    the threads save.

    Other float and integer ops, elementwise ops and reductions, get
    register tiles of up to four vectors along the loop that walks their
    first operand's contiguous dimension (one iteration of every other
    loop), unless an operand is read across that loop (transposed) or the
    body reads tensors; a reduction's tile along a reduced loop then
    becomes one horizontal reduction. Outside loops, their outermost
    parallel loops are split into at least 16 thread tiles of whole
    register tiles (never a reduced loop; a dynamic loop in tiles of one
    register tile). With `strict-fp`, a reduction whose vectors would run
    along a reduced loop does not get these.

    Every other op whose result's contiguous dimension is walked by a
    parallel loop (a transposed read, a gather, a window no schedule above
    takes, a strict-mode reduction over rows) gets the same tiles along
    that loop: vectors of result elements, one step of every other loop,
    reductions included, so each element is still summed in order. Ops
    that read an operand through an index that falls as a loop rises
    (`o - k`) or wraps are left whole: upstream tiling cannot size their
    slices. A reduction into a scalar stays one loop nest.

    Tiles divide their loops where a size close to these does (so every
    tile has the same static shape), a loop that no size close to the
    register tile divides and that is shorter than two register tiles is
    one register tile, and a tile that covers its whole loop is not
    tiled. Ops that already carry a config (a user's schedule) are left as
    they are.
  }];
  let options = [
    Option<"vectorBits", "vector-bits", "int64_t", /*default=*/"512",
           "Width of the target's vector registers in bits (128: SSE/NEON, "
           "256: AVX2, 512: AVX-512)">,
    Option<"strictFp", "strict-fp", "bool", /*default=*/"false",
           "Leave reductions whose vectors would run along a reduced loop "
           "to be summed as every other float reduction is (no tiles for "
           "them)">,
    Option<"attentionQueryTile", "attention-query-tile", "int64_t",
           /*default=*/"64", "Queries per rlx.online_attention thread tile">,
    Option<"attentionKeyTile", "attention-key-tile", "int64_t",
           /*default=*/"64", "Keys per step of rlx.online_attention's online "
           "softmax (its cache tile)">,
  ];
  let dependentDialects = ["::mlir::rlx::RlxDialect"];
}

def RlxGpuSelectLoweringConfig
    : Pass<"rlx-gpu-select-lowering-config", "::mlir::func::FuncOp"> {
  let summary = "Choose the block tiles of attention, rows and scans for an NVIDIA GPU";
  let description = [{
    Attaches an `rlx.lowering_config` to every `rlx.rows` that has none
    (a block per row), to every `rlx.associative_scan` and `rlx.scatter` (one line
    per tile, which becomes a thread), and to every `rlx.online_attention`,
    `rlx.attention_dq` and `rlx.attention_dkdv`: thread tiles
    (the GPU's blocks) of one batch, one head (kv head for dk and dv) and
    `attention-query-tile` queries (`attention-key-tile` keys for dk and
    dv), and cache tiles of the other sequence, the steps of each block.
    The tiles of a loop shorter than the size are the whole loop; when that
    leaves a single block, the parallel sequence is split into two tiles
    or more where it can be. `rlx-tile-and-fuse` then tiles and decomposes
    the ops; the GPU pipeline maps the result to blocks and threads after
    bufferization.
  }];
  let options = [
    Option<"attentionQueryTile", "attention-query-tile", "int64_t",
           /*default=*/"32", "Queries per block of rlx.online_attention">,
    Option<"attentionKeyTile", "attention-key-tile", "int64_t",
           /*default=*/"32", "Keys per step of a block's online softmax">,
  ];
  let dependentDialects = ["::mlir::rlx::RlxDialect"];
}

def RlxTileAndFuse : Pass<"rlx-tile-and-fuse", "::mlir::func::FuncOp"> {
  let summary = "Tile ops with an rlx.lowering_config into thread, cache and register tiles";
  let description = [{
    Runs on linalg on tensors, through upstream `TilingInterface`. For every
    op with an `rlx.lowering_config` (the config's op):

    1. The root is the op itself, or, for an op with reduction loops, the
       elementwise consumer that reads its single-use result element for
       element (a contraction's epilogue: bias, activation, residual, cast). The root is tiled at the `distribution`
       level into an `scf.forall` (`scf::tileConsumerAndFuseProducersUsingSCF`),
       and fused into each tile are the config's op, the ops that initialize
       destinations (`linalg.fill`) and an elementwise producer of the config
       op's first operand when each tile reads its own rows of it (a
       prologue), so the full-size intermediate results are never stored.
       An op whose config has no thread tiles is tiled and fused the same
       way at its `vector` level instead, in `scf.for` loops, when it has an
       epilogue.
    2. Inside each thread tile, the config's op is tiled at the `cache` level
       (reduction tiles, an `scf.for`), then it and the root are tiled at the
       `vector` level; the root takes the config op's tile sizes of the loops
       it shares with it, and its own copy of the config.

    Ops that are not linalg ops (`rlx.online_attention`, `rlx.rows`) are
    tiled through the same interface: at the `distribution` level into an
    `scf.forall` with the ops that initialize their destinations (and, for
    rows, elementwise producers that only convert their inputs), their
    elementwise consumers fused into it (upstream `scf::tileAndFuseConsumer`), then at
    the `cache` level into `scf.for` loops; attention's key loop visits only
    the keys its tile's queries can see. An op that decomposes
    (`linalg::AggregatedOpInterface`) is then decomposed into linalg ops,
    tile by tile, for the next round of config selection and tiling; its
    loop-carried state is kept as slices without unit dimensions.

    Ops with reduction loops and ops that are not linalg ops are tiled
    first, with what they fuse; elementwise ops that none of them took are
    tiled after. Before an elementwise op whose result no loop yields is
    tiled, an input that only it reads (produced by another op, read element
    for element as the result is written) replaces its `tensor.empty`
    destination, and the payload reads that element from the destination:
    the tiles then overwrite the dead input, as the untiled op would after
    bufferization, rather than a new buffer each.

    The tiles of a level that cover their whole loop are not tiled, so a
    second run leaves what the first one tiled as it is.

    An op with `?` loop sizes whose config has `min_parallel_iterations` is
    versioned before it is tiled: an `scf.if` on whether its loops make at
    least that many iterations holds two copies of its fusion group (the
    root, the producers its thread tiles fuse and that nothing else reads,
    and, for ops that decompose, their elementwise consumers). The first
    copy is tiled with the config's thread tiles, the second without any
    (as a small op is: on the calling thread). Both keep static tile sizes,
    which a thread tile chosen at run time (the whole loop or the config's
    tile) would not, and each version computes the whole group, so nothing
    is computed before the `scf.if` for both.

    ```mlir
    %parallel = arith.cmpi uge, %iterations, %c65536 : index
    %r = scf.if %parallel -> (tensor<?x512xf32>) {
      %t = scf.forall (%i, %j) = (0, 0) to (%m, 512) step (64, 256) ... // fill, matmul
      scf.yield %t : tensor<?x512xf32>
    } else {
      %t = scf.for %i = %c0 to %m step %c8 ...                            // fill, matmul
      scf.yield %t : tensor<?x512xf32>
    }
    ```

    Reduction loops are tiled in order, so every result element is summed
    in the same order at any thread count. Thread tiles of a reduction loop
    (attention's keys, split-K; a maximum of a whole tensor) make one
    `scf.forall` over every tiled loop whose tiles write partial results
    (`PartialReductionOpInterface`), merged after it in a fixed order; the
    split comes from the config, not from the thread count.

    With `fuse-epilogues=false` the root is always the config's op and
    nothing else is fused into its tiles but the initialization of its
    destination. This is the one epilogue-fusion mechanism of the CPU
    pipeline.
  }];
  let options = [
    Option<"fuseEpilogues", "fuse-epilogues", "bool", /*default=*/"true",
           "Fuse the elementwise consumer and left-operand prologue of the "
           "config's op into its thread tiles">,
  ];
  let dependentDialects = ["::mlir::affine::AffineDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::rlx::RlxDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::tensor::TensorDialect"];
}

def RlxCpuVectorize : Pass<"rlx-cpu-vectorize", "::mlir::func::FuncOp"> {
  let summary = "Vectorize the register tiles of ops with an rlx.lowering_config";
  let description = [{
    Turns every linalg op with an `rlx.lowering_config` that has register
    tiles (a register tile) into vector ops with upstream
    `linalg::vectorize`.
    A convolution tile with one iteration of each window loop is first
    rewritten as the generic it is then: inputs read at `o * s + k * d` are
    read at `o` from a slice with stride `s`, and the window loops are
    dropped, which leaves a matmul-shaped contraction.

    A tile whose extents are dynamic (the partial tile of a dynamic loop)
    is vectorized to its config's register tile, with masks (upstream
    masked vectorization); a static tile whose result rows are not a
    power-of-two number of elements, to the next power of two. The masks
    are then taken apart: transfers read and write the lanes that exist
    (out-of-bounds transfers, or transfers of the slice's source with an
    explicit mask, so that no slice of dynamic size is left), arithmetic
    computes every lane, and a reduction replaces the lanes that do not
    exist by its identity. Payloads that could trap or read memory on a
    lane that does not exist (integer division, tensor reads) are
    not masked, nor are a contraction's reduced loops: such tiles stay
    loop nests.
    A contraction tile with several (unit) reduction
    loops keeps only the last, so its vector contraction is matmul-shaped.
    Elementwise ops and reductions are vectorized first, and a reduction's
    tile along a row becomes one horizontal
    `vector.reduction` per tile (upstream inner-reduction lowering of
    `vector.multi_reduction`), so that a sum of products there is not taken
    for a contraction. Then the contractions and convolutions: their
    multiply-add reductions become `vector.contract`
    (its first operand the one whose elements are broadcast, so vectors run
    along the result's rows), and tensor slices fold into the transfers.
    Elementwise multiply-adds on vectors become `vector.fma` (one rounding)
    unless `strict-fp` is set; with it, contractions are lowered here to
    outer products whose multiplies and adds round separately (upstream's
    lowering would fuse them), as the scalar loops of a tile that is not
    vectorized and of the unfused op do. Then loop-invariant subsets are hoisted out
    of loops (`hoistLoopInvariantSubsets`), so an accumulator tile stays in
    registers across the reduction loop instead of being read and written
    once per step (out of a loop that carries a tensor of dynamic shape
    only when it is innermost: the bounds analysis that proves such
    subsets disjoint costs seconds over a nest of partial tiles).
  }];
  let options = [
    Option<"strictFp", "strict-fp", "bool", /*default=*/"false",
           "Round every multiply and add separately, as written (elementwise "
           "code and contractions), instead of contracting them into fused "
           "multiply-adds: fused and unfused code then give the same bits">,
  ];
  let dependentDialects = ["::mlir::vector::VectorDialect",
                           "::mlir::tensor::TensorDialect"];
}

def RlxCpuSplitBroadcastReads
    : Pass<"rlx-cpu-split-broadcast-reads", "::mlir::func::FuncOp"> {
  let summary = "Read the element of a broadcasting transfer once, then broadcast it";
  let description = [{
    Rewrites a `vector.transfer_read` of a memref whose permutation map
    broadcasts some vector dimensions (a minor identity with broadcasts,
    unmasked) into a read of size 1 in those dimensions with a minor
    identity map, and a `vector.broadcast` of it. Runs before
    `convert-vector-to-scf`, whose one-dimensional strategy would otherwise
    lower a broadcast of the minor dimension (a row op's per-row scale,
    read back from its buffer for each register tile of the row) to a loop
    that loads the element and inserts it lane by lane: LLVM keeps such a
    loop when it does not unroll it fully, and the lanes then pass through
    the stack. Upstream's `TransferReadToVectorLoadLowering` splits the same
    reads, but into an n-D `vector.load`, which the LLVM lowering rejects.

    ```mlir
    %v = vector.transfer_read %scale[%i, %j, %c0], %pad
        {in_bounds = [true, true, true],
         permutation_map = affine_map<(d0, d1, d2) -> (d0, d1, 0)>}
        : memref<2x32x1xf32>, vector<1x1x64xf32>
    // becomes
    %s = vector.transfer_read %scale[%i, %j, %c0], %pad
        {in_bounds = [true, true, true]} : memref<2x32x1xf32>, vector<1x1x1xf32>
    %v = vector.broadcast %s : vector<1x1x1xf32> to vector<1x1x64xf32>
    ```
  }];
  let dependentDialects = ["::mlir::vector::VectorDialect"];
}

def RlxCpuGuardParallelRegions : Pass<"rlx-cpu-guard-parallel-regions"> {
  let summary = "Run parallel loops of one iteration on the calling thread";
  let description = [{
    Puts each outermost `scf.parallel` with run-time bounds under an
    `scf.if` that holds when the loop has more than one iteration; the
    other branch runs a copy of the loop as an `scf.for` nest. A loop of one
    iteration gains nothing from a team of threads, and forking and joining
    one costs microseconds, as much as a small op's whole work (OpenMP's
    `if` clause still pays libomp's work-sharing set-up). A small op with
    `?` sizes has no parallel loop at all (rlx-tile-and-fuse versions it on
    `min_parallel_iterations` of its `#rlx.lowering_config`); this pass
    catches the thread tiles of a large one that still make a single tile
    (a `?` loop shorter than its tile). Loops with constant bounds are left alone: their
    schedule was chosen for their sizes. Runs before `convert-scf-to-openmp`.

    ```mlir
    scf.parallel (%i) = (%c0) to (%n) step (%tile) { ... }
    // becomes, with %several = (%n - %c0) > %tile:
    scf.if %several {
      scf.parallel (%i) = (%c0) to (%n) step (%tile) { ... }
    } else {
      scf.for %i = %c0 to %n step %tile { ... }
    }
    ```
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::scf::SCFDialect"];
}

def RlxCpuBuffersToStack : Pass<"rlx-cpu-buffers-to-stack"> {
  let summary = "Put small buffers of bounded size on the stack, once per thread";
  let description = [{
    Replaces a `memref.alloc` that is freed in its own block (by an
    unconditional `memref.dealloc`, as the deallocation pipeline leaves the
    buffers of a tile) with a view (`memref.view`) of a stack buffer of its
    largest size, allocated at the start of the region of the nearest
    automatic allocation scope (the function, or an `omp.parallel` region,
    which each thread of the team runs once). A `?` size needs a constant
    upper bound (`ValueBoundsOpInterface`: a partial tile's `affine.min`
    bounds it by the tile size). Loops between the allocation and the scope
    run their iterations one after another, so that they all reuse the one
    buffer: a tile's buffers cost a `malloc` and a `free` per loop
    iteration otherwise. No buffer is hoisted out of an `scf.forall` or
    `scf.parallel`, whose iterations may run at once.

    A buffer larger than `max-buffer-bytes`, or one that would take a
    scope's stack buffers past `max-scope-bytes`, stays on the heap: worker
    threads have stacks of a few MiB. So do bf16 buffers: LLVM promotes a
    small stack buffer to registers, and its x86 back end cannot legalize
    every bf16 operation that makes. Runs after `convert-scf-to-openmp`
    (so that a thread tile's buffers go to its parallel region) and before
    `lower-affine` (the bounds are read from affine ops).

    ```mlir
    omp.parallel {
      omp.wsloop { omp.loop_nest (%i) : index = (%c0) to (%n) step (%c64) {
        %rows = affine.min affine_map<(d0)[s0] -> (64, s0 - d0)>(%i)[%n]
        %tile = memref.alloc(%rows) : memref<?x16xf32>
        ...
        memref.dealloc %tile : memref<?x16xf32>
      } }
    }
    // becomes
    omp.parallel {
      %stack = memref.alloca() : memref<4096xi8>
      omp.wsloop { omp.loop_nest (%i) : index = (%c0) to (%n) step (%c64) {
        %rows = affine.min affine_map<(d0)[s0] -> (64, s0 - d0)>(%i)[%n]
        %tile = memref.view %stack[%c0][%rows]
            : memref<4096xi8> to memref<?x16xf32>
        ...
      } }
    }
    ```
  }];
  let options = [
    Option<"maxBufferBytes", "max-buffer-bytes", "int64_t",
           /*default=*/"65536",
           "Largest buffer put on the stack, in bytes (at its largest size)">,
    Option<"maxScopeBytes", "max-scope-bytes", "int64_t",
           /*default=*/"262144",
           "Most bytes of stack buffers in one allocation scope">,
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::memref::MemRefDialect"];
}

#endif // RLX_CODEGEN_PASSES_TD
