//===- RlxScatterOps.td - Scatters and n-d gathers --------*- tablegen -*-===//
//
// Writes of updates into a tensor at positions given by data (torch's
// scatter, scatter_add and scatter_reduce, ONNX ScatterElements and
// ScatterND) and the n-d gather that reads them back. All lower to the
// destination-style `rlx.scatter` (RlxSequentialOps.td). Included by
// RlxOps.td; enums defined here are generated with the others.
//
//===----------------------------------------------------------------------===//
#ifndef RLX_DIALECT_RLX_IR_RLXSCATTEROPS_TD
#define RLX_DIALECT_RLX_IR_RLXSCATTEROPS_TD

include "mlir/IR/EnumAttr.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "rlx/Dialect/Rlx/IR/RlxDialect.td"

def Rlx_ScatterReduction : I32EnumAttr<"ScatterReduction",
    "how a scatter combines an update with the element it lands on", [
    I32EnumAttrCase<"None", 0, "none">,
    I32EnumAttrCase<"Add", 1, "add">,
    I32EnumAttrCase<"Mul", 2, "mul">,
    I32EnumAttrCase<"Max", 3, "max">,
    I32EnumAttrCase<"Min", 4, "min">
  ]> {
  let cppNamespace = "::mlir::rlx";
}

// The rules every scatter shares, stated once for the descriptions.
defvar scatterRules = [{
    Updates are applied one after the other in row-major order of their
    positions, so the result does not depend on the schedule: with `none`
    a position written twice holds the last update (numpy's and ONNX's
    rule; torch leaves it unspecified), and `add`/`mul` accumulate in that
    order. `max` and `min` propagate NaN (`torch.scatter_reduce` with
    `amax`/`amin`). Integer `add` and `mul` wrap.

    An index `i` addresses a dimension of size `n` as in Python: `i` in
    `[-n, 0)` means `i + n`. An update whose index is outside `[-n, n)` in
    any component is dropped (JAX's rule for scatters): it is never
    written, and nothing outside the result is touched.
}];

class Rlx_ScatterElementsBase<string mnemonic, string summaryText,
                              string reductionText, dag reductionArg>
    : Rlx_Op<mnemonic, [Pure, InferTypeOpAdaptor, Rlx_ShapeRule,
                        AllElementTypesMatch<["data", "updates",
                                              "result"]>]> {
  let summary = summaryText;
  let description = !strconcat([{
    `torch.Tensor.scatter` / ONNX `ScatterElements`: `indices` (i32 or i64)
    and `updates` have one shape, of the rank of `data`, and for every
    position `q` of `indices`

    ```
    result = data
    result[q with coordinate `axis` replaced by indices[q]] =
        combine(result[...], updates[q])
    ```

    where `combine` is }] # reductionText # [{. Outside `axis` (in
    `[-rank, rank)`) each dimension of `indices` is no larger than that of
    `data`. The result has the type of `data`.
  }], scatterRules);
  let arguments = !con((ins Rlx_NumberTensor:$data, Rlx_IndexTensor:$indices,
                            Rlx_NumberTensor:$updates, Rlx_I64Attr:$axis),
                       reductionArg);
  let results = (outs Rlx_NumberTensor:$result);
  let extraClassDeclaration = [{
    /// `axis` normalized to [0, rank); valid once the op is verified.
    int64_t getNormalizedAxis() {
      int64_t rank = getData().getType().getRank();
      return getAxis() < 0 ? getAxis() + rank : getAxis();
    }
  }];
}

def Rlx_ScatterElementsOp : Rlx_ScatterElementsBase<"scatter_elements",
    "write or combine single elements along one axis (torch.scatter_reduce)",
    "given by `reduction`: `none` replaces, `add`, `mul`, `max`, `min` "
    "combine (`torch.scatter_reduce(data, axis, indices, updates, reduce, "
    "include_self=True)`)",
    (ins Rlx_ScatterReduction:$reduction)> {
  let assemblyFormat = [{
    $reduction $data `,` $indices `,` $updates `axis` `=` $axis attr-dict `:`
    functional-type(operands, results)
  }];
}

