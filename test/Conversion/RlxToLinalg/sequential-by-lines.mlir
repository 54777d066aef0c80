// RUN: rlx-opt %s --rlx-to-linalg=sequential-by-lines -split-input-file | FileCheck %s

// Scans by lines: an scf.forall over every position off the axis, whose
// iteration scans its line of the result (a slice of the shared output) in
// an scf.for carrying the running value as a scalar (f32 for f16). Each
// step reads one input element and inserts the value to store: the
// previous running value when exclusive, rounded to the storage type.

// CHECK-LABEL: func.func @cumsum_exclusive_f16(
// CHECK-SAME:      %[[ARG:.*]]: tensor<2x5x3xf16>) -> tensor<2x5x3xf16>
// CHECK-DAG:     %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-DAG:     %[[EMPTY:.*]] = tensor.empty() : tensor<2x5x3xf16>
// CHECK:         %[[R:.*]] = scf.forall (%[[I:.*]], %[[K:.*]]) in (2, 3) shared_outs(%[[OUT:.*]] = %[[EMPTY]]) -> (tensor<2x5x3xf16>) {
// CHECK:           %[[LINE:.*]] = tensor.extract_slice %[[OUT]][%[[I]], %{{.*}}, %[[K]]] [1, 5, 1] [1, 1, 1] : tensor<2x5x3xf16> to tensor<5xf16>
// CHECK:           %[[SCAN:.*]]:2 = scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[SUM:.*]] = %[[ZERO]], %[[ACC:.*]] = %[[LINE]]) -> (f32, tensor<5xf16>) {
// CHECK:             %[[X:.*]] = tensor.extract %[[ARG]][%[[I]], %[[J]], %[[K]]] : tensor<2x5x3xf16>
// CHECK:             %[[XF:.*]] = arith.extf %[[X]] : f16 to f32
// CHECK:             %[[NEXT:.*]] = arith.addf %[[SUM]], %[[XF]] : f32
// CHECK:             %[[STORED:.*]] = arith.truncf %[[SUM]] : f32 to f16
// CHECK:             %[[INS:.*]] = tensor.insert %[[STORED]] into %[[ACC]][%[[J]]] : tensor<5xf16>
// CHECK:             scf.yield %[[NEXT]], %[[INS]] : f32, tensor<5xf16>
// CHECK:           scf.forall.in_parallel {
// CHECK:             tensor.parallel_insert_slice %[[SCAN]]#1 into %[[OUT]][%[[I]], %{{.*}}, %[[K]]] [1, 5, 1] [1, 1, 1] : tensor<5xf16> into tensor<2x5x3xf16>
// CHECK:         return %[[R]]
func.func @cumsum_exclusive_f16(%a: tensor<2x5x3xf16>) -> tensor<2x5x3xf16> {
  %0 = rlx.cumsum %a axis = -2 exclusive : tensor<2x5x3xf16>
  return %0 : tensor<2x5x3xf16>
}

// -----

// The axis first: the lines are the columns. Inclusive scans store the new
// running value; cumprod starts at 1.

// CHECK-LABEL: func.func @cumprod_first(
// CHECK-SAME:      %[[ARG:.*]]: tensor<4x3xi32>)
// CHECK:         %[[ONE:.*]] = arith.constant 1 : i32
// CHECK:         scf.forall (%[[K:.*]]) in (3) shared_outs(%[[OUT:.*]] = %{{.*}})
// CHECK:           tensor.extract_slice %[[OUT]][%{{.*}}, %[[K]]] [4, 1] [1, 1] : tensor<4x3xi32> to tensor<4xi32>
// CHECK:           scf.for %[[J:.*]] = {{.*}} iter_args(%[[P:.*]] = %[[ONE]], %[[ACC:.*]] = %{{.*}}) -> (i32, tensor<4xi32>)
// CHECK:             %[[X:.*]] = tensor.extract %[[ARG]][%[[J]], %[[K]]] : tensor<4x3xi32>
// CHECK:             %[[NEXT:.*]] = arith.muli %[[P]], %[[X]] : i32
// CHECK:             tensor.insert %[[NEXT]] into %[[ACC]][%[[J]]] : tensor<4xi32>
func.func @cumprod_first(%a: tensor<4x3xi32>) -> tensor<4x3xi32> {
  %0 = rlx.cumprod %a axis = 0 : tensor<4x3xi32>
  return %0 : tensor<4x3xi32>
}

// -----

// The axis last: the lines are the rows. cummax starts at -inf and takes
// the NaN-propagating maximum.

// CHECK-LABEL: func.func @cummax_last(
// CHECK-SAME:      %[[ARG:.*]]: tensor<3x6xf32>)
// CHECK:         %[[NEGINF:.*]] = arith.constant 0xFF800000 : f32
// CHECK:         scf.forall (%[[I:.*]]) in (3)
// CHECK:           tensor.extract_slice %{{.*}}[%[[I]], %{{.*}}] [1, 6] [1, 1] : tensor<3x6xf32> to tensor<6xf32>
// CHECK:           scf.for %[[J:.*]] = {{.*}} iter_args(%[[M:.*]] = %[[NEGINF]], %{{.*}} = %{{.*}}) -> (f32, tensor<6xf32>)
// CHECK:             %[[X:.*]] = tensor.extract %[[ARG]][%[[I]], %[[J]]] : tensor<3x6xf32>
// CHECK:             arith.maximumf %[[M]], %[[X]] : f32
func.func @cummax_last(%a: tensor<3x6xf32>) -> tensor<3x6xf32> {
  %0 = rlx.cummax %a axis = 1 : tensor<3x6xf32>
  return %0 : tensor<3x6xf32>
}

