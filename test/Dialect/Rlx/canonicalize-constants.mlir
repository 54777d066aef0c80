// RUN: rlx-opt %s -canonicalize -split-input-file | FileCheck %s

// Constant evaluation of elementwise ops: folding runs each op's buildScalar
// on constant operands. Expected values follow the op semantics.

// CHECK-LABEL: func.func @fold_exp_f32(
// CHECK-NEXT:    %[[C:.*]] = rlx.constant dense<[1.000000e+00, 2.71828175]> : tensor<2xf32>
// CHECK-NEXT:    return %[[C]]
func.func @fold_exp_f32() -> tensor<2xf32> {
  %c = rlx.constant dense<[0.0, 1.0]> : tensor<2xf32>
  %0 = rlx.exp %c : tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

// f16/bf16 compute in f32 and round the result once to the storage type.
// CHECK-LABEL: func.func @fold_exp_low_precision(
// CHECK-DAG:     %[[H:.*]] = rlx.constant dense<[1.000000e+00, 2.718750e+00]> : tensor<2xf16>
// CHECK-DAG:     %[[B:.*]] = rlx.constant dense<[1.000000e+00, 2.718750e+00]> : tensor<2xbf16>
// CHECK-NOT:     rlx.exp
// CHECK:         return %[[H]], %[[B]]
func.func @fold_exp_low_precision() -> (tensor<2xf16>, tensor<2xbf16>) {
  %h = rlx.constant dense<[0.0, 1.0]> : tensor<2xf16>
  %0 = rlx.exp %h : tensor<2xf16>
  %b = rlx.constant dense<[0.0, 1.0]> : tensor<2xbf16>
  %1 = rlx.exp %b : tensor<2xbf16>
  return %0, %1 : tensor<2xf16>, tensor<2xbf16>
}

// -----

// CHECK-LABEL: func.func @fold_f16_arith(
// CHECK-DAG:     %[[A:.*]] = rlx.constant dense<3.750000e+00> : tensor<2xf16>
// CHECK-DAG:     %[[O:.*]] = rlx.constant dense<0x7C00> : tensor<2xf16>
// CHECK-DAG:     %[[M:.*]] = rlx.constant dense<4.500000e+00> : tensor<3xbf16>
// CHECK-NOT:     rlx.add
// CHECK-NOT:     rlx.mul
// CHECK:         return %[[A]], %[[O]], %[[M]]
func.func @fold_f16_arith() -> (tensor<2xf16>, tensor<2xf16>, tensor<3xbf16>) {
  %a = rlx.constant dense<1.5> : tensor<2xf16>
  %b = rlx.constant dense<2.25> : tensor<2xf16>
  %0 = rlx.add %a, %b : (tensor<2xf16>, tensor<2xf16>) -> tensor<2xf16>
  %big = rlx.constant dense<65504.0> : tensor<2xf16>
  %1 = rlx.add %big, %big : (tensor<2xf16>, tensor<2xf16>) -> tensor<2xf16>
  %x = rlx.constant dense<3.0> : tensor<3xbf16>
  %y = rlx.constant dense<1.5> : tensor<bf16>
  %2 = rlx.mul %x, %y : (tensor<3xbf16>, tensor<bf16>) -> tensor<3xbf16>
  return %0, %1, %2 : tensor<2xf16>, tensor<2xf16>, tensor<3xbf16>
}

// -----

// CHECK-LABEL: func.func @fold_add_int(
// CHECK-DAG:     %[[A:.*]] = rlx.constant dense<{{\[}}[11, 21, 31], [12, 22, 32]]> : tensor<2x3xi32>
// CHECK-DAG:     %[[B:.*]] = rlx.constant dense<5> : tensor<2x2xi64>
// CHECK-DAG:     %[[C:.*]] = rlx.constant dense<[100, -200, 300]> : tensor<3xi16>
// CHECK-NOT:     rlx.add
// CHECK-NOT:     rlx.mul
// CHECK:         return %[[A]], %[[B]], %[[C]]
func.func @fold_add_int() -> (tensor<2x3xi32>, tensor<2x2xi64>, tensor<3xi16>) {
  %a = rlx.constant dense<[[1], [2]]> : tensor<2x1xi32>
  %b = rlx.constant dense<[10, 20, 30]> : tensor<3xi32>
  %0 = rlx.add %a, %b : (tensor<2x1xi32>, tensor<3xi32>) -> tensor<2x3xi32>
  %c = rlx.constant dense<2> : tensor<2x2xi64>
  %d = rlx.constant dense<3> : tensor<i64>
  %1 = rlx.add %c, %d : (tensor<2x2xi64>, tensor<i64>) -> tensor<2x2xi64>
  %e = rlx.constant dense<100> : tensor<i16>
  %f = rlx.constant dense<[1, -2, 3]> : tensor<3xi16>
  %2 = rlx.mul %e, %f : (tensor<i16>, tensor<3xi16>) -> tensor<3xi16>
  return %0, %1, %2 : tensor<2x3xi32>, tensor<2x2xi64>, tensor<3xi16>
}

// -----

// Integer division truncates toward zero; mod has the sign of the dividend.
// CHECK-LABEL: func.func @fold_div_mod(
// CHECK-DAG:     %[[D:.*]] = rlx.constant dense<[-3, 3]> : tensor<2xi32>
// CHECK-DAG:     %[[M:.*]] = rlx.constant dense<[-1, 1]> : tensor<2xi32>
// CHECK-DAG:     %[[F:.*]] = rlx.constant dense<-1.500000e+00> : tensor<f32>
// CHECK-NOT:     rlx.div
// CHECK-NOT:     rlx.mod
// CHECK:         return %[[D]], %[[M]], %[[F]]
func.func @fold_div_mod() -> (tensor<2xi32>, tensor<2xi32>, tensor<f32>) {
  %a = rlx.constant dense<[-7, 7]> : tensor<2xi32>
  %two = rlx.constant dense<2> : tensor<i32>
  %three = rlx.constant dense<3> : tensor<i32>
  %0 = rlx.div %a, %two : (tensor<2xi32>, tensor<i32>) -> tensor<2xi32>
  %1 = rlx.mod %a, %three : (tensor<2xi32>, tensor<i32>) -> tensor<2xi32>
  %x = rlx.constant dense<-7.5> : tensor<f32>
  %y = rlx.constant dense<2.0> : tensor<f32>
  %2 = rlx.mod %x, %y : (tensor<f32>, tensor<f32>) -> tensor<f32>
  return %0, %1, %2 : tensor<2xi32>, tensor<2xi32>, tensor<f32>
}

// -----

// Integer division is defined for every operand, and folds as it runs:
// x / 0 = 0, x % 0 = x, INT_MIN / -1 = INT_MIN, INT_MIN % -1 = 0.
// CHECK-LABEL: func.func @fold_div_by_zero(
// CHECK-DAG:     %[[D:.*]] = rlx.constant dense<[0, 0, 0, -128, 3]> : tensor<5xi8>
// CHECK-DAG:     %[[M:.*]] = rlx.constant dense<[1, -2, -128, 0, 1]> : tensor<5xi8>
// CHECK-NOT:     rlx.div
// CHECK-NOT:     rlx.mod
// CHECK:         return %[[D]], %[[M]]
func.func @fold_div_by_zero() -> (tensor<5xi8>, tensor<5xi8>) {
  %a = rlx.constant dense<[1, -2, -128, -128, 7]> : tensor<5xi8>
  %b = rlx.constant dense<[0, 0, 0, -1, 2]> : tensor<5xi8>
  %0 = rlx.div %a, %b : (tensor<5xi8>, tensor<5xi8>) -> tensor<5xi8>
  %1 = rlx.mod %a, %b : (tensor<5xi8>, tensor<5xi8>) -> tensor<5xi8>
  return %0, %1 : tensor<5xi8>, tensor<5xi8>
}

// -----

// Shift amounts outside [0, bitwidth) give 0 (shl) or the sign fill (shr).
// CHECK-LABEL: func.func @fold_shifts(
// CHECK-DAG:     %[[L:.*]] = rlx.constant dense<[8, -128, 0, 0]> : tensor<4xi8>
// CHECK-DAG:     %[[R:.*]] = rlx.constant dense<[-64, -1, 0, 1]> : tensor<4xi8>
// CHECK-NOT:     rlx.sh
// CHECK:         return %[[L]], %[[R]]
func.func @fold_shifts() -> (tensor<4xi8>, tensor<4xi8>) {
  %one = rlx.constant dense<1> : tensor<4xi8>
  %a = rlx.constant dense<[3, 7, 8, -1]> : tensor<4xi8>
  %0 = rlx.shl %one, %a : (tensor<4xi8>, tensor<4xi8>) -> tensor<4xi8>
  %x = rlx.constant dense<[-128, -128, 64, 64]> : tensor<4xi8>
  %b = rlx.constant dense<[1, 9, 8, 6]> : tensor<4xi8>
  %1 = rlx.shr %x, %b : (tensor<4xi8>, tensor<4xi8>) -> tensor<4xi8>
  return %0, %1 : tensor<4xi8>, tensor<4xi8>
}

// -----

// CHECK-LABEL: func.func @fold_bitwise(
// CHECK-DAG:     %[[X:.*]] = rlx.constant dense<[false, true]> : tensor<2xi1>
// CHECK-DAG:     %[[A:.*]] = rlx.constant dense<8> : tensor<i32>
// CHECK-DAG:     %[[O:.*]] = rlx.constant dense<14> : tensor<i32>
// CHECK-NOT:     rlx.bit_
// CHECK:         return %[[X]], %[[A]], %[[O]]
func.func @fold_bitwise() -> (tensor<2xi1>, tensor<i32>, tensor<i32>) {
  %p = rlx.constant dense<[true, false]> : tensor<2xi1>
  %q = rlx.constant dense<true> : tensor<2xi1>
  %0 = rlx.bit_xor %p, %q : (tensor<2xi1>, tensor<2xi1>) -> tensor<2xi1>
  %a = rlx.constant dense<12> : tensor<i32>
  %b = rlx.constant dense<10> : tensor<i32>
  %1 = rlx.bit_and %a, %b : (tensor<i32>, tensor<i32>) -> tensor<i32>
  %2 = rlx.bit_or %a, %b : (tensor<i32>, tensor<i32>) -> tensor<i32>
  return %0, %1, %2 : tensor<2xi1>, tensor<i32>, tensor<i32>
}

// -----

// Floats compare ordered, except ne (true for NaN); i1 orders false < true.
// CHECK-LABEL: func.func @fold_compare(
// CHECK-DAG:     %[[LT:.*]] = rlx.constant dense<[true, false, false]> : tensor<3xi1>
// CHECK-DAG:     %[[NE:.*]] = rlx.constant dense<[true, false, true]> : tensor<3xi1>
// CHECK-DAG:     %[[GE:.*]] = rlx.constant dense<{{\[}}[true, false, false], [true, true, false]]> : tensor<2x3xi1>
// CHECK-DAG:     %[[EQ:.*]] = rlx.constant dense<[true, false]> : tensor<2xi1>
// CHECK-DAG:     %[[BLT:.*]] = rlx.constant dense<[false, true]> : tensor<2xi1>
// CHECK-NOT:     rlx.{{eq|ne|lt|ge}}
// CHECK:         return %[[LT]], %[[NE]], %[[GE]], %[[EQ]], %[[BLT]]
func.func @fold_compare() -> (tensor<3xi1>, tensor<3xi1>, tensor<2x3xi1>, tensor<2xi1>, tensor<2xi1>) {
  %x = rlx.constant dense<[1.0, 2.0, 0x7FC00000]> : tensor<3xf32>
  %two = rlx.constant dense<2.0> : tensor<f32>
  %0 = rlx.lt %x, %two : (tensor<3xf32>, tensor<f32>) -> tensor<3xi1>
  %1 = rlx.ne %x, %two : (tensor<3xf32>, tensor<f32>) -> tensor<3xi1>
  %a = rlx.constant dense<[[1], [5]]> : tensor<2x1xi32>
  %b = rlx.constant dense<[0, 5, 9]> : tensor<3xi32>
  %2 = rlx.ge %a, %b : (tensor<2x1xi32>, tensor<3xi32>) -> tensor<2x3xi1>
  %p = rlx.constant dense<[true, false]> : tensor<2xi1>
  %t = rlx.constant dense<true> : tensor<i1>
  %3 = rlx.eq %p, %t : (tensor<2xi1>, tensor<i1>) -> tensor<2xi1>
  %4 = rlx.lt %p, %t : (tensor<2xi1>, tensor<i1>) -> tensor<2xi1>
  return %0, %1, %2, %3, %4 : tensor<3xi1>, tensor<3xi1>, tensor<2x3xi1>, tensor<2xi1>, tensor<2xi1>
}

// -----

// Float to integer truncates toward zero, saturates, and maps NaN to 0.
// CHECK-LABEL: func.func @fold_cast_saturating(
// CHECK-DAG:     %[[I:.*]] = rlx.constant dense<[1, -1, 2147483647, -2147483648, 0]> : tensor<5xi32>
// CHECK-DAG:     %[[B:.*]] = rlx.constant dense<[127, -128, 127, -128]> : tensor<4xi8>
// CHECK-NOT:     rlx.cast
// CHECK:         return %[[I]], %[[B]]
func.func @fold_cast_saturating() -> (tensor<5xi32>, tensor<4xi8>) {
  %x = rlx.constant dense<[1.9, -1.9, 3.0e9, -3.0e9, 0x7FC00000]> : tensor<5xf32>
  %0 = rlx.cast %x : tensor<5xf32> -> tensor<5xi32>
  %y = rlx.constant dense<[300.0, -129.0, 127.9, -128.9]> : tensor<4xf32>
  %1 = rlx.cast %y : tensor<4xf32> -> tensor<4xi8>
  return %0, %1 : tensor<5xi32>, tensor<4xi8>
}

// -----

// CHECK-LABEL: func.func @fold_cast_other(
// CHECK-DAG:     %[[TOB:.*]] = rlx.constant dense<[false, false, true, true]> : tensor<4xi1>
// CHECK-DAG:     %[[FROMB:.*]] = rlx.constant dense<[1.000000e+00, 0.000000e+00]> : tensor<2xf32>
// CHECK-DAG:     %[[EXT:.*]] = rlx.constant dense<[-1, 127]> : tensor<2xi32>
// CHECK-DAG:     %[[TRUNC:.*]] = rlx.constant dense<1.000000e-01> : tensor<f32>
// CHECK-DAG:     %[[H:.*]] = rlx.constant dense<[1.000000e+00, 6.550400e+04, 0x7C00]> : tensor<3xf16>
// CHECK-NOT:     rlx.cast
// CHECK:         return %[[TOB]], %[[FROMB]], %[[EXT]], %[[TRUNC]], %[[H]]
func.func @fold_cast_other() -> (tensor<4xi1>, tensor<2xf32>, tensor<2xi32>, tensor<f32>, tensor<3xf16>) {
  %a = rlx.constant dense<[0.0, -0.0, 2.0, 0x7FC00000]> : tensor<4xf32>
  %0 = rlx.cast %a : tensor<4xf32> -> tensor<4xi1>
  %b = rlx.constant dense<[true, false]> : tensor<2xi1>
  %1 = rlx.cast %b : tensor<2xi1> -> tensor<2xf32>
  %c = rlx.constant dense<[-1, 127]> : tensor<2xi8>
  %2 = rlx.cast %c : tensor<2xi8> -> tensor<2xi32>
  %d = rlx.constant dense<0.1> : tensor<f64>
  %3 = rlx.cast %d : tensor<f64> -> tensor<f32>
  %e = rlx.constant dense<[1.0, 65504.0, 1.0e5]> : tensor<3xf32>
  %4 = rlx.cast %e : tensor<3xf32> -> tensor<3xf16>
  return %0, %1, %2, %3, %4 : tensor<4xi1>, tensor<2xf32>, tensor<2xi32>, tensor<f32>, tensor<3xf16>
}

// -----

// CHECK-LABEL: func.func @fold_where(
// CHECK-DAG:     %[[A:.*]] = rlx.constant dense<[1, 4]> : tensor<2xi32>
// CHECK-DAG:     %[[B:.*]] = rlx.constant dense<{{\[}}[1.000000e+00, 1.000000e+00], [2.000000e+00, 3.000000e+00]]> : tensor<2x2xf32>
// CHECK-NOT:     rlx.where
// CHECK:         return %[[A]], %[[B]]
func.func @fold_where() -> (tensor<2xi32>, tensor<2x2xf32>) {
  %c = rlx.constant dense<[true, false]> : tensor<2xi1>
  %t = rlx.constant dense<[1, 2]> : tensor<2xi32>
  %f = rlx.constant dense<[3, 4]> : tensor<2xi32>
  %0 = rlx.where %c, %t, %f : (tensor<2xi1>, tensor<2xi32>, tensor<2xi32>) -> tensor<2xi32>
  %c2 = rlx.constant dense<[[true], [false]]> : tensor<2x1xi1>
  %t2 = rlx.constant dense<1.0> : tensor<f32>
  %f2 = rlx.constant dense<[2.0, 3.0]> : tensor<2xf32>
  %1 = rlx.where %c2, %t2, %f2 : (tensor<2x1xi1>, tensor<f32>, tensor<2xf32>) -> tensor<2x2xf32>
  return %0, %1 : tensor<2xi32>, tensor<2x2xf32>
}

// -----

// CHECK-LABEL: func.func @fold_unary(
// CHECK-DAG:     %[[RELU:.*]] = rlx.constant dense<[0, 0, 5]> : tensor<3xi32>
// CHECK-DAG:     %[[SIGN:.*]] = rlx.constant dense<[-1.000000e+00, 0.000000e+00, 1.000000e+00]> : tensor<3xf32>
// CHECK-DAG:     %[[ABS:.*]] = rlx.constant dense<5> : tensor<i32>
// CHECK-DAG:     %[[ROUND:.*]] = rlx.constant dense<[0.000000e+00, 2.000000e+00, 2.000000e+00, -0.000000e+00]> : tensor<4xf32>
// CHECK-DAG:     %[[SIG:.*]] = rlx.constant dense<5.000000e-01> : tensor<2xf32>
// CHECK-DAG:     %[[SQRT:.*]] = rlx.constant dense<[2.000000e+00, 1.4142135623730951]> : tensor<2xf64>
// CHECK-NOT:     rlx.{{relu|sign|abs|round|sigmoid|sqrt}}
// CHECK:         return %[[RELU]], %[[SIGN]], %[[ABS]], %[[ROUND]], %[[SIG]], %[[SQRT]]
func.func @fold_unary() -> (tensor<3xi32>, tensor<3xf32>, tensor<i32>, tensor<4xf32>, tensor<2xf32>, tensor<2xf64>) {
  %a = rlx.constant dense<[-3, 0, 5]> : tensor<3xi32>
  %0 = rlx.relu %a : tensor<3xi32>
  %b = rlx.constant dense<[-2.0, 0.0, 3.0]> : tensor<3xf32>
  %1 = rlx.sign %b : tensor<3xf32>
  %c = rlx.constant dense<-5> : tensor<i32>
  %2 = rlx.abs %c : tensor<i32>
  %d = rlx.constant dense<[0.5, 1.5, 2.5, -0.5]> : tensor<4xf32>
  %3 = rlx.round %d : tensor<4xf32>
  %e = rlx.constant dense<0.0> : tensor<2xf32>
  %4 = rlx.sigmoid %e : tensor<2xf32>
  %f = rlx.constant dense<[4.0, 2.0]> : tensor<2xf64>
  %5 = rlx.sqrt %f : tensor<2xf64>
  return %0, %1, %2, %3, %4, %5 : tensor<3xi32>, tensor<3xf32>, tensor<i32>, tensor<4xf32>, tensor<2xf32>, tensor<2xf64>
}

// -----

// Clamp bounds are truncated toward zero for integer tensors.
// CHECK-LABEL: func.func @fold_clamp(
// CHECK-DAG:     %[[F:.*]] = rlx.constant dense<6.000000e+00> : tensor<2xf32>
// CHECK-DAG:     %[[I:.*]] = rlx.constant dense<[-2, 2, 2]> : tensor<3xi32>
// CHECK-DAG:     %[[B:.*]] = rlx.constant dense<[-100, 0, 100]> : tensor<3xi8>
// CHECK-NOT:     rlx.clamp
// CHECK:         return %[[F]], %[[I]], %[[B]]
func.func @fold_clamp() -> (tensor<2xf32>, tensor<3xi32>, tensor<3xi8>) {
  %a = rlx.constant dense<7.5> : tensor<2xf32>
  %0 = rlx.clamp %a {min = 0.0, max = 6.0} : tensor<2xf32>
  %b = rlx.constant dense<[-10, 3, 10]> : tensor<3xi32>
  %1 = rlx.clamp %b {min = -2.5, max = 2.5} : tensor<3xi32>
  // Bounds beyond the i8 range clamp nothing.
  %c = rlx.constant dense<[-100, 0, 100]> : tensor<3xi8>
  %2 = rlx.clamp %c {min = -1000.0, max = 300.0} : tensor<3xi8>
  return %0, %1, %2 : tensor<2xf32>, tensor<3xi32>, tensor<3xi8>
}

// -----

// CHECK-LABEL: func.func @fold_ternary_and_nan(
// CHECK-DAG:     %[[FMA:.*]] = rlx.constant dense<7.000000e+00> : tensor<2xf32>
// CHECK-DAG:     %[[POW:.*]] = rlx.constant dense<1.024000e+03> : tensor<f32>
// CHECK-DAG:     %[[MAX:.*]] = rlx.constant dense<[2.000000e+00, 0x7FC00000]> : tensor<2xf32>
// CHECK-DAG:     %[[MIN:.*]] = rlx.constant dense<[1.000000e+00, 0x7FC00000]> : tensor<2xf32>
// CHECK-NOT:     rlx.{{fma|pow|max|min}}
// CHECK:         return %[[FMA]], %[[POW]], %[[MAX]], %[[MIN]]
func.func @fold_ternary_and_nan() -> (tensor<2xf32>, tensor<f32>, tensor<2xf32>, tensor<2xf32>) {
  %two = rlx.constant dense<2.0> : tensor<f32>
  %three = rlx.constant dense<3.0> : tensor<2xf32>
  %one = rlx.constant dense<1.0> : tensor<f32>
  %0 = rlx.fma %two, %three, %one : (tensor<f32>, tensor<2xf32>, tensor<f32>) -> tensor<2xf32>
  %ten = rlx.constant dense<10.0> : tensor<f32>
  %1 = rlx.pow %two, %ten : (tensor<f32>, tensor<f32>) -> tensor<f32>
  %x = rlx.constant dense<[1.0, 0x7FC00000]> : tensor<2xf32>
  %y = rlx.constant dense<[2.0, 0.0]> : tensor<2xf32>
  %2 = rlx.max %x, %y : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  %3 = rlx.min %x, %y : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  return %0, %1, %2, %3 : tensor<2xf32>, tensor<f32>, tensor<2xf32>, tensor<2xf32>
}

// -----

// Zero-element tensors fold to zero-element constants.
// CHECK-LABEL: func.func @fold_zero_elements(
// CHECK-NEXT:    %[[A:.*]] = rlx.constant dense<> : tensor<0x3xf32>
// CHECK-NEXT:    return %[[A]]
func.func @fold_zero_elements() -> tensor<0x3xf32> {
  %a = rlx.constant dense<> : tensor<0x3xf32>
  %0 = rlx.exp %a : tensor<0x3xf32>
  return %0 : tensor<0x3xf32>
}

// -----

// A splat of a zero-element type (valid MLIR) must not divide by the zero
// dimension when folding.
// CHECK-LABEL: func.func @fold_zero_elements_splat(
// CHECK-NEXT:    %[[A:.*]] = rlx.constant dense<{{.*}}> : tensor<0x3xf32>
// CHECK-NEXT:    return %[[A]]
func.func @fold_zero_elements_splat() -> tensor<0x3xf32> {
  %b = rlx.constant dense<1.0> : tensor<0x3xf32>
  %0 = rlx.exp %b : tensor<0x3xf32>
  return %0 : tensor<0x3xf32>
}
