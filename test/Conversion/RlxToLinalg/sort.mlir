// RUN: rlx-opt %s --rlx-to-linalg -split-input-file | FileCheck %s

// A rank-1 sort is one line, sorted without a loop around it: the line and
// its positions are copied into the results, then each step of an
// scf.while merges runs of width w into the scratch buffers and runs of 2w
// back, until w reaches the length. The merge takes the right element only
// while its run lasts and when the left run is exhausted or the right
// element ranks strictly before the left one: f16 compares in f32, larger
// first (descending), NaN above numbers, equal values by position.

// CHECK-LABEL: func.func @sort_descending_f16(
// CHECK-SAME:      %[[X:.*]]: tensor<5xf16>) -> (tensor<5xf16>, tensor<5xi64>)
// CHECK-NOT:     scf.forall
// CHECK-DAG:     %[[INDICES:.*]] = tensor.empty() : tensor<5xi64>
// CHECK-DAG:     %[[VALUES:.*]] = tensor.empty() : tensor<5xf16>
// CHECK-DAG:     %[[N:.*]] = arith.constant 5 : index
// CHECK:         %[[COPY:.*]]:2 = scf.for %[[K:.*]] = %{{.*}} to %[[N]] step %{{.*}} iter_args(%{{.*}} = %[[VALUES]], %{{.*}} = %[[INDICES]]) -> (tensor<5xf16>, tensor<5xi64>)
// CHECK:           tensor.extract %[[X]][%[[K]]] : tensor<5xf16>
// CHECK:           arith.index_cast %[[K]] : index to i64
// CHECK:         %[[SV:.*]] = tensor.empty() : tensor<5xf16>
// CHECK:         %[[SI:.*]] = tensor.empty() : tensor<5xi64>
// CHECK:         %[[STEPS:.*]]:5 = scf.while (%[[W:.*]] = %{{.*}}, %{{.*}} = %[[COPY]]#0, %{{.*}} = %[[COPY]]#1, %{{.*}} = %[[SV]], %{{.*}} = %[[SI]])
// CHECK:           %[[MORE:.*]] = arith.cmpi slt, %[[W]], %[[N]] : index
// CHECK:           scf.condition(%[[MORE]])
// CHECK:         } do {
// CHECK:         ^bb0(%[[WIDTH:.*]]: index, %{{.*}}: tensor<5xf16>, %{{.*}}: tensor<5xi64>, %[[TOV:.*]]: tensor<5xf16>, %[[TOI:.*]]: tensor<5xi64>):
// CHECK:           %[[PAIR:.*]] = arith.addi %[[WIDTH]], %[[WIDTH]] : index
// CHECK:           %[[PASS:.*]]:2 = scf.for %[[LO:.*]] = %{{.*}} to %[[N]] step %[[PAIR]] iter_args(%{{.*}} = %[[TOV]], %{{.*}} = %[[TOI]])
// CHECK:             scf.for %[[AT:.*]] = %[[LO]] to %{{.*}} step %{{.*}} iter_args(%[[I:.*]] = %[[LO]], %[[J:.*]] = %{{.*}}, %{{.*}} = %{{.*}}, %{{.*}} = %{{.*}})
// CHECK:               %[[RIGHTLEFT:.*]] = arith.cmpi slt, %[[J]], %{{.*}} : index
// CHECK:               %[[LEFTDONE:.*]] = arith.cmpi sge, %[[I]], %{{.*}} : index
// CHECK:               %[[RV:.*]] = arith.extf %{{.*}} : f16 to f32
// CHECK:               %[[LV:.*]] = arith.extf %{{.*}} : f16 to f32
// CHECK:               arith.cmpf ogt, %[[RV]], %[[LV]] : f32
// CHECK:               arith.cmpi ugt
// CHECK:               arith.cmpi slt, %{{.*}}, %{{.*}} : i64
// CHECK:               %[[FIRST:.*]] = arith.ori %[[LEFTDONE]], %{{.*}} : i1
// CHECK:               %[[TAKE:.*]] = arith.andi %[[RIGHTLEFT]], %[[FIRST]] : i1
// CHECK:               %[[V:.*]] = arith.select %[[TAKE]], %{{.*}}, %{{.*}} : f16
// CHECK:               tensor.insert %[[V]] into %{{.*}}[%[[AT]]] : tensor<5xf16>
// CHECK:               tensor.insert %{{.*}} into %{{.*}}[%[[AT]]] : tensor<5xi64>
// CHECK:           %[[DOUBLED:.*]] = arith.addi %[[WIDTH]], %[[WIDTH]] : index
// CHECK:           %[[BACK:.*]]:2 = scf.for
// CHECK:             tensor.extract %[[PASS]]#0
// CHECK:           %[[NEXT:.*]] = arith.addi %[[DOUBLED]], %[[DOUBLED]] : index
// CHECK:           scf.yield %[[NEXT]], %[[BACK]]#0, %[[BACK]]#1, %[[PASS]]#0, %[[PASS]]#1
// CHECK:         return %[[STEPS]]#1, %[[STEPS]]#2
func.func @sort_descending_f16(%x: tensor<5xf16>) -> (tensor<5xf16>, tensor<5xi64>) {
  %v, %i = rlx.sort %x axis = 0 descending : tensor<5xf16> -> tensor<5xf16>, tensor<5xi64>
  return %v, %i : tensor<5xf16>, tensor<5xi64>
}

