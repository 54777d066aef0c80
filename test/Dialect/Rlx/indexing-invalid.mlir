// RUN: rlx-opt %s -split-input-file -verify-diagnostics

// One case per verifier rule of the indexing family.

//===----------------------------------------------------------------------===//
// gather
//===----------------------------------------------------------------------===//

func.func @gather_float_indices(%t: tensor<4x2xf32>, %i: tensor<3xf32>) {
  // expected-error @+1 {{'rlx.gather' op operand #1 must be ranked tensor of 32-bit signless integer or 64-bit signless integer values, but got 'tensor<3xf32>'}}
  %0 = rlx.gather %t, %i axis = 0 : (tensor<4x2xf32>, tensor<3xf32>) -> tensor<3x2xf32>
  return
}

// -----

func.func @gather_i16_indices(%t: tensor<4x2xf32>, %i: tensor<3xi16>) {
  // expected-error @+1 {{'rlx.gather' op operand #1 must be ranked tensor of 32-bit signless integer or 64-bit signless integer values, but got 'tensor<3xi16>'}}
  %0 = rlx.gather %t, %i axis = 0 : (tensor<4x2xf32>, tensor<3xi16>) -> tensor<3x2xf32>
  return
}

// -----

func.func @gather_axis_out_of_range(%t: tensor<4x2xf32>, %i: tensor<3xi64>) {
  // expected-error @+2 {{axis 2 is out of range for rank 2}}
  // expected-error @+1 {{'rlx.gather' op failed to infer returned types}}
  %0 = rlx.gather %t, %i axis = 2 : (tensor<4x2xf32>, tensor<3xi64>) -> tensor<3x2xf32>
  return
}

// -----

func.func @gather_from_empty_axis(%t: tensor<0x2xf32>, %i: tensor<3xi64>) {
  // expected-error @+2 {{cannot gather 3 indices from axis 0 of size 0}}
  // expected-error @+1 {{'rlx.gather' op failed to infer returned types}}
  %0 = rlx.gather %t, %i axis = 0 : (tensor<0x2xf32>, tensor<3xi64>) -> tensor<3x2xf32>
  return
}

// -----

func.func @gather_wrong_result(%t: tensor<4x2xf32>, %i: tensor<3xi64>) {
  // expected-error @+2 {{'rlx.gather' op inferred type(s) 'tensor<4x3xf32>' are incompatible with return type(s) of operation 'tensor<3x2xf32>'}}
  // expected-error @+1 {{'rlx.gather' op failed to infer returned types}}
  %0 = rlx.gather %t, %i axis = 1 : (tensor<4x2xf32>, tensor<3xi64>) -> tensor<3x2xf32>
  return
}

// -----

//===----------------------------------------------------------------------===//
// gather_elements
//===----------------------------------------------------------------------===//

func.func @gather_elements_rank(%x: tensor<4x2xf32>, %i: tensor<3xi64>) {
  // expected-error @+2 {{indices have rank 1 but the input has rank 2}}
  // expected-error @+1 {{'rlx.gather_elements' op failed to infer returned types}}
  %0 = rlx.gather_elements %x, %i axis = 0 : (tensor<4x2xf32>, tensor<3xi64>) -> tensor<3xf32>
  return
}

// -----

func.func @gather_elements_axis(%x: tensor<4x2xf32>, %i: tensor<3x2xi64>) {
  // expected-error @+2 {{axis -3 is out of range for rank 2}}
  // expected-error @+1 {{'rlx.gather_elements' op failed to infer returned types}}
  %0 = rlx.gather_elements %x, %i axis = -3 : (tensor<4x2xf32>, tensor<3x2xi64>) -> tensor<3x2xf32>
  return
}

// -----

func.func @gather_elements_too_wide(%x: tensor<4x2xf32>, %i: tensor<3x3xi32>) {
  // expected-error @+2 {{indices shape [3, 3] is larger than the input shape [4, 2] in dimension 1, which is not the gather axis}}
  // expected-error @+1 {{'rlx.gather_elements' op failed to infer returned types}}
  %0 = rlx.gather_elements %x, %i axis = 0 : (tensor<4x2xf32>, tensor<3x3xi32>) -> tensor<3x3xf32>
  return
}

// -----

func.func @gather_elements_empty_axis(%x: tensor<2x0xf32>, %i: tensor<2x1xi32>) {
  // expected-error @+2 {{cannot gather 2 indices from axis 1 of size 0}}
  // expected-error @+1 {{'rlx.gather_elements' op failed to infer returned types}}
  %0 = rlx.gather_elements %x, %i axis = 1 : (tensor<2x0xf32>, tensor<2x1xi32>) -> tensor<2x1xf32>
  return
}

// -----

//===----------------------------------------------------------------------===//
// pad
//===----------------------------------------------------------------------===//

