// RUN: rlx-opt %s --rlx-cpu-pipeline --mlir-print-ir-before=rlx-mangle-function-names -o /dev/null 2>&1 | FileCheck %s
// RUN: rlx-opt %s --rlx-cpu-pipeline=strict-fp --mlir-print-ir-before=rlx-mangle-function-names -o /dev/null 2>&1 | FileCheck %s --check-prefix=STRICT

// A row op (rlx.rows tiled one row per thread tile and decomposed) after
// bufferization: each stage of a row is a loop over vectors
// (a maximum by horizontal reductions of 64 lanes, exp of a vector), the sum
// is split by rlx-split-reductions into blocks of 256 summed in 16 lanes (a
// vector accumulator), and the last stage writes the row of the result in
// place: the tile of a new tensor inserted into the loop's result became
// that result's slice (empty tensor elimination), so no copy.
// CHECK-LABEL: func.func @softmax
// CHECK:         scf.forall
// CHECK:           %[[ROW:.*]] = memref.subview %arg1[%{{.*}}, 0] [1, 1024] [1, 1]
// CHECK:           vector.reduction <maximumf>, %{{.*}}, %{{.*}} : vector<64xf32> into f32
// CHECK:           math.exp %{{.*}} : vector<1x64xf32>
// CHECK:           scf.for
// CHECK:             scf.for {{.*}} -> (vector<1x1x16xf32>)
// CHECK:               arith.addf %{{.*}}, %{{.*}} : vector<1x1x16xf32>
// CHECK:           vector.reduction <add>, %{{.*}}, %{{.*}} : vector<16xf32> into f32
// CHECK:           scf.for
// CHECK:             arith.divf %{{.*}} : vector<1x64xf32>
// CHECK:             vector.transfer_write %{{.*}}, %[[ROW]]
// CHECK-NOT:     memref.copy

// The strict mode sums in the same blocks and lanes, and keeps the maximum
// a scalar loop (no reassociated horizontal reduction of 64 lanes).
// STRICT-LABEL: func.func @softmax
// STRICT-NOT:     vector.reduction <maximumf>
// STRICT:         math.exp %{{.*}} : vector<1x64xf32>
// STRICT:         arith.addf %{{.*}}, %{{.*}} : vector<1x1x16xf32>
func.func @softmax(%x: tensor<64x1024xf32>) -> tensor<64x1024xf32> {
  %0 = rlx.softmax %x axis = -1 : tensor<64x1024xf32>
  return %0 : tensor<64x1024xf32>
}
