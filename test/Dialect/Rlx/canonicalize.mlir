// RUN: rlx-opt %s -canonicalize -split-input-file | FileCheck %s

// Folders of the rlx dialect, one case per split.
//
// Not covered yet: constant folding of elementwise ops (foldElementwise).
// Folding any elementwise op whose operands are all constants currently
// crashes rlx-opt, so those cases are kept out of this file until it is fixed.

//===----------------------------------------------------------------------===//
// transpose
//===----------------------------------------------------------------------===//

// transpose(transpose(x, p), q) = transpose(x, p o q), with (p o q)[i] = p[q[i]].
// CHECK-LABEL: func.func @transpose_compose(
// CHECK-SAME:    %[[X:.*]]: tensor<2x3x4xf32>)
// CHECK-NEXT:    %[[T:.*]] = rlx.transpose %[[X]] [2, 0, 1] : tensor<2x3x4xf32> -> tensor<4x2x3xf32>
// CHECK-NEXT:    return %[[T]]
func.func @transpose_compose(%x: tensor<2x3x4xf32>) -> tensor<4x2x3xf32> {
  %0 = rlx.transpose %x [1, 2, 0] : tensor<2x3x4xf32> -> tensor<3x4x2xf32>
  %1 = rlx.transpose %0 [1, 2, 0] : tensor<3x4x2xf32> -> tensor<4x2x3xf32>
  return %1 : tensor<4x2x3xf32>
}

// -----

// CHECK-LABEL: func.func @transpose_compose_swap(
// CHECK-SAME:    %[[X:.*]]: tensor<2x3x4x5xi8>)
// CHECK-NEXT:    %[[T:.*]] = rlx.transpose %[[X]] [3, 2, 0, 1] : tensor<2x3x4x5xi8> -> tensor<5x4x2x3xi8>
// CHECK-NEXT:    return %[[T]]
func.func @transpose_compose_swap(%x: tensor<2x3x4x5xi8>) -> tensor<5x4x2x3xi8> {
  %0 = rlx.transpose %x [0, 1, 3, 2] : tensor<2x3x4x5xi8> -> tensor<2x3x5x4xi8>
  %1 = rlx.transpose %0 [2, 3, 0, 1] : tensor<2x3x5x4xi8> -> tensor<5x4x2x3xi8>
  return %1 : tensor<5x4x2x3xi8>
}

// -----

// CHECK-LABEL: func.func @transpose_cancel(
// CHECK-SAME:    %[[X:.*]]: tensor<2x3x4xf32>)
// CHECK-NEXT:    return %[[X]]
func.func @transpose_cancel(%x: tensor<2x3x4xf32>) -> tensor<2x3x4xf32> {
  %0 = rlx.transpose %x [1, 2, 0] : tensor<2x3x4xf32> -> tensor<3x4x2xf32>
  %1 = rlx.transpose %0 [2, 0, 1] : tensor<3x4x2xf32> -> tensor<2x3x4xf32>
  return %1 : tensor<2x3x4xf32>
}

// -----

// CHECK-LABEL: func.func @transpose_cancel_2d(
// CHECK-SAME:    %[[X:.*]]: tensor<2x3xi1>)
// CHECK-NEXT:    return %[[X]]
func.func @transpose_cancel_2d(%x: tensor<2x3xi1>) -> tensor<2x3xi1> {
  %0 = rlx.transpose %x [1, 0] : tensor<2x3xi1> -> tensor<3x2xi1>
  %1 = rlx.transpose %0 [1, 0] : tensor<3x2xi1> -> tensor<2x3xi1>
  return %1 : tensor<2x3xi1>
}

// -----

// Three rotations of a rank-3 tensor are the identity.
// CHECK-LABEL: func.func @transpose_chain_to_identity(
// CHECK-SAME:    %[[X:.*]]: tensor<2x3x4xf16>)
// CHECK-NEXT:    return %[[X]]
func.func @transpose_chain_to_identity(%x: tensor<2x3x4xf16>) -> tensor<2x3x4xf16> {
  %0 = rlx.transpose %x [1, 2, 0] : tensor<2x3x4xf16> -> tensor<3x4x2xf16>
  %1 = rlx.transpose %0 [1, 2, 0] : tensor<3x4x2xf16> -> tensor<4x2x3xf16>
  %2 = rlx.transpose %1 [1, 2, 0] : tensor<4x2x3xf16> -> tensor<2x3x4xf16>
  return %2 : tensor<2x3x4xf16>
}

