// RUN: rlx-opt %s --rlx-tile-and-fuse --canonicalize -split-input-file | FileCheck %s

// rlx.associative_scan and rlx.scatter tiled by their lowering_config and decomposed
// per tile: a tile wider than one line steps along the sequential loop with
// one parallel generic per step, a tile of one line with scalars.

// Thread tiles of 32 columns, cache tiles of 16: each cache tile carries
// its 16 running values (f32 for f16) through the 5 steps; the generic
// adds the element and stores the previous running value (exclusive).
// CHECK-DAG:   #[[ID:map[0-9]*]] = affine_map<(d0) -> (d0)>
// CHECK-LABEL: func.func @scan_steps(
// CHECK-SAME:      %[[X:[a-z0-9]+]]: tensor<5x64xf16>, %[[INIT:[a-z0-9]+]]: tensor<5x64xf16>)
// CHECK-DAG:     %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-DAG:     %[[C5:.*]] = arith.constant 5 : index
// CHECK:         scf.forall (%[[J:.*]]) = (0) to (64) step (32) shared_outs(%[[OUT:.*]] = %[[INIT]])
// CHECK:           %[[XT:.*]] = tensor.extract_slice %[[X]][0, %[[J]]] [5, 32] [1, 1]
// CHECK:           %[[OT:.*]] = tensor.extract_slice %[[OUT]][0, %[[J]]] [5, 32] [1, 1]
// CHECK:           scf.for %[[K:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[OC:.*]] = %[[OT]]) -> (tensor<5x32xf16>)
// CHECK:             %[[XC:.*]] = tensor.extract_slice %[[XT]][0, %[[K]]] [5, 16] [1, 1]
// CHECK:             %[[OCS:.*]] = tensor.extract_slice %[[OC]][0, %[[K]]] [5, 16] [1, 1]
// CHECK:             %[[RV0:.*]] = linalg.fill ins(%[[ZERO]] : f32) outs(%{{.*}} : tensor<16xf32>)
// CHECK:             %[[STEPS:.*]]:2 = scf.for %[[I:.*]] = %{{.*}} to %[[C5]] step %{{.*}} iter_args(%[[RV:.*]] = %[[RV0]], %[[ACC:.*]] = %[[OCS]]) -> (tensor<16xf32>, tensor<5x16xf16>)
// CHECK:               %[[ROW:.*]] = tensor.extract_slice %[[XC]][%[[I]], 0] [1, 16] [1, 1] : tensor<5x16xf16> to tensor<16xf16>
// CHECK:               %[[STEP:.*]]:2 = linalg.generic {indexing_maps = [#[[ID]], #[[ID]], #[[ID]]], iterator_types = ["parallel"]}
// CHECK-SAME:              ins(%[[ROW]] : tensor<16xf16>) outs(%[[RV]], %{{.*}} : tensor<16xf32>, tensor<16xf16>)
// CHECK:               ^bb0(%[[E:.*]]: f16, %[[R:.*]]: f32, %{{.*}}: f16):
// CHECK:                 %[[W:.*]] = arith.extf %[[E]] : f16 to f32
// CHECK:                 %[[N:.*]] = arith.addf %[[R]], %[[W]] : f32
// CHECK:                 %[[S:.*]] = arith.truncf %[[R]] : f32 to f16
// CHECK:                 linalg.yield %[[N]], %[[S]] : f32, f16
// CHECK:               %[[INS:.*]] = tensor.insert_slice %[[STEP]]#1 into %[[ACC]][%[[I]], 0] [1, 16] [1, 1] : tensor<16xf16> into tensor<5x16xf16>
// CHECK:               scf.yield %[[STEP]]#0, %[[INS]]
// CHECK:             tensor.insert_slice %[[STEPS]]#1 into %[[OC]][0, %[[K]]] [5, 16] [1, 1]
// CHECK:           tensor.parallel_insert_slice %{{.*}} into %[[OUT]][0, %[[J]]] [5, 32] [1, 1]
// CHECK-NOT:     rlx.associative_scan
func.func @scan_steps(%x: tensor<5x64xf16>, %init: tensor<5x64xf16>) -> tensor<5x64xf16> {
  %r = rlx.associative_scan axis = 0 exclusive identity = 0.0 : f32 ins(%x : tensor<5x64xf16>) outs(%init : tensor<5x64xf16>) attributes {rlx.lowering_config = #rlx.lowering_config<distribution = [0, 32], cache = [0, 16], vector = [0, 0]>} {
  ^bb0(%running: f32, %element: f16):
    %e = arith.extf %element : f16 to f32
    %next = arith.addf %running, %e : f32
    rlx.yield %next : f32
  } -> tensor<5x64xf16>
  return %r : tensor<5x64xf16>
}

