//===- rlx-plugin.cpp - rlx as a plugin of upstream mlir-opt --------------===//
//
// One library that is both a dialect plugin and a pass plugin:
//
//   mlir-opt-22 --load-dialect-plugin=RlxPlugin.so \
//               --load-pass-plugin=RlxPlugin.so --rlx-cpu-pipeline in.mlir
//
// One library, not two, because each would carry its own copy of the rlx
// libraries, and with it its own TypeIDs of the rlx dialect and passes;
// loading the same file twice gives the process one copy.
//
//===----------------------------------------------------------------------===//

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/Plugins/DialectPlugin.h"
#include "mlir/Tools/Plugins/PassPlugin.h"
#include "rlx/InitRlx.h"
#include "llvm/Config/llvm-config.h"

using namespace mlir;

extern "C" LLVM_ATTRIBUTE_WEAK DialectPluginLibraryInfo
mlirGetDialectPluginInfo() {
  return {
      MLIR_PLUGIN_API_VERSION, "rlx", LLVM_VERSION_STRING,
      [](DialectRegistry *registry) { rlx::registerRlxDialects(*registry); }};
}

extern "C" LLVM_ATTRIBUTE_WEAK PassPluginLibraryInfo mlirGetPassPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "rlx", LLVM_VERSION_STRING,
          [] { rlx::registerRlxPasses(); }};
}
