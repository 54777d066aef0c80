// RUN: rlx-opt %s --rlx-shard-annotate --rlx-shard-partition -split-input-file -verify-diagnostics | FileCheck %s

// Upstream sharding-propagation and shard-partition on rlx ops through their
// ShardingInterface models (lib/Dialect/Rlx/Extensions).

shard.grid @mesh(shape = 2)

// Data parallel: each process its block of the batch; the partial weight
// gradient (K split) all-reduced; a mean over the split batch is the mean of
// the blocks' means (all-reduce sum, times 1/2).
// CHECK-LABEL: func.func @dp(
// CHECK-SAME: %[[W:.*]]: tensor<4x3xf32>, %[[X:.*]]: tensor<4x4xf32> {rlx.split_axes = {{\[}}[0]]})
// CHECK-DAG: %[[HALF:.*]] = rlx.constant dense<5.000000e-01> : tensor<f32>
// CHECK: %[[Y:.*]] = rlx.matmul %[[X]], %[[W]] : (tensor<4x4xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>
// CHECK: %[[T:.*]] = rlx.tanh %[[Y]] : tensor<4x3xf32>
// CHECK: %[[M:.*]] = rlx.reduce mean %[[T]] axes = [0, 1] : tensor<4x3xf32> -> tensor<f32>
// CHECK: %[[MS:.*]] = shard.all_reduce %[[M]] on @mesh grid_axes = [0] : tensor<f32> -> tensor<f32>
// CHECK: %[[MEAN:.*]] = rlx.mul %[[MS]], %[[HALF]]
// CHECK: %[[XT:.*]] = rlx.transpose %[[X]] [1, 0] : tensor<4x4xf32> -> tensor<4x4xf32>
// CHECK: %[[G:.*]] = rlx.matmul %[[XT]], %[[T]] : (tensor<4x4xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>
// CHECK: %[[GS:.*]] = shard.all_reduce %[[G]] on @mesh grid_axes = [0] : tensor<4x3xf32>
// CHECK: return %[[MEAN]], %[[GS]] : tensor<f32>, tensor<4x3xf32>
func.func @dp(%w: tensor<4x3xf32>, %x: tensor<8x4xf32> {rlx.split_axes = [[0]]}) -> (tensor<f32>, tensor<4x3xf32>) {
  %y = rlx.matmul %x, %w : (tensor<8x4xf32>, tensor<4x3xf32>) -> tensor<8x3xf32>
  %t = rlx.tanh %y : tensor<8x3xf32>
  %m = rlx.reduce mean %t axes = [0, 1] : tensor<8x3xf32> -> tensor<f32>
  %xt = rlx.transpose %x [1, 0] : tensor<8x4xf32> -> tensor<4x8xf32>
  %g = rlx.matmul %xt, %t : (tensor<4x8xf32>, tensor<8x3xf32>) -> tensor<4x3xf32>
  return %m, %g : tensor<f32>, tensor<4x3xf32>
}