func.func @pad_count(%x: tensor<2x3xf32>) {
  // expected-error @+2 {{expected 2 pads per dimension (4 for rank 2), got 2}}
  // expected-error @+1 {{'rlx.pad' op failed to infer returned types}}
  %0 = rlx.pad reflect %x pads = [1, 1] : tensor<2x3xf32> -> tensor<2x5xf32>
  return
}

// -----

func.func @pad_negative_circular(%x: tensor<2x3xf32>) {
  // expected-error @+2 {{pads of dimension 1 are [-1, 0]; only constant padding takes negative (cropping) pads}}
  // expected-error @+1 {{'rlx.pad' op failed to infer returned types}}
  %0 = rlx.pad circular %x pads = [0, 0, -1, 0] : tensor<2x3xf32> -> tensor<2x2xf32>
  return
}

// -----

func.func @pad_crop_past_size(%x: tensor<2x3xf32>) {
  // expected-error @+2 {{pads of dimension 0 are [-2, -1]: they crop 3 elements of its size 2}}
  // expected-error @+1 {{'rlx.pad' op failed to infer returned types}}
  %0 = rlx.pad constant %x pads = [-2, -1, 0, 0] : tensor<2x3xf32> -> tensor<0x3xf32>
  return
}

// -----

func.func @pad_overflow(%x: tensor<2xf32>) {
  // expected-error @+2 {{padded size of dimension 0 overflows int64}}
  // expected-error @+1 {{'rlx.pad' op failed to infer returned types}}
  %0 = rlx.pad constant %x pads = [9223372036854775807, 0] : tensor<2xf32> -> tensor<2xf32>
  return
}

// -----

func.func @pad_value_not_constant_mode(%x: tensor<3xf32>) {
  // expected-error @+1 {{'rlx.pad' op 'value' is only used by constant padding, not by 'replicate'}}
  %0 = rlx.pad replicate %x pads = [1, 1] value = 1.0 : tensor<3xf32> -> tensor<5xf32>
  return
}

// -----

func.func @pad_fractional_int_value(%x: tensor<3xi32>) {
  // expected-error @+1 {{'rlx.pad' op pad value 2.5 is not representable in 'i32'}}
  %0 = rlx.pad constant %x pads = [1, 1] value = 2.5 : tensor<3xi32> -> tensor<5xi32>
  return
}

// -----

func.func @pad_int_value_out_of_range(%x: tensor<3xi8>) {
  // expected-error @+1 {{'rlx.pad' op pad value 128 is not representable in 'i8'}}
  %0 = rlx.pad constant %x pads = [1, 1] value = 128.0 : tensor<3xi8> -> tensor<5xi8>
  return
}

// -----

func.func @pad_bool_value(%x: tensor<3xi1>) {
  // expected-error @+1 {{'rlx.pad' op pad value -1 is not representable in 'i1'}}
  %0 = rlx.pad constant %x pads = [1, 1] value = -1.0 : tensor<3xi1> -> tensor<5xi1>
  return
}

// -----

func.func @pad_reflect_equal_to_size(%x: tensor<2x3xf32>) {
  // expected-error @+2 {{reflect pad 3 of dimension 1 must be smaller than its size 3}}
  // expected-error @+1 {{'rlx.pad' op failed to infer returned types}}
  %0 = rlx.pad reflect %x pads = [1, 1, 0, 3] : tensor<2x3xf32> -> tensor<4x6xf32>
  return
}

// -----

func.func @pad_replicate_empty(%x: tensor<0x3xf32>) {
  // expected-error @+2 {{cannot replicate the edge of dimension 0, which is empty}}
  // expected-error @+1 {{'rlx.pad' op failed to infer returned types}}
  %0 = rlx.pad replicate %x pads = [1, 0, 0, 0] : tensor<0x3xf32> -> tensor<1x3xf32>
  return
}

// -----

func.func @pad_circular_too_large(%x: tensor<3xf32>) {
  // expected-error @+2 {{circular pad 4 of dimension 0 must be at most its size 3}}
  // expected-error @+1 {{'rlx.pad' op failed to infer returned types}}
  %0 = rlx.pad circular %x pads = [4, 0] : tensor<3xf32> -> tensor<7xf32>
  return
}

// -----

//===----------------------------------------------------------------------===//
// tile, reverse, roll, trilu
//===----------------------------------------------------------------------===//

func.func @tile_reps_count(%x: tensor<2x3xf32>) {
  // expected-error @+2 {{reps has 1 entries but the input has rank 2}}
  // expected-error @+1 {{'rlx.tile' op failed to infer returned types}}
  %0 = rlx.tile %x reps = [2] : tensor<2x3xf32> -> tensor<4x3xf32>
  return
}

// -----

