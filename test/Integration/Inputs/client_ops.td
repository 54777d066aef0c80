// A client dialect whose ODS builds on rlx's: its op takes rlx's tensor
// and attribute constraints and declares an rlx interface
// (test/Integration/install.test generates it against the installed .td).
include "mlir/IR/OpBase.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "rlx/Dialect/Rlx/IR/RlxDialect.td"
include "rlx/Dialect/Rlx/IR/RlxInterfaces.td"

def Client_Dialect : Dialect {
  let name = "client";
  let cppNamespace = "::client";
}

def Client_ScaleOp : Op<Client_Dialect, "scale",
    [Pure, DeclareOpInterfaceMethods<Rlx_SymbolicShapeOpInterface>]> {
  let arguments = (ins Rlx_FloatTensor:$input, Rlx_I64Attr:$factor);
  let results = (outs Rlx_FloatTensor:$result);
}
