// RUN: rlx-opt %s -split-input-file --rlx-to-linalg="attention-query-tile=16 attention-key-tile=8" --canonicalize --cse | FileCheck %s
// RUN: not rlx-opt %s -split-input-file --rlx-to-linalg="attention-query-tile=0" 2>&1 | FileCheck %s --check-prefix=TILES

// TILES: error: attention tile sizes must be positive, got 0 queries and 64 keys

// Sliding-window attention with grouped heads (4 query heads over 2 kv
// heads), 37 queries over 45 keys in 16 x 8 tiles: an scf.forall over the
// heads and the two full query tiles (the batch of one folded away), each
// writing its tiles of the results; the key loop of a query tile runs only over
// the tiles its window can see, from (i0 + 45 - 37 - 5) / 8 to
// ceil((i0 + 16 + 45 - 37) / 8), capped at the 5 full key tiles; the partial
// key tile [40, 45) is visited under an scf.if. Scores are [16, 8] tiles,
// products of the query tile and the transposed key tile (whose rows the
// key loop then reads contiguously), masked from indices; the
// online-softmax state (max, sum, acc) is carried and updated in place. The
// remainder query tile, 5 rows, is a second scf.forall over the heads.

// CHECK-LABEL: func.func @sliding_window_gqa(
// CHECK-SAME:      %[[Q:[a-z0-9]+]]: tensor<1x37x4x16xf32>, %[[K:[a-z0-9]+]]: tensor<1x45x2x16xf32>, %[[V:[a-z0-9]+]]: tensor<1x45x2x24xf32>)
// CHECK-DAG:     %[[NEG_INF:.*]] = arith.constant 0xFF800000 : f32
// CHECK-DAG:     %[[SCALE:.*]] = arith.constant 2.500000e-01 : f32
// CHECK:         %[[FULL:.*]]:2 = scf.forall (%[[H:.*]], %[[QT:.*]]) in (4, 2) shared_outs(%[[OUT:.*]] = %{{.*}}, %[[LSE:.*]] = %{{.*}})
// CHECK:             %[[I0:.*]] = arith.muli %[[QT]], %c16
// CHECK:             %[[QTILE:.*]] = tensor.extract_slice %[[Q]][0, %[[I0]], %[[H]], 0] [1, 16, 1, 16] [1, 1, 1, 1] : tensor<1x37x4x16xf32> to tensor<16x16xf32>
// CHECK:             %[[KV:.*]] = arith.divui %[[H]], %c2
// CHECK:             arith.addi %[[I0]], %c24
// CHECK:             %[[HIGH:.*]] = arith.minsi %{{.*}}, %c45
// CHECK:             arith.addi %[[I0]], %c3
// CHECK:             %[[LOW:.*]] = arith.minsi %{{.*}}, %c45
// CHECK:             %[[FIRST:.*]] = arith.divui %[[LOW]], %c8
// CHECK:             %[[END:.*]] = arith.minsi %{{.*}}, %c5
// CHECK:             %[[REMAINDER:.*]] = arith.cmpi sgt, %[[HIGH]], %c40
// CHECK:             %[[STATE:.*]]:3 = scf.for %[[KT:.*]] = %[[FIRST]] to %[[END]] step %c1 iter_args(%[[M:.*]] = %{{.*}}, %[[L:.*]] = %{{.*}}, %[[ACC:.*]] = %{{.*}}) -> (tensor<16xf32>, tensor<16xf32>, tensor<16x24xf32>)
// CHECK:               %[[J0:.*]] = arith.muli %[[KT]], %c8
// CHECK:               %[[KTILE:.*]] = tensor.extract_slice %[[K]][0, %[[J0]], %[[KV]], 0] [1, 8, 1, 16]
// CHECK:               %[[VTILE:.*]] = tensor.extract_slice %[[V]][0, %[[J0]], %[[KV]], 0] [1, 8, 1, 24]
// CHECK:               %[[KTILE_T:.*]] = linalg.transpose ins(%[[KTILE]] : tensor<8x16xf32>) outs(%{{.*}} : tensor<16x8xf32>) permutation = [1, 0]
// CHECK:               %[[QK:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "reduction"]} ins(%[[QTILE]], %[[KTILE_T]] : tensor<16x16xf32>, tensor<16x8xf32>) outs(%{{.*}} : tensor<16x8xf32>)
// CHECK:               %[[SCORES:.*]] = linalg.generic {{.*}} ins(%[[QK]] : tensor<16x8xf32>)
// CHECK:                 arith.mulf %{{.*}}, %[[SCALE]]
// CHECK:                 linalg.index 0
// CHECK:                 linalg.index 1
// CHECK:                 arith.cmpi sle
// CHECK:                 arith.cmpi sge
// CHECK:                 arith.select %{{.*}}, %{{.*}}, %[[NEG_INF]]
// CHECK:               %[[TILE_MAX:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]} ins(%[[SCORES]] : tensor<16x8xf32>)
// CHECK:               %[[CORRECTION:.*]] = linalg.generic {{.*}} ins(%[[M]], %[[TILE_MAX]] : tensor<16xf32>, tensor<16xf32>)
// CHECK:                 math.exp
// CHECK:               %[[NEW_M:.*]] = linalg.generic {{.*}} ins(%[[TILE_MAX]] : tensor<16xf32>) outs(%[[M]] : tensor<16xf32>)
// CHECK:               %[[P:.*]] = linalg.generic {{.*}} ins(%[[NEW_M]] : tensor<16xf32>) outs(%[[SCORES]] : tensor<16x8xf32>)
// CHECK:                 math.exp
// CHECK:               %[[L_SCALED:.*]] = linalg.generic {{.*}} ins(%[[CORRECTION]] : tensor<16xf32>) outs(%[[L]] : tensor<16xf32>)
// CHECK:               %[[NEW_L:.*]] = linalg.generic {{.*}} ins(%[[P]] : tensor<16x8xf32>) outs(%[[L_SCALED]] : tensor<16xf32>)
// CHECK:               %[[ACC_SCALED:.*]] = linalg.generic {{.*}} ins(%[[CORRECTION]] : tensor<16xf32>) outs(%[[ACC]] : tensor<16x24xf32>)
// CHECK:               %[[NEW_ACC:.*]] = linalg.generic {{.*}} ins(%[[P]], %[[VTILE]] : tensor<16x8xf32>, tensor<8x24xf32>) outs(%[[ACC_SCALED]] : tensor<16x24xf32>)
// CHECK:               scf.yield %[[NEW_M]], %[[NEW_L]], %[[NEW_ACC]]
// CHECK:             scf.if %[[REMAINDER]] -> (tensor<16xf32>, tensor<16xf32>, tensor<16x24xf32>)
// CHECK:               tensor.extract_slice %[[K]][0, 40, %[[KV]], 0] [1, 5, 1, 16]
// CHECK:               linalg.generic {{.*}} outs(%{{.*}} : tensor<16x5xf32>)
// CHECK:             } else {
// CHECK-NEXT:          scf.yield %[[STATE]]#0, %[[STATE]]#1, %[[STATE]]#2
// CHECK:             scf.forall.in_parallel
// CHECK-NEXT:          tensor.parallel_insert_slice %{{.*}} into %[[OUT]][0, %[[I0]], %[[H]], 0] [1, 16, 1, 24] [1, 1, 1, 1] : tensor<16x24xf32> into tensor<1x37x4x24xf32>
// CHECK-NEXT:          tensor.parallel_insert_slice %{{.*}} into %[[LSE]][0, %[[H]], %[[I0]]] [1, 1, 16] [1, 1, 1] : tensor<16xf32> into tensor<1x4x37xf32>
// CHECK:         scf.forall (%[[H2:.*]]) in (4) shared_outs(%{{.*}} = %[[FULL]]#0, %{{.*}} = %[[FULL]]#1)
// CHECK:           tensor.extract_slice %[[Q]][0, 32, %[[H2]], 0] [1, 5, 1, 16] [1, 1, 1, 1] : tensor<1x37x4x16xf32> to tensor<5x16xf32>
// CHECK:           linalg.generic {{.*}} outs(%{{.*}} : tensor<5x8xf32>)
// CHECK-NOT:     tensor<37x45xf32>
func.func @sliding_window_gqa(%q: tensor<1x37x4x16xf32>, %k: tensor<1x45x2x16xf32>, %v: tensor<1x45x2x24xf32>) -> (tensor<1x37x4x24xf32>, tensor<1x4x37xf32>) {
  %0:2 = rlx.attention bshd %q, %k, %v heads = 4 kv_heads = 2 mask = sliding_window window = 5 with_logsumexp : (tensor<1x37x4x16xf32>, tensor<1x45x2x16xf32>, tensor<1x45x2x24xf32>) -> (tensor<1x37x4x24xf32>, tensor<1x4x37xf32>)
  return %0#0, %0#1 : tensor<1x37x4x24xf32>, tensor<1x4x37xf32>
}

