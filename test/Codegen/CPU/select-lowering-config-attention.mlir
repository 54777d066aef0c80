// RUN: rlx-opt %s --split-input-file --rlx-cpu-select-lowering-config | FileCheck %s
// RUN: rlx-opt %s --split-input-file --rlx-cpu-select-lowering-config="attention-query-tile=16 attention-key-tile=8" | FileCheck %s --check-prefix=SMALL
// RUN: not rlx-opt %s --split-input-file --rlx-cpu-select-lowering-config=attention-key-tile=0 -o /dev/null 2>&1 | FileCheck %s --check-prefix=BAD

// Attention's schedule: thread tiles of one batch, one head and a tile of
// queries, cache tiles of keys (the online softmax's steps). 1000 queries:
// 50, the divisor nearest 64 (at least 16); 4099 keys (prime): 64, partial
// last tile. With 16 x 8 tiles: 10 queries (dividing 1000) and 8 keys.
// BAD: attention tile sizes must be positive, got 64 queries and 0 keys

// CHECK-LABEL: func.func @attention
// CHECK:         rlx.online_attention {{.*}} {rlx.lowering_config = #rlx.lowering_config<distribution = [1, 1, 50, 0], cache = [0, 0, 0, 64], vector = [0, 0, 0, 0]>}
// SMALL-LABEL: func.func @attention
// SMALL:         rlx.online_attention {{.*}} {rlx.lowering_config = #rlx.lowering_config<distribution = [1, 1, 10, 0], cache = [0, 0, 0, 8], vector = [0, 0, 0, 0]>}
func.func @attention(%q: tensor<1x1000x2x16xf32>, %k: tensor<1x4099x2x16xf32>, %acc: tensor<1x1000x2x16xf32>, %m: tensor<1x2x1000xf32>) -> tensor<1x1000x2x16xf32> {
  %0:3 = rlx.online_attention bshd ins(%q, %k, %k : tensor<1x1000x2x16xf32>, tensor<1x4099x2x16xf32>, tensor<1x4099x2x16xf32>) outs(%acc, %m, %m : tensor<1x1000x2x16xf32>, tensor<1x2x1000xf32>, tensor<1x2x1000xf32>) mask_kind = none scale = 1.0 -> tensor<1x1000x2x16xf32>, tensor<1x2x1000xf32>, tensor<1x2x1000xf32>
  return %0#0 : tensor<1x1000x2x16xf32>
}

// -----

