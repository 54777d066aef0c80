/*===- rlx-capi-test.c - the rlx C API from C ---------------------------===*
 *
 * Parses rlx IR through MLIR's C API with the rlx dialect registered,
 * verifies it, builds an rlx op with inferred result types, reports a
 * verifier error through a diagnostic handler, and lowers the module with
 * rlx's CPU pipeline. test/CAPI/rlx-capi.test checks the output.
 *
 *===----------------------------------------------------------------------===*/

#include "mlir-c/Diagnostics.h"
#include "mlir-c/IR.h"
#include "rlx-c/Dialects.h"
#include "rlx-c/Passes.h"

#include <stdio.h>
#include <string.h>

static void printToStdout(MlirStringRef text, void *userData) {
  (void)userData;
  fwrite(text.data, 1, text.length, stdout);
}

static MlirLogicalResult printDiagnostic(MlirDiagnostic diagnostic,
                                         void *userData) {
  (void)userData;
  printf("diagnostic: ");
  mlirDiagnosticPrint(diagnostic, printToStdout, NULL);
  printf("\n");
  return mlirLogicalResultSuccess();
}

static MlirContext createContext(void) {
  MlirContext context = mlirContextCreate();
  MlirDialectRegistry registry = mlirDialectRegistryCreate();
  rlxRegisterDialects(registry);
  mlirContextAppendDialectRegistry(context, registry);
  mlirDialectRegistryDestroy(registry);
  mlirDialectHandleLoadDialect(mlirGetDialectHandle__rlx__(), context);
  mlirContextAttachDiagnosticHandler(context, printDiagnostic, NULL, NULL);
  return context;
}

static const char *kModule =
    "func.func @scale(%x: tensor<2x4xf32>, %s: tensor<4xf32>) -> "
    "tensor<2x4xf32> {\n"
    "  %0 = rlx.mul %x, %s : (tensor<2x4xf32>, tensor<4xf32>) -> "
    "tensor<2x4xf32>\n"
    "  return %0 : tensor<2x4xf32>\n"
    "}\n";

/* Builds rlx.add of the function's two arguments with inferred types. */
static int buildAdd(MlirContext context, MlirModule module) {
  MlirOperation function =
      mlirBlockGetFirstOperation(mlirModuleGetBody(module));
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(function, 0));
  MlirValue operands[] = {mlirBlockGetArgument(body, 0),
                          mlirBlockGetArgument(body, 1)};
  MlirOperationState state =
      mlirOperationStateGet(mlirStringRefCreateFromCString("rlx.add"),
                            mlirLocationUnknownGet(context));
  mlirOperationStateAddOperands(&state, 2, operands);
  mlirOperationStateEnableResultTypeInference(&state);
  MlirOperation add = mlirOperationCreate(&state);
  if (mlirOperationIsNull(add))
    return 1;
  /* CHECK-style output: the inferred broadcast type. */
  printf("inferred: ");
  mlirTypePrint(mlirValueGetType(mlirOperationGetResult(add, 0)), printToStdout,
                NULL);
  printf("\n");
  mlirOperationDestroy(add);
  return 0;
}

int main(void) {
  MlirContext context = createContext();
  printf(
      "rlx dialect: %s\n",
      mlirStringRefEqual(mlirDialectGetNamespace(mlirContextGetOrLoadDialect(
                             context, mlirStringRefCreateFromCString("rlx"))),
                         mlirStringRefCreateFromCString("rlx"))
          ? "loaded"
          : "missing");

  MlirModule module =
      mlirModuleCreateParse(context, mlirStringRefCreateFromCString(kModule));
  if (mlirModuleIsNull(module))
    return 1;
  printf("verified: %d\n", mlirOperationVerify(mlirModuleGetOperation(module)));
  if (buildAdd(context, module))
    return 1;

  /* A pipeline that does not parse is a diagnostic and a failure. */
  MlirLogicalResult bad =
      rlxRunPassPipeline(mlirModuleGetOperation(module),
                         mlirStringRefCreateFromCString("rlx-no-such-pass"));
  printf("bad pipeline failed: %d\n", mlirLogicalResultIsFailure(bad));

  MlirLogicalResult lowered =
      rlxRunPassPipeline(mlirModuleGetOperation(module),
                         mlirStringRefCreateFromCString("rlx-cpu-pipeline"));
  printf("lowered: %d\n", mlirLogicalResultIsSuccess(lowered));
  mlirOperationPrint(mlirModuleGetOperation(module), printToStdout, NULL);
  printf("\n");

  /* An op that does not verify reports through the diagnostic handler. */
  MlirModule invalid = mlirModuleCreateParse(
      context, mlirStringRefCreateFromCString(
                   "func.func @f(%a: tensor<4x8xf32>) -> tensor<4x8xf32> {\n"
                   "  %0 = rlx.softmax %a axis = 3 : tensor<4x8xf32>\n"
                   "  return %0 : tensor<4x8xf32>\n}\n"));
  printf("invalid module parsed: %d\n", !mlirModuleIsNull(invalid));

  mlirModuleDestroy(module);
  mlirContextDestroy(context);
  return 0;
}