// -----

// A padding mask on f16 bhsd inputs: the whole query axis (5 rows) is one
// tile; the key loop is static (2 full tiles, then the 5-key remainder without
// a condition); the mask tile is a [8] slice of row b read along the keys;
// products accumulate in f32; out = acc / l (0 where l = 0) rounded to f16,
// logsumexp = m + log(l) in f32.

// CHECK-DAG:   #[[KEYS:map[0-9]*]] = affine_map<(d0, d1) -> (d1)>
// CHECK-LABEL: func.func @padding_f16(
// CHECK-SAME:      %[[Q:[a-z0-9]+]]: tensor<2x4x5x16xf16>, %[[K:[a-z0-9]+]]: tensor<2x4x21x16xf16>, %[[V:[a-z0-9]+]]: tensor<2x4x21x8xf16>, %[[MASK:[a-z0-9]+]]: tensor<2x21xi1>)
// CHECK:         scf.forall (%[[B:.*]], %[[H:.*]]) in (2, 4)
// CHECK:             tensor.extract_slice %[[Q]][%[[B]], %[[H]], 0, 0] [1, 1, 5, 16] [1, 1, 1, 1] : tensor<2x4x5x16xf16> to tensor<5x16xf16>
// CHECK:             scf.for %[[KT:.*]] = %c0 to %c2 step %c1 iter_args
// CHECK:               %[[J0:.*]] = arith.muli %[[KT]], %c8
// CHECK:               linalg.generic
// CHECK:                 arith.extf %{{.*}} : f16 to f32
// CHECK:               %[[MASK_TILE:.*]] = tensor.extract_slice %[[MASK]][%[[B]], %[[J0]]] [1, 8] [1, 1] : tensor<2x21xi1> to tensor<8xi1>
// CHECK:               linalg.generic {indexing_maps = [#{{.*}}, #[[KEYS]], #{{.*}}], {{.*}} ins(%{{.*}}, %[[MASK_TILE]] : tensor<5x8xf32>, tensor<8xi1>)
// CHECK:                 arith.select
// CHECK:             tensor.extract_slice %[[MASK]][%[[B]], 16] [1, 5] [1, 1] : tensor<2x21xi1> to tensor<5xi1>
// CHECK:             %[[OUT:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<5x8xf16>)
// CHECK:               arith.cmpf oeq
// CHECK:               arith.divf
// CHECK:               arith.select
// CHECK:               arith.truncf %{{.*}} : f32 to f16
// CHECK:             %[[LSE:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<5xf32>)
// CHECK:               math.log
// CHECK:               arith.addf
// CHECK:             tensor.parallel_insert_slice %[[OUT]] into %{{.*}}[%[[B]], %[[H]], 0, 0] [1, 1, 5, 8]
// CHECK:             tensor.parallel_insert_slice %[[LSE]] into %{{.*}}[%[[B]], %[[H]], 0] [1, 1, 5]
func.func @padding_f16(%q: tensor<2x4x5x16xf16>, %k: tensor<2x4x21x16xf16>, %v: tensor<2x4x21x8xf16>, %m: tensor<2x21xi1>) -> (tensor<2x4x5x8xf16>, tensor<2x4x5xf32>) {
  %0:2 = rlx.attention bhsd %q, %k, %v, %m heads = 4 kv_heads = 4 mask = padding with_logsumexp : (tensor<2x4x5x16xf16>, tensor<2x4x21x16xf16>, tensor<2x4x21x8xf16>, tensor<2x21xi1>) -> (tensor<2x4x5x8xf16>, tensor<2x4x5xf32>)
  return %0#0, %0#1 : tensor<2x4x5x8xf16>, tensor<2x4x5xf32>
}

