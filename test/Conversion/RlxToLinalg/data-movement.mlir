// RUN: rlx-opt %s --rlx-to-linalg -split-input-file | FileCheck %s

// Row-major reshape: collapse to 1-D, then expand to the result shape.

// CHECK-LABEL: func.func @reshape(
// CHECK-SAME:      %[[A:.*]]: tensor<2x3x4xf32>) -> tensor<6x4xf32>
// CHECK:         %[[FLAT:.*]] = tensor.collapse_shape %[[A]] {{\[}}[0, 1, 2]] : tensor<2x3x4xf32> into tensor<24xf32>
// CHECK:         %[[R:.*]] = tensor.expand_shape %[[FLAT]] {{\[}}[0, 1]] output_shape [6, 4] : tensor<24xf32> into tensor<6x4xf32>
// CHECK:         return %[[R]] : tensor<6x4xf32>
func.func @reshape(%a: tensor<2x3x4xf32>) -> tensor<6x4xf32> {
  %0 = rlx.reshape %a : tensor<2x3x4xf32> -> tensor<6x4xf32>
  return %0 : tensor<6x4xf32>
}

// A 1-D input needs no collapse, a 1-D result no expand.

// CHECK-LABEL: func.func @reshape_from_1d(
// CHECK-SAME:      %[[A:.*]]: tensor<6xi32>)
// CHECK-NOT:     tensor.collapse_shape
// CHECK:         %[[R:.*]] = tensor.expand_shape %[[A]] {{\[}}[0, 1]] output_shape [2, 3] : tensor<6xi32> into tensor<2x3xi32>
// CHECK:         return %[[R]]
func.func @reshape_from_1d(%a: tensor<6xi32>) -> tensor<2x3xi32> {
  %0 = rlx.reshape %a : tensor<6xi32> -> tensor<2x3xi32>
  return %0 : tensor<2x3xi32>
}

// CHECK-LABEL: func.func @reshape_to_1d(
// CHECK-SAME:      %[[A:.*]]: tensor<2x3xf16>)
// CHECK:         %[[R:.*]] = tensor.collapse_shape %[[A]] {{\[}}[0, 1]] : tensor<2x3xf16> into tensor<6xf16>
// CHECK-NOT:     tensor.expand_shape
// CHECK:         return %[[R]]
func.func @reshape_to_1d(%a: tensor<2x3xf16>) -> tensor<6xf16> {
  %0 = rlx.reshape %a : tensor<2x3xf16> -> tensor<6xf16>
  return %0 : tensor<6xf16>
}

// Between a static shape and one with a single `?` (a state with a static
// batch where the input's is `?`), the `?` is the element count's: a
// static reshape, then a cast (and a cast first the other way).

// CHECK-LABEL: func.func @reshape_static_to_dynamic(
// CHECK-SAME:      %[[A:.*]]: tensor<1x2x4xf32>)
// CHECK:         %[[FLAT:.*]] = tensor.collapse_shape %[[A]] {{\[}}[0, 1, 2]] : tensor<1x2x4xf32> into tensor<8xf32>
// CHECK:         %[[R:.*]] = tensor.expand_shape %[[FLAT]] {{\[}}[0, 1]] output_shape [2, 4] : tensor<8xf32> into tensor<2x4xf32>
// CHECK:         %[[C:.*]] = tensor.cast %[[R]] : tensor<2x4xf32> to tensor<?x4xf32>
// CHECK:         return %[[C]] : tensor<?x4xf32>
func.func @reshape_static_to_dynamic(%a: tensor<1x2x4xf32>) -> tensor<?x4xf32> {
  %0 = rlx.reshape %a : tensor<1x2x4xf32> -> tensor<?x4xf32>
  return %0 : tensor<?x4xf32>
}

