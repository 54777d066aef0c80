// RUN: rlx-opt %s | rlx-opt | FileCheck %s
// RUN: rlx-opt %s --mlir-print-op-generic | rlx-opt | FileCheck %s

// One LSTM layer with biases and no initial states, `?` time and batch.
// CHECK-LABEL: func.func @lstm(
// CHECK:         rlx.lstm %{{.*}} weights(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : tensor<32x3xf32>, tensor<32x8xf32>, tensor<32xf32>, tensor<32xf32>) : tensor<?x?x3xf32> -> tensor<?x?x8xf32>, tensor<1x?x8xf32>, tensor<1x?x8xf32>
func.func @lstm(%x: tensor<?x?x3xf32>, %wi: tensor<32x3xf32>, %wh: tensor<32x8xf32>, %bi: tensor<32xf32>, %bh: tensor<32xf32>) -> (tensor<?x?x8xf32>, tensor<1x?x8xf32>, tensor<1x?x8xf32>) {
  %y, %h, %c = rlx.lstm %x weights(%wi, %wh, %bi, %bh : tensor<32x3xf32>, tensor<32x8xf32>, tensor<32xf32>, tensor<32xf32>) : tensor<?x?x3xf32> -> tensor<?x?x8xf32>, tensor<1x?x8xf32>, tensor<1x?x8xf32>
  return %y, %h, %c : tensor<?x?x8xf32>, tensor<1x?x8xf32>, tensor<1x?x8xf32>
}

// Two bidirectional layers, batch-first, initial states: layer 1 reads
// 2 * 4 features; the states are [L*D, B, H] = [4, 2, 4].
// CHECK-LABEL: func.func @lstm_stack(
// CHECK:         rlx.lstm %{{.*}} weights({{.*}}) initial(%{{.*}}, %{{.*}} : tensor<4x2x4xf64>, tensor<4x2x4xf64>) layers = 2 bidirectional batch_first : tensor<2x5x3xf64> -> tensor<2x5x8xf64>, tensor<4x2x4xf64>, tensor<4x2x4xf64>
func.func @lstm_stack(%x: tensor<2x5x3xf64>, %a: tensor<16x3xf64>, %b: tensor<16x4xf64>, %c: tensor<16x8xf64>, %h0: tensor<4x2x4xf64>, %c0: tensor<4x2x4xf64>) -> tensor<2x5x8xf64> {
  %y, %h, %cn = rlx.lstm %x weights(%a, %b, %a, %b, %c, %b, %c, %b : tensor<16x3xf64>, tensor<16x4xf64>, tensor<16x3xf64>, tensor<16x4xf64>, tensor<16x8xf64>, tensor<16x4xf64>, tensor<16x8xf64>, tensor<16x4xf64>) initial(%h0, %c0 : tensor<4x2x4xf64>, tensor<4x2x4xf64>) layers = 2 bidirectional batch_first : tensor<2x5x3xf64> -> tensor<2x5x8xf64>, tensor<4x2x4xf64>, tensor<4x2x4xf64>
  return %y : tensor<2x5x8xf64>
}

// A GRU with an initial state, zero steps.
// CHECK-LABEL: func.func @gru(
// CHECK:         rlx.gru %{{.*}} weights({{.*}}) initial(%{{.*}} : tensor<1x4x6xf32>) : tensor<0x4x3xf32> -> tensor<0x4x6xf32>, tensor<1x4x6xf32>
func.func @gru(%x: tensor<0x4x3xf32>, %wi: tensor<18x3xf32>, %wh: tensor<18x6xf32>, %bi: tensor<18xf32>, %bh: tensor<18xf32>, %h0: tensor<1x4x6xf32>) -> tensor<1x4x6xf32> {
  %y, %h = rlx.gru %x weights(%wi, %wh, %bi, %bh : tensor<18x3xf32>, tensor<18x6xf32>, tensor<18xf32>, tensor<18xf32>) initial(%h0 : tensor<1x4x6xf32>) : tensor<0x4x3xf32> -> tensor<0x4x6xf32>, tensor<1x4x6xf32>
  return %h : tensor<1x4x6xf32>
}

// An Elman RNN with relu and no biases; bf16.
// CHECK-LABEL: func.func @rnn(
// CHECK:         rlx.rnn %{{.*}} weights(%{{.*}}, %{{.*}} : tensor<8x3xbf16>, tensor<8x8xbf16>) relu : tensor<?x?x3xbf16> -> tensor<?x?x8xbf16>, tensor<1x?x8xbf16>
func.func @rnn(%x: tensor<?x?x3xbf16>, %wi: tensor<8x3xbf16>, %wh: tensor<8x8xbf16>) -> tensor<?x?x8xbf16> {
  %y, %h = rlx.rnn %x weights(%wi, %wh : tensor<8x3xbf16>, tensor<8x8xbf16>) relu : tensor<?x?x3xbf16> -> tensor<?x?x8xbf16>, tensor<1x?x8xbf16>
  return %y : tensor<?x?x8xbf16>
}
