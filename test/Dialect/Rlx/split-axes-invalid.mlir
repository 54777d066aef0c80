// RUN: rlx-opt %s -split-input-file -verify-diagnostics

// rlx.split_axes: per dimension, the mesh axes it is split over. Its
// structure is the dialect's to check; its axes against a mesh are
// rlx-shard-annotate's.

// expected-error @+1 {{'rlx.split_axes' of argument 0 must be an array of at most rank arrays of distinct mesh axes (integers >= 0), e.g. [[0], []]}}
func.func @rank(%x: tensor<4xf32> {rlx.split_axes = [[0], []]}) {
  return
}

// -----

// expected-error @+1 {{'rlx.split_axes' of argument 0 must be an array of at most rank arrays}}
func.func @twice(%x: tensor<4x4xf32> {rlx.split_axes = [[0], [0]]}) {
  return
}

// -----

// expected-error @+1 {{'rlx.split_axes' of argument 0 must be an array of at most rank arrays}}
func.func @negative(%x: tensor<4x4xf32> {rlx.split_axes = [[-1]]}) {
  return
}

// -----

// expected-error @+1 {{'rlx.split_axes' of argument 0 must be an array of at most rank arrays}}
func.func @not_array(%x: tensor<4x4xf32> {rlx.split_axes = 0}) {
  return
}

// -----

// expected-error @+1 {{'rlx.split_axes' of result 0 must be an array of at most rank arrays}}
func.func @result(%x: tensor<4xf32>) -> (tensor<4xf32> {rlx.split_axes = [[0], [1]]}) {
  return %x : tensor<4xf32>
}

// -----

// expected-error @+1 {{unknown rlx result attribute 'rlx.bounds'}}
func.func @unknown(%x: tensor<4xf32>) -> (tensor<4xf32> {rlx.bounds = array<i64: 8>}) {
  return %x : tensor<4xf32>
}

// -----

// A well-formed one: a split on dimension 0 over axes 0 and 1, dimension 1
// whole; a replicated result.
func.func @ok(%x: tensor<4x4xf32> {rlx.split_axes = [[0, 1], []]}) -> (tensor<4x4xf32> {rlx.split_axes = [[]]}) {
  return %x : tensor<4x4xf32>
}
