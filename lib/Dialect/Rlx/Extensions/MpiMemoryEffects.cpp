//===- MpiMemoryEffects.cpp - What upstream mpi ops read and write --------===//
//
// Upstream's `mpi.allreduce` declares no memory effects, and buffer
// deallocation refuses an op whose effects are unknown. Convert-shard-to-mpi
// writes one per all-reduce of a partitioned function, before the program's
// buffers are deallocated; what it does is plain: it reads the send buffer
// and writes the receive buffer. Stated here until upstream states it.
//
//===----------------------------------------------------------------------===//
#include "rlx/Dialect/Rlx/Extensions/MpiMemoryEffects.h"

#include "mlir/Dialect/MPI/IR/MPI.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;

namespace {
struct AllReduceMemoryEffects
    : public MemoryEffectOpInterface::ExternalModel<AllReduceMemoryEffects,
                                                    mpi::AllReduceOp> {
  void
  getEffects(Operation *op,
             SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
                 &effects) const {
    auto allReduce = cast<mpi::AllReduceOp>(op);
    effects.emplace_back(MemoryEffects::Read::get(),
                         &allReduce.getSendbufMutable());
    effects.emplace_back(MemoryEffects::Write::get(),
                         &allReduce.getRecvbufMutable());
  }
};
} // namespace

void mlir::rlx::registerMpiMemoryEffectModels(DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *context, mpi::MPIDialect *) {
    mpi::AllReduceOp::attachInterface<AllReduceMemoryEffects>(*context);
  });
}
