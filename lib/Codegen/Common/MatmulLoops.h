//===- MatmulLoops.h - Loops of a plain matmul ------------------*- C++ -*-===//
//
// Shared by rlx-cpu-select-lowering-config (whether to pack a matmul's right
// operand) and rlx-tile-and-fuse (whether a config's packing applies).
//
//===----------------------------------------------------------------------===//
#ifndef RLX_LIB_CODEGEN_CPU_MATMULLOOPS_H
#define RLX_LIB_CODEGEN_CPU_MATMULLOOPS_H

#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"

namespace mlir::rlx {

/// The loops of a matmul A[m, k] times B[k, n] into C[m, n].
struct MatmulLoops {
  unsigned m, n, k;
};

/// The loops of `op` when it is a plain matmul: three loops, two inputs,
/// each operand read in its own row-major order (nothing transposed or
/// batched); none otherwise.
inline std::optional<MatmulLoops> getMatmulLoops(linalg::LinalgOp op) {
  if (op.getNumLoops() != 3 || op.getNumDpsInputs() != 2 ||
      op.getNumDpsInits() != 1)
    return std::nullopt;
  FailureOr<linalg::ContractionDimensions> dims =
      linalg::inferContractionDims(op);
  if (failed(dims) || dims->m.size() != 1 || dims->n.size() != 1 ||
      dims->k.size() != 1)
    return std::nullopt;
  MatmulLoops loops{dims->m.front(), dims->n.front(), dims->k.front()};
  MLIRContext *context = op->getContext();
  auto map = [&](unsigned first, unsigned second) {
    return AffineMap::get(
        3, 0,
        {getAffineDimExpr(first, context), getAffineDimExpr(second, context)},
        context);
  };
  if (op.getIndexingMapsArray() !=
      SmallVector<AffineMap>{map(loops.m, loops.k), map(loops.k, loops.n),
                             map(loops.m, loops.n)})
    return std::nullopt;
  return loops;
}

} // namespace mlir::rlx

#endif // RLX_LIB_CODEGEN_CPU_MATMULLOOPS_H
