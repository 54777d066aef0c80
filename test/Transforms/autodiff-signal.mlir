// RUN: rlx-opt %s --rlx-autodiff -split-input-file | FileCheck %s

// fft's adjoint is ifft with the dual norm (backward <-> forward, ortho
// itself); complex gradients are summed part by part; |z|^2 gives 2 z g;
// complex() splits its gradient into the parts.
// CHECK-LABEL: func.func @power_grad(
// CHECK:         %[[Z:.*]] = rlx.complex
// CHECK:         %[[Y:.*]] = rlx.fft %[[Z]] : tensor<3x8xcomplex<f64>>
// CHECK:         %[[RE:.*]] = rlx.real %[[Y]]
// CHECK:         %[[IM:.*]] = rlx.imag %[[Y]]
// CHECK:         %[[GY:.*]] = rlx.complex %{{.*}}, %{{.*}} : tensor<3x8xf64> -> tensor<3x8xcomplex<f64>>
// CHECK:         %[[GZ:.*]] = rlx.ifft %[[GY]] norm = forward : tensor<3x8xcomplex<f64>>
// CHECK:         %[[GRE:.*]] = rlx.real %[[GZ]]
// CHECK:         %[[GIM:.*]] = rlx.imag %[[GZ]]
// CHECK:         return %{{.*}}, %[[GRE]], %[[GIM]]
func.func @power(%re: tensor<3x8xf64>, %im: tensor<3x8xf64>) -> tensor<f64> attributes {rlx.differentiate = array<i64: 0, 1>} {
  %z = rlx.complex %re, %im : tensor<3x8xf64> -> tensor<3x8xcomplex<f64>>
  %y = rlx.fft %z : tensor<3x8xcomplex<f64>>
  %p = rlx.complex_norm_sq %y : tensor<3x8xcomplex<f64>> -> tensor<3x8xf64>
  %s = rlx.reduce sum %p axes = [0, 1] : tensor<3x8xf64> -> tensor<f64>
  return %s : tensor<f64>
}

// -----

// Two uses of one complex value: the gradients of real() and imag() are
// complex tensors summed part by part (complex tensors have no rlx.add).
// CHECK-LABEL: func.func @parts_grad(
// CHECK:         %[[G1:[0-9]+]] = rlx.complex %{{[0-9]+}}, %{{[0-9]+}} : tensor<4xf32> -> tensor<4xcomplex<f32>>
// CHECK:         %[[G2:[0-9]+]] = rlx.complex %{{[0-9]+}}, %{{[0-9]+}} : tensor<4xf32> -> tensor<4xcomplex<f32>>
// CHECK:         %[[R1:[0-9]+]] = rlx.real %[[G1]]
// CHECK:         %[[R2:[0-9]+]] = rlx.real %[[G2]]
// CHECK:         %[[RS:[0-9]+]] = rlx.add %[[R1]], %[[R2]]
// CHECK:         %[[I1:[0-9]+]] = rlx.imag %[[G1]]
// CHECK:         %[[I2:[0-9]+]] = rlx.imag %[[G2]]
// CHECK:         %[[IS:[0-9]+]] = rlx.add %[[I1]], %[[I2]]
// CHECK:         %[[SUM:[0-9]+]] = rlx.complex %[[RS]], %[[IS]]
// CHECK:         rlx.fft %[[SUM]] norm = ortho
func.func @parts(%re: tensor<4xf32>, %im: tensor<4xf32>) -> tensor<f32> attributes {rlx.differentiate = array<i64: 0>} {
  %z = rlx.complex %re, %im : tensor<4xf32> -> tensor<4xcomplex<f32>>
  %y = rlx.ifft %z norm = ortho : tensor<4xcomplex<f32>>
  %a = rlx.real %y : tensor<4xcomplex<f32>> -> tensor<4xf32>
  %b = rlx.imag %y : tensor<4xcomplex<f32>> -> tensor<4xf32>
  %c = rlx.mul %a, %b : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %s = rlx.reduce sum %c axes = [0] : tensor<4xf32> -> tensor<f32>
  return %s : tensor<f32>
}

// -----

// rfft: the gradient padded from 5 to 8 bins (part by part), the adjoint
// inverse, its real part.
// CHECK-LABEL: func.func @rfft_grad(
// CHECK:         rlx.pad constant %{{.*}} [0, 3] : tensor<5xf64> -> tensor<8xf64>
// CHECK:         rlx.pad constant %{{.*}} [0, 3] : tensor<5xf64> -> tensor<8xf64>
// CHECK:         %[[FULL:.*]] = rlx.complex
// CHECK:         %[[INV:.*]] = rlx.ifft %[[FULL]] norm = forward
// CHECK:         %[[GX:.*]] = rlx.real %[[INV]]
// CHECK:         return %{{.*}}, %[[GX]]
func.func @rfft(%x: tensor<8xf64>) -> tensor<f64> attributes {rlx.differentiate = array<i64: 0>} {
  %y = rlx.rfft %x : tensor<8xf64> -> tensor<5xcomplex<f64>>
  %p = rlx.complex_norm_sq %y : tensor<5xcomplex<f64>> -> tensor<5xf64>
  %s = rlx.reduce sum %p axes = [0] : tensor<5xf64> -> tensor<f64>
  return %s : tensor<f64>
}

// -----

// irfft (n = 7 from 3 bins): the adjoint rfft of the gradient (4 bins),
// all but the zero bin doubled (7 is odd: no Nyquist bin), cut to 3.
// CHECK-LABEL: func.func @irfft_grad(
// CHECK:         %[[S:.*]] = rlx.rfft %{{.*}} norm = forward : tensor<7xf32> -> tensor<4xcomplex<f32>>
// CHECK:         %[[W:.*]] = rlx.constant dense<[1.000000e+00, 2.000000e+00, 2.000000e+00, 2.000000e+00]> : tensor<4xf32>
// CHECK-COUNT-2: rlx.narrow %{{.*}} axis = 0, start = 0, length = 3 : tensor<4xf32> -> tensor<3xf32>
func.func @irfft(%re: tensor<3xf32>, %im: tensor<3xf32>) -> tensor<f32> attributes {rlx.differentiate = array<i64: 0, 1>} {
  %z = rlx.complex %re, %im : tensor<3xf32> -> tensor<3xcomplex<f32>>
  %y = rlx.irfft %z n = 7 : tensor<3xcomplex<f32>> -> tensor<7xf32>
  %q = rlx.mul %y, %y : (tensor<7xf32>, tensor<7xf32>) -> tensor<7xf32>
  %s = rlx.reduce sum %q axes = [0] : tensor<7xf32> -> tensor<f32>
  return %s : tensor<f32>
}
