//===- RlxInterfaces.td - rlx op interfaces ----------------*- tablegen -*-===//
#ifndef RLX_DIALECT_RLX_IR_RLXINTERFACES_TD
#define RLX_DIALECT_RLX_IR_RLXINTERFACES_TD

include "mlir/IR/OpBase.td"

def Rlx_ScalarComputeOpInterface : OpInterface<"ScalarComputeOpInterface"> {
  let cppNamespace = "::mlir::rlx";
  let description = [{
    An elementwise op whose semantics is a function of one scalar per operand.
    `buildScalar` emits that function with arith/math ops. It is the single
    source of truth for the op's arithmetic: the linalg lowering places it in
    a `linalg.generic` body, the folder evaluates it on constants, and fused
    regions and GPU kernels inline it.

    Operands arrive in the op's computation type: f16 and bf16 values are
    extended to f32 by the caller (see `ScalarBuilder::computeType`), every
    other type is passed as stored. The returned value is in the computation
    type of the result, or already in its storage type (a cast rounds once,
    straight to the storage type); the caller converts it to the storage
    type.
  }];
  let methods = [
    InterfaceMethod<
      "Emits the scalar computation of one element.",
      "::mlir::Value", "buildScalar",
      (ins "::mlir::rlx::ScalarBuilder &":$b, "::mlir::ValueRange":$operands)>,
  ];
}

def Rlx_SymbolicShapeOpInterface : OpInterface<"SymbolicShapeOpInterface"> {
  let cppNamespace = "::mlir::rlx";
  let description = [{
    An op whose result sizes are a function of its operands' sizes and
    attributes, stated once as a rule over symbolic sizes
    (`SymbolicShapes.h`): static sizes are constants, `?` sizes symbols.
    The rule infers and verifies result types, materializes result sizes
    (`ReifyRankedShapedTypeOpInterface`) and tells the ABI analysis which
    relations between a function's sizes must hold at run time. Only ops
    with a rule accept `?` dimensions.

    The rule returns the shape of every result; relations it needs between
    sizes go through `ShapeContext::requireEqual` / `requireLessEqual`,
    which fail only when the relation provably does not hold (the rule then
    reports its error). The default rule gives every result the shape of the
    first operand.
  }];
  let methods = [
    InterfaceMethod<[{Computes the shape of every result in `context`;
      fails with a diagnostic when the operands' sizes or the attributes are
      invalid.}],
      "::llvm::LogicalResult", "inferSymbolicShapes",
      (ins "::mlir::rlx::ShapeContext &":$context,
           "::llvm::SmallVectorImpl<::mlir::rlx::SymbolicShape> &":$shapes),
      "", [{
        ::mlir::rlx::SymbolicShape shape =
            context.getShape($_op->getOperand(0));
        shapes.assign($_op->getNumResults(), shape);
        return ::mlir::success();
      }]>,
  ];
}

// An op with a shape rule of its own (not the default: results shaped as the
// first operand).
def Rlx_ShapeRule
    : DeclareOpInterfaceMethods<Rlx_SymbolicShapeOpInterface,
                                ["inferSymbolicShapes"]>;

