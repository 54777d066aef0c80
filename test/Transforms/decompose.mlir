// RUN: rlx-opt %s --rlx-decompose -split-input-file | FileCheck %s

// rlx.lstm: the biases merge into the input projection, one matmul over
// every step; the scan carries (h, c) from zeros of the `?` batch (sized by
// an expand like a [B, 1] tensor) and yields h twice (state and output).
// CHECK-LABEL: func.func @lstm(
// CHECK-SAME:    %[[X:[a-z0-9]+]]: tensor<?x?x3xf32>, %[[WI:[a-z0-9]+]]: tensor<32x3xf32>, %[[WH:[a-z0-9]+]]: tensor<32x8xf32>, %[[BI:[a-z0-9]+]]: tensor<32xf32>, %[[BH:[a-z0-9]+]]: tensor<32xf32>)
// CHECK:         %[[Z:.*]] = rlx.expand %{{.*}} : tensor<?x1xf32> -> tensor<?x8xf32>
// CHECK:         %[[WIT:.*]] = rlx.transpose %[[WI]] [1, 0]
// CHECK:         %[[P:.*]] = rlx.matmul %[[X]], %[[WIT]] : (tensor<?x?x3xf32>, tensor<3x32xf32>) -> tensor<?x?x32xf32>
// CHECK:         %[[B:.*]] = rlx.add %[[BI]], %[[BH]]
// CHECK:         %[[PB:.*]] = rlx.add %[[P]], %[[B]]
// CHECK:         %[[WHT:.*]] = rlx.transpose %[[WH]] [1, 0]
// CHECK:         %[[S:.*]]:3 = rlx.scan (%[[Z]], %[[Z]] : tensor<?x8xf32>, tensor<?x8xf32>) over (%[[PB]] : tensor<?x?x32xf32>) -> (tensor<?x8xf32>, tensor<?x8xf32>, tensor<?x?x8xf32>) {
// CHECK:         ^bb0(%[[H:[a-z0-9]+]]: tensor<?x8xf32>, %[[C:[a-z0-9]+]]: tensor<?x8xf32>, %[[PT:[a-z0-9]+]]: tensor<?x32xf32>):
// CHECK:           %[[R:.*]] = rlx.matmul %[[H]], %[[WHT]]
// CHECK:           %[[G:.*]] = rlx.add %[[PT]], %[[R]]
// CHECK:           %[[I:.*]] = rlx.narrow %[[G]] axis = 1, start = 0, length = 8
// CHECK:           rlx.narrow %[[G]] axis = 1, start = 8, length = 8
// CHECK:           rlx.narrow %[[G]] axis = 1, start = 16, length = 8
// CHECK:           rlx.narrow %[[G]] axis = 1, start = 24, length = 8
// CHECK:           %[[FC:.*]] = rlx.mul %{{.*}}, %[[C]]
// CHECK:           %[[NC:.*]] = rlx.add %[[FC]], %{{.*}}
// CHECK:           %[[TC:.*]] = rlx.tanh %[[NC]]
// CHECK:           %[[NH:.*]] = rlx.mul %{{.*}}, %[[TC]]
// CHECK:           rlx.yield %[[NH]], %[[NC]], %[[NH]]
// CHECK:         %[[HN:.*]] = rlx.reshape %[[S]]#0 : tensor<?x8xf32> -> tensor<1x?x8xf32>
// CHECK:         %[[CN:.*]] = rlx.reshape %[[S]]#1 : tensor<?x8xf32> -> tensor<1x?x8xf32>
// CHECK:         return %[[S]]#2, %[[HN]], %[[CN]]
func.func @lstm(%x: tensor<?x?x3xf32>, %wi: tensor<32x3xf32>, %wh: tensor<32x8xf32>, %bi: tensor<32xf32>, %bh: tensor<32xf32>) -> (tensor<?x?x8xf32>, tensor<1x?x8xf32>, tensor<1x?x8xf32>) {
  %y, %h, %c = rlx.lstm %x weights(%wi, %wh, %bi, %bh : tensor<32x3xf32>, tensor<32x8xf32>, tensor<32xf32>, tensor<32xf32>) : tensor<?x?x3xf32> -> tensor<?x?x8xf32>, tensor<1x?x8xf32>, tensor<1x?x8xf32>
  return %y, %h, %c : tensor<?x?x8xf32>, tensor<1x?x8xf32>, tensor<1x?x8xf32>
}

