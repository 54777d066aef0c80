// The quantized contractions for test/Pipelines/gpu-quant-matmul.test.
func.func @dequant_q4_0(%x: tensor<?x256xf16>, %w: tensor<96x144xi8>) -> tensor<?x96xf16> {
  %y = rlx.dequant_matmul %x, %w scheme = "q4_0" : (tensor<?x256xf16>, tensor<96x144xi8>) -> tensor<?x96xf16>
  return %y : tensor<?x96xf16>
}

func.func @dequant_int4(%x: tensor<64x256xf32>, %w: tensor<96x128xi8>, %s: tensor<96x2xf16>, %z: tensor<96x2xi8>) -> tensor<64x96xf32> {
  %y = rlx.dequant_matmul %x, %w, %s zero_points %z scheme = "int4" group_size = 128 : (tensor<64x256xf32>, tensor<96x128xi8>, tensor<96x2xf16>, tensor<96x2xi8>) -> tensor<64x96xf32>
  return %y : tensor<64x96xf32>
}

func.func @dequant_q8_0(%x: tensor<64x256xbf16>, %w: tensor<96x272xi8>) -> tensor<64x96xbf16> {
  %y = rlx.dequant_matmul %x, %w scheme = "q8_0" : (tensor<64x256xbf16>, tensor<96x272xi8>) -> tensor<64x96xbf16>
  return %y : tensor<64x96xbf16>
}

func.func @qmatmul(%a: tensor<?x128xi8>, %b: tensor<128x96xi8>, %az: tensor<i32>, %bz: tensor<96xi32>, %as: tensor<f32>, %bs: tensor<96xf32>, %os: tensor<f32>, %oz: tensor<i32>) -> (tensor<?x96xi32>, tensor<?x96xi8>) {
  %acc = rlx.qmatmul %a, %b, %az, %bz lhs_unsigned : (tensor<?x128xi8>, tensor<128x96xi8>, tensor<i32>, tensor<96xi32>) -> tensor<?x96xi32>
  %y = rlx.qmatmul %a, %b, %az, %bz requantize %as, %bs, %os, %oz lhs_unsigned output_unsigned : (tensor<?x128xi8>, tensor<128x96xi8>, tensor<i32>, tensor<96xi32>, tensor<f32>, tensor<96xf32>, tensor<f32>, tensor<i32>) -> tensor<?x96xi8>
  return %acc, %y : tensor<?x96xi32>, tensor<?x96xi8>
}

func.func @scaled(%a: tensor<64x128xi8>, %b: tensor<128x96xi8>, %sa: tensor<f32>, %sb: tensor<f32>) -> tensor<64x96xf32> {
  %fa = rlx.fp8_from_bits %a format = "e4m3fn" : (tensor<64x128xi8>) -> tensor<64x128xf8E4M3FN>
  %fb = rlx.fp8_from_bits %b format = "e5m2" : (tensor<128x96xi8>) -> tensor<128x96xf8E5M2>
  %y = rlx.scaled_matmul %fa, %fb, %sa, %sb : (tensor<64x128xf8E4M3FN>, tensor<128x96xf8E5M2>, tensor<f32>, tensor<f32>) -> tensor<64x96xf32>
  return %y : tensor<64x96xf32>
}

func.func @qconv(%x: tensor<?x16x17x17xi8>, %w: tensor<32x8x3x3xi8>, %xz: tensor<i32>, %wz: tensor<32xi32>, %xs: tensor<f64>, %ws: tensor<32xf64>, %ys: tensor<f64>, %yz: tensor<i32>) -> tensor<?x32x9x9xi8> {
  %y = rlx.qconv %x, %w, %xz, %wz requantize %xs, %ws, %ys, %yz stride = [2, 2] padding = [1, 1, 1, 1] dilation = [1, 1] groups = 2 input_unsigned output_unsigned : (tensor<?x16x17x17xi8>, tensor<32x8x3x3xi8>, tensor<i32>, tensor<32xi32>, tensor<f64>, tensor<32xf64>, tensor<f64>, tensor<i32>) -> tensor<?x32x9x9xi8>
  return %y : tensor<?x32x9x9xi8>
}
