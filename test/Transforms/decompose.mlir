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