// -----

// The inner transpose has another use: it stays, the outer one reads %x.
// CHECK-LABEL: func.func @transpose_compose_shared(
// CHECK-SAME:    %[[X:.*]]: tensor<2x3x4xf32>)
// CHECK-NEXT:    %[[A:.*]] = rlx.transpose %[[X]] [1, 2, 0] : tensor<2x3x4xf32> -> tensor<3x4x2xf32>
// CHECK-NEXT:    %[[B:.*]] = rlx.transpose %[[X]] [2, 1, 0] : tensor<2x3x4xf32> -> tensor<4x3x2xf32>
// CHECK-NEXT:    return %[[A]], %[[B]]
func.func @transpose_compose_shared(%x: tensor<2x3x4xf32>) -> (tensor<3x4x2xf32>, tensor<4x3x2xf32>) {
  %0 = rlx.transpose %x [1, 2, 0] : tensor<2x3x4xf32> -> tensor<3x4x2xf32>
  %1 = rlx.transpose %0 [1, 0, 2] : tensor<3x4x2xf32> -> tensor<4x3x2xf32>
  return %0, %1 : tensor<3x4x2xf32>, tensor<4x3x2xf32>
}

// -----

// CHECK-LABEL: func.func @transpose_identity(
// CHECK-SAME:    %[[X:.*]]: tensor<2x3x4xf32>, %[[S:.*]]: tensor<i32>)
// CHECK-NEXT:    return %[[X]], %[[S]]
func.func @transpose_identity(%x: tensor<2x3x4xf32>, %s: tensor<i32>) -> (tensor<2x3x4xf32>, tensor<i32>) {
  %0 = rlx.transpose %x [0, 1, 2] : tensor<2x3x4xf32> -> tensor<2x3x4xf32>
  %1 = rlx.transpose %s [] : tensor<i32> -> tensor<i32>
  return %0, %1 : tensor<2x3x4xf32>, tensor<i32>
}

// -----

// Swapping two equal dimensions keeps the type but is not the identity.
// CHECK-LABEL: func.func @transpose_same_type_not_identity(
// CHECK-SAME:    %[[X:.*]]: tensor<3x3xf32>)
// CHECK-NEXT:    %[[T:.*]] = rlx.transpose %[[X]] [1, 0] : tensor<3x3xf32> -> tensor<3x3xf32>
// CHECK-NEXT:    return %[[T]]
func.func @transpose_same_type_not_identity(%x: tensor<3x3xf32>) -> tensor<3x3xf32> {
  %0 = rlx.transpose %x [1, 0] : tensor<3x3xf32> -> tensor<3x3xf32>
  return %0 : tensor<3x3xf32>
}

//===----------------------------------------------------------------------===//
// reshape
//===----------------------------------------------------------------------===//

// -----

// CHECK-LABEL: func.func @reshape_reshape(
// CHECK-SAME:    %[[X:.*]]: tensor<2x3xf32>)
// CHECK-NEXT:    %[[R:.*]] = rlx.reshape %[[X]] : tensor<2x3xf32> -> tensor<6xf32>
// CHECK-NEXT:    return %[[R]]
func.func @reshape_reshape(%x: tensor<2x3xf32>) -> tensor<6xf32> {
  %0 = rlx.reshape %x : tensor<2x3xf32> -> tensor<3x2xf32>
  %1 = rlx.reshape %0 : tensor<3x2xf32> -> tensor<6xf32>
  return %1 : tensor<6xf32>
}

// -----

