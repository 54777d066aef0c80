//===- RlxControlFlowOps.td - Data-dependent control flow --*- tablegen -*-===//
//
// Included by RlxOps.td. Control flow on tensors: a branch on a boolean
// tensor, a loop while a condition holds, and a body applied along an axis
// with carried state (jax.lax.cond, while_loop and scan). Their regions
// read values of the enclosing function directly (they are not isolated),
// hold rlx ops, and end in rlx.yield. rlx-to-linalg lowers them to scf.if,
// scf.while and scf.for over tensors, and the ops in their regions as any
// others.
//
//===----------------------------------------------------------------------===//
#ifndef RLX_DIALECT_RLX_IR_RLXCONTROLFLOWOPS_TD
#define RLX_DIALECT_RLX_IR_RLXCONTROLFLOWOPS_TD

include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "rlx/Dialect/Rlx/IR/RlxDialect.td"
include "rlx/Dialect/Rlx/IR/RlxInterfaces.td"

// A rank-0 boolean tensor: the condition of rlx.if and rlx.while (buildable,
// so that rlx.if's syntax need not spell its type).
def Rlx_PredicateTensor : 0DTensorOf<[I1]> {
  let builderCall = "::mlir::RankedTensorType::get({}, $_builder.getI1Type())";
}

def Rlx_IfOp : Rlx_Op<"if", [RecursiveMemoryEffects, NoRegionArguments,
    Rlx_ShapeRule]> {
  let summary = "one of two regions, chosen by a boolean tensor";
  let description = [{
    Runs `then_region` when `condition` (a rank-0 i1 tensor) is true, else
    `else_region`, and returns what the region that ran yields. Both
    regions yield values of the result types; they read any value of the
    enclosing function. Only the chosen region runs: this is a branch, not
    a select, so a region may compute what the other would make invalid
    (an out-of-range slice, a division by zero), and it costs one region's
    work. `--rlx-autodiff` differentiates it with an rlx.if on the same
    condition whose regions recompute their forward and apply its
    gradient. Results whose sizes differ between the regions are `?` in the
    result type; such a size is known only at run time (a function cannot
    return it: its caller allocates the results from the arguments'
    sizes).

    ```mlir
    %y = rlx.if %pred -> (tensor<4xf32>) {
      %a = rlx.exp %x : tensor<4xf32>
      rlx.yield %a : tensor<4xf32>
    } else {
      rlx.yield %x : tensor<4xf32>
    }
    ```
  }];
  let arguments = (ins Rlx_PredicateTensor:$condition);
  let results = (outs Variadic<Rlx_Tensor>:$results);
  let regions = (region SizedRegion<1>:$then_region,
                        SizedRegion<1>:$else_region);
  let assemblyFormat = [{
    $condition (`->` `(` type($results)^ `)`)? $then_region `else`
    $else_region attr-dict
  }];
  let hasRegionVerifier = 1;
}

