//===- RlxFusedOps.td - Named fused ops --------------------*- tablegen -*-===//
//
// Included by RlxOps.td. Fused ops are made by --rlx-fuse-patterns from the
// seeds' named patterns and undone by --rlx-unfuse (FusedOpInterface).
//
//===----------------------------------------------------------------------===//
#ifndef RLX_DIALECT_RLX_IR_RLXFUSEDOPS_TD
#define RLX_DIALECT_RLX_IR_RLXFUSEDOPS_TD

include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "rlx/Dialect/Rlx/IR/RlxDialect.td"
include "rlx/Dialect/Rlx/IR/RlxInterfaces.td"

def Rlx_SwigluOp : Rlx_Op<"swiglu", [Pure, InferTypeOpAdaptor,
    DeclareOpInterfaceMethods<Rlx_FusedOpInterface>]> {
  let summary = "SwiGLU on a concatenated [up, gate] input: silu(gate) * up";
  let description = [{
    The last axis of `input` (length 2N) holds two halves: by default `up`
    in `[0, N)` and `gate` in `[N, 2N)` (the canonical concatenation of the
    up and gate projections); with `gate_first` the halves swap. The result,
    of last-axis length N, is `silu(gate) * up`, with silu rounded to the
    element type before the product, exactly as the unfused
    narrow/silu/mul graph computes it. `--rlx-fuse-patterns` forms it from
    that graph; `--rlx-unfuse` expands it back.
  }];
  let arguments = (ins Rlx_FloatTensor:$input, UnitAttr:$gate_first);
  let results = (outs Rlx_FloatTensor:$result);
  let assemblyFormat = [{
    $input (`gate_first` $gate_first^)? attr-dict `:` type($input) `->`
    type($result)
  }];
  let extraClassDeclaration = [{
    /// N: the length of each half of the last axis.
    int64_t getHalfLength() {
      return getInput().getType().getShape().back() / 2;
    }
  }];
}

#endif // RLX_DIALECT_RLX_IR_RLXFUSEDOPS_TD
