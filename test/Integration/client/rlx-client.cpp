//===- rlx-client.cpp - a C++ compiler that embeds rlx --------------------===//
//
// Builds a function of rlx ops with the C++ API, lowers it with rlx's CPU
// pipeline inside this program's own pass manager, JIT-compiles it with
// MLIR's ExecutionEngine and calls it through the runtime ABI's
// rlx_invoke_<name> entry point; checks the result against a reference.
//
//===----------------------------------------------------------------------===//

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/ExecutionEngine/CRunnerUtils.h"
#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Pass/PassManager.h"
#include "rlx/Dialect/Rlx/IR/RlxDialect.h"
#include "rlx/Dialect/Rlx/IR/RlxOps.h"
#include "rlx/InitRlx.h"
#include "rlx/Pipelines/Pipelines.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>

using namespace mlir;

/// scores(x: 2x4, w: 4x3) = softmax(x @ w, axis 1)
static OwningOpRef<ModuleOp> buildModule(MLIRContext &context) {
  OpBuilder b(&context);
  Location loc = b.getUnknownLoc();
  OwningOpRef<ModuleOp> module = ModuleOp::create(loc);
  Type f32 = b.getF32Type();
  auto x = RankedTensorType::get({2, 4}, f32);
  auto w = RankedTensorType::get({4, 3}, f32);
  auto scores = RankedTensorType::get({2, 3}, f32);
  b.setInsertionPointToEnd(module->getBody());
  auto function = func::FuncOp::create(b, loc, "scores",
                                       b.getFunctionType({x, w}, {scores}));
  Block *entry = function.addEntryBlock();
  b.setInsertionPointToStart(entry);
  Value product = rlx::MatmulOp::create(b, loc, entry->getArgument(0),
                                        entry->getArgument(1));
  Value softmax = rlx::SoftmaxOp::create(b, loc, product, /*axis=*/1);
  func::ReturnOp::create(b, loc, softmax);
  return module;
}

int main() {
  DialectRegistry registry;
  rlx::registerRlxDialects(registry);
  MLIRContext context(registry);
  context.loadDialect<rlx::RlxDialect, func::FuncDialect>();

  OwningOpRef<ModuleOp> module = buildModule(context);
  if (failed(verify(*module)))
    return 1;
  module->print(llvm::outs());
  llvm::outs() << "\n";

  PassManager pm(&context);
  rlx::buildCpuPipeline(pm, rlx::CpuPipelineOptions());
  if (failed(pm.run(*module)))
    return 1;
  llvm::outs() << "lowered with rlx-cpu-pipeline\n";

  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  ExecutionEngineOptions options;
  llvm::StringRef openmp = RLX_CLIENT_OPENMP;
  options.sharedLibPaths = openmp;
  auto engine = ExecutionEngine::create(*module, options);
  if (!engine) {
    llvm::errs() << llvm::toString(engine.takeError()) << "\n";
    return 1;
  }
  auto invoke = (*engine)->lookup("rlx_invoke_scores");
  if (!invoke) {
    llvm::errs() << llvm::toString(invoke.takeError()) << "\n";
    return 1;
  }

  // The runtime ABI: one memref descriptor per input, then per output.
  float x[2][4], w[4][3], out[2][3] = {};
  for (int i = 0; i < 2; ++i)
    for (int k = 0; k < 4; ++k)
      x[i][k] = 0.25f * static_cast<float>(i + 1) - 0.1f * static_cast<float>(k);
  for (int k = 0; k < 4; ++k)
    for (int j = 0; j < 3; ++j)
      w[k][j] = 0.5f - 0.2f * static_cast<float>(k) + 0.3f * static_cast<float>(j);
  StridedMemRefType<float, 2> xs{&x[0][0], &x[0][0], 0, {2, 4}, {4, 1}};
  StridedMemRefType<float, 2> ws{&w[0][0], &w[0][0], 0, {4, 3}, {3, 1}};
  StridedMemRefType<float, 2> outs{&out[0][0], &out[0][0], 0, {2, 3}, {3, 1}};
  void *args[] = {&xs, &ws, &outs};
  reinterpret_cast<void (*)(void **)>(*invoke)(args);

  double maxError = 0;
  for (int i = 0; i < 2; ++i) {
    double row[3], total = 0;
    for (int j = 0; j < 3; ++j) {
      row[j] = 0;
      for (int k = 0; k < 4; ++k)
        row[j] += static_cast<double>(x[i][k]) * w[k][j];
    }
    double largest = std::fmax(row[0], std::fmax(row[1], row[2]));
    for (double &value : row)
      total += value = std::exp(value - largest);
    for (int j = 0; j < 3; ++j)
      maxError = std::fmax(maxError, std::fabs(row[j] / total - out[i][j]));
  }
  llvm::outs() << "jit result matches: " << (maxError < 1e-6 ? "yes" : "no")
               << "\n";
  return maxError < 1e-6 ? 0 : 1;
}
