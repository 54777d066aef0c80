//===- rlx-lsp-server.cpp - MLIR's language server with rlx ---------------===//
//
// Editors get diagnostics, hover, go-to-definition and completion on .mlir
// files with rlx ops (docs/embedding.md sets it up in VS Code and Neovim).
//
//===----------------------------------------------------------------------===//

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-lsp-server/MlirLspServerMain.h"
#include "rlx/InitRlx.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  mlir::rlx::registerRlxDialects(registry);
  return mlir::failed(mlir::MlirLspServerMain(argc, argv, registry));
}
