// RUN: rlx-opt %s | rlx-opt | FileCheck %s
// RUN: rlx-opt %s --mlir-print-op-generic | rlx-opt | FileCheck %s

// Round trip of the quantized contractions through the custom and the
// generic form: qmatmul with an i32 result and requantized (per-tensor and
// per-column parameters, the three `unsigned` flags, `?` and batch sizes),
// dequant_matmul for every scheme (group_size printed unless 32, zero
// points), scaled_matmul with both FP8 formats and fp8_from_bits.

// CHECK-LABEL: func.func @qmatmul(
// CHECK-SAME:    %[[A:[a-z0-9]+]]: tensor<?x64xi8>, %[[B:[a-z0-9]+]]: tensor<64x32xi8>, %[[AZ:[a-z0-9]+]]: tensor<i32>, %[[BZ:[a-z0-9]+]]: tensor<32xi32>, %[[AS:[a-z0-9]+]]: tensor<f32>, %[[BS:[a-z0-9]+]]: tensor<32xf32>, %[[OZ:[a-z0-9]+]]: tensor<i32>, %[[C:[a-z0-9]+]]: tensor<2x?x64xi8>)
// CHECK-NEXT:    %{{.*}} = rlx.qmatmul %[[A]], %[[B]], %[[AZ]], %[[AZ]] : (tensor<?x64xi8>, tensor<64x32xi8>, tensor<i32>, tensor<i32>) -> tensor<?x32xi32>
// CHECK-NEXT:    %{{.*}} = rlx.qmatmul %[[A]], %[[B]], %[[AZ]], %[[BZ]] lhs_unsigned rhs_unsigned : (tensor<?x64xi8>, tensor<64x32xi8>, tensor<i32>, tensor<32xi32>) -> tensor<?x32xi32>
// CHECK-NEXT:    %{{.*}} = rlx.qmatmul %[[A]], %[[B]], %[[AZ]], %[[AZ]] requantize %[[AS]], %[[AS]], %[[AS]], %[[OZ]] : (tensor<?x64xi8>, tensor<64x32xi8>, tensor<i32>, tensor<i32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<i32>) -> tensor<?x32xi8>
// CHECK-NEXT:    %{{.*}} = rlx.qmatmul %[[A]], %[[B]], %[[AZ]], %[[BZ]] requantize %[[AS]], %[[BS]], %[[AS]], %[[OZ]] lhs_unsigned output_unsigned : (tensor<?x64xi8>, tensor<64x32xi8>, tensor<i32>, tensor<32xi32>, tensor<f32>, tensor<32xf32>, tensor<f32>, tensor<i32>) -> tensor<?x32xi8>
// CHECK-NEXT:    %{{.*}} = rlx.qmatmul %[[C]], %[[B]], %[[AZ]], %[[AZ]] : (tensor<2x?x64xi8>, tensor<64x32xi8>, tensor<i32>, tensor<i32>) -> tensor<2x?x32xi32>
func.func @qmatmul(%a: tensor<?x64xi8>, %b: tensor<64x32xi8>, %az: tensor<i32>, %bz: tensor<32xi32>, %as: tensor<f32>, %bs: tensor<32xf32>, %oz: tensor<i32>, %c: tensor<2x?x64xi8>) {
  %0 = rlx.qmatmul %a, %b, %az, %az : (tensor<?x64xi8>, tensor<64x32xi8>, tensor<i32>, tensor<i32>) -> tensor<?x32xi32>
  %1 = rlx.qmatmul %a, %b, %az, %bz lhs_unsigned rhs_unsigned : (tensor<?x64xi8>, tensor<64x32xi8>, tensor<i32>, tensor<32xi32>) -> tensor<?x32xi32>
  %2 = rlx.qmatmul %a, %b, %az, %az requantize %as, %as, %as, %oz : (tensor<?x64xi8>, tensor<64x32xi8>, tensor<i32>, tensor<i32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<i32>) -> tensor<?x32xi8>
  %3 = rlx.qmatmul %a, %b, %az, %bz requantize %as, %bs, %as, %oz lhs_unsigned output_unsigned : (tensor<?x64xi8>, tensor<64x32xi8>, tensor<i32>, tensor<32xi32>, tensor<f32>, tensor<32xf32>, tensor<f32>, tensor<i32>) -> tensor<?x32xi8>
  %4 = rlx.qmatmul %c, %b, %az, %az : (tensor<2x?x64xi8>, tensor<64x32xi8>, tensor<i32>, tensor<i32>) -> tensor<2x?x32xi32>
  return
}

