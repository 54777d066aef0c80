// RUN: rlx-opt %s -split-input-file -verify-diagnostics

// One case per verifier rule of the quantized contractions.

func.func @qmatmul_rhs_rank(%a: tensor<4x8xi8>, %b: tensor<2x8x3xi8>, %z: tensor<i32>) {
  // expected-error @+2 {{rhs must be [K, N], got rank 3}}
  // expected-error @+1 {{'rlx.qmatmul' op failed to infer returned types}}
  %0 = rlx.qmatmul %a, %b, %z, %z : (tensor<4x8xi8>, tensor<2x8x3xi8>, tensor<i32>, tensor<i32>) -> tensor<2x4x3xi32>
  return
}

// -----

func.func @qmatmul_k(%a: tensor<4x8xi8>, %b: tensor<7x3xi8>, %z: tensor<i32>) {
  // expected-error @+2 {{contracting dimensions differ}}
  // expected-error @+1 {{'rlx.qmatmul' op failed to infer returned types}}
  %0 = rlx.qmatmul %a, %b, %z, %z : (tensor<4x8xi8>, tensor<7x3xi8>, tensor<i32>, tensor<i32>) -> tensor<4x3xi32>
  return
}

// -----

func.func @qmatmul_lhs_zero_point(%a: tensor<4x8xi8>, %b: tensor<8x3xi8>, %z: tensor<i32>, %zc: tensor<3xi32>) {
  // expected-error @+2 {{lhs_zero_point must have rank 0, got [3]}}
  // expected-error @+1 {{'rlx.qmatmul' op failed to infer returned types}}
  %0 = rlx.qmatmul %a, %b, %zc, %z : (tensor<4x8xi8>, tensor<8x3xi8>, tensor<3xi32>, tensor<i32>) -> tensor<4x3xi32>
  return
}

// -----

func.func @qmatmul_rhs_zero_point(%a: tensor<4x8xi8>, %b: tensor<8x3xi8>, %z: tensor<i32>, %zc: tensor<4xi32>) {
  // expected-error @+2 {{rhs_zero_point must have rank 0 or be [N] (one per output column, N = 3), got [4]}}
  // expected-error @+1 {{'rlx.qmatmul' op failed to infer returned types}}
  %0 = rlx.qmatmul %a, %b, %z, %zc : (tensor<4x8xi8>, tensor<8x3xi8>, tensor<i32>, tensor<4xi32>) -> tensor<4x3xi32>
  return
}

// -----

func.func @qmatmul_rhs_scale(%a: tensor<4x8xi8>, %b: tensor<8x3xi8>, %z: tensor<i32>, %s: tensor<f32>, %sc: tensor<2xf32>) {
  // expected-error @+2 {{rhs_scale must have rank 0 or be [N] (one per output column, N = 3), got [2]}}
  // expected-error @+1 {{'rlx.qmatmul' op failed to infer returned types}}
  %0 = rlx.qmatmul %a, %b, %z, %z requantize %s, %sc, %s, %z : (tensor<4x8xi8>, tensor<8x3xi8>, tensor<i32>, tensor<i32>, tensor<f32>, tensor<2xf32>, tensor<f32>, tensor<i32>) -> tensor<4x3xi8>
  return
}

// -----

func.func @qmatmul_output_scale(%a: tensor<4x8xi8>, %b: tensor<8x3xi8>, %z: tensor<i32>, %s: tensor<f32>, %sc: tensor<3xf32>) {
  // expected-error @+2 {{output_scale must have rank 0, got [3]}}
  // expected-error @+1 {{'rlx.qmatmul' op failed to infer returned types}}
  %0 = rlx.qmatmul %a, %b, %z, %z requantize %s, %s, %sc, %z : (tensor<4x8xi8>, tensor<8x3xi8>, tensor<i32>, tensor<i32>, tensor<f32>, tensor<f32>, tensor<3xf32>, tensor<i32>) -> tensor<4x3xi8>
  return
}

// -----

