// RUN: rlx-opt %s -split-input-file --rlx-to-linalg --rlx-cpu-select-lowering-config="attention-query-tile=16 attention-key-tile=8" --rlx-tile-and-fuse --canonicalize --cse | FileCheck %s

// rlx.online_attention (from rlx.attention) with sliding-window masks and
// grouped heads (4 query heads over 2 kv heads), 37 queries over 45 keys:
// thread tiles of one head and 16 queries (37 is prime: the last tile is
// partial, of size min(16, 37 - i0)), cache tiles of 5 keys (the divisor of
// 45 nearest 8). The state's initialization and the normalization are in
// the thread tile; the key loop runs only over the keys the tile's window
// sees, from the tile of key max(i0 + 8 - 5, 0) to min(i0 + rows + 8, 45),
// carries the state as [rows, 24] and [rows] tensors, and holds the
// decomposed step: q times the transposed key tile, the masked scores, the
// running maximum, the rescaling and the product with the value tile.

// CHECK-LABEL: func.func @sliding_window_gqa(
// CHECK-SAME:      %[[Q:[a-z0-9]+]]: tensor<1x37x4x16xf32>, %[[K:[a-z0-9]+]]: tensor<1x45x2x16xf32>, %[[V:[a-z0-9]+]]: tensor<1x45x2x24xf32>)
// CHECK:         scf.forall (%[[H:.*]], %[[I0:.*]]) = (0, 0) to (4, 37) step (1, 16) shared_outs(%[[OUT:.*]] = %{{.*}}, %[[LSE:.*]] = %{{.*}})
// CHECK:           %[[ROWS:.*]] = affine.min #{{.*}}(%[[I0]])
// CHECK:           %[[KV:.*]] = affine.apply #{{.*}}(%[[H]])
// CHECK:           tensor.extract_slice %[[Q]][0, %[[I0]], %[[H]], 0] [1, %[[ROWS]], 1, 16]
// CHECK:           tensor.extract_slice %[[K]][0, 0, %[[KV]], 0] [1, 45, 1, 16]
// CHECK:           linalg.generic {{.*}} outs(%{{.*}} : tensor<?x24xf32>)
// CHECK-DAG:       %[[LOW:.*]] = affine.apply #{{.*}}(%{{.*}})
// CHECK-DAG:       %[[HIGH:.*]] = affine.min #{{.*}}(%{{[^,)]*}}){{$}}
// CHECK:           %[[STATE:.*]]:3 = scf.for %[[J0:.*]] = %[[LOW]] to %[[HIGH]] step %c5 iter_args(%{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}) -> (tensor<?x24xf32>, tensor<?xf32>, tensor<?xf32>)
// CHECK:             %[[KTILE:.*]] = tensor.extract_slice %{{.*}}[0, %[[J0]], 0, 0] [1, 5, 1, 16]
// CHECK:             linalg.transpose ins(%{{.*}} : tensor<5x16xf32>) outs(%{{.*}} : tensor<16x5xf32>) permutation = [1, 0]
// CHECK:             linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "reduction"]} ins(%{{.*}}, %{{.*}} : tensor<?x16xf32>, tensor<16x5xf32>)
// CHECK:             linalg.generic
// CHECK:               arith.cmpi sle
// CHECK:               arith.cmpi sge
// CHECK:             math.exp
// CHECK:             linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "reduction"]} ins(%{{.*}}, %{{.*}} : tensor<?x5xf32>, tensor<5x24xf32>) outs(%{{.*}} : tensor<?x24xf32>)
// CHECK:             scf.yield
// CHECK:           linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<?x24xf32>, tensor<?xf32>)
// CHECK:             arith.divf
// CHECK:           linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<?xf32>, tensor<?xf32>)
// CHECK:             math.log
// CHECK:           scf.forall.in_parallel
// CHECK-NEXT:        tensor.parallel_insert_slice %{{.*}} into %[[OUT]][0, %[[I0]], %[[H]], 0] [1, %[[ROWS]], 1, 24]
// CHECK-NEXT:        tensor.parallel_insert_slice %{{.*}} into %[[LSE]][0, %[[H]], %[[I0]]] [1, 1, %[[ROWS]]]
// CHECK-NOT:     rlx.online_attention
func.func @sliding_window_gqa(%q: tensor<1x37x4x16xf32>, %k: tensor<1x45x2x16xf32>, %v: tensor<1x45x2x24xf32>) -> (tensor<1x37x4x24xf32>, tensor<1x4x37xf32>) {
  %0:2 = rlx.attention bshd %q, %k, %v heads = 4 kv_heads = 2 mask = sliding_window window = 5 with_logsumexp : (tensor<1x37x4x16xf32>, tensor<1x45x2x16xf32>, tensor<1x45x2x24xf32>) -> (tensor<1x37x4x24xf32>, tensor<1x4x37xf32>)
  return %0#0, %0#1 : tensor<1x37x4x24xf32>, tensor<1x4x37xf32>
}

