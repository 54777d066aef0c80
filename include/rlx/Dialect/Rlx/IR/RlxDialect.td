//===- RlxDialect.td - The rlx dialect and its type constraints -*- tablegen -*-===//
#ifndef RLX_DIALECT_RLX_IR_RLXDIALECT_TD
#define RLX_DIALECT_RLX_IR_RLXDIALECT_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/CommonTypeConstraints.td"
include "mlir/IR/CommonAttrConstraints.td"

def Rlx_Dialect : Dialect {
  let name = "rlx";
  let cppNamespace = "::mlir::rlx";
  let summary = "Tensor-level dialect for machine-learning graphs (the RLX op set)";
  let description = [{
    The `rlx` dialect models the RLX op set: elementwise activations and
    arithmetic, contractions, reductions, normalizations and data movement on
    ranked tensors, whose sizes may be unknown until run time (`?`). Ops are pure and value-semantic; binary and
    ternary elementwise ops broadcast numpy-style and infer their result
    types.

    Every elementwise op implements `ScalarComputeOpInterface`: the op states
    its scalar semantics once, and the lowering to linalg, constant folding
    and (later) fusion and GPU code generation all use that one definition.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::math::MathDialect"];
  let hasConstantMaterializer = 1;
  let useDefaultAttributePrinterParser = 1;
  let hasOperationAttrVerify = 1;
  let hasRegionArgAttrVerify = 1;
  let hasRegionResultAttrVerify = 1;
  let extraClassDeclaration = [{
    /// The name of a function argument's bounds on its `?` sizes: one entry
    /// per dimension, the largest size the caller may pass, or -1 for none
    /// (`%x: tensor<?x?x64xf32> {rlx.bounds = array<i64: 8, 4096, -1>}`).
    static constexpr ::llvm::StringLiteral kBoundsAttrName = "rlx.bounds";
    /// The name of how a function's argument or result is split over the
    /// module's mesh: per dimension, the mesh axes it is split over
    /// (`%x: tensor<32x4xf32> {rlx.split_axes = [[0], []]}`;
    /// docs/distributed.md).
    static constexpr ::llvm::StringLiteral kSplitAxesAttrName =
        "rlx.split_axes";
  }];
}

//===----------------------------------------------------------------------===//
// Type constraints
//===----------------------------------------------------------------------===//

def Rlx_Float : AnyTypeOf<[F16, BF16, F32, F64], "floating-point">;
def Rlx_Int : AnyTypeOf<[I8, I16, I32, I64], "signless integer">;
def Rlx_Bool : TypeAlias<I1, "bool (i1)">;
def Rlx_Number : AnyTypeOf<[Rlx_Float, Rlx_Int], "number">;
def Rlx_IntOrBool : AnyTypeOf<[Rlx_Int, I1], "integer or bool">;
def Rlx_Element : AnyTypeOf<[Rlx_Float, Rlx_Int, I1], "rlx element">;

// Ranked tensors. A `?` dimension is accepted by ops with a shape rule
// (`SymbolicShapeOpInterface`); every other op requires static shapes
// (`Rlx_AddressableTensors` checks both).
def Rlx_FloatTensor : RankedTensorOf<[Rlx_Float]>;
def Rlx_NumberTensor : RankedTensorOf<[Rlx_Number]>;
def Rlx_IntOrBoolTensor : RankedTensorOf<[Rlx_IntOrBool]>;
def Rlx_BoolTensor : RankedTensorOf<[I1]>;
def Rlx_Tensor : RankedTensorOf<[Rlx_Element]>;

// A signed 64-bit integer attribute (upstream's I64Attr reads as uint64_t,
// which would make negative axes and steps silently huge).
def Rlx_I64Attr : TypedSignlessIntegerAttrBase<I64, "int64_t",
                                               "64-bit integer attribute"> {
  let convertFromStorage = "$_self.getValue().getSExtValue()";
}

// Tensors whose element count or byte size does not fit in int64_t (the
// 64-bit `index` of every target) are a located error on any rlx op. Checked
// first, so no shape arithmetic after it overflows.
def Rlx_AddressableTensors : NativeOpTrait<"AddressableTensors"> {
  let cppNamespace = "::mlir::rlx";
}

// `?` dimensions are a located error on an op without a shape rule (but for
// destination-style ops, whose results are shaped as their inits); an op
// with a rule is checked against it: its declared result types must agree
// with the rule's shapes. Checked after the other traits, whose messages
// are more specific.
def Rlx_ShapesFollowRule : NativeOpTrait<"ShapesFollowRule"> {
  let cppNamespace = "::mlir::rlx";
}

class Rlx_Op<string mnemonic, list<Trait> traits = []>
    : Op<Rlx_Dialect, mnemonic,
         [Rlx_AddressableTensors] # traits # [Rlx_ShapesFollowRule]>;

#endif // RLX_DIALECT_RLX_IR_RLXDIALECT_TD