// -----

// A bias broadcast over batch and heads on single-head bsd inputs: each key
// tile reads the [16, 8] slice of the bias at (0, 0, i0, j0) and adds it
// after the softcap 5 * tanh(x / 5).

// CHECK-LABEL: func.func @bias_softcap(
// CHECK-SAME:      %[[Q:[a-z0-9]+]]: tensor<3x16x8xf32>, %[[BIAS:[a-z0-9]+]]: tensor<1x1x16x16xf32>)
// CHECK-DAG:     %[[CAP:.*]] = arith.constant 5.000000e+00 : f32
// CHECK:         scf.forall (%[[B:.*]]) in (3)
// CHECK:           scf.for %[[KT:.*]] = %c0 to %c2
// CHECK:             %[[J0:.*]] = arith.muli %[[KT]], %c8
// CHECK:             %[[BIAS_TILE:.*]] = tensor.extract_slice %[[BIAS]][0, 0, 0, %[[J0]]] [1, 1, 16, 8] [1, 1, 1, 1] : tensor<1x1x16x16xf32> to tensor<16x8xf32>
// CHECK:             linalg.generic {{.*}} ins(%{{.*}}, %[[BIAS_TILE]] : tensor<16x8xf32>, tensor<16x8xf32>)
// CHECK:               %[[X:.*]] = arith.divf %{{.*}}, %[[CAP]]
// CHECK:               %[[T:.*]] = math.tanh %[[X]]
// CHECK:               %[[CAPPED:.*]] = arith.mulf %[[T]], %[[CAP]]
// CHECK:               arith.addf %[[CAPPED]], %{{.*}}
func.func @bias_softcap(%q: tensor<3x16x8xf32>, %b: tensor<1x1x16x16xf32>) -> tensor<3x16x8xf32> {
  %0 = rlx.attention bsd %q, %q, %q, %b heads = 1 kv_heads = 1 mask = bias softcap = 5.0 : (tensor<3x16x8xf32>, tensor<3x16x8xf32>, tensor<3x16x8xf32>, tensor<1x1x16x16xf32>) -> tensor<3x16x8xf32>
  return %0 : tensor<3x16x8xf32>
}

