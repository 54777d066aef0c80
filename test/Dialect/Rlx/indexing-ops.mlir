// RUN: rlx-opt %s | rlx-opt | FileCheck %s
// RUN: rlx-opt %s --mlir-print-op-generic | rlx-opt | FileCheck %s

// Round trip of every indexing and data movement op of the indexing family
// through the custom and the generic form.

// CHECK-LABEL: func.func @gather(
// CHECK-SAME:    %[[T:[a-z0-9]+]]: tensor<10x4xf32>, %[[I:[a-z0-9]+]]: tensor<2x3xi64>, %[[J:[a-z0-9]+]]: tensor<i32>, %[[B:[a-z0-9]+]]: tensor<3x5xi1>)
// CHECK-NEXT:    %{{.*}} = rlx.gather %[[T]], %[[I]] axis = 0 : (tensor<10x4xf32>, tensor<2x3xi64>) -> tensor<2x3x4xf32>
// CHECK-NEXT:    %{{.*}} = rlx.gather %[[T]], %[[J]] axis = -1 : (tensor<10x4xf32>, tensor<i32>) -> tensor<10xf32>
// CHECK-NEXT:    %{{.*}} = rlx.gather %[[B]], %[[I]] axis = 1 : (tensor<3x5xi1>, tensor<2x3xi64>) -> tensor<3x2x3xi1>
// CHECK-NEXT:    return
func.func @gather(%t: tensor<10x4xf32>, %i: tensor<2x3xi64>, %j: tensor<i32>, %b: tensor<3x5xi1>) {
  %0 = rlx.gather %t, %i axis = 0 : (tensor<10x4xf32>, tensor<2x3xi64>) -> tensor<2x3x4xf32>
  %1 = rlx.gather %t, %j axis = -1 : (tensor<10x4xf32>, tensor<i32>) -> tensor<10xf32>
  %2 = rlx.gather %b, %i axis = 1 : (tensor<3x5xi1>, tensor<2x3xi64>) -> tensor<3x2x3xi1>
  return
}

// CHECK-LABEL: func.func @gather_elements(
// CHECK-SAME:    %[[X:[a-z0-9]+]]: tensor<3x4xf16>, %[[I:[a-z0-9]+]]: tensor<2x4xi32>)
// CHECK-NEXT:    %{{.*}} = rlx.gather_elements %[[X]], %[[I]] axis = 0 : (tensor<3x4xf16>, tensor<2x4xi32>) -> tensor<2x4xf16>
// CHECK-NEXT:    %{{.*}} = rlx.gather_elements %[[X]], %[[I]] axis = -1 : (tensor<3x4xf16>, tensor<2x4xi32>) -> tensor<2x4xf16>
// CHECK-NEXT:    return
func.func @gather_elements(%x: tensor<3x4xf16>, %i: tensor<2x4xi32>) {
  %0 = rlx.gather_elements %x, %i axis = 0 : (tensor<3x4xf16>, tensor<2x4xi32>) -> tensor<2x4xf16>
  %1 = rlx.gather_elements %x, %i axis = -1 : (tensor<3x4xf16>, tensor<2x4xi32>) -> tensor<2x4xf16>
  return
}