// -----

// Lines off the last axis: an scf.forall over the other dimensions extracts
// each line (here a column of `?` rows) and inserts its result. argsort
// keeps the values in a scratch line of the run-time length, read before
// the loop; integers compare signed, ascending, with no NaN logic.

// CHECK-LABEL: func.func @argsort_dynamic(
// CHECK-SAME:      %[[X:.*]]: tensor<?x3xi32>) -> tensor<?x3xi64>
// CHECK:         %[[N:.*]] = tensor.dim %[[X]], %{{.*}} : tensor<?x3xi32>
// CHECK:         %[[INIT:.*]] = tensor.empty(%[[N]]) : tensor<?x3xi64>
// CHECK:         %[[R:.*]] = scf.forall (%[[J:.*]]) in (3) shared_outs(%[[OUT:.*]] = %[[INIT]]) -> (tensor<?x3xi64>)
// CHECK:           %[[LINE:.*]] = tensor.extract_slice %[[X]][0, %[[J]]] [%{{.*}}, 1] [1, 1] : tensor<?x3xi32> to tensor<?xi32>
// CHECK:           %[[IDX:.*]] = tensor.extract_slice %[[OUT]][0, %[[J]]] [%{{.*}}, 1] [1, 1] : tensor<?x3xi64> to tensor<?xi64>
// CHECK:           %[[VALUES:.*]] = tensor.empty(%[[N]]) : tensor<?xi32>
// CHECK:           scf.for %[[K:.*]] = %{{.*}} to %[[N]] step %{{.*}} iter_args(%{{.*}} = %[[VALUES]], %{{.*}} = %[[IDX]])
// CHECK:             tensor.extract %[[LINE]][%[[K]]] : tensor<?xi32>
// CHECK:           scf.while
// CHECK-NOT:         arith.cmpf
// CHECK:             arith.cmpi slt, %{{.*}}, %{{.*}} : i32
// CHECK:           scf.forall.in_parallel
// CHECK-NEXT:        tensor.parallel_insert_slice %{{.*}} into %[[OUT]][0, %[[J]]] [%{{.*}}, 1] [1, 1] : tensor<?xi64> into tensor<?x3xi64>
// CHECK:         return %[[R]]
func.func @argsort_dynamic(%x: tensor<?x3xi32>) -> tensor<?x3xi64> {
  %i = rlx.argsort %x axis = 0 : tensor<?x3xi32> -> tensor<?x3xi64>
  return %i : tensor<?x3xi64>
}

// -----