// -----

// The backward op, causal with 4 query heads over 2 kv heads, 21 queries
// over 29 keys in 16 x 8 tiles: an scf.forall over the kv heads (the batch
// of one folded away), each iteration owning its slices of dq (the 2 query
// heads of its group), dk and dv; in it, for each key tile
// [j0, j0 + 8) (its k and v tiles transposed once, for the contractions
// that read them along the key axis), the dk and dv tiles accumulate over
// the 2 query heads of the group (h = 2 * kv + g) and over the query tiles
// that can see the key tile, from (j0 - (29 - 21)) / 16; each pair
// recomputes p = exp(s - logsumexp) from the scores, adds its share of dq
// into the dq accumulator (a [16, 8] slice read, updated and inserted), and
// dk and dv are written once per key tile.

// CHECK-LABEL: func.func @causal_backward_gqa(
// CHECK-SAME:      %[[Q:[a-z0-9]+]]: tensor<1x4x21x8xf32>, %[[K:[a-z0-9]+]]: tensor<1x2x29x8xf32>, %[[V:[a-z0-9]+]]: tensor<1x2x29x8xf32>, %[[O:[a-z0-9]+]]: tensor<1x4x21x8xf32>, %[[LSE:[a-z0-9]+]]: tensor<1x4x21xf32>)
// CHECK:         scf.forall (%[[KV:.*]]) in (2) shared_outs(%[[DQ_ALL:.*]] = %{{.*}}, %[[DK_ALL:.*]] = %{{.*}}, %[[DV_ALL:.*]] = %{{.*}}) -> (tensor<1x4x21x8xf32>, tensor<1x2x29x8xf32>, tensor<1x2x29x8xf32>)
// CHECK:           %[[GROUP_START:.*]] = arith.muli %[[KV]], %c2
// CHECK:           %[[DQ0:.*]] = tensor.extract_slice %[[DQ_ALL]][0, %[[GROUP_START]], 0, 0] [1, 2, 21, 8] [1, 1, 1, 1] : tensor<1x4x21x8xf32> to tensor<1x2x21x8xf32>
// CHECK:           %[[DK0:.*]] = tensor.extract_slice %[[DK_ALL]][0, %[[KV]], 0, 0] [1, 1, 29, 8] [1, 1, 1, 1] : tensor<1x2x29x8xf32> to tensor<1x1x29x8xf32>
// CHECK:           %[[DV0:.*]] = tensor.extract_slice %[[DV_ALL]][0, %[[KV]], 0, 0] [1, 1, 29, 8]
// CHECK:           scf.for %[[KT:.*]] = %c0 to %c3 step %c1 iter_args(%[[DQ1:.*]] = %[[DQ0]], %[[DK1:.*]] = %[[DK0]], %[[DV1:.*]] = %[[DV0]])
// CHECK:             %[[J0:.*]] = arith.muli %[[KT]], %c8
// CHECK:             %[[KTILE:.*]] = tensor.extract_slice %[[K]][0, %[[KV]], %[[J0]], 0] [1, 1, 8, 8]
// CHECK:             linalg.transpose ins(%[[KTILE]]
// CHECK:             %[[VTILE:.*]] = tensor.extract_slice %[[V]][0, %[[KV]], %[[J0]], 0] [1, 1, 8, 8]
// CHECK:             %[[VTILE_T:.*]] = linalg.transpose ins(%[[VTILE]]
// CHECK:             %[[GROUP_LOOP:.*]]:3 = scf.for %[[G:.*]] = %c0 to %c2 step %c1 iter_args(%[[DQ2:.*]] = %[[DQ1]], %{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}) -> (tensor<1x2x21x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>)
// CHECK:               %[[H:.*]] = arith.addi %[[GROUP_START]], %[[G]]
// CHECK:               arith.subi %[[J0]], %c8
// CHECK:               %[[FIRST:.*]] = arith.divui %{{.*}}, %c16
// CHECK:               scf.for %[[QT:.*]] = %[[FIRST]] to %c1 step %c1 iter_args(%[[DQ3:.*]] = %[[DQ2]], %[[DK:.*]] = %{{.*}}, %[[DV:.*]] = %{{.*}})
// CHECK:                 %[[I0:.*]] = arith.muli %[[QT]], %c16
// CHECK:                 %[[QTILE:.*]] = tensor.extract_slice %[[Q]][0, %[[H]], %[[I0]], 0] [1, 1, 16, 8]
// CHECK:                 %[[LSE_ROWS:.*]] = tensor.extract_slice %[[LSE]][0, %[[H]], %[[I0]]] [1, 1, 16] [1, 1, 1] : tensor<1x4x21xf32> to tensor<16xf32>
// CHECK:                 %[[P:.*]] = linalg.generic {{.*}} ins(%{{.*}}, %[[LSE_ROWS]] : tensor<16x8xf32>, tensor<16xf32>)
// CHECK:                   arith.cmpi sle
// CHECK:                   arith.subf
// CHECK:                   math.exp
// CHECK:                 %[[NEW_DV:.*]] = linalg.generic {{.*}} ins(%[[P]], %{{.*}} : tensor<16x8xf32>, tensor<16x8xf32>) outs(%[[DV]] : tensor<8x8xf32>)
// CHECK:                 %[[DP:.*]] = linalg.generic {{.*}} ins(%{{.*}}, %[[VTILE_T]] : tensor<16x8xf32>, tensor<8x8xf32>)
// CHECK:                 %[[DS:.*]] = linalg.generic {{.*}} ins(%[[P]], %{{.*}} : tensor<16x8xf32>, tensor<16xf32>) outs(%[[DP]] : tensor<16x8xf32>)
// CHECK:                 %[[DX:.*]] = linalg.generic {{.*}} outs(%[[DS]] : tensor<16x8xf32>)
// CHECK:                 %[[MEMBER:.*]] = arith.subi %[[H]], %[[GROUP_START]]
// CHECK:                 %[[DQ_TILE:.*]] = tensor.extract_slice %[[DQ3]][0, %[[MEMBER]], %[[I0]], 0] [1, 1, 16, 8]
// CHECK:                 %[[NEW_DQ_TILE:.*]] = linalg.generic {{.*}} ins(%[[DX]], %[[KTILE]] : tensor<16x8xf32>, tensor<8x8xf32>) outs(%[[DQ_TILE]] : tensor<16x8xf32>)
// CHECK:                 %[[NEW_DQ:.*]] = tensor.insert_slice %[[NEW_DQ_TILE]] into %[[DQ3]][0, %[[MEMBER]], %[[I0]], 0] [1, 1, 16, 8]
// CHECK:                 %[[NEW_DK:.*]] = linalg.generic {{.*}} ins(%[[DX]], %[[QTILE]] : tensor<16x8xf32>, tensor<16x8xf32>) outs(%[[DK]] : tensor<8x8xf32>)
// CHECK:                 scf.yield %[[NEW_DQ]], %[[NEW_DK]], %[[NEW_DV]]
// CHECK:               tensor.extract_slice %[[Q]][0, %[[H]], 16, 0] [1, 1, 5, 8]
// CHECK:             %[[DK_OUT:.*]] = tensor.insert_slice %[[GROUP_LOOP]]#1 into %[[DK1]][0, 0, %[[J0]], 0] [1, 1, 8, 8]
// CHECK:             %[[DV_OUT:.*]] = tensor.insert_slice %[[GROUP_LOOP]]#2 into %[[DV1]][0, 0, %[[J0]], 0] [1, 1, 8, 8]
// CHECK:             scf.yield %[[GROUP_LOOP]]#0, %[[DK_OUT]], %[[DV_OUT]]
// CHECK:           scf.forall.in_parallel
// CHECK-NEXT:        tensor.parallel_insert_slice %{{.*}} into %[[DQ_ALL]][0, %[[GROUP_START]], 0, 0] [1, 2, 21, 8]
// CHECK-NEXT:        tensor.parallel_insert_slice %{{.*}} into %[[DK_ALL]][0, %[[KV]], 0, 0] [1, 1, 29, 8]
// CHECK-NEXT:        tensor.parallel_insert_slice %{{.*}} into %[[DV_ALL]][0, %[[KV]], 0, 0] [1, 1, 29, 8]
// CHECK-NOT:     tensor<21x29xf32>
func.func @causal_backward_gqa(%q: tensor<1x4x21x8xf32>, %k: tensor<1x2x29x8xf32>, %v: tensor<1x2x29x8xf32>, %out: tensor<1x4x21x8xf32>, %lse: tensor<1x4x21xf32>) -> (tensor<1x4x21x8xf32>, tensor<1x2x29x8xf32>, tensor<1x2x29x8xf32>) {
  %0:3 = rlx.attention_backward bhsd %q, %k, %v, %out, %out, %lse heads = 4 kv_heads = 2 mask = causal : (tensor<1x4x21x8xf32>, tensor<1x2x29x8xf32>, tensor<1x2x29x8xf32>, tensor<1x4x21x8xf32>, tensor<1x4x21x8xf32>, tensor<1x4x21xf32>) -> (tensor<1x4x21x8xf32>, tensor<1x2x29x8xf32>, tensor<1x2x29x8xf32>)
  return %0#0, %0#1, %0#2 : tensor<1x4x21x8xf32>, tensor<1x2x29x8xf32>, tensor<1x2x29x8xf32>
}

