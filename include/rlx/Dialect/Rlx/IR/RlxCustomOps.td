//===- RlxCustomOps.td - Ops with user-given code ---------*- tablegen -*-===//
//
// Included by RlxOps.td. A computation of rlx ops with a backward the user
// writes (jax.custom_vjp, torch.autograd.Function): straight-through
// estimators, clipped or numerically stabler gradients, gradients of
// ops whose derivative the chain rule gets wrong at a point; and a call of
// a C function the user links into the module.
//
//===----------------------------------------------------------------------===//
#ifndef RLX_DIALECT_RLX_IR_RLXCUSTOMOPS_TD
#define RLX_DIALECT_RLX_IR_RLXCUSTOMOPS_TD

include "mlir/IR/RegionKindInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "rlx/Dialect/Rlx/IR/RlxDialect.td"
include "rlx/Dialect/Rlx/IR/RlxInterfaces.td"

def Rlx_CustomFnOp : Rlx_Op<"custom_fn", [IsolatedFromAbove,
    RecursiveMemoryEffects, Rlx_ShapeRule]> {
  let summary = "rlx ops with a user-given backward (a custom VJP)";
  let description = [{
    `body` computes the results from `inputs` (its block arguments, of the
    inputs' types) and yields them; that is what the op computes, and the
    lowering inlines it. `backward` is the op's vector-Jacobian product,
    which `--rlx-autodiff` uses instead of differentiating `body`: its
    block arguments are the inputs, the results, then the results'
    gradients (zeros for a result the loss does not read), and it yields
    one gradient per input, of the input's type (ignored for an input that
    is not a floating-point tensor or not on the path to the loss). As
    `jax.custom_vjp` with the inputs and outputs as residuals: anything
    else the backward needs it recomputes.

    Both regions are isolated from the enclosing function (everything they
    read is an input), so the gradient of every value the backward sees
    is one it yields. The body's shape rule gives the results' sizes.

    ```mlir
    // Rounding with a straight-through gradient.
    %r = rlx.custom_fn (%x : tensor<8xf32>) -> (tensor<8xf32>) {
    ^bb0(%a: tensor<8xf32>):
      %q = rlx.round %a : tensor<8xf32>
      rlx.yield %q : tensor<8xf32>
    } backward {
    ^bb0(%a: tensor<8xf32>, %q: tensor<8xf32>, %dq: tensor<8xf32>):
      rlx.yield %dq : tensor<8xf32>
    }
    ```
  }];
  let arguments = (ins Variadic<Rlx_Tensor>:$inputs);
  let results = (outs Variadic<Rlx_Tensor>:$results);
  let regions = (region SizedRegion<1>:$body, SizedRegion<1>:$backward);
  let assemblyFormat = [{
    ` ` `(` ($inputs^ `:` type($inputs))? `)` `->` `(` type($results) `)`
    $body `backward` $backward attr-dict
  }];
  let hasRegionVerifier = 1;
}

def Rlx_CustomCallOp : Rlx_Op<"custom_call", [Rlx_ShapeRule]> {
  let summary = "a call of a C function the user links into the module";
  let description = [{
    Calls the C function `callee` (a C identifier) on `inputs` and returns
    the buffers it writes, one per result. The results have static shapes:
    the caller allocates them before the call. The function's signature is
    MLIR's C interface of memrefs: it is named `_mlir_ciface_<callee>`
    (`RLX_CUSTOM_CALL(callee)` in `<rlx/custom_call.h>`), returns nothing
    and takes one pointer to a strided memref descriptor (`RLX_BUFFER(T,
    rank)`: allocated and aligned pointers, offset, sizes, strides in
    elements) per input, then per result. Inputs may be views (read their
    strides); results are dense row-major and must be written whole; the
    function must not keep or free any pointer.

    `rlx-compile --link=<object or archive>` links the function into the
    module, whose manifest lists it (`custom <callee>`); the runtime
    refuses to load a module whose custom functions are not linked into
    it (`RLX_STATUS_NOT_FOUND`). All calls of one callee in a module share
    one signature. The op has unknown side effects: it is neither removed
    nor merged, and it has no gradient (wrap it in an `rlx.custom_fn` with
    a backward region). The CPU target only.

    ```mlir
    %y, %n = rlx.custom_call @soft_threshold(%x, %t)
        : (tensor<?x16xf32>, tensor<f32>) -> (tensor<4x16xf32>, tensor<i64>)
    ```
  }];
  let arguments = (ins FlatSymbolRefAttr:$callee,
                       Variadic<Rlx_Tensor>:$inputs);
  let results = (outs Variadic<Rlx_Tensor>:$results);
  let assemblyFormat = [{
    $callee `(` $inputs `)` attr-dict `:` functional-type($inputs, $results)
  }];
  let hasVerifier = 1;
}

#endif // RLX_DIALECT_RLX_IR_RLXCUSTOMOPS_TD
