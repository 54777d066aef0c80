//===- ScanOps.cpp - Index reductions, scans and top-k: verifiers, shape inference, folders ---===//
#include "rlx/Dialect/Rlx/IR/RlxOps.h"

#include "OpUtils.h"

using namespace mlir;
using namespace mlir::rlx;
