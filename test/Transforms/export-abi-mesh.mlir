// RUN: rlx-opt %s --rlx-export-abi -split-input-file -verify-diagnostics | FileCheck %s

// A partitioned function: its blocks are one process's; the manifest states
// the whole shapes and the splits, and the attributes go.
// CHECK-LABEL: func.func @step(
// CHECK-NOT: rlx.split_axes
// CHECK: @rlx_manifest("rlx-module 2\0Amesh 2 2 2\0Afunc step 2 2\0Aarg f32 2 4 3\0Aarg f32 2 8 4\0Ares f32 0\0Ares f32 2 4 6\0Asplit arg 1 0 0 1\0Asplit res 1 1 1\0A\00")
shard.grid @mesh(shape = 2x2)
func.func @step(%w: tensor<4x3xf32>, %x: tensor<2x4xf32> {rlx.split_axes = [[0, 1]]})
    -> (tensor<f32>, tensor<4x3xf32> {rlx.split_axes = [[], [1]]}) {
  %c = rlx.constant dense<1.0> : tensor<f32>
  return %c, %w : tensor<f32>, tensor<4x3xf32>
}