func.func @qmatmul_partial_epilogue(%a: tensor<4x8xi8>, %b: tensor<8x3xi8>, %z: tensor<i32>, %s: tensor<f32>) {
  // expected-error @+2 {{the requantize epilogue needs all of lhs_scale, rhs_scale, output_scale and output_zero_point}}
  // expected-error @+1 {{'rlx.qmatmul' op failed to infer returned types}}
  %0 = "rlx.qmatmul"(%a, %b, %z, %z, %s) <{operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 0, 0, 0>}> : (tensor<4x8xi8>, tensor<8x3xi8>, tensor<i32>, tensor<i32>, tensor<f32>) -> tensor<4x3xi8>
  return
}

// -----

func.func @qmatmul_output_unsigned(%a: tensor<4x8xi8>, %b: tensor<8x3xi8>, %z: tensor<i32>) {
  // expected-error @+1 {{output_unsigned needs the requantize epilogue}}
  %0 = rlx.qmatmul %a, %b, %z, %z output_unsigned : (tensor<4x8xi8>, tensor<8x3xi8>, tensor<i32>, tensor<i32>) -> tensor<4x3xi32>
  return
}

// -----

func.func @qmatmul_result_type(%a: tensor<4x8xi8>, %b: tensor<8x3xi8>, %z: tensor<i32>) {
  // expected-error @+2 {{'rlx.qmatmul' op inferred type(s) 'tensor<4x3xi32>' are incompatible with return type(s) of operation 'tensor<4x3xi8>'}}
  // expected-error @+1 {{'rlx.qmatmul' op failed to infer returned types}}
  %0 = rlx.qmatmul %a, %b, %z, %z : (tensor<4x8xi8>, tensor<8x3xi8>, tensor<i32>, tensor<i32>) -> tensor<4x3xi8>
  return
}

// -----

func.func @dequant_scheme(%x: tensor<4x64xf32>, %w: tensor<8x64xi8>, %s: tensor<8x2xf32>) {
  // expected-error @+1 {{scheme must be "int8", "int4", "q8_0" or "q4_0", got "int3"}}
  %0 = rlx.dequant_matmul %x, %w, %s scheme = "int3" : (tensor<4x64xf32>, tensor<8x64xi8>, tensor<8x2xf32>) -> tensor<4x8xf32>
  return
}

// -----

func.func @dequant_group_size(%x: tensor<4x48xf32>, %w: tensor<8x48xi8>, %s: tensor<8x3xf32>) {
  // expected-error @+1 {{group_size must be 32, 64 or 128, got 16}}
  %0 = rlx.dequant_matmul %x, %w, %s scheme = "int8" group_size = 16 : (tensor<4x48xf32>, tensor<8x48xi8>, tensor<8x3xf32>) -> tensor<4x8xf32>
  return
}

// -----

func.func @dequant_no_scales(%x: tensor<4x64xf32>, %w: tensor<8x32xi8>) {
  // expected-error @+1 {{the int4 scheme needs a scales operand}}
  %0 = rlx.dequant_matmul %x, %w scheme = "int4" : (tensor<4x64xf32>, tensor<8x32xi8>) -> tensor<4x8xf32>
  return
}

// -----

func.func @dequant_gguf_scales(%x: tensor<4x64xf32>, %w: tensor<8x36xi8>, %s: tensor<8x2xf32>) {
  // expected-error @+1 {{the GGUF scheme q4_0 stores its scales in the weight's blocks: no scales or zero_points operand}}
  %0 = rlx.dequant_matmul %x, %w, %s scheme = "q4_0" : (tensor<4x64xf32>, tensor<8x36xi8>, tensor<8x2xf32>) -> tensor<4x8xf32>
  return
}

// -----

func.func @dequant_gguf_group_size(%x: tensor<4x64xf32>, %w: tensor<8x68xi8>) {
  // expected-error @+1 {{the GGUF scheme q8_0 has blocks of 32 values, got group_size 64}}
  %0 = rlx.dequant_matmul %x, %w scheme = "q8_0" group_size = 64 : (tensor<4x64xf32>, tensor<8x68xi8>) -> tensor<4x8xf32>
  return
}