// CHECK-LABEL: func.func @reshape_chain_back(
// CHECK-SAME:    %[[X:.*]]: tensor<2x3xi64>)
// CHECK-NEXT:    return %[[X]]
func.func @reshape_chain_back(%x: tensor<2x3xi64>) -> tensor<2x3xi64> {
  %0 = rlx.reshape %x : tensor<2x3xi64> -> tensor<6xi64>
  %1 = rlx.reshape %0 : tensor<6xi64> -> tensor<3x1x2xi64>
  %2 = rlx.reshape %1 : tensor<3x1x2xi64> -> tensor<2x3xi64>
  return %2 : tensor<2x3xi64>
}

// -----

// CHECK-LABEL: func.func @reshape_same_type(
// CHECK-SAME:    %[[X:.*]]: tensor<2x3xf32>, %[[S:.*]]: tensor<bf16>)
// CHECK-NEXT:    return %[[X]], %[[S]]
func.func @reshape_same_type(%x: tensor<2x3xf32>, %s: tensor<bf16>) -> (tensor<2x3xf32>, tensor<bf16>) {
  %0 = rlx.reshape %x : tensor<2x3xf32> -> tensor<2x3xf32>
  %1 = rlx.reshape %s : tensor<bf16> -> tensor<bf16>
  return %0, %1 : tensor<2x3xf32>, tensor<bf16>
}

// -----

// CHECK-LABEL: func.func @reshape_constant(
// CHECK-DAG:     %[[A:.*]] = rlx.constant dense<{{\[}}[1, 2], [3, 4], [5, 6]]> : tensor<3x2xi32>
// CHECK-DAG:     %[[B:.*]] = rlx.constant dense<2.500000e+00> : tensor<1x4xf32>
// CHECK-DAG:     %[[C:.*]] = rlx.constant dense<{{\[}}[true], [false]]> : tensor<2x1xi1>
// CHECK-NOT:     rlx.reshape
// CHECK:         return %[[A]], %[[B]], %[[C]]
func.func @reshape_constant() -> (tensor<3x2xi32>, tensor<1x4xf32>, tensor<2x1xi1>) {
  %c = rlx.constant dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi32>
  %0 = rlx.reshape %c : tensor<2x3xi32> -> tensor<3x2xi32>
  %s = rlx.constant dense<2.5> : tensor<2x2xf32>
  %1 = rlx.reshape %s : tensor<2x2xf32> -> tensor<1x4xf32>
  %b = rlx.constant dense<[true, false]> : tensor<2xi1>
  %2 = rlx.reshape %b : tensor<2xi1> -> tensor<2x1xi1>
  return %0, %1, %2 : tensor<3x2xi32>, tensor<1x4xf32>, tensor<2x1xi1>
}

//===----------------------------------------------------------------------===//
// expand, narrow, slice, cast, concat
//===----------------------------------------------------------------------===//

// -----

// CHECK-LABEL: func.func @expand_same_type(
// CHECK-SAME:    %[[X:.*]]: tensor<2x1xf32>)
// CHECK-NEXT:    return %[[X]]
func.func @expand_same_type(%x: tensor<2x1xf32>) -> tensor<2x1xf32> {
  %0 = rlx.expand %x : tensor<2x1xf32> -> tensor<2x1xf32>
  return %0 : tensor<2x1xf32>
}

// -----

// CHECK-LABEL: func.func @expand_splat(
// CHECK-DAG:     %[[A:.*]] = rlx.constant dense<1.500000e+00> : tensor<2x3xf32>
// CHECK-DAG:     %[[B:.*]] = rlx.constant dense<true> : tensor<4x2x3xi1>
// CHECK-DAG:     %[[C:.*]] = rlx.constant dense<-7> : tensor<0x5xi16>
// CHECK-NOT:     rlx.expand
// CHECK:         return %[[A]], %[[B]], %[[C]]
func.func @expand_splat() -> (tensor<2x3xf32>, tensor<4x2x3xi1>, tensor<0x5xi16>) {
  %c = rlx.constant dense<1.5> : tensor<3xf32>
  %0 = rlx.expand %c : tensor<3xf32> -> tensor<2x3xf32>
  %b = rlx.constant dense<true> : tensor<i1>
  %1 = rlx.expand %b : tensor<i1> -> tensor<4x2x3xi1>
  %i = rlx.constant dense<-7> : tensor<1x1xi16>
  %2 = rlx.expand %i : tensor<1x1xi16> -> tensor<0x5xi16>
  return %0, %1, %2 : tensor<2x3xf32>, tensor<4x2x3xi1>, tensor<0x5xi16>
}

