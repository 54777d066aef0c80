// RUN: rlx-opt %s -split-input-file -verify-diagnostics

// Every rlx op rejects an operand or result whose element count or byte
// size does not fit in int64_t (the 64-bit index offsets are computed in),
// before its own verifier and before any folder sees it.

// 2^62 * 4 elements: the count overflows.
func.func @elementwise_count(%x: tensor<4611686018427387904x4xf32>) {
  // expected-error @+1 {{'rlx.exp' op operand #0 of type 'tensor<4611686018427387904x4xf32>' has more elements or bytes than fit in a 64-bit index (at most 2^63 - 1 bytes per tensor)}}
  %0 = rlx.exp %x : tensor<4611686018427387904x4xf32>
  return
}

// -----

// 2^61 f32 elements fit, their 2^63 bytes do not.
func.func @binary_bytes(%x: tensor<2305843009213693952xf32>) {
  // expected-error @+1 {{'rlx.add' op operand #0 of type 'tensor<2305843009213693952xf32>' has more elements or bytes than fit in a 64-bit index}}
  %0 = rlx.add %x, %x : (tensor<2305843009213693952xf32>, tensor<2305843009213693952xf32>) -> tensor<2305843009213693952xf32>
  return
}

// -----

// The product of dims overflows only after the third factor.
func.func @matmul_count(%a: tensor<4294967296x4294967296x2xf32>, %b: tensor<2x3xf32>) {
  // expected-error @+1 {{'rlx.matmul' op operand #0 of type 'tensor<4294967296x4294967296x2xf32>' has more elements or bytes than fit in a 64-bit index}}
  %0 = rlx.matmul %a, %b : (tensor<4294967296x4294967296x2xf32>, tensor<2x3xf32>) -> tensor<4294967296x4294967296x3xf32>
  return
}

// -----

func.func @softmax_count(%x: tensor<3x4611686018427387904xf16>) {
  // expected-error @+1 {{'rlx.softmax' op operand #0 of type 'tensor<3x4611686018427387904xf16>' has more elements or bytes than fit in a 64-bit index}}
  %0 = rlx.softmax %x axis = 1 : tensor<3x4611686018427387904xf16>
  return
}

// -----

func.func @loss_count(%l: tensor<4x4611686018427387904xf32>, %y: tensor<4xi64>) {
  // expected-error @+1 {{'rlx.softmax_cross_entropy_with_labels' op operand #0 of type 'tensor<4x4611686018427387904xf32>' has more elements or bytes than fit in a 64-bit index}}
  %0 = rlx.softmax_cross_entropy_with_labels %l, %y : (tensor<4x4611686018427387904xf32>, tensor<4xi64>) -> tensor<4xf32>
  return
}

// -----

// A result can be too large where the operands are not.
func.func @expand_result(%x: tensor<1x8xi8>) {
  // expected-error @+1 {{'rlx.expand' op result #0 of type 'tensor<9223372036854775807x8xi8>' has more elements or bytes than fit in a 64-bit index}}
  %0 = rlx.expand %x : tensor<1x8xi8> -> tensor<9223372036854775807x8xi8>
  return
}

// -----

func.func @reduce_count(%x: tensor<8x1152921504606846976xi64>) {
  // expected-error @+1 {{'rlx.reduce' op operand #0 of type 'tensor<8x1152921504606846976xi64>' has more elements or bytes than fit in a 64-bit index}}
  %0 = rlx.reduce sum %x axes = [1] : tensor<8x1152921504606846976xi64> -> tensor<8xi64>
  return
}

// -----

func.func @gather_result(%t: tensor<3037000500x3037000500xf32>, %i: tensor<2xi32>) {
  // expected-error @+1 {{'rlx.gather' op operand #0 of type 'tensor<3037000500x3037000500xf32>' has more elements or bytes than fit in a 64-bit index}}
  %0 = rlx.gather %t, %i axis = 0 : (tensor<3037000500x3037000500xf32>, tensor<2xi32>) -> tensor<2x3037000500xf32>
  return
}

// -----

func.func @conv_count(%x: tensor<1x1x4294967296x4294967296xf32>, %w: tensor<1x1x1x1xf32>) {
  // expected-error @+1 {{'rlx.conv' op operand #0 of type 'tensor<1x1x4294967296x4294967296xf32>' has more elements or bytes than fit in a 64-bit index}}
  %0 = rlx.conv %x, %w stride = [1, 1] padding = [0, 0, 0, 0] dilation = [1, 1] groups = 1 : (tensor<1x1x4294967296x4294967296xf32>, tensor<1x1x1x1xf32>) -> tensor<1x1x4294967296x4294967296xf32>
  return
}

// -----

// 2^60 i64 elements are 2^63 bytes.
func.func @compare_bytes(%x: tensor<1152921504606846976xi64>) {
  // expected-error @+1 {{'rlx.lt' op operand #0 of type 'tensor<1152921504606846976xi64>' has more elements or bytes than fit in a 64-bit index}}
  %0 = rlx.lt %x, %x : (tensor<1152921504606846976xi64>, tensor<1152921504606846976xi64>) -> tensor<1152921504606846976xi1>
  return
}