// -----

// A bias gradient broadcast over the batch: the batches share its slice, so
// the scf.forall runs over the kv heads only and the batch is a loop in each
// iteration.
// CHECK-LABEL: func.func @bias_grad_broadcast_batch(
// CHECK:         scf.forall (%[[KV:.*]]) in (2) shared_outs(%{{.*}} = %{{.*}}, %[[DB_ALL:.*]] = %{{.*}}, %{{.*}} = %{{.*}}, %{{.*}} = %{{.*}})
// CHECK:           tensor.extract_slice %[[DB_ALL]][0, %{{.*}}, 0, 0] [1, 2, 6, 6]
// CHECK:           scf.for %{{.*}} = %c0 to %c3 step %c1
// CHECK:           scf.forall.in_parallel
// CHECK:             tensor.parallel_insert_slice %{{.*}} into %[[DB_ALL]][0, %{{.*}}, 0, 0] [1, 2, 6, 6]
func.func @bias_grad_broadcast_batch(%q: tensor<3x4x6x8xf32>, %k: tensor<3x2x6x8xf32>, %out: tensor<3x4x6x8xf32>, %lse: tensor<3x4x6xf32>, %bias: tensor<1x4x6x6xf32>) -> (tensor<3x4x6x8xf32>, tensor<3x2x6x8xf32>, tensor<3x2x6x8xf32>, tensor<1x4x6x6xf32>) {
  %0:4 = rlx.attention_backward bhsd %q, %k, %k, %out, %out, %lse, %bias heads = 4 kv_heads = 2 mask = bias with_bias_grad : (tensor<3x4x6x8xf32>, tensor<3x2x6x8xf32>, tensor<3x2x6x8xf32>, tensor<3x4x6x8xf32>, tensor<3x4x6x8xf32>, tensor<3x4x6xf32>, tensor<1x4x6x6xf32>) -> (tensor<3x4x6x8xf32>, tensor<3x2x6x8xf32>, tensor<3x2x6x8xf32>, tensor<1x4x6x6xf32>)
  return %0#0, %0#1, %0#2, %0#3 : tensor<3x4x6x8xf32>, tensor<3x2x6x8xf32>, tensor<3x2x6x8xf32>, tensor<1x4x6x6xf32>
}