// -----

func.func @dequant_input_rank(%x: tensor<64xf32>, %w: tensor<8x36xi8>) {
  // expected-error @+2 {{input must be [..., M, K], got rank 1}}
  // expected-error @+1 {{'rlx.dequant_matmul' op failed to infer returned types}}
  %0 = rlx.dequant_matmul %x, %w scheme = "q4_0" : (tensor<64xf32>, tensor<8x36xi8>) -> tensor<8xf32>
  return
}

// -----

func.func @dequant_weight_static(%x: tensor<4x64xf32>, %w: tensor<?x36xi8>) {
  // expected-error @+2 {{weight must be [N, bytes per row] with static sizes, got [?, 36]}}
  // expected-error @+1 {{'rlx.dequant_matmul' op failed to infer returned types}}
  %0 = rlx.dequant_matmul %x, %w scheme = "q4_0" : (tensor<4x64xf32>, tensor<?x36xi8>) -> tensor<4x?xf32>
  return
}

// -----

func.func @dequant_row_bytes(%x: tensor<4x64xf32>, %w: tensor<8x40xi8>) {
  // expected-error @+2 {{a q4_0 weight row of 40 bytes is not a whole number of groups of 18 bytes (32 values)}}
  // expected-error @+1 {{'rlx.dequant_matmul' op failed to infer returned types}}
  %0 = rlx.dequant_matmul %x, %w scheme = "q4_0" : (tensor<4x64xf32>, tensor<8x40xi8>) -> tensor<4x8xf32>
  return
}

// -----

func.func @dequant_k(%x: tensor<4x32xf32>, %w: tensor<8x36xi8>) {
  // expected-error @+2 {{input has K = 32 but the q4_0 weight [8, 36] holds rows of K = 64}}
  // expected-error @+1 {{'rlx.dequant_matmul' op failed to infer returned types}}
  %0 = rlx.dequant_matmul %x, %w scheme = "q4_0" : (tensor<4x32xf32>, tensor<8x36xi8>) -> tensor<4x8xf32>
  return
}

// -----

func.func @dequant_scales_shape(%x: tensor<4x128xf32>, %w: tensor<8x64xi8>, %s: tensor<8x4xf16>) {
  // expected-error @+2 {{scales must be [N, K / group_size] = [8, 2], got [8, 4]}}
  // expected-error @+1 {{'rlx.dequant_matmul' op failed to infer returned types}}
  %0 = rlx.dequant_matmul %x, %w, %s scheme = "int4" group_size = 64 : (tensor<4x128xf32>, tensor<8x64xi8>, tensor<8x4xf16>) -> tensor<4x8xf32>
  return
}

// -----

func.func @dequant_zero_points_shape(%x: tensor<4x128xf32>, %w: tensor<8x64xi8>, %s: tensor<8x2xf16>, %z: tensor<8x1xi8>) {
  // expected-error @+2 {{zero_points must be [N, K / group_size] = [8, 2], got [8, 1]}}
  // expected-error @+1 {{'rlx.dequant_matmul' op failed to infer returned types}}
  %0 = rlx.dequant_matmul %x, %w, %s zero_points %z scheme = "int4" group_size = 64 : (tensor<4x128xf32>, tensor<8x64xi8>, tensor<8x2xf16>, tensor<8x1xi8>) -> tensor<4x8xf32>
  return
}

// -----

func.func @dequant_scale_type(%x: tensor<4x64xf32>, %w: tensor<8x64xi8>, %s: tensor<8x2xbf16>) {
  // expected-error @+1 {{operand #2 must be ranked tensor of 16-bit float or 32-bit float values, but got 'tensor<8x2xbf16>'}}
  %0 = rlx.dequant_matmul %x, %w, %s scheme = "int8" : (tensor<4x64xf32>, tensor<8x64xi8>, tensor<8x2xbf16>) -> tensor<4x8xf32>
  return
}

// -----