// -----

// rlx.gru: b_hh stays in the step (the reset gate scales the hidden term
// after its bias); the initial state is block 0 of h0; n + z * (h - n).
// CHECK-LABEL: func.func @gru(
// CHECK-SAME:    %{{[a-z0-9]+}}: tensor<5x?x3xf32>, %{{[a-z0-9]+}}: tensor<18x3xf32>, %{{[a-z0-9]+}}: tensor<18x6xf32>, %[[BI:[a-z0-9]+]]: tensor<18xf32>, %[[BH:[a-z0-9]+]]: tensor<18xf32>, %[[H0:[a-z0-9]+]]: tensor<1x?x6xf32>)
// CHECK:         %[[P:.*]] = rlx.add %{{.*}}, %[[BI]] : (tensor<5x?x18xf32>, tensor<18xf32>) -> tensor<5x?x18xf32>
// CHECK:         %[[B0:.*]] = rlx.narrow %[[H0]] axis = 0, start = 0, length = 1
// CHECK:         %[[I:.*]] = rlx.reshape %[[B0]] : tensor<1x?x6xf32> -> tensor<?x6xf32>
// CHECK:         rlx.scan (%[[I]] : tensor<?x6xf32>) over (%[[P]] : tensor<5x?x18xf32>)
// CHECK:         ^bb0(%[[H:[a-z0-9]+]]: tensor<?x6xf32>, %{{[a-z0-9]+}}: tensor<?x18xf32>):
// CHECK:           %[[Q:.*]] = rlx.matmul %[[H]], %{{.*}}
// CHECK:           rlx.add %[[Q]], %[[BH]]
// CHECK:           %[[N:.*]] = rlx.tanh
// CHECK:           %[[D:.*]] = rlx.sub %[[H]], %[[N]]
// CHECK:           %[[ZD:.*]] = rlx.mul %{{.*}}, %[[D]]
// CHECK:           %[[NH:.*]] = rlx.add %[[N]], %[[ZD]]
// CHECK:           rlx.yield %[[NH]], %[[NH]]
func.func @gru(%x: tensor<5x?x3xf32>, %wi: tensor<18x3xf32>, %wh: tensor<18x6xf32>, %bi: tensor<18xf32>, %bh: tensor<18xf32>, %h0: tensor<1x?x6xf32>) -> (tensor<5x?x6xf32>, tensor<1x?x6xf32>) {
  %y, %h = rlx.gru %x weights(%wi, %wh, %bi, %bh : tensor<18x3xf32>, tensor<18x6xf32>, tensor<18xf32>, tensor<18xf32>) initial(%h0 : tensor<1x?x6xf32>) : tensor<5x?x3xf32> -> tensor<5x?x6xf32>, tensor<1x?x6xf32>
  return %y, %h : tensor<5x?x6xf32>, tensor<1x?x6xf32>
}

// -----

// A bidirectional relu RNN without biases over zero steps (static zeros):
// the reverse direction scans backwards; the directions' outputs
// concatenate along the features, their final states along the blocks.
// CHECK-LABEL: func.func @rnn(
// CHECK:         %[[Z:.*]] = rlx.constant dense<0.000000e+00> : tensor<2x4xf32>
// CHECK:         %[[F:.*]]:2 = rlx.scan (%[[Z]] : tensor<2x4xf32>) over (%{{.*}} : tensor<0x2x4xf32>) -> (tensor<2x4xf32>, tensor<0x2x4xf32>)
// CHECK:           rlx.relu
// CHECK:         %[[R:.*]]:2 = rlx.scan (%[[Z]] : tensor<2x4xf32>) over (%{{.*}} : tensor<0x2x4xf32>) reverse -> (tensor<2x4xf32>, tensor<0x2x4xf32>)
// CHECK:         %[[Y:.*]] = rlx.concat %[[F]]#1, %[[R]]#1 axis = 2 : (tensor<0x2x4xf32>, tensor<0x2x4xf32>) -> tensor<0x2x8xf32>
// CHECK:         %[[HF:.*]] = rlx.reshape %[[F]]#0 : tensor<2x4xf32> -> tensor<1x2x4xf32>
// CHECK:         %[[HR:.*]] = rlx.reshape %[[R]]#0 : tensor<2x4xf32> -> tensor<1x2x4xf32>
// CHECK:         %[[HN:.*]] = rlx.concat %[[HF]], %[[HR]] axis = 0
// CHECK:         return %[[Y]], %[[HN]]
func.func @rnn(%x: tensor<0x2x3xf32>, %a: tensor<4x3xf32>, %b: tensor<4x4xf32>) -> (tensor<0x2x8xf32>, tensor<2x2x4xf32>) {
  %y, %h = rlx.rnn %x weights(%a, %b, %a, %b : tensor<4x3xf32>, tensor<4x4xf32>, tensor<4x3xf32>, tensor<4x4xf32>) bidirectional relu : tensor<0x2x3xf32> -> tensor<0x2x8xf32>, tensor<2x2x4xf32>
  return %y, %h : tensor<0x2x8xf32>, tensor<2x2x4xf32>
}

