//===- RlxEnums.td - rlx enum attributes -------------------*- tablegen -*-===//
#ifndef RLX_DIALECT_RLX_IR_RLXENUMS_TD
#define RLX_DIALECT_RLX_IR_RLXENUMS_TD

include "mlir/IR/EnumAttr.td"
include "rlx/Dialect/Rlx/IR/RlxDialect.td"

def Rlx_ReduceKind : I32EnumAttr<"ReduceKind", "reduction combiner", [
    I32EnumAttrCase<"Sum", 0, "sum">,
    I32EnumAttrCase<"Mean", 1, "mean">,
    I32EnumAttrCase<"Max", 2, "max">,
    I32EnumAttrCase<"Min", 3, "min">,
    I32EnumAttrCase<"Prod", 4, "prod">
  ]> {
  let cppNamespace = "::mlir::rlx";
}

// The unary float activations a fused op may apply as its epilogue, each
// named by the mnemonic of the rlx op that defines its arithmetic
// (`buildActivation` calls that op's `buildScalar`).
def Rlx_ActivationKind : I32EnumAttr<"ActivationKind",
    "unary activation, by the mnemonic of its rlx op", [
    I32EnumAttrCase<"Gelu", 0, "gelu">,
    I32EnumAttrCase<"GeluApprox", 1, "gelu_approx">,
    I32EnumAttrCase<"Silu", 2, "silu">,
    I32EnumAttrCase<"Relu", 3, "relu">,
    I32EnumAttrCase<"Sigmoid", 4, "sigmoid">,
    I32EnumAttrCase<"Tanh", 5, "tanh">,
    I32EnumAttrCase<"Elu", 6, "elu">,
    I32EnumAttrCase<"Mish", 7, "mish">,
    I32EnumAttrCase<"Softplus", 8, "softplus">,
    I32EnumAttrCase<"HardSwish", 9, "hard_swish">,
    I32EnumAttrCase<"HardSigmoid", 10, "hard_sigmoid">,
    I32EnumAttrCase<"Softsign", 11, "softsign">,
    I32EnumAttrCase<"LogSigmoid", 12, "log_sigmoid">
  ]> {
  let cppNamespace = "::mlir::rlx";
}

#endif // RLX_DIALECT_RLX_IR_RLXENUMS_TD