func.func @tile_negative_rep(%x: tensor<2x3xf32>) {
  // expected-error @+2 {{reps[1] = -1 must be >= 0}}
  // expected-error @+1 {{'rlx.tile' op failed to infer returned types}}
  %0 = rlx.tile %x reps = [1, -1] : tensor<2x3xf32> -> tensor<2x3xf32>
  return
}

// -----

func.func @tile_overflow(%x: tensor<4xf32>) {
  // expected-error @+2 {{tiled size of dimension 0 overflows int64}}
  // expected-error @+1 {{'rlx.tile' op failed to infer returned types}}
  %0 = rlx.tile %x reps = [4611686018427387904] : tensor<4xf32> -> tensor<4xf32>
  return
}

// -----

func.func @reverse_axis_out_of_range(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{'rlx.reverse' op axis 2 is out of range for rank 2}}
  %0 = rlx.reverse %x axes = [2] : tensor<2x3xf32>
  return
}

// -----

func.func @reverse_axis_twice(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{'rlx.reverse' op axis -1 is reversed twice}}
  %0 = rlx.reverse %x axes = [1, -1] : tensor<2x3xf32>
  return
}

// -----

func.func @roll_count_mismatch(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{'rlx.roll' op has 2 shifts but 1 dims}}
  %0 = rlx.roll %x shifts = [1, 2] dims = [0] : tensor<2x3xf32>
  return
}

// -----

func.func @roll_dim_out_of_range(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{'rlx.roll' op dim -3 is out of range for rank 2}}
  %0 = rlx.roll %x shifts = [1] dims = [-3] : tensor<2x3xf32>
  return
}

// -----

func.func @trilu_rank1(%x: tensor<3xf32>) {
  // expected-error @+1 {{'rlx.trilu' op requires rank >= 2 (rows and columns), got rank 1}}
  %0 = rlx.trilu upper %x : tensor<3xf32>
  return
}

// -----

func.func @trilu_type_mismatch(%x: tensor<3x3xf32>) {
  // expected-error @+1 {{'rlx.trilu' op requires the same type for all operands and results}}
  %0 = "rlx.trilu"(%x) {part = 1 : i32, diagonal = 0 : i64} : (tensor<3x3xf32>) -> tensor<3x3xf16>
  return
}

// -----

//===----------------------------------------------------------------------===//
// kv_append
//===----------------------------------------------------------------------===//

func.func @kv_append_rank(%c: tensor<8x4xf32>, %u: tensor<4xf32>, %p: tensor<i64>) {
  // expected-error @+1 {{'rlx.kv_append' op update has rank 1 but the cache has rank 2}}
  %0 = rlx.kv_append %c, %u at %p axis = 0 : tensor<8x4xf32>, tensor<4xf32>, tensor<i64>
  return
}

// -----

func.func @kv_append_axis(%c: tensor<8x4xf32>, %u: tensor<1x4xf32>, %p: tensor<i64>) {
  // expected-error @+1 {{'rlx.kv_append' op axis 2 is out of range for rank 2}}
  %0 = rlx.kv_append %c, %u at %p axis = 2 : tensor<8x4xf32>, tensor<1x4xf32>, tensor<i64>
  return
}

// -----

func.func @kv_append_too_many_rows(%c: tensor<8x4xf32>, %u: tensor<9x4xf32>, %p: tensor<i64>) {
  // expected-error @+1 {{'rlx.kv_append' op update has 9 rows along axis 0 but the cache holds only 8}}
  %0 = rlx.kv_append %c, %u at %p axis = 0 : tensor<8x4xf32>, tensor<9x4xf32>, tensor<i64>
  return
}

// -----

func.func @kv_append_other_dim(%c: tensor<8x4xf32>, %u: tensor<1x3xf32>, %p: tensor<i64>) {
  // expected-error @+1 {{'rlx.kv_append' op update shape [1, 3] differs from the cache [8, 4] in dimension 1, which is not the append axis}}
  %0 = rlx.kv_append %c, %u at %p axis = 0 : tensor<8x4xf32>, tensor<1x3xf32>, tensor<i64>
  return
}

// -----

func.func @kv_append_position_rank(%c: tensor<8x4xf32>, %u: tensor<1x4xf32>, %p: tensor<1xi64>) {
  // expected-error @+1 {{'rlx.kv_append' op operand #2 must be 0D tensor of 32-bit signless integer or 64-bit signless integer values, but got 'tensor<1xi64>'}}
  %0 = rlx.kv_append %c, %u at %p axis = 0 : tensor<8x4xf32>, tensor<1x4xf32>, tensor<1xi64>
  return
}

// -----