// -----

// A non-splat constant is not expanded at compile time.
// CHECK-LABEL: func.func @expand_non_splat(
// CHECK-NEXT:    %[[C:.*]] = rlx.constant dense<[1.000000e+00, 2.000000e+00, 3.000000e+00]> : tensor<3xf32>
// CHECK-NEXT:    %[[E:.*]] = rlx.expand %[[C]] : tensor<3xf32> -> tensor<2x3xf32>
// CHECK-NEXT:    return %[[E]]
func.func @expand_non_splat() -> tensor<2x3xf32> {
  %c = rlx.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  %0 = rlx.expand %c : tensor<3xf32> -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// CHECK-LABEL: func.func @narrow_same_type(
// CHECK-SAME:    %[[X:.*]]: tensor<2x3xf32>, %[[Z:.*]]: tensor<0x3xi8>)
// CHECK-NEXT:    return %[[X]], %[[X]], %[[Z]]
func.func @narrow_same_type(%x: tensor<2x3xf32>, %z: tensor<0x3xi8>) -> (tensor<2x3xf32>, tensor<2x3xf32>, tensor<0x3xi8>) {
  %0 = rlx.narrow %x axis = 1, start = 0, length = 3 : tensor<2x3xf32> -> tensor<2x3xf32>
  %1 = rlx.narrow %x axis = -2, start = 0, length = 2 : tensor<2x3xf32> -> tensor<2x3xf32>
  %2 = rlx.narrow %z axis = 0, start = 0, length = 0 : tensor<0x3xi8> -> tensor<0x3xi8>
  return %0, %1, %2 : tensor<2x3xf32>, tensor<2x3xf32>, tensor<0x3xi8>
}

// -----

// CHECK-LABEL: func.func @narrow_proper(
// CHECK-SAME:    %[[X:.*]]: tensor<2x3xf32>)
// CHECK-NEXT:    %[[N:.*]] = rlx.narrow %[[X]] axis = 1, start = 1, length = 2 : tensor<2x3xf32> -> tensor<2x2xf32>
// CHECK-NEXT:    return %[[N]]
func.func @narrow_proper(%x: tensor<2x3xf32>) -> tensor<2x2xf32> {
  %0 = rlx.narrow %x axis = 1, start = 1, length = 2 : tensor<2x3xf32> -> tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}

// -----

// Reversing keeps the type but is not the identity.
// CHECK-LABEL: func.func @slice_reverse_not_folded(
// CHECK-SAME:    %[[X:.*]]: tensor<3xf32>)
// CHECK-NEXT:    %[[S:.*]] = rlx.slice %[[X]] axis = 0, start = 2, length = 3, step = -1 : tensor<3xf32> -> tensor<3xf32>
// CHECK-NEXT:    return %[[S]]
func.func @slice_reverse_not_folded(%x: tensor<3xf32>) -> tensor<3xf32> {
  %0 = rlx.slice %x axis = 0, start = 2, length = 3, step = -1 : tensor<3xf32> -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

// CHECK-LABEL: func.func @cast_same_type(
// CHECK-SAME:    %[[X:.*]]: tensor<2x3xi8>, %[[B:.*]]: tensor<4xi1>)
// CHECK-NEXT:    return %[[X]], %[[B]]
func.func @cast_same_type(%x: tensor<2x3xi8>, %b: tensor<4xi1>) -> (tensor<2x3xi8>, tensor<4xi1>) {
  %0 = rlx.cast %x : tensor<2x3xi8> -> tensor<2x3xi8>
  %1 = rlx.cast %b : tensor<4xi1> -> tensor<4xi1>
  return %0, %1 : tensor<2x3xi8>, tensor<4xi1>
}

// -----

// CHECK-LABEL: func.func @cast_not_same_type(
// CHECK-SAME:    %[[X:.*]]: tensor<2x3xf32>)
// CHECK-NEXT:    %[[C:.*]] = rlx.cast %[[X]] : tensor<2x3xf32> -> tensor<2x3xf16>
// CHECK-NEXT:    return %[[C]]
func.func @cast_not_same_type(%x: tensor<2x3xf32>) -> tensor<2x3xf16> {
  %0 = rlx.cast %x : tensor<2x3xf32> -> tensor<2x3xf16>
  return %0 : tensor<2x3xf16>
}

// -----

// CHECK-LABEL: func.func @concat_single(
// CHECK-SAME:    %[[X:.*]]: tensor<2x3xf32>)
// CHECK-NEXT:    return %[[X]], %[[X]]
func.func @concat_single(%x: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>) {
  %0 = rlx.concat %x axis = 0 : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %1 = rlx.concat %x axis = -1 : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0, %1 : tensor<2x3xf32>, tensor<2x3xf32>
}

// -----

// CHECK-LABEL: func.func @concat_two(
// CHECK-SAME:    %[[X:.*]]: tensor<2x3xf32>)
// CHECK-NEXT:    %[[C:.*]] = rlx.concat %[[X]], %[[X]] axis = 0 : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<4x3xf32>
// CHECK-NEXT:    return %[[C]]
func.func @concat_two(%x: tensor<2x3xf32>) -> tensor<4x3xf32> {
  %0 = rlx.concat %x, %x axis = 0 : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}

//===----------------------------------------------------------------------===//
// Binary identities
//===----------------------------------------------------------------------===//

// -----

// CHECK-LABEL: func.func @add_zero_int(
// CHECK-SAME:    %[[X:.*]]: tensor<2x3xi32>)
// CHECK-NEXT:    return %[[X]], %[[X]], %[[X]]
func.func @add_zero_int(%x: tensor<2x3xi32>) -> (tensor<2x3xi32>, tensor<2x3xi32>, tensor<2x3xi32>) {
  %z = rlx.constant dense<0> : tensor<2x3xi32>
  %zs = rlx.constant dense<0> : tensor<i32>
  %0 = rlx.add %x, %z : (tensor<2x3xi32>, tensor<2x3xi32>) -> tensor<2x3xi32>
  %1 = rlx.add %zs, %x : (tensor<i32>, tensor<2x3xi32>) -> tensor<2x3xi32>
  %2 = rlx.add %x, %zs : (tensor<2x3xi32>, tensor<i32>) -> tensor<2x3xi32>
  return %0, %1, %2 : tensor<2x3xi32>, tensor<2x3xi32>, tensor<2x3xi32>
}

// -----

// -0.0 is the additive identity of IEEE floats: x + -0.0 == x for every x.
// CHECK-LABEL: func.func @add_negative_zero_float(
// CHECK-SAME:    %[[X:.*]]: tensor<2x3xf32>, %[[H:.*]]: tensor<4xf16>)
// CHECK-NEXT:    return %[[X]], %[[X]], %[[H]]
func.func @add_negative_zero_float(%x: tensor<2x3xf32>, %h: tensor<4xf16>) -> (tensor<2x3xf32>, tensor<2x3xf32>, tensor<4xf16>) {
  %z = rlx.constant dense<-0.0> : tensor<3xf32>
  %0 = rlx.add %x, %z : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %1 = rlx.add %z, %x : (tensor<3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %zh = rlx.constant dense<-0.0> : tensor<1xf16>
  %2 = rlx.add %zh, %h : (tensor<1xf16>, tensor<4xf16>) -> tensor<4xf16>
  return %0, %1, %2 : tensor<2x3xf32>, tensor<2x3xf32>, tensor<4xf16>
}

// -----

// x - +0.0 == x for every float x, including -0.0.
// CHECK-LABEL: func.func @sub_zero(
// CHECK-SAME:    %[[X:.*]]: tensor<2x3xf32>, %[[I:.*]]: tensor<5xi8>)
// CHECK-NEXT:    return %[[X]], %[[I]]
func.func @sub_zero(%x: tensor<2x3xf32>, %i: tensor<5xi8>) -> (tensor<2x3xf32>, tensor<5xi8>) {
  %z = rlx.constant dense<0.0> : tensor<f32>
  %0 = rlx.sub %x, %z : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
  %zi = rlx.constant dense<0> : tensor<5xi8>
  %1 = rlx.sub %i, %zi : (tensor<5xi8>, tensor<5xi8>) -> tensor<5xi8>
  return %0, %1 : tensor<2x3xf32>, tensor<5xi8>
}

// -----

// 0 - x is -x, not x.
// CHECK-LABEL: func.func @zero_sub_not_folded(
// CHECK-SAME:    %[[X:.*]]: tensor<2x3xf32>)
// CHECK-NEXT:    %[[Z:.*]] = rlx.constant dense<0.000000e+00> : tensor<2x3xf32>
// CHECK-NEXT:    %[[S:.*]] = rlx.sub %[[Z]], %[[X]] : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT:    return %[[S]]
func.func @zero_sub_not_folded(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %z = rlx.constant dense<0.0> : tensor<2x3xf32>
  %0 = rlx.sub %z, %x : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// CHECK-LABEL: func.func @mul_one(
// CHECK-SAME:    %[[X:.*]]: tensor<2x3xf32>, %[[I:.*]]: tensor<4xi64>, %[[B:.*]]: tensor<2xbf16>)
// CHECK-NEXT:    return %[[X]], %[[X]], %[[I]], %[[I]], %[[B]]
func.func @mul_one(%x: tensor<2x3xf32>, %i: tensor<4xi64>, %b: tensor<2xbf16>) -> (tensor<2x3xf32>, tensor<2x3xf32>, tensor<4xi64>, tensor<4xi64>, tensor<2xbf16>) {
  %one = rlx.constant dense<1.0> : tensor<1x3xf32>
  %0 = rlx.mul %x, %one : (tensor<2x3xf32>, tensor<1x3xf32>) -> tensor<2x3xf32>
  %1 = rlx.mul %one, %x : (tensor<1x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %onei = rlx.constant dense<1> : tensor<4xi64>
  %2 = rlx.mul %i, %onei : (tensor<4xi64>, tensor<4xi64>) -> tensor<4xi64>
  %3 = rlx.mul %onei, %i : (tensor<4xi64>, tensor<4xi64>) -> tensor<4xi64>
  %oneb = rlx.constant dense<1.0> : tensor<bf16>
  %4 = rlx.mul %oneb, %b : (tensor<bf16>, tensor<2xbf16>) -> tensor<2xbf16>
  return %0, %1, %2, %3, %4 : tensor<2x3xf32>, tensor<2x3xf32>, tensor<4xi64>, tensor<4xi64>, tensor<2xbf16>
}

// -----

// CHECK-LABEL: func.func @div_one(
// CHECK-SAME:    %[[X:.*]]: tensor<2x3xf64>, %[[I:.*]]: tensor<3xi16>)
// CHECK-NEXT:    return %[[X]], %[[I]]
func.func @div_one(%x: tensor<2x3xf64>, %i: tensor<3xi16>) -> (tensor<2x3xf64>, tensor<3xi16>) {
  %one = rlx.constant dense<1.0> : tensor<f64>
  %0 = rlx.div %x, %one : (tensor<2x3xf64>, tensor<f64>) -> tensor<2x3xf64>
  %onei = rlx.constant dense<1> : tensor<1xi16>
  %1 = rlx.div %i, %onei : (tensor<3xi16>, tensor<1xi16>) -> tensor<3xi16>
  return %0, %1 : tensor<2x3xf64>, tensor<3xi16>
}

// -----

// 1 / x is the reciprocal, not x.
// CHECK-LABEL: func.func @one_div_not_folded(
// CHECK-SAME:    %[[X:.*]]: tensor<2x3xf32>)
// CHECK-NEXT:    %[[ONE:.*]] = rlx.constant dense<1.000000e+00> : tensor<f32>
// CHECK-NEXT:    %[[D:.*]] = rlx.div %[[ONE]], %[[X]] : (tensor<f32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT:    return %[[D]]
func.func @one_div_not_folded(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %one = rlx.constant dense<1.0> : tensor<f32>
  %0 = rlx.div %one, %x : (tensor<f32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// The identity operand broadcasts x to a larger shape: the result is not x.
// CHECK-LABEL: func.func @identity_broadcasts_not_folded(
// CHECK-SAME:    %[[X:.*]]: tensor<3xi32>, %[[F:.*]]: tensor<1xf32>)
// CHECK-DAG:     %[[Z:.*]] = rlx.constant dense<0> : tensor<2x3xi32>
// CHECK-DAG:     %[[ONE:.*]] = rlx.constant dense<1.000000e+00> : tensor<4xf32>
// CHECK:         %[[A:.*]] = rlx.add %[[X]], %[[Z]] : (tensor<3xi32>, tensor<2x3xi32>) -> tensor<2x3xi32>
// CHECK-NEXT:    %[[B:.*]] = rlx.add %[[Z]], %[[X]] : (tensor<2x3xi32>, tensor<3xi32>) -> tensor<2x3xi32>
// CHECK-NEXT:    %[[M:.*]] = rlx.mul %[[ONE]], %[[F]] : (tensor<4xf32>, tensor<1xf32>) -> tensor<4xf32>
// CHECK-NEXT:    %[[D:.*]] = rlx.div %[[F]], %[[ONE]] : (tensor<1xf32>, tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:    return %[[A]], %[[B]], %[[M]], %[[D]]
func.func @identity_broadcasts_not_folded(%x: tensor<3xi32>, %f: tensor<1xf32>) -> (tensor<2x3xi32>, tensor<2x3xi32>, tensor<4xf32>, tensor<4xf32>) {
  %z = rlx.constant dense<0> : tensor<2x3xi32>
  %0 = rlx.add %x, %z : (tensor<3xi32>, tensor<2x3xi32>) -> tensor<2x3xi32>
  %1 = rlx.add %z, %x : (tensor<2x3xi32>, tensor<3xi32>) -> tensor<2x3xi32>
  %one = rlx.constant dense<1.0> : tensor<4xf32>
  %2 = rlx.mul %one, %f : (tensor<4xf32>, tensor<1xf32>) -> tensor<4xf32>
  %3 = rlx.div %f, %one : (tensor<1xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0, %1, %2, %3 : tensor<2x3xi32>, tensor<2x3xi32>, tensor<4xf32>, tensor<4xf32>
}

// -----

// Not identities: x * 0 (NaN, inf, -0.0), x + 1, x * 2, max(x, 0).
// CHECK-LABEL: func.func @non_identities_not_folded(
// CHECK-SAME:    %[[X:.*]]: tensor<3xf32>)
// CHECK-DAG:     %[[Z:.*]] = rlx.constant dense<0.000000e+00> : tensor<3xf32>
// CHECK-DAG:     %[[ONE:.*]] = rlx.constant dense<1.000000e+00> : tensor<3xf32>
// CHECK-DAG:     %[[TWO:.*]] = rlx.constant dense<2.000000e+00> : tensor<3xf32>
// CHECK:         %[[A:.*]] = rlx.mul %[[X]], %[[Z]]
// CHECK-NEXT:    %[[B:.*]] = rlx.add %[[X]], %[[ONE]]
// CHECK-NEXT:    %[[C:.*]] = rlx.mul %[[X]], %[[TWO]]
// CHECK-NEXT:    %[[D:.*]] = rlx.max %[[X]], %[[Z]]
// CHECK-NEXT:    return %[[A]], %[[B]], %[[C]], %[[D]]
func.func @non_identities_not_folded(%x: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) {
  %z = rlx.constant dense<0.0> : tensor<3xf32>
  %one = rlx.constant dense<1.0> : tensor<3xf32>
  %two = rlx.constant dense<2.0> : tensor<3xf32>
  %0 = rlx.mul %x, %z : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  %1 = rlx.add %x, %one : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  %2 = rlx.mul %x, %two : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  %3 = rlx.max %x, %z : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  return %0, %1, %2, %3 : tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>
}

// -----

// A non-splat constant is never treated as an identity, even if it happens to
// hold the identity in some lanes.
// CHECK-LABEL: func.func @non_splat_not_identity(
// CHECK-SAME:    %[[X:.*]]: tensor<2xi32>)
// CHECK-NEXT:    %[[C:.*]] = rlx.constant dense<[0, 1]> : tensor<2xi32>
// CHECK-NEXT:    %[[A:.*]] = rlx.add %[[X]], %[[C]]
// CHECK-NEXT:    %[[M:.*]] = rlx.mul %[[X]], %[[C]]
// CHECK-NEXT:    return %[[A]], %[[M]]
func.func @non_splat_not_identity(%x: tensor<2xi32>) -> (tensor<2xi32>, tensor<2xi32>) {
  %c = rlx.constant dense<[0, 1]> : tensor<2xi32>
  %0 = rlx.add %x, %c : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi32>
  %1 = rlx.mul %x, %c : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi32>
  return %0, %1 : tensor<2xi32>, tensor<2xi32>
}

//===----------------------------------------------------------------------===//
// stop_gradient
//===----------------------------------------------------------------------===//

// -----

// stop_gradient is an identity in value but must survive canonicalization,
// also on a constant operand.
// CHECK-LABEL: func.func @stop_gradient_kept(
// CHECK-SAME:    %[[X:.*]]: tensor<2x3xf32>)
// CHECK-DAG:     %[[C:.*]] = rlx.constant dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>
// CHECK-DAG:     %[[A:.*]] = rlx.stop_gradient %[[X]] : tensor<2x3xf32>
// CHECK-DAG:     %[[B:.*]] = rlx.stop_gradient %[[C]] : tensor<2xf32>
// CHECK:         return %[[A]], %[[B]]
func.func @stop_gradient_kept(%x: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<2xf32>) {
  %0 = rlx.stop_gradient %x : tensor<2x3xf32>
  %c = rlx.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %1 = rlx.stop_gradient %c : tensor<2xf32>
  return %0, %1 : tensor<2x3xf32>, tensor<2xf32>
}

// -----

// CHECK-LABEL: func.func @stop_gradient_of_stop_gradient(
// CHECK-SAME:    %[[X:.*]]: tensor<2xf32>)
// CHECK-NEXT:    %[[A:.*]] = rlx.stop_gradient %[[X]] : tensor<2xf32>
// CHECK-NEXT:    %[[B:.*]] = rlx.stop_gradient %[[A]] : tensor<2xf32>
// CHECK-NEXT:    return %[[B]]
func.func @stop_gradient_of_stop_gradient(%x: tensor<2xf32>) -> tensor<2xf32> {
  %0 = rlx.stop_gradient %x : tensor<2xf32>
  %1 = rlx.stop_gradient %0 : tensor<2xf32>
  return %1 : tensor<2xf32>
}

//===----------------------------------------------------------------------===//
// Non-constant operands are never folded.
//===----------------------------------------------------------------------===//

// -----

// CHECK-LABEL: func.func @elementwise_not_folded(
// CHECK-SAME:    %[[X:.*]]: tensor<2xf32>, %[[C:.*]]: tensor<2xi1>)
// CHECK-NEXT:    %[[E:.*]] = rlx.exp %[[X]] : tensor<2xf32>
// CHECK-NEXT:    %[[W:.*]] = rlx.where %[[C]], %[[E]], %[[X]] : (tensor<2xi1>, tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
// CHECK-NEXT:    %[[K:.*]] = rlx.clamp %[[W]] {max = 1.000000e+00 : f64} : tensor<2xf32>
// CHECK-NEXT:    return %[[K]]
func.func @elementwise_not_folded(%x: tensor<2xf32>, %c: tensor<2xi1>) -> tensor<2xf32> {
  %0 = rlx.exp %x : tensor<2xf32>
  %1 = rlx.where %c, %0, %x : (tensor<2xi1>, tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  %2 = rlx.clamp %1 {max = 1.0} : tensor<2xf32>
  return %2 : tensor<2xf32>
}