// Column-parallel then row-parallel: the elementwise op on the columns'
// blocks, one all-reduce.
// CHECK-LABEL: func.func @mlp(
// CHECK-SAME: tensor<4x8xf32>, %{{.*}}: tensor<8x8xf32> {rlx.split_axes = {{\[}}[], [0]]}, %{{.*}}: tensor<8x8xf32> {rlx.split_axes = {{\[}}[0]]})
// CHECK: rlx.matmul {{.*}} -> tensor<4x8xf32>
// CHECK: rlx.gelu {{.*}} : tensor<4x8xf32>
// CHECK: %[[Y:.*]] = rlx.matmul {{.*}} -> tensor<4x8xf32>
// CHECK: %[[S:.*]] = shard.all_reduce %[[Y]] on @mesh grid_axes = [0]
// CHECK-NOT: shard.
// CHECK: return %[[S]]
func.func @mlp(%x: tensor<4x8xf32>, %w1: tensor<8x16xf32> {rlx.split_axes = [[], [0]]}, %w2: tensor<16x8xf32> {rlx.split_axes = [[0]]}) -> tensor<4x8xf32> {
  %h = rlx.matmul %x, %w1 : (tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>
  %a = rlx.gelu %h : tensor<4x16xf32>
  %y = rlx.matmul %a, %w2 : (tensor<4x16xf32>, tensor<16x8xf32>) -> tensor<4x8xf32>
  return %y : tensor<4x8xf32>
}

// A row op never splits its row: the softmax over the split axis takes the
// gathered tensor, and the gather is an all-reduce of each process's block
// placed in zeros at its index.
// CHECK-LABEL: func.func @gather(
// CHECK-SAME: %[[X:.*]]: tensor<4x3xf32> {rlx.split_axes = {{\[}}[], [0]]}) -> tensor<4x6xf32>
// CHECK-DAG: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-DAG: %[[C3:.*]] = arith.constant 3 : index
// CHECK: %[[I:.*]] = shard.process_multi_index on @mesh axes = [0] : index
// CHECK: %[[OFFSET:.*]] = arith.muli %[[I]], %[[C3]] : index
// CHECK: %[[E:.*]] = tensor.empty() : tensor<4x6xf32>
// CHECK: %[[Z:.*]] = linalg.fill ins(%[[ZERO]] : f32) outs(%[[E]] : tensor<4x6xf32>)
// CHECK: %[[P:.*]] = tensor.insert_slice %[[X]] into %[[Z]][0, %[[OFFSET]]] [4, 3] [1, 1]
// CHECK: %[[G:.*]] = shard.all_reduce %[[P]] on @mesh grid_axes = [0] : tensor<4x6xf32>
// CHECK: rlx.softmax %[[G]] axis = 1 : tensor<4x6xf32>
func.func @gather(%x: tensor<4x6xf32> {rlx.split_axes = [[], [0]]}) -> tensor<4x6xf32> {
  %s = rlx.softmax %x axis = 1 : tensor<4x6xf32>
  return %s : tensor<4x6xf32>
}

// Heads split through the reshapes of merged dimensions, whole heads per
// process; attention's head counts are its blocks'.
// CHECK-LABEL: func.func @heads(
// CHECK-SAME: tensor<2x4x8xf32> {rlx.split_axes = {{\[}}[], [], [0]]}) -> (tensor<2x4x8xf32> {rlx.split_axes = {{\[}}[], [], [0]]})
// CHECK: rlx.reshape {{.*}} : tensor<2x4x8xf32> -> tensor<2x4x2x4xf32>
// CHECK: rlx.attention bshd {{.*}} heads = 2 kv_heads = 2 mask = causal {{.*}} -> tensor<2x4x2x4xf32>
// CHECK: rlx.reshape {{.*}} : tensor<2x4x2x4xf32> -> tensor<2x4x8xf32>
// CHECK-NOT: shard.
// CHECK: return
func.func @heads(%x: tensor<2x4x16xf32> {rlx.split_axes = [[], [], [0]]}) -> (tensor<2x4x16xf32> {rlx.split_axes = [[], [], [0]]}) {
  %q = rlx.reshape %x : tensor<2x4x16xf32> -> tensor<2x4x4x4xf32>
  %a = rlx.attention bshd %q, %q, %q heads = 4 kv_heads = 4 mask = causal : (tensor<2x4x4x4xf32>, tensor<2x4x4x4xf32>, tensor<2x4x4x4xf32>) -> tensor<2x4x4x4xf32>
  %y = rlx.reshape %a : tensor<2x4x4x4xf32> -> tensor<2x4x16xf32>
  return %y : tensor<2x4x16xf32>
}

// A size the mesh does not divide into whole heads is not split there: 3
// heads of 4 on 2 processes are computed whole.
// CHECK-LABEL: func.func @odd_heads(
// CHECK: shard.all_reduce
// CHECK: rlx.rope neox bsd {{.*}} -> tensor<2x4x12xf32>
func.func @odd_heads(%x: tensor<2x4x12xf32> {rlx.split_axes = [[], [], [0]]}, %cos: tensor<4x2xf32>, %sin: tensor<4x2xf32>) -> tensor<2x4x12xf32> {
  %r = rlx.rope neox bsd %x, %cos, %sin head_dim = 4, n_rot = 4 : (tensor<2x4x12xf32>, tensor<4x2xf32>, tensor<4x2xf32>) -> tensor<2x4x12xf32>
  return %r : tensor<2x4x12xf32>
}

// Convolutions and pooling split by batch; the weight's gradient sums over
// the batch, so its blocks are partial sums.
// CHECK-LABEL: func.func @cnn(
// CHECK-SAME: tensor<2x3x8x8xf32> {rlx.split_axes = {{\[}}[0]]}, %{{.*}}: tensor<6x3x3x3xf32>, %{{.*}}: tensor<2x6x1x1xf32> {rlx.split_axes = {{\[}}[0]]})
// CHECK: %[[Y:.*]] = rlx.conv {{.*}} -> tensor<2x6x8x8xf32>
// CHECK: rlx.global_pool avg %[[Y]] : tensor<2x6x8x8xf32> -> tensor<2x6x1x1xf32>
// CHECK: %[[DP:.*]] = rlx.global_pool_backward avg {{.*}} -> tensor<2x6x8x8xf32>
// CHECK: %[[DW:.*]] = rlx.conv_backward_weight %[[DP]], {{.*}} -> tensor<6x3x3x3xf32>
// CHECK: shard.all_reduce %[[DW]] on @mesh grid_axes = [0] : tensor<6x3x3x3xf32>
func.func @cnn(%x: tensor<4x3x8x8xf32> {rlx.split_axes = [[0]]}, %w: tensor<6x3x3x3xf32>, %dy: tensor<4x6x1x1xf32> {rlx.split_axes = [[0]]})
    -> (tensor<4x6x1x1xf32>, tensor<6x3x3x3xf32>) {
  %y = rlx.conv %x, %w stride = [1, 1] padding = [1, 1, 1, 1] dilation = [1, 1] groups = 1 : (tensor<4x3x8x8xf32>, tensor<6x3x3x3xf32>) -> tensor<4x6x8x8xf32>
  %p = rlx.global_pool avg %y : tensor<4x6x8x8xf32> -> tensor<4x6x1x1xf32>
  %dp = rlx.global_pool_backward avg %dy, %y : tensor<4x6x1x1xf32>, tensor<4x6x8x8xf32> -> tensor<4x6x8x8xf32>
  %dw = rlx.conv_backward_weight %dp, %x stride = [1, 1] padding = [1, 1, 1, 1] dilation = [1, 1] groups = 1 : (tensor<4x6x8x8xf32>, tensor<4x3x8x8xf32>) -> tensor<6x3x3x3xf32>
  return %p, %dw : tensor<4x6x1x1xf32>, tensor<6x3x3x3xf32>
}

// Partial sums added before one all-reduce: the input gradient of two
// column-parallel projections (x w1^T + x w2^T, each contracting over the
// split columns).
// CHECK-LABEL: func.func @two_partials(
// CHECK: %[[A:.*]] = rlx.matmul {{.*}} -> tensor<4x8xf32>
// CHECK: %[[B:.*]] = rlx.matmul {{.*}} -> tensor<4x8xf32>
// CHECK: %[[S:.*]] = rlx.add %[[A]], %[[B]]
// CHECK: %[[R:.*]] = shard.all_reduce %[[S]] on @mesh grid_axes = [0] : tensor<4x8xf32>
// CHECK-NOT: shard.all_reduce
// CHECK: return %[[R]]
func.func @two_partials(%d1: tensor<4x16xf32> {rlx.split_axes = [[], [0]]}, %d2: tensor<4x16xf32> {rlx.split_axes = [[], [0]]},
                        %w1: tensor<16x8xf32> {rlx.split_axes = [[0]]}, %w2: tensor<16x8xf32> {rlx.split_axes = [[0]]}) -> tensor<4x8xf32> {
  %a = rlx.matmul %d1, %w1 : (tensor<4x16xf32>, tensor<16x8xf32>) -> tensor<4x8xf32>
  %b = rlx.matmul %d2, %w2 : (tensor<4x16xf32>, tensor<16x8xf32>) -> tensor<4x8xf32>
  %s = rlx.add %a, %b : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return %s : tensor<4x8xf32>
}

// An op without a rule of its own runs whole on every process.
// CHECK-LABEL: func.func @fallback(
// CHECK-SAME: tensor<4x4xf32> {rlx.split_axes = {{\[}}[0]]}) -> tensor<8x4xf32>
// CHECK: %[[G:.*]] = shard.all_reduce {{.*}} : tensor<8x4xf32>
// CHECK: rlx.cumsum %[[G]] axis = 0 : tensor<8x4xf32>
func.func @fallback(%x: tensor<8x4xf32> {rlx.split_axes = [[0]]}) -> tensor<8x4xf32> {
  %c = rlx.cumsum %x axis = 0 : tensor<8x4xf32>
  return %c : tensor<8x4xf32>
}

// A function without splits is left alone.
// CHECK-LABEL: func.func @whole(
// CHECK-NEXT: rlx.exp
// CHECK-NEXT: return
func.func @whole(%x: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %e = rlx.exp %x : tensor<8x4xf32>
  return %e : tensor<8x4xf32>
}

// -----

// Moving a split to another dimension needs all_to_all, which has no MPI
// lowering: a located error, not a wrong result.
shard.grid @mesh(shape = 2)
func.func @move(%x: tensor<4x4xf32> {rlx.split_axes = [[0]]}) -> (tensor<4x4xf32> {rlx.split_axes = [[], [0]]}) {
  // expected-error @+1 {{'shard.all_to_all' has no MPI lowering: the partition needs a collective that rlx cannot run yet}}
  return %x : tensor<4x4xf32>
}

// -----

// expected-error @+1 {{a mesh's sizes must be static: the processes are known when the module is compiled}}
shard.grid @g(shape = ?)