def Rlx_WhileOp : Rlx_Op<"while", [RecursiveMemoryEffects, InferTypeOpAdaptor,
    Rlx_ShapeRule]> {
  let summary = "repeats a body on carried tensors while a condition holds";
  let description = [{
    Starting from `inits`, evaluates `condition_region` on the carried
    values (its block arguments, one per init, of the inits' types); while
    it yields true (a rank-0 i1 tensor), runs `body` on them, which yields
    the next carried values (of the same types). The results are the
    carried values when the condition first yields false; with a condition
    that is false at once, the inits.

    ```
    carried = inits
    while condition(carried): carried = body(carried)
    return carried
    ```

    The carried values keep their types and sizes from one iteration to
    the next (as `jax.lax.while_loop`'s: a `?` size is the init's
    throughout), so every size in the loop is known from the function's
    arguments. Both regions read any value of the enclosing function. A
    loop whose condition never becomes false does not end. Its gradient
    would need the number of iterations before the loop runs, so
    `--rlx-autodiff` rejects rlx.while on the path to a loss; a loop with a
    known trip count is an rlx.scan with `length`.

    ```mlir
    %n, %x2 = rlx.while %n0, %x0 : tensor<i64>, tensor<4xf32> condition {
    ^bb0(%i: tensor<i64>, %x: tensor<4xf32>):
      %c = rlx.lt %i, %limit : (tensor<i64>, tensor<i64>) -> tensor<i1>
      rlx.yield %c : tensor<i1>
    } do {
    ^bb0(%i: tensor<i64>, %x: tensor<4xf32>):
      %i1 = rlx.add %i, %one : (tensor<i64>, tensor<i64>) -> tensor<i64>
      %x1 = rlx.tanh %x : tensor<4xf32>
      rlx.yield %i1, %x1 : tensor<i64>, tensor<4xf32>
    }
    ```
  }];
  let arguments = (ins Variadic<Rlx_Tensor>:$inits);
  let results = (outs Variadic<Rlx_Tensor>:$results);
  let regions = (region SizedRegion<1>:$condition_region,
                        SizedRegion<1>:$body);
  let assemblyFormat = [{
    ($inits^ `:` type($inits))? `condition` $condition_region `do` $body
    attr-dict
  }];
  let hasRegionVerifier = 1;
}

def Rlx_ScanOp : Rlx_Op<"scan", [RecursiveMemoryEffects,
    AttrSizedOperandSegments, Rlx_ShapeRule]> {
  let summary = "a body applied along an axis with carried state";
  let description = [{
    `jax.lax.scan`: the body runs once per position `i` of `axis` in the
    `xs` (in order, or from the last position to the first with
    `reverse`), on the carried values and the slices `xs[..., i, ...]`
    (each x without its `axis`), and yields the next carried values and
    the slices `y_i` of the stacked outputs:

    ```
    carried = inits
    for i in 0 .. length (length - 1 .. 0 with reverse):
      carried, y_i = body(carried, xs[..., i, ...])
      ys[..., i, ...] = y_i
    return carried, ys
    ```

    The body's block arguments are the carried values (of the inits'
    types) then the slices; it yields the carried values (same types and
    sizes) then the y slices. The results are the final carried values
    then the ys, each a y slice's type with the scanned axis (of size
    `length`) inserted at `axis`. Every x has that axis, of one common size
    `length`; without xs, `length` is the attribute of that name (with xs
    it must agree, or be omitted). `axis` counts in the xs' (and ys')
    rank; negative counts from the end. The body reads any value of the
    enclosing function. A scan of length 0 returns the inits and empty ys.

    Recurrent cells, state-space recurrences and loops with a known trip
    count are scans. `--rlx-autodiff` differentiates one by saving the
    carried values each step starts from (the forward stacks them: memory
    of `length` carried values, not of every value the body computes) and
    running a scan in the other direction that recomputes each step from
    its saved carried values and applies the step's gradient, carrying the
    carried values' adjoints and the sums of the adjoints of the values
    the body reads from outside (the weights of a recurrent cell).

    ```mlir
    %h, %hs = rlx.scan (%h0 : tensor<4x8xf32>) over (%xs : tensor<16x4x3xf32>)
        -> (tensor<4x8xf32>, tensor<16x4x8xf32>) {
    ^bb0(%h: tensor<4x8xf32>, %x: tensor<4x3xf32>):
      %p = rlx.matmul %x, %wx : (tensor<4x3xf32>, tensor<3x8xf32>) -> tensor<4x8xf32>
      %q = rlx.matmul %h, %wh : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
      %s = rlx.add %p, %q : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
      %n = rlx.tanh %s : tensor<4x8xf32>
      rlx.yield %n, %n : tensor<4x8xf32>, tensor<4x8xf32>
    }
    ```
  }];
  let arguments = (ins Variadic<Rlx_Tensor>:$inits, Variadic<Rlx_Tensor>:$xs,
                       DefaultValuedAttr<Rlx_I64Attr, "0">:$axis,
                       OptionalAttr<Rlx_I64Attr>:$length, UnitAttr:$reverse);
  let results = (outs Variadic<Rlx_Tensor>:$results);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    ` ` `(` ($inits^ `:` type($inits))? `)` `over` ` ` `(`
    ($xs^ `:` type($xs))? `)`
    (`axis` `=` $axis^)? (`length` `=` $length^)? (`reverse` $reverse^)?
    (`->` `(` type($results)^ `)`)? $body attr-dict
  }];
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
  let extraClassDeclaration = [{
    /// The number of positions scanned: the xs' size along `axis` (`?` if
    /// dynamic), else the `length` attribute.
    int64_t getStaticLength();
    /// The final carried values and the stacked outputs.
    ::mlir::ResultRange getFinalCarries() {
      return getResults().take_front(getInits().size());
    }
    ::mlir::ResultRange getStackedOutputs() {
      return getResults().drop_front(getInits().size());
    }
  }];
}

#endif // RLX_DIALECT_RLX_IR_RLXCONTROLFLOWOPS_TD
