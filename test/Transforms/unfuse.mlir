// RUN: rlx-opt %s --rlx-form-regions="row=false" --rlx-unfuse -split-input-file | FileCheck %s --check-prefix=ROUND
// RUN: rlx-opt %s --rlx-unfuse -split-input-file | FileCheck %s --check-prefix=INLINE

// --rlx-unfuse inlines every rlx.region: body ops move in front of the
// region, body arguments become the inputs and region results the yielded
// values. After --rlx-form-regions it gives back the original ops (ROUND);
// on hand-written regions it inlines them (INLINE).

// ROUND-LABEL: func.func @chain(
// ROUND-SAME:      %[[X:[a-z0-9]+]]: tensor<4x8xf32>, %[[B:[a-z0-9]+]]: tensor<8xf32>, %[[S:[a-z0-9]+]]: tensor<f32>)
// ROUND-NOT:     rlx.region
// ROUND-NEXT:    %[[V0:.*]] = rlx.add %[[X]], %[[B]] : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
// ROUND-NEXT:    %[[V1:.*]] = rlx.gelu %[[V0]] : tensor<4x8xf32>
// ROUND-NEXT:    %[[V2:.*]] = rlx.mul %[[V1]], %[[S]] : (tensor<4x8xf32>, tensor<f32>) -> tensor<4x8xf32>
// ROUND-NEXT:    %[[V3:.*]] = rlx.exp %[[V2]] : tensor<4x8xf32>
// ROUND-NEXT:    return %[[V3]] : tensor<4x8xf32>
// INLINE-LABEL: func.func @chain(
// INLINE-NOT:    rlx.region
// INLINE:        rlx.add
func.func @chain(%x: tensor<4x8xf32>, %b: tensor<8xf32>, %s: tensor<f32>) -> tensor<4x8xf32> {
  %0 = rlx.add %x, %b : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
  %1 = rlx.gelu %0 : tensor<4x8xf32>
  %2 = rlx.mul %1, %s : (tensor<4x8xf32>, tensor<f32>) -> tensor<4x8xf32>
  %3 = rlx.exp %2 : tensor<4x8xf32>
  return %3 : tensor<4x8xf32>
}

// -----

// Multi-output region, a softmax between two regions: every use of a region
// result goes back to the original op.
// ROUND-LABEL: func.func @multi_output(
// ROUND-SAME:      %[[X:[a-z0-9]+]]: tensor<4xf32>)
// ROUND-NOT:     rlx.region
// ROUND-NEXT:    %[[E:.*]] = rlx.exp %[[X]] : tensor<4xf32>
// ROUND-NEXT:    %[[N:.*]] = rlx.neg %[[E]] : tensor<4xf32>
// ROUND-NEXT:    %[[SM:.*]] = rlx.softmax %[[N]] axis = 0 : tensor<4xf32>
// ROUND-NEXT:    %[[AB:.*]] = rlx.abs %[[E]] : tensor<4xf32>
// ROUND-NEXT:    %[[S:.*]] = rlx.add %[[AB]], %[[SM]] : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
// ROUND-NEXT:    return %[[S]], %[[E]] : tensor<4xf32>, tensor<4xf32>
func.func @multi_output(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %0 = rlx.exp %x : tensor<4xf32>
  %1 = rlx.neg %0 : tensor<4xf32>
  %s = rlx.softmax %1 axis = 0 : tensor<4xf32>
  %2 = rlx.abs %0 : tensor<4xf32>
  %3 = rlx.add %2, %s : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %3, %0 : tensor<4xf32>, tensor<4xf32>
}

// -----

// Interleaved chains: each comes back whole, in front of the position of
// its last op (so exp, neg now precede abs).
// ROUND-LABEL: func.func @two_chains(
// ROUND-SAME:      %[[X:[a-z0-9]+]]: tensor<3xf16>, %[[Y:[a-z0-9]+]]: tensor<3xf16>)
// ROUND-NOT:     rlx.region
// ROUND-NEXT:    %[[E:.*]] = rlx.exp %[[X]] : tensor<3xf16>
// ROUND-NEXT:    %[[N:.*]] = rlx.neg %[[E]] : tensor<3xf16>
// ROUND-NEXT:    %[[AB:.*]] = rlx.abs %[[Y]] : tensor<3xf16>
// ROUND-NEXT:    %[[SQ:.*]] = rlx.sqrt %[[AB]] : tensor<3xf16>
// ROUND-NEXT:    return %[[N]], %[[SQ]] : tensor<3xf16>, tensor<3xf16>
func.func @two_chains(%x: tensor<3xf16>, %y: tensor<3xf16>) -> (tensor<3xf16>, tensor<3xf16>) {
  %0 = rlx.exp %x : tensor<3xf16>
  %1 = rlx.abs %y : tensor<3xf16>
  %2 = rlx.neg %0 : tensor<3xf16>
  %3 = rlx.sqrt %1 : tensor<3xf16>
  return %2, %3 : tensor<3xf16>, tensor<3xf16>
}

// -----