def Rlx_UnaryGradientOpInterface : OpInterface<"UnaryGradientOpInterface"> {
  let cppNamespace = "::mlir::rlx";
  let description = [{
    A unary elementwise op that states its derivative next to its formula.
    `buildGradient` is the op's vector-Jacobian product on one element: the
    gradient `dx` of the input from the input `x` and the gradient `dy` of
    the result, in the computation type (as `buildScalar`'s operands). It is
    the single source of truth for the op's derivative: `rlx.relu_backward`
    and `rlx.activation_backward` call it as their `buildScalar`, so they
    lower, fold and fuse as any elementwise op. Where the op is not
    differentiable the gradient is PyTorch's choice (e.g. 0 for relu at 0).
  }];
  let methods = [
    InterfaceMethod<
      "Emits `dx` for one element from the input `x` and the gradient `dy`.",
      "::mlir::Value", "buildGradient",
      (ins "::mlir::rlx::ScalarBuilder &":$b, "::mlir::Value":$x,
           "::mlir::Value":$dy)>,
  ];
}

def Rlx_FusedOpInterface : OpInterface<"FusedOpInterface"> {
  let cppNamespace = "::mlir::rlx";
  let description = [{
    A named fused op (made by `--rlx-fuse-patterns`) that can be expanded
    back into the primitive rlx ops it stands for. `--rlx-unfuse` calls
    `unfuse`; the expansion computes bit-for-bit what the fused op computes.
  }];
  let methods = [
    InterfaceMethod<
      "Builds the primitive ops at the builder's insertion point and returns "
      "the values that replace the op's results.",
      "::llvm::SmallVector<::mlir::Value>", "unfuse",
      (ins "::mlir::OpBuilder &":$b)>,
  ];
}

def Rlx_DecomposableOpInterface : OpInterface<"DecomposableOpInterface"> {
  let cppNamespace = "::mlir::rlx";
  let description = [{
    An op defined by a composition of other rlx ops (a recurrent layer: an
    input projection and an rlx.scan over the cell). `--rlx-decompose`
    replaces it by `decompose`'s ops before fusion and lowering, and
    `--rlx-autodiff` differentiates those ops, so the op needs neither a
    conversion nor a gradient rule of its own.
  }];
  let methods = [
    InterfaceMethod<
      "Builds the ops the op stands for at the builder's insertion point "
      "and returns the values that replace its results.",
      "::llvm::SmallVector<::mlir::Value>", "decompose",
      (ins "::mlir::OpBuilder &":$b)>,
  ];
}

def Rlx_SpectralFunctionOpInterface
    : OpInterface<"SpectralFunctionOpInterface"> {
  let cppNamespace = "::mlir::rlx";
  let description = [{
    A function `f` of symmetric matrices taken through their
    eigendecomposition, `f(a) = v f(l) v^T` with `l, v = eigh(a)` (the
    matrix exponential, logarithm, square root). The op states `f` on the
    eigenvalues and its divided differences, the two facts its
    decomposition and its gradient (the Daleckii-Krein formula
    `ga = v (d * (v^T g v)) v^T`, `d[i, j]` the divided difference of `f` at
    `l[i]` and `l[j]`) are built from. The divided differences must stay
    accurate as `l[i]` and `l[j]` meet, where they tend to `f'(l[i])`: a
    gradient through `rlx.eigh`'s rule would divide by `l[j] - l[i]` there.
  }];
  let methods = [
    InterfaceMethod<
      "Builds `f` of every element of `eigenvalues` (rlx elementwise ops) at "
      "the builder's insertion point.",
      "::mlir::Value", "applyToEigenvalues",
      (ins "::mlir::OpBuilder &":$b, "::mlir::Value":$eigenvalues)>,
    InterfaceMethod<
      "Builds the divided differences `(f(x) - f(y)) / (x - y)` (`f'(x)` "
      "where `x = y`) of the broadcast operands `x` and `y`.",
      "::mlir::Value", "buildDividedDifferences",
      (ins "::mlir::OpBuilder &":$b, "::mlir::Value":$x,
           "::mlir::Value":$y)>,
  ];
}

def Rlx_ReductionOpInterface : OpInterface<"ReductionOpInterface"> {
  let cppNamespace = "::mlir::rlx";
  let description = [{
    A reduction of one input over a set of axes whose combiner is a scalar
    function: an identity, a step that folds one element into the
    accumulator and a finishing step (the mean's division). Like
    `ScalarComputeOpInterface`, these methods are the op's arithmetic,
    stated once: the standalone lowering, reduction regions and row regions
    all build them. The accumulator has the computation type of the input
    (`ScalarBuilder::computeType`). Such an op may join `reduction` and
    `row` regions.
  }];
  let methods = [
    InterfaceMethod<"The reduced input.", "::mlir::Value", "getReducedInput">,
    InterfaceMethod<"The reduced axes, in [0, rank) and sorted.",
      "::llvm::SmallVector<int64_t>", "getReducedAxes">,
    InterfaceMethod<"Whether reduced axes stay as size-1 dimensions.",
      "bool", "keepsReducedAxes">,
    InterfaceMethod<"The accumulator's initial value, of type `type`.",
      "::mlir::Value", "buildIdentity",
      (ins "::mlir::rlx::ScalarBuilder &":$b, "::mlir::Type":$type)>,
    InterfaceMethod<"Folds `element` into `accumulator`.",
      "::mlir::Value", "buildCombine",
      (ins "::mlir::rlx::ScalarBuilder &":$b, "::mlir::Value":$accumulator,
           "::mlir::Value":$element)>,
    InterfaceMethod<[{The result (computation type) from the accumulator of
      `count` elements (an index attribute, or an `index` value where the
      reduced sizes are known only at run time).}],
      "::mlir::Value", "buildFinish",
      (ins "::mlir::rlx::ScalarBuilder &":$b, "::mlir::Value":$accumulator,
           "::mlir::OpFoldResult":$count)>,
  ];
}

def Rlx_RowOpInterface : OpInterface<"RowOpInterface"> {
  let cppNamespace = "::mlir::rlx";
  let description = [{
    An op computed row by row: reductions along its row axes, with the row
    values broadcast back to the row's elements (softmax, the
    normalizations, the softmax losses). `decomposeRows` states the op in
    primitive rlx ops (elementwise ops and `keep_dim` reductions over the
    row axes, plus shape ops on its operands and results), with exactly the
    op's rounding: f16/bf16 inputs are cast to f32 first and the results
    cast back once. That decomposition is the op's only definition: the
    lowering wraps it in one `row` region, and `--rlx-form-regions` fuses
    its primitives with their neighbours.

    Rows are never empty where a result depends on them: when the op's
    first operand has no elements, every result must have none either (a
    softmax or norm over a size-0 axis gives an empty result; a loss, a
    statistic or a parameter gradient of empty rows is a verifier error).
  }];
  let methods = [
    InterfaceMethod<[{Builds the primitive ops at the builder's insertion
      point and returns the values that replace the op's results.}],
      "::llvm::SmallVector<::mlir::Value>", "decomposeRows",
      (ins "::mlir::OpBuilder &":$b)>,
  ];
  let verify = [{ return ::mlir::rlx::verifyRowsNotEmpty($_op); }];
}

def Rlx_ContractionOpInterface : OpInterface<"ContractionOpInterface"> {
  let cppNamespace = "::mlir::rlx";
  let description = [{
    A contraction (matmul, convolution, dot_general): each result element
    reduces over a window of its operands. It may anchor a `contraction`
    region, whose elementwise epilogue is applied to each result tile while
    the tile is in cache.
  }];
}

def Rlx_GradientOpInterface : OpInterface<"GradientOpInterface"> {
  let cppNamespace = "::mlir::rlx";
  let description = [{
    The op's reverse-mode derivative rule: given the gradients of its
    results, builds the gradients of its operands from rlx ops (closed-form
    backward ops where they exist). `--rlx-autodiff` calls it on every op
    between the differentiated arguments and the loss; an op without it is
    a diagnostic naming the op. The rules are attached as external models
    (lib/Transforms/GradientRules.cpp), one per op.
  }];
  let methods = [
    InterfaceMethod<[{Builds, at the builder's insertion point, one gradient
      per operand (null where the operand has none, e.g. an integer index)
      from one gradient per result, each of the result's type.}],
      "::llvm::SmallVector<::mlir::Value>", "buildGradients",
      (ins "::mlir::OpBuilder &":$b, "::mlir::ValueRange":$resultGradients)>,
  ];
}

def Rlx_PositionalMaskOpInterface : OpInterface<"PositionalMaskOpInterface"> {
  let cppNamespace = "::mlir::rlx";
  let description = [{
    A tileable op (attention's code generation forms) whose causal or
    sliding-window mask can hide whole tiles of one of its reduction loops
    from every element of a tile: the keys no query of a query tile sees,
    the queries that see none of a key tile's keys. Tiling asks for the
    range that is visible from the op (a tile) and visits only that part
    of the loop.
  }];
  let methods = [
    InterfaceMethod<[{The loop (of `TilingInterface`'s iteration domain)
      that the mask restricts.}],
      "unsigned", "getMaskedLoop", (ins)>,
    InterfaceMethod<[{The iterations [low, high) of the masked loop that
      some element of the op sees; the whole loop without a positional
      mask.}],
      "std::pair<::mlir::OpFoldResult, ::mlir::OpFoldResult>",
      "getVisibleRange", (ins "::mlir::OpBuilder &":$b)>,
  ];
}

#endif // RLX_DIALECT_RLX_IR_RLXINTERFACES_TD
