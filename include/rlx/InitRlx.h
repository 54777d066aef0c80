//===- InitRlx.h - register rlx's dialects and passes -----------*- C++ -*-===//
//
// What a tool, a plugin or a client needs to parse rlx IR and run rlx's
// pipelines, in one place: rlx-opt, rlx-compile, the mlir-opt plugin, the
// language server, the reducer and the C API all call these.
//
//===----------------------------------------------------------------------===//

#ifndef RLX_INITRLX_H
#define RLX_INITRLX_H

namespace mlir {
class DialectRegistry;
namespace rlx {

/// Inserts the rlx dialect and everything its pipelines lower through: the
/// upstream dialects with their extensions (external interface models) and
/// the translations to LLVM IR (LLVM, OpenMP, GPU targets).
void registerRlxDialects(DialectRegistry &registry);

/// Registers every rlx pass and the rlx-fuse, rlx-cpu-pipeline and
/// rlx-gpu-pipeline pipelines with MLIR's pass registry, so that textual
/// pipelines name them.
void registerRlxPasses();

} // namespace rlx
} // namespace mlir

#endif // RLX_INITRLX_H