// A hand-written region: a broadcast input, an input read twice, two
// results, one of them used twice.
// INLINE-LABEL: func.func @hand_written(
// INLINE-SAME:      %[[X:[a-z0-9]+]]: tensor<2x3xf32>, %[[B:[a-z0-9]+]]: tensor<3xf32>)
// INLINE-NEXT:    %[[S:.*]] = rlx.sub %[[X]], %[[B]] : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
// INLINE-NEXT:    %[[T:.*]] = rlx.tanh %[[S]] : tensor<2x3xf32>
// INLINE-NEXT:    %[[M:.*]] = rlx.mul %[[T]], %[[X]] : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// INLINE-NEXT:    return %[[M]], %[[T]], %[[M]] : tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>
// ROUND-LABEL: func.func @hand_written(
// ROUND-NOT:     rlx.region
// ROUND:         return
func.func @hand_written(%x: tensor<2x3xf32>, %b: tensor<3xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>) {
  %r:2 = rlx.region elementwise ins(%x, %b : tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>, tensor<2x3xf32> {
  ^bb0(%a: tensor<2x3xf32>, %c: tensor<3xf32>):
    %0 = rlx.sub %a, %c : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
    %1 = rlx.tanh %0 : tensor<2x3xf32>
    %2 = rlx.mul %1, %a : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    rlx.yield %2, %1 : tensor<2x3xf32>, tensor<2x3xf32>
  }
  return %r#0, %r#1, %r#0 : tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>
}

// -----

// Two hand-written regions, the second reading the first's result.
// INLINE-LABEL: func.func @two_regions(
// INLINE-SAME:      %[[X:[a-z0-9]+]]: tensor<4xf32>)
// INLINE-NEXT:    %[[E:.*]] = rlx.exp %[[X]] : tensor<4xf32>
// INLINE-NEXT:    %[[N:.*]] = rlx.neg %[[E]] : tensor<4xf32>
// INLINE-NEXT:    %[[SM:.*]] = rlx.softmax %[[N]] axis = 0 : tensor<4xf32>
// INLINE-NEXT:    %[[S:.*]] = rlx.add %[[SM]], %[[N]] : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
// INLINE-NEXT:    %[[R:.*]] = rlx.relu %[[S]] : tensor<4xf32>
// INLINE-NEXT:    return %[[R]] : tensor<4xf32>
func.func @two_regions(%x: tensor<4xf32>) -> tensor<4xf32> {
  %r0 = rlx.region elementwise ins(%x : tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%a: tensor<4xf32>):
    %0 = rlx.exp %a : tensor<4xf32>
    %1 = rlx.neg %0 : tensor<4xf32>
    rlx.yield %1 : tensor<4xf32>
  }
  %s = rlx.softmax %r0 axis = 0 : tensor<4xf32>
  %r1 = rlx.region elementwise ins(%s, %r0 : tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%a: tensor<4xf32>, %b: tensor<4xf32>):
    %0 = rlx.add %a, %b : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    %1 = rlx.relu %0 : tensor<4xf32>
    rlx.yield %1 : tensor<4xf32>
  }
  return %r1 : tensor<4xf32>
}

// -----

// A body argument yielded directly comes back as the region input.
// INLINE-LABEL: func.func @yield_argument(
// INLINE-SAME:    %[[X:.*]]: tensor<4xf32>)
// INLINE-NOT:     rlx.region
// INLINE:         %[[N:.*]] = rlx.neg %[[X]]
// INLINE:         return %[[N]], %[[X]]
func.func @yield_argument(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %r:2 = rlx.region elementwise ins(%x : tensor<4xf32>) -> tensor<4xf32>, tensor<4xf32> {
  ^bb0(%a: tensor<4xf32>):
    %0 = rlx.neg %a : tensor<4xf32>
    rlx.yield %0, %a : tensor<4xf32>, tensor<4xf32>
  }
  return %r#0, %r#1 : tensor<4xf32>, tensor<4xf32>
}

// -----

