//===- Passes.td - rlx transformation passes ---------------*- tablegen -*-===//
#ifndef RLX_TRANSFORMS_PASSES_TD
#define RLX_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def RlxExportAbi : Pass<"rlx-export-abi", "::mlir::ModuleOp"> {
  let summary = "Describe public functions for the rlx runtime's C ABI";
  let description = [{
    Runs on tensor-level IR, before bufferization. For every public function
    it checks that the signature is exportable (ranked tensors of f32, f16,
    bf16, f64, i1, i8, i16, i32 or i64, and a C identifier as name), marks
    it `llvm.emit_c_interface`, marks its arguments read-only for
    bufferization (callers own input buffers), copies any value it returns
    more than once (every result gets its own caller buffer), and records
    its signature in the module's `rlx_manifest` string (see
    docs/runtime.md). With `target=cuda` the manifest says that the
    functions take device buffers, which the runtime then stages. Each C
    function an `rlx.custom_call` calls is a `custom <name>` line (the
    runtime checks it is linked into the module); with `target=cuda` such
    a call is an error.

    `?` sizes are symbols of the manifest (`s0`, `s1`, ... in argument
    order). The function's ops' shape rules (`FunctionShapeAnalysis`) say
    how every result size follows from them and what must hold between
    them: an argument size that must equal another is written as that
    size's symbol (or constant), and relations that remain (`s0 % 8 == 0`,
    a window inside a dynamic axis) are `where` lines naming the op that
    needs them. The runtime checks all of it before a call runs. A result
    size not known from the arguments is an error.
  }];
  let options = [
    Option<"target", "target", "::mlir::rlx::AbiTarget",
           "::mlir::rlx::AbiTarget::Cpu",
           "Where the exported functions' buffers live",
           [{::llvm::cl::values(
             clEnumValN(::mlir::rlx::AbiTarget::Cpu, "cpu", "host memory"),
             clEnumValN(::mlir::rlx::AbiTarget::Cuda, "cuda",
                        "CUDA device memory"))}]>,
  ];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect",
                           "::mlir::bufferization::BufferizationDialect",
                           "::mlir::tensor::TensorDialect"];
}

def RlxSpecializeShapes : Pass<"rlx-specialize-shapes", "::mlir::ModuleOp"> {
  let summary = "Give `?` sizes of exported functions static values";
  let description = [{
    For users who want static speed from a program written with `?` sizes:
    `sizes=s0=128,s1=64` makes the sizes the manifest names `s0` and `s1`
    (`rlx-run --list` shows them; they are numbered per function, in
    argument order, after equal sizes are merged: see rlx-export-abi) those
    values in every public function. Every value's type (arguments, op
    results, region arguments) becomes static where its size, as the
    function's shape analysis states it in the symbols, follows from the
    given ones, so the rest of the pipeline compiles the static program. A
    size name no function has, a negative value or a value that breaks an
    op's requirement is an error.
  }];
  let options = [
    ListOption<"sizes", "sizes", "std::string",
               "NAME=VALUE pairs: the manifest's size symbols and their "
               "values">,
  ];
}

def RlxShardAnnotate : Pass<"rlx-shard-annotate", "::mlir::ModuleOp"> {
  let summary = "State a module's device mesh and its functions' shardings";
  let description = [{
    The entry of SPMD compilation (docs/distributed.md). `mesh=2` (or
    `mesh=2,2`) gives the module's `shard.grid` that shape, creating
    `shard.grid @mesh` where the module has none. `data-parallel=f:4:5`
    splits dimension 0 of arguments 4 and 5 of `@f` over every mesh axis,
    as the argument attribute `rlx.split_axes = [[0]]` does by hand.

    Then, in each function with a split argument or result, each ranked
    tensor argument gets one `shard.shard ... annotate_for_users` (split as
    its `rlx.split_axes` says, replicated without one) and each returned
    tensor one more, which is what upstream `sharding-propagation` and
    `shard-partition` start from. Results are replicated unless a result
    attribute `rlx.split_axes` says otherwise. A split dimension must be
    static and divisible by the product of its axes' sizes; a function must
    not call others (inline first); the module is given OpenMPI's ABI for
    the MPI lowering where it names none.
  }];
  let options = [
    ListOption<"mesh", "mesh", "int64_t",
               "The mesh's shape: processes along each axis">,
    ListOption<"dataParallel", "data-parallel", "std::string",
               "FUNC:ARG[:ARG...]: the arguments whose dimension 0 is the "
               "batch, split over every mesh axis">,
  ];
  let dependentDialects = ["::mlir::shard::ShardDialect",
                           "::mlir::DLTIDialect"];
}

