//===- Indexing.cpp - Indexing and data movement ops to linalg ---===//
#include "Utils.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "rlx/Conversion/RlxToLinalg/RlxToLinalg.h"
#include "rlx/Dialect/Rlx/IR/RlxOps.h"

using namespace mlir;
using namespace mlir::rlx;

void mlir::rlx::populateIndexingToLinalgPatterns(RewritePatternSet &patterns) {}