// -----

// One line per thread tile: the running value is a scalar carried by the
// loop, each step reads and writes one element (inclusive: the new value).
// CHECK-LABEL: func.func @scan_lines(
// CHECK-SAME:      %[[X:[a-z0-9]+]]: tensor<3x7xi8>, %[[INIT:[a-z0-9]+]]: tensor<3x7xi8>)
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG:     %[[C7:.*]] = arith.constant 7 : index
// CHECK-DAG:     %[[MIN:.*]] = arith.constant -128 : i8
// CHECK:         scf.forall (%[[L:.*]]) in (3) shared_outs(%[[OUT:.*]] = %[[INIT]])
// CHECK:           %[[XL:.*]] = tensor.extract_slice %[[X]][%[[L]], 0] [1, 7] [1, 1] : tensor<3x7xi8> to tensor<1x7xi8>
// CHECK:           %[[OL:.*]] = tensor.extract_slice %[[OUT]][%[[L]], 0] [1, 7] [1, 1] : tensor<3x7xi8> to tensor<1x7xi8>
// CHECK:           %[[LINE:.*]]:2 = scf.for %[[I:.*]] = %[[C0]] to %[[C7]] step %{{.*}} iter_args(%[[RV:.*]] = %[[MIN]], %[[ACC:.*]] = %[[OL]]) -> (i8, tensor<1x7xi8>)
// CHECK:             %[[E:.*]] = tensor.extract %[[XL]][%[[C0]], %[[I]]] : tensor<1x7xi8>
// CHECK:             %[[N:.*]] = arith.maxsi %[[RV]], %[[E]] : i8
// CHECK:             %[[INS:.*]] = tensor.insert %[[N]] into %[[ACC]][%[[C0]], %[[I]]] : tensor<1x7xi8>
// CHECK:             scf.yield %[[N]], %[[INS]] : i8, tensor<1x7xi8>
// CHECK:           tensor.parallel_insert_slice %[[LINE]]#1 into %[[OUT]][%[[L]], 0] [1, 7] [1, 1]
// CHECK-NOT:       linalg.generic
func.func @scan_lines(%x: tensor<3x7xi8>, %init: tensor<3x7xi8>) -> tensor<3x7xi8> {
  %r = rlx.associative_scan axis = 1 identity = -128 : i8 ins(%x : tensor<3x7xi8>) outs(%init : tensor<3x7xi8>) attributes {rlx.lowering_config = #rlx.lowering_config<distribution = [1, 0], cache = [0, 0], vector = [0, 0]>} {
  ^bb0(%running: i8, %element: i8):
    %next = arith.maxsi %running, %element : i8
    rlx.yield %next : i8
  } -> tensor<3x7xi8>
  return %r : tensor<3x7xi8>
}

// -----

// A dynamic axis and partial cache tiles (64 = 24 + 24 + 16): the running
// values and the steps' slices take the tile's dynamic width.
// CHECK-LABEL: func.func @scan_dynamic(
// CHECK-SAME:      %[[X:[a-z0-9]+]]: tensor<?x64xf32>
// CHECK-DAG:     %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : index
// CHECK:         %[[N:.*]] = tensor.dim %[[X]], %[[C0]] : tensor<?x64xf32>
// CHECK:         scf.for %[[K:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args
// CHECK:           %[[W:.*]] = affine.min #{{.*}}(%[[K]])
// CHECK:           %[[XC:.*]] = tensor.extract_slice %[[X]][0, %[[K]]] [%[[N]], %[[W]]] [1, 1] : tensor<?x64xf32> to tensor<?x?xf32>
// CHECK:           %[[RV0:.*]] = linalg.fill ins(%[[ONE]] : f32) outs(%{{.*}} : tensor<?xf32>)
// CHECK:           scf.for %[[I:.*]] = %[[C0]] to %[[N]] step %{{.*}} iter_args(%[[RV:.*]] = %[[RV0]], %{{.*}} = %{{.*}}) -> (tensor<?xf32>, tensor<?x?xf32>)
// CHECK:             tensor.extract_slice %[[XC]][%[[I]], 0] [1, %[[W]]] [1, 1] : tensor<?x?xf32> to tensor<?xf32>
// CHECK:             linalg.generic
// CHECK:               arith.mulf
func.func @scan_dynamic(%x: tensor<?x64xf32>, %init: tensor<?x64xf32>) -> tensor<?x64xf32> {
  %r = rlx.associative_scan axis = 0 identity = 1.0 : f32 ins(%x : tensor<?x64xf32>) outs(%init : tensor<?x64xf32>) attributes {rlx.lowering_config = #rlx.lowering_config<distribution = [0, 0], cache = [0, 24], vector = [0, 0]>} {
  ^bb0(%running: f32, %element: f32):
    %next = arith.mulf %running, %element : f32
    rlx.yield %next : f32
  } -> tensor<?x64xf32>
  return %r : tensor<?x64xf32>
}