def RlxShardPartition : Pass<"rlx-shard-partition", "::mlir::ModuleOp"> {
  let summary = "Partition annotated functions into their per-process form";
  let description = [{
    For each function with `shard.shard` annotations: upstream
    `sharding-propagation` (rlx ops take part through their
    `ShardingInterface` models), then every op the propagation left without
    annotations is annotated replicated, then upstream `shard-partition`
    rewrites the function on local blocks with collectives. Last, the
    collectives upstream `convert-shard-to-mpi` does not lower are written
    in those it does: `all_slice` as a slice at the process's index
    (upstream's pattern), `all_gather` as an all-reduce sum of zero tensors
    that each hold one process's block (exact: x + 0 = x). A collective with
    neither is a located error naming it. And the sum of two all-reduced
    sums is one all-reduce of the sum (a layer's partial input gradients).
  }];
  let dependentDialects = ["::mlir::shard::ShardDialect",
                           "::mlir::tensor::TensorDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::affine::AffineDialect"];
}

def RlxEmitMeshEntryPoints : Pass<"rlx-emit-mesh-entry-points",
                                  "::mlir::ModuleOp"> {
  let summary = "Emit the `rlx_mesh_*` functions a mesh module exports";
  let description = [{
    Runs after rlx-mangle-function-names, on modules with a `shard.grid`
    (the runtime's mesh ABI, docs/runtime.md): `rlx_mesh_start` (MPI_Init),
    `rlx_mesh_rank`, `rlx_mesh_size` (a collective call: upstream lowers no
    `mpi.comm_size`, so it is an all-reduce sum of ones), `rlx_mesh_any(flag)`
    (the maximum of `flag` over all processes, so that a check that fails
    on one process stops every process) and `rlx_mesh_stop` (MPI_Finalize),
    all in the `mpi` dialect, then erases the grids, which nothing refers to
    once `convert-shard-to-mpi` has run. An `mpi.comm_split` whose color is
    the same on every process becomes its parent communicator (the same
    processes; MPI's predefined reductions are commutative); one whose
    color differs is an error, as upstream's OpenMPI lowering of the split
    truncates the new communicator.
  }];
  let dependentDialects = ["::mlir::mpi::MPIDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::arith::ArithDialect"];
}

def RlxRenameOpenMpiOps : Pass<"rlx-rename-openmpi-ops", "::mlir::ModuleOp"> {
  let summary = "Point the MPI lowering's reduction ops at OpenMPI's symbols";
  let description = [{
    Runs on the LLVM dialect. Upstream MPIToLLVM spells OpenMPI's predefined
    reduction ops as globals `ompi_mpi_<op>` (`ompi_mpi_sum`), but OpenMPI's
    mpi.h defines `MPI_SUM` as the address of `ompi_mpi_op_sum`, and libmpi
    exports only that: a module would not load. This renames the external
    globals (and their uses) to OpenMPI's names; it goes when upstream
    spells them right.
  }];
}

def RlxMangleFunctionNames : Pass<"rlx-mangle-function-names",
                                  "::mlir::ModuleOp"> {
  let summary = "Give every function the module defines a reserved prefix";
  let description = [{
    Renames every function defined in the module (not declarations, not the
    functions of nested modules such as GPU kernels) from `<name>` to
    `rlx_fn_<name>`, with all its uses. Runs before the lowering to LLVM,
    which calls C library functions by name (libm's `exp`, `malloc`, `free`,
    `memrefCopy`, the `mgpu*` functions): a program's `@exp` would otherwise
    be the very symbol the lowering of `math.exp` calls. Exported functions
    keep their names in the manifest and in `rlx_invoke_<name>`
    (rlx-emit-invoke-wrappers strips the prefix again).
  }];
}

def RlxEmitInvokeWrappers : Pass<"rlx-emit-invoke-wrappers",
                                 "::mlir::ModuleOp"> {
  let summary = "Emit uniform `rlx_invoke_<name>(void **args)` entry points";
  let description = [{
    Runs on the LLVM dialect. For each `_mlir_ciface_<name>` function it
    defines `rlx_invoke_<name>(ptr args)`, which loads one memref descriptor
    pointer per argument from `args` and calls the C-interface function, so
    that the runtime can call any exported function through one signature.
    `<name>` is the program's name: without the `rlx_fn_` prefix of
    rlx-mangle-function-names. A `_mlir_ciface_<f>` the module only
    declares is the C function of an `rlx.custom_call`: its reference
    becomes weak and the constant `rlx_custom_<f>` holds its address, null
    where the module is linked without it, which the runtime checks at
    load time.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

def RlxStridedCopyToLinalg : Pass<"rlx-strided-copy-to-linalg"> {
  let summary = "Rewrite memref.copy between non-contiguous buffers as linalg.copy";
  let description = [{
    The LLVM lowering of a `memref.copy` whose operands are not both
    contiguous calls `memrefCopy` from MLIR's C runner utilities. Compiled
    rlx modules do not link that library, so such copies (e.g. returning a
    strided view) become `linalg.copy`, which lowers to plain loops.
    Contiguous copies stay `memref.copy` (a `memcpy`): identity layouts and
    views that are one contiguous run of static shape, as the LLVM lowering
    tells them apart (a packed panel's row of a matmul, a row of a tile).
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect"];
}

def RlxCarryTensorsInPlace
    : Pass<"rlx-carry-tensors-in-place", "::mlir::func::FuncOp"> {
  let summary = "Write the tensors loops and conditionals yield into one buffer";
  let description = [{
    Runs on tensor-level IR, right before bufferization. A tensor that an
    `scf.for` iteration yields is computed into a new buffer whenever it is
    not written in place of the iteration's carried tensor (an RNN step
    written as `matmul` then `tanh`); a tensor an `scf.if` yields is a new
    buffer whenever its branch computes it. Each such value is copied into
    its destination instead: the loop's iteration argument, or a
    `tensor.empty` before the conditional. Empty-tensor elimination then
    usually makes the value's producer write there directly, so the copy
    folds away, and no buffer is allocated per iteration. The GPU pipeline
    needs this (a device buffer allocated on the host cannot be freed by the
    next iteration); on the CPU it saves a `malloc` per iteration.

    A yielded value already written in place of the carried tensor (through
    destination-passing ops, `tensor.insert_slice`, nested loops) is left
    alone, as are dynamically shaped results of conditionals.
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect"];
}

def RlxDistinctResultBuffers
    : Pass<"rlx-distinct-result-buffers", "::mlir::func::FuncOp"> {
  let summary = "Give every buffer a function returns its own allocation";
  let description = [{
    Runs on bufferized functions, right before
    `buffer-results-to-out-params`. A buffer returned more than once (one
    value computed twice and merged by CSE, an argument or a constant
    returned twice) is copied into a new allocation for each later
    occurrence, so that every result becomes its own out-parameter:
    upstream's out-parameter promotion with `hoist-static-allocs` replaces
    a returned allocation by its out-parameter and would otherwise see the
    erased allocation again at the next occurrence. A returned reshape of
    an allocation that nothing else returns (a row loop's `[rows, 1]`
    result returned as `[rows]`) becomes an allocation of the returned
    shape, the old one a view of it, so that the result too is computed in
    the caller's buffer rather than copied there (on the GPU, a copy kernel
    fewer).
  }];
  let dependentDialects = ["::mlir::memref::MemRefDialect"];
}

def RlxFusePatterns : Pass<"rlx-fuse-patterns"> {
  let summary = "Replace the seeds' named patterns with fused rlx ops";
  let description = [{
    Runs before region formation (which would otherwise absorb the
    patterns' elementwise ops). Patterns:

    - `mul(silu(narrow(x, gate half)), narrow(x, up half))`, the halves of
      x's last axis, in either operand order → `rlx.swiglu` (with
      `gate_first` when the gate is the low half). The silu must have no
      other user.
    - `add(matmul(a, b), bias)` with `bias` of shape `[N]`, then optionally
      an activation (an `ActivationKind` op) → `rlx.matmul_bias_act`;
      `add(matmul(a, b), residual)` with `residual` of the product's shape
      → `rlx.matmul_residual`. Either operand order; the matmul must have
      no other user, and the activation joins only as the add's sole user.
    - `conv → add(bias) → [add(residual)] → [activation]` →
      `rlx.conv_bias_act`, each op the previous one's sole user. The bias
      operand has shape `[1, C, 1, ...]` (the convolution's rank) or
      `[C, 1, ...]` (one less), directly or through an `rlx.expand` to the
      result shape; when it is an `rlx.reshape` of a `[C]` tensor, that
      tensor is the fused op's bias, else a reshape to `[C]` is inserted.
      The residual has the convolution result's shape.

    Only float contractions fuse; adds that broadcast the result further,
    biases of another shape and other unary ops (e.g. `rlx.exp`) stay.

    `--rlx-unfuse` expands every fused op back (FusedOpInterface).
  }];
}

def RlxFormRegions : Pass<"rlx-form-regions"> {
  let summary = "Group producer/consumer chains of rlx ops into rlx.region kernels";
  let description = [{
    Greedy producer/consumer clustering. First, with `row` on, every row op
    (softmax, log_softmax, layer_norm, rms_norm, the softmax losses:
    `RowOpInterface`) is replaced by its decomposition into elementwise ops
    and reductions, so that its work can fuse with its neighbours'. Then,
    walking each block from the end, an elementwise op, a reduction or a
    contraction seeds a cluster, which absorbs producers of its members' operands that may
    join the cluster's kind (a property of each op's interfaces, see
    `rlx.region`):

    - elementwise producers of the iteration shape (or, in a row cluster,
      of the per-row shape);
    - a reduction whose result a member reads turns the cluster into a `row`
      cluster: it must keep its reduced axes, and every reduction in the
      cluster must reduce the same axes of the same shape;
    - a contraction (matmul, conv, dot_general) whose only users are
      members turns an elementwise cluster into a `contraction` cluster;
      then elementwise producers of its operands, of the operand's shape
      and read only inside the cluster, join as its prologue.

    Each producer joins under the sole-consumer rule: it joins when every
    user is in the cluster; with `multi-output`, also when its other users
    all come after the cluster (it becomes an extra region result); with
    `recompute`, an elementwise producer is otherwise copied into the
    region and the original stays for its other users. A producer that
    would take the region past `max-inputs` distinct inputs stays outside.

    Clusters of two or more ops whose kind is enabled become `rlx.region`s
    at the position of their last op; a reduction seed with only elementwise
    producers makes a `reduction` region. `--rlx-unfuse` is the exact
    inverse of region formation.
  }];
  let options = [
    Option<"maxInputs", "max-inputs", "unsigned", /*default=*/"16",
           "Most distinct inputs a region may read">,
    Option<"multiOutput", "multi-output", "bool", /*default=*/"true",
           "Let producers with users outside a region become extra results">,
    Option<"recompute", "recompute", "bool", /*default=*/"false",
           "Copy elementwise producers that cannot join otherwise into the "
           "region">,
    Option<"elementwise", "elementwise", "bool", /*default=*/"true",
           "Form elementwise regions">,
    Option<"reduction", "reduction", "bool", /*default=*/"true",
           "Form reduction regions (elementwise work feeding reductions)">,
    Option<"row", "row", "bool", /*default=*/"true",
           "Decompose row ops and form row regions">,
    Option<"contraction", "contraction", "bool", /*default=*/"true",
           "Form contraction regions (a contraction and its epilogue)">,
  ];
}

def RlxUnfuse : Pass<"rlx-unfuse"> {
  let summary = "Inline every rlx.region and expand every fused op";
  let description = [{
    The exact inverse of `--rlx-fuse`: each region's body ops move in front
    of it with the body arguments replaced by the region inputs, and the
    region's results by the yielded values; each fused op (`rlx.swiglu`,
    `rlx.matmul_bias_act`, ...) is replaced by the primitive ops it stands
    for (a conv_bias_act bias as `rlx.reshape` to `[1, C, 1, ...]`).
  }];
}

def RlxDecompose : Pass<"rlx-decompose"> {
  let summary = "Replace the ops defined by compositions of rlx ops by them";
  let description = [{
    Each op with a decomposition (`DecomposableOpInterface`: rlx.lstm,
    rlx.gru, rlx.rnn) is replaced by the rlx ops that define it, so that
    fusion, the conversion to linalg and the gradient see only those. The
    pipelines run it after `--rlx-autodiff` (which decomposes the functions
    it differentiates itself) and before fusion.
  }];
}

def RlxLowerCustomCalls : Pass<"rlx-lower-custom-calls",
                                "::mlir::ModuleOp"> {
  let summary = "Call the C functions of rlx.custom_call on buffers";
  let description = [{
    Rewrites each `rlx.custom_call @f` into a `func.call @f` on buffers: the
    inputs as read-only views of any layout (`bufferization.to_buffer` to a
    fully dynamic strided memref, so no copy is made for a view), each
    result a new buffer the callee writes (`memref.alloc`), made a tensor
    again by `bufferization.to_tensor restrict`. It declares `@f` once
    (`llvm.emit_c_interface`, so the callee is MLIR's C interface
    `_mlir_ciface_f` taking descriptor pointers) and fails with a
    diagnostic when two calls of `f` disagree on the signature or the
    module defines a function `@f` itself. A module pass, since it adds
    symbols; the CPU pipeline runs it before the conversion to linalg.
  }];
  let dependentDialects = ["::mlir::bufferization::BufferizationDialect",
                           "::mlir::func::FuncDialect",
                           "::mlir::memref::MemRefDialect"];
}

def RlxFuseElementwise : Pass<"rlx-fuse-elementwise"> {
  let summary = "Fuse linalg elementwise producers that are not recomputed";
  let description = [{
    Upstream's elementwise fusion of `linalg.generic` ops on tensors (the
    patterns of `linalg-fuse-elementwise-ops`, with their reshape folding,
    canonicalizations and constant folding) with a cost rule: a producer
    fuses into a consumer that reads each of its elements once, i.e. whose
    indexing map for the fused operand is a permutation of the consumer's
    loops (an elementwise consumer, or a reduction of the producer's own
    iteration space). A consumer with loops that map does not cover (the
    other dimensions of a contraction, a broadcast) would run the producer's
    payload once per iteration of those loops: a `gelu` feeding a matmul
    ran once per output column, 60x slower than unfused. Such producers fuse
    only when their payload is free to recompute: nothing but casts.
    Producers with more than one use never fuse, as upstream's default.
  }];
  let dependentDialects = ["::mlir::affine::AffineDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect"];
}

def RlxSplitReductions
    : Pass<"rlx-split-reductions", "::mlir::func::FuncOp"> {
  let summary = "Sum long floating-point reductions in blocks and lanes";
  let description = [{
    Runs on linalg on tensors. A `linalg.generic` with one reduction loop
    that sums floating-point values (`arith.addf` combiners; other results
    of the same op may be any reduction with a neutral element, e.g. max)
    and that reads an operand over all of its loops (a reduction, not a
    contraction) is rewritten, as upstream's `linalg::splitReduction`
    does, into partial reductions and a reduction of the partials:

    - longer than `block-size`: contiguous blocks of `block-size` elements
      are summed into one partial each (a new parallel loop over the
      blocks), then the partials are summed;
    - otherwise, when the reduction loop is innermost and longer than
      `lanes`: element `i` is summed into lane `i mod lanes` (a new
      innermost parallel loop over contiguous elements, which vectorizes),
      then the lanes are summed.

    A sum over several consecutive reduction loops that every operand reads
    in order (trailing axes, a whole tensor) is first made one loop over
    their elements (upstream `linalg::collapseOpIterationDims`) and then
    split the same way, so that its blocks are a parallel loop that threads
    share.

    The partial sums are reductions again, and are split the same way until
    none is longer than `lanes`: every value is then a sum of at most
    `block-size / lanes` and a tree of short sums, so the rounding error
    grows like the depth of that tree, not like the length (a sequential
    f32 sum of 4096 values is off by about 4e-6 relative, this by about
    1e-7). A length that does not divide is split after its largest
    multiple of the block, and the rest is summed onto that partial result.
    A `?` length is split the same way at run time: its largest multiple of
    the block, `(n floordiv block-size) * block-size`, is `?` blocks (each
    summed in lanes), whose partial sums (marked `rlx.partial_sums`) are
    summed in order, not split again; the rest, fewer than a block, is
    summed onto them. A `?` loop that upstream's bounds analysis bounds by
    the block is left as it is.

    The order of the additions depends only on the shapes, so results are
    deterministic; fused and unfused graphs lower to the same reduction
    generics, so they still agree bit for bit. Ops with `linalg.index`,
    integer sums, and reductions without a sum are left alone.
  }];
  let options = [
    Option<"blockSize", "block-size", "int64_t", /*default=*/"256",
           "Elements per block of a long reduction">,
    Option<"lanes", "lanes", "int64_t", /*default=*/"16",
           "Partial sums of an innermost reduction (a vector's lanes)">,
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect"];
}

def RlxPolynomialExp : Pass<"rlx-polynomial-exp"> {
  let summary = "Replace math.exp by a polynomial that vectorizes";
  let description = [{
    Rewrites `math.exp` on f32 (f16 and bf16 go through f32) into MLIR's
    polynomial approximation: range reduction to `2^k * exp(r)` and a
    degree-5 polynomial, all plain arithmetic. libm's `expf` is a call the
    loop vectorizer cannot widen, and it bounds softmax and the softmax
    losses on CPU. The approximation is within a few ulp of the exact value
    over the whole range (overflow to +inf, underflow to 0). Every loop nest
    gets the same expansion, so fused and unfused graphs still agree bit
    for bit. f64 keeps libm.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::math::MathDialect",
    "::mlir::vector::VectorDialect",
  ];
}

def RlxAutodiff : Pass<"rlx-autodiff", "::mlir::ModuleOp"> {
  let summary = "Reverse-mode differentiation of functions that return a loss";
  let description = [{
    For every function with a `rlx.differentiate` attribute (an
    `array<i64>` of distinct argument indices) that returns one
    floating-point scalar (a rank-0 tensor, the loss), adds a public function
    `<name>_grad` with the same arguments that returns the loss and then
    the gradient of the loss with respect to each listed argument, in the
    listed order. Other functions may call it (a training step) through a
    declaration `func.func private @<name>_grad` of that type, which the
    pass defines.

    The gradient function is the forward body, with the functions it calls
    inlined (a call to a declaration or a recursive call is an error) and
    fused ops and `rlx.region`s expanded as `--rlx-unfuse` expands them,
    followed by its reverse: ops are visited from the loss back, and each op
    that depends on a differentiated argument and whose result has a
    gradient contributes its operands' gradients through its
    `GradientOpInterface` rule; gradients
    of a value read several times are summed (fan-out). `rlx.stop_gradient`
    passes none. Forward values the rules need are read from the forward
    computation (saved, not recomputed), unless `recompute-elementwise`
    is on: then each elementwise forward value the backward reads is
    computed again where the backward first needs it, so the forward value
    need not stay alive (stored) until then and can fuse away, provided
    that costs no other saved value: its operands are arguments, constants,
    forward values the backward reads anyway, or values it recomputes
    too. An op on the
    path without a rule is an error naming it.
  }];
  let options = [
    Option<"recomputeElementwise", "recompute-elementwise", "bool",
           /*default=*/"false",
           "Recompute elementwise forward values in the backward instead of "
           "saving them">,
  ];
  let dependentDialects = ["::mlir::rlx::RlxDialect"];
}

def RlxKernelReport : Pass<"rlx-kernel-report"> {
  let summary = "Remark how many loop nests each function has";
  let description = [{
    Emits one remark per function, `'NAME' has N loop nests`, counting its
    outermost loop constructs: structured (linalg) ops and `scf` loops not
    nested in another loop, and the vector writes outside any loop of a
    value not carried by a loop (an op whose whole iteration space is one
    register tile). Each becomes one loop
    nest on CPU and one kernel on GPU. Run it after lowering and fusion (rlx-compile
    `--kernel-report` runs it at that point of the CPU pipeline).
  }];
}

#endif // RLX_TRANSFORMS_PASSES_TD