// -----

// Whole query and key loops (5 queries, 8 keys): a thread tile per batch and
// head, no key loop; the padding mask's row of the batch is read along the
// keys.

// CHECK-LABEL: func.func @padding_whole(
// CHECK:         scf.forall (%[[B:.*]], %[[H:.*]]) in (2, 4)
// CHECK:           tensor.extract_slice %{{.*}}[%[[B]], 0] [1, 8] [1, 1] : tensor<2x8xi1> to tensor<1x8xi1>
// CHECK-NOT:       scf.for
// CHECK:           linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<5x8xf32>, tensor<8xi1>)
// CHECK:           linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<5x8xf32>, tensor<5xf32>) outs(%{{.*}} : tensor<5x8xf32>)
// CHECK:           scf.forall.in_parallel
func.func @padding_whole(%q: tensor<2x4x5x16xf32>, %k: tensor<2x4x8x16xf32>, %v: tensor<2x4x8x8xf32>, %m: tensor<2x8xi1>) -> tensor<2x4x5x8xf32> {
  %0 = rlx.attention bhsd %q, %k, %v, %m heads = 4 kv_heads = 4 mask = padding : (tensor<2x4x5x16xf32>, tensor<2x4x8x16xf32>, tensor<2x4x8x8xf32>, tensor<2x8xi1>) -> tensor<2x4x5x8xf32>
  return %0 : tensor<2x4x5x8xf32>
}

// -----

// The backward op's two passes, causal, 4 query heads over 2 kv heads, 32
// queries over 40 keys in 16 x 8 tiles. dq: a thread tile per (head, query
// tile), the key loop up to the last key the tile sees (i0 + 16 + 8).
// dk and dv: a thread tile per (kv head, key tile), stepping through the 2
// query heads of the group and the query tiles that see the key tile, from
// the one holding query j0 - 8; the dk and dv accumulators are [8, 8].