// CHECK-LABEL: func.func @reshape_dynamic_to_static(
// CHECK-SAME:      %[[A:.*]]: tensor<?x4xf32>)
// CHECK:         %[[C:.*]] = tensor.cast %[[A]] : tensor<?x4xf32> to tensor<2x4xf32>
// CHECK:         %[[FLAT:.*]] = tensor.collapse_shape %[[C]] {{\[}}[0, 1]] : tensor<2x4xf32> into tensor<8xf32>
// CHECK:         %[[R:.*]] = tensor.expand_shape %[[FLAT]] {{\[}}[0, 1, 2]] output_shape [1, 2, 4] : tensor<8xf32> into tensor<1x2x4xf32>
// CHECK:         return %[[R]] : tensor<1x2x4xf32>
func.func @reshape_dynamic_to_static(%a: tensor<?x4xf32>) -> tensor<1x2x4xf32> {
  %0 = rlx.reshape %a : tensor<?x4xf32> -> tensor<1x2x4xf32>
  return %0 : tensor<1x2x4xf32>
}

// Rank 0 goes through tensor<1x...> with empty reassociations.

// CHECK-LABEL: func.func @reshape_from_rank0(
// CHECK-SAME:      %[[A:.*]]: tensor<f32>)
// CHECK:         %[[ONE:.*]] = tensor.expand_shape %[[A]] [] output_shape [1] : tensor<f32> into tensor<1xf32>
// CHECK:         %[[R:.*]] = tensor.expand_shape %[[ONE]] {{\[}}[0, 1]] output_shape [1, 1] : tensor<1xf32> into tensor<1x1xf32>
// CHECK:         return %[[R]] : tensor<1x1xf32>
func.func @reshape_from_rank0(%a: tensor<f32>) -> tensor<1x1xf32> {
  %0 = rlx.reshape %a : tensor<f32> -> tensor<1x1xf32>
  return %0 : tensor<1x1xf32>
}

// CHECK-LABEL: func.func @reshape_to_rank0(
// CHECK-SAME:      %[[A:.*]]: tensor<1x1xi1>)
// CHECK:         %[[ONE:.*]] = tensor.collapse_shape %[[A]] {{\[}}[0, 1]] : tensor<1x1xi1> into tensor<1xi1>
// CHECK:         %[[R:.*]] = tensor.collapse_shape %[[ONE]] [] : tensor<1xi1> into tensor<i1>
// CHECK:         return %[[R]] : tensor<i1>
func.func @reshape_to_rank0(%a: tensor<1x1xi1>) -> tensor<i1> {
  %0 = rlx.reshape %a : tensor<1x1xi1> -> tensor<i1>
  return %0 : tensor<i1>
}

// CHECK-LABEL: func.func @reshape_rank0_to_1d(
// CHECK-SAME:      %[[A:.*]]: tensor<bf16>)
// CHECK:         %[[R:.*]] = tensor.expand_shape %[[A]] [] output_shape [1] : tensor<bf16> into tensor<1xbf16>
// CHECK-NEXT:    return %[[R]] : tensor<1xbf16>
func.func @reshape_rank0_to_1d(%a: tensor<bf16>) -> tensor<1xbf16> {
  %0 = rlx.reshape %a : tensor<bf16> -> tensor<1xbf16>
  return %0 : tensor<1xbf16>
}

// -----

// CHECK-LABEL: func.func @transpose(
// CHECK-SAME:      %[[A:.*]]: tensor<2x3x4xf32>) -> tensor<4x2x3xf32>
// CHECK:         %[[INIT:.*]] = tensor.empty() : tensor<4x2x3xf32>
// CHECK:         %[[R:.*]] = linalg.transpose ins(%[[A]] : tensor<2x3x4xf32>) outs(%[[INIT]] : tensor<4x2x3xf32>) permutation = [2, 0, 1]
// CHECK:         return %[[R]] : tensor<4x2x3xf32>
func.func @transpose(%a: tensor<2x3x4xf32>) -> tensor<4x2x3xf32> {
  %0 = rlx.transpose %a [2, 0, 1] : tensor<2x3x4xf32> -> tensor<4x2x3xf32>
  return %0 : tensor<4x2x3xf32>
}

// -----

