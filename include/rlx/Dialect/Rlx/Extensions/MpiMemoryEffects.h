//===- MpiMemoryEffects.h - What upstream mpi ops read and write -*- C++
//-*-===//
#ifndef RLX_DIALECT_RLX_EXTENSIONS_MPIMEMORYEFFECTS_H
#define RLX_DIALECT_RLX_EXTENSIONS_MPIMEMORYEFFECTS_H

namespace mlir {
class DialectRegistry;

namespace rlx {
/// Attaches `MemoryEffectOpInterface` to the `mpi` ops partitioned functions
/// use and upstream leaves without effects, so that buffer deallocation
/// accepts them.
void registerMpiMemoryEffectModels(DialectRegistry &registry);
} // namespace rlx
} // namespace mlir

#endif // RLX_DIALECT_RLX_EXTENSIONS_MPIMEMORYEFFECTS_H