// -----

// Layer 1 reads layer 0's output; batch-first scans along axis 1.
// CHECK-LABEL: func.func @stack(
// CHECK:         %[[S0:.*]]:2 = rlx.scan (%{{.*}} : tensor<2x4xf32>) over (%{{.*}} : tensor<2x5x4xf32>) axis = 1 -> (tensor<2x4xf32>, tensor<2x5x4xf32>)
// CHECK:         rlx.matmul %[[S0]]#1, %{{.*}} : (tensor<2x5x4xf32>, tensor<4x4xf32>) -> tensor<2x5x4xf32>
// CHECK:         rlx.scan (%{{.*}} : tensor<2x4xf32>) over (%{{.*}} : tensor<2x5x4xf32>) axis = 1
// CHECK:         rlx.concat %{{.*}}, %{{.*}} axis = 0 : (tensor<1x2x4xf32>, tensor<1x2x4xf32>) -> tensor<2x2x4xf32>
func.func @stack(%x: tensor<2x5x3xf32>, %a: tensor<4x3xf32>, %b: tensor<4x4xf32>) -> tensor<2x2x4xf32> {
  %y, %h = rlx.rnn %x weights(%a, %b, %b, %b : tensor<4x3xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>) layers = 2 batch_first : tensor<2x5x3xf32> -> tensor<2x5x4xf32>, tensor<2x2x4xf32>
  return %h : tensor<2x2x4xf32>
}

// -----

// Nothing to decompose: the IR is unchanged.
// CHECK-LABEL: func.func @plain(
// CHECK-NEXT:    rlx.tanh
// CHECK-NEXT:    return
func.func @plain(%x: tensor<4xf32>) -> tensor<4xf32> {
  %t = rlx.tanh %x : tensor<4xf32>
  return %t : tensor<4xf32>
}

// -----