// expand is a broadcasting copy: the input map drops the missing leading
// dimension and reads index 0 of the size-1 one.

// CHECK-DAG:   #[[IN:map[0-9]*]] = affine_map<(d0, d1, d2) -> (d1, 0)>
// CHECK-DAG:   #[[ID:map[0-9]*]] = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-LABEL: func.func @expand(
// CHECK-SAME:      %[[A:.*]]: tensor<3x1xf32>) -> tensor<2x3x4xf32>
// CHECK:         %[[INIT:.*]] = tensor.empty() : tensor<2x3x4xf32>
// CHECK:         %[[R:.*]] = linalg.generic
// CHECK-SAME:        indexing_maps = [#[[IN]], #[[ID]]]
// CHECK-SAME:        iterator_types = ["parallel", "parallel", "parallel"]
// CHECK-SAME:        ins(%[[A]] : tensor<3x1xf32>) outs(%[[INIT]] : tensor<2x3x4xf32>)
// CHECK:         ^bb0(%[[X:[a-z0-9_]+]]: f32, %{{[a-z0-9_]+}}: f32):
// CHECK-NEXT:      linalg.yield %[[X]] : f32
// CHECK:         return %[[R]] : tensor<2x3x4xf32>
func.func @expand(%a: tensor<3x1xf32>) -> tensor<2x3x4xf32> {
  %0 = rlx.expand %a : tensor<3x1xf32> -> tensor<2x3x4xf32>
  return %0 : tensor<2x3x4xf32>
}

// -----

// CHECK-DAG:   #[[IN:map[0-9]*]] = affine_map<(d0, d1) -> ()>
// CHECK-DAG:   #[[ID:map[0-9]*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @expand_rank0(
// CHECK:         linalg.generic
// CHECK-SAME:        indexing_maps = [#[[IN]], #[[ID]]]
// CHECK-SAME:        ins(%{{.*}} : tensor<i8>) outs(%{{.*}} : tensor<2x3xi8>)
func.func @expand_rank0(%a: tensor<i8>) -> tensor<2x3xi8> {
  %0 = rlx.expand %a : tensor<i8> -> tensor<2x3xi8>
  return %0 : tensor<2x3xi8>
}

// -----

// concat inserts each input into an empty result at its running offset.

// CHECK-LABEL: func.func @concat_last_axis(
// CHECK-SAME:      %[[A:.*]]: tensor<2x3xf32>, %[[B:.*]]: tensor<2x5xf32>, %[[C:.*]]: tensor<2x1xf32>)
// CHECK:         %[[INIT:.*]] = tensor.empty() : tensor<2x9xf32>
// CHECK:         %[[S0:.*]] = tensor.insert_slice %[[A]] into %[[INIT]][0, 0] [2, 3] [1, 1] : tensor<2x3xf32> into tensor<2x9xf32>
// CHECK:         %[[S1:.*]] = tensor.insert_slice %[[B]] into %[[S0]][0, 3] [2, 5] [1, 1] : tensor<2x5xf32> into tensor<2x9xf32>
// CHECK:         %[[S2:.*]] = tensor.insert_slice %[[C]] into %[[S1]][0, 8] [2, 1] [1, 1] : tensor<2x1xf32> into tensor<2x9xf32>
// CHECK:         return %[[S2]] : tensor<2x9xf32>
func.func @concat_last_axis(%a: tensor<2x3xf32>, %b: tensor<2x5xf32>, %c: tensor<2x1xf32>) -> tensor<2x9xf32> {
  %0 = rlx.concat %a, %b, %c axis = -1 : (tensor<2x3xf32>, tensor<2x5xf32>, tensor<2x1xf32>) -> tensor<2x9xf32>
  return %0 : tensor<2x9xf32>
}