// topk keeps a heap of the k best in each result line, the worst at the
// root: filled with k pairs ranking after everything (for `smallest`, NaN
// at the line's length), then each element ranking before the root
// replaces it and sifts down the heap's floor(log2 k) levels (a constant
// trip count), and last the heap is sorted in place from its end.

// CHECK-LABEL: func.func @topk_smallest(
// CHECK-SAME:      %[[X:.*]]: tensor<4x?xf32>) -> (tensor<4x5xf32>, tensor<4x5xi64>)
// CHECK:         %[[N:.*]] = tensor.dim %[[X]], %{{.*}} : tensor<4x?xf32>
// CHECK:         scf.forall (%[[ROW:.*]]) in (4) shared_outs(%[[OV:.*]] = %{{.*}}, %[[OI:.*]] = %{{.*}}) -> (tensor<4x5xf32>, tensor<4x5xi64>)
// CHECK:           %[[LINE:.*]] = tensor.extract_slice %[[X]][%[[ROW]], 0] [1, %{{.*}}] [1, 1] : tensor<4x?xf32> to tensor<?xf32>
// CHECK:           %[[HV0:.*]] = tensor.extract_slice %[[OV]][%[[ROW]], 0] [1, 5] [1, 1] : tensor<4x5xf32> to tensor<5xf32>
// CHECK:           %[[HI0:.*]] = tensor.extract_slice %[[OI]][%[[ROW]], 0] [1, 5] [1, 1] : tensor<4x5xi64> to tensor<5xi64>
// CHECK-DAG:       %[[K:.*]] = arith.constant 5 : index
// CHECK-DAG:       %[[NAN:.*]] = arith.constant 0x7FC00000 : f32
// CHECK-DAG:       %[[PAST:.*]] = arith.index_cast %[[N]] : index to i64
// CHECK:           %[[FILL:.*]]:2 = scf.for %[[P:.*]] = %{{.*}} to %[[K]] step %{{.*}} iter_args(%{{.*}} = %[[HV0]], %{{.*}} = %[[HI0]])
// CHECK:             tensor.insert %[[NAN]] into %{{.*}}[%[[P]]] : tensor<5xf32>
// CHECK:             tensor.insert %[[PAST]] into %{{.*}}[%[[P]]] : tensor<5xi64>
// CHECK:           %[[SEL:.*]]:2 = scf.for %[[E:.*]] = %{{.*}} to %[[N]] step %{{.*}} iter_args(%[[HV:.*]] = %[[FILL]]#0, %[[HI:.*]] = %[[FILL]]#1)
// CHECK:             %[[XE:.*]] = tensor.extract %[[LINE]][%[[E]]] : tensor<?xf32>
// CHECK:             %[[ROOT:.*]] = tensor.extract %[[HV]][%{{.*}}] : tensor<5xf32>
// CHECK:             arith.cmpf olt, %[[XE]], %[[ROOT]] : f32
// CHECK:             arith.cmpi ult
// CHECK:             scf.if %{{.*}} -> (tensor<5xf32>, tensor<5xi64>) {
// CHECK:               %[[DEPTH:.*]] = arith.constant 2 : index
// CHECK:               %[[SIFT:.*]]:3 = scf.for %{{.*}} = %{{.*}} to %[[DEPTH]] step %{{.*}} iter_args(%{{.*}} = %{{.*}}, %{{.*}} = %[[HV]], %{{.*}} = %[[HI]])
// CHECK:               tensor.insert %[[XE]] into %[[SIFT]]#1[%[[SIFT]]#0] : tensor<5xf32>
// CHECK:             } else {
// CHECK:               scf.yield %[[HV]], %[[HI]]
// CHECK:           %[[SORTED:.*]]:2 = scf.for %{{.*}} = %{{.*}} to %[[K]] step %{{.*}} iter_args(%{{.*}} = %[[SEL]]#0, %{{.*}} = %[[SEL]]#1)
// CHECK:             scf.for
// CHECK:           scf.forall.in_parallel
// CHECK-NEXT:        tensor.parallel_insert_slice %[[SORTED]]#0 into %[[OV]][%[[ROW]], 0] [1, 5] [1, 1]
// CHECK-NEXT:        tensor.parallel_insert_slice %[[SORTED]]#1 into %[[OI]][%[[ROW]], 0] [1, 5] [1, 1]
func.func @topk_smallest(%x: tensor<4x?xf32>) -> (tensor<4x5xf32>, tensor<4x5xi64>) {
  %v, %i = rlx.topk %x k = 5 smallest : tensor<4x?xf32> -> tensor<4x5xf32>, tensor<4x5xi64>
  return %v, %i : tensor<4x5xf32>, tensor<4x5xi64>
}