// rlx.selective_scan, 5 steps in chunks of 2: dt = softplus(delta + bias),
// the sequence padded by one step and split into [chunks, T] (B and C
// chunk-major as [batch, G, chunks, N, T]); the scan over chunks carries
// h [batch, D, N] from zeros; each chunk's decays are exp of the masked
// differences of the log decays' running sums, one matmul applies them to
// the chunk's inputs, and the state leaving is the last step's.
// CHECK-LABEL: func.func @selective_scan(
// CHECK-SAME:    %[[U:[a-z0-9]+]]: tensor<2x4x5xf32>, %[[DT:[a-z0-9]+]]: tensor<2x4x5xf32>, %[[A:[a-z0-9]+]]: tensor<4x3xf32>, %[[B:[a-z0-9]+]]: tensor<2x3x5xf32>, %[[C:[a-z0-9]+]]: tensor<2x3x5xf32>, %[[BIAS:[a-z0-9]+]]: tensor<4xf32>)
// CHECK:         %[[BCOL:.*]] = rlx.reshape %[[BIAS]] : tensor<4xf32> -> tensor<4x1xf32>
// CHECK:         %[[BIASED:.*]] = rlx.add %[[DT]], %[[BCOL]]
// CHECK:         %[[STEP:.*]] = rlx.softplus %[[BIASED]]
// CHECK:         %[[DU:.*]] = rlx.mul %[[STEP]], %[[U]]
// CHECK:         %[[BG:.*]] = rlx.reshape %[[B]] : tensor<2x3x5xf32> -> tensor<2x1x3x5xf32>
// CHECK:         %[[BP:.*]] = rlx.pad constant %[[BG]] pads = [0, 0, 0, 0, 0, 0, 0, 1] : tensor<2x1x3x5xf32> -> tensor<2x1x3x6xf32>
// CHECK:         %[[BS:.*]] = rlx.reshape %[[BP]] : tensor<2x1x3x6xf32> -> tensor<2x1x3x3x2xf32>
// CHECK:         %[[BC:.*]] = rlx.transpose %[[BS]] [0, 1, 3, 2, 4] : tensor<2x1x3x3x2xf32> -> tensor<2x1x3x3x2xf32>
// CHECK:         %[[Z:.*]] = rlx.constant dense<0.000000e+00> : tensor<2x4x3xf32>
// CHECK:         rlx.pad constant %[[STEP]] pads = [0, 0, 0, 0, 0, 1] : tensor<2x4x5xf32> -> tensor<2x4x6xf32>
// CHECK:         %[[S:.*]]:2 = rlx.scan (%[[Z]] : tensor<2x4x3xf32>) over ({{.*}} : tensor<2x4x3x2xf32>, tensor<2x4x3x2xf32>, tensor<2x1x3x3x2xf32>, tensor<2x1x3x3x2xf32>) axis = 2 -> (tensor<2x4x3xf32>, tensor<2x4x3x2xf32>) {
// CHECK:         ^bb0(%[[H:[a-z0-9]+]]: tensor<2x4x3xf32>, %{{[a-z0-9]+}}: tensor<2x4x2xf32>, %{{[a-z0-9]+}}: tensor<2x4x2xf32>, %{{[a-z0-9]+}}: tensor<2x1x3x2xf32>, %{{[a-z0-9]+}}: tensor<2x1x3x2xf32>):
// CHECK:           %[[CUM:.*]] = rlx.cumsum %{{.*}} axis = 3 : tensor<2x4x3x2xf32>
// CHECK:           %[[DIFF:.*]] = rlx.sub
// CHECK-SAME:        -> tensor<2x4x3x2x2xf32>
// CHECK:           %[[MASK:.*]] = rlx.constant dense<{{\[}}[true, false], [true, true]]> : tensor<2x2xi1>
// CHECK:           %[[NEGINF:.*]] = rlx.constant dense<0xFF800000> : tensor<f32>
// CHECK:           %[[MASKED:.*]] = rlx.where %[[MASK]], %[[DIFF]], %[[NEGINF]]
// CHECK:           %[[DECAYS:.*]] = rlx.exp %[[MASKED]] : tensor<2x4x3x2x2xf32>
// CHECK:           rlx.matmul %[[DECAYS]], %{{.*}} : (tensor<2x4x3x2x2xf32>, tensor<2x4x3x2x1xf32>) -> tensor<2x4x3x2x1xf32>
// CHECK:           %[[ENTER:.*]] = rlx.exp %[[CUM]]
// CHECK:           %[[HCOL:.*]] = rlx.reshape %[[H]] : tensor<2x4x3xf32> -> tensor<2x4x3x1xf32>
// CHECK:           rlx.mul %[[ENTER]], %[[HCOL]]
// CHECK:           %[[STATES:.*]] = rlx.add
// CHECK:           rlx.reduce sum %{{.*}} axes = [3] : tensor<2x1x4x3x2xf32> -> tensor<2x1x4x2xf32>
// CHECK:           %[[LAST:.*]] = rlx.narrow %[[STATES]] axis = 3, start = 1, length = 1
// CHECK:           %[[NEXT:.*]] = rlx.reshape %[[LAST]] : tensor<2x4x3x1xf32> -> tensor<2x4x3xf32>
// CHECK:           rlx.yield %[[NEXT]], %{{.*}} : tensor<2x4x3xf32>, tensor<2x4x2xf32>
// CHECK:         %[[Y:.*]] = rlx.reshape %[[S]]#1 : tensor<2x4x3x2xf32> -> tensor<2x4x6xf32>
// CHECK:         %[[YC:.*]] = rlx.narrow %[[Y]] axis = 2, start = 0, length = 5
// CHECK:         return %[[YC]], %[[S]]#0
func.func @selective_scan(%u: tensor<2x4x5xf32>, %dt: tensor<2x4x5xf32>, %A: tensor<4x3xf32>, %B: tensor<2x3x5xf32>, %C: tensor<2x3x5xf32>, %bias: tensor<4xf32>) -> (tensor<2x4x5xf32>, tensor<2x4x3xf32>) {
  %y, %h = rlx.selective_scan %u, %dt, %A, %B, %C delta_bias(%bias) delta_softplus chunk = 2 : (tensor<2x4x5xf32>, tensor<2x4x5xf32>, tensor<4x3xf32>, tensor<2x3x5xf32>, tensor<2x3x5xf32>, tensor<4xf32>) -> (tensor<2x4x5xf32>, tensor<2x4x3xf32>)
  return %y, %h : tensor<2x4x5xf32>, tensor<2x4x3xf32>
}

