// RUN: rlx-opt %s --rlx-shard-annotate="mesh=2 data-parallel=step:1" -split-input-file -verify-diagnostics | FileCheck %s

// --mesh makes the grid and names OpenMPI's ABI; --data-parallel splits the
// batch argument over every axis; each tensor argument and each returned
// tensor gets one annotation (replicated without rlx.split_axes); rank-0
// values get none.
// CHECK: module attributes {dlti.map = #dlti.map<"MPI:Implementation" = "OpenMPI">}
// CHECK: shard.grid @mesh(shape = 2)
// CHECK-LABEL: func.func @step(
// CHECK-SAME: %[[W:.*]]: tensor<4x3xf32>, %[[X:.*]]: tensor<8x4xf32> {rlx.split_axes = {{\[}}[0]]}, %[[LR:.*]]: tensor<f32>)
// CHECK: %[[R:.*]] = shard.sharding @mesh split_axes = {{\[}}[]]
// CHECK: %[[WS:.*]] = shard.shard %[[W]] to %[[R]] annotate_for_users
// CHECK: %[[S:.*]] = shard.sharding @mesh split_axes = {{\[}}[0]]
// CHECK: %[[XS:.*]] = shard.shard %[[X]] to %[[S]] annotate_for_users
// CHECK-NOT: shard.shard %[[LR]]
// CHECK: %[[Y:.*]] = rlx.matmul %[[XS]], %[[WS]]
// CHECK: %[[YR:.*]] = shard.sharding @mesh split_axes = {{\[}}[]]
// CHECK: %[[YS:.*]] = shard.shard %[[Y]] to %[[YR]] annotate_for_users
// CHECK: return %[[YS]], %[[LR]]
func.func @step(%w: tensor<4x3xf32>, %x: tensor<8x4xf32>, %lr: tensor<f32>) -> (tensor<8x3xf32>, tensor<f32>) {
  %y = rlx.matmul %x, %w : (tensor<8x4xf32>, tensor<4x3xf32>) -> tensor<8x3xf32>
  return %y, %lr : tensor<8x3xf32>, tensor<f32>
}

// A function with no split stays as it is.
// CHECK-LABEL: func.func @whole(
// CHECK-NOT: shard.shard
func.func @whole(%x: tensor<8x4xf32>) -> tensor<8x4xf32> {
  return %x : tensor<8x4xf32>
}

// -----

// An existing grid is resized; a split result is annotated as stated.
// CHECK: shard.grid @g(shape = 2)
// CHECK-LABEL: func.func @step(
// CHECK: shard.sharding @g split_axes = {{\[}}[], [0]]
// CHECK: shard.shard %{{.*}} to %{{.*}} annotate_for_users : tensor<2x6xf32>
// CHECK: return
shard.grid @g(shape = 4)
func.func @step(%a: tensor<4xf32>, %x: tensor<2x6xf32>) -> (tensor<2x6xf32> {rlx.split_axes = [[], [0]]}) {
  return %x : tensor<2x6xf32>
}

// -----

// expected-error @+1 {{argument 1: rlx.split_axes splits dimension 0 of size 7 into 2 blocks: a split dimension must be static and divisible by its processes}}
func.func @step(%w: tensor<4xf32>, %x: tensor<7x4xf32>) -> tensor<7x4xf32> {
  return %x : tensor<7x4xf32>
}

// -----

// expected-error @+1 {{argument 1: rlx.split_axes splits dimension 0 of size ? into 2 blocks}}
func.func @step(%w: tensor<4xf32>, %x: tensor<?x4xf32>) -> tensor<?x4xf32> {
  return %x : tensor<?x4xf32>
}

// -----

// expected-error @+1 {{argument 0: rlx.split_axes names a mesh axis that is not in [0, 1)}}
func.func @step(%w: tensor<4xf32> {rlx.split_axes = [[1]]}, %x: tensor<8x4xf32>) -> tensor<8x4xf32> {
  return %x : tensor<8x4xf32>
}

// -----

func.func private @g(tensor<8x4xf32>) -> tensor<8x4xf32>
func.func @step(%w: tensor<4xf32>, %x: tensor<8x4xf32>) -> tensor<8x4xf32> {
  // expected-error @+1 {{a sharded function calls no other function: inline it first (--inline)}}
  %y = func.call @g(%x) : (tensor<8x4xf32>) -> tensor<8x4xf32>
  return %y : tensor<8x4xf32>
}

// -----

// expected-error @+1 {{data-parallel: '1' is not an argument of 'step' (it has 1)}}
func.func @step(%w: tensor<4xf32>) -> tensor<4xf32> {
  return %w : tensor<4xf32>
}

// -----

// expected-error @+1 {{data-parallel: no function 'step' is defined in the module}}
module {
  func.func @other(%w: tensor<4xf32>) -> tensor<4xf32> {
    return %w : tensor<4xf32>
  }
}

// -----

shard.grid @a(shape = 2)
// expected-error @+1 {{a module runs on one mesh; this one has 2 shard.grid ops}}
shard.grid @b(shape = 2)
