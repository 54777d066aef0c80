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

// The order of the batch, sequence, head and feature axes of attention's q,
// k and v and of rope's input.
def Rlx_AttentionLayout : I32EnumAttr<"AttentionLayout",
    "order of the batch, sequence, head and feature axes", [
    I32EnumAttrCase<"BSHD", 0, "bshd">,
    I32EnumAttrCase<"BHSD", 1, "bhsd">,
    I32EnumAttrCase<"BSD", 2, "bsd">
  ]> {
  let cppNamespace = "::mlir::rlx";
}

// The unary rlx ops, each named by its mnemonic: the activation a fused op
// may apply as its epilogue (`buildActivation` calls the op's
// `buildScalar`) and the function whose gradient rlx.activation_backward
// computes (`buildActivationGradient` calls its `buildGradient`).
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
    I32EnumAttrCase<"LogSigmoid", 12, "log_sigmoid">,
    I32EnumAttrCase<"Exp", 13, "exp">,
    I32EnumAttrCase<"Log", 14, "log">,
    I32EnumAttrCase<"Sqrt", 15, "sqrt">,
    I32EnumAttrCase<"Rsqrt", 16, "rsqrt">,
    I32EnumAttrCase<"Neg", 17, "neg">,
    I32EnumAttrCase<"Abs", 18, "abs">,
    I32EnumAttrCase<"Sin", 19, "sin">,
    I32EnumAttrCase<"Cos", 20, "cos">,
    I32EnumAttrCase<"Tan", 21, "tan">,
    I32EnumAttrCase<"Atan", 22, "atan">,
    I32EnumAttrCase<"Recip", 23, "recip">,
    I32EnumAttrCase<"Round", 24, "round">,
    I32EnumAttrCase<"Floor", 25, "floor">,
    I32EnumAttrCase<"Ceil", 26, "ceil">,
    I32EnumAttrCase<"Sign", 27, "sign">,
    I32EnumAttrCase<"Erf", 28, "erf">
  ]> {
  let cppNamespace = "::mlir::rlx";
}

#endif // RLX_DIALECT_RLX_IR_RLXENUMS_TD