// -----

// rlx.mamba2 with a `?` length: one step per chunk (no static pad reaches a
// `?` length), head-major; the scan starts from the initial state and the
// D skip and z gate follow it.
// CHECK-LABEL: func.func @mamba2(
// CHECK-SAME:    %[[X:[a-z0-9]+]]: tensor<2x?x4x3xf32>, %[[DT:[a-z0-9]+]]: tensor<2x?x4xf32>, %[[A:[a-z0-9]+]]: tensor<4xf32>, %[[B:[a-z0-9]+]]: tensor<2x?x2x5xf32>, %[[C:[a-z0-9]+]]: tensor<2x?x2x5xf32>, %[[D:[a-z0-9]+]]: tensor<4xf32>, %[[Z:[a-z0-9]+]]: tensor<2x?x4x3xf32>, %[[H0:[a-z0-9]+]]: tensor<2x4x3x5xf32>)
// CHECK:         %[[DTC:.*]] = rlx.reshape %[[DT]] : tensor<2x?x4xf32> -> tensor<2x?x4x1xf32>
// CHECK:         %[[XS:.*]] = rlx.mul %[[X]], %[[DTC]]
// CHECK:         %[[LOG:.*]] = rlx.mul %[[DT]], %[[A]] : (tensor<2x?x4xf32>, tensor<4xf32>) -> tensor<2x?x4xf32>
// CHECK:         %[[XT:.*]] = rlx.transpose %[[XS]] [0, 2, 1, 3] : tensor<2x?x4x3xf32> -> tensor<2x4x?x3xf32>
// CHECK:         %[[XC:.*]] = rlx.reshape %[[XT]] : tensor<2x4x?x3xf32> -> tensor<2x4x?x1x3xf32>
// CHECK:         %[[S:.*]]:2 = rlx.scan (%[[H0]] : tensor<2x4x3x5xf32>) over (%[[XC]], {{.*}} : tensor<2x4x?x1x3xf32>, tensor<2x4x?x1xf32>, tensor<2x2x?x1x5xf32>, tensor<2x2x?x1x5xf32>) axis = 2 -> (tensor<2x4x3x5xf32>, tensor<2x4x?x1x3xf32>) {
// CHECK:         ^bb0(%[[H:[a-z0-9]+]]: tensor<2x4x3x5xf32>, %{{[a-z0-9]+}}: tensor<2x4x1x3xf32>, %{{[a-z0-9]+}}: tensor<2x4x1xf32>, %[[BK:[a-z0-9]+]]: tensor<2x2x1x5xf32>, %[[CK:[a-z0-9]+]]: tensor<2x2x1x5xf32>):
// CHECK:           %[[BT:.*]] = rlx.transpose %[[BK]] [0, 1, 3, 2]
// CHECK:           rlx.matmul %[[CK]], %[[BT]] : (tensor<2x2x1x5xf32>, tensor<2x2x5x1xf32>) -> tensor<2x2x1x1xf32>
// CHECK:           %[[HG:.*]] = rlx.reshape %[[H]] : tensor<2x4x3x5xf32> -> tensor<2x2x2x3x5xf32>
// CHECK:           %[[HT:.*]] = rlx.transpose %[[HG]] [0, 1, 2, 4, 3]
// CHECK:           rlx.matmul %{{.*}}, %[[HT]] : (tensor<2x2x1x1x5xf32>, tensor<2x2x2x5x3xf32>) -> tensor<2x2x2x1x3xf32>
// CHECK:           rlx.mul %{{.*}}, %[[H]] : (tensor<2x4x1x1xf32>, tensor<2x4x3x5xf32>) -> tensor<2x4x3x5xf32>
// CHECK:           rlx.yield
// CHECK:         %[[Y:.*]] = rlx.reshape %[[S]]#1 : tensor<2x4x?x1x3xf32> -> tensor<2x4x?x3xf32>
// CHECK:         %[[YT:.*]] = rlx.transpose %[[Y]] [0, 2, 1, 3] : tensor<2x4x?x3xf32> -> tensor<2x?x4x3xf32>
// CHECK:         %[[DC:.*]] = rlx.reshape %[[D]] : tensor<4xf32> -> tensor<4x1xf32>
// CHECK:         %[[SKIP:.*]] = rlx.mul %[[DC]], %[[X]]
// CHECK:         %[[SUM:.*]] = rlx.add %[[YT]], %[[SKIP]]
// CHECK:         %[[GATE:.*]] = rlx.silu %[[Z]]
// CHECK:         %[[OUT:.*]] = rlx.mul %[[SUM]], %[[GATE]]
// CHECK:         return %[[OUT]], %[[S]]#0
func.func @mamba2(%x: tensor<2x?x4x3xf32>, %dt: tensor<2x?x4xf32>, %A: tensor<4xf32>, %B: tensor<2x?x2x5xf32>, %C: tensor<2x?x2x5xf32>, %D: tensor<4xf32>, %z: tensor<2x?x4x3xf32>, %h0: tensor<2x4x3x5xf32>) -> (tensor<2x?x4x3xf32>, tensor<2x4x3x5xf32>) {
  %y, %h = rlx.mamba2 %x, %dt, %A, %B, %C D(%D) z(%z) initial(%h0) : (tensor<2x?x4x3xf32>, tensor<2x?x4xf32>, tensor<4xf32>, tensor<2x?x2x5xf32>, tensor<2x?x2x5xf32>, tensor<4xf32>, tensor<2x?x4x3xf32>, tensor<2x4x3x5xf32>) -> (tensor<2x?x4x3xf32>, tensor<2x4x3x5xf32>)
  return %y, %h : tensor<2x?x4x3xf32>, tensor<2x4x3x5xf32>
}