def Rlx_ScatterAddOp : Rlx_ScatterElementsBase<"scatter_add",
    "add single elements along one axis (torch.scatter_add)",
    "addition (`torch.scatter_add`); `rlx.scatter_elements add` under the "
    "name torch gives it", (ins)> {
  let assemblyFormat = [{
    $data `,` $indices `,` $updates `axis` `=` $axis attr-dict `:`
    functional-type(operands, results)
  }];
}

def Rlx_ScatterNdOp : Rlx_Op<"scatter_nd", [Pure, InferTypeOpAdaptor,
    Rlx_ShapeRule, AllElementTypesMatch<["data", "updates", "result"]>]> {
  let summary = "write or combine slices at n-d positions (ONNX ScatterND)";
  let description = !strconcat([{
    ONNX `ScatterND` (with `batch_dims`, the inverse of `rlx.gather_nd`):
    the last dimension of `indices` (i32 or i64) holds `k` coordinates
    that address dimensions `[b, b + k)` of `data`, where `b` is
    `batch_dims`; the first `b` dimensions of `indices` are the batch,
    matching those of `data`. With `i` over the other dimensions of
    `indices` and `s` over the dimensions of `data` after `b + k`:

    ```
    result = data
    result[B..., indices[B..., i..., :], s...] =
        combine(result[...], updates[B..., i..., s...])
    ```

    so `updates` has the shape `indices.shape[:-1] + data.shape[b + k:]`.
    `combine` is given by `reduction`: `none` replaces, `add`, `mul`, `max`,
    `min` combine. `0 < k` and `b + k <= rank(data)`. `x[idx] = v` and
    `index_put_` are this op. The result has the type of `data`.
  }], scatterRules);
  let arguments = (ins Rlx_NumberTensor:$data, Rlx_IndexTensor:$indices,
                       Rlx_NumberTensor:$updates,
                       Rlx_ScatterReduction:$reduction,
                       DefaultValuedAttr<Rlx_I64Attr, "0">:$batch_dims);
  let results = (outs Rlx_NumberTensor:$result);
  let assemblyFormat = [{
    $reduction $data `,` $indices `,` $updates
    (`batch_dims` `=` $batch_dims^)? attr-dict `:`
    functional-type(operands, results)
  }];
}

def Rlx_GatherNdOp : Rlx_Op<"gather_nd", [Pure, InferTypeOpAdaptor,
                                          Rlx_ShapeRule]> {
  let summary = "read slices at n-d positions (ONNX GatherND)";
  let description = [{
    ONNX `GatherND` and `x[idx0, idx1, ...]` with index tensors: the last
    dimension of `indices` (i32 or i64) holds `k` coordinates that address
    dimensions `[b, b + k)` of `data`, where `b` is `batch_dims`; the first
    `b` dimensions of `indices` are the batch, matching those of `data`:

    ```
    result[B..., i..., s...] = data[B..., indices[B..., i..., :], s...]
    ```

    The result shape is `indices.shape[:-1] + data.shape[b + k:]` with the
    element type of `data`. `0 < k` and `b + k <= rank(data)`.

    Coordinates follow `rlx.gather`'s rule: one in `[-n, 0)` wraps once,
    anything still outside `[0, n)` is clamped to `[0, n - 1]`, so nothing
    outside `data` is read. A non-empty `indices` cannot read from an
    addressed dimension of size 0 (a run-time requirement where it is `?`).
    The gradient of `data` adds the result's gradient back at the clamped
    positions (`rlx.scatter_nd add`).
  }];
  let arguments = (ins Rlx_Tensor:$data, Rlx_IndexTensor:$indices,
                       DefaultValuedAttr<Rlx_I64Attr, "0">:$batch_dims);
  let results = (outs Rlx_Tensor:$result);
  let assemblyFormat = [{
    $data `,` $indices (`batch_dims` `=` $batch_dims^)? attr-dict `:`
    functional-type(operands, results)
  }];
}

#endif // RLX_DIALECT_RLX_IR_RLXSCATTEROPS_TD