// -----

// topk largest fills its heap with -inf pairs.
// CHECK-LABEL: func.func @topk_i8(
// CHECK:         arith.constant -128 : i8
// CHECK:         arith.cmpi sgt, %{{.*}}, %{{.*}} : i8
func.func @topk_i8(%x: tensor<9xi8>) -> (tensor<3xi8>, tensor<3xi64>) {
  %v, %i = rlx.topk %x k = 3 : tensor<9xi8> -> tensor<3xi8>, tensor<3xi64>
  return %v, %i : tensor<3xi8>, tensor<3xi64>
}

// -----

// Without elements there is nothing to order: empty results, no loops.

// CHECK-LABEL: func.func @no_elements(
// CHECK-NOT:     scf.for
// CHECK-NOT:     scf.forall
// CHECK-DAG:     %[[I:.*]] = tensor.empty() : tensor<0x4xi64>
// CHECK-DAG:     %[[V:.*]] = tensor.empty() : tensor<0x4xf32>
// CHECK-DAG:     %[[A:.*]] = tensor.empty() : tensor<2x0xi64>
// CHECK:         return %[[V]], %[[I]], %[[A]]
func.func @no_elements(%x: tensor<0x4xf32>, %y: tensor<2x0xi32>) -> (tensor<0x4xf32>, tensor<0x4xi64>, tensor<2x0xi64>) {
  %v, %i = rlx.sort %x axis = 1 : tensor<0x4xf32> -> tensor<0x4xf32>, tensor<0x4xi64>
  %a = rlx.argsort %y axis = 1 : tensor<2x0xi32> -> tensor<2x0xi64>
  return %v, %i, %a : tensor<0x4xf32>, tensor<0x4xi64>, tensor<2x0xi64>
}

// -----

// cummax_indices: the running maximum (rlx.associative_scan, in f32 for f16), the
// positions where the input equals it or is NaN (0 elsewhere), and the
// running maximum of those.

// CHECK-LABEL: func.func @cummax_indices(
// CHECK-SAME:      %[[X:.*]]: tensor<3x?xf16>) -> tensor<3x?xi64>
// CHECK:         %[[MAXES:.*]] = rlx.associative_scan axis = 1 identity = 0xFF800000 : f32 ins(%[[X]] : tensor<3x?xf16>)
// CHECK:           arith.maximumf
// CHECK:         %[[TAKES:.*]] = linalg.generic
// CHECK-SAME:        ins(%[[X]], %[[MAXES]] : tensor<3x?xf16>, tensor<3x?xf16>)
// CHECK:           %[[XF:.*]] = arith.extf %{{.*}} : f16 to f32
// CHECK:           %[[YF:.*]] = arith.extf %{{.*}} : f16 to f32
// CHECK:           %[[EQ:.*]] = arith.cmpf oeq, %[[XF]], %[[YF]] : f32
// CHECK:           %[[NAN:.*]] = arith.cmpf une, %[[XF]], %[[XF]] : f32
// CHECK:           %[[TAKE:.*]] = arith.ori %[[EQ]], %[[NAN]] : i1
// CHECK:           %[[POS:.*]] = linalg.index 1 : index
// CHECK:           %[[POS64:.*]] = arith.index_cast %[[POS]] : index to i64
// CHECK:           arith.select %[[TAKE]], %[[POS64]], %{{.*}} : i64
// CHECK:         %[[R:.*]] = rlx.associative_scan axis = 1 identity = -9223372036854775808 : i64 ins(%[[TAKES]] : tensor<3x?xi64>)
// CHECK:           arith.maxsi
// CHECK:         return %[[R]]
func.func @cummax_indices(%x: tensor<3x?xf16>) -> tensor<3x?xi64> {
  %i = rlx.cummax_indices %x axis = -1 : tensor<3x?xf16> -> tensor<3x?xi64>
  return %i : tensor<3x?xi64>
}