// -----

// rlx.gated_delta_net, 4 steps in one chunk (no padding), default scale
// 1/sqrt(K) = 0.5, zeros of the `?` batch as the state: the strictly lower
// A is masked with zeros and (I + A)^-1 is (I - A)(I + A^2), one squaring
// for 4 steps.
// CHECK-LABEL: func.func @gated_delta_net(
// CHECK:         %[[SCALE:.*]] = rlx.constant dense<5.000000e-01> : tensor<f32>
// CHECK:         rlx.mul %{{.*}}, %[[SCALE]] : (tensor<?x4x2x4xf32>, tensor<f32>) -> tensor<?x4x2x4xf32>
// CHECK:         %[[ZEROS:.*]] = rlx.expand %{{.*}} : tensor<?x1x1x1xf32> -> tensor<?x2x3x4xf32>
// CHECK:         rlx.scan (%[[ZEROS]] : tensor<?x2x3x4xf32>) over ({{.*}}) axis = 2 -> (tensor<?x2x3x4xf32>, tensor<?x2x1x4x3xf32>) {
// CHECK:           %[[STRICT:.*]] = rlx.constant dense<{{\[}}[false, false, false, false], [true, false, false, false], [true, true, false, false], [true, true, true, false]]> : tensor<4x4xi1>
// CHECK:           %[[ZERO:.*]] = rlx.constant dense<0.000000e+00> : tensor<f32>
// CHECK:           %[[AM:.*]] = rlx.where %[[STRICT]], %{{.*}}, %[[ZERO]]
// CHECK:           %[[I:.*]] = rlx.constant dense<{{\[}}[1.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00], {{.*}}> : tensor<4x4xf32>
// CHECK:           %[[IMA:.*]] = rlx.sub %[[I]], %[[AM]]
// CHECK:           %[[A2:.*]] = rlx.matmul %[[AM]], %[[AM]]
// CHECK:           %[[IPA2:.*]] = rlx.add %[[I]], %[[A2]]
// CHECK:           %[[T:.*]] = rlx.matmul %[[IMA]], %[[IPA2]]
// CHECK-NOT:       rlx.matmul %[[A2]], %[[A2]]
// CHECK:           rlx.matmul %[[T]], %{{.*}} : (tensor<?x2x4x4xf32>, tensor<?x2x4x4xf32>) -> tensor<?x2x4x4xf32>
// CHECK:           rlx.yield
func.func @gated_delta_net(%q: tensor<?x4x2x4xf32>, %k: tensor<?x4x2x4xf32>, %v: tensor<?x4x2x3xf32>, %g: tensor<?x4x2xf32>, %beta: tensor<?x4x2xf32>) -> (tensor<?x4x2x3xf32>, tensor<?x2x3x4xf32>) {
  %o, %s = rlx.gated_delta_net %q, %k, %v, %g, %beta chunk = 4 : (tensor<?x4x2x4xf32>, tensor<?x4x2x4xf32>, tensor<?x4x2x3xf32>, tensor<?x4x2xf32>, tensor<?x4x2xf32>) -> (tensor<?x4x2x3xf32>, tensor<?x2x3x4xf32>)
  return %o, %s : tensor<?x4x2x3xf32>, tensor<?x2x3x4xf32>
}

