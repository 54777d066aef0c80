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

// -----

// dequant_grouped_matmul, int4 groups of 32 with zero points, top-2 with
// gates: loops (t, j, n, g, jb, h) with K split as dequant_matmul splits it
// (byte jb of group g holds k = 32 g + 2 jb + h); the routed expert's
// byte, scale and zero point are read with tensor.extract at (e, n, g[, jb])
// and dequantized next to the multiply-add: no f32 expert weight exists.
// CHECK-DAG:   #[[X:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d3, d4, d5)>
// CHECK-DAG:   #[[TJ:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1)>
// CHECK-DAG:   #[[OUT:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d2)>
// CHECK-LABEL: func.func @dequant_int4(
// CHECK-SAME:    %[[XA:[a-z0-9]+]]: tensor<?x64xf32>, %[[W:[a-z0-9]+]]: tensor<4x5x32xi8>, %[[I:[a-z0-9]+]]: tensor<?x2xi32>, %[[G:[a-z0-9]+]]: tensor<?x2xf32>, %[[S:[a-z0-9]+]]: tensor<4x5x2xf16>, %[[Z:[a-z0-9]+]]: tensor<4x5x2xi8>)
// CHECK-NOT:     tensor<4x5x64xf32>
// CHECK:         %[[XE:.*]] = tensor.expand_shape %[[XA]] {{\[}}[0], [1, 2, 3]] output_shape [%{{.*}}, 2, 16, 2] : tensor<?x64xf32> into tensor<?x2x16x2xf32>
// CHECK:         %[[WE:.*]] = tensor.expand_shape %[[W]] {{\[}}[0], [1], [2, 3]] output_shape [4, 5, 2, 16] : tensor<4x5x32xi8> into tensor<4x5x2x16xi8>
// CHECK:         linalg.generic {indexing_maps = [#[[X]], #[[TJ]], #[[TJ]], #[[OUT]]], iterator_types = ["parallel", "reduction", "parallel", "reduction", "reduction", "reduction"]}
// CHECK-SAME:        ins(%[[XE]], %[[I]], %[[G]] : tensor<?x2x16x2xf32>, tensor<?x2xi32>, tensor<?x2xf32>) outs(%{{.*}} : tensor<?x5xf32>)
// CHECK:           %[[E:.*]] = arith.minsi
// CHECK:           %[[N:.*]] = linalg.index 2 : index
// CHECK:           %[[GR:.*]] = linalg.index 3 : index
// CHECK:           %[[B:.*]] = linalg.index 4 : index
// CHECK:           tensor.extract %[[WE]][%[[E]], %[[N]], %[[GR]], %[[B]]] : tensor<4x5x2x16xi8>
// CHECK:           tensor.extract %[[S]][%[[E]], %[[N]], %[[GR]]] : tensor<4x5x2xf16>
// CHECK:           tensor.extract %[[Z]][%[[E]], %[[N]], %[[GR]]] : tensor<4x5x2xi8>
// CHECK:           linalg.index 5 : index
// CHECK:           arith.shrui
// CHECK:           arith.extf %{{.*}} : f16 to f32
// CHECK:           arith.subi
// CHECK:           arith.sitofp
// CHECK:           arith.mulf
// CHECK:           arith.mulf
// CHECK:           arith.mulf
// CHECK:           arith.addf
// CHECK-NOT:     arith.truncf
func.func @dequant_int4(%x: tensor<?x64xf32>, %w: tensor<4x5x32xi8>, %ids: tensor<?x2xi32>, %g: tensor<?x2xf32>, %s: tensor<4x5x2xf16>, %z: tensor<4x5x2xi8>) -> tensor<?x5xf32> {
  %0 = rlx.dequant_grouped_matmul %x, %w, %ids gates %g scales %s zero_points %z scheme = "int4"
      : (tensor<?x64xf32>, tensor<4x5x32xi8>, tensor<?x2xi32>, tensor<?x2xf32>, tensor<4x5x2xf16>, tensor<4x5x2xi8>) -> tensor<?x5xf32>
  return %0 : tensor<?x5xf32>
}

// -----

// Q4_0, top-1, f16 rows: loops (t, n, block, h, j); the value's byte is
// 2 + j of the block and the f16 scale its bytes 0 and 1, all read at the
// routed expert; f32 accumulation rounded to f16 once.
// CHECK-DAG:   #[[X:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d2, d3, d4)>
// CHECK-DAG:   #[[IDS:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d0)>
// CHECK-DAG:   #[[OUT:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1)>
// CHECK-LABEL: func.func @dequant_q4_0(
// CHECK:         %[[WE:.*]] = tensor.expand_shape %{{.*}} {{\[}}[0], [1], [2, 3]] output_shape [3, 5, 2, 18] : tensor<3x5x36xi8> into tensor<3x5x2x18xi8>
// CHECK:         linalg.generic {indexing_maps = [#[[X]], #[[IDS]], #[[OUT]]], iterator_types = ["parallel", "parallel", "reduction", "reduction", "reduction"]}
// CHECK:           %[[E:.*]] = arith.minsi
// CHECK:           %[[N:.*]] = linalg.index 1 : index
// CHECK:           %[[GR:.*]] = linalg.index 2 : index
// CHECK:           %[[J:.*]] = linalg.index 4 : index
// CHECK:           %[[B:.*]] = arith.addi %[[J]], %{{.*}} : index
// CHECK:           tensor.extract %[[WE]][%[[E]], %[[N]], %[[GR]], %[[B]]]
// CHECK:           tensor.extract %[[WE]][%[[E]], %[[N]], %[[GR]], %{{c0.*}}]
// CHECK:           tensor.extract %[[WE]][%[[E]], %[[N]], %[[GR]], %{{c1.*}}]
// CHECK:           arith.bitcast %{{.*}} : i16 to f16
// CHECK:           linalg.yield
// CHECK:         linalg.generic
// CHECK:           arith.truncf %{{.*}} : f32 to f16
func.func @dequant_q4_0(%x: tensor<7x64xf16>, %w: tensor<3x5x36xi8>, %ids: tensor<7xi64>) -> tensor<7x5xf16> {
  %0 = rlx.dequant_grouped_matmul %x, %w, %ids scheme = "q4_0"
      : (tensor<7x64xf16>, tensor<3x5x36xi8>, tensor<7xi64>) -> tensor<7x5xf16>
  return %0 : tensor<7x5xf16>
}

// -----

// dequant_weight of a stack of experts: one parallel generic over
// (e, n, g, inner...) collapsed to [E, N, K].
// CHECK-LABEL: func.func @dequant_weight_stack(
// CHECK:         linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins({{.*}} : tensor<3x5x2x34xi8>, tensor<3x5x2x34xi8>, tensor<3x5x2x34xi8>) outs(%{{.*}} : tensor<3x5x2x32xf32>)
// CHECK:         tensor.collapse_shape %{{.*}} {{\[}}[0], [1], [2, 3]] : tensor<3x5x2x32xf32> into tensor<3x5x64xf32>
func.func @dequant_weight_stack(%w: tensor<3x5x68xi8>) -> tensor<3x5x64xf32> {
  %0 = rlx.dequant_weight %w scheme = "q8_0" : (tensor<3x5x68xi8>) -> tensor<3x5x64xf32>
  return %0 : tensor<3x5x64xf32>
}