// CHECK-LABEL: func.func @concat_first_axis(
// CHECK-SAME:      %[[A:.*]]: tensor<1x4xi1>, %[[B:.*]]: tensor<2x4xi1>)
// CHECK:         %[[INIT:.*]] = tensor.empty() : tensor<3x4xi1>
// CHECK:         %[[S0:.*]] = tensor.insert_slice %[[A]] into %[[INIT]][0, 0] [1, 4] [1, 1]
// CHECK:         %[[S1:.*]] = tensor.insert_slice %[[B]] into %[[S0]][1, 0] [2, 4] [1, 1]
// CHECK:         return %[[S1]] : tensor<3x4xi1>
func.func @concat_first_axis(%a: tensor<1x4xi1>, %b: tensor<2x4xi1>) -> tensor<3x4xi1> {
  %0 = rlx.concat %a, %b axis = 0 : (tensor<1x4xi1>, tensor<2x4xi1>) -> tensor<3x4xi1>
  return %0 : tensor<3x4xi1>
}

// -----

// narrow is a unit-stride extract_slice.

// CHECK-LABEL: func.func @narrow(
// CHECK-SAME:      %[[A:.*]]: tensor<4x10xf32>)
// CHECK:         %[[R:.*]] = tensor.extract_slice %[[A]][0, 2] [4, 3] [1, 1] : tensor<4x10xf32> to tensor<4x3xf32>
// CHECK:         return %[[R]] : tensor<4x3xf32>
func.func @narrow(%a: tensor<4x10xf32>) -> tensor<4x3xf32> {
  %0 = rlx.narrow %a axis = 1, start = 2, length = 3 : tensor<4x10xf32> -> tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}

// CHECK-LABEL: func.func @narrow_negative_axis(
// CHECK:         tensor.extract_slice %{{.*}}[0, 0, 1] [4, 10, 2] [1, 1, 1] : tensor<4x10x3xf32> to tensor<4x10x2xf32>
func.func @narrow_negative_axis(%a: tensor<4x10x3xf32>) -> tensor<4x10x2xf32> {
  %0 = rlx.narrow %a axis = -1, start = 1, length = 2 : tensor<4x10x3xf32> -> tensor<4x10x2xf32>
  return %0 : tensor<4x10x2xf32>
}

// A positive step is the stride of the extract_slice.

// CHECK-LABEL: func.func @slice_positive_step(
// CHECK-SAME:      %[[A:.*]]: tensor<4x10xf32>)
// CHECK:         %[[R:.*]] = tensor.extract_slice %[[A]][0, 1] [4, 4] [1, 2] : tensor<4x10xf32> to tensor<4x4xf32>
// CHECK:         return %[[R]] : tensor<4x4xf32>
func.func @slice_positive_step(%a: tensor<4x10xf32>) -> tensor<4x4xf32> {
  %0 = rlx.slice %a axis = -1, start = 1, length = 4, step = 2 : tensor<4x10xf32> -> tensor<4x4xf32>
  return %0 : tensor<4x4xf32>
}

// -----

// A negative step reads input index start + j * step = start - j * |step|
// through the indexing map of a copying generic.

// CHECK-DAG:   #[[IN:map[0-9]*]] = affine_map<(d0, d1) -> (d0 * -2 + 3, d1)>
// CHECK-DAG:   #[[ID:map[0-9]*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @slice_negative_step(
// CHECK-SAME:      %[[A:.*]]: tensor<4x10xf32>) -> tensor<2x10xf32>
// CHECK-NOT:     tensor.extract_slice
// CHECK:         %[[INIT:.*]] = tensor.empty() : tensor<2x10xf32>
// CHECK:         %[[R:.*]] = linalg.generic
// CHECK-SAME:        indexing_maps = [#[[IN]], #[[ID]]]
// CHECK-SAME:        iterator_types = ["parallel", "parallel"]
// CHECK-SAME:        ins(%[[A]] : tensor<4x10xf32>) outs(%[[INIT]] : tensor<2x10xf32>)
// CHECK:         ^bb0(%[[X:[a-z0-9_]+]]: f32, %{{[a-z0-9_]+}}: f32):
// CHECK-NEXT:      linalg.yield %[[X]] : f32
// CHECK:         return %[[R]] : tensor<2x10xf32>
func.func @slice_negative_step(%a: tensor<4x10xf32>) -> tensor<2x10xf32> {
  %0 = rlx.slice %a axis = 0, start = 3, length = 2, step = -2 : tensor<4x10xf32> -> tensor<2x10xf32>
  return %0 : tensor<2x10xf32>
}