// -----

// Thread tiles of 2 columns with the zero fill of the destination fused;
// cache tiles of one row of index positions, whose tiles add into the same
// destination in turn. Each index position wraps and clamps its index
// (gather's rule: 10 rows) and adds its 2 source columns (bf16 widened)
// into the row it selects.
// CHECK-DAG:   #[[ID:map[0-9]*]] = affine_map<(d0) -> (d0)>
// CHECK-LABEL: func.func @scatter_add_rows(
// CHECK-SAME:      %[[S:[a-z0-9]+]]: tensor<2x3x4xbf16>, %[[IDX:[a-z0-9]+]]: tensor<2x3x1xi64>)
// CHECK-DAG:     %[[C9:.*]] = arith.constant 9 : index
// CHECK-DAG:     %[[C10:.*]] = arith.constant 10 : index
// CHECK-DAG:     %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK:         scf.forall (%[[J:.*]]) = (0) to (4) step (2) shared_outs(%[[OUT:.*]] = %{{.*}})
// CHECK:           %[[ST:.*]] = tensor.extract_slice %[[S]][0, 0, %[[J]]] [2, 3, 2] [1, 1, 1]
// CHECK:           %[[OT:.*]] = tensor.extract_slice %[[OUT]][0, %[[J]]] [10, 2] [1, 1]
// CHECK:           %[[ZEROS:.*]] = linalg.fill ins(%[[ZERO]] : f32) outs(%[[OT]] : tensor<10x2xf32>)
// CHECK:           scf.for %[[P:.*]] = {{.*}} iter_args(%[[ACC0:.*]] = %[[ZEROS]]) -> (tensor<10x2xf32>)
// CHECK:             %[[SP:.*]] = tensor.extract_slice %[[ST]][%[[P]], 0, 0] [1, 3, 2] [1, 1, 1]
// CHECK:             %[[IP:.*]] = tensor.extract_slice %[[IDX]][%[[P]], 0, 0] [1, 3, 1] [1, 1, 1]
// CHECK:             scf.for %[[Q:.*]] = {{.*}} iter_args(%[[ACC:.*]] = %[[ACC0]]) -> (tensor<10x2xf32>)
// CHECK:               %[[RAW:.*]] = tensor.extract %[[IP]][%{{.*}}, %[[Q]], %{{.*}}] : tensor<1x3x1xi64>
// CHECK:               %[[CAST:.*]] = arith.index_cast %[[RAW]] : i64 to index
// CHECK:               %[[NEG:.*]] = arith.cmpi slt, %[[CAST]], %{{.*}} : index
// CHECK:               %[[UP:.*]] = arith.addi %[[CAST]], %[[C10]] : index
// CHECK:               %[[WRAP:.*]] = arith.select %[[NEG]], %[[UP]], %[[CAST]] : index
// CHECK:               %[[LO:.*]] = arith.maxsi %[[WRAP]], %{{.*}} : index
// CHECK:               %[[ROW:.*]] = arith.minsi %[[LO]], %[[C9]] : index
// CHECK:               %[[SRC:.*]] = tensor.extract_slice %[[SP]][0, %[[Q]], 0] [1, 1, 2] [1, 1, 1] : tensor<1x3x2xbf16> to tensor<2xbf16>
// CHECK:               %[[DST:.*]] = tensor.extract_slice %[[ACC]][%[[ROW]], 0] [1, 2] [1, 1] : tensor<10x2xf32> to tensor<2xf32>
// CHECK:               %[[SUM:.*]] = linalg.generic {indexing_maps = [#[[ID]], #[[ID]]], iterator_types = ["parallel"]} ins(%[[SRC]] : tensor<2xbf16>) outs(%[[DST]] : tensor<2xf32>)
// CHECK:                 arith.extf %{{.*}} : bf16 to f32
// CHECK:                 arith.addf
// CHECK:               tensor.insert_slice %[[SUM]] into %[[ACC]][%[[ROW]], 0] [1, 2] [1, 1] : tensor<2xf32> into tensor<10x2xf32>
func.func @scatter_add_rows(%s: tensor<2x3x4xbf16>, %i: tensor<2x3x1xi64>) -> tensor<10x4xf32> {
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<10x4xf32>
  %t = linalg.fill ins(%cst : f32) outs(%e : tensor<10x4xf32>) -> tensor<10x4xf32>
  %r = rlx.scatter loop_dims = [-1, -1, 1] index_loops = [0, 1] index_dims = [0] clamp_indices ins(%s, %i : tensor<2x3x4xbf16>, tensor<2x3x1xi64>) outs(%t : tensor<10x4xf32>) attributes {rlx.lowering_config = #rlx.lowering_config<distribution = [0, 0, 2], cache = [1, 0, 0], vector = [0, 0, 0]>} {
  ^bb0(%upd: bf16, %cur: f32):
    %ext = arith.extf %upd : bf16 to f32
    %sum = arith.addf %cur, %ext : f32
    rlx.yield %sum : f32
  } -> tensor<10x4xf32>
  return %r : tensor<10x4xf32>
}

