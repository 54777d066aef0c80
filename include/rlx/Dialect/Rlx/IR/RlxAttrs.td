//===- RlxAttrs.td - rlx dialect attributes ----------------*- tablegen -*-===//
#ifndef RLX_DIALECT_RLX_IR_RLXATTRS_TD
#define RLX_DIALECT_RLX_IR_RLXATTRS_TD

include "mlir/IR/AttrTypeBase.td"
include "rlx/Dialect/Rlx/IR/RlxDialect.td"

class Rlx_Attr<string name, string attrMnemonic, list<Trait> traits = []>
    : AttrDef<Rlx_Dialect, name, traits> {
  let mnemonic = attrMnemonic;
}

def Rlx_LoweringConfigAttr : Rlx_Attr<"LoweringConfig", "lowering_config"> {
  let summary = "How a linalg op is tiled for a target: one tile size per loop and level";
  let description = [{
    The schedule of one linalg op, kept apart from what the op computes:
    `--rlx-to-linalg` says what is computed, a per-target pass
    (`rlx-cpu-select-lowering-config`) or the user attaches this attribute as
    `rlx.lowering_config` to the op, and the codegen passes read it. Each
    level has one tile size per loop of the op, 0 meaning "not tiled at this
    level":

    - `distribution`: the tiles that threads share out (an `scf.forall`);
      elementwise consumers and producers are fused into them. Parallel
      loops only, except on ops with a partial reduction
      (`PartialReductionOpInterface`: linalg reductions,
      `rlx.online_attention`'s keys and so `rlx.attention`'s), whose
      tiles of a reduction loop reduce into partial results merged after
      the loop (split-K).
    - `cache`: tiles of reduction loops within a thread's tile, sized for
      the cache (an `scf.for`).
    - `vector`: register tiles, each one vectorized whole
      (`linalg::vectorize`; with masks where a tile is partial).
    - `packed` (optional): the inputs whose cache tiles are copied, once
      per cache tile, into panels one register tile wide that the register
      tiles then read contiguously. Only input 1 (the right operand) of a
      matmul-shaped contraction can be packed; its panels are
      `vector[n]` columns wide and hold the cache tile's whole reduction
      range (data tiling at the cache level, as BLIS packs B).
    - `min_parallel_iterations` (optional, for ops with `?` loop sizes): the
      thread tiles apply at run time only when the op's loops make at least
      this many iterations together; rlx-tile-and-fuse makes two versions of
      the op (and of what its tiles fuse) under an `scf.if`, with the thread
      tiles and without them, the latter running on the calling thread. A
      schedule chosen before the sizes are known cannot tell a small op,
      whose fork and join would cost more than the threads save, from a
      large one.

    ```mlir
    %0 = linalg.matmul {rlx.lowering_config = #rlx.lowering_config<
           distribution = [64, 256, 0], cache = [0, 0, 256], vector = [8, 32, 1]>}
         ins(%a, %b : tensor<512x512xf32>, tensor<512x512xf32>)
         outs(%acc : tensor<512x512xf32>) -> tensor<512x512xf32>
    %1 = linalg.matmul {rlx.lowering_config = #rlx.lowering_config<
           distribution = [64, 256, 0], cache = [0, 0, 256], vector = [8, 32, 1],
           packed = [1]>} ...
    ```
  }];
  let parameters = (ins
    ArrayRefParameter<"int64_t", "tile sizes of the thread level">:$distribution,
    ArrayRefParameter<"int64_t", "tile sizes of the cache level">:$cache,
    ArrayRefParameter<"int64_t", "tile sizes of the register level">:$vector,
    OptionalArrayRefParameter<"int64_t",
        "inputs whose cache tiles are packed into register-tile panels">:$packed,
    DefaultValuedParameter<"int64_t", "0",
        "iterations below which the version without thread tiles runs">
        :$minParallelIterations
  );
  let assemblyFormat = [{
    `<` `distribution` `=` `[` $distribution `]` `,` `cache` `=` `[` $cache `]`
    `,` `vector` `=` `[` $vector `]`
    `` custom<LoweringConfigOptions>($packed, $minParallelIterations) `>`
  }];
  // The default builder with min_parallel_iterations defaulted (static
  // shapes need none).
  let skipDefaultBuilders = 1;
  let builders = [
    AttrBuilder<(ins "::llvm::ArrayRef<int64_t>":$distribution,
                     "::llvm::ArrayRef<int64_t>":$cache,
                     "::llvm::ArrayRef<int64_t>":$vector,
                     "::llvm::ArrayRef<int64_t>":$packed,
                     CArg<"int64_t", "0">:$minParallelIterations), [{
      return $_get($_ctxt, distribution, cache, vector, packed,
                   minParallelIterations);
    }]>
  ];
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// The name of the discardable attribute that holds an op's config.
    static constexpr ::llvm::StringLiteral kAttrName = "rlx.lowering_config";
  }];
}

#endif // RLX_DIALECT_RLX_IR_RLXATTRS_TD