// A schedule already on the op is kept.
// CHECK-LABEL: func.func @user_config
// CHECK:         rlx.online_attention {{.*}} {rlx.lowering_config = #rlx.lowering_config<distribution = [1, 1, 2, 0], cache = [0, 0, 0, 2], vector = [0, 0, 0, 0]>}
func.func @user_config(%q: tensor<1x8x1x16xf32>, %m: tensor<1x1x8xf32>) -> tensor<1x8x1x16xf32> {
  %0:3 = rlx.online_attention bshd ins(%q, %q, %q : tensor<1x8x1x16xf32>, tensor<1x8x1x16xf32>, tensor<1x8x1x16xf32>) outs(%q, %m, %m : tensor<1x8x1x16xf32>, tensor<1x1x8xf32>, tensor<1x1x8xf32>) mask_kind = none scale = 1.0 {rlx.lowering_config = #rlx.lowering_config<distribution = [1, 1, 2, 0], cache = [0, 0, 0, 2], vector = [0, 0, 0, 0]>} -> tensor<1x8x1x16xf32>, tensor<1x1x8xf32>, tensor<1x1x8xf32>
  return %0#0 : tensor<1x8x1x16xf32>
}

// -----

// dk and dv: thread tiles of one batch, one kv head and 64 keys; steps of
// one query head of the group and 64 queries. dq with a bias gradient
// broadcast over batches: the batch loop reduces, one batch per step.
// CHECK-LABEL: func.func @backward
// CHECK:         rlx.attention_dkdv {{.*}} {rlx.lowering_config = #rlx.lowering_config<distribution = [1, 1, 64, 0, 0], cache = [0, 0, 0, 1, 64], vector = [0, 0, 0, 0, 0]>}
// CHECK:         rlx.attention_dq {{.*}} {rlx.lowering_config = #rlx.lowering_config<distribution = [0, 1, 64, 0], cache = [1, 0, 0, 64], vector = [0, 0, 0, 0]>}
func.func @backward(%q: tensor<2x256x4x16xf32>, %k: tensor<2x256x2x16xf32>, %lse: tensor<2x4x256xf32>, %b: tensor<1x4x256x256xf32>) -> (tensor<2x256x2x16xf32>, tensor<1x4x256x256xf32>) {
  %0:2 = rlx.attention_dkdv bshd ins(%q, %k, %k, %q, %lse, %lse : tensor<2x256x4x16xf32>, tensor<2x256x2x16xf32>, tensor<2x256x2x16xf32>, tensor<2x256x4x16xf32>, tensor<2x4x256xf32>, tensor<2x4x256xf32>) mask(%b : tensor<1x4x256x256xf32>) outs(%k, %k : tensor<2x256x2x16xf32>, tensor<2x256x2x16xf32>) mask_kind = bias scale = 1.0 -> tensor<2x256x2x16xf32>, tensor<2x256x2x16xf32>
  %1:2 = rlx.attention_dq bshd ins(%q, %k, %k, %q, %lse, %lse : tensor<2x256x4x16xf32>, tensor<2x256x2x16xf32>, tensor<2x256x2x16xf32>, tensor<2x256x4x16xf32>, tensor<2x4x256xf32>, tensor<2x4x256xf32>) mask(%b : tensor<1x4x256x256xf32>) outs(%q : tensor<2x256x4x16xf32>) dbias(%b : tensor<1x4x256x256xf32>) mask_kind = bias scale = 1.0 -> tensor<2x256x4x16xf32>, tensor<1x4x256x256xf32>
  return %0#0, %1#1 : tensor<2x256x2x16xf32>, tensor<1x4x256x256xf32>
}

// -----

// Split-K: a decode step with 2 heads (2 thread tiles, fewer than 16) splits
// its 4096 keys into 8 parts of 512 (16 thread tiles); 1000 keys of one
// head (cache tiles of 50) into 4 parts of 250 (300, the least of 256 in
// whole cache tiles, lowered to a part that divides 1000); 300 keys are
// too few to split (parts would be shorter than 256 keys); 16 heads make
// enough thread tiles without splitting.
// CHECK-LABEL: func.func @decode
// CHECK:         rlx.online_attention {{.*}} {rlx.lowering_config = #rlx.lowering_config<distribution = [1, 1, 1, 512], cache = [0, 0, 0, 64], vector = [0, 0, 0, 0]>}
// CHECK:         rlx.online_attention {{.*}} {rlx.lowering_config = #rlx.lowering_config<distribution = [1, 1, 1, 250], cache = [0, 0, 0, 50], vector = [0, 0, 0, 0]>}
// CHECK:         rlx.online_attention {{.*}} {rlx.lowering_config = #rlx.lowering_config<distribution = [1, 1, 1, 0], cache = [0, 0, 0, 60], vector = [0, 0, 0, 0]>}
// CHECK:         rlx.online_attention {{.*}} {rlx.lowering_config = #rlx.lowering_config<distribution = [1, 1, 1, 0], cache = [0, 0, 0, 64], vector = [0, 0, 0, 0]>}
func.func @decode(%q: tensor<1x1x2x16xf32>, %k: tensor<1x4096x2x16xf32>, %acc: tensor<1x1x2x16xf32>, %m: tensor<1x2x1xf32>,
                  %q1: tensor<1x1x1x16xf32>, %k1: tensor<1x1000x1x16xf32>, %acc1: tensor<1x1x1x16xf32>, %m1: tensor<1x1x1xf32>,
                  %k2: tensor<1x300x2x16xf32>,
                  %q3: tensor<1x1x16x16xf32>, %k3: tensor<1x4096x16x16xf32>, %m3: tensor<1x16x1xf32>) -> (tensor<1x1x2x16xf32>, tensor<1x1x1x16xf32>, tensor<1x1x2x16xf32>, tensor<1x1x16x16xf32>) {
  %0:3 = rlx.online_attention bshd ins(%q, %k, %k : tensor<1x1x2x16xf32>, tensor<1x4096x2x16xf32>, tensor<1x4096x2x16xf32>) outs(%acc, %m, %m : tensor<1x1x2x16xf32>, tensor<1x2x1xf32>, tensor<1x2x1xf32>) mask_kind = none scale = 1.0 -> tensor<1x1x2x16xf32>, tensor<1x2x1xf32>, tensor<1x2x1xf32>
  %1:3 = rlx.online_attention bshd ins(%q1, %k1, %k1 : tensor<1x1x1x16xf32>, tensor<1x1000x1x16xf32>, tensor<1x1000x1x16xf32>) outs(%acc1, %m1, %m1 : tensor<1x1x1x16xf32>, tensor<1x1x1xf32>, tensor<1x1x1xf32>) mask_kind = none scale = 1.0 -> tensor<1x1x1x16xf32>, tensor<1x1x1xf32>, tensor<1x1x1xf32>
  %2:3 = rlx.online_attention bshd ins(%q, %k2, %k2 : tensor<1x1x2x16xf32>, tensor<1x300x2x16xf32>, tensor<1x300x2x16xf32>) outs(%acc, %m, %m : tensor<1x1x2x16xf32>, tensor<1x2x1xf32>, tensor<1x2x1xf32>) mask_kind = none scale = 1.0 -> tensor<1x1x2x16xf32>, tensor<1x2x1xf32>, tensor<1x2x1xf32>
  %3:3 = rlx.online_attention bshd ins(%q3, %k3, %k3 : tensor<1x1x16x16xf32>, tensor<1x4096x16x16xf32>, tensor<1x4096x16x16xf32>) outs(%q3, %m3, %m3 : tensor<1x1x16x16xf32>, tensor<1x16x1xf32>, tensor<1x16x1xf32>) mask_kind = none scale = 1.0 -> tensor<1x1x16x16xf32>, tensor<1x16x1xf32>, tensor<1x16x1xf32>
  return %0#0, %1#0, %2#0, %3#0 : tensor<1x1x2x16xf32>, tensor<1x1x1x16xf32>, tensor<1x1x2x16xf32>, tensor<1x1x16x16xf32>
}