// -----

// One line of the table per thread tile, along the indexed (innermost)
// axis: each index position adds one element.
// CHECK-LABEL: func.func @scatter_lines(
// CHECK-SAME:      %[[S:[a-z0-9]+]]: tensor<3x5xf32>, %[[IDX:[a-z0-9]+]]: tensor<5x1xi32>, %[[T:[a-z0-9]+]]: tensor<3x9xf32>)
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : index
// CHECK:         scf.forall (%[[L:.*]]) in (3) shared_outs(%[[OUT:.*]] = %[[T]])
// CHECK:           %[[SL:.*]] = tensor.extract_slice %[[S]][%[[L]], 0] [1, 5] [1, 1]
// CHECK:           %[[OL:.*]] = tensor.extract_slice %[[OUT]][%[[L]], 0] [1, 9] [1, 1]
// CHECK:           scf.for %[[P:.*]] = {{.*}} iter_args(%[[ACC:.*]] = %[[OL]]) -> (tensor<1x9xf32>)
// CHECK:             %[[RAW:.*]] = tensor.extract %[[IDX]][%[[P]], %[[C0]]] : tensor<5x1xi32>
// CHECK:             %[[ROW:.*]] = arith.minsi
// CHECK:             %[[E:.*]] = tensor.extract %[[SL]][%[[C0]], %[[P]]] : tensor<1x5xf32>
// CHECK:             %[[OLD:.*]] = tensor.extract %[[ACC]][%[[C0]], %[[ROW]]] : tensor<1x9xf32>
// CHECK:             %[[SUM:.*]] = arith.addf %[[OLD]], %[[E]] : f32
// CHECK:             tensor.insert %[[SUM]] into %[[ACC]][%[[C0]], %[[ROW]]] : tensor<1x9xf32>
// CHECK-NOT:       linalg.generic
func.func @scatter_lines(%s: tensor<3x5xf32>, %i: tensor<5x1xi32>, %t: tensor<3x9xf32>) -> tensor<3x9xf32> {
  %r = rlx.scatter loop_dims = [0, -1] index_loops = [1] index_dims = [1] clamp_indices ins(%s, %i : tensor<3x5xf32>, tensor<5x1xi32>) outs(%t : tensor<3x9xf32>) attributes {rlx.lowering_config = #rlx.lowering_config<distribution = [1, 0], cache = [0, 0], vector = [0, 0]>} {
  ^bb0(%upd: f32, %cur: f32):
    %sum = arith.addf %cur, %upd : f32
    rlx.yield %sum : f32
  } -> tensor<3x9xf32>
  return %r : tensor<3x9xf32>
}

// -----