func.func @scaled_matmul_types(%a: tensor<4x8xf16>, %b: tensor<8x3xf8E4M3FN>, %s: tensor<f32>) {
  // expected-error @+1 {{operand #0 must be ranked tensor of FP8 (f8E4M3FN or f8E5M2) values}}
  %0 = rlx.scaled_matmul %a, %b, %s, %s : (tensor<4x8xf16>, tensor<8x3xf8E4M3FN>, tensor<f32>, tensor<f32>) -> tensor<4x3xf32>
  return
}

// -----

func.func @scaled_matmul_scale(%a: tensor<4x8xf8E5M2>, %b: tensor<8x3xf8E4M3FN>, %s: tensor<f32>, %sc: tensor<3xf32>) {
  // expected-error @+2 {{rhs_scale must have rank 0, got [3]}}
  // expected-error @+1 {{'rlx.scaled_matmul' op failed to infer returned types}}
  %0 = rlx.scaled_matmul %a, %b, %s, %sc : (tensor<4x8xf8E5M2>, tensor<8x3xf8E4M3FN>, tensor<f32>, tensor<3xf32>) -> tensor<4x3xf32>
  return
}

// -----

func.func @scaled_matmul_rhs_rank(%a: tensor<4x8xf8E5M2>, %b: tensor<2x8x3xf8E4M3FN>, %s: tensor<f32>) {
  // expected-error @+2 {{rhs must be [K, N], got rank 3}}
  // expected-error @+1 {{'rlx.scaled_matmul' op failed to infer returned types}}
  %0 = rlx.scaled_matmul %a, %b, %s, %s : (tensor<4x8xf8E5M2>, tensor<2x8x3xf8E4M3FN>, tensor<f32>, tensor<f32>) -> tensor<2x4x3xf32>
  return
}

// -----

func.func @fp8_format(%a: tensor<4x8xi8>) {
  // expected-error @+1 {{format must be "e4m3fn" or "e5m2", got "e4m3"}}
  %0 = rlx.fp8_from_bits %a format = "e4m3" : (tensor<4x8xi8>) -> tensor<4x8xf8E4M3FN>
  return
}

// -----

// FP8 reaches no other op: the rest of rlx has no FP8 arithmetic.
func.func @fp8_elsewhere(%a: tensor<4x8xf8E4M3FN>) {
  // expected-error @+1 {{'rlx.relu' op operand #0 must be ranked tensor of number values, but got 'tensor<4x8xf8E4M3FN>'}}
  %0 = rlx.relu %a : tensor<4x8xf8E4M3FN>
  return
}

// -----

func.func @qconv_rank(%x: tensor<2x4x9xi8>, %w: tensor<6x4x3xi8>, %z: tensor<i32>) {
  // expected-error @+2 {{qconv is 2-D: input must be [N, C, H, W], got rank 3}}
  // expected-error @+1 {{'rlx.qconv' op failed to infer returned types}}
  %0 = rlx.qconv %x, %w, %z, %z stride = [1] padding = [0, 0] dilation = [1] groups = 1 : (tensor<2x4x9xi8>, tensor<6x4x3xi8>, tensor<i32>, tensor<i32>) -> tensor<2x6x7xi32>
  return
}

// -----

func.func @qconv_weight_zero_point(%x: tensor<2x4x9x9xi8>, %w: tensor<6x4x3x3xi8>, %z: tensor<i32>, %zc: tensor<4xi32>) {
  // expected-error @+2 {{weight_zero_point must have rank 0 or be [C_out] (one per output channel, C_out = 6), got [4]}}
  // expected-error @+1 {{'rlx.qconv' op failed to infer returned types}}
  %0 = rlx.qconv %x, %w, %z, %zc stride = [1, 1] padding = [0, 0, 0, 0] dilation = [1, 1] groups = 1 : (tensor<2x4x9x9xi8>, tensor<6x4x3x3xi8>, tensor<i32>, tensor<4xi32>) -> tensor<2x6x7x7xi32>
  return
}

// -----

