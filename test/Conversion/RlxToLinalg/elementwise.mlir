// RUN: rlx-opt %s --rlx-to-linalg -split-input-file | FileCheck %s

// Elementwise rlx ops become one linalg.generic each: all-parallel loops over
// the result, numpy broadcasting in the indexing maps (dropped leading dims,
// constant 0 for size-1 dims), and the op's scalar formula as the body.

// gelu is the exact (erf) form: 0.5 * x * (1 + erf(x / sqrt(2))).

// CHECK-DAG:   #[[ID:map[0-9]*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @gelu(
// CHECK-SAME:      %[[ARG:.*]]: tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK:         %[[INIT:.*]] = tensor.empty() : tensor<2x3xf32>
// CHECK:         %[[R:.*]] = linalg.generic
// CHECK-SAME:        indexing_maps = [#[[ID]], #[[ID]]]
// CHECK-SAME:        iterator_types = ["parallel", "parallel"]
// CHECK-SAME:        ins(%[[ARG]] : tensor<2x3xf32>) outs(%[[INIT]] : tensor<2x3xf32>)
// CHECK:         ^bb0(%[[X:[a-z0-9_]+]]: f32, %{{[a-z0-9_]+}}: f32):
// CHECK-DAG:       %[[HALF:.*]] = arith.constant 5.000000e-01 : f32
// CHECK-DAG:       %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// CHECK-DAG:       %[[RSQRT2:.*]] = arith.constant 0.707106769 : f32
// CHECK-DAG:       %[[HX:.*]] = arith.mulf %[[X]], %[[HALF]] : f32
// CHECK-DAG:       %[[SCALED:.*]] = arith.mulf %[[X]], %[[RSQRT2]] : f32
// CHECK:           %[[ERF:.*]] = math.erf %[[SCALED]] : f32
// CHECK:           %[[SUM:.*]] = arith.addf %[[ERF]], %[[ONE]] : f32
// CHECK:           %[[Y:.*]] = arith.mulf %[[HX]], %[[SUM]] : f32
// CHECK:           linalg.yield %[[Y]] : f32
// CHECK:         } -> tensor<2x3xf32>
// CHECK:         return %[[R]]
func.func @gelu(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = rlx.gelu %x : tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// f16 computes in f32: extend every operand, round the result once.
// The rank-1 operand drops the leading loop dimension.

// CHECK-DAG:   #[[ID:map[0-9]*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG:   #[[ROW:map[0-9]*]] = affine_map<(d0, d1) -> (d1)>
// CHECK-LABEL: func.func @add_f16_broadcast(
// CHECK-SAME:      %[[A:.*]]: tensor<2x3xf16>, %[[B:.*]]: tensor<3xf16>)
// CHECK:         %[[INIT:.*]] = tensor.empty() : tensor<2x3xf16>
// CHECK:         linalg.generic
// CHECK-SAME:        indexing_maps = [#[[ID]], #[[ROW]], #[[ID]]]
// CHECK-SAME:        iterator_types = ["parallel", "parallel"]
// CHECK-SAME:        ins(%[[A]], %[[B]] : tensor<2x3xf16>, tensor<3xf16>)
// CHECK-SAME:        outs(%[[INIT]] : tensor<2x3xf16>)
// CHECK:         ^bb0(%[[X:[a-z0-9_]+]]: f16, %[[Y:[a-z0-9_]+]]: f16, %{{[a-z0-9_]+}}: f16):
// CHECK:           %[[XE:.*]] = arith.extf %[[X]] : f16 to f32
// CHECK:           %[[YE:.*]] = arith.extf %[[Y]] : f16 to f32
// CHECK:           %[[S:.*]] = arith.addf %[[XE]], %[[YE]] : f32
// CHECK:           %[[T:.*]] = arith.truncf %[[S]] : f32 to f16
// CHECK:           linalg.yield %[[T]] : f16
// CHECK:         } -> tensor<2x3xf16>
func.func @add_f16_broadcast(%a: tensor<2x3xf16>, %b: tensor<3xf16>) -> tensor<2x3xf16> {
  %0 = rlx.add %a, %b : (tensor<2x3xf16>, tensor<3xf16>) -> tensor<2x3xf16>
  return %0 : tensor<2x3xf16>
}

// -----

// Size-1 dimensions read index 0; missing leading dimensions are dropped.

// CHECK-DAG:   #[[LHS:map[0-9]*]] = affine_map<(d0, d1, d2) -> (d0, 0, d2)>
// CHECK-DAG:   #[[RHS:map[0-9]*]] = affine_map<(d0, d1, d2) -> (d1, 0)>
// CHECK-DAG:   #[[ID:map[0-9]*]] = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-LABEL: func.func @sub_broadcast_size_one(
// CHECK:         tensor.empty() : tensor<4x5x3xf32>
// CHECK:         linalg.generic
// CHECK-SAME:        indexing_maps = [#[[LHS]], #[[RHS]], #[[ID]]]
// CHECK-SAME:        iterator_types = ["parallel", "parallel", "parallel"]
// CHECK:           arith.subf
// CHECK:         } -> tensor<4x5x3xf32>
func.func @sub_broadcast_size_one(%a: tensor<4x1x3xf32>, %b: tensor<5x1xf32>) -> tensor<4x5x3xf32> {
  %0 = rlx.sub %a, %b : (tensor<4x1x3xf32>, tensor<5x1xf32>) -> tensor<4x5x3xf32>
  return %0 : tensor<4x5x3xf32>
}

// -----

// A rank-0 operand reads the same element on every iteration.

// CHECK-DAG:   #[[SCALAR:map[0-9]*]] = affine_map<(d0) -> ()>
// CHECK-DAG:   #[[ID:map[0-9]*]] = affine_map<(d0) -> (d0)>
// CHECK-LABEL: func.func @mul_rank0_operand(
// CHECK:         linalg.generic
// CHECK-SAME:        indexing_maps = [#[[SCALAR]], #[[ID]], #[[ID]]]
// CHECK-SAME:        iterator_types = ["parallel"]
// CHECK-SAME:        ins(%{{.*}}, %{{.*}} : tensor<f32>, tensor<3xf32>)
// CHECK:           arith.mulf
// CHECK:         } -> tensor<3xf32>
func.func @mul_rank0_operand(%a: tensor<f32>, %b: tensor<3xf32>) -> tensor<3xf32> {
  %0 = rlx.mul %a, %b : (tensor<f32>, tensor<3xf32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

// A rank-0 op is a generic with no loops. bf16 also computes in f32.
// sigmoid(x) = 1 / (1 + exp(-x)).

// CHECK:       #[[EMPTY:map[0-9]*]] = affine_map<() -> ()>
// CHECK-LABEL: func.func @sigmoid_bf16_rank0(
// CHECK:         tensor.empty() : tensor<bf16>
// CHECK:         linalg.generic
// CHECK-SAME:        indexing_maps = [#[[EMPTY]], #[[EMPTY]]]
// CHECK-SAME:        iterator_types = []
// CHECK:         ^bb0(%[[X:[a-z0-9_]+]]: bf16, %{{[a-z0-9_]+}}: bf16):
// CHECK-DAG:       %[[XE:.*]] = arith.extf %[[X]] : bf16 to f32
// CHECK-DAG:       %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// CHECK:           %[[NEG:.*]] = arith.negf %[[XE]] : f32
// CHECK:           %[[EXP:.*]] = math.exp %[[NEG]] : f32
// CHECK:           %[[DEN:.*]] = arith.addf %[[EXP]], %[[ONE]] : f32
// CHECK:           %[[Q:.*]] = arith.divf %[[ONE]], %[[DEN]] : f32
// CHECK:           %[[T:.*]] = arith.truncf %[[Q]] : f32 to bf16
// CHECK:           linalg.yield %[[T]] : bf16
// CHECK:         } -> tensor<bf16>
func.func @sigmoid_bf16_rank0(%a: tensor<bf16>) -> tensor<bf16> {
  %0 = rlx.sigmoid %a : tensor<bf16>
  return %0 : tensor<bf16>
}

// -----

// f64 is a computation type of its own: no extension.

// CHECK-LABEL: func.func @exp_f64(
// CHECK:         linalg.generic
// CHECK:         ^bb0(%[[X:[a-z0-9_]+]]: f64, %{{[a-z0-9_]+}}: f64):
// CHECK-NOT:       arith.extf
// CHECK:           %[[E:.*]] = math.exp %[[X]] : f64
// CHECK-NEXT:      linalg.yield %[[E]] : f64
func.func @exp_f64(%a: tensor<4xf64>) -> tensor<4xf64> {
  %0 = rlx.exp %a : tensor<4xf64>
  return %0 : tensor<4xf64>
}

// -----

// Float comparisons are ordered, except ne, which is unordered (true for NaN).
// The result is i1 whatever the operand type.

// CHECK-LABEL: func.func @cmp_eq(
// CHECK:         ^bb0(%[[A:[a-z0-9_]+]]: f32, %[[B:[a-z0-9_]+]]: f32, %{{[a-z0-9_]+}}: i1):
// CHECK:           %[[C:.*]] = arith.cmpf oeq, %[[A]], %[[B]] : f32
// CHECK:           linalg.yield %[[C]] : i1
// CHECK:         } -> tensor<4xi1>
func.func @cmp_eq(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xi1> {
  %0 = rlx.eq %a, %b : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  return %0 : tensor<4xi1>
}
// CHECK-LABEL: func.func @cmp_ne(
// CHECK:         arith.cmpf une, %{{.*}}, %{{.*}} : f32
func.func @cmp_ne(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xi1> {
  %0 = rlx.ne %a, %b : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  return %0 : tensor<4xi1>
}
// CHECK-LABEL: func.func @cmp_lt(
// CHECK:         arith.cmpf olt, %{{.*}}, %{{.*}} : f32
func.func @cmp_lt(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xi1> {
  %0 = rlx.lt %a, %b : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  return %0 : tensor<4xi1>
}
// CHECK-LABEL: func.func @cmp_le(
// CHECK:         arith.cmpf ole, %{{.*}}, %{{.*}} : f32
func.func @cmp_le(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xi1> {
  %0 = rlx.le %a, %b : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  return %0 : tensor<4xi1>
}
// CHECK-LABEL: func.func @cmp_gt(
// CHECK:         arith.cmpf ogt, %{{.*}}, %{{.*}} : f32
func.func @cmp_gt(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xi1> {
  %0 = rlx.gt %a, %b : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  return %0 : tensor<4xi1>
}

// f16 compares after extension to f32, with nothing to truncate afterwards.

// CHECK-LABEL: func.func @cmp_ge_f16(
// CHECK:         linalg.generic
// CHECK-SAME:        ins(%{{.*}}, %{{.*}} : tensor<4xf16>, tensor<1xf16>)
// CHECK-SAME:        outs(%{{.*}} : tensor<4xi1>)
// CHECK:         ^bb0(%[[A:[a-z0-9_]+]]: f16, %[[B:[a-z0-9_]+]]: f16, %{{[a-z0-9_]+}}: i1):
// CHECK:           %[[AE:.*]] = arith.extf %[[A]] : f16 to f32
// CHECK:           %[[BE:.*]] = arith.extf %[[B]] : f16 to f32
// CHECK:           %[[C:.*]] = arith.cmpf oge, %[[AE]], %[[BE]] : f32
// CHECK-NEXT:      linalg.yield %[[C]] : i1
func.func @cmp_ge_f16(%a: tensor<4xf16>, %b: tensor<1xf16>) -> tensor<4xi1> {
  %0 = rlx.ge %a, %b : (tensor<4xf16>, tensor<1xf16>) -> tensor<4xi1>
  return %0 : tensor<4xi1>
}

// Integers compare signed; booleans order false < true (unsigned).

// CHECK-LABEL: func.func @cmp_int(
// CHECK:         arith.cmpi slt, %{{.*}}, %{{.*}} : i32
// CHECK:         arith.cmpi sle, %{{.*}}, %{{.*}} : i32
// CHECK:         arith.cmpi sgt, %{{.*}}, %{{.*}} : i32
// CHECK:         arith.cmpi sge, %{{.*}}, %{{.*}} : i32
// CHECK:         arith.cmpi eq, %{{.*}}, %{{.*}} : i32
// CHECK:         arith.cmpi ne, %{{.*}}, %{{.*}} : i32
func.func @cmp_int(%a: tensor<4xi32>, %b: tensor<4xi32>) -> (tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>) {
  %0 = rlx.lt %a, %b : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi1>
  %1 = rlx.le %a, %b : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi1>
  %2 = rlx.gt %a, %b : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi1>
  %3 = rlx.ge %a, %b : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi1>
  %4 = rlx.eq %a, %b : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi1>
  %5 = rlx.ne %a, %b : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi1>
  return %0, %1, %2, %3, %4, %5 : tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>
}
// CHECK-LABEL: func.func @cmp_bool(
// CHECK:         arith.cmpi ult, %{{.*}}, %{{.*}} : i1
// CHECK:         arith.cmpi uge, %{{.*}}, %{{.*}} : i1
func.func @cmp_bool(%a: tensor<4xi1>, %b: tensor<4xi1>) -> (tensor<4xi1>, tensor<4xi1>) {
  %0 = rlx.lt %a, %b : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
  %1 = rlx.ge %a, %b : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
  return %0, %1 : tensor<4xi1>, tensor<4xi1>
}

// -----

// Integer arithmetic is signed: division truncates (divsi), the remainder
// takes the sign of the dividend (remsi), max/min are signed. Division never
// traps: the divisor becomes 1 where it is 0 or where INT_MIN / -1
// overflows, then x / 0 selects 0 and x % 0 selects x.

// CHECK-LABEL: func.func @int_div(
// CHECK:         ^bb0(%[[A:[a-z0-9_]+]]: i32, %[[B:[a-z0-9_]+]]: i32, %{{[a-z0-9_]+}}: i32):
// CHECK-DAG:       %[[MIN:.*]] = arith.constant -2147483648 : i32
// CHECK-DAG:       %[[ZERO:.*]] = arith.constant 0 : i32
// CHECK-DAG:       %[[MINUS1:.*]] = arith.constant -1 : i32
// CHECK-DAG:       %[[BZERO:.*]] = arith.cmpi eq, %[[B]], %[[ZERO]] : i32
// CHECK-DAG:       %[[AMIN:.*]] = arith.cmpi eq, %[[A]], %[[MIN]] : i32
// CHECK-DAG:       %[[BM1:.*]] = arith.cmpi eq, %[[B]], %[[MINUS1]] : i32
// CHECK:           %[[OVERFLOW:.*]] = arith.andi %[[AMIN]], %[[BM1]] : i1
// CHECK:           %[[SPECIAL:.*]] = arith.ori %[[BZERO]], %[[OVERFLOW]] : i1
// CHECK:           %[[SAFE:.*]] = arith.select %[[SPECIAL]], %{{.*}}, %[[B]] : i32
// CHECK:           %[[Q:.*]] = arith.divsi %[[A]], %[[SAFE]] : i32
// CHECK:           %[[R:.*]] = arith.select %[[BZERO]], %{{.*}}, %[[Q]] : i32
// CHECK-NEXT:      linalg.yield %[[R]] : i32
func.func @int_div(%a: tensor<4xi32>, %b: tensor<4xi32>) -> tensor<4xi32> {
  %0 = rlx.div %a, %b : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}
// CHECK-LABEL: func.func @int_mod(
// CHECK:         ^bb0(%[[A:[a-z0-9_]+]]: i16, %[[B:[a-z0-9_]+]]: i16, %{{[a-z0-9_]+}}: i16):
// CHECK:           %[[BZERO:.*]] = arith.cmpi eq, %[[B]], %{{.*}} : i16
// CHECK:           %[[SAFE:.*]] = arith.select %{{.*}}, %{{.*}}, %[[B]] : i16
// CHECK:           %[[REM:.*]] = arith.remsi %[[A]], %[[SAFE]] : i16
// CHECK:           %[[R:.*]] = arith.select %[[BZERO]], %[[A]], %[[REM]] : i16
// CHECK-NEXT:      linalg.yield %[[R]] : i16
func.func @int_mod(%a: tensor<4xi16>, %b: tensor<4xi16>) -> tensor<4xi16> {
  %0 = rlx.mod %a, %b : (tensor<4xi16>, tensor<4xi16>) -> tensor<4xi16>
  return %0 : tensor<4xi16>
}
// CHECK-LABEL: func.func @float_mod(
// CHECK:         arith.remf %{{.*}}, %{{.*}} : f64
func.func @float_mod(%a: tensor<4xf64>, %b: tensor<4xf64>) -> tensor<4xf64> {
  %0 = rlx.mod %a, %b : (tensor<4xf64>, tensor<4xf64>) -> tensor<4xf64>
  return %0 : tensor<4xf64>
}
// CHECK-LABEL: func.func @int_max_min(
// CHECK:         arith.maxsi %{{.*}}, %{{.*}} : i64
// CHECK:         arith.minsi %{{.*}}, %{{.*}} : i64
func.func @int_max_min(%a: tensor<4xi64>, %b: tensor<4xi64>) -> (tensor<4xi64>, tensor<4xi64>) {
  %0 = rlx.max %a, %b : (tensor<4xi64>, tensor<4xi64>) -> tensor<4xi64>
  %1 = rlx.min %a, %b : (tensor<4xi64>, tensor<4xi64>) -> tensor<4xi64>
  return %0, %1 : tensor<4xi64>, tensor<4xi64>
}
// Float max/min propagate NaN.
// CHECK-LABEL: func.func @float_max_min(
// CHECK:         arith.maximumf %{{.*}}, %{{.*}} : f32
// CHECK:         arith.minimumf %{{.*}}, %{{.*}} : f32
func.func @float_max_min(%a: tensor<4xf32>, %b: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %0 = rlx.max %a, %b : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %1 = rlx.min %a, %b : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0, %1 : tensor<4xf32>, tensor<4xf32>
}
// CHECK-LABEL: func.func @int_relu(
// CHECK:         ^bb0(%[[X:[a-z0-9_]+]]: i64, %{{[a-z0-9_]+}}: i64):
// CHECK:           %[[ZERO:.*]] = arith.constant 0 : i64
// CHECK:           %[[R:.*]] = arith.maxsi %[[X]], %[[ZERO]] : i64
// CHECK-NEXT:      linalg.yield %[[R]] : i64
func.func @int_relu(%a: tensor<4xi64>) -> tensor<4xi64> {
  %0 = rlx.relu %a : tensor<4xi64>
  return %0 : tensor<4xi64>
}
// CHECK-LABEL: func.func @int_abs_neg(
// CHECK:         math.absi %{{.*}} : i8
// CHECK:         ^bb0(%[[X:[a-z0-9_]+]]: i8, %{{[a-z0-9_]+}}: i8):
// CHECK:           %[[ZERO:.*]] = arith.constant 0 : i8
// CHECK:           %[[N:.*]] = arith.subi %[[ZERO]], %[[X]] : i8
// CHECK-NEXT:      linalg.yield %[[N]] : i8
func.func @int_abs_neg(%a: tensor<4xi8>) -> (tensor<4xi8>, tensor<4xi8>) {
  %0 = rlx.abs %a : tensor<4xi8>
  %1 = rlx.neg %a : tensor<4xi8>
  return %0, %1 : tensor<4xi8>, tensor<4xi8>
}
// CHECK-LABEL: func.func @fma(
// CHECK:         ^bb0(%[[A:[a-z0-9_]+]]: f32, %[[B:[a-z0-9_]+]]: f32, %[[C:[a-z0-9_]+]]: f32, %{{[a-z0-9_]+}}: f32):
// CHECK:           %[[R:.*]] = math.fma %[[A]], %[[B]], %[[C]] : f32
// CHECK-NEXT:      linalg.yield %[[R]] : f32
func.func @fma(%a: tensor<4xf32>, %b: tensor<4xf32>, %c: tensor<4xf32>) -> tensor<4xf32> {
  %0 = rlx.fma %a, %b, %c : (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// Shifts: arith shifts are poison for amounts outside [0, bitwidth), so the
// lowering selects 0 (shl) or the sign fill (shr) there. The unsigned
// comparison also catches negative amounts.

// CHECK-LABEL: func.func @shl(
// CHECK:         ^bb0(%[[X:[a-z0-9_]+]]: i8, %[[N:[a-z0-9_]+]]: i8, %{{[a-z0-9_]+}}: i8):
// CHECK-DAG:       %[[SH:.*]] = arith.shli %[[X]], %[[N]] : i8
// CHECK-DAG:       %[[W:.*]] = arith.constant 8 : i8
// CHECK-DAG:       %[[ZERO:.*]] = arith.constant 0 : i8
// CHECK-DAG:       %[[OK:.*]] = arith.cmpi ult, %[[N]], %[[W]] : i8
// CHECK:           %[[R:.*]] = arith.select %[[OK]], %[[SH]], %[[ZERO]] : i8
// CHECK-NEXT:      linalg.yield %[[R]] : i8
func.func @shl(%a: tensor<4xi8>, %b: tensor<4xi8>) -> tensor<4xi8> {
  %0 = rlx.shl %a, %b : (tensor<4xi8>, tensor<4xi8>) -> tensor<4xi8>
  return %0 : tensor<4xi8>
}

// CHECK-LABEL: func.func @shr(
// CHECK:         ^bb0(%[[X:[a-z0-9_]+]]: i16, %[[N:[a-z0-9_]+]]: i16, %{{[a-z0-9_]+}}: i16):
// CHECK-DAG:       %[[SH:.*]] = arith.shrsi %[[X]], %[[N]] : i16
// CHECK-DAG:       %[[C15:.*]] = arith.constant 15 : i16
// CHECK-DAG:       %[[FILL:.*]] = arith.shrsi %[[X]], %[[C15]] : i16
// CHECK-DAG:       %[[W:.*]] = arith.constant 16 : i16
// CHECK-DAG:       %[[OK:.*]] = arith.cmpi ult, %[[N]], %[[W]] : i16
// CHECK:           %[[R:.*]] = arith.select %[[OK]], %[[SH]], %[[FILL]] : i16
// CHECK-NEXT:      linalg.yield %[[R]] : i16
func.func @shr(%a: tensor<4xi16>, %b: tensor<4xi16>) -> tensor<4xi16> {
  %0 = rlx.shr %a, %b : (tensor<4xi16>, tensor<4xi16>) -> tensor<4xi16>
  return %0 : tensor<4xi16>
}

// -----

// where broadcasts all three operands; the condition stays i1.

// CHECK-DAG:   #[[COND:map[0-9]*]] = affine_map<(d0, d1) -> (d0, 0)>
// CHECK-DAG:   #[[TRUE:map[0-9]*]] = affine_map<(d0, d1) -> (d1)>
// CHECK-DAG:   #[[FALSE:map[0-9]*]] = affine_map<(d0, d1) -> ()>
// CHECK-DAG:   #[[ID:map[0-9]*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @where(
// CHECK:         linalg.generic
// CHECK-SAME:        indexing_maps = [#[[COND]], #[[TRUE]], #[[FALSE]], #[[ID]]]
// CHECK-SAME:        ins(%{{.*}}, %{{.*}}, %{{.*}} : tensor<2x1xi1>, tensor<3xf32>, tensor<f32>)
// CHECK:         ^bb0(%[[C:[a-z0-9_]+]]: i1, %[[T:[a-z0-9_]+]]: f32, %[[F:[a-z0-9_]+]]: f32, %{{[a-z0-9_]+}}: f32):
// CHECK:           %[[R:.*]] = arith.select %[[C]], %[[T]], %[[F]] : f32
// CHECK-NEXT:      linalg.yield %[[R]] : f32
// CHECK:         } -> tensor<2x3xf32>
func.func @where(%c: tensor<2x1xi1>, %a: tensor<3xf32>, %b: tensor<f32>) -> tensor<2x3xf32> {
  %0 = rlx.where %c, %a, %b : (tensor<2x1xi1>, tensor<3xf32>, tensor<f32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// Float to integer truncates toward zero and saturates; NaN gives 0. The
// bounds are -2^31 and 2^31 (exact in f32).

// CHECK-LABEL: func.func @cast_f16_to_i32(
// CHECK:         ^bb0(%[[X:[a-z0-9_]+]]: f16, %{{[a-z0-9_]+}}: i32):
// CHECK-DAG:       %[[XE:.*]] = arith.extf %[[X]] : f16 to f32
// CHECK-DAG:       %[[T:.*]] = arith.fptosi %[[XE]] : f32 to i32
// CHECK-DAG:       %[[IMAX:.*]] = arith.constant 2147483647 : i32
// CHECK-DAG:       %[[IMIN:.*]] = arith.constant -2147483648 : i32
// CHECK-DAG:       %[[I0:.*]] = arith.constant 0 : i32
// CHECK-DAG:       %[[LO:.*]] = arith.constant -2.14748365E+9 : f32
// CHECK-DAG:       %[[HI:.*]] = arith.constant 2.14748365E+9 : f32
// CHECK-DAG:       %[[NAN:.*]] = arith.cmpf uno, %[[XE]], %[[XE]] : f32
// CHECK-DAG:       %[[R1:.*]] = arith.select %[[NAN]], %[[I0]], %[[T]] : i32
// CHECK-DAG:       %[[UNDER:.*]] = arith.cmpf olt, %[[XE]], %[[LO]] : f32
// CHECK-DAG:       %[[R2:.*]] = arith.select %[[UNDER]], %[[IMIN]], %[[R1]] : i32
// CHECK-DAG:       %[[OVER:.*]] = arith.cmpf oge, %[[XE]], %[[HI]] : f32
// CHECK-DAG:       %[[R3:.*]] = arith.select %[[OVER]], %[[IMAX]], %[[R2]] : i32
// CHECK:           linalg.yield %[[R3]] : i32
func.func @cast_f16_to_i32(%a: tensor<4xf16>) -> tensor<4xi32> {
  %0 = rlx.cast %a : tensor<4xf16> -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// bool to float is 0 or 1 (unsigned). Integers reach bf16 through f64, and
// f64 -> bf16 rounds once: round-to-odd to f32, then to nearest even.
// CHECK-LABEL: func.func @cast_i1_to_bf16(
// CHECK:         ^bb0(%[[X:[a-z0-9_]+]]: i1, %{{[a-z0-9_]+}}: bf16):
// CHECK:           %[[F:.*]] = arith.uitofp %[[X]] : i1 to f64
// CHECK:           %[[N:.*]] = arith.truncf %[[F]] : f64 to f32
// CHECK:           %[[BITS:.*]] = arith.bitcast %[[N]] : f32 to i32
// CHECK:           arith.ori
// CHECK:           %[[INEXACT:.*]] = arith.cmpf une, %{{.*}}, %[[F]] : f64
// CHECK:           %[[SEL:.*]] = arith.select %[[INEXACT]], %{{.*}}, %[[BITS]] : i32
// CHECK:           %[[ODD:.*]] = arith.bitcast %[[SEL]] : i32 to f32
// CHECK:           %[[T:.*]] = arith.truncf %[[ODD]] : f32 to bf16
// CHECK-NEXT:      linalg.yield %[[T]] : bf16
func.func @cast_i1_to_bf16(%a: tensor<4xi1>) -> tensor<4xbf16> {
  %0 = rlx.cast %a : tensor<4xi1> -> tensor<4xbf16>
  return %0 : tensor<4xbf16>
}

// Anything to bool is x != 0; for floats unordered, so NaN gives true.
// CHECK-LABEL: func.func @cast_f32_to_i1(
// CHECK:         ^bb0(%[[X:[a-z0-9_]+]]: f32, %{{[a-z0-9_]+}}: i1):
// CHECK:           %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK:           %[[B:.*]] = arith.cmpf une, %[[X]], %[[ZERO]] : f32
// CHECK-NEXT:      linalg.yield %[[B]] : i1
func.func @cast_f32_to_i1(%a: tensor<4xf32>) -> tensor<4xi1> {
  %0 = rlx.cast %a : tensor<4xf32> -> tensor<4xi1>
  return %0 : tensor<4xi1>
}

// Integer casts: truncation, sign extension, zero extension of bools.
// CHECK-LABEL: func.func @cast_ints(
// CHECK:         arith.trunci %{{.*}} : i32 to i8
// CHECK:         arith.extsi %{{.*}} : i32 to i64
// CHECK:         arith.extui %{{.*}} : i1 to i32
// CHECK:         arith.sitofp %{{.*}} : i32 to f64
func.func @cast_ints(%a: tensor<4xi32>, %b: tensor<4xi1>) -> (tensor<4xi8>, tensor<4xi64>, tensor<4xi32>, tensor<4xf64>) {
  %0 = rlx.cast %a : tensor<4xi32> -> tensor<4xi8>
  %1 = rlx.cast %a : tensor<4xi32> -> tensor<4xi64>
  %2 = rlx.cast %b : tensor<4xi1> -> tensor<4xi32>
  %3 = rlx.cast %a : tensor<4xi32> -> tensor<4xf64>
  return %0, %1, %2, %3 : tensor<4xi8>, tensor<4xi64>, tensor<4xi32>, tensor<4xf64>
}

// -----

// clamp: max with the lower bound, then min with the upper bound. For integer
// tensors the bounds truncate toward zero.

// CHECK-LABEL: func.func @clamp_f32(
// CHECK:         ^bb0(%[[X:[a-z0-9_]+]]: f32, %{{[a-z0-9_]+}}: f32):
// CHECK-DAG:       %[[LO:.*]] = arith.constant -1.500000e+00 : f32
// CHECK-DAG:       %[[HI:.*]] = arith.constant 2.500000e+00 : f32
// CHECK-DAG:       %[[M:.*]] = arith.maximumf %[[X]], %[[LO]] : f32
// CHECK:           %[[R:.*]] = arith.minimumf %[[M]], %[[HI]] : f32
// CHECK-NEXT:      linalg.yield %[[R]] : f32
func.func @clamp_f32(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = rlx.clamp %a {min = -1.5 : f64, max = 2.5 : f64} : tensor<4xf32>
  return %0 : tensor<4xf32>
}
// CHECK-LABEL: func.func @clamp_i32(
// CHECK:         ^bb0(%[[X:[a-z0-9_]+]]: i32, %{{[a-z0-9_]+}}: i32):
// CHECK-DAG:       %[[LO:.*]] = arith.constant -2 : i32
// CHECK-DAG:       %[[HI:.*]] = arith.constant 5 : i32
// CHECK-DAG:       %[[M:.*]] = arith.maxsi %[[X]], %[[LO]] : i32
// CHECK:           %[[R:.*]] = arith.minsi %[[M]], %[[HI]] : i32
// CHECK-NEXT:      linalg.yield %[[R]] : i32
func.func @clamp_i32(%a: tensor<4xi32>) -> tensor<4xi32> {
  %0 = rlx.clamp %a {min = -2.7 : f64, max = 5.9 : f64} : tensor<4xi32>
  return %0 : tensor<4xi32>
}
// Only an upper bound.
// CHECK-LABEL: func.func @clamp_max_only(
// CHECK:         ^bb0(%[[X:[a-z0-9_]+]]: f32, %{{[a-z0-9_]+}}: f32):
// CHECK-NOT:       arith.maximumf
// CHECK:           %[[HI:.*]] = arith.constant 6.000000e+00 : f32
// CHECK:           %[[R:.*]] = arith.minimumf %[[X]], %[[HI]] : f32
// CHECK-NEXT:      linalg.yield %[[R]] : f32
func.func @clamp_max_only(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = rlx.clamp %a {max = 6.0 : f64} : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// stop_gradient is the identity at run time: a copy through a generic.

// CHECK-LABEL: func.func @stop_gradient(
// CHECK:         linalg.generic
// CHECK:         ^bb0(%[[X:[a-z0-9_]+]]: i1, %{{[a-z0-9_]+}}: i1):
// CHECK-NEXT:      linalg.yield %[[X]] : i1
// CHECK:         } -> tensor<4xi1>
func.func @stop_gradient(%a: tensor<4xi1>) -> tensor<4xi1> {
  %0 = rlx.stop_gradient %a : tensor<4xi1>
  return %0 : tensor<4xi1>
}
