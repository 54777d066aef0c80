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

#endif // RLX_DIALECT_RLX_IR_RLXINTERFACES_TD