// CHECK-LABEL: func.func @pad(
// CHECK-SAME:    %[[X:[a-z0-9]+]]: tensor<2x3xf32>, %[[Y:[a-z0-9]+]]: tensor<4xi8>)
// CHECK-NEXT:    %{{.*}} = rlx.pad constant %[[X]] pads = [1, 0, 2, 3] : tensor<2x3xf32> -> tensor<3x8xf32>
// CHECK-NEXT:    %{{.*}} = rlx.pad constant %[[X]] pads = [0, 0, 1, 1] value = -1.500000e+00 : tensor<2x3xf32> -> tensor<2x5xf32>
// CHECK-NEXT:    %{{.*}} = rlx.pad reflect %[[X]] pads = [1, 1, 2, 2] : tensor<2x3xf32> -> tensor<4x7xf32>
// CHECK-NEXT:    %{{.*}} = rlx.pad replicate %[[Y]] pads = [5, 6] : tensor<4xi8> -> tensor<15xi8>
// CHECK-NEXT:    %{{.*}} = rlx.pad circular %[[Y]] pads = [4, 1] : tensor<4xi8> -> tensor<9xi8>
// CHECK-NEXT:    %{{.*}} = rlx.pad constant %[[Y]] pads = [1, 1] value = 7.000000e+00 : tensor<4xi8> -> tensor<6xi8>
// CHECK-NEXT:    return
func.func @pad(%x: tensor<2x3xf32>, %y: tensor<4xi8>) {
  %0 = rlx.pad constant %x pads = [1, 0, 2, 3] : tensor<2x3xf32> -> tensor<3x8xf32>
  %1 = rlx.pad constant %x pads = [0, 0, 1, 1] value = -1.5 : tensor<2x3xf32> -> tensor<2x5xf32>
  %2 = rlx.pad reflect %x pads = [1, 1, 2, 2] : tensor<2x3xf32> -> tensor<4x7xf32>
  %3 = rlx.pad replicate %y pads = [5, 6] : tensor<4xi8> -> tensor<15xi8>
  %4 = rlx.pad circular %y pads = [4, 1] : tensor<4xi8> -> tensor<9xi8>
  %5 = rlx.pad constant %y pads = [1, 1] value = 7.0 : tensor<4xi8> -> tensor<6xi8>
  return
}

// CHECK-LABEL: func.func @tile_reverse_roll(
// CHECK-SAME:    %[[X:[a-z0-9]+]]: tensor<2x3xbf16>)
// CHECK-NEXT:    %{{.*}} = rlx.tile %[[X]] reps = [2, 1] : tensor<2x3xbf16> -> tensor<4x3xbf16>
// CHECK-NEXT:    %{{.*}} = rlx.tile %[[X]] reps = [0, 3] : tensor<2x3xbf16> -> tensor<0x9xbf16>
// CHECK-NEXT:    %{{.*}} = rlx.reverse %[[X]] axes = [0, -1] : tensor<2x3xbf16>
// CHECK-NEXT:    %{{.*}} = rlx.reverse %[[X]] axes = [] : tensor<2x3xbf16>
// CHECK-NEXT:    %{{.*}} = rlx.roll %[[X]] shifts = [1, -7] dims = [0, 1] : tensor<2x3xbf16>
// CHECK-NEXT:    %{{.*}} = rlx.roll %[[X]] shifts = [2, 2] dims = [-1, 1] : tensor<2x3xbf16>
// CHECK-NEXT:    return
func.func @tile_reverse_roll(%x: tensor<2x3xbf16>) {
  %0 = rlx.tile %x reps = [2, 1] : tensor<2x3xbf16> -> tensor<4x3xbf16>
  %1 = rlx.tile %x reps = [0, 3] : tensor<2x3xbf16> -> tensor<0x9xbf16>
  %2 = rlx.reverse %x axes = [0, -1] : tensor<2x3xbf16>
  %3 = rlx.reverse %x axes = [] : tensor<2x3xbf16>
  %4 = rlx.roll %x shifts = [1, -7] dims = [0, 1] : tensor<2x3xbf16>
  %5 = rlx.roll %x shifts = [2, 2] dims = [-1, 1] : tensor<2x3xbf16>
  return
}

// The default diagonal (0) is elided.