// -----

// A function of symmetric matrices: the eigendecomposition, the function
// of the eigenvalues scaling the eigenvectors' columns, and the product
// with v^T.
// CHECK-LABEL: func.func @logm(
// CHECK-SAME:    %[[A:.*]]: tensor<2x3x3xf64>
// CHECK:         %[[L:.*]], %[[V:.*]] = rlx.eigh %[[A]]
// CHECK:         %[[F:.*]] = rlx.log %[[L]] : tensor<2x3xf64>
// CHECK:         %[[ROW:.*]] = rlx.reshape %[[F]] : tensor<2x3xf64> -> tensor<2x1x3xf64>
// CHECK:         %[[SCALED:.*]] = rlx.mul %[[V]], %[[ROW]]
// CHECK:         %[[VT:.*]] = rlx.transpose %[[V]] [0, 2, 1]
// CHECK:         %[[R:.*]] = rlx.matmul %[[SCALED]], %[[VT]]
// CHECK:         return %[[R]]
func.func @logm(%a: tensor<2x3x3xf64>) -> tensor<2x3x3xf64> {
  %e = rlx.logm %a : tensor<2x3x3xf64>
  return %e : tensor<2x3x3xf64>
}

// -----

// The others differ only in the function: rsqrt for invsqrtm; `?` sizes.
// CHECK-LABEL: func.func @invsqrtm(
// CHECK:         %[[L:.*]], %[[V:.*]] = rlx.eigh
// CHECK:         rlx.rsqrt %[[L]] : tensor<?xf32>
// CHECK:         rlx.reshape %{{.*}} : tensor<?xf32> -> tensor<1x?xf32>
// CHECK-NOT:     rlx.invsqrtm
func.func @invsqrtm(%a: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %e = rlx.invsqrtm %a : tensor<?x?xf32>
  return %e : tensor<?x?xf32>
}

// -----