// CHECK-LABEL: func.func @causal_backward_gqa(
// CHECK:         scf.forall (%[[H:.*]], %[[I0:.*]]) = (0, 0) to (4, 32) step (1, 16)
// CHECK:           %[[KEYS:.*]] = affine.min
// CHECK:           scf.for %{{.*}} = %c0 to %[[KEYS]] step %c8 iter_args(%{{.*}} = %{{.*}}) -> (tensor<16x8xf32>)
// CHECK:             linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<16x8xf32>, tensor<8x8xf32>) outs(%{{.*}} : tensor<16x8xf32>)
// CHECK:           tensor.parallel_insert_slice %{{.*}} into %{{.*}}[0, %[[H]], %[[I0]], 0] [1, 1, 16, 8]
// CHECK:         scf.forall (%[[KV:.*]], %[[J0:.*]]) = (0, 0) to (2, 40) step (1, 8)
// CHECK:           scf.for %[[MEMBER:.*]] = %c0 to %c2 step %c1 iter_args(%{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}) -> (tensor<8x8xf32>, tensor<8x8xf32>)
// CHECK:             %[[FIRST:.*]] = affine.apply
// CHECK:             scf.for %{{.*}} = %[[FIRST]] to %c32 step %c16 iter_args(%{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}) -> (tensor<8x8xf32>, tensor<8x8xf32>)
// CHECK:               math.exp
// CHECK:           tensor.parallel_insert_slice %{{.*}} into %{{.*}}[0, %[[KV]], %[[J0]], 0] [1, 1, 8, 8]
// CHECK:           tensor.parallel_insert_slice %{{.*}} into %{{.*}}[0, %[[KV]], %[[J0]], 0] [1, 1, 8, 8]
func.func @causal_backward_gqa(%q: tensor<1x4x32x8xf32>, %k: tensor<1x2x40x8xf32>, %out: tensor<1x4x32x8xf32>, %lse: tensor<1x4x32xf32>) -> (tensor<1x4x32x8xf32>, tensor<1x2x40x8xf32>, tensor<1x2x40x8xf32>) {
  %0:3 = rlx.attention_backward bhsd %q, %k, %k, %out, %out, %lse heads = 4 kv_heads = 2 mask = causal : (tensor<1x4x32x8xf32>, tensor<1x2x40x8xf32>, tensor<1x2x40x8xf32>, tensor<1x4x32x8xf32>, tensor<1x4x32x8xf32>, tensor<1x4x32xf32>) -> (tensor<1x4x32x8xf32>, tensor<1x2x40x8xf32>, tensor<1x2x40x8xf32>)
  return %0#0, %0#1, %0#2 : tensor<1x4x32x8xf32>, tensor<1x2x40x8xf32>, tensor<1x2x40x8xf32>
}

// -----

// A bias gradient that broadcasts over batches: the batch loop of dq
// reduces into it, so a thread tile holds all 3 batches of its head (6
// queries: one tile) and steps through them, dq accumulating in its
// destination. dk and dv: a thread tile per (batch, kv head).

// CHECK-LABEL: func.func @bias_grad_broadcast_batch(
// CHECK:         scf.forall (%[[H:.*]]) in (4) shared_outs(%{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}) -> (tensor<3x4x6x8xf32>, tensor<1x4x6x6xf32>)
// CHECK:           scf.for %{{.*}} = %c0 to %c3 step %c1 iter_args(%{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}) -> (tensor<3x1x6x8xf32>, tensor<6x6xf32>)
// CHECK:           tensor.parallel_insert_slice %{{.*}} into %{{.*}}[0, %[[H]], 0, 0] [3, 1, 6, 8]
// CHECK:           tensor.parallel_insert_slice %{{.*}} into %{{.*}}[0, %[[H]], 0, 0] [1, 1, 6, 6]
// CHECK:         scf.forall (%{{.*}}, %{{.*}}) in (3, 2)
func.func @bias_grad_broadcast_batch(%q: tensor<3x4x6x8xf32>, %k: tensor<3x2x6x8xf32>, %out: tensor<3x4x6x8xf32>, %lse: tensor<3x4x6xf32>, %bias: tensor<1x4x6x6xf32>) -> (tensor<3x4x6x8xf32>, tensor<3x2x6x8xf32>, tensor<3x2x6x8xf32>, tensor<1x4x6x6xf32>) {
  %0:4 = rlx.attention_backward bhsd %q, %k, %k, %out, %out, %lse, %bias heads = 4 kv_heads = 2 mask = bias with_bias_grad : (tensor<3x4x6x8xf32>, tensor<3x2x6x8xf32>, tensor<3x2x6x8xf32>, tensor<3x4x6x8xf32>, tensor<3x4x6x8xf32>, tensor<3x4x6xf32>, tensor<1x4x6x6xf32>) -> (tensor<3x4x6x8xf32>, tensor<3x2x6x8xf32>, tensor<3x2x6x8xf32>, tensor<1x4x6x6xf32>)
  return %0#0, %0#1, %0#2, %0#3 : tensor<3x4x6x8xf32>, tensor<3x2x6x8xf32>, tensor<3x2x6x8xf32>, tensor<1x4x6x6xf32>
}

// -----