func.func @kv_append_element_type(%c: tensor<8x4xf32>, %u: tensor<1x4xf16>, %p: tensor<i32>) {
  // expected-error @+1 {{'rlx.kv_append' op failed to verify that all of {cache, update} have same element type}}
  %0 = rlx.kv_append %c, %u at %p axis = 0 : tensor<8x4xf32>, tensor<1x4xf16>, tensor<i32>
  return
}

// -----

//===----------------------------------------------------------------------===//
// dot_general
//===----------------------------------------------------------------------===//

func.func @dot_general_dim_out_of_range(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>) {
  // expected-error @+2 {{lhs contracting dim 2 is out of range for rank 2}}
  // expected-error @+1 {{'rlx.dot_general' op failed to infer returned types}}
  %0 = rlx.dot_general %a, %b batching_dims = [] x [], contracting_dims = [2] x [0] : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  return
}

// -----

func.func @dot_general_dim_twice(%a: tensor<3x3xf32>, %b: tensor<3x3xf32>) {
  // expected-error @+2 {{rhs dim 0 is listed more than once}}
  // expected-error @+1 {{'rlx.dot_general' op failed to infer returned types}}
  %0 = rlx.dot_general %a, %b batching_dims = [0] x [0], contracting_dims = [1] x [0] : (tensor<3x3xf32>, tensor<3x3xf32>) -> tensor<3xf32>
  return
}

// -----

func.func @dot_general_batch_count(%a: tensor<2x3xf32>, %b: tensor<2x3xf32>) {
  // expected-error @+2 {{lhs has 1 batch dims but rhs has 0}}
  // expected-error @+1 {{'rlx.dot_general' op failed to infer returned types}}
  %0 = rlx.dot_general %a, %b batching_dims = [0] x [], contracting_dims = [1] x [1] : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x2xf32>
  return
}

// -----

func.func @dot_general_batch_size(%a: tensor<2x3xf32>, %b: tensor<5x3xf32>) {
  // expected-error @+2 {{batch dims differ in size: lhs dim 0 of [2, 3] has size 2, rhs dim 0 of [5, 3] has size 5}}
  // expected-error @+1 {{'rlx.dot_general' op failed to infer returned types}}
  %0 = rlx.dot_general %a, %b batching_dims = [0] x [0], contracting_dims = [1] x [1] : (tensor<2x3xf32>, tensor<5x3xf32>) -> tensor<2xf32>
  return
}

// -----

func.func @dot_general_contracting_size(%a: tensor<2x3xf32>, %b: tensor<4x5xf32>) {
  // expected-error @+2 {{contracting dims differ in size: lhs dim 1 of [2, 3] has size 3, rhs dim 0 of [4, 5] has size 4}}
  // expected-error @+1 {{'rlx.dot_general' op failed to infer returned types}}
  %0 = rlx.dot_general %a, %b batching_dims = [] x [], contracting_dims = [1] x [0] : (tensor<2x3xf32>, tensor<4x5xf32>) -> tensor<2x5xf32>
  return
}

// -----

func.func @dot_general_element_types(%a: tensor<2x3xf32>, %b: tensor<3x4xf16>) {
  // expected-error @+1 {{'rlx.dot_general' op requires the same element type for all operands}}
  %0 = rlx.dot_general %a, %b batching_dims = [] x [], contracting_dims = [1] x [0] : (tensor<2x3xf32>, tensor<3x4xf16>) -> tensor<2x4xf32>
  return
}

// -----

func.func @dot_general_wrong_result(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>) {
  // expected-error @+2 {{'rlx.dot_general' op inferred type(s) 'tensor<2x4xf32>' are incompatible with return type(s) of operation 'tensor<4x2xf32>'}}
  // expected-error @+1 {{'rlx.dot_general' op failed to infer returned types}}
  %0 = rlx.dot_general %a, %b batching_dims = [] x [], contracting_dims = [1] x [0] : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<4x2xf32>
  return
}

// -----

func.func @iota_axis() {
  // expected-error @+1 {{'rlx.iota' op axis 2 is out of range for rank 2}}
  %0 = rlx.iota axis = 2 : tensor<2x3xi32>
  return
}

// -----

func.func @iota_rank0() {
  // expected-error @+1 {{'rlx.iota' op needs a result of rank >= 1 to have an axis}}
  %0 = rlx.iota axis = 0 : tensor<i32>
  return
}

// -----

// Indices 0..128 do not all fit in i8.
func.func @iota_element_type() {
  // expected-error @+1 {{'rlx.iota' op axis 0 has 129 indices, more than 'i8' can represent}}
  %0 = rlx.iota axis = 0 : tensor<129x2xi8>
  return
}

// -----

func.func @iota_float() {
  // expected-error @+1 {{'rlx.iota' op result #0 must be ranked tensor of}}
  %0 = rlx.iota axis = 0 : tensor<3xf32>
  return
}
