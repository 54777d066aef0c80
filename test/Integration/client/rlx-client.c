/*===- rlx-client.c - rlx through its C API -----------------------------===*
 *
 * Parses rlx IR, verifies it and lowers it with rlx's CPU pipeline through
 * the C API of the installed librlx-c.
 *
 *===----------------------------------------------------------------------===*/

#include "mlir-c/IR.h"
#include "rlx-c/Dialects.h"
#include "rlx-c/Passes.h"

#include <stdio.h>

static void print(MlirStringRef text, void *userData) {
  (void)userData;
  fwrite(text.data, 1, text.length, stdout);
}

int main(void) {
  MlirContext context = mlirContextCreate();
  MlirDialectRegistry registry = mlirDialectRegistryCreate();
  rlxRegisterDialects(registry);
  mlirContextAppendDialectRegistry(context, registry);
  mlirDialectRegistryDestroy(registry);

  MlirModule module = mlirModuleCreateParse(
      context, mlirStringRefCreateFromCString(
                   "func.func @gelu(%x: tensor<8xf32>) -> tensor<8xf32> {\n"
                   "  %0 = rlx.gelu %x : tensor<8xf32>\n"
                   "  return %0 : tensor<8xf32>\n}\n"));
  if (mlirModuleIsNull(module))
    return 1;
  MlirOperation op = mlirModuleGetOperation(module);
  printf("parsed and verified: %d\n", mlirOperationVerify(op));
  int lowered = mlirLogicalResultIsSuccess(rlxRunPassPipeline(
      op, mlirStringRefCreateFromCString("rlx-cpu-pipeline")));
  printf("lowered: %d\n", lowered);
  mlirOperationPrint(op, print, NULL);
  printf("\n");
  mlirModuleDestroy(module);
  mlirContextDestroy(context);
  return lowered ? 0 : 1;
}
