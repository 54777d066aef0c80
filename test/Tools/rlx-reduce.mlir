// rlx-reduce: MLIR's reducer with the rlx dialect. The interestingness test
// keeps files that still hold an rlx.softmax; the reduction drops the
// function that does not.
// RUN: rlx-reduce %s --reduction-tree='traversal-mode=0 test=%S/Inputs/reduce-has-softmax.sh' 2>/dev/null | FileCheck %s

// CHECK:     func.func @keep
// CHECK:     rlx.softmax
// CHECK-NOT: @other
func.func @keep(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = rlx.exp %x : tensor<4x8xf32>
  %1 = rlx.softmax %0 axis = 1 : tensor<4x8xf32>
  %2 = rlx.tanh %1 : tensor<4x8xf32>
  return %2 : tensor<4x8xf32>
}
func.func @other(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = rlx.sigmoid %x : tensor<4xf32>
  return %0 : tensor<4xf32>
}