// A decode step (one query, 2 heads over one kv head, 1000 keys): 2 thread
// tiles are too few, so the keys split too (split-K), in 5 parts of 200
// keys (the part near 256 that divides 1000). One scf.forall over (head,
// part) writes each part's state, started empty in the tile, into its [p]
// slice of the partial states [5, ...]; after the loop the partials merge
// into the op's state (the new maximum, each state's weight exp(m - m'),
// the weighted sums of l and acc over the parts), which the normalization
// then divides.
// CHECK-LABEL: func.func @decode_split_keys(
// CHECK-SAME:      %[[Q:[a-z0-9]+]]: tensor<1x1x2x16xf32>, %[[K:[a-z0-9]+]]: tensor<1x1000x1x16xf32>, %[[V:[a-z0-9]+]]: tensor<1x1000x1x24xf32>)
// CHECK:         %[[ACCS:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<5x1x1x2x24xf32>)
// CHECK:         %[[MAXES:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<5x1x2x1xf32>)
// CHECK:         %[[SUMS:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<5x1x2x1xf32>)
// CHECK:         %[[PARTIALS:.*]]:3 = scf.forall (%[[H:.*]], %[[J0:.*]]) = (0, 0) to (2, 1000) step (1, 200) shared_outs(%[[PACC:.*]] = %[[ACCS]], %[[PMAX:.*]] = %[[MAXES]], %[[PSUM:.*]] = %[[SUMS]])
// CHECK:           %[[P:.*]] = affine.apply #{{.*}}(%[[J0]])
// CHECK:           tensor.extract_slice %[[K]][0, %[[J0]], %{{.*}}, 0] [1, 200, 1, 16]
// CHECK:           %[[STATE:.*]]:3 = scf.for %{{.*}} = %c0 to %{{.*}} step %c8 iter_args(%{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}) -> (tensor<1x24xf32>, tensor<1xf32>, tensor<1xf32>)
// CHECK:             math.exp
// CHECK:             scf.yield
// CHECK:           scf.forall.in_parallel
// CHECK-NEXT:        tensor.parallel_insert_slice %{{.*}} into %[[PACC]][%[[P]], 0, 0, %[[H]], 0] [1, 1, 1, 1, 24]
// CHECK-NEXT:        tensor.parallel_insert_slice %{{.*}} into %[[PMAX]][%[[P]], 0, %[[H]], 0] [1, 1, 1, 1]
// CHECK-NEXT:        tensor.parallel_insert_slice %{{.*}} into %[[PSUM]][%[[P]], 0, %[[H]], 0] [1, 1, 1, 1]
// CHECK:         %[[MAX:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%[[PARTIALS]]#1, %{{.*}} : tensor<5x1x2x1xf32>, tensor<1x2x1xf32>)
// CHECK:           arith.maximumf
// CHECK:         %[[OLD_WEIGHT:.*]] = linalg.generic {{.*}} ins(%{{.*}}, %[[MAX]] : tensor<1x2x1xf32>, tensor<1x2x1xf32>)
// CHECK:           math.exp
// CHECK:         %[[WEIGHTS:.*]] = linalg.generic {{.*}} ins(%[[PARTIALS]]#1, %[[MAX]] : tensor<5x1x2x1xf32>, tensor<1x2x1xf32>)
// CHECK:           math.exp
// CHECK:         linalg.generic {{.*}} ins(%[[OLD_WEIGHT]] : tensor<1x2x1xf32>)
// CHECK:         linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%[[PARTIALS]]#2, %[[WEIGHTS]] : tensor<5x1x2x1xf32>, tensor<5x1x2x1xf32>)
// CHECK:         linalg.generic {{.*}} ins(%[[OLD_WEIGHT]] : tensor<1x2x1xf32>) outs(%{{.*}} : tensor<1x1x2x24xf32>)
// CHECK:         linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%[[PARTIALS]]#0, %[[WEIGHTS]] : tensor<5x1x1x2x24xf32>, tensor<5x1x2x1xf32>)
// CHECK:         arith.divf
// CHECK-NOT:     rlx.online_attention
func.func @decode_split_keys(%q: tensor<1x1x2x16xf32>, %k: tensor<1x1000x1x16xf32>, %v: tensor<1x1000x1x24xf32>) -> tensor<1x1x2x24xf32> {
  %0 = rlx.attention bshd %q, %k, %v heads = 2 kv_heads = 1 mask = causal : (tensor<1x1x2x16xf32>, tensor<1x1000x1x16xf32>, tensor<1x1000x1x24xf32>) -> tensor<1x1x2x24xf32>
  return %0 : tensor<1x1x2x24xf32>
}