// Fused contractions expand into the ops they stand for: the contraction, the
// bias add (a conv bias reshaped to [1, C, 1, ...]), the residual add, the
// activation.
// INLINE-LABEL: func.func @fused_contractions(
// INLINE-SAME:      %[[A:[a-z0-9]+]]: tensor<2x4x8xf16>, %[[B:[a-z0-9]+]]: tensor<8x6xf16>, %[[BIAS:[a-z0-9]+]]: tensor<6xf16>, %[[R:[a-z0-9]+]]: tensor<2x4x6xf16>, %[[X:[a-z0-9]+]]: tensor<1x3x9xf32>, %[[W:[a-z0-9]+]]: tensor<4x3x3xf32>, %[[CB:[a-z0-9]+]]: tensor<4xf32>, %[[CR:[a-z0-9]+]]: tensor<1x4x4xf32>)
// INLINE-NEXT:    %[[M0:.*]] = rlx.matmul %[[A]], %[[B]] : (tensor<2x4x8xf16>, tensor<8x6xf16>) -> tensor<2x4x6xf16>
// INLINE-NEXT:    %[[S0:.*]] = rlx.add %[[M0]], %[[BIAS]] : (tensor<2x4x6xf16>, tensor<6xf16>) -> tensor<2x4x6xf16>
// INLINE-NEXT:    %[[Y0:.*]] = rlx.mish %[[S0]] : tensor<2x4x6xf16>
// INLINE-NEXT:    %[[M1:.*]] = rlx.matmul %[[A]], %[[B]] : (tensor<2x4x8xf16>, tensor<8x6xf16>) -> tensor<2x4x6xf16>
// INLINE-NEXT:    %[[Y1:.*]] = rlx.add %[[M1]], %[[R]] : (tensor<2x4x6xf16>, tensor<2x4x6xf16>) -> tensor<2x4x6xf16>
// INLINE-NEXT:    %[[C:.*]] = rlx.conv %[[X]], %[[W]] stride = [2] padding = [1, 0] dilation = [1] groups = 1 : (tensor<1x3x9xf32>, tensor<4x3x3xf32>) -> tensor<1x4x4xf32>
// INLINE-NEXT:    %[[CB3:.*]] = rlx.reshape %[[CB]] : tensor<4xf32> -> tensor<1x4x1xf32>
// INLINE-NEXT:    %[[S2:.*]] = rlx.add %[[C]], %[[CB3]] : (tensor<1x4x4xf32>, tensor<1x4x1xf32>) -> tensor<1x4x4xf32>
// INLINE-NEXT:    %[[Y2:.*]] = rlx.add %[[S2]], %[[CR]] : (tensor<1x4x4xf32>, tensor<1x4x4xf32>) -> tensor<1x4x4xf32>
// INLINE-NEXT:    return %[[Y0]], %[[Y1]], %[[Y2]]
func.func @fused_contractions(%a: tensor<2x4x8xf16>, %b: tensor<8x6xf16>, %bias: tensor<6xf16>,
                              %r: tensor<2x4x6xf16>, %x: tensor<1x3x9xf32>, %w: tensor<4x3x3xf32>,
                              %cb: tensor<4xf32>, %cr: tensor<1x4x4xf32>)
    -> (tensor<2x4x6xf16>, tensor<2x4x6xf16>, tensor<1x4x4xf32>) {
  %0 = rlx.matmul_bias_act %a, %b, %bias activation = mish
      : (tensor<2x4x8xf16>, tensor<8x6xf16>, tensor<6xf16>) -> tensor<2x4x6xf16>
  %1 = rlx.matmul_residual %a, %b, %r
      : (tensor<2x4x8xf16>, tensor<8x6xf16>, tensor<2x4x6xf16>) -> tensor<2x4x6xf16>
  %2 = rlx.conv_bias_act %x, %w, %cb, %cr stride = [2] padding = [1, 0] dilation = [1] groups = 1
      : (tensor<1x3x9xf32>, tensor<4x3x3xf32>, tensor<4xf32>, tensor<1x4x4xf32>) -> tensor<1x4x4xf32>
  return %0, %1, %2 : tensor<2x4x6xf16>, tensor<2x4x6xf16>, tensor<1x4x4xf32>
}

// -----

// rlx.lora_matmul expands into the main product, the adapter's two products,
// the scale (a rank-0 constant) and the sum.
// INLINE-LABEL: func.func @lora_matmul(
// INLINE-SAME:      %[[X:[a-z0-9]+]]: tensor<?x8xf16>, %[[W:[a-z0-9]+]]: tensor<8x6xf16>, %[[A:[a-z0-9]+]]: tensor<8x2xf16>, %[[B:[a-z0-9]+]]: tensor<2x6xf16>)
// INLINE-NEXT:    %[[P:.*]] = rlx.matmul %[[X]], %[[W]] : (tensor<?x8xf16>, tensor<8x6xf16>) -> tensor<?x6xf16>
// INLINE-NEXT:    %[[D:.*]] = rlx.matmul %[[X]], %[[A]] : (tensor<?x8xf16>, tensor<8x2xf16>) -> tensor<?x2xf16>
// INLINE-NEXT:    %[[U:.*]] = rlx.matmul %[[D]], %[[B]] : (tensor<?x2xf16>, tensor<2x6xf16>) -> tensor<?x6xf16>
// INLINE-NEXT:    %[[S:.*]] = rlx.constant dense<5.000000e-01> : tensor<f16>
// INLINE-NEXT:    %[[M:.*]] = rlx.mul %[[U]], %[[S]] : (tensor<?x6xf16>, tensor<f16>) -> tensor<?x6xf16>
// INLINE-NEXT:    %[[R:.*]] = rlx.add %[[P]], %[[M]] : (tensor<?x6xf16>, tensor<?x6xf16>) -> tensor<?x6xf16>
// INLINE-NEXT:    return %[[R]]
func.func @lora_matmul(%x: tensor<?x8xf16>, %w: tensor<8x6xf16>, %a: tensor<8x2xf16>, %b: tensor<2x6xf16>) -> tensor<?x6xf16> {
  %0 = rlx.lora_matmul %x, %w, %a, %b scale = 0.5
      : (tensor<?x8xf16>, tensor<8x6xf16>, tensor<8x2xf16>, tensor<2x6xf16>) -> tensor<?x6xf16>
  return %0 : tensor<?x6xf16>
}