// CHECK-LABEL: func.func @trilu(
// CHECK-SAME:    %[[X:[a-z0-9]+]]: tensor<2x3x4xf64>, %[[B:[a-z0-9]+]]: tensor<3x3xi1>)
// CHECK-NEXT:    %{{.*}} = rlx.trilu upper %[[X]] : tensor<2x3x4xf64>
// CHECK-NEXT:    %{{.*}} = rlx.trilu lower %[[X]] diagonal = -2 : tensor<2x3x4xf64>
// CHECK-NEXT:    %{{.*}} = rlx.trilu upper %[[B]] diagonal = 1 : tensor<3x3xi1>
// CHECK-NEXT:    %{{.*}} = rlx.trilu lower %[[B]] : tensor<3x3xi1>
// CHECK-NEXT:    return
func.func @trilu(%x: tensor<2x3x4xf64>, %b: tensor<3x3xi1>) {
  %0 = rlx.trilu upper %x : tensor<2x3x4xf64>
  %1 = rlx.trilu lower %x diagonal = -2 : tensor<2x3x4xf64>
  %2 = rlx.trilu upper %b diagonal = 1 : tensor<3x3xi1>
  %3 = rlx.trilu lower %b diagonal = 0 : tensor<3x3xi1>
  return
}

// CHECK-LABEL: func.func @kv_append(
// CHECK-SAME:    %[[C:[a-z0-9]+]]: tensor<2x8x4xf32>, %[[U:[a-z0-9]+]]: tensor<2x1x4xf32>, %[[P:[a-z0-9]+]]: tensor<i64>, %[[Q:[a-z0-9]+]]: tensor<i32>)
// CHECK-NEXT:    %{{.*}} = rlx.kv_append %[[C]], %[[U]] at %[[P]] axis = 1 : tensor<2x8x4xf32>, tensor<2x1x4xf32>, tensor<i64>
// CHECK-NEXT:    %{{.*}} = rlx.kv_append %[[C]], %[[C]] at %[[Q]] axis = -2 : tensor<2x8x4xf32>, tensor<2x8x4xf32>, tensor<i32>
// CHECK-NEXT:    return
func.func @kv_append(%c: tensor<2x8x4xf32>, %u: tensor<2x1x4xf32>, %p: tensor<i64>, %q: tensor<i32>) {
  %0 = rlx.kv_append %c, %u at %p axis = 1 : tensor<2x8x4xf32>, tensor<2x1x4xf32>, tensor<i64>
  %1 = rlx.kv_append %c, %c at %q axis = -2 : tensor<2x8x4xf32>, tensor<2x8x4xf32>, tensor<i32>
  return
}

// CHECK-LABEL: func.func @dot_general(
// CHECK-SAME:    %[[A:[a-z0-9]+]]: tensor<2x3x4xf16>, %[[B:[a-z0-9]+]]: tensor<2x4x5xf16>, %[[V:[a-z0-9]+]]: tensor<3xi32>)
// CHECK-NEXT:    %{{.*}} = rlx.dot_general %[[A]], %[[B]] batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<2x3x4xf16>, tensor<2x4x5xf16>) -> tensor<2x3x5xf16>
// CHECK-NEXT:    %{{.*}} = rlx.dot_general %[[V]], %[[V]] batching_dims = [] x [], contracting_dims = [] x [] : (tensor<3xi32>, tensor<3xi32>) -> tensor<3x3xi32>
// CHECK-NEXT:    return
func.func @dot_general(%a: tensor<2x3x4xf16>, %b: tensor<2x4x5xf16>, %v: tensor<3xi32>) {
  %0 = rlx.dot_general %a, %b batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<2x3x4xf16>, tensor<2x4x5xf16>) -> tensor<2x3x5xf16>
  %1 = rlx.dot_general %v, %v batching_dims = [] x [], contracting_dims = [] x [] : (tensor<3xi32>, tensor<3xi32>) -> tensor<3x3xi32>
  return
}

// CHECK-LABEL: func.func @iota(
// CHECK-NEXT:    %{{.*}} = rlx.iota axis = 0 : tensor<50000xi64>
// CHECK-NEXT:    %{{.*}} = rlx.iota axis = -1 : tensor<2x3xi8>
// CHECK-NEXT:    %{{.*}} = rlx.iota axis = 1 : tensor<4x128x1xi8>
// CHECK-NEXT:    return
func.func @iota() {
  %0 = rlx.iota axis = 0 : tensor<50000xi64>
  %1 = rlx.iota axis = -1 : tensor<2x3xi8>
  %2 = rlx.iota axis = 1 : tensor<4x128x1xi8>
  return
}