// -----

// Rank 1 is a single line: no loop over lines, the scan's scf.for writes
// the result directly. Exclusive cummax of i8 stores the previous maximum,
// starting at -128.

// CHECK-LABEL: func.func @cummax_rank1_exclusive(
// CHECK-SAME:      %[[ARG:.*]]: tensor<6xi8>)
// CHECK-DAG:     %[[MIN:.*]] = arith.constant -128 : i8
// CHECK-DAG:     %[[EMPTY:.*]] = tensor.empty() : tensor<6xi8>
// CHECK-NOT:     scf.forall
// CHECK:         %[[SCAN:.*]]:2 = scf.for %[[J:.*]] = {{.*}} iter_args(%[[M:.*]] = %[[MIN]], %[[ACC:.*]] = %[[EMPTY]]) -> (i8, tensor<6xi8>)
// CHECK:           %[[X:.*]] = tensor.extract %[[ARG]][%[[J]]] : tensor<6xi8>
// CHECK:           %[[NEXT:.*]] = arith.maxsi %[[M]], %[[X]] : i8
// CHECK:           %[[INS:.*]] = tensor.insert %[[M]] into %[[ACC]][%[[J]]] : tensor<6xi8>
// CHECK:           scf.yield %[[NEXT]], %[[INS]]
// CHECK:         return %[[SCAN]]#1
func.func @cummax_rank1_exclusive(%a: tensor<6xi8>) -> tensor<6xi8> {
  %0 = rlx.cummax %a axis = 0 exclusive : tensor<6xi8>
  return %0 : tensor<6xi8>
}

// -----

// An axis of size 1: lines of one element, a one-step scan each.

// CHECK-LABEL: func.func @cumsum_size1_axis(
// CHECK:         scf.forall (%[[I:.*]]) in (4)
// CHECK:           tensor.extract_slice %{{.*}}[%[[I]], %{{.*}}] [1, 1] [1, 1] : tensor<4x1xf64> to tensor<1xf64>
// CHECK:           scf.for {{.*}} -> (f64, tensor<1xf64>)
// CHECK:             arith.addf
func.func @cumsum_size1_axis(%a: tensor<4x1xf64>) -> tensor<4x1xf64> {
  %0 = rlx.cumsum %a axis = 1 : tensor<4x1xf64>
  return %0 : tensor<4x1xf64>
}

// -----

// An empty axis: nothing to compute.

// CHECK-LABEL: func.func @cumsum_empty_axis(
// CHECK-NEXT:    %[[EMPTY:.*]] = tensor.empty() : tensor<3x0xf32>
// CHECK-NEXT:    return %[[EMPTY]]
func.func @cumsum_empty_axis(%a: tensor<3x0xf32>) -> tensor<3x0xf32> {
  %0 = rlx.cumsum %a axis = 1 : tensor<3x0xf32>
  return %0 : tensor<3x0xf32>
}

// -----

// gather_backward by lines: the table (f32 for f16) is zero-filled, then an
// scf.forall over its lines along the gathered axis, each an scf.for over
// the index positions adding the gathered element of grad_output into the
// line's element the (wrapped, clamped) index selects.

// CHECK-LABEL: func.func @gather_backward(
// CHECK-SAME:      %[[DY:.*]]: tensor<2x3x4xf16>, %[[IDX:.*]]: tensor<3xi32>)
// CHECK:         %[[ZEROS:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<2x10x4xf32>)
// CHECK:         %[[SUMS:.*]] = scf.forall (%[[P:.*]], %[[S:.*]]) in (2, 4) shared_outs(%[[OUT:.*]] = %[[ZEROS]])
// CHECK:           %[[LINE:.*]] = tensor.extract_slice %[[OUT]][%[[P]], %{{.*}}, %[[S]]] [1, 10, 1] [1, 1, 1] : tensor<2x10x4xf32> to tensor<10xf32>
// CHECK:           %[[ADDED:.*]] = scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %[[LINE]]) -> (tensor<10xf32>)
// CHECK:             %[[I:.*]] = arith.remsi
// CHECK:             tensor.extract %[[IDX]][%[[I]]] : tensor<3xi32>
// CHECK:             %[[ROW:.*]] = arith.minsi
// CHECK:             %[[G:.*]] = tensor.extract %[[DY]][%[[P]], %[[I]], %[[S]]] : tensor<2x3x4xf16>
// CHECK:             %[[GF:.*]] = arith.extf %[[G]] : f16 to f32
// CHECK:             %[[A:.*]] = tensor.extract %[[ACC]][%[[ROW]]] : tensor<10xf32>
// CHECK:             %[[SUM:.*]] = arith.addf %[[A]], %[[GF]] : f32
// CHECK:             %[[INS:.*]] = tensor.insert %[[SUM]] into %[[ACC]][%[[ROW]]] : tensor<10xf32>
// CHECK:             scf.yield %[[INS]]
// CHECK:           tensor.parallel_insert_slice %[[ADDED]] into %[[OUT]][%[[P]], %{{.*}}, %[[S]]] [1, 10, 1]
// CHECK:         linalg.generic {{.*}} ins(%[[SUMS]] : tensor<2x10x4xf32>) outs(%{{.*}} : tensor<2x10x4xf16>)
// CHECK:           arith.truncf
func.func @gather_backward(%dy: tensor<2x3x4xf16>, %i: tensor<3xi32>) -> tensor<2x10x4xf16> {
  %0 = rlx.gather_backward %dy, %i axis = 1 : (tensor<2x3x4xf16>, tensor<3xi32>) -> tensor<2x10x4xf16>
  return %0 : tensor<2x10x4xf16>
}