// CHECK-LABEL: func.func @dequant_matmul(
// CHECK-SAME:    %[[X:[a-z0-9]+]]: tensor<?x256xf16>, %[[W8:[a-z0-9]+]]: tensor<48x256xi8>, %[[S8:[a-z0-9]+]]: tensor<48x2xf32>, %[[W4:[a-z0-9]+]]: tensor<48x128xi8>, %[[S4:[a-z0-9]+]]: tensor<48x4xf16>, %[[Z4:[a-z0-9]+]]: tensor<48x4xi8>, %[[Q8:[a-z0-9]+]]: tensor<48x272xi8>, %[[Q4:[a-z0-9]+]]: tensor<48x144xi8>, %[[XB:[a-z0-9]+]]: tensor<3x?x256xbf16>)
// CHECK-NEXT:    %{{.*}} = rlx.dequant_matmul %[[X]], %[[W8]], %[[S8]] scheme = "int8" group_size = 128 : (tensor<?x256xf16>, tensor<48x256xi8>, tensor<48x2xf32>) -> tensor<?x48xf16>
// CHECK-NEXT:    %{{.*}} = rlx.dequant_matmul %[[X]], %[[W4]], %[[S4]] scheme = "int4" group_size = 64 : (tensor<?x256xf16>, tensor<48x128xi8>, tensor<48x4xf16>) -> tensor<?x48xf16>
// CHECK-NEXT:    %{{.*}} = rlx.dequant_matmul %[[X]], %[[W4]], %[[S4]] zero_points %[[Z4]] scheme = "int4" group_size = 64 : (tensor<?x256xf16>, tensor<48x128xi8>, tensor<48x4xf16>, tensor<48x4xi8>) -> tensor<?x48xf16>
// CHECK-NEXT:    %{{.*}} = rlx.dequant_matmul %[[X]], %[[Q8]] scheme = "q8_0" : (tensor<?x256xf16>, tensor<48x272xi8>) -> tensor<?x48xf16>
// CHECK-NEXT:    %{{.*}} = rlx.dequant_matmul %[[XB]], %[[Q4]] scheme = "q4_0" : (tensor<3x?x256xbf16>, tensor<48x144xi8>) -> tensor<3x?x48xbf16>
func.func @dequant_matmul(%x: tensor<?x256xf16>, %w8: tensor<48x256xi8>, %s8: tensor<48x2xf32>, %w4: tensor<48x128xi8>, %s4: tensor<48x4xf16>, %z4: tensor<48x4xi8>, %q8: tensor<48x272xi8>, %q4: tensor<48x144xi8>, %xb: tensor<3x?x256xbf16>) {
  %0 = rlx.dequant_matmul %x, %w8, %s8 scheme = "int8" group_size = 128 : (tensor<?x256xf16>, tensor<48x256xi8>, tensor<48x2xf32>) -> tensor<?x48xf16>
  %1 = rlx.dequant_matmul %x, %w4, %s4 scheme = "int4" group_size = 64 : (tensor<?x256xf16>, tensor<48x128xi8>, tensor<48x4xf16>) -> tensor<?x48xf16>
  %2 = rlx.dequant_matmul %x, %w4, %s4 zero_points %z4 scheme = "int4" group_size = 64 : (tensor<?x256xf16>, tensor<48x128xi8>, tensor<48x4xf16>, tensor<48x4xi8>) -> tensor<?x48xf16>
  %3 = rlx.dequant_matmul %x, %q8 scheme = "q8_0" : (tensor<?x256xf16>, tensor<48x272xi8>) -> tensor<?x48xf16>
  %4 = rlx.dequant_matmul %xb, %q4 scheme = "q4_0" group_size = 32 : (tensor<3x?x256xbf16>, tensor<48x144xi8>) -> tensor<3x?x48xbf16>
  return
}

