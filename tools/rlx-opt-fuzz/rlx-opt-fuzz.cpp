//===- rlx-opt-fuzz.cpp - libFuzzer harness over rlx-opt's pipelines ------===//
//
// Each input is MLIR text. It is parsed with every dialect rlx-opt knows,
// verified, and run through one pass pipeline (`-pipeline=`, a textual
// pipeline as rlx-opt's `--pass-pipeline` takes; by default the CPU
// pipeline). Diagnostics are the expected outcome of most inputs and are
// swallowed; a crash, a sanitizer report, a leak or an LLVM fatal error is a
// bug.
//
// `-show-diagnostics` prints them, for triage. `-write-dict=FILE` writes a libFuzzer dictionary of the rlx dialect's op
// names and attribute names, read from the registered dialect itself, and
// exits: the dictionary cannot drift from the ops.
//
// Each input gets a fresh MLIRContext, so that inputs cannot affect one
// another and a reproducer replays alone.
//
//===----------------------------------------------------------------------===//

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OperationSupport.h"
#include "mlir/IR/Verifier.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "rlx/Codegen/Passes.h"
#include "rlx/Conversion/Passes.h"
#include "rlx/Dialect/Rlx/IR/RlxDialect.h"
#include "rlx/Gpu/Passes.h"
#include "rlx/Pipelines/Pipelines.h"
#include "rlx/Transforms/Passes.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>
#include <set>
#include <string>

using namespace mlir;

static DialectRegistry *registry;
static std::string pipeline = "builtin.module(rlx-cpu-pipeline)";
// Triage: print the diagnostics an input produces (`-show-diagnostics`).
static bool showDiagnostics = false;

/// Writes one dictionary entry per rlx op name (with and without the
/// dialect prefix, as the generic and custom forms spell them) and per
/// attribute name an rlx op declares.
static int writeDictionary(StringRef path) {
  MLIRContext context(*registry);
  context.loadDialect<rlx::RlxDialect>();
  std::set<std::string> tokens;
  for (RegisteredOperationName name : context.getRegisteredOperations()) {
    if (name.getDialectNamespace() != rlx::RlxDialect::getDialectNamespace())
      continue;
    tokens.insert(name.getStringRef().str());
    for (StringAttr attribute : name.getAttributeNames())
      tokens.insert(attribute.str());
  }
  std::error_code error;
  llvm::raw_fd_ostream os(path, error);
  if (error) {
    llvm::errs() << "cannot write " << path << ": " << error.message() << "\n";
    return 1;
  }
  for (const std::string &token : tokens)
    os << '"' << token << "\"\n";
  return 0;
}

extern "C" int LLVMFuzzerInitialize(int *argc, char ***argv) {
  registerAllPasses();
  rlx::registerRlxConversionPasses();
  rlx::registerRlxTransformsPasses();
  rlx::registerRlxCodegenPasses();
  rlx::registerRlxGpuPasses();
  rlx::registerRlxPipelines();
  registry = new DialectRegistry;
  registerAllDialects(*registry);
  registerAllExtensions(*registry);
  registry->insert<rlx::RlxDialect>();
  registerAllGPUToLLVMIRTranslations(*registry);

  for (int i = 1; i < *argc; ++i) {
    StringRef arg = (*argv)[i];
    if (arg.consume_front("-pipeline="))
      pipeline = arg.str();
    else if (arg == "-show-diagnostics")
      showDiagnostics = true;
    else if (arg.consume_front("-write-dict="))
      std::exit(writeDictionary(arg));
  }
  // A pipeline that does not parse is the user's mistake, not a finding.
  MLIRContext context(*registry);
  PassManager pm(&context);
  std::string error;
  llvm::raw_string_ostream errorStream(error);
  if (failed(parsePassPipeline(pipeline, pm, errorStream))) {
    llvm::errs() << "rlx-opt-fuzz: bad -pipeline: " << error << "\n";
    std::exit(1);
  }
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  MLIRContext context(*registry, MLIRContext::Threading::DISABLED);
  context.allowUnregisteredDialects(false);
  // Located diagnostics are the correct answer to bad input.
  ScopedDiagnosticHandler swallow(&context, [](Diagnostic &diagnostic) {
    if (showDiagnostics)
      llvm::errs() << diagnostic.getLocation() << ": " << diagnostic << "\n";
    return success();
  });
  // MLIR's lexer reads the byte after the buffer (a NUL ends it), which
  // libFuzzer's data does not have; a std::string does.
  std::string source(reinterpret_cast<const char *>(data), size);
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(source, &context);
  if (!module || failed(verify(*module)))
    return 0;
  PassManager pm(&context);
  if (failed(parsePassPipeline(pipeline, pm)))
    return 0;
  (void)pm.run(*module);
  return 0;
}