// No index loops (one position) and no tiles: one slice added at one row.
// CHECK-LABEL: func.func @scatter_no_index_loops(
// CHECK-NOT:     scf.for
// CHECK:         %[[RAW:.*]] = tensor.extract %{{.*}}[%{{.*}}] : tensor<1xi64>
// CHECK:         %[[ROW:.*]] = arith.minsi
// CHECK:         %[[DST:.*]] = tensor.extract_slice %{{.*}}[%[[ROW]], 0] [1, 4] [1, 1] : tensor<6x4xf32> to tensor<4xf32>
// CHECK:         %[[SUM:.*]] = linalg.generic {{.*}} outs(%[[DST]] : tensor<4xf32>)
// CHECK:         tensor.insert_slice %[[SUM]] into %{{.*}}[%[[ROW]], 0] [1, 4] [1, 1]
func.func @scatter_no_index_loops(%s: tensor<4xf32>, %i: tensor<1xi64>, %t: tensor<6x4xf32>) -> tensor<6x4xf32> {
  %r = rlx.scatter loop_dims = [1] index_loops = [] index_dims = [0] clamp_indices ins(%s, %i : tensor<4xf32>, tensor<1xi64>) outs(%t : tensor<6x4xf32>) attributes {rlx.lowering_config = #rlx.lowering_config<distribution = [0], cache = [0], vector = [0]>} {
  ^bb0(%upd: f32, %cur: f32):
    %sum = arith.addf %cur, %upd : f32
    rlx.yield %sum : f32
  } -> tensor<6x4xf32>
  return %r : tensor<6x4xf32>
}

// -----

// Empty loops: nothing to scan or add; the destination is the result.
// CHECK-LABEL: func.func @empty(
// CHECK-SAME:      %[[X:[a-z0-9]+]]: tensor<0x8xf32>, %{{.*}}: tensor<3x0xf16>, %{{.*}}: tensor<0x1xi8>, %[[T:[a-z0-9]+]]: tensor<3x5xf64>)
// CHECK-NOT:     scf.for
// CHECK:         return %[[X]], %[[T]]
func.func @empty(%x: tensor<0x8xf32>, %s: tensor<3x0xf16>, %i: tensor<0x1xi8>, %t: tensor<3x5xf64>) -> (tensor<0x8xf32>, tensor<3x5xf64>) {
  %r = rlx.associative_scan axis = 0 identity = 0.0 : f32 ins(%x : tensor<0x8xf32>) outs(%x : tensor<0x8xf32>) attributes {rlx.lowering_config = #rlx.lowering_config<distribution = [0, 0], cache = [0, 0], vector = [0, 0]>} {
  ^bb0(%a: f32, %b: f32):
    %n = arith.addf %a, %b : f32
    rlx.yield %n : f32
  } -> tensor<0x8xf32>
  %u = rlx.scatter loop_dims = [0, -1] index_loops = [1] index_dims = [1] clamp_indices ins(%s, %i : tensor<3x0xf16>, tensor<0x1xi8>) outs(%t : tensor<3x5xf64>) attributes {rlx.lowering_config = #rlx.lowering_config<distribution = [0, 0], cache = [0, 0], vector = [0, 0]>} {
  ^bb0(%upd: f16, %cur: f64):
    %ext = arith.extf %upd : f16 to f64
    %sum = arith.addf %cur, %ext : f64
    rlx.yield %sum : f64
  } -> tensor<3x5xf64>
  return %r, %u : tensor<0x8xf32>, tensor<3x5xf64>
}

// -----

// A dynamic axis may have no rows, which no index can select (the clamp
// would give -1): the additions run only when it has some.
// CHECK-LABEL: func.func @dynamic_rows(
// CHECK-SAME:      %{{.*}}: tensor<4xf32>, %{{.*}}: tensor<4x1xi64>, %[[T:[a-z0-9]+]]: tensor<?xf32>)
// CHECK:         %[[N:.*]] = tensor.dim %[[T]]
// CHECK:         %[[SOME:.*]] = arith.cmpi ne, %[[N]], %{{.*}} : index
// CHECK:         %[[R:.*]] = scf.if %[[SOME]] -> (tensor<?xf32>) {
// CHECK:           scf.for
// CHECK:         } else {
// CHECK:           scf.yield %[[T]] : tensor<?xf32>
// CHECK:         return %[[R]]
func.func @dynamic_rows(%s: tensor<4xf32>, %i: tensor<4x1xi64>, %t: tensor<?xf32>) -> tensor<?xf32> {
  %r = rlx.scatter loop_dims = [-1] index_loops = [0] index_dims = [0] clamp_indices ins(%s, %i : tensor<4xf32>, tensor<4x1xi64>) outs(%t : tensor<?xf32>) attributes {rlx.lowering_config = #rlx.lowering_config<distribution = [0], cache = [0], vector = [0]>} {
  ^bb0(%upd: f32, %cur: f32):
    %sum = arith.addf %cur, %upd : f32
    rlx.yield %sum : f32
  } -> tensor<?xf32>
  return %r : tensor<?xf32>
}