// -----

// A `?` key length: the key loop is peeled, so its full tiles of 8 keys are
// static; the last, partial tile is tiled again by 4 and peeled, so that
// only its last, partial half has a run-time size. Both outer loops run
// only over the tiles the causal mask shows (up to the visible end, here
// the key length clamped below at 0).

// CHECK-DAG: #[[FULL:.*]] = affine_map<()[s0, s1] -> ((s0 floordiv 8) * 8, s0, s1)>
// CHECK-DAG: #[[PARTIAL_LOW:.*]] = affine_map<()[s0] -> (0, (s0 floordiv 8) * 8)>
// CHECK-DAG: #[[PARTIAL_HIGH:.*]] = affine_map<()[s0, s1] -> (s1, s0)>
// CHECK-LABEL: func.func @dynamic_keys_peeled(
// CHECK-SAME:      %{{[^:]*}}: tensor<1x16x2x16xf32>, %[[K:[^:]*]]: tensor<1x?x2x16xf32>
// CHECK:         %[[S:.*]] = tensor.dim %[[K]], %c1
// CHECK:         scf.forall
// CHECK:           %[[VISIBLE:.*]] = affine.max #{{.*}}()[%[[S]]]
// CHECK:           %[[FULL_END:.*]] = affine.min #[[FULL]]()[%[[S]], %[[VISIBLE]]]
// CHECK:           %[[STATE:.*]]:3 = scf.for %[[J:.*]] = %c0 to %[[FULL_END]] step %c8
// CHECK:             tensor.extract_slice %{{.*}}[0, %[[J]], 0, 0] [1, 8, 1, 16]
// CHECK:             linalg.transpose ins(%{{.*}} : tensor<8x16xf32>) outs(%{{.*}} : tensor<16x8xf32>)
// CHECK:             linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<16x8xf32>, tensor<8x16xf32>)
// CHECK:           %[[LOW:.*]] = affine.max #[[PARTIAL_LOW]]()[%[[S]]]
// CHECK:           %[[HIGH:.*]] = affine.min #[[PARTIAL_HIGH]]()[%[[S]], %[[VISIBLE]]]
// CHECK:           scf.for %[[P:.*]] = %[[LOW]] to %[[HIGH]] step %c8 iter_args(
// CHECK:             %[[REST:.*]] = arith.subi %[[S]], %[[P]] : index
// CHECK:             %[[HALVES:.*]] = affine.apply #{{.*}}()[%[[REST]]]
// CHECK:             %[[HALF:.*]]:3 = scf.for %[[H:.*]] = %c0 to %[[HALVES]] step %c4
// CHECK:               tensor.extract_slice %{{.*}}[0, %[[H]], 0, 0] [1, 4, 1, 16]
// CHECK:               linalg.transpose ins(%{{.*}} : tensor<4x16xf32>) outs(%{{.*}} : tensor<16x4xf32>)
// CHECK:             scf.for %{{.*}} = %[[HALVES]] to %[[REST]] step %c4 iter_args(%{{.*}} = %[[HALF]]#0, %{{.*}} = %[[HALF]]#1, %{{.*}} = %[[HALF]]#2)
// CHECK:               linalg.transpose ins(%{{.*}} : tensor<?x16xf32>) outs(%{{.*}} : tensor<16x?xf32>)
func.func @dynamic_keys_peeled(%q: tensor<1x16x2x16xf32>, %k: tensor<1x?x2x16xf32>, %v: tensor<1x?x2x16xf32>) -> tensor<1x16x2x16xf32> {
  %0 = rlx.attention bshd %q, %k, %v heads = 2 kv_heads = 2 mask = causal : (tensor<1x16x2x16xf32>, tensor<1x?x2x16xf32>, tensor<1x?x2x16xf32>) -> tensor<1x16x2x16xf32>
  return %0 : tensor<1x16x2x16xf32>
}
