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

#endif // RLX_DIALECT_RLX_IR_RLXENUMS_TD