// CHECK-LABEL: func.func @scaled_matmul(
// CHECK-SAME:    %[[A:[a-z0-9]+]]: tensor<?x64xi8>, %[[B:[a-z0-9]+]]: tensor<64x32xi8>, %[[S:[a-z0-9]+]]: tensor<f32>)
// CHECK-NEXT:    %[[FA:.*]] = rlx.fp8_from_bits %[[A]] format = "e4m3fn" : (tensor<?x64xi8>) -> tensor<?x64xf8E4M3FN>
// CHECK-NEXT:    %[[FB:.*]] = rlx.fp8_from_bits %[[B]] format = "e5m2" : (tensor<64x32xi8>) -> tensor<64x32xf8E5M2>
// CHECK-NEXT:    %{{.*}} = rlx.scaled_matmul %[[FA]], %[[FB]], %[[S]], %[[S]] : (tensor<?x64xf8E4M3FN>, tensor<64x32xf8E5M2>, tensor<f32>, tensor<f32>) -> tensor<?x32xf32>
func.func @scaled_matmul(%a: tensor<?x64xi8>, %b: tensor<64x32xi8>, %s: tensor<f32>) {
  %fa = rlx.fp8_from_bits %a format = "e4m3fn" : (tensor<?x64xi8>) -> tensor<?x64xf8E4M3FN>
  %fb = rlx.fp8_from_bits %b format = "e5m2" : (tensor<64x32xi8>) -> tensor<64x32xf8E5M2>
  %0 = rlx.scaled_matmul %fa, %fb, %s, %s : (tensor<?x64xf8E4M3FN>, tensor<64x32xf8E5M2>, tensor<f32>, tensor<f32>) -> tensor<?x32xf32>
  return
}

// CHECK-LABEL: func.func @qconv(
// CHECK-SAME:    %[[X:[a-z0-9]+]]: tensor<?x4x9x7xi8>, %[[W:[a-z0-9]+]]: tensor<6x2x3x3xi8>, %[[Z:[a-z0-9]+]]: tensor<i32>, %[[ZC:[a-z0-9]+]]: tensor<6xi32>, %[[S:[a-z0-9]+]]: tensor<f64>, %[[SC:[a-z0-9]+]]: tensor<6xf32>)
// CHECK-NEXT:    %{{.*}} = rlx.qconv %[[X]], %[[W]], %[[Z]], %[[ZC]] stride = [2, 1] padding = [1, 1, 2, 2] dilation = [1, 2] groups = 2 weight_unsigned : (tensor<?x4x9x7xi8>, tensor<6x2x3x3xi8>, tensor<i32>, tensor<6xi32>) -> tensor<?x6x5x7xi32>
// CHECK-NEXT:    %{{.*}} = rlx.qconv %[[X]], %[[W]], %[[Z]], %[[Z]] requantize %[[S]], %[[SC]], %[[S]], %[[Z]] stride = [1, 1] padding = [0, 0, 0, 0] dilation = [1, 1] groups = 2 input_unsigned output_unsigned : (tensor<?x4x9x7xi8>, tensor<6x2x3x3xi8>, tensor<i32>, tensor<i32>, tensor<f64>, tensor<6xf32>, tensor<f64>, tensor<i32>) -> tensor<?x6x7x5xi8>
func.func @qconv(%x: tensor<?x4x9x7xi8>, %w: tensor<6x2x3x3xi8>, %z: tensor<i32>, %zc: tensor<6xi32>, %s: tensor<f64>, %sc: tensor<6xf32>) {
  %0 = rlx.qconv %x, %w, %z, %zc stride = [2, 1] padding = [1, 1, 2, 2] dilation = [1, 2] groups = 2 weight_unsigned : (tensor<?x4x9x7xi8>, tensor<6x2x3x3xi8>, tensor<i32>, tensor<6xi32>) -> tensor<?x6x5x7xi32>
  %1 = rlx.qconv %x, %w, %z, %z requantize %s, %sc, %s, %z stride = [1, 1] padding = [0, 0, 0, 0] dilation = [1, 1] groups = 2 input_unsigned output_unsigned : (tensor<?x4x9x7xi8>, tensor<6x2x3x3xi8>, tensor<i32>, tensor<i32>, tensor<f64>, tensor<6xf32>, tensor<f64>, tensor<i32>) -> tensor<?x6x7x5xi8>
  return
}
