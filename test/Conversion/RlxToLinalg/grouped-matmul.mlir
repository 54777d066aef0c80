// RUN: rlx-opt %s --rlx-to-linalg -split-input-file | FileCheck %s

// Top-1: one generic over (t, k, n) reading x[t, k] and ids[t] as operands
// and the routed expert's W[rule(ids[t]), k, n] with tensor.extract (no
// per-row copy of the weights); rlx.gather's rule (wrap once, clamp to
// [0, E - 1]); bf16 accumulates in f32 and rounds once after the reduction.
// CHECK-DAG:   #[[X:.*]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-DAG:   #[[IDS:.*]] = affine_map<(d0, d1, d2) -> (d0)>
// CHECK-DAG:   #[[OUT:.*]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK-LABEL: func.func @top1(
// CHECK-SAME:    %[[XA:[a-z0-9]+]]: tensor<?x8xbf16>, %[[W:[a-z0-9]+]]: tensor<4x8x5xbf16>, %[[I:[a-z0-9]+]]: tensor<?xi32>)
// CHECK:         %[[FILL:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<?x5xf32>)
// CHECK:         %[[ACC:.*]] = linalg.generic {indexing_maps = [#[[X]], #[[IDS]], #[[OUT]]], iterator_types = ["parallel", "reduction", "parallel"]}
// CHECK-SAME:        ins(%[[XA]], %[[I]] : tensor<?x8xbf16>, tensor<?xi32>) outs(%[[FILL]] : tensor<?x5xf32>)
// CHECK:           arith.index_cast %{{.*}} : i32 to index
// CHECK:           arith.select
// CHECK:           arith.maxsi
// CHECK:           %[[E:.*]] = arith.minsi
// CHECK:           %[[K:.*]] = linalg.index 1 : index
// CHECK:           %[[N:.*]] = linalg.index 2 : index
// CHECK:           %[[WV:.*]] = tensor.extract %[[W]][%[[E]], %[[K]], %[[N]]] : tensor<4x8x5xbf16>
// CHECK:           arith.extf
// CHECK:           arith.extf %[[WV]] : bf16 to f32
// CHECK:           arith.mulf
// CHECK:           arith.addf
// CHECK:         linalg.generic {{.*}} ins(%[[ACC]] : tensor<?x5xf32>) outs(%{{.*}} : tensor<?x5xbf16>)
// CHECK:           arith.truncf %{{.*}} : f32 to bf16
// CHECK-NOT:     tensor<?x8x5
func.func @top1(%x: tensor<?x8xbf16>, %w: tensor<4x8x5xbf16>, %ids: tensor<?xi32>) -> tensor<?x5xbf16> {
  %0 = rlx.grouped_matmul %x, %w, %ids : (tensor<?x8xbf16>, tensor<4x8x5xbf16>, tensor<?xi32>) -> tensor<?x5xbf16>
  return %0 : tensor<?x5xbf16>
}

// -----

// Top-k with gates: loops (t, j, k, n), j and k reductions; ids and gates
// read at (t, j); a `?` expert count clamps to dim - 1.
// CHECK-DAG:   #[[X:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d2)>
// CHECK-DAG:   #[[TJ:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1)>
// CHECK-DAG:   #[[OUT:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d3)>
// CHECK-LABEL: func.func @topk(
// CHECK-SAME:    %[[XA:[a-z0-9]+]]: tensor<6x8xf32>, %[[W:[a-z0-9]+]]: tensor<?x8x5xf32>, %[[I:[a-z0-9]+]]: tensor<6x2xi64>, %[[G:[a-z0-9]+]]: tensor<6x2xf32>)
// CHECK:         %[[DIM:.*]] = tensor.dim %[[W]], %{{.*}} : tensor<?x8x5xf32>
// CHECK:         linalg.generic {indexing_maps = [#[[X]], #[[TJ]], #[[TJ]], #[[OUT]]], iterator_types = ["parallel", "reduction", "reduction", "parallel"]}
// CHECK-SAME:        ins(%[[XA]], %[[I]], %[[G]] : tensor<6x8xf32>, tensor<6x2xi64>, tensor<6x2xf32>)
// CHECK:         ^bb0(%[[XV:.*]]: f32, %{{.*}}: i64, %[[GV:.*]]: f32, %[[OV:.*]]: f32):
// CHECK:           arith.subi %[[DIM]], %{{.*}} : index
// CHECK:           %[[E:.*]] = arith.minsi
// CHECK:           %[[K:.*]] = linalg.index 2 : index
// CHECK:           %[[N:.*]] = linalg.index 3 : index
// CHECK:           %[[WV:.*]] = tensor.extract %[[W]][%[[E]], %[[K]], %[[N]]] : tensor<?x8x5xf32>
// CHECK:           %[[P:.*]] = arith.mulf %[[XV]], %[[WV]] : f32
// CHECK:           %[[Q:.*]] = arith.mulf %[[GV]], %[[P]] : f32
// CHECK:           arith.addf %[[OV]], %[[Q]] : f32
// CHECK-NOT:     arith.truncf
func.func @topk(%x: tensor<6x8xf32>, %w: tensor<?x8x5xf32>, %ids: tensor<6x2xi64>, %g: tensor<6x2xf32>) -> tensor<6x5xf32> {
  %0 = rlx.grouped_matmul %x, %w, %ids gates %g : (tensor<6x8xf32>, tensor<?x8x5xf32>, tensor<6x2xi64>, tensor<6x2xf32>) -> tensor<6x5xf32>
  return %0 : tensor<6x5xf32>
}