// -----

// x[::-1]

// CHECK-DAG:   #[[IN:map[0-9]*]] = affine_map<(d0) -> (-d0 + 9)>
// CHECK-DAG:   #[[ID:map[0-9]*]] = affine_map<(d0) -> (d0)>
// CHECK-LABEL: func.func @reverse(
// CHECK:         linalg.generic
// CHECK-SAME:        indexing_maps = [#[[IN]], #[[ID]]]
// CHECK-SAME:        ins(%{{.*}} : tensor<10xi8>) outs(%{{.*}} : tensor<10xi8>)
func.func @reverse(%a: tensor<10xi8>) -> tensor<10xi8> {
  %0 = rlx.slice %a axis = 0, start = 9, length = 10, step = -1 : tensor<10xi8> -> tensor<10xi8>
  return %0 : tensor<10xi8>
}

// -----

// CHECK-LABEL: func.func @constants(
// CHECK-DAG:     %[[A:.*]] = arith.constant dense<[1, -2]> : tensor<2xi32>
// CHECK-DAG:     %[[B:.*]] = arith.constant dense<{{\[}}[true, false], [false, true]]> : tensor<2x2xi1>
// CHECK-DAG:     %[[C:.*]] = arith.constant dense<1.500000e+00> : tensor<3xbf16>
// CHECK:         return %[[A]], %[[B]], %[[C]]
// CHECK-NOT:     rlx.
func.func @constants() -> (tensor<2xi32>, tensor<2x2xi1>, tensor<3xbf16>) {
  %0 = rlx.constant dense<[1, -2]> : tensor<2xi32>
  %1 = rlx.constant dense<[[true, false], [false, true]]> : tensor<2x2xi1>
  %2 = rlx.constant dense<1.5> : tensor<3xbf16>
  return %0, %1, %2 : tensor<2xi32>, tensor<2x2xi1>, tensor<3xbf16>
}

// -----

// Empty windows read nothing (their start may be the axis end), and empty
// concat inputs insert nothing.
// CHECK-LABEL: func.func @empty_windows(
// CHECK-SAME:    %[[A:.*]]: tensor<4xf32>, %[[B:.*]]: tensor<2x0xf32>, %[[C:.*]]: tensor<2x2xf32>)
// CHECK-DAG:     %[[N:.*]] = tensor.empty() : tensor<0xf32>
// CHECK-DAG:     %[[S:.*]] = tensor.empty() : tensor<0xf32>
// CHECK:         %[[CAT0:.*]] = tensor.empty() : tensor<2x2xf32>
// CHECK-NEXT:    %[[CAT:.*]] = tensor.insert_slice %[[C]] into %[[CAT0]][0, 0] [2, 2] [1, 1]
// CHECK-NOT:     tensor.insert_slice
// CHECK:         return %[[N]], %[[S]], %[[CAT]]
func.func @empty_windows(%a: tensor<4xf32>, %b: tensor<2x0xf32>, %c: tensor<2x2xf32>)
    -> (tensor<0xf32>, tensor<0xf32>, tensor<2x2xf32>) {
  %0 = rlx.narrow %a axis = 0, start = 4, length = 0 : tensor<4xf32> -> tensor<0xf32>
  %1 = rlx.slice %a axis = 0, start = 2, length = 0, step = -1 : tensor<4xf32> -> tensor<0xf32>
  %2 = rlx.concat %c, %b axis = 1 : (tensor<2x2xf32>, tensor<2x0xf32>) -> tensor<2x2xf32>
  return %0, %1, %2 : tensor<0xf32>, tensor<0xf32>, tensor<2x2xf32>
}
