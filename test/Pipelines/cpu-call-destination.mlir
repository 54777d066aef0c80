// RUN: rlx-opt %s --rlx-cpu-pipeline --mlir-print-ir-after=rlx-tile-and-fuse -o /dev/null 2>&1 | FileCheck %s
// RUN: rlx-compile %s -o %t.so

// An elementwise op whose dead input (a call's result) becomes its
// destination: the call runs once, before the thread loop, not once per
// thread tile (it has effects; cloning it into the tiles also left a
// multi-block region the lowering rejected).
// CHECK-LABEL: func.func @f(
// CHECK: call @g
// CHECK-NOT: call @g
// CHECK: scf.forall
// CHECK-NOT: call @g
// CHECK: return
func.func private @g(%x: tensor<256x512xf32>) -> tensor<256x512xf32> {
  %e = rlx.exp %x : tensor<256x512xf32>
  return %e : tensor<256x512xf32>
}
func.func @f(%w: tensor<256x512xf32>, %x: tensor<256x512xf32>) -> tensor<256x512xf32> {
  %c = func.call @g(%x) : (tensor<256x512xf32>) -> tensor<256x512xf32>
  %s = rlx.sub %w, %c : (tensor<256x512xf32>, tensor<256x512xf32>) -> tensor<256x512xf32>
  return %s : tensor<256x512xf32>
}
