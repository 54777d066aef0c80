// RUN: rlx-opt %s --rlx-cpu-pipeline=tile-and-vectorize=false --mlir-print-ir-before=rlx-mangle-function-names -o /dev/null 2>&1 | FileCheck %s

// Without the CPU's schedules (tile-and-vectorize=false), the ops that only
// lower through their tiles' decomposition are still tiled, as the GPU
// pipeline tiles them (a row per tile; attention by batch, head and query
// block), and everything becomes scalar loops: no vector op anywhere.
// CHECK-LABEL: func.func @softmax
// CHECK-NOT:     vector.
// CHECK:         scf.forall (%{{.*}}) in (64)
// CHECK:           linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]
// CHECK-NOT:     vector.
// CHECK:         return
func.func @softmax(%x: tensor<64x1024xf32>) -> tensor<64x1024xf32> {
  %0 = rlx.softmax %x axis = -1 : tensor<64x1024xf32>
  return %0 : tensor<64x1024xf32>
}

// CHECK-LABEL: func.func @attention
// CHECK-NOT:     vector.
// CHECK:         scf.forall
// CHECK:           scf.for
// CHECK-NOT:     vector.
// CHECK:         return
func.func @attention(%q: tensor<1x128x2x16xf32>, %k: tensor<1x128x2x16xf32>, %v: tensor<1x128x2x16xf32>) -> tensor<1x128x2x16xf32> {
  %0 = rlx.attention bshd %q, %k, %v heads = 2 kv_heads = 2 mask = causal : (tensor<1x128x2x16xf32>, tensor<1x128x2x16xf32>, tensor<1x128x2x16xf32>) -> tensor<1x128x2x16xf32>
  return %0 : tensor<1x128x2x16xf32>
}
