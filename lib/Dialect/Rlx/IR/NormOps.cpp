//===- NormOps.cpp - Normalization, positional encoding and loss ops: verifiers, shape inference, folders ---===//
#include "rlx/Dialect/Rlx/IR/RlxOps.h"

#include "OpUtils.h"

using namespace mlir;
using namespace mlir::rlx;