func.func @qconv_partial_epilogue(%x: tensor<2x4x9x9xi8>, %w: tensor<6x4x3x3xi8>, %z: tensor<i32>, %s: tensor<f32>) {
  // expected-error @+2 {{the requantize epilogue needs all of input_scale, weight_scale, output_scale and output_zero_point}}
  // expected-error @+1 {{'rlx.qconv' op failed to infer returned types}}
  %0 = "rlx.qconv"(%x, %w, %z, %z, %s) <{operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 0, 0, 0>, stride = array<i64: 1, 1>, padding = array<i64: 0, 0, 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64}> : (tensor<2x4x9x9xi8>, tensor<6x4x3x3xi8>, tensor<i32>, tensor<i32>, tensor<f32>) -> tensor<2x6x7x7xi8>
  return
}

// -----

func.func @qconv_output_unsigned(%x: tensor<2x4x9x9xi8>, %w: tensor<6x4x3x3xi8>, %z: tensor<i32>) {
  // expected-error @+1 {{output_unsigned needs the requantize epilogue}}
  %0 = rlx.qconv %x, %w, %z, %z stride = [1, 1] padding = [0, 0, 0, 0] dilation = [1, 1] groups = 1 output_unsigned : (tensor<2x4x9x9xi8>, tensor<6x4x3x3xi8>, tensor<i32>, tensor<i32>) -> tensor<2x6x7x7xi32>
  return
}

// -----

func.func @qconv_groups(%x: tensor<2x4x9x9xi8>, %w: tensor<6x4x3x3xi8>, %z: tensor<i32>) {
  // expected-error @+2 {{'groups' (4) must divide the output channels (weight dimension 0 = 6)}}
  // expected-error @+1 {{'rlx.qconv' op failed to infer returned types}}
  %0 = rlx.qconv %x, %w, %z, %z stride = [1, 1] padding = [0, 0, 0, 0] dilation = [1, 1] groups = 4 : (tensor<2x4x9x9xi8>, tensor<6x4x3x3xi8>, tensor<i32>, tensor<i32>) -> tensor<2x6x7x7xi32>
  return
}

// -----

func.func @dequant_weight_gguf_zero_points(%w: tensor<8x36xi8>, %z: tensor<8x2xi8>) {
  // expected-error @+1 {{the GGUF scheme q4_0 stores its scales in the weight's blocks: no scales or zero_points operand}}
  %0 = rlx.dequant_weight %w zero_points %z scheme = "q4_0" : (tensor<8x36xi8>, tensor<8x2xi8>) -> tensor<8x64xf32>
  return
}

// -----

func.func @dequant_weight_scales_shape(%w: tensor<8x64xi8>, %s: tensor<8x3xf32>) {
  // expected-error @+2 {{scales must be [..., N, K / group_size] = [8, 2], got [8, 3]}}
  // expected-error @+1 {{'rlx.dequant_weight' op failed to infer returned types}}
  %0 = rlx.dequant_weight %w, %s scheme = "int8" : (tensor<8x64xi8>, tensor<8x3xf32>) -> tensor<8x64xf32>
  return
}

// -----

func.func @dequant_weight_stack_scales(%w: tensor<4x8x32xi8>, %s: tensor<8x2xf32>) {
  // expected-error @+2 {{scales must be [..., N, K / group_size] = [4, 8, 2], got [8, 2]}}
  // expected-error @+1 {{'rlx.dequant_weight' op failed to infer returned types}}
  %0 = rlx.dequant_weight %w, %s scheme = "int4" : (tensor<4x8x32xi8>, tensor<8x2xf32>) -> tensor<4x8x64xf32>
  return
}

// -----

func.func @dequant_weight_rank(%w: tensor<36xi8>) {
  // expected-error @+2 {{weight must be [..., N, bytes per row] with static sizes, got [36]}}
  // expected-error @+1 {{'rlx.dequant_weight' op failed to infer returned types}}
  %0 = rlx.dequant_weight %w scheme = "q4_0" : (tensor<36xi8>) -> tensor<64xf32>
  return
}
