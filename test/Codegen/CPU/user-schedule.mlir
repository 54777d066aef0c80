// A schedule written on an op in rlx-compile's input is the one compiled:
// the pipeline chooses configs only for ops without one (for an AVX-512
// CPU, whatever the host).
// RUN: rlx-compile %s --mcpu=skylake-avx512 --emit=mlir -o /dev/null --mlir-disable-threading --mlir-print-ir-before=one-shot-bufferize 2>&1 | FileCheck %s

// CHECK-LABEL: func.func @scheduled
// CHECK:         scf.forall ({{.*}}) = (0, 0) to (256, 256) step (128, 32)
// CHECK:           scf.for {{.*}} step %c64
// CHECK:             vector.contract {{.*}} : vector<4x1xf32>, vector<1x16xf32> into vector<4x16xf32>
// CHECK-LABEL: func.func @chosen
// CHECK:         scf.forall ({{.*}}) = (0) to (256) step (64)
// CHECK:           vector.contract {{.*}} : vector<8x1xf32>, vector<1x32xf32> into vector<8x32xf32>
func.func @scheduled(%a: tensor<256x256xf32>, %b: tensor<256x256xf32>) -> tensor<256x256xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<256x256xf32>
  %c = linalg.fill ins(%z : f32) outs(%e : tensor<256x256xf32>) -> tensor<256x256xf32>
  %0 = linalg.matmul {rlx.lowering_config = #rlx.lowering_config<distribution = [128, 32, 0], cache = [0, 0, 64], vector = [4, 16, 1]>}
      ins(%a, %b : tensor<256x256xf32>, tensor<256x256xf32>) outs(%c : tensor<256x256xf32>) -> tensor<256x256xf32>
  return %0 : tensor<256x256xf32>
}
func.func @chosen(%a: tensor<256x256xf32>, %b: tensor<256x256xf32>) -> tensor<256x256xf32> {
  %0 = rlx.matmul %a, %b : (tensor<256x256xf32>, tensor<256x256xf32>) -> tensor<256x256xf32>
  return %0 : tensor<256x256xf32>
}