// rlx.log_mel: reflected padding of n_fft / 2, the frames gathered by a
// constant index table [frames, n_fft], the periodic Hann window, the power
// spectrum, the mel filterbank [n_fft / 2 + 1, n_mels], log(x + eps), and
// torchaudio's [..., n_mels, frames] layout.
// CHECK-LABEL: func.func @log_mel(
// CHECK:         %[[PAD:.*]] = rlx.pad reflect %{{.*}} pads = [0, 0, 64, 64] : tensor<?x1000xf32> -> tensor<?x1128xf32>
// CHECK:         %[[IDX:.*]] = rlx.constant dense<{{.*}}> : tensor<11x128xi64>
// CHECK:         %[[FRAMES:.*]] = rlx.gather %[[PAD]], %[[IDX]] axis = -1 : (tensor<?x1128xf32>, tensor<11x128xi64>) -> tensor<?x11x128xf32>
// CHECK:         %[[WINDOW:.*]] = rlx.constant dense<{{.*}}> : tensor<128xf32>
// CHECK:         %[[WINDOWED:.*]] = rlx.mul %[[FRAMES]], %[[WINDOW]]
// CHECK:         %[[SPECTRUM:.*]] = rlx.rfft %[[WINDOWED]] : tensor<?x11x128xf32> -> tensor<?x11x65xcomplex<f32>>
// CHECK:         %[[POWER:.*]] = rlx.complex_norm_sq %[[SPECTRUM]]
// CHECK:         %[[BANK:.*]] = rlx.constant dense<{{.*}}> : tensor<65x8xf32>
// CHECK:         %[[MEL:.*]] = rlx.matmul %[[POWER]], %[[BANK]]
// CHECK:         %[[EPS:.*]] = rlx.constant dense<1.000000e-10> : tensor<f32>
// CHECK:         %[[SHIFTED:.*]] = rlx.add %[[MEL]], %[[EPS]]
// CHECK:         %[[LOG:.*]] = rlx.log %[[SHIFTED]]
// CHECK:         rlx.transpose %[[LOG]] [0, 2, 1] : tensor<?x11x8xf32> -> tensor<?x8x11xf32>
func.func @log_mel(%a: tensor<?x1000xf32>) -> tensor<?x8x11xf32> {
  %0 = rlx.log_mel %a sample_rate = 8000.0 n_fft = 128 hop_length = 100 n_mels = 8 : tensor<?x1000xf32> -> tensor<?x8x11xf32>
  return %0 : tensor<?x8x11xf32>
}

// -----

// rlx.welch_peaks: 19 segments of 100 every 50 samples, each centered and
// windowed; the density scale (1 / (fs sum w^2) = 1/37.5, doubled but for
// the zero and Nyquist bins), the mean over segments, the top k.
// CHECK-LABEL: func.func @welch_peaks(
// CHECK:         %[[SEGMENTS:.*]] = rlx.gather %{{.*}}, %{{.*}} axis = -1 : (tensor<3x1000xf64>, tensor<19x100xi64>) -> tensor<3x19x100xf64>
// CHECK:         %[[MEAN:.*]] = rlx.reduce mean %[[SEGMENTS]] axes = [2] keep_dim
// CHECK:         %[[CENTERED:.*]] = rlx.sub %[[SEGMENTS]], %[[MEAN]]
// CHECK:         %[[WINDOWED:.*]] = rlx.mul %[[CENTERED]], %{{.*}} : (tensor<3x19x100xf64>, tensor<100xf64>)
// CHECK:         %[[SPECTRUM:.*]] = rlx.rfft %[[WINDOWED]] : tensor<3x19x100xf64> -> tensor<3x19x51xcomplex<f64>>
// CHECK:         %[[POWER:.*]] = rlx.complex_norm_sq %[[SPECTRUM]]
// CHECK:         %[[SCALE:.*]] = rlx.constant dense<[0.026666666666666668, 0.053333333333333337, {{.*}}, 0.053333333333333337, 0.026666666666666668]> : tensor<51xf64>
// CHECK:         %[[DENSITY:.*]] = rlx.mul %[[POWER]], %[[SCALE]]
// CHECK:         %[[AVERAGE:.*]] = rlx.reduce mean %[[DENSITY]] axes = [1] : tensor<3x19x51xf64> -> tensor<3x51xf64>
// CHECK:         %{{.*}}, %{{.*}} = rlx.topk %[[AVERAGE]] k = 2 : tensor<3x51xf64> -> tensor<3x2xf64>, tensor<3x2xi64>
func.func @welch_peaks(%a: tensor<3x1000xf64>) -> (tensor<3x2xf64>, tensor<3x2xi64>) {
  %0, %1 = rlx.welch_peaks %a segment = 100 k = 2 : tensor<3x1000xf64> -> tensor<3x2xf64>, tensor<3x2xi64>
  return %0, %1 : tensor<3x2xf64>, tensor<3x2xi64>
}