// -----

// histogram: the input flattened and cut into ceil(n / L) chunks of
// L = max(1024, ceil(n / 256)) elements; an scf.forall over the chunks
// counts each chunk's elements into its row of i64 counts: the bin
// trunc((x - min) * bins / (max - min)) in the input's type (max - min
// folded: here 6), at most bins - 1; an element outside [min, max] or NaN
// (ordered compares) adds 0 to bin 0. A reduction generic sums the rows,
// converted to the result type.

// CHECK-DAG:   #[[TRANSPOSED:map[0-9]*]] = affine_map<(d0, d1) -> (d1, d0)>
// CHECK-DAG:   #[[BIN:map[0-9]*]] = affine_map<(d0, d1) -> (d0)>
// CHECK-LABEL: func.func @histogram(
// CHECK-SAME:      %[[X:.*]]: tensor<?x8xf64>) -> tensor<6xf64>
// CHECK:         %[[FLAT:.*]] = tensor.collapse_shape %[[X]] {{\[\[}}0, 1]] : tensor<?x8xf64> into tensor<?xf64>
// CHECK:         %[[N:.*]] = tensor.dim %[[FLAT]]
// CHECK:         %[[PER:.*]] = arith.divsi %{{.*}}, %{{.*}} : index
// CHECK:         %[[LEN:.*]] = arith.maxsi %[[PER]], %{{.*}} : index
// CHECK:         %[[CHUNKS:.*]] = arith.divsi %{{.*}}, %[[LEN]] : index
// CHECK:         %[[ZERO:.*]] = arith.constant 0 : i64
// CHECK:         %[[EMPTY:.*]] = tensor.empty(%[[CHUNKS]]) : tensor<?x6xi64>
// CHECK:         %[[PARTIAL:.*]] = linalg.fill ins(%[[ZERO]] : i64) outs(%[[EMPTY]] : tensor<?x6xi64>)
// CHECK:         %[[ROWS:.*]] = scf.forall (%[[C:.*]]) in (%[[CHUNKS]]) shared_outs(%[[OUT:.*]] = %[[PARTIAL]]) -> (tensor<?x6xi64>)
// CHECK:           %[[ROW:.*]] = tensor.extract_slice %[[OUT]][%[[C]], 0] [1, 6] [1, 1] : tensor<?x6xi64> to tensor<6xi64>
// CHECK:           %[[BEGIN:.*]] = arith.muli %[[C]], %[[LEN]] : index
// CHECK:           %[[STOP:.*]] = arith.addi %[[BEGIN]], %[[LEN]] : index
// CHECK:           %[[END:.*]] = arith.minsi %[[STOP]], %[[N]] : index
// CHECK:           %[[COUNTS:.*]] = scf.for %[[E:.*]] = %[[BEGIN]] to %[[END]] step %{{.*}} iter_args(%[[ACC:.*]] = %[[ROW]]) -> (tensor<6xi64>)
// CHECK:             %[[XE:.*]] = tensor.extract %[[FLAT]][%[[E]]] : tensor<?xf64>
// CHECK-DAG:         %[[LO:.*]] = arith.constant -1.500000e+00 : f64
// CHECK-DAG:         %[[HI:.*]] = arith.constant 4.500000e+00 : f64
// CHECK:             %[[GE:.*]] = arith.cmpf oge, %[[XE]], %[[LO]] : f64
// CHECK:             %[[LE:.*]] = arith.cmpf ole, %[[XE]], %[[HI]] : f64
// CHECK:             %[[IN:.*]] = arith.andi %[[GE]], %[[LE]] : i1
// CHECK:             %[[OFF:.*]] = arith.subf %[[XE]], %[[LO]] : f64
// CHECK:             %[[BINSF:.*]] = arith.constant 6.000000e+00 : f64
// CHECK:             %[[SCALED:.*]] = arith.mulf %[[OFF]], %[[BINSF]] : f64
// CHECK:             %[[SPAN:.*]] = arith.constant 6.000000e+00 : f64
// CHECK:             %[[Q:.*]] = arith.divf %[[SCALED]], %[[SPAN]] : f64
// CHECK:             %[[T:.*]] = arith.fptosi %[[Q]] : f64 to i64
// CHECK:             %[[LAST:.*]] = arith.constant 5 : i64
// CHECK:             %[[B:.*]] = arith.minsi %[[T]], %[[LAST]] : i64
// CHECK:             %[[SLOT64:.*]] = arith.select %[[IN]], %[[B]], %[[ZERO]] : i64
// CHECK:             %[[SLOT:.*]] = arith.index_cast %[[SLOT64]] : i64 to index
// CHECK:             %[[OLD:.*]] = tensor.extract %[[ACC]][%[[SLOT]]] : tensor<6xi64>
// CHECK:             %[[ONE:.*]] = arith.extui %[[IN]] : i1 to i64
// CHECK:             %[[NEW:.*]] = arith.addi %[[OLD]], %[[ONE]] : i64
// CHECK:             %[[INS:.*]] = tensor.insert %[[NEW]] into %[[ACC]][%[[SLOT]]] : tensor<6xi64>
// CHECK:             scf.yield %[[INS]] : tensor<6xi64>
// CHECK:           scf.forall.in_parallel
// CHECK-NEXT:        tensor.parallel_insert_slice %[[COUNTS]] into %[[OUT]][%[[C]], 0] [1, 6] [1, 1] : tensor<6xi64> into tensor<?x6xi64>
// CHECK:         %[[TOTAL0:.*]] = linalg.fill ins(%[[ZERO]] : i64) outs(%{{.*}} : tensor<6xi64>)
// CHECK:         %[[TOTAL:.*]] = linalg.generic {indexing_maps = [#[[TRANSPOSED]], #[[BIN]]], iterator_types = ["parallel", "reduction"]}
// CHECK-SAME:        ins(%[[ROWS]] : tensor<?x6xi64>) outs(%[[TOTAL0]] : tensor<6xi64>)
// CHECK:           arith.addi
// CHECK:         %[[R:.*]] = linalg.generic
// CHECK-SAME:        ins(%[[TOTAL]] : tensor<6xi64>)
// CHECK:           arith.sitofp %{{.*}} : i64 to f64
// CHECK:         return %[[R]]
func.func @histogram(%x: tensor<?x8xf64>) -> tensor<6xf64> {
  %h = rlx.histogram %x bins = 6 min = -1.5 max = 4.5 : tensor<?x8xf64> -> tensor<6xf64>
  return %h : tensor<6xf64>
}

// -----

// A static input gets its chunking as constants: 3000 elements are three
// chunks of 1024.
// CHECK-LABEL: func.func @histogram_static(
// CHECK:         scf.forall (%{{.*}}) in (3)
// CHECK:           arith.muli %{{.*}}, %c1024{{(_[0-9]+)?}} : index
func.func @histogram_static(%x: tensor<3000xf32>) -> tensor<7xf32> {
  %h = rlx.histogram %x bins = 7 min = 0.0 max = 1.0 : tensor<3000xf32> -> tensor<7xf32>
  return %h : tensor<7xf32>
}

// -----

// A rank-0 input is one element.
// CHECK-LABEL: func.func @histogram_scalar(
// CHECK:         tensor.expand_shape %{{.*}} [] output_shape [1] : tensor<f32> into tensor<1xf32>
func.func @histogram_scalar(%x: tensor<f32>) -> tensor<3xf32> {
  %h = rlx.histogram %x bins = 3 min = 0.0 max = 3.0 : tensor<f32> -> tensor<3xf32>
  return %h : tensor<3xf32>
}
