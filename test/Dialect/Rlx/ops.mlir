// RUN: rlx-opt %s | rlx-opt | FileCheck %s
// RUN: rlx-opt %s --mlir-print-op-generic | rlx-opt | FileCheck %s

// Round-trip of every rlx op through the custom and the generic form.

//===----------------------------------------------------------------------===//
// Unary activations
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @unary_gelu(
// CHECK-SAME:    %[[A:[a-z0-9]+]]: tensor<2x3xf32>, %[[B:[a-z0-9]+]]: tensor<4xf16>, %[[C:[a-z0-9]+]]: tensor<bf16>, %[[D:[a-z0-9]+]]: tensor<1x2x1x3x2x1xf64>, %[[E:[a-z0-9]+]]: tensor<0x3xf32>)
// CHECK-NEXT:    %{{.*}} = rlx.gelu %[[A]] : tensor<2x3xf32>
// CHECK-NEXT:    %{{.*}} = rlx.gelu %[[B]] : tensor<4xf16>
// CHECK-NEXT:    %{{.*}} = rlx.gelu %[[C]] : tensor<bf16>
// CHECK-NEXT:    %{{.*}} = rlx.gelu %[[D]] : tensor<1x2x1x3x2x1xf64>
// CHECK-NEXT:    %{{.*}} = rlx.gelu %[[E]] : tensor<0x3xf32>
// CHECK-NEXT:    return
func.func @unary_gelu(%a: tensor<2x3xf32>, %b: tensor<4xf16>, %c: tensor<bf16>, %d: tensor<1x2x1x3x2x1xf64>, %e: tensor<0x3xf32>) {
  %0 = rlx.gelu %a : tensor<2x3xf32>
  %1 = rlx.gelu %b : tensor<4xf16>
  %2 = rlx.gelu %c : tensor<bf16>
  %3 = rlx.gelu %d : tensor<1x2x1x3x2x1xf64>
  %4 = rlx.gelu %e : tensor<0x3xf32>
  return
}

// CHECK-LABEL: func.func @unary_gelu_approx(
// CHECK-SAME:    %[[A:[a-z0-9]+]]: tensor<2x3xf32>, %[[B:[a-z0-9]+]]: tensor<4xf16>, %[[C:[a-z0-9]+]]: tensor<bf16>, %[[D:[a-z0-9]+]]: tensor<1x2x1x3x2x1xf64>, %[[E:[a-z0-9]+]]: tensor<0x3xf32>)
// CHECK-NEXT:    %{{.*}} = rlx.gelu_approx %[[A]] : tensor<2x3xf32>
// CHECK-NEXT:    %{{.*}} = rlx.gelu_approx %[[B]] : tensor<4xf16>
// CHECK-NEXT:    %{{.*}} = rlx.gelu_approx %[[C]] : tensor<bf16>
// CHECK-NEXT:    %{{.*}} = rlx.gelu_approx %[[D]] : tensor<1x2x1x3x2x1xf64>
// CHECK-NEXT:    %{{.*}} = rlx.gelu_approx %[[E]] : tensor<0x3xf32>
// CHECK-NEXT:    return
func.func @unary_gelu_approx(%a: tensor<2x3xf32>, %b: tensor<4xf16>, %c: tensor<bf16>, %d: tensor<1x2x1x3x2x1xf64>, %e: tensor<0x3xf32>) {
  %0 = rlx.gelu_approx %a : tensor<2x3xf32>
  %1 = rlx.gelu_approx %b : tensor<4xf16>
  %2 = rlx.gelu_approx %c : tensor<bf16>
  %3 = rlx.gelu_approx %d : tensor<1x2x1x3x2x1xf64>
  %4 = rlx.gelu_approx %e : tensor<0x3xf32>
  return
}

// CHECK-LABEL: func.func @unary_silu(
// CHECK-SAME:    %[[A:[a-z0-9]+]]: tensor<2x3xf32>, %[[B:[a-z0-9]+]]: tensor<4xf16>, %[[C:[a-z0-9]+]]: tensor<bf16>, %[[D:[a-z0-9]+]]: tensor<1x2x1x3x2x1xf64>, %[[E:[a-z0-9]+]]: tensor<0x3xf32>)
// CHECK-NEXT:    %{{.*}} = rlx.silu %[[A]] : tensor<2x3xf32>
// CHECK-NEXT:    %{{.*}} = rlx.silu %[[B]] : tensor<4xf16>
// CHECK-NEXT:    %{{.*}} = rlx.silu %[[C]] : tensor<bf16>
// CHECK-NEXT:    %{{.*}} = rlx.silu %[[D]] : tensor<1x2x1x3x2x1xf64>
// CHECK-NEXT:    %{{.*}} = rlx.silu %[[E]] : tensor<0x3xf32>
// CHECK-NEXT:    return
func.func @unary_silu(%a: tensor<2x3xf32>, %b: tensor<4xf16>, %c: tensor<bf16>, %d: tensor<1x2x1x3x2x1xf64>, %e: tensor<0x3xf32>) {
  %0 = rlx.silu %a : tensor<2x3xf32>
  %1 = rlx.silu %b : tensor<4xf16>
  %2 = rlx.silu %c : tensor<bf16>
  %3 = rlx.silu %d : tensor<1x2x1x3x2x1xf64>
  %4 = rlx.silu %e : tensor<0x3xf32>
  return
}

// CHECK-LABEL: func.func @unary_sigmoid(
// CHECK-SAME:    %[[A:[a-z0-9]+]]: tensor<2x3xf32>, %[[B:[a-z0-9]+]]: tensor<4xf16>, %[[C:[a-z0-9]+]]: tensor<bf16>, %[[D:[a-z0-9]+]]: tensor<1x2x1x3x2x1xf64>, %[[E:[a-z0-9]+]]: tensor<0x3xf32>)
// CHECK-NEXT:    %{{.*}} = rlx.sigmoid %[[A]] : tensor<2x3xf32>
// CHECK-NEXT:    %{{.*}} = rlx.sigmoid %[[B]] : tensor<4xf16>
// CHECK-NEXT:    %{{.*}} = rlx.sigmoid %[[C]] : tensor<bf16>
// CHECK-NEXT:    %{{.*}} = rlx.sigmoid %[[D]] : tensor<1x2x1x3x2x1xf64>
// CHECK-NEXT:    %{{.*}} = rlx.sigmoid %[[E]] : tensor<0x3xf32>
// CHECK-NEXT:    return
func.func @unary_sigmoid(%a: tensor<2x3xf32>, %b: tensor<4xf16>, %c: tensor<bf16>, %d: tensor<1x2x1x3x2x1xf64>, %e: tensor<0x3xf32>) {
  %0 = rlx.sigmoid %a : tensor<2x3xf32>
  %1 = rlx.sigmoid %b : tensor<4xf16>
  %2 = rlx.sigmoid %c : tensor<bf16>
  %3 = rlx.sigmoid %d : tensor<1x2x1x3x2x1xf64>
  %4 = rlx.sigmoid %e : tensor<0x3xf32>
  return
}

// CHECK-LABEL: func.func @unary_tanh(
// CHECK-SAME:    %[[A:[a-z0-9]+]]: tensor<2x3xf32>, %[[B:[a-z0-9]+]]: tensor<4xf16>, %[[C:[a-z0-9]+]]: tensor<bf16>, %[[D:[a-z0-9]+]]: tensor<1x2x1x3x2x1xf64>, %[[E:[a-z0-9]+]]: tensor<0x3xf32>)
// CHECK-NEXT:    %{{.*}} = rlx.tanh %[[A]] : tensor<2x3xf32>
// CHECK-NEXT:    %{{.*}} = rlx.tanh %[[B]] : tensor<4xf16>
// CHECK-NEXT:    %{{.*}} = rlx.tanh %[[C]] : tensor<bf16>
// CHECK-NEXT:    %{{.*}} = rlx.tanh %[[D]] : tensor<1x2x1x3x2x1xf64>
// CHECK-NEXT:    %{{.*}} = rlx.tanh %[[E]] : tensor<0x3xf32>
// CHECK-NEXT:    return
func.func @unary_tanh(%a: tensor<2x3xf32>, %b: tensor<4xf16>, %c: tensor<bf16>, %d: tensor<1x2x1x3x2x1xf64>, %e: tensor<0x3xf32>) {
  %0 = rlx.tanh %a : tensor<2x3xf32>
  %1 = rlx.tanh %b : tensor<4xf16>
  %2 = rlx.tanh %c : tensor<bf16>
  %3 = rlx.tanh %d : tensor<1x2x1x3x2x1xf64>
  %4 = rlx.tanh %e : tensor<0x3xf32>
  return
}

// CHECK-LABEL: func.func @unary_exp(
// CHECK-SAME:    %[[A:[a-z0-9]+]]: tensor<2x3xf32>, %[[B:[a-z0-9]+]]: tensor<4xf16>, %[[C:[a-z0-9]+]]: tensor<bf16>, %[[D:[a-z0-9]+]]: tensor<1x2x1x3x2x1xf64>, %[[E:[a-z0-9]+]]: tensor<0x3xf32>)
// CHECK-NEXT:    %{{.*}} = rlx.exp %[[A]] : tensor<2x3xf32>
// CHECK-NEXT:    %{{.*}} = rlx.exp %[[B]] : tensor<4xf16>
// CHECK-NEXT:    %{{.*}} = rlx.exp %[[C]] : tensor<bf16>
// CHECK-NEXT:    %{{.*}} = rlx.exp %[[D]] : tensor<1x2x1x3x2x1xf64>
// CHECK-NEXT:    %{{.*}} = rlx.exp %[[E]] : tensor<0x3xf32>
// CHECK-NEXT:    return
func.func @unary_exp(%a: tensor<2x3xf32>, %b: tensor<4xf16>, %c: tensor<bf16>, %d: tensor<1x2x1x3x2x1xf64>, %e: tensor<0x3xf32>) {
  %0 = rlx.exp %a : tensor<2x3xf32>
  %1 = rlx.exp %b : tensor<4xf16>
  %2 = rlx.exp %c : tensor<bf16>
  %3 = rlx.exp %d : tensor<1x2x1x3x2x1xf64>
  %4 = rlx.exp %e : tensor<0x3xf32>
  return
}

// CHECK-LABEL: func.func @unary_log(
// CHECK-SAME:    %[[A:[a-z0-9]+]]: tensor<2x3xf32>, %[[B:[a-z0-9]+]]: tensor<4xf16>, %[[C:[a-z0-9]+]]: tensor<bf16>, %[[D:[a-z0-9]+]]: tensor<1x2x1x3x2x1xf64>, %[[E:[a-z0-9]+]]: tensor<0x3xf32>)
// CHECK-NEXT:    %{{.*}} = rlx.log %[[A]] : tensor<2x3xf32>
// CHECK-NEXT:    %{{.*}} = rlx.log %[[B]] : tensor<4xf16>
// CHECK-NEXT:    %{{.*}} = rlx.log %[[C]] : tensor<bf16>
// CHECK-NEXT:    %{{.*}} = rlx.log %[[D]] : tensor<1x2x1x3x2x1xf64>
// CHECK-NEXT:    %{{.*}} = rlx.log %[[E]] : tensor<0x3xf32>
// CHECK-NEXT:    return
func.func @unary_log(%a: tensor<2x3xf32>, %b: tensor<4xf16>, %c: tensor<bf16>, %d: tensor<1x2x1x3x2x1xf64>, %e: tensor<0x3xf32>) {
  %0 = rlx.log %a : tensor<2x3xf32>
  %1 = rlx.log %b : tensor<4xf16>
  %2 = rlx.log %c : tensor<bf16>
  %3 = rlx.log %d : tensor<1x2x1x3x2x1xf64>
  %4 = rlx.log %e : tensor<0x3xf32>
  return
}

// CHECK-LABEL: func.func @unary_sqrt(
// CHECK-SAME:    %[[A:[a-z0-9]+]]: tensor<2x3xf32>, %[[B:[a-z0-9]+]]: tensor<4xf16>, %[[C:[a-z0-9]+]]: tensor<bf16>, %[[D:[a-z0-9]+]]: tensor<1x2x1x3x2x1xf64>, %[[E:[a-z0-9]+]]: tensor<0x3xf32>)
// CHECK-NEXT:    %{{.*}} = rlx.sqrt %[[A]] : tensor<2x3xf32>
// CHECK-NEXT:    %{{.*}} = rlx.sqrt %[[B]] : tensor<4xf16>
// CHECK-NEXT:    %{{.*}} = rlx.sqrt %[[C]] : tensor<bf16>
// CHECK-NEXT:    %{{.*}} = rlx.sqrt %[[D]] : tensor<1x2x1x3x2x1xf64>
// CHECK-NEXT:    %{{.*}} = rlx.sqrt %[[E]] : tensor<0x3xf32>
// CHECK-NEXT:    return
func.func @unary_sqrt(%a: tensor<2x3xf32>, %b: tensor<4xf16>, %c: tensor<bf16>, %d: tensor<1x2x1x3x2x1xf64>, %e: tensor<0x3xf32>) {
  %0 = rlx.sqrt %a : tensor<2x3xf32>
  %1 = rlx.sqrt %b : tensor<4xf16>
  %2 = rlx.sqrt %c : tensor<bf16>
  %3 = rlx.sqrt %d : tensor<1x2x1x3x2x1xf64>
  %4 = rlx.sqrt %e : tensor<0x3xf32>
  return
}

// CHECK-LABEL: func.func @unary_rsqrt(
// CHECK-SAME:    %[[A:[a-z0-9]+]]: tensor<2x3xf32>, %[[B:[a-z0-9]+]]: tensor<4xf16>, %[[C:[a-z0-9]+]]: tensor<bf16>, %[[D:[a-z0-9]+]]: tensor<1x2x1x3x2x1xf64>, %[[E:[a-z0-9]+]]: tensor<0x3xf32>)
// CHECK-NEXT:    %{{.*}} = rlx.rsqrt %[[A]] : tensor<2x3xf32>
// CHECK-NEXT:    %{{.*}} = rlx.rsqrt %[[B]] : tensor<4xf16>
// CHECK-NEXT:    %{{.*}} = rlx.rsqrt %[[C]] : tensor<bf16>
// CHECK-NEXT:    %{{.*}} = rlx.rsqrt %[[D]] : tensor<1x2x1x3x2x1xf64>
// CHECK-NEXT:    %{{.*}} = rlx.rsqrt %[[E]] : tensor<0x3xf32>
// CHECK-NEXT:    return
func.func @unary_rsqrt(%a: tensor<2x3xf32>, %b: tensor<4xf16>, %c: tensor<bf16>, %d: tensor<1x2x1x3x2x1xf64>, %e: tensor<0x3xf32>) {
  %0 = rlx.rsqrt %a : tensor<2x3xf32>
  %1 = rlx.rsqrt %b : tensor<4xf16>
  %2 = rlx.rsqrt %c : tensor<bf16>
  %3 = rlx.rsqrt %d : tensor<1x2x1x3x2x1xf64>
  %4 = rlx.rsqrt %e : tensor<0x3xf32>
  return
}

// CHECK-LABEL: func.func @unary_sin(
// CHECK-SAME:    %[[A:[a-z0-9]+]]: tensor<2x3xf32>, %[[B:[a-z0-9]+]]: tensor<4xf16>, %[[C:[a-z0-9]+]]: tensor<bf16>, %[[D:[a-z0-9]+]]: tensor<1x2x1x3x2x1xf64>, %[[E:[a-z0-9]+]]: tensor<0x3xf32>)
// CHECK-NEXT:    %{{.*}} = rlx.sin %[[A]] : tensor<2x3xf32>
// CHECK-NEXT:    %{{.*}} = rlx.sin %[[B]] : tensor<4xf16>
// CHECK-NEXT:    %{{.*}} = rlx.sin %[[C]] : tensor<bf16>
// CHECK-NEXT:    %{{.*}} = rlx.sin %[[D]] : tensor<1x2x1x3x2x1xf64>
// CHECK-NEXT:    %{{.*}} = rlx.sin %[[E]] : tensor<0x3xf32>
// CHECK-NEXT:    return
func.func @unary_sin(%a: tensor<2x3xf32>, %b: tensor<4xf16>, %c: tensor<bf16>, %d: tensor<1x2x1x3x2x1xf64>, %e: tensor<0x3xf32>) {
  %0 = rlx.sin %a : tensor<2x3xf32>
  %1 = rlx.sin %b : tensor<4xf16>
  %2 = rlx.sin %c : tensor<bf16>
  %3 = rlx.sin %d : tensor<1x2x1x3x2x1xf64>
  %4 = rlx.sin %e : tensor<0x3xf32>
  return
}

// CHECK-LABEL: func.func @unary_cos(
// CHECK-SAME:    %[[A:[a-z0-9]+]]: tensor<2x3xf32>, %[[B:[a-z0-9]+]]: tensor<4xf16>, %[[C:[a-z0-9]+]]: tensor<bf16>, %[[D:[a-z0-9]+]]: tensor<1x2x1x3x2x1xf64>, %[[E:[a-z0-9]+]]: tensor<0x3xf32>)
// CHECK-NEXT:    %{{.*}} = rlx.cos %[[A]] : tensor<2x3xf32>
// CHECK-NEXT:    %{{.*}} = rlx.cos %[[B]] : tensor<4xf16>
// CHECK-NEXT:    %{{.*}} = rlx.cos %[[C]] : tensor<bf16>
// CHECK-NEXT:    %{{.*}} = rlx.cos %[[D]] : tensor<1x2x1x3x2x1xf64>
// CHECK-NEXT:    %{{.*}} = rlx.cos %[[E]] : tensor<0x3xf32>
// CHECK-NEXT:    return
func.func @unary_cos(%a: tensor<2x3xf32>, %b: tensor<4xf16>, %c: tensor<bf16>, %d: tensor<1x2x1x3x2x1xf64>, %e: tensor<0x3xf32>) {
  %0 = rlx.cos %a : tensor<2x3xf32>
  %1 = rlx.cos %b : tensor<4xf16>
  %2 = rlx.cos %c : tensor<bf16>
  %3 = rlx.cos %d : tensor<1x2x1x3x2x1xf64>
  %4 = rlx.cos %e : tensor<0x3xf32>
  return
}

// CHECK-LABEL: func.func @unary_tan(
// CHECK-SAME:    %[[A:[a-z0-9]+]]: tensor<2x3xf32>, %[[B:[a-z0-9]+]]: tensor<4xf16>, %[[C:[a-z0-9]+]]: tensor<bf16>, %[[D:[a-z0-9]+]]: tensor<1x2x1x3x2x1xf64>, %[[E:[a-z0-9]+]]: tensor<0x3xf32>)
// CHECK-NEXT:    %{{.*}} = rlx.tan %[[A]] : tensor<2x3xf32>
// CHECK-NEXT:    %{{.*}} = rlx.tan %[[B]] : tensor<4xf16>
// CHECK-NEXT:    %{{.*}} = rlx.tan %[[C]] : tensor<bf16>
// CHECK-NEXT:    %{{.*}} = rlx.tan %[[D]] : tensor<1x2x1x3x2x1xf64>
// CHECK-NEXT:    %{{.*}} = rlx.tan %[[E]] : tensor<0x3xf32>
// CHECK-NEXT:    return
func.func @unary_tan(%a: tensor<2x3xf32>, %b: tensor<4xf16>, %c: tensor<bf16>, %d: tensor<1x2x1x3x2x1xf64>, %e: tensor<0x3xf32>) {
  %0 = rlx.tan %a : tensor<2x3xf32>
  %1 = rlx.tan %b : tensor<4xf16>
  %2 = rlx.tan %c : tensor<bf16>
  %3 = rlx.tan %d : tensor<1x2x1x3x2x1xf64>
  %4 = rlx.tan %e : tensor<0x3xf32>
  return
}

// CHECK-LABEL: func.func @unary_atan(
// CHECK-SAME:    %[[A:[a-z0-9]+]]: tensor<2x3xf32>, %[[B:[a-z0-9]+]]: tensor<4xf16>, %[[C:[a-z0-9]+]]: tensor<bf16>, %[[D:[a-z0-9]+]]: tensor<1x2x1x3x2x1xf64>, %[[E:[a-z0-9]+]]: tensor<0x3xf32>)
// CHECK-NEXT:    %{{.*}} = rlx.atan %[[A]] : tensor<2x3xf32>
// CHECK-NEXT:    %{{.*}} = rlx.atan %[[B]] : tensor<4xf16>
// CHECK-NEXT:    %{{.*}} = rlx.atan %[[C]] : tensor<bf16>
// CHECK-NEXT:    %{{.*}} = rlx.atan %[[D]] : tensor<1x2x1x3x2x1xf64>
// CHECK-NEXT:    %{{.*}} = rlx.atan %[[E]] : tensor<0x3xf32>
// CHECK-NEXT:    return
func.func @unary_atan(%a: tensor<2x3xf32>, %b: tensor<4xf16>, %c: tensor<bf16>, %d: tensor<1x2x1x3x2x1xf64>, %e: tensor<0x3xf32>) {
  %0 = rlx.atan %a : tensor<2x3xf32>
  %1 = rlx.atan %b : tensor<4xf16>
  %2 = rlx.atan %c : tensor<bf16>
  %3 = rlx.atan %d : tensor<1x2x1x3x2x1xf64>
  %4 = rlx.atan %e : tensor<0x3xf32>
  return
}

// CHECK-LABEL: func.func @unary_recip(
// CHECK-SAME:    %[[A:[a-z0-9]+]]: tensor<2x3xf32>, %[[B:[a-z0-9]+]]: tensor<4xf16>, %[[C:[a-z0-9]+]]: tensor<bf16>, %[[D:[a-z0-9]+]]: tensor<1x2x1x3x2x1xf64>, %[[E:[a-z0-9]+]]: tensor<0x3xf32>)
// CHECK-NEXT:    %{{.*}} = rlx.recip %[[A]] : tensor<2x3xf32>
// CHECK-NEXT:    %{{.*}} = rlx.recip %[[B]] : tensor<4xf16>
// CHECK-NEXT:    %{{.*}} = rlx.recip %[[C]] : tensor<bf16>
// CHECK-NEXT:    %{{.*}} = rlx.recip %[[D]] : tensor<1x2x1x3x2x1xf64>
// CHECK-NEXT:    %{{.*}} = rlx.recip %[[E]] : tensor<0x3xf32>
// CHECK-NEXT:    return
func.func @unary_recip(%a: tensor<2x3xf32>, %b: tensor<4xf16>, %c: tensor<bf16>, %d: tensor<1x2x1x3x2x1xf64>, %e: tensor<0x3xf32>) {
  %0 = rlx.recip %a : tensor<2x3xf32>
  %1 = rlx.recip %b : tensor<4xf16>
  %2 = rlx.recip %c : tensor<bf16>
  %3 = rlx.recip %d : tensor<1x2x1x3x2x1xf64>
  %4 = rlx.recip %e : tensor<0x3xf32>
  return
}

// CHECK-LABEL: func.func @unary_round(
// CHECK-SAME:    %[[A:[a-z0-9]+]]: tensor<2x3xf32>, %[[B:[a-z0-9]+]]: tensor<4xf16>, %[[C:[a-z0-9]+]]: tensor<bf16>, %[[D:[a-z0-9]+]]: tensor<1x2x1x3x2x1xf64>, %[[E:[a-z0-9]+]]: tensor<0x3xf32>)
// CHECK-NEXT:    %{{.*}} = rlx.round %[[A]] : tensor<2x3xf32>
// CHECK-NEXT:    %{{.*}} = rlx.round %[[B]] : tensor<4xf16>
// CHECK-NEXT:    %{{.*}} = rlx.round %[[C]] : tensor<bf16>
// CHECK-NEXT:    %{{.*}} = rlx.round %[[D]] : tensor<1x2x1x3x2x1xf64>
// CHECK-NEXT:    %{{.*}} = rlx.round %[[E]] : tensor<0x3xf32>
// CHECK-NEXT:    return
func.func @unary_round(%a: tensor<2x3xf32>, %b: tensor<4xf16>, %c: tensor<bf16>, %d: tensor<1x2x1x3x2x1xf64>, %e: tensor<0x3xf32>) {
  %0 = rlx.round %a : tensor<2x3xf32>
  %1 = rlx.round %b : tensor<4xf16>
  %2 = rlx.round %c : tensor<bf16>
  %3 = rlx.round %d : tensor<1x2x1x3x2x1xf64>
  %4 = rlx.round %e : tensor<0x3xf32>
  return
}

// CHECK-LABEL: func.func @unary_floor(
// CHECK-SAME:    %[[A:[a-z0-9]+]]: tensor<2x3xf32>, %[[B:[a-z0-9]+]]: tensor<4xf16>, %[[C:[a-z0-9]+]]: tensor<bf16>, %[[D:[a-z0-9]+]]: tensor<1x2x1x3x2x1xf64>, %[[E:[a-z0-9]+]]: tensor<0x3xf32>)
// CHECK-NEXT:    %{{.*}} = rlx.floor %[[A]] : tensor<2x3xf32>
// CHECK-NEXT:    %{{.*}} = rlx.floor %[[B]] : tensor<4xf16>
// CHECK-NEXT:    %{{.*}} = rlx.floor %[[C]] : tensor<bf16>
// CHECK-NEXT:    %{{.*}} = rlx.floor %[[D]] : tensor<1x2x1x3x2x1xf64>
// CHECK-NEXT:    %{{.*}} = rlx.floor %[[E]] : tensor<0x3xf32>
// CHECK-NEXT:    return
func.func @unary_floor(%a: tensor<2x3xf32>, %b: tensor<4xf16>, %c: tensor<bf16>, %d: tensor<1x2x1x3x2x1xf64>, %e: tensor<0x3xf32>) {
  %0 = rlx.floor %a : tensor<2x3xf32>
  %1 = rlx.floor %b : tensor<4xf16>
  %2 = rlx.floor %c : tensor<bf16>
  %3 = rlx.floor %d : tensor<1x2x1x3x2x1xf64>
  %4 = rlx.floor %e : tensor<0x3xf32>
  return
}

// CHECK-LABEL: func.func @unary_ceil(
// CHECK-SAME:    %[[A:[a-z0-9]+]]: tensor<2x3xf32>, %[[B:[a-z0-9]+]]: tensor<4xf16>, %[[C:[a-z0-9]+]]: tensor<bf16>, %[[D:[a-z0-9]+]]: tensor<1x2x1x3x2x1xf64>, %[[E:[a-z0-9]+]]: tensor<0x3xf32>)
// CHECK-NEXT:    %{{.*}} = rlx.ceil %[[A]] : tensor<2x3xf32>
// CHECK-NEXT:    %{{.*}} = rlx.ceil %[[B]] : tensor<4xf16>
// CHECK-NEXT:    %{{.*}} = rlx.ceil %[[C]] : tensor<bf16>
// CHECK-NEXT:    %{{.*}} = rlx.ceil %[[D]] : tensor<1x2x1x3x2x1xf64>
// CHECK-NEXT:    %{{.*}} = rlx.ceil %[[E]] : tensor<0x3xf32>
// CHECK-NEXT:    return
func.func @unary_ceil(%a: tensor<2x3xf32>, %b: tensor<4xf16>, %c: tensor<bf16>, %d: tensor<1x2x1x3x2x1xf64>, %e: tensor<0x3xf32>) {
  %0 = rlx.ceil %a : tensor<2x3xf32>
  %1 = rlx.ceil %b : tensor<4xf16>
  %2 = rlx.ceil %c : tensor<bf16>
  %3 = rlx.ceil %d : tensor<1x2x1x3x2x1xf64>
  %4 = rlx.ceil %e : tensor<0x3xf32>
  return
}

// CHECK-LABEL: func.func @unary_softplus(
// CHECK-SAME:    %[[A:[a-z0-9]+]]: tensor<2x3xf32>, %[[B:[a-z0-9]+]]: tensor<4xf16>, %[[C:[a-z0-9]+]]: tensor<bf16>, %[[D:[a-z0-9]+]]: tensor<1x2x1x3x2x1xf64>, %[[E:[a-z0-9]+]]: tensor<0x3xf32>)
// CHECK-NEXT:    %{{.*}} = rlx.softplus %[[A]] : tensor<2x3xf32>
// CHECK-NEXT:    %{{.*}} = rlx.softplus %[[B]] : tensor<4xf16>
// CHECK-NEXT:    %{{.*}} = rlx.softplus %[[C]] : tensor<bf16>
// CHECK-NEXT:    %{{.*}} = rlx.softplus %[[D]] : tensor<1x2x1x3x2x1xf64>
// CHECK-NEXT:    %{{.*}} = rlx.softplus %[[E]] : tensor<0x3xf32>
// CHECK-NEXT:    return
func.func @unary_softplus(%a: tensor<2x3xf32>, %b: tensor<4xf16>, %c: tensor<bf16>, %d: tensor<1x2x1x3x2x1xf64>, %e: tensor<0x3xf32>) {
  %0 = rlx.softplus %a : tensor<2x3xf32>
  %1 = rlx.softplus %b : tensor<4xf16>
  %2 = rlx.softplus %c : tensor<bf16>
  %3 = rlx.softplus %d : tensor<1x2x1x3x2x1xf64>
  %4 = rlx.softplus %e : tensor<0x3xf32>
  return
}

// CHECK-LABEL: func.func @unary_elu(
// CHECK-SAME:    %[[A:[a-z0-9]+]]: tensor<2x3xf32>, %[[B:[a-z0-9]+]]: tensor<4xf16>, %[[C:[a-z0-9]+]]: tensor<bf16>, %[[D:[a-z0-9]+]]: tensor<1x2x1x3x2x1xf64>, %[[E:[a-z0-9]+]]: tensor<0x3xf32>)
// CHECK-NEXT:    %{{.*}} = rlx.elu %[[A]] : tensor<2x3xf32>
// CHECK-NEXT:    %{{.*}} = rlx.elu %[[B]] : tensor<4xf16>
// CHECK-NEXT:    %{{.*}} = rlx.elu %[[C]] : tensor<bf16>
// CHECK-NEXT:    %{{.*}} = rlx.elu %[[D]] : tensor<1x2x1x3x2x1xf64>
// CHECK-NEXT:    %{{.*}} = rlx.elu %[[E]] : tensor<0x3xf32>
// CHECK-NEXT:    return
func.func @unary_elu(%a: tensor<2x3xf32>, %b: tensor<4xf16>, %c: tensor<bf16>, %d: tensor<1x2x1x3x2x1xf64>, %e: tensor<0x3xf32>) {
  %0 = rlx.elu %a : tensor<2x3xf32>
  %1 = rlx.elu %b : tensor<4xf16>
  %2 = rlx.elu %c : tensor<bf16>
  %3 = rlx.elu %d : tensor<1x2x1x3x2x1xf64>
  %4 = rlx.elu %e : tensor<0x3xf32>
  return
}

// CHECK-LABEL: func.func @unary_erf(
// CHECK-SAME:    %[[A:[a-z0-9]+]]: tensor<2x3xf32>, %[[B:[a-z0-9]+]]: tensor<4xf16>, %[[C:[a-z0-9]+]]: tensor<bf16>, %[[D:[a-z0-9]+]]: tensor<1x2x1x3x2x1xf64>, %[[E:[a-z0-9]+]]: tensor<0x3xf32>)
// CHECK-NEXT:    %{{.*}} = rlx.erf %[[A]] : tensor<2x3xf32>
// CHECK-NEXT:    %{{.*}} = rlx.erf %[[B]] : tensor<4xf16>
// CHECK-NEXT:    %{{.*}} = rlx.erf %[[C]] : tensor<bf16>
// CHECK-NEXT:    %{{.*}} = rlx.erf %[[D]] : tensor<1x2x1x3x2x1xf64>
// CHECK-NEXT:    %{{.*}} = rlx.erf %[[E]] : tensor<0x3xf32>
// CHECK-NEXT:    return
func.func @unary_erf(%a: tensor<2x3xf32>, %b: tensor<4xf16>, %c: tensor<bf16>, %d: tensor<1x2x1x3x2x1xf64>, %e: tensor<0x3xf32>) {
  %0 = rlx.erf %a : tensor<2x3xf32>
  %1 = rlx.erf %b : tensor<4xf16>
  %2 = rlx.erf %c : tensor<bf16>
  %3 = rlx.erf %d : tensor<1x2x1x3x2x1xf64>
  %4 = rlx.erf %e : tensor<0x3xf32>
  return
}

// CHECK-LABEL: func.func @unary_hard_swish(
// CHECK-SAME:    %[[A:[a-z0-9]+]]: tensor<2x3xf32>, %[[B:[a-z0-9]+]]: tensor<4xf16>, %[[C:[a-z0-9]+]]: tensor<bf16>, %[[D:[a-z0-9]+]]: tensor<1x2x1x3x2x1xf64>, %[[E:[a-z0-9]+]]: tensor<0x3xf32>)
// CHECK-NEXT:    %{{.*}} = rlx.hard_swish %[[A]] : tensor<2x3xf32>
// CHECK-NEXT:    %{{.*}} = rlx.hard_swish %[[B]] : tensor<4xf16>
// CHECK-NEXT:    %{{.*}} = rlx.hard_swish %[[C]] : tensor<bf16>
// CHECK-NEXT:    %{{.*}} = rlx.hard_swish %[[D]] : tensor<1x2x1x3x2x1xf64>
// CHECK-NEXT:    %{{.*}} = rlx.hard_swish %[[E]] : tensor<0x3xf32>
// CHECK-NEXT:    return
func.func @unary_hard_swish(%a: tensor<2x3xf32>, %b: tensor<4xf16>, %c: tensor<bf16>, %d: tensor<1x2x1x3x2x1xf64>, %e: tensor<0x3xf32>) {
  %0 = rlx.hard_swish %a : tensor<2x3xf32>
  %1 = rlx.hard_swish %b : tensor<4xf16>
  %2 = rlx.hard_swish %c : tensor<bf16>
  %3 = rlx.hard_swish %d : tensor<1x2x1x3x2x1xf64>
  %4 = rlx.hard_swish %e : tensor<0x3xf32>
  return
}

// CHECK-LABEL: func.func @unary_hard_sigmoid(
// CHECK-SAME:    %[[A:[a-z0-9]+]]: tensor<2x3xf32>, %[[B:[a-z0-9]+]]: tensor<4xf16>, %[[C:[a-z0-9]+]]: tensor<bf16>, %[[D:[a-z0-9]+]]: tensor<1x2x1x3x2x1xf64>, %[[E:[a-z0-9]+]]: tensor<0x3xf32>)
// CHECK-NEXT:    %{{.*}} = rlx.hard_sigmoid %[[A]] : tensor<2x3xf32>
// CHECK-NEXT:    %{{.*}} = rlx.hard_sigmoid %[[B]] : tensor<4xf16>
// CHECK-NEXT:    %{{.*}} = rlx.hard_sigmoid %[[C]] : tensor<bf16>
// CHECK-NEXT:    %{{.*}} = rlx.hard_sigmoid %[[D]] : tensor<1x2x1x3x2x1xf64>
// CHECK-NEXT:    %{{.*}} = rlx.hard_sigmoid %[[E]] : tensor<0x3xf32>
// CHECK-NEXT:    return
func.func @unary_hard_sigmoid(%a: tensor<2x3xf32>, %b: tensor<4xf16>, %c: tensor<bf16>, %d: tensor<1x2x1x3x2x1xf64>, %e: tensor<0x3xf32>) {
  %0 = rlx.hard_sigmoid %a : tensor<2x3xf32>
  %1 = rlx.hard_sigmoid %b : tensor<4xf16>
  %2 = rlx.hard_sigmoid %c : tensor<bf16>
  %3 = rlx.hard_sigmoid %d : tensor<1x2x1x3x2x1xf64>
  %4 = rlx.hard_sigmoid %e : tensor<0x3xf32>
  return
}

// CHECK-LABEL: func.func @unary_mish(
// CHECK-SAME:    %[[A:[a-z0-9]+]]: tensor<2x3xf32>, %[[B:[a-z0-9]+]]: tensor<4xf16>, %[[C:[a-z0-9]+]]: tensor<bf16>, %[[D:[a-z0-9]+]]: tensor<1x2x1x3x2x1xf64>, %[[E:[a-z0-9]+]]: tensor<0x3xf32>)
// CHECK-NEXT:    %{{.*}} = rlx.mish %[[A]] : tensor<2x3xf32>
// CHECK-NEXT:    %{{.*}} = rlx.mish %[[B]] : tensor<4xf16>
// CHECK-NEXT:    %{{.*}} = rlx.mish %[[C]] : tensor<bf16>
// CHECK-NEXT:    %{{.*}} = rlx.mish %[[D]] : tensor<1x2x1x3x2x1xf64>
// CHECK-NEXT:    %{{.*}} = rlx.mish %[[E]] : tensor<0x3xf32>
// CHECK-NEXT:    return
func.func @unary_mish(%a: tensor<2x3xf32>, %b: tensor<4xf16>, %c: tensor<bf16>, %d: tensor<1x2x1x3x2x1xf64>, %e: tensor<0x3xf32>) {
  %0 = rlx.mish %a : tensor<2x3xf32>
  %1 = rlx.mish %b : tensor<4xf16>
  %2 = rlx.mish %c : tensor<bf16>
  %3 = rlx.mish %d : tensor<1x2x1x3x2x1xf64>
  %4 = rlx.mish %e : tensor<0x3xf32>
  return
}

// CHECK-LABEL: func.func @unary_softsign(
// CHECK-SAME:    %[[A:[a-z0-9]+]]: tensor<2x3xf32>, %[[B:[a-z0-9]+]]: tensor<4xf16>, %[[C:[a-z0-9]+]]: tensor<bf16>, %[[D:[a-z0-9]+]]: tensor<1x2x1x3x2x1xf64>, %[[E:[a-z0-9]+]]: tensor<0x3xf32>)
// CHECK-NEXT:    %{{.*}} = rlx.softsign %[[A]] : tensor<2x3xf32>
// CHECK-NEXT:    %{{.*}} = rlx.softsign %[[B]] : tensor<4xf16>
// CHECK-NEXT:    %{{.*}} = rlx.softsign %[[C]] : tensor<bf16>
// CHECK-NEXT:    %{{.*}} = rlx.softsign %[[D]] : tensor<1x2x1x3x2x1xf64>
// CHECK-NEXT:    %{{.*}} = rlx.softsign %[[E]] : tensor<0x3xf32>
// CHECK-NEXT:    return
func.func @unary_softsign(%a: tensor<2x3xf32>, %b: tensor<4xf16>, %c: tensor<bf16>, %d: tensor<1x2x1x3x2x1xf64>, %e: tensor<0x3xf32>) {
  %0 = rlx.softsign %a : tensor<2x3xf32>
  %1 = rlx.softsign %b : tensor<4xf16>
  %2 = rlx.softsign %c : tensor<bf16>
  %3 = rlx.softsign %d : tensor<1x2x1x3x2x1xf64>
  %4 = rlx.softsign %e : tensor<0x3xf32>
  return
}

// CHECK-LABEL: func.func @unary_log_sigmoid(
// CHECK-SAME:    %[[A:[a-z0-9]+]]: tensor<2x3xf32>, %[[B:[a-z0-9]+]]: tensor<4xf16>, %[[C:[a-z0-9]+]]: tensor<bf16>, %[[D:[a-z0-9]+]]: tensor<1x2x1x3x2x1xf64>, %[[E:[a-z0-9]+]]: tensor<0x3xf32>)
// CHECK-NEXT:    %{{.*}} = rlx.log_sigmoid %[[A]] : tensor<2x3xf32>
// CHECK-NEXT:    %{{.*}} = rlx.log_sigmoid %[[B]] : tensor<4xf16>
// CHECK-NEXT:    %{{.*}} = rlx.log_sigmoid %[[C]] : tensor<bf16>
// CHECK-NEXT:    %{{.*}} = rlx.log_sigmoid %[[D]] : tensor<1x2x1x3x2x1xf64>
// CHECK-NEXT:    %{{.*}} = rlx.log_sigmoid %[[E]] : tensor<0x3xf32>
// CHECK-NEXT:    return
func.func @unary_log_sigmoid(%a: tensor<2x3xf32>, %b: tensor<4xf16>, %c: tensor<bf16>, %d: tensor<1x2x1x3x2x1xf64>, %e: tensor<0x3xf32>) {
  %0 = rlx.log_sigmoid %a : tensor<2x3xf32>
  %1 = rlx.log_sigmoid %b : tensor<4xf16>
  %2 = rlx.log_sigmoid %c : tensor<bf16>
  %3 = rlx.log_sigmoid %d : tensor<1x2x1x3x2x1xf64>
  %4 = rlx.log_sigmoid %e : tensor<0x3xf32>
  return
}

// CHECK-LABEL: func.func @unary_relu(
// CHECK-SAME:    %[[A:[a-z0-9]+]]: tensor<2x3xf32>, %[[B:[a-z0-9]+]]: tensor<4xf16>, %[[C:[a-z0-9]+]]: tensor<bf16>, %[[D:[a-z0-9]+]]: tensor<1x2x1x3x2x1xf64>, %[[E:[a-z0-9]+]]: tensor<2x3xi8>, %[[F:[a-z0-9]+]]: tensor<0xi16>, %[[G:[a-z0-9]+]]: tensor<2x1x1x1x3xi32>, %[[H:[a-z0-9]+]]: tensor<i64>)
// CHECK-NEXT:    %{{.*}} = rlx.relu %[[A]] : tensor<2x3xf32>
// CHECK-NEXT:    %{{.*}} = rlx.relu %[[B]] : tensor<4xf16>
// CHECK-NEXT:    %{{.*}} = rlx.relu %[[C]] : tensor<bf16>
// CHECK-NEXT:    %{{.*}} = rlx.relu %[[D]] : tensor<1x2x1x3x2x1xf64>
// CHECK-NEXT:    %{{.*}} = rlx.relu %[[E]] : tensor<2x3xi8>
// CHECK-NEXT:    %{{.*}} = rlx.relu %[[F]] : tensor<0xi16>
// CHECK-NEXT:    %{{.*}} = rlx.relu %[[G]] : tensor<2x1x1x1x3xi32>
// CHECK-NEXT:    %{{.*}} = rlx.relu %[[H]] : tensor<i64>
// CHECK-NEXT:    return
func.func @unary_relu(%a: tensor<2x3xf32>, %b: tensor<4xf16>, %c: tensor<bf16>, %d: tensor<1x2x1x3x2x1xf64>, %e: tensor<2x3xi8>, %f: tensor<0xi16>, %g: tensor<2x1x1x1x3xi32>, %h: tensor<i64>) {
  %0 = rlx.relu %a : tensor<2x3xf32>
  %1 = rlx.relu %b : tensor<4xf16>
  %2 = rlx.relu %c : tensor<bf16>
  %3 = rlx.relu %d : tensor<1x2x1x3x2x1xf64>
  %4 = rlx.relu %e : tensor<2x3xi8>
  %5 = rlx.relu %f : tensor<0xi16>
  %6 = rlx.relu %g : tensor<2x1x1x1x3xi32>
  %7 = rlx.relu %h : tensor<i64>
  return
}

// CHECK-LABEL: func.func @unary_neg(
// CHECK-SAME:    %[[A:[a-z0-9]+]]: tensor<2x3xf32>, %[[B:[a-z0-9]+]]: tensor<4xf16>, %[[C:[a-z0-9]+]]: tensor<bf16>, %[[D:[a-z0-9]+]]: tensor<1x2x1x3x2x1xf64>, %[[E:[a-z0-9]+]]: tensor<2x3xi8>, %[[F:[a-z0-9]+]]: tensor<0xi16>, %[[G:[a-z0-9]+]]: tensor<2x1x1x1x3xi32>, %[[H:[a-z0-9]+]]: tensor<i64>)
// CHECK-NEXT:    %{{.*}} = rlx.neg %[[A]] : tensor<2x3xf32>
// CHECK-NEXT:    %{{.*}} = rlx.neg %[[B]] : tensor<4xf16>
// CHECK-NEXT:    %{{.*}} = rlx.neg %[[C]] : tensor<bf16>
// CHECK-NEXT:    %{{.*}} = rlx.neg %[[D]] : tensor<1x2x1x3x2x1xf64>
// CHECK-NEXT:    %{{.*}} = rlx.neg %[[E]] : tensor<2x3xi8>
// CHECK-NEXT:    %{{.*}} = rlx.neg %[[F]] : tensor<0xi16>
// CHECK-NEXT:    %{{.*}} = rlx.neg %[[G]] : tensor<2x1x1x1x3xi32>
// CHECK-NEXT:    %{{.*}} = rlx.neg %[[H]] : tensor<i64>
// CHECK-NEXT:    return
func.func @unary_neg(%a: tensor<2x3xf32>, %b: tensor<4xf16>, %c: tensor<bf16>, %d: tensor<1x2x1x3x2x1xf64>, %e: tensor<2x3xi8>, %f: tensor<0xi16>, %g: tensor<2x1x1x1x3xi32>, %h: tensor<i64>) {
  %0 = rlx.neg %a : tensor<2x3xf32>
  %1 = rlx.neg %b : tensor<4xf16>
  %2 = rlx.neg %c : tensor<bf16>
  %3 = rlx.neg %d : tensor<1x2x1x3x2x1xf64>
  %4 = rlx.neg %e : tensor<2x3xi8>
  %5 = rlx.neg %f : tensor<0xi16>
  %6 = rlx.neg %g : tensor<2x1x1x1x3xi32>
  %7 = rlx.neg %h : tensor<i64>
  return
}

// CHECK-LABEL: func.func @unary_abs(
// CHECK-SAME:    %[[A:[a-z0-9]+]]: tensor<2x3xf32>, %[[B:[a-z0-9]+]]: tensor<4xf16>, %[[C:[a-z0-9]+]]: tensor<bf16>, %[[D:[a-z0-9]+]]: tensor<1x2x1x3x2x1xf64>, %[[E:[a-z0-9]+]]: tensor<2x3xi8>, %[[F:[a-z0-9]+]]: tensor<0xi16>, %[[G:[a-z0-9]+]]: tensor<2x1x1x1x3xi32>, %[[H:[a-z0-9]+]]: tensor<i64>)
// CHECK-NEXT:    %{{.*}} = rlx.abs %[[A]] : tensor<2x3xf32>
// CHECK-NEXT:    %{{.*}} = rlx.abs %[[B]] : tensor<4xf16>
// CHECK-NEXT:    %{{.*}} = rlx.abs %[[C]] : tensor<bf16>
// CHECK-NEXT:    %{{.*}} = rlx.abs %[[D]] : tensor<1x2x1x3x2x1xf64>
// CHECK-NEXT:    %{{.*}} = rlx.abs %[[E]] : tensor<2x3xi8>
// CHECK-NEXT:    %{{.*}} = rlx.abs %[[F]] : tensor<0xi16>
// CHECK-NEXT:    %{{.*}} = rlx.abs %[[G]] : tensor<2x1x1x1x3xi32>
// CHECK-NEXT:    %{{.*}} = rlx.abs %[[H]] : tensor<i64>
// CHECK-NEXT:    return
func.func @unary_abs(%a: tensor<2x3xf32>, %b: tensor<4xf16>, %c: tensor<bf16>, %d: tensor<1x2x1x3x2x1xf64>, %e: tensor<2x3xi8>, %f: tensor<0xi16>, %g: tensor<2x1x1x1x3xi32>, %h: tensor<i64>) {
  %0 = rlx.abs %a : tensor<2x3xf32>
  %1 = rlx.abs %b : tensor<4xf16>
  %2 = rlx.abs %c : tensor<bf16>
  %3 = rlx.abs %d : tensor<1x2x1x3x2x1xf64>
  %4 = rlx.abs %e : tensor<2x3xi8>
  %5 = rlx.abs %f : tensor<0xi16>
  %6 = rlx.abs %g : tensor<2x1x1x1x3xi32>
  %7 = rlx.abs %h : tensor<i64>
  return
}

// CHECK-LABEL: func.func @unary_sign(
// CHECK-SAME:    %[[A:[a-z0-9]+]]: tensor<2x3xf32>, %[[B:[a-z0-9]+]]: tensor<4xf16>, %[[C:[a-z0-9]+]]: tensor<bf16>, %[[D:[a-z0-9]+]]: tensor<1x2x1x3x2x1xf64>, %[[E:[a-z0-9]+]]: tensor<2x3xi8>, %[[F:[a-z0-9]+]]: tensor<0xi16>, %[[G:[a-z0-9]+]]: tensor<2x1x1x1x3xi32>, %[[H:[a-z0-9]+]]: tensor<i64>)
// CHECK-NEXT:    %{{.*}} = rlx.sign %[[A]] : tensor<2x3xf32>
// CHECK-NEXT:    %{{.*}} = rlx.sign %[[B]] : tensor<4xf16>
// CHECK-NEXT:    %{{.*}} = rlx.sign %[[C]] : tensor<bf16>
// CHECK-NEXT:    %{{.*}} = rlx.sign %[[D]] : tensor<1x2x1x3x2x1xf64>
// CHECK-NEXT:    %{{.*}} = rlx.sign %[[E]] : tensor<2x3xi8>
// CHECK-NEXT:    %{{.*}} = rlx.sign %[[F]] : tensor<0xi16>
// CHECK-NEXT:    %{{.*}} = rlx.sign %[[G]] : tensor<2x1x1x1x3xi32>
// CHECK-NEXT:    %{{.*}} = rlx.sign %[[H]] : tensor<i64>
// CHECK-NEXT:    return
func.func @unary_sign(%a: tensor<2x3xf32>, %b: tensor<4xf16>, %c: tensor<bf16>, %d: tensor<1x2x1x3x2x1xf64>, %e: tensor<2x3xi8>, %f: tensor<0xi16>, %g: tensor<2x1x1x1x3xi32>, %h: tensor<i64>) {
  %0 = rlx.sign %a : tensor<2x3xf32>
  %1 = rlx.sign %b : tensor<4xf16>
  %2 = rlx.sign %c : tensor<bf16>
  %3 = rlx.sign %d : tensor<1x2x1x3x2x1xf64>
  %4 = rlx.sign %e : tensor<2x3xi8>
  %5 = rlx.sign %f : tensor<0xi16>
  %6 = rlx.sign %g : tensor<2x1x1x1x3xi32>
  %7 = rlx.sign %h : tensor<i64>
  return
}

//===----------------------------------------------------------------------===//
// Binary arithmetic
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @binary_add_types(
// CHECK-SAME:    %[[XF16:[a-z0-9]+]]: tensor<2x3xf16>, %[[XBF16:[a-z0-9]+]]: tensor<2x3xbf16>, %[[XF32:[a-z0-9]+]]: tensor<2x3xf32>, %[[XF64:[a-z0-9]+]]: tensor<2x3xf64>, %[[XI8:[a-z0-9]+]]: tensor<2x3xi8>, %[[XI16:[a-z0-9]+]]: tensor<2x3xi16>, %[[XI32:[a-z0-9]+]]: tensor<2x3xi32>, %[[XI64:[a-z0-9]+]]: tensor<2x3xi64>)
// CHECK-NEXT:    %{{.*}} = rlx.add %[[XF16]], %[[XF16]] : (tensor<2x3xf16>, tensor<2x3xf16>) -> tensor<2x3xf16>
// CHECK-NEXT:    %{{.*}} = rlx.add %[[XBF16]], %[[XBF16]] : (tensor<2x3xbf16>, tensor<2x3xbf16>) -> tensor<2x3xbf16>
// CHECK-NEXT:    %{{.*}} = rlx.add %[[XF32]], %[[XF32]] : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT:    %{{.*}} = rlx.add %[[XF64]], %[[XF64]] : (tensor<2x3xf64>, tensor<2x3xf64>) -> tensor<2x3xf64>
// CHECK-NEXT:    %{{.*}} = rlx.add %[[XI8]], %[[XI8]] : (tensor<2x3xi8>, tensor<2x3xi8>) -> tensor<2x3xi8>
// CHECK-NEXT:    %{{.*}} = rlx.add %[[XI16]], %[[XI16]] : (tensor<2x3xi16>, tensor<2x3xi16>) -> tensor<2x3xi16>
// CHECK-NEXT:    %{{.*}} = rlx.add %[[XI32]], %[[XI32]] : (tensor<2x3xi32>, tensor<2x3xi32>) -> tensor<2x3xi32>
// CHECK-NEXT:    %{{.*}} = rlx.add %[[XI64]], %[[XI64]] : (tensor<2x3xi64>, tensor<2x3xi64>) -> tensor<2x3xi64>
// CHECK-NEXT:    return
func.func @binary_add_types(%xf16: tensor<2x3xf16>, %xbf16: tensor<2x3xbf16>, %xf32: tensor<2x3xf32>, %xf64: tensor<2x3xf64>, %xi8: tensor<2x3xi8>, %xi16: tensor<2x3xi16>, %xi32: tensor<2x3xi32>, %xi64: tensor<2x3xi64>) {
  %0 = rlx.add %xf16, %xf16 : (tensor<2x3xf16>, tensor<2x3xf16>) -> tensor<2x3xf16>
  %1 = rlx.add %xbf16, %xbf16 : (tensor<2x3xbf16>, tensor<2x3xbf16>) -> tensor<2x3xbf16>
  %2 = rlx.add %xf32, %xf32 : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %3 = rlx.add %xf64, %xf64 : (tensor<2x3xf64>, tensor<2x3xf64>) -> tensor<2x3xf64>
  %4 = rlx.add %xi8, %xi8 : (tensor<2x3xi8>, tensor<2x3xi8>) -> tensor<2x3xi8>
  %5 = rlx.add %xi16, %xi16 : (tensor<2x3xi16>, tensor<2x3xi16>) -> tensor<2x3xi16>
  %6 = rlx.add %xi32, %xi32 : (tensor<2x3xi32>, tensor<2x3xi32>) -> tensor<2x3xi32>
  %7 = rlx.add %xi64, %xi64 : (tensor<2x3xi64>, tensor<2x3xi64>) -> tensor<2x3xi64>
  return
}

// CHECK-LABEL: func.func @binary_add_broadcast(
// CHECK-SAME:    %[[L0:[a-z0-9]+]]: tensor<2x3xf32>, %[[R0:[a-z0-9]+]]: tensor<2x3xf32>, %[[L1:[a-z0-9]+]]: tensor<f32>, %[[R1:[a-z0-9]+]]: tensor<2x3xf32>, %[[L2:[a-z0-9]+]]: tensor<2x3xf32>, %[[R2:[a-z0-9]+]]: tensor<f32>, %[[L3:[a-z0-9]+]]: tensor<f32>, %[[R3:[a-z0-9]+]]: tensor<f32>, %[[L4:[a-z0-9]+]]: tensor<2x1xf32>, %[[R4:[a-z0-9]+]]: tensor<1x3xf32>, %[[L5:[a-z0-9]+]]: tensor<3xf32>, %[[R5:[a-z0-9]+]]: tensor<4x2x3xf32>, %[[L6:[a-z0-9]+]]: tensor<4x1x3xf32>, %[[R6:[a-z0-9]+]]: tensor<2x1xf32>, %[[L7:[a-z0-9]+]]: tensor<0x3xf32>, %[[R7:[a-z0-9]+]]: tensor<1x3xf32>, %[[L8:[a-z0-9]+]]: tensor<0x1xf32>, %[[R8:[a-z0-9]+]]: tensor<3xf32>, %[[L9:[a-z0-9]+]]: tensor<1x2x1x3x1x2xf32>, %[[R9:[a-z0-9]+]]: tensor<1x1x3x5x2xf32>)
// CHECK-NEXT:    %{{.*}} = rlx.add %[[L0]], %[[R0]] : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT:    %{{.*}} = rlx.add %[[L1]], %[[R1]] : (tensor<f32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT:    %{{.*}} = rlx.add %[[L2]], %[[R2]] : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
// CHECK-NEXT:    %{{.*}} = rlx.add %[[L3]], %[[R3]] : (tensor<f32>, tensor<f32>) -> tensor<f32>
// CHECK-NEXT:    %{{.*}} = rlx.add %[[L4]], %[[R4]] : (tensor<2x1xf32>, tensor<1x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT:    %{{.*}} = rlx.add %[[L5]], %[[R5]] : (tensor<3xf32>, tensor<4x2x3xf32>) -> tensor<4x2x3xf32>
// CHECK-NEXT:    %{{.*}} = rlx.add %[[L6]], %[[R6]] : (tensor<4x1x3xf32>, tensor<2x1xf32>) -> tensor<4x2x3xf32>
// CHECK-NEXT:    %{{.*}} = rlx.add %[[L7]], %[[R7]] : (tensor<0x3xf32>, tensor<1x3xf32>) -> tensor<0x3xf32>
// CHECK-NEXT:    %{{.*}} = rlx.add %[[L8]], %[[R8]] : (tensor<0x1xf32>, tensor<3xf32>) -> tensor<0x3xf32>
// CHECK-NEXT:    %{{.*}} = rlx.add %[[L9]], %[[R9]] : (tensor<1x2x1x3x1x2xf32>, tensor<1x1x3x5x2xf32>) -> tensor<1x2x1x3x5x2xf32>
// CHECK-NEXT:    return
func.func @binary_add_broadcast(%l0: tensor<2x3xf32>, %r0: tensor<2x3xf32>, %l1: tensor<f32>, %r1: tensor<2x3xf32>, %l2: tensor<2x3xf32>, %r2: tensor<f32>, %l3: tensor<f32>, %r3: tensor<f32>, %l4: tensor<2x1xf32>, %r4: tensor<1x3xf32>, %l5: tensor<3xf32>, %r5: tensor<4x2x3xf32>, %l6: tensor<4x1x3xf32>, %r6: tensor<2x1xf32>, %l7: tensor<0x3xf32>, %r7: tensor<1x3xf32>, %l8: tensor<0x1xf32>, %r8: tensor<3xf32>, %l9: tensor<1x2x1x3x1x2xf32>, %r9: tensor<1x1x3x5x2xf32>) {
  %0 = rlx.add %l0, %r0 : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %1 = rlx.add %l1, %r1 : (tensor<f32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %2 = rlx.add %l2, %r2 : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
  %3 = rlx.add %l3, %r3 : (tensor<f32>, tensor<f32>) -> tensor<f32>
  %4 = rlx.add %l4, %r4 : (tensor<2x1xf32>, tensor<1x3xf32>) -> tensor<2x3xf32>
  %5 = rlx.add %l5, %r5 : (tensor<3xf32>, tensor<4x2x3xf32>) -> tensor<4x2x3xf32>
  %6 = rlx.add %l6, %r6 : (tensor<4x1x3xf32>, tensor<2x1xf32>) -> tensor<4x2x3xf32>
  %7 = rlx.add %l7, %r7 : (tensor<0x3xf32>, tensor<1x3xf32>) -> tensor<0x3xf32>
  %8 = rlx.add %l8, %r8 : (tensor<0x1xf32>, tensor<3xf32>) -> tensor<0x3xf32>
  %9 = rlx.add %l9, %r9 : (tensor<1x2x1x3x1x2xf32>, tensor<1x1x3x5x2xf32>) -> tensor<1x2x1x3x5x2xf32>
  return
}

// CHECK-LABEL: func.func @binary_sub_types(
// CHECK-SAME:    %[[XF16:[a-z0-9]+]]: tensor<2x3xf16>, %[[XBF16:[a-z0-9]+]]: tensor<2x3xbf16>, %[[XF32:[a-z0-9]+]]: tensor<2x3xf32>, %[[XF64:[a-z0-9]+]]: tensor<2x3xf64>, %[[XI8:[a-z0-9]+]]: tensor<2x3xi8>, %[[XI16:[a-z0-9]+]]: tensor<2x3xi16>, %[[XI32:[a-z0-9]+]]: tensor<2x3xi32>, %[[XI64:[a-z0-9]+]]: tensor<2x3xi64>)
// CHECK-NEXT:    %{{.*}} = rlx.sub %[[XF16]], %[[XF16]] : (tensor<2x3xf16>, tensor<2x3xf16>) -> tensor<2x3xf16>
// CHECK-NEXT:    %{{.*}} = rlx.sub %[[XBF16]], %[[XBF16]] : (tensor<2x3xbf16>, tensor<2x3xbf16>) -> tensor<2x3xbf16>
// CHECK-NEXT:    %{{.*}} = rlx.sub %[[XF32]], %[[XF32]] : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT:    %{{.*}} = rlx.sub %[[XF64]], %[[XF64]] : (tensor<2x3xf64>, tensor<2x3xf64>) -> tensor<2x3xf64>
// CHECK-NEXT:    %{{.*}} = rlx.sub %[[XI8]], %[[XI8]] : (tensor<2x3xi8>, tensor<2x3xi8>) -> tensor<2x3xi8>
// CHECK-NEXT:    %{{.*}} = rlx.sub %[[XI16]], %[[XI16]] : (tensor<2x3xi16>, tensor<2x3xi16>) -> tensor<2x3xi16>
// CHECK-NEXT:    %{{.*}} = rlx.sub %[[XI32]], %[[XI32]] : (tensor<2x3xi32>, tensor<2x3xi32>) -> tensor<2x3xi32>
// CHECK-NEXT:    %{{.*}} = rlx.sub %[[XI64]], %[[XI64]] : (tensor<2x3xi64>, tensor<2x3xi64>) -> tensor<2x3xi64>
// CHECK-NEXT:    return
func.func @binary_sub_types(%xf16: tensor<2x3xf16>, %xbf16: tensor<2x3xbf16>, %xf32: tensor<2x3xf32>, %xf64: tensor<2x3xf64>, %xi8: tensor<2x3xi8>, %xi16: tensor<2x3xi16>, %xi32: tensor<2x3xi32>, %xi64: tensor<2x3xi64>) {
  %0 = rlx.sub %xf16, %xf16 : (tensor<2x3xf16>, tensor<2x3xf16>) -> tensor<2x3xf16>
  %1 = rlx.sub %xbf16, %xbf16 : (tensor<2x3xbf16>, tensor<2x3xbf16>) -> tensor<2x3xbf16>
  %2 = rlx.sub %xf32, %xf32 : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %3 = rlx.sub %xf64, %xf64 : (tensor<2x3xf64>, tensor<2x3xf64>) -> tensor<2x3xf64>
  %4 = rlx.sub %xi8, %xi8 : (tensor<2x3xi8>, tensor<2x3xi8>) -> tensor<2x3xi8>
  %5 = rlx.sub %xi16, %xi16 : (tensor<2x3xi16>, tensor<2x3xi16>) -> tensor<2x3xi16>
  %6 = rlx.sub %xi32, %xi32 : (tensor<2x3xi32>, tensor<2x3xi32>) -> tensor<2x3xi32>
  %7 = rlx.sub %xi64, %xi64 : (tensor<2x3xi64>, tensor<2x3xi64>) -> tensor<2x3xi64>
  return
}

// CHECK-LABEL: func.func @binary_sub_broadcast(
// CHECK-SAME:    %[[L0:[a-z0-9]+]]: tensor<2x3xf32>, %[[R0:[a-z0-9]+]]: tensor<2x3xf32>, %[[L1:[a-z0-9]+]]: tensor<f32>, %[[R1:[a-z0-9]+]]: tensor<2x3xf32>, %[[L2:[a-z0-9]+]]: tensor<2x3xf32>, %[[R2:[a-z0-9]+]]: tensor<f32>, %[[L3:[a-z0-9]+]]: tensor<f32>, %[[R3:[a-z0-9]+]]: tensor<f32>, %[[L4:[a-z0-9]+]]: tensor<2x1xf32>, %[[R4:[a-z0-9]+]]: tensor<1x3xf32>, %[[L5:[a-z0-9]+]]: tensor<3xf32>, %[[R5:[a-z0-9]+]]: tensor<4x2x3xf32>, %[[L6:[a-z0-9]+]]: tensor<4x1x3xf32>, %[[R6:[a-z0-9]+]]: tensor<2x1xf32>, %[[L7:[a-z0-9]+]]: tensor<0x3xf32>, %[[R7:[a-z0-9]+]]: tensor<1x3xf32>, %[[L8:[a-z0-9]+]]: tensor<0x1xf32>, %[[R8:[a-z0-9]+]]: tensor<3xf32>, %[[L9:[a-z0-9]+]]: tensor<1x2x1x3x1x2xf32>, %[[R9:[a-z0-9]+]]: tensor<1x1x3x5x2xf32>)
// CHECK-NEXT:    %{{.*}} = rlx.sub %[[L0]], %[[R0]] : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT:    %{{.*}} = rlx.sub %[[L1]], %[[R1]] : (tensor<f32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT:    %{{.*}} = rlx.sub %[[L2]], %[[R2]] : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
// CHECK-NEXT:    %{{.*}} = rlx.sub %[[L3]], %[[R3]] : (tensor<f32>, tensor<f32>) -> tensor<f32>
// CHECK-NEXT:    %{{.*}} = rlx.sub %[[L4]], %[[R4]] : (tensor<2x1xf32>, tensor<1x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT:    %{{.*}} = rlx.sub %[[L5]], %[[R5]] : (tensor<3xf32>, tensor<4x2x3xf32>) -> tensor<4x2x3xf32>
// CHECK-NEXT:    %{{.*}} = rlx.sub %[[L6]], %[[R6]] : (tensor<4x1x3xf32>, tensor<2x1xf32>) -> tensor<4x2x3xf32>
// CHECK-NEXT:    %{{.*}} = rlx.sub %[[L7]], %[[R7]] : (tensor<0x3xf32>, tensor<1x3xf32>) -> tensor<0x3xf32>
// CHECK-NEXT:    %{{.*}} = rlx.sub %[[L8]], %[[R8]] : (tensor<0x1xf32>, tensor<3xf32>) -> tensor<0x3xf32>
// CHECK-NEXT:    %{{.*}} = rlx.sub %[[L9]], %[[R9]] : (tensor<1x2x1x3x1x2xf32>, tensor<1x1x3x5x2xf32>) -> tensor<1x2x1x3x5x2xf32>
// CHECK-NEXT:    return
func.func @binary_sub_broadcast(%l0: tensor<2x3xf32>, %r0: tensor<2x3xf32>, %l1: tensor<f32>, %r1: tensor<2x3xf32>, %l2: tensor<2x3xf32>, %r2: tensor<f32>, %l3: tensor<f32>, %r3: tensor<f32>, %l4: tensor<2x1xf32>, %r4: tensor<1x3xf32>, %l5: tensor<3xf32>, %r5: tensor<4x2x3xf32>, %l6: tensor<4x1x3xf32>, %r6: tensor<2x1xf32>, %l7: tensor<0x3xf32>, %r7: tensor<1x3xf32>, %l8: tensor<0x1xf32>, %r8: tensor<3xf32>, %l9: tensor<1x2x1x3x1x2xf32>, %r9: tensor<1x1x3x5x2xf32>) {
  %0 = rlx.sub %l0, %r0 : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %1 = rlx.sub %l1, %r1 : (tensor<f32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %2 = rlx.sub %l2, %r2 : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
  %3 = rlx.sub %l3, %r3 : (tensor<f32>, tensor<f32>) -> tensor<f32>
  %4 = rlx.sub %l4, %r4 : (tensor<2x1xf32>, tensor<1x3xf32>) -> tensor<2x3xf32>
  %5 = rlx.sub %l5, %r5 : (tensor<3xf32>, tensor<4x2x3xf32>) -> tensor<4x2x3xf32>
  %6 = rlx.sub %l6, %r6 : (tensor<4x1x3xf32>, tensor<2x1xf32>) -> tensor<4x2x3xf32>
  %7 = rlx.sub %l7, %r7 : (tensor<0x3xf32>, tensor<1x3xf32>) -> tensor<0x3xf32>
  %8 = rlx.sub %l8, %r8 : (tensor<0x1xf32>, tensor<3xf32>) -> tensor<0x3xf32>
  %9 = rlx.sub %l9, %r9 : (tensor<1x2x1x3x1x2xf32>, tensor<1x1x3x5x2xf32>) -> tensor<1x2x1x3x5x2xf32>
  return
}

// CHECK-LABEL: func.func @binary_mul_types(
// CHECK-SAME:    %[[XF16:[a-z0-9]+]]: tensor<2x3xf16>, %[[XBF16:[a-z0-9]+]]: tensor<2x3xbf16>, %[[XF32:[a-z0-9]+]]: tensor<2x3xf32>, %[[XF64:[a-z0-9]+]]: tensor<2x3xf64>, %[[XI8:[a-z0-9]+]]: tensor<2x3xi8>, %[[XI16:[a-z0-9]+]]: tensor<2x3xi16>, %[[XI32:[a-z0-9]+]]: tensor<2x3xi32>, %[[XI64:[a-z0-9]+]]: tensor<2x3xi64>)
// CHECK-NEXT:    %{{.*}} = rlx.mul %[[XF16]], %[[XF16]] : (tensor<2x3xf16>, tensor<2x3xf16>) -> tensor<2x3xf16>
// CHECK-NEXT:    %{{.*}} = rlx.mul %[[XBF16]], %[[XBF16]] : (tensor<2x3xbf16>, tensor<2x3xbf16>) -> tensor<2x3xbf16>
// CHECK-NEXT:    %{{.*}} = rlx.mul %[[XF32]], %[[XF32]] : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT:    %{{.*}} = rlx.mul %[[XF64]], %[[XF64]] : (tensor<2x3xf64>, tensor<2x3xf64>) -> tensor<2x3xf64>
// CHECK-NEXT:    %{{.*}} = rlx.mul %[[XI8]], %[[XI8]] : (tensor<2x3xi8>, tensor<2x3xi8>) -> tensor<2x3xi8>
// CHECK-NEXT:    %{{.*}} = rlx.mul %[[XI16]], %[[XI16]] : (tensor<2x3xi16>, tensor<2x3xi16>) -> tensor<2x3xi16>
// CHECK-NEXT:    %{{.*}} = rlx.mul %[[XI32]], %[[XI32]] : (tensor<2x3xi32>, tensor<2x3xi32>) -> tensor<2x3xi32>
// CHECK-NEXT:    %{{.*}} = rlx.mul %[[XI64]], %[[XI64]] : (tensor<2x3xi64>, tensor<2x3xi64>) -> tensor<2x3xi64>
// CHECK-NEXT:    return
func.func @binary_mul_types(%xf16: tensor<2x3xf16>, %xbf16: tensor<2x3xbf16>, %xf32: tensor<2x3xf32>, %xf64: tensor<2x3xf64>, %xi8: tensor<2x3xi8>, %xi16: tensor<2x3xi16>, %xi32: tensor<2x3xi32>, %xi64: tensor<2x3xi64>) {
  %0 = rlx.mul %xf16, %xf16 : (tensor<2x3xf16>, tensor<2x3xf16>) -> tensor<2x3xf16>
  %1 = rlx.mul %xbf16, %xbf16 : (tensor<2x3xbf16>, tensor<2x3xbf16>) -> tensor<2x3xbf16>
  %2 = rlx.mul %xf32, %xf32 : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %3 = rlx.mul %xf64, %xf64 : (tensor<2x3xf64>, tensor<2x3xf64>) -> tensor<2x3xf64>
  %4 = rlx.mul %xi8, %xi8 : (tensor<2x3xi8>, tensor<2x3xi8>) -> tensor<2x3xi8>
  %5 = rlx.mul %xi16, %xi16 : (tensor<2x3xi16>, tensor<2x3xi16>) -> tensor<2x3xi16>
  %6 = rlx.mul %xi32, %xi32 : (tensor<2x3xi32>, tensor<2x3xi32>) -> tensor<2x3xi32>
  %7 = rlx.mul %xi64, %xi64 : (tensor<2x3xi64>, tensor<2x3xi64>) -> tensor<2x3xi64>
  return
}

// CHECK-LABEL: func.func @binary_mul_broadcast(
// CHECK-SAME:    %[[L0:[a-z0-9]+]]: tensor<2x3xf32>, %[[R0:[a-z0-9]+]]: tensor<2x3xf32>, %[[L1:[a-z0-9]+]]: tensor<f32>, %[[R1:[a-z0-9]+]]: tensor<2x3xf32>, %[[L2:[a-z0-9]+]]: tensor<2x3xf32>, %[[R2:[a-z0-9]+]]: tensor<f32>, %[[L3:[a-z0-9]+]]: tensor<f32>, %[[R3:[a-z0-9]+]]: tensor<f32>, %[[L4:[a-z0-9]+]]: tensor<2x1xf32>, %[[R4:[a-z0-9]+]]: tensor<1x3xf32>, %[[L5:[a-z0-9]+]]: tensor<3xf32>, %[[R5:[a-z0-9]+]]: tensor<4x2x3xf32>, %[[L6:[a-z0-9]+]]: tensor<4x1x3xf32>, %[[R6:[a-z0-9]+]]: tensor<2x1xf32>, %[[L7:[a-z0-9]+]]: tensor<0x3xf32>, %[[R7:[a-z0-9]+]]: tensor<1x3xf32>, %[[L8:[a-z0-9]+]]: tensor<0x1xf32>, %[[R8:[a-z0-9]+]]: tensor<3xf32>, %[[L9:[a-z0-9]+]]: tensor<1x2x1x3x1x2xf32>, %[[R9:[a-z0-9]+]]: tensor<1x1x3x5x2xf32>)
// CHECK-NEXT:    %{{.*}} = rlx.mul %[[L0]], %[[R0]] : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT:    %{{.*}} = rlx.mul %[[L1]], %[[R1]] : (tensor<f32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT:    %{{.*}} = rlx.mul %[[L2]], %[[R2]] : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
// CHECK-NEXT:    %{{.*}} = rlx.mul %[[L3]], %[[R3]] : (tensor<f32>, tensor<f32>) -> tensor<f32>
// CHECK-NEXT:    %{{.*}} = rlx.mul %[[L4]], %[[R4]] : (tensor<2x1xf32>, tensor<1x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT:    %{{.*}} = rlx.mul %[[L5]], %[[R5]] : (tensor<3xf32>, tensor<4x2x3xf32>) -> tensor<4x2x3xf32>
// CHECK-NEXT:    %{{.*}} = rlx.mul %[[L6]], %[[R6]] : (tensor<4x1x3xf32>, tensor<2x1xf32>) -> tensor<4x2x3xf32>
// CHECK-NEXT:    %{{.*}} = rlx.mul %[[L7]], %[[R7]] : (tensor<0x3xf32>, tensor<1x3xf32>) -> tensor<0x3xf32>
// CHECK-NEXT:    %{{.*}} = rlx.mul %[[L8]], %[[R8]] : (tensor<0x1xf32>, tensor<3xf32>) -> tensor<0x3xf32>
// CHECK-NEXT:    %{{.*}} = rlx.mul %[[L9]], %[[R9]] : (tensor<1x2x1x3x1x2xf32>, tensor<1x1x3x5x2xf32>) -> tensor<1x2x1x3x5x2xf32>
// CHECK-NEXT:    return
func.func @binary_mul_broadcast(%l0: tensor<2x3xf32>, %r0: tensor<2x3xf32>, %l1: tensor<f32>, %r1: tensor<2x3xf32>, %l2: tensor<2x3xf32>, %r2: tensor<f32>, %l3: tensor<f32>, %r3: tensor<f32>, %l4: tensor<2x1xf32>, %r4: tensor<1x3xf32>, %l5: tensor<3xf32>, %r5: tensor<4x2x3xf32>, %l6: tensor<4x1x3xf32>, %r6: tensor<2x1xf32>, %l7: tensor<0x3xf32>, %r7: tensor<1x3xf32>, %l8: tensor<0x1xf32>, %r8: tensor<3xf32>, %l9: tensor<1x2x1x3x1x2xf32>, %r9: tensor<1x1x3x5x2xf32>) {
  %0 = rlx.mul %l0, %r0 : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %1 = rlx.mul %l1, %r1 : (tensor<f32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %2 = rlx.mul %l2, %r2 : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
  %3 = rlx.mul %l3, %r3 : (tensor<f32>, tensor<f32>) -> tensor<f32>
  %4 = rlx.mul %l4, %r4 : (tensor<2x1xf32>, tensor<1x3xf32>) -> tensor<2x3xf32>
  %5 = rlx.mul %l5, %r5 : (tensor<3xf32>, tensor<4x2x3xf32>) -> tensor<4x2x3xf32>
  %6 = rlx.mul %l6, %r6 : (tensor<4x1x3xf32>, tensor<2x1xf32>) -> tensor<4x2x3xf32>
  %7 = rlx.mul %l7, %r7 : (tensor<0x3xf32>, tensor<1x3xf32>) -> tensor<0x3xf32>
  %8 = rlx.mul %l8, %r8 : (tensor<0x1xf32>, tensor<3xf32>) -> tensor<0x3xf32>
  %9 = rlx.mul %l9, %r9 : (tensor<1x2x1x3x1x2xf32>, tensor<1x1x3x5x2xf32>) -> tensor<1x2x1x3x5x2xf32>
  return
}

// CHECK-LABEL: func.func @binary_div_types(
// CHECK-SAME:    %[[XF16:[a-z0-9]+]]: tensor<2x3xf16>, %[[XBF16:[a-z0-9]+]]: tensor<2x3xbf16>, %[[XF32:[a-z0-9]+]]: tensor<2x3xf32>, %[[XF64:[a-z0-9]+]]: tensor<2x3xf64>, %[[XI8:[a-z0-9]+]]: tensor<2x3xi8>, %[[XI16:[a-z0-9]+]]: tensor<2x3xi16>, %[[XI32:[a-z0-9]+]]: tensor<2x3xi32>, %[[XI64:[a-z0-9]+]]: tensor<2x3xi64>)
// CHECK-NEXT:    %{{.*}} = rlx.div %[[XF16]], %[[XF16]] : (tensor<2x3xf16>, tensor<2x3xf16>) -> tensor<2x3xf16>
// CHECK-NEXT:    %{{.*}} = rlx.div %[[XBF16]], %[[XBF16]] : (tensor<2x3xbf16>, tensor<2x3xbf16>) -> tensor<2x3xbf16>
// CHECK-NEXT:    %{{.*}} = rlx.div %[[XF32]], %[[XF32]] : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT:    %{{.*}} = rlx.div %[[XF64]], %[[XF64]] : (tensor<2x3xf64>, tensor<2x3xf64>) -> tensor<2x3xf64>
// CHECK-NEXT:    %{{.*}} = rlx.div %[[XI8]], %[[XI8]] : (tensor<2x3xi8>, tensor<2x3xi8>) -> tensor<2x3xi8>
// CHECK-NEXT:    %{{.*}} = rlx.div %[[XI16]], %[[XI16]] : (tensor<2x3xi16>, tensor<2x3xi16>) -> tensor<2x3xi16>
// CHECK-NEXT:    %{{.*}} = rlx.div %[[XI32]], %[[XI32]] : (tensor<2x3xi32>, tensor<2x3xi32>) -> tensor<2x3xi32>
// CHECK-NEXT:    %{{.*}} = rlx.div %[[XI64]], %[[XI64]] : (tensor<2x3xi64>, tensor<2x3xi64>) -> tensor<2x3xi64>
// CHECK-NEXT:    return
func.func @binary_div_types(%xf16: tensor<2x3xf16>, %xbf16: tensor<2x3xbf16>, %xf32: tensor<2x3xf32>, %xf64: tensor<2x3xf64>, %xi8: tensor<2x3xi8>, %xi16: tensor<2x3xi16>, %xi32: tensor<2x3xi32>, %xi64: tensor<2x3xi64>) {
  %0 = rlx.div %xf16, %xf16 : (tensor<2x3xf16>, tensor<2x3xf16>) -> tensor<2x3xf16>
  %1 = rlx.div %xbf16, %xbf16 : (tensor<2x3xbf16>, tensor<2x3xbf16>) -> tensor<2x3xbf16>
  %2 = rlx.div %xf32, %xf32 : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %3 = rlx.div %xf64, %xf64 : (tensor<2x3xf64>, tensor<2x3xf64>) -> tensor<2x3xf64>
  %4 = rlx.div %xi8, %xi8 : (tensor<2x3xi8>, tensor<2x3xi8>) -> tensor<2x3xi8>
  %5 = rlx.div %xi16, %xi16 : (tensor<2x3xi16>, tensor<2x3xi16>) -> tensor<2x3xi16>
  %6 = rlx.div %xi32, %xi32 : (tensor<2x3xi32>, tensor<2x3xi32>) -> tensor<2x3xi32>
  %7 = rlx.div %xi64, %xi64 : (tensor<2x3xi64>, tensor<2x3xi64>) -> tensor<2x3xi64>
  return
}

// CHECK-LABEL: func.func @binary_div_broadcast(
// CHECK-SAME:    %[[L0:[a-z0-9]+]]: tensor<2x3xf32>, %[[R0:[a-z0-9]+]]: tensor<2x3xf32>, %[[L1:[a-z0-9]+]]: tensor<f32>, %[[R1:[a-z0-9]+]]: tensor<2x3xf32>, %[[L2:[a-z0-9]+]]: tensor<2x3xf32>, %[[R2:[a-z0-9]+]]: tensor<f32>, %[[L3:[a-z0-9]+]]: tensor<f32>, %[[R3:[a-z0-9]+]]: tensor<f32>, %[[L4:[a-z0-9]+]]: tensor<2x1xf32>, %[[R4:[a-z0-9]+]]: tensor<1x3xf32>, %[[L5:[a-z0-9]+]]: tensor<3xf32>, %[[R5:[a-z0-9]+]]: tensor<4x2x3xf32>, %[[L6:[a-z0-9]+]]: tensor<4x1x3xf32>, %[[R6:[a-z0-9]+]]: tensor<2x1xf32>, %[[L7:[a-z0-9]+]]: tensor<0x3xf32>, %[[R7:[a-z0-9]+]]: tensor<1x3xf32>, %[[L8:[a-z0-9]+]]: tensor<0x1xf32>, %[[R8:[a-z0-9]+]]: tensor<3xf32>, %[[L9:[a-z0-9]+]]: tensor<1x2x1x3x1x2xf32>, %[[R9:[a-z0-9]+]]: tensor<1x1x3x5x2xf32>)
// CHECK-NEXT:    %{{.*}} = rlx.div %[[L0]], %[[R0]] : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT:    %{{.*}} = rlx.div %[[L1]], %[[R1]] : (tensor<f32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT:    %{{.*}} = rlx.div %[[L2]], %[[R2]] : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
// CHECK-NEXT:    %{{.*}} = rlx.div %[[L3]], %[[R3]] : (tensor<f32>, tensor<f32>) -> tensor<f32>
// CHECK-NEXT:    %{{.*}} = rlx.div %[[L4]], %[[R4]] : (tensor<2x1xf32>, tensor<1x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT:    %{{.*}} = rlx.div %[[L5]], %[[R5]] : (tensor<3xf32>, tensor<4x2x3xf32>) -> tensor<4x2x3xf32>
// CHECK-NEXT:    %{{.*}} = rlx.div %[[L6]], %[[R6]] : (tensor<4x1x3xf32>, tensor<2x1xf32>) -> tensor<4x2x3xf32>
// CHECK-NEXT:    %{{.*}} = rlx.div %[[L7]], %[[R7]] : (tensor<0x3xf32>, tensor<1x3xf32>) -> tensor<0x3xf32>
// CHECK-NEXT:    %{{.*}} = rlx.div %[[L8]], %[[R8]] : (tensor<0x1xf32>, tensor<3xf32>) -> tensor<0x3xf32>
// CHECK-NEXT:    %{{.*}} = rlx.div %[[L9]], %[[R9]] : (tensor<1x2x1x3x1x2xf32>, tensor<1x1x3x5x2xf32>) -> tensor<1x2x1x3x5x2xf32>
// CHECK-NEXT:    return
func.func @binary_div_broadcast(%l0: tensor<2x3xf32>, %r0: tensor<2x3xf32>, %l1: tensor<f32>, %r1: tensor<2x3xf32>, %l2: tensor<2x3xf32>, %r2: tensor<f32>, %l3: tensor<f32>, %r3: tensor<f32>, %l4: tensor<2x1xf32>, %r4: tensor<1x3xf32>, %l5: tensor<3xf32>, %r5: tensor<4x2x3xf32>, %l6: tensor<4x1x3xf32>, %r6: tensor<2x1xf32>, %l7: tensor<0x3xf32>, %r7: tensor<1x3xf32>, %l8: tensor<0x1xf32>, %r8: tensor<3xf32>, %l9: tensor<1x2x1x3x1x2xf32>, %r9: tensor<1x1x3x5x2xf32>) {
  %0 = rlx.div %l0, %r0 : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %1 = rlx.div %l1, %r1 : (tensor<f32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %2 = rlx.div %l2, %r2 : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
  %3 = rlx.div %l3, %r3 : (tensor<f32>, tensor<f32>) -> tensor<f32>
  %4 = rlx.div %l4, %r4 : (tensor<2x1xf32>, tensor<1x3xf32>) -> tensor<2x3xf32>
  %5 = rlx.div %l5, %r5 : (tensor<3xf32>, tensor<4x2x3xf32>) -> tensor<4x2x3xf32>
  %6 = rlx.div %l6, %r6 : (tensor<4x1x3xf32>, tensor<2x1xf32>) -> tensor<4x2x3xf32>
  %7 = rlx.div %l7, %r7 : (tensor<0x3xf32>, tensor<1x3xf32>) -> tensor<0x3xf32>
  %8 = rlx.div %l8, %r8 : (tensor<0x1xf32>, tensor<3xf32>) -> tensor<0x3xf32>
  %9 = rlx.div %l9, %r9 : (tensor<1x2x1x3x1x2xf32>, tensor<1x1x3x5x2xf32>) -> tensor<1x2x1x3x5x2xf32>
  return
}

// CHECK-LABEL: func.func @binary_max_types(
// CHECK-SAME:    %[[XF16:[a-z0-9]+]]: tensor<2x3xf16>, %[[XBF16:[a-z0-9]+]]: tensor<2x3xbf16>, %[[XF32:[a-z0-9]+]]: tensor<2x3xf32>, %[[XF64:[a-z0-9]+]]: tensor<2x3xf64>, %[[XI8:[a-z0-9]+]]: tensor<2x3xi8>, %[[XI16:[a-z0-9]+]]: tensor<2x3xi16>, %[[XI32:[a-z0-9]+]]: tensor<2x3xi32>, %[[XI64:[a-z0-9]+]]: tensor<2x3xi64>)
// CHECK-NEXT:    %{{.*}} = rlx.max %[[XF16]], %[[XF16]] : (tensor<2x3xf16>, tensor<2x3xf16>) -> tensor<2x3xf16>
// CHECK-NEXT:    %{{.*}} = rlx.max %[[XBF16]], %[[XBF16]] : (tensor<2x3xbf16>, tensor<2x3xbf16>) -> tensor<2x3xbf16>
// CHECK-NEXT:    %{{.*}} = rlx.max %[[XF32]], %[[XF32]] : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT:    %{{.*}} = rlx.max %[[XF64]], %[[XF64]] : (tensor<2x3xf64>, tensor<2x3xf64>) -> tensor<2x3xf64>
// CHECK-NEXT:    %{{.*}} = rlx.max %[[XI8]], %[[XI8]] : (tensor<2x3xi8>, tensor<2x3xi8>) -> tensor<2x3xi8>
// CHECK-NEXT:    %{{.*}} = rlx.max %[[XI16]], %[[XI16]] : (tensor<2x3xi16>, tensor<2x3xi16>) -> tensor<2x3xi16>
// CHECK-NEXT:    %{{.*}} = rlx.max %[[XI32]], %[[XI32]] : (tensor<2x3xi32>, tensor<2x3xi32>) -> tensor<2x3xi32>
// CHECK-NEXT:    %{{.*}} = rlx.max %[[XI64]], %[[XI64]] : (tensor<2x3xi64>, tensor<2x3xi64>) -> tensor<2x3xi64>
// CHECK-NEXT:    return
func.func @binary_max_types(%xf16: tensor<2x3xf16>, %xbf16: tensor<2x3xbf16>, %xf32: tensor<2x3xf32>, %xf64: tensor<2x3xf64>, %xi8: tensor<2x3xi8>, %xi16: tensor<2x3xi16>, %xi32: tensor<2x3xi32>, %xi64: tensor<2x3xi64>) {
  %0 = rlx.max %xf16, %xf16 : (tensor<2x3xf16>, tensor<2x3xf16>) -> tensor<2x3xf16>
  %1 = rlx.max %xbf16, %xbf16 : (tensor<2x3xbf16>, tensor<2x3xbf16>) -> tensor<2x3xbf16>
  %2 = rlx.max %xf32, %xf32 : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %3 = rlx.max %xf64, %xf64 : (tensor<2x3xf64>, tensor<2x3xf64>) -> tensor<2x3xf64>
  %4 = rlx.max %xi8, %xi8 : (tensor<2x3xi8>, tensor<2x3xi8>) -> tensor<2x3xi8>
  %5 = rlx.max %xi16, %xi16 : (tensor<2x3xi16>, tensor<2x3xi16>) -> tensor<2x3xi16>
  %6 = rlx.max %xi32, %xi32 : (tensor<2x3xi32>, tensor<2x3xi32>) -> tensor<2x3xi32>
  %7 = rlx.max %xi64, %xi64 : (tensor<2x3xi64>, tensor<2x3xi64>) -> tensor<2x3xi64>
  return
}

// CHECK-LABEL: func.func @binary_max_broadcast(
// CHECK-SAME:    %[[L0:[a-z0-9]+]]: tensor<2x3xf32>, %[[R0:[a-z0-9]+]]: tensor<2x3xf32>, %[[L1:[a-z0-9]+]]: tensor<f32>, %[[R1:[a-z0-9]+]]: tensor<2x3xf32>, %[[L2:[a-z0-9]+]]: tensor<2x3xf32>, %[[R2:[a-z0-9]+]]: tensor<f32>, %[[L3:[a-z0-9]+]]: tensor<f32>, %[[R3:[a-z0-9]+]]: tensor<f32>, %[[L4:[a-z0-9]+]]: tensor<2x1xf32>, %[[R4:[a-z0-9]+]]: tensor<1x3xf32>, %[[L5:[a-z0-9]+]]: tensor<3xf32>, %[[R5:[a-z0-9]+]]: tensor<4x2x3xf32>, %[[L6:[a-z0-9]+]]: tensor<4x1x3xf32>, %[[R6:[a-z0-9]+]]: tensor<2x1xf32>, %[[L7:[a-z0-9]+]]: tensor<0x3xf32>, %[[R7:[a-z0-9]+]]: tensor<1x3xf32>, %[[L8:[a-z0-9]+]]: tensor<0x1xf32>, %[[R8:[a-z0-9]+]]: tensor<3xf32>, %[[L9:[a-z0-9]+]]: tensor<1x2x1x3x1x2xf32>, %[[R9:[a-z0-9]+]]: tensor<1x1x3x5x2xf32>)
// CHECK-NEXT:    %{{.*}} = rlx.max %[[L0]], %[[R0]] : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT:    %{{.*}} = rlx.max %[[L1]], %[[R1]] : (tensor<f32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT:    %{{.*}} = rlx.max %[[L2]], %[[R2]] : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
// CHECK-NEXT:    %{{.*}} = rlx.max %[[L3]], %[[R3]] : (tensor<f32>, tensor<f32>) -> tensor<f32>
// CHECK-NEXT:    %{{.*}} = rlx.max %[[L4]], %[[R4]] : (tensor<2x1xf32>, tensor<1x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT:    %{{.*}} = rlx.max %[[L5]], %[[R5]] : (tensor<3xf32>, tensor<4x2x3xf32>) -> tensor<4x2x3xf32>
// CHECK-NEXT:    %{{.*}} = rlx.max %[[L6]], %[[R6]] : (tensor<4x1x3xf32>, tensor<2x1xf32>) -> tensor<4x2x3xf32>
// CHECK-NEXT:    %{{.*}} = rlx.max %[[L7]], %[[R7]] : (tensor<0x3xf32>, tensor<1x3xf32>) -> tensor<0x3xf32>
// CHECK-NEXT:    %{{.*}} = rlx.max %[[L8]], %[[R8]] : (tensor<0x1xf32>, tensor<3xf32>) -> tensor<0x3xf32>
// CHECK-NEXT:    %{{.*}} = rlx.max %[[L9]], %[[R9]] : (tensor<1x2x1x3x1x2xf32>, tensor<1x1x3x5x2xf32>) -> tensor<1x2x1x3x5x2xf32>
// CHECK-NEXT:    return
func.func @binary_max_broadcast(%l0: tensor<2x3xf32>, %r0: tensor<2x3xf32>, %l1: tensor<f32>, %r1: tensor<2x3xf32>, %l2: tensor<2x3xf32>, %r2: tensor<f32>, %l3: tensor<f32>, %r3: tensor<f32>, %l4: tensor<2x1xf32>, %r4: tensor<1x3xf32>, %l5: tensor<3xf32>, %r5: tensor<4x2x3xf32>, %l6: tensor<4x1x3xf32>, %r6: tensor<2x1xf32>, %l7: tensor<0x3xf32>, %r7: tensor<1x3xf32>, %l8: tensor<0x1xf32>, %r8: tensor<3xf32>, %l9: tensor<1x2x1x3x1x2xf32>, %r9: tensor<1x1x3x5x2xf32>) {
  %0 = rlx.max %l0, %r0 : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %1 = rlx.max %l1, %r1 : (tensor<f32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %2 = rlx.max %l2, %r2 : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
  %3 = rlx.max %l3, %r3 : (tensor<f32>, tensor<f32>) -> tensor<f32>
  %4 = rlx.max %l4, %r4 : (tensor<2x1xf32>, tensor<1x3xf32>) -> tensor<2x3xf32>
  %5 = rlx.max %l5, %r5 : (tensor<3xf32>, tensor<4x2x3xf32>) -> tensor<4x2x3xf32>
  %6 = rlx.max %l6, %r6 : (tensor<4x1x3xf32>, tensor<2x1xf32>) -> tensor<4x2x3xf32>
  %7 = rlx.max %l7, %r7 : (tensor<0x3xf32>, tensor<1x3xf32>) -> tensor<0x3xf32>
  %8 = rlx.max %l8, %r8 : (tensor<0x1xf32>, tensor<3xf32>) -> tensor<0x3xf32>
  %9 = rlx.max %l9, %r9 : (tensor<1x2x1x3x1x2xf32>, tensor<1x1x3x5x2xf32>) -> tensor<1x2x1x3x5x2xf32>
  return
}

// CHECK-LABEL: func.func @binary_min_types(
// CHECK-SAME:    %[[XF16:[a-z0-9]+]]: tensor<2x3xf16>, %[[XBF16:[a-z0-9]+]]: tensor<2x3xbf16>, %[[XF32:[a-z0-9]+]]: tensor<2x3xf32>, %[[XF64:[a-z0-9]+]]: tensor<2x3xf64>, %[[XI8:[a-z0-9]+]]: tensor<2x3xi8>, %[[XI16:[a-z0-9]+]]: tensor<2x3xi16>, %[[XI32:[a-z0-9]+]]: tensor<2x3xi32>, %[[XI64:[a-z0-9]+]]: tensor<2x3xi64>)
// CHECK-NEXT:    %{{.*}} = rlx.min %[[XF16]], %[[XF16]] : (tensor<2x3xf16>, tensor<2x3xf16>) -> tensor<2x3xf16>
// CHECK-NEXT:    %{{.*}} = rlx.min %[[XBF16]], %[[XBF16]] : (tensor<2x3xbf16>, tensor<2x3xbf16>) -> tensor<2x3xbf16>
// CHECK-NEXT:    %{{.*}} = rlx.min %[[XF32]], %[[XF32]] : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT:    %{{.*}} = rlx.min %[[XF64]], %[[XF64]] : (tensor<2x3xf64>, tensor<2x3xf64>) -> tensor<2x3xf64>
// CHECK-NEXT:    %{{.*}} = rlx.min %[[XI8]], %[[XI8]] : (tensor<2x3xi8>, tensor<2x3xi8>) -> tensor<2x3xi8>
// CHECK-NEXT:    %{{.*}} = rlx.min %[[XI16]], %[[XI16]] : (tensor<2x3xi16>, tensor<2x3xi16>) -> tensor<2x3xi16>
// CHECK-NEXT:    %{{.*}} = rlx.min %[[XI32]], %[[XI32]] : (tensor<2x3xi32>, tensor<2x3xi32>) -> tensor<2x3xi32>
// CHECK-NEXT:    %{{.*}} = rlx.min %[[XI64]], %[[XI64]] : (tensor<2x3xi64>, tensor<2x3xi64>) -> tensor<2x3xi64>
// CHECK-NEXT:    return
func.func @binary_min_types(%xf16: tensor<2x3xf16>, %xbf16: tensor<2x3xbf16>, %xf32: tensor<2x3xf32>, %xf64: tensor<2x3xf64>, %xi8: tensor<2x3xi8>, %xi16: tensor<2x3xi16>, %xi32: tensor<2x3xi32>, %xi64: tensor<2x3xi64>) {
  %0 = rlx.min %xf16, %xf16 : (tensor<2x3xf16>, tensor<2x3xf16>) -> tensor<2x3xf16>
  %1 = rlx.min %xbf16, %xbf16 : (tensor<2x3xbf16>, tensor<2x3xbf16>) -> tensor<2x3xbf16>
  %2 = rlx.min %xf32, %xf32 : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %3 = rlx.min %xf64, %xf64 : (tensor<2x3xf64>, tensor<2x3xf64>) -> tensor<2x3xf64>
  %4 = rlx.min %xi8, %xi8 : (tensor<2x3xi8>, tensor<2x3xi8>) -> tensor<2x3xi8>
  %5 = rlx.min %xi16, %xi16 : (tensor<2x3xi16>, tensor<2x3xi16>) -> tensor<2x3xi16>
  %6 = rlx.min %xi32, %xi32 : (tensor<2x3xi32>, tensor<2x3xi32>) -> tensor<2x3xi32>
  %7 = rlx.min %xi64, %xi64 : (tensor<2x3xi64>, tensor<2x3xi64>) -> tensor<2x3xi64>
  return
}

// CHECK-LABEL: func.func @binary_min_broadcast(
// CHECK-SAME:    %[[L0:[a-z0-9]+]]: tensor<2x3xf32>, %[[R0:[a-z0-9]+]]: tensor<2x3xf32>, %[[L1:[a-z0-9]+]]: tensor<f32>, %[[R1:[a-z0-9]+]]: tensor<2x3xf32>, %[[L2:[a-z0-9]+]]: tensor<2x3xf32>, %[[R2:[a-z0-9]+]]: tensor<f32>, %[[L3:[a-z0-9]+]]: tensor<f32>, %[[R3:[a-z0-9]+]]: tensor<f32>, %[[L4:[a-z0-9]+]]: tensor<2x1xf32>, %[[R4:[a-z0-9]+]]: tensor<1x3xf32>, %[[L5:[a-z0-9]+]]: tensor<3xf32>, %[[R5:[a-z0-9]+]]: tensor<4x2x3xf32>, %[[L6:[a-z0-9]+]]: tensor<4x1x3xf32>, %[[R6:[a-z0-9]+]]: tensor<2x1xf32>, %[[L7:[a-z0-9]+]]: tensor<0x3xf32>, %[[R7:[a-z0-9]+]]: tensor<1x3xf32>, %[[L8:[a-z0-9]+]]: tensor<0x1xf32>, %[[R8:[a-z0-9]+]]: tensor<3xf32>, %[[L9:[a-z0-9]+]]: tensor<1x2x1x3x1x2xf32>, %[[R9:[a-z0-9]+]]: tensor<1x1x3x5x2xf32>)
// CHECK-NEXT:    %{{.*}} = rlx.min %[[L0]], %[[R0]] : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT:    %{{.*}} = rlx.min %[[L1]], %[[R1]] : (tensor<f32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT:    %{{.*}} = rlx.min %[[L2]], %[[R2]] : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
// CHECK-NEXT:    %{{.*}} = rlx.min %[[L3]], %[[R3]] : (tensor<f32>, tensor<f32>) -> tensor<f32>
// CHECK-NEXT:    %{{.*}} = rlx.min %[[L4]], %[[R4]] : (tensor<2x1xf32>, tensor<1x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT:    %{{.*}} = rlx.min %[[L5]], %[[R5]] : (tensor<3xf32>, tensor<4x2x3xf32>) -> tensor<4x2x3xf32>
// CHECK-NEXT:    %{{.*}} = rlx.min %[[L6]], %[[R6]] : (tensor<4x1x3xf32>, tensor<2x1xf32>) -> tensor<4x2x3xf32>
// CHECK-NEXT:    %{{.*}} = rlx.min %[[L7]], %[[R7]] : (tensor<0x3xf32>, tensor<1x3xf32>) -> tensor<0x3xf32>
// CHECK-NEXT:    %{{.*}} = rlx.min %[[L8]], %[[R8]] : (tensor<0x1xf32>, tensor<3xf32>) -> tensor<0x3xf32>
// CHECK-NEXT:    %{{.*}} = rlx.min %[[L9]], %[[R9]] : (tensor<1x2x1x3x1x2xf32>, tensor<1x1x3x5x2xf32>) -> tensor<1x2x1x3x5x2xf32>
// CHECK-NEXT:    return
func.func @binary_min_broadcast(%l0: tensor<2x3xf32>, %r0: tensor<2x3xf32>, %l1: tensor<f32>, %r1: tensor<2x3xf32>, %l2: tensor<2x3xf32>, %r2: tensor<f32>, %l3: tensor<f32>, %r3: tensor<f32>, %l4: tensor<2x1xf32>, %r4: tensor<1x3xf32>, %l5: tensor<3xf32>, %r5: tensor<4x2x3xf32>, %l6: tensor<4x1x3xf32>, %r6: tensor<2x1xf32>, %l7: tensor<0x3xf32>, %r7: tensor<1x3xf32>, %l8: tensor<0x1xf32>, %r8: tensor<3xf32>, %l9: tensor<1x2x1x3x1x2xf32>, %r9: tensor<1x1x3x5x2xf32>) {
  %0 = rlx.min %l0, %r0 : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %1 = rlx.min %l1, %r1 : (tensor<f32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %2 = rlx.min %l2, %r2 : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
  %3 = rlx.min %l3, %r3 : (tensor<f32>, tensor<f32>) -> tensor<f32>
  %4 = rlx.min %l4, %r4 : (tensor<2x1xf32>, tensor<1x3xf32>) -> tensor<2x3xf32>
  %5 = rlx.min %l5, %r5 : (tensor<3xf32>, tensor<4x2x3xf32>) -> tensor<4x2x3xf32>
  %6 = rlx.min %l6, %r6 : (tensor<4x1x3xf32>, tensor<2x1xf32>) -> tensor<4x2x3xf32>
  %7 = rlx.min %l7, %r7 : (tensor<0x3xf32>, tensor<1x3xf32>) -> tensor<0x3xf32>
  %8 = rlx.min %l8, %r8 : (tensor<0x1xf32>, tensor<3xf32>) -> tensor<0x3xf32>
  %9 = rlx.min %l9, %r9 : (tensor<1x2x1x3x1x2xf32>, tensor<1x1x3x5x2xf32>) -> tensor<1x2x1x3x5x2xf32>
  return
}

// CHECK-LABEL: func.func @binary_pow_types(
// CHECK-SAME:    %[[XF16:[a-z0-9]+]]: tensor<2x3xf16>, %[[XBF16:[a-z0-9]+]]: tensor<2x3xbf16>, %[[XF32:[a-z0-9]+]]: tensor<2x3xf32>, %[[XF64:[a-z0-9]+]]: tensor<2x3xf64>)
// CHECK-NEXT:    %{{.*}} = rlx.pow %[[XF16]], %[[XF16]] : (tensor<2x3xf16>, tensor<2x3xf16>) -> tensor<2x3xf16>
// CHECK-NEXT:    %{{.*}} = rlx.pow %[[XBF16]], %[[XBF16]] : (tensor<2x3xbf16>, tensor<2x3xbf16>) -> tensor<2x3xbf16>
// CHECK-NEXT:    %{{.*}} = rlx.pow %[[XF32]], %[[XF32]] : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT:    %{{.*}} = rlx.pow %[[XF64]], %[[XF64]] : (tensor<2x3xf64>, tensor<2x3xf64>) -> tensor<2x3xf64>
// CHECK-NEXT:    return
func.func @binary_pow_types(%xf16: tensor<2x3xf16>, %xbf16: tensor<2x3xbf16>, %xf32: tensor<2x3xf32>, %xf64: tensor<2x3xf64>) {
  %0 = rlx.pow %xf16, %xf16 : (tensor<2x3xf16>, tensor<2x3xf16>) -> tensor<2x3xf16>
  %1 = rlx.pow %xbf16, %xbf16 : (tensor<2x3xbf16>, tensor<2x3xbf16>) -> tensor<2x3xbf16>
  %2 = rlx.pow %xf32, %xf32 : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %3 = rlx.pow %xf64, %xf64 : (tensor<2x3xf64>, tensor<2x3xf64>) -> tensor<2x3xf64>
  return
}

// CHECK-LABEL: func.func @binary_pow_broadcast(
// CHECK-SAME:    %[[L0:[a-z0-9]+]]: tensor<2x3xf32>, %[[R0:[a-z0-9]+]]: tensor<2x3xf32>, %[[L1:[a-z0-9]+]]: tensor<f32>, %[[R1:[a-z0-9]+]]: tensor<2x3xf32>, %[[L2:[a-z0-9]+]]: tensor<2x3xf32>, %[[R2:[a-z0-9]+]]: tensor<f32>, %[[L3:[a-z0-9]+]]: tensor<f32>, %[[R3:[a-z0-9]+]]: tensor<f32>, %[[L4:[a-z0-9]+]]: tensor<2x1xf32>, %[[R4:[a-z0-9]+]]: tensor<1x3xf32>, %[[L5:[a-z0-9]+]]: tensor<3xf32>, %[[R5:[a-z0-9]+]]: tensor<4x2x3xf32>, %[[L6:[a-z0-9]+]]: tensor<4x1x3xf32>, %[[R6:[a-z0-9]+]]: tensor<2x1xf32>, %[[L7:[a-z0-9]+]]: tensor<0x3xf32>, %[[R7:[a-z0-9]+]]: tensor<1x3xf32>, %[[L8:[a-z0-9]+]]: tensor<0x1xf32>, %[[R8:[a-z0-9]+]]: tensor<3xf32>, %[[L9:[a-z0-9]+]]: tensor<1x2x1x3x1x2xf32>, %[[R9:[a-z0-9]+]]: tensor<1x1x3x5x2xf32>)
// CHECK-NEXT:    %{{.*}} = rlx.pow %[[L0]], %[[R0]] : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT:    %{{.*}} = rlx.pow %[[L1]], %[[R1]] : (tensor<f32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT:    %{{.*}} = rlx.pow %[[L2]], %[[R2]] : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
// CHECK-NEXT:    %{{.*}} = rlx.pow %[[L3]], %[[R3]] : (tensor<f32>, tensor<f32>) -> tensor<f32>
// CHECK-NEXT:    %{{.*}} = rlx.pow %[[L4]], %[[R4]] : (tensor<2x1xf32>, tensor<1x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT:    %{{.*}} = rlx.pow %[[L5]], %[[R5]] : (tensor<3xf32>, tensor<4x2x3xf32>) -> tensor<4x2x3xf32>
// CHECK-NEXT:    %{{.*}} = rlx.pow %[[L6]], %[[R6]] : (tensor<4x1x3xf32>, tensor<2x1xf32>) -> tensor<4x2x3xf32>
// CHECK-NEXT:    %{{.*}} = rlx.pow %[[L7]], %[[R7]] : (tensor<0x3xf32>, tensor<1x3xf32>) -> tensor<0x3xf32>
// CHECK-NEXT:    %{{.*}} = rlx.pow %[[L8]], %[[R8]] : (tensor<0x1xf32>, tensor<3xf32>) -> tensor<0x3xf32>
// CHECK-NEXT:    %{{.*}} = rlx.pow %[[L9]], %[[R9]] : (tensor<1x2x1x3x1x2xf32>, tensor<1x1x3x5x2xf32>) -> tensor<1x2x1x3x5x2xf32>
// CHECK-NEXT:    return
func.func @binary_pow_broadcast(%l0: tensor<2x3xf32>, %r0: tensor<2x3xf32>, %l1: tensor<f32>, %r1: tensor<2x3xf32>, %l2: tensor<2x3xf32>, %r2: tensor<f32>, %l3: tensor<f32>, %r3: tensor<f32>, %l4: tensor<2x1xf32>, %r4: tensor<1x3xf32>, %l5: tensor<3xf32>, %r5: tensor<4x2x3xf32>, %l6: tensor<4x1x3xf32>, %r6: tensor<2x1xf32>, %l7: tensor<0x3xf32>, %r7: tensor<1x3xf32>, %l8: tensor<0x1xf32>, %r8: tensor<3xf32>, %l9: tensor<1x2x1x3x1x2xf32>, %r9: tensor<1x1x3x5x2xf32>) {
  %0 = rlx.pow %l0, %r0 : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %1 = rlx.pow %l1, %r1 : (tensor<f32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %2 = rlx.pow %l2, %r2 : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
  %3 = rlx.pow %l3, %r3 : (tensor<f32>, tensor<f32>) -> tensor<f32>
  %4 = rlx.pow %l4, %r4 : (tensor<2x1xf32>, tensor<1x3xf32>) -> tensor<2x3xf32>
  %5 = rlx.pow %l5, %r5 : (tensor<3xf32>, tensor<4x2x3xf32>) -> tensor<4x2x3xf32>
  %6 = rlx.pow %l6, %r6 : (tensor<4x1x3xf32>, tensor<2x1xf32>) -> tensor<4x2x3xf32>
  %7 = rlx.pow %l7, %r7 : (tensor<0x3xf32>, tensor<1x3xf32>) -> tensor<0x3xf32>
  %8 = rlx.pow %l8, %r8 : (tensor<0x1xf32>, tensor<3xf32>) -> tensor<0x3xf32>
  %9 = rlx.pow %l9, %r9 : (tensor<1x2x1x3x1x2xf32>, tensor<1x1x3x5x2xf32>) -> tensor<1x2x1x3x5x2xf32>
  return
}

// CHECK-LABEL: func.func @binary_mod_types(
// CHECK-SAME:    %[[XF16:[a-z0-9]+]]: tensor<2x3xf16>, %[[XBF16:[a-z0-9]+]]: tensor<2x3xbf16>, %[[XF32:[a-z0-9]+]]: tensor<2x3xf32>, %[[XF64:[a-z0-9]+]]: tensor<2x3xf64>, %[[XI8:[a-z0-9]+]]: tensor<2x3xi8>, %[[XI16:[a-z0-9]+]]: tensor<2x3xi16>, %[[XI32:[a-z0-9]+]]: tensor<2x3xi32>, %[[XI64:[a-z0-9]+]]: tensor<2x3xi64>)
// CHECK-NEXT:    %{{.*}} = rlx.mod %[[XF16]], %[[XF16]] : (tensor<2x3xf16>, tensor<2x3xf16>) -> tensor<2x3xf16>
// CHECK-NEXT:    %{{.*}} = rlx.mod %[[XBF16]], %[[XBF16]] : (tensor<2x3xbf16>, tensor<2x3xbf16>) -> tensor<2x3xbf16>
// CHECK-NEXT:    %{{.*}} = rlx.mod %[[XF32]], %[[XF32]] : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT:    %{{.*}} = rlx.mod %[[XF64]], %[[XF64]] : (tensor<2x3xf64>, tensor<2x3xf64>) -> tensor<2x3xf64>
// CHECK-NEXT:    %{{.*}} = rlx.mod %[[XI8]], %[[XI8]] : (tensor<2x3xi8>, tensor<2x3xi8>) -> tensor<2x3xi8>
// CHECK-NEXT:    %{{.*}} = rlx.mod %[[XI16]], %[[XI16]] : (tensor<2x3xi16>, tensor<2x3xi16>) -> tensor<2x3xi16>
// CHECK-NEXT:    %{{.*}} = rlx.mod %[[XI32]], %[[XI32]] : (tensor<2x3xi32>, tensor<2x3xi32>) -> tensor<2x3xi32>
// CHECK-NEXT:    %{{.*}} = rlx.mod %[[XI64]], %[[XI64]] : (tensor<2x3xi64>, tensor<2x3xi64>) -> tensor<2x3xi64>
// CHECK-NEXT:    return
func.func @binary_mod_types(%xf16: tensor<2x3xf16>, %xbf16: tensor<2x3xbf16>, %xf32: tensor<2x3xf32>, %xf64: tensor<2x3xf64>, %xi8: tensor<2x3xi8>, %xi16: tensor<2x3xi16>, %xi32: tensor<2x3xi32>, %xi64: tensor<2x3xi64>) {
  %0 = rlx.mod %xf16, %xf16 : (tensor<2x3xf16>, tensor<2x3xf16>) -> tensor<2x3xf16>
  %1 = rlx.mod %xbf16, %xbf16 : (tensor<2x3xbf16>, tensor<2x3xbf16>) -> tensor<2x3xbf16>
  %2 = rlx.mod %xf32, %xf32 : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %3 = rlx.mod %xf64, %xf64 : (tensor<2x3xf64>, tensor<2x3xf64>) -> tensor<2x3xf64>
  %4 = rlx.mod %xi8, %xi8 : (tensor<2x3xi8>, tensor<2x3xi8>) -> tensor<2x3xi8>
  %5 = rlx.mod %xi16, %xi16 : (tensor<2x3xi16>, tensor<2x3xi16>) -> tensor<2x3xi16>
  %6 = rlx.mod %xi32, %xi32 : (tensor<2x3xi32>, tensor<2x3xi32>) -> tensor<2x3xi32>
  %7 = rlx.mod %xi64, %xi64 : (tensor<2x3xi64>, tensor<2x3xi64>) -> tensor<2x3xi64>
  return
}

// CHECK-LABEL: func.func @binary_mod_broadcast(
// CHECK-SAME:    %[[L0:[a-z0-9]+]]: tensor<2x3xf32>, %[[R0:[a-z0-9]+]]: tensor<2x3xf32>, %[[L1:[a-z0-9]+]]: tensor<f32>, %[[R1:[a-z0-9]+]]: tensor<2x3xf32>, %[[L2:[a-z0-9]+]]: tensor<2x3xf32>, %[[R2:[a-z0-9]+]]: tensor<f32>, %[[L3:[a-z0-9]+]]: tensor<f32>, %[[R3:[a-z0-9]+]]: tensor<f32>, %[[L4:[a-z0-9]+]]: tensor<2x1xf32>, %[[R4:[a-z0-9]+]]: tensor<1x3xf32>, %[[L5:[a-z0-9]+]]: tensor<3xf32>, %[[R5:[a-z0-9]+]]: tensor<4x2x3xf32>, %[[L6:[a-z0-9]+]]: tensor<4x1x3xf32>, %[[R6:[a-z0-9]+]]: tensor<2x1xf32>, %[[L7:[a-z0-9]+]]: tensor<0x3xf32>, %[[R7:[a-z0-9]+]]: tensor<1x3xf32>, %[[L8:[a-z0-9]+]]: tensor<0x1xf32>, %[[R8:[a-z0-9]+]]: tensor<3xf32>, %[[L9:[a-z0-9]+]]: tensor<1x2x1x3x1x2xf32>, %[[R9:[a-z0-9]+]]: tensor<1x1x3x5x2xf32>)
// CHECK-NEXT:    %{{.*}} = rlx.mod %[[L0]], %[[R0]] : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT:    %{{.*}} = rlx.mod %[[L1]], %[[R1]] : (tensor<f32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT:    %{{.*}} = rlx.mod %[[L2]], %[[R2]] : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
// CHECK-NEXT:    %{{.*}} = rlx.mod %[[L3]], %[[R3]] : (tensor<f32>, tensor<f32>) -> tensor<f32>
// CHECK-NEXT:    %{{.*}} = rlx.mod %[[L4]], %[[R4]] : (tensor<2x1xf32>, tensor<1x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT:    %{{.*}} = rlx.mod %[[L5]], %[[R5]] : (tensor<3xf32>, tensor<4x2x3xf32>) -> tensor<4x2x3xf32>
// CHECK-NEXT:    %{{.*}} = rlx.mod %[[L6]], %[[R6]] : (tensor<4x1x3xf32>, tensor<2x1xf32>) -> tensor<4x2x3xf32>
// CHECK-NEXT:    %{{.*}} = rlx.mod %[[L7]], %[[R7]] : (tensor<0x3xf32>, tensor<1x3xf32>) -> tensor<0x3xf32>
// CHECK-NEXT:    %{{.*}} = rlx.mod %[[L8]], %[[R8]] : (tensor<0x1xf32>, tensor<3xf32>) -> tensor<0x3xf32>
// CHECK-NEXT:    %{{.*}} = rlx.mod %[[L9]], %[[R9]] : (tensor<1x2x1x3x1x2xf32>, tensor<1x1x3x5x2xf32>) -> tensor<1x2x1x3x5x2xf32>
// CHECK-NEXT:    return
func.func @binary_mod_broadcast(%l0: tensor<2x3xf32>, %r0: tensor<2x3xf32>, %l1: tensor<f32>, %r1: tensor<2x3xf32>, %l2: tensor<2x3xf32>, %r2: tensor<f32>, %l3: tensor<f32>, %r3: tensor<f32>, %l4: tensor<2x1xf32>, %r4: tensor<1x3xf32>, %l5: tensor<3xf32>, %r5: tensor<4x2x3xf32>, %l6: tensor<4x1x3xf32>, %r6: tensor<2x1xf32>, %l7: tensor<0x3xf32>, %r7: tensor<1x3xf32>, %l8: tensor<0x1xf32>, %r8: tensor<3xf32>, %l9: tensor<1x2x1x3x1x2xf32>, %r9: tensor<1x1x3x5x2xf32>) {
  %0 = rlx.mod %l0, %r0 : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %1 = rlx.mod %l1, %r1 : (tensor<f32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %2 = rlx.mod %l2, %r2 : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
  %3 = rlx.mod %l3, %r3 : (tensor<f32>, tensor<f32>) -> tensor<f32>
  %4 = rlx.mod %l4, %r4 : (tensor<2x1xf32>, tensor<1x3xf32>) -> tensor<2x3xf32>
  %5 = rlx.mod %l5, %r5 : (tensor<3xf32>, tensor<4x2x3xf32>) -> tensor<4x2x3xf32>
  %6 = rlx.mod %l6, %r6 : (tensor<4x1x3xf32>, tensor<2x1xf32>) -> tensor<4x2x3xf32>
  %7 = rlx.mod %l7, %r7 : (tensor<0x3xf32>, tensor<1x3xf32>) -> tensor<0x3xf32>
  %8 = rlx.mod %l8, %r8 : (tensor<0x1xf32>, tensor<3xf32>) -> tensor<0x3xf32>
  %9 = rlx.mod %l9, %r9 : (tensor<1x2x1x3x1x2xf32>, tensor<1x1x3x5x2xf32>) -> tensor<1x2x1x3x5x2xf32>
  return
}

// CHECK-LABEL: func.func @binary_bit_and_types(
// CHECK-SAME:    %[[XI8:[a-z0-9]+]]: tensor<2x3xi8>, %[[XI16:[a-z0-9]+]]: tensor<2x3xi16>, %[[XI32:[a-z0-9]+]]: tensor<2x3xi32>, %[[XI64:[a-z0-9]+]]: tensor<2x3xi64>, %[[XI1:[a-z0-9]+]]: tensor<2x3xi1>)
// CHECK-NEXT:    %{{.*}} = rlx.bit_and %[[XI8]], %[[XI8]] : (tensor<2x3xi8>, tensor<2x3xi8>) -> tensor<2x3xi8>
// CHECK-NEXT:    %{{.*}} = rlx.bit_and %[[XI16]], %[[XI16]] : (tensor<2x3xi16>, tensor<2x3xi16>) -> tensor<2x3xi16>
// CHECK-NEXT:    %{{.*}} = rlx.bit_and %[[XI32]], %[[XI32]] : (tensor<2x3xi32>, tensor<2x3xi32>) -> tensor<2x3xi32>
// CHECK-NEXT:    %{{.*}} = rlx.bit_and %[[XI64]], %[[XI64]] : (tensor<2x3xi64>, tensor<2x3xi64>) -> tensor<2x3xi64>
// CHECK-NEXT:    %{{.*}} = rlx.bit_and %[[XI1]], %[[XI1]] : (tensor<2x3xi1>, tensor<2x3xi1>) -> tensor<2x3xi1>
// CHECK-NEXT:    return
func.func @binary_bit_and_types(%xi8: tensor<2x3xi8>, %xi16: tensor<2x3xi16>, %xi32: tensor<2x3xi32>, %xi64: tensor<2x3xi64>, %xi1: tensor<2x3xi1>) {
  %0 = rlx.bit_and %xi8, %xi8 : (tensor<2x3xi8>, tensor<2x3xi8>) -> tensor<2x3xi8>
  %1 = rlx.bit_and %xi16, %xi16 : (tensor<2x3xi16>, tensor<2x3xi16>) -> tensor<2x3xi16>
  %2 = rlx.bit_and %xi32, %xi32 : (tensor<2x3xi32>, tensor<2x3xi32>) -> tensor<2x3xi32>
  %3 = rlx.bit_and %xi64, %xi64 : (tensor<2x3xi64>, tensor<2x3xi64>) -> tensor<2x3xi64>
  %4 = rlx.bit_and %xi1, %xi1 : (tensor<2x3xi1>, tensor<2x3xi1>) -> tensor<2x3xi1>
  return
}

// CHECK-LABEL: func.func @binary_bit_and_broadcast(
// CHECK-SAME:    %[[L0:[a-z0-9]+]]: tensor<2x3xi32>, %[[R0:[a-z0-9]+]]: tensor<2x3xi32>, %[[L1:[a-z0-9]+]]: tensor<i32>, %[[R1:[a-z0-9]+]]: tensor<2x3xi32>, %[[L2:[a-z0-9]+]]: tensor<2x3xi32>, %[[R2:[a-z0-9]+]]: tensor<i32>, %[[L3:[a-z0-9]+]]: tensor<i32>, %[[R3:[a-z0-9]+]]: tensor<i32>, %[[L4:[a-z0-9]+]]: tensor<2x1xi32>, %[[R4:[a-z0-9]+]]: tensor<1x3xi32>, %[[L5:[a-z0-9]+]]: tensor<3xi32>, %[[R5:[a-z0-9]+]]: tensor<4x2x3xi32>, %[[L6:[a-z0-9]+]]: tensor<4x1x3xi32>, %[[R6:[a-z0-9]+]]: tensor<2x1xi32>, %[[L7:[a-z0-9]+]]: tensor<0x3xi32>, %[[R7:[a-z0-9]+]]: tensor<1x3xi32>, %[[L8:[a-z0-9]+]]: tensor<0x1xi32>, %[[R8:[a-z0-9]+]]: tensor<3xi32>, %[[L9:[a-z0-9]+]]: tensor<1x2x1x3x1x2xi32>, %[[R9:[a-z0-9]+]]: tensor<1x1x3x5x2xi32>)
// CHECK-NEXT:    %{{.*}} = rlx.bit_and %[[L0]], %[[R0]] : (tensor<2x3xi32>, tensor<2x3xi32>) -> tensor<2x3xi32>
// CHECK-NEXT:    %{{.*}} = rlx.bit_and %[[L1]], %[[R1]] : (tensor<i32>, tensor<2x3xi32>) -> tensor<2x3xi32>
// CHECK-NEXT:    %{{.*}} = rlx.bit_and %[[L2]], %[[R2]] : (tensor<2x3xi32>, tensor<i32>) -> tensor<2x3xi32>
// CHECK-NEXT:    %{{.*}} = rlx.bit_and %[[L3]], %[[R3]] : (tensor<i32>, tensor<i32>) -> tensor<i32>
// CHECK-NEXT:    %{{.*}} = rlx.bit_and %[[L4]], %[[R4]] : (tensor<2x1xi32>, tensor<1x3xi32>) -> tensor<2x3xi32>
// CHECK-NEXT:    %{{.*}} = rlx.bit_and %[[L5]], %[[R5]] : (tensor<3xi32>, tensor<4x2x3xi32>) -> tensor<4x2x3xi32>
// CHECK-NEXT:    %{{.*}} = rlx.bit_and %[[L6]], %[[R6]] : (tensor<4x1x3xi32>, tensor<2x1xi32>) -> tensor<4x2x3xi32>
// CHECK-NEXT:    %{{.*}} = rlx.bit_and %[[L7]], %[[R7]] : (tensor<0x3xi32>, tensor<1x3xi32>) -> tensor<0x3xi32>
// CHECK-NEXT:    %{{.*}} = rlx.bit_and %[[L8]], %[[R8]] : (tensor<0x1xi32>, tensor<3xi32>) -> tensor<0x3xi32>
// CHECK-NEXT:    %{{.*}} = rlx.bit_and %[[L9]], %[[R9]] : (tensor<1x2x1x3x1x2xi32>, tensor<1x1x3x5x2xi32>) -> tensor<1x2x1x3x5x2xi32>
// CHECK-NEXT:    return
func.func @binary_bit_and_broadcast(%l0: tensor<2x3xi32>, %r0: tensor<2x3xi32>, %l1: tensor<i32>, %r1: tensor<2x3xi32>, %l2: tensor<2x3xi32>, %r2: tensor<i32>, %l3: tensor<i32>, %r3: tensor<i32>, %l4: tensor<2x1xi32>, %r4: tensor<1x3xi32>, %l5: tensor<3xi32>, %r5: tensor<4x2x3xi32>, %l6: tensor<4x1x3xi32>, %r6: tensor<2x1xi32>, %l7: tensor<0x3xi32>, %r7: tensor<1x3xi32>, %l8: tensor<0x1xi32>, %r8: tensor<3xi32>, %l9: tensor<1x2x1x3x1x2xi32>, %r9: tensor<1x1x3x5x2xi32>) {
  %0 = rlx.bit_and %l0, %r0 : (tensor<2x3xi32>, tensor<2x3xi32>) -> tensor<2x3xi32>
  %1 = rlx.bit_and %l1, %r1 : (tensor<i32>, tensor<2x3xi32>) -> tensor<2x3xi32>
  %2 = rlx.bit_and %l2, %r2 : (tensor<2x3xi32>, tensor<i32>) -> tensor<2x3xi32>
  %3 = rlx.bit_and %l3, %r3 : (tensor<i32>, tensor<i32>) -> tensor<i32>
  %4 = rlx.bit_and %l4, %r4 : (tensor<2x1xi32>, tensor<1x3xi32>) -> tensor<2x3xi32>
  %5 = rlx.bit_and %l5, %r5 : (tensor<3xi32>, tensor<4x2x3xi32>) -> tensor<4x2x3xi32>
  %6 = rlx.bit_and %l6, %r6 : (tensor<4x1x3xi32>, tensor<2x1xi32>) -> tensor<4x2x3xi32>
  %7 = rlx.bit_and %l7, %r7 : (tensor<0x3xi32>, tensor<1x3xi32>) -> tensor<0x3xi32>
  %8 = rlx.bit_and %l8, %r8 : (tensor<0x1xi32>, tensor<3xi32>) -> tensor<0x3xi32>
  %9 = rlx.bit_and %l9, %r9 : (tensor<1x2x1x3x1x2xi32>, tensor<1x1x3x5x2xi32>) -> tensor<1x2x1x3x5x2xi32>
  return
}

// CHECK-LABEL: func.func @binary_bit_or_types(
// CHECK-SAME:    %[[XI8:[a-z0-9]+]]: tensor<2x3xi8>, %[[XI16:[a-z0-9]+]]: tensor<2x3xi16>, %[[XI32:[a-z0-9]+]]: tensor<2x3xi32>, %[[XI64:[a-z0-9]+]]: tensor<2x3xi64>, %[[XI1:[a-z0-9]+]]: tensor<2x3xi1>)
// CHECK-NEXT:    %{{.*}} = rlx.bit_or %[[XI8]], %[[XI8]] : (tensor<2x3xi8>, tensor<2x3xi8>) -> tensor<2x3xi8>
// CHECK-NEXT:    %{{.*}} = rlx.bit_or %[[XI16]], %[[XI16]] : (tensor<2x3xi16>, tensor<2x3xi16>) -> tensor<2x3xi16>
// CHECK-NEXT:    %{{.*}} = rlx.bit_or %[[XI32]], %[[XI32]] : (tensor<2x3xi32>, tensor<2x3xi32>) -> tensor<2x3xi32>
// CHECK-NEXT:    %{{.*}} = rlx.bit_or %[[XI64]], %[[XI64]] : (tensor<2x3xi64>, tensor<2x3xi64>) -> tensor<2x3xi64>
// CHECK-NEXT:    %{{.*}} = rlx.bit_or %[[XI1]], %[[XI1]] : (tensor<2x3xi1>, tensor<2x3xi1>) -> tensor<2x3xi1>
// CHECK-NEXT:    return
func.func @binary_bit_or_types(%xi8: tensor<2x3xi8>, %xi16: tensor<2x3xi16>, %xi32: tensor<2x3xi32>, %xi64: tensor<2x3xi64>, %xi1: tensor<2x3xi1>) {
  %0 = rlx.bit_or %xi8, %xi8 : (tensor<2x3xi8>, tensor<2x3xi8>) -> tensor<2x3xi8>
  %1 = rlx.bit_or %xi16, %xi16 : (tensor<2x3xi16>, tensor<2x3xi16>) -> tensor<2x3xi16>
  %2 = rlx.bit_or %xi32, %xi32 : (tensor<2x3xi32>, tensor<2x3xi32>) -> tensor<2x3xi32>
  %3 = rlx.bit_or %xi64, %xi64 : (tensor<2x3xi64>, tensor<2x3xi64>) -> tensor<2x3xi64>
  %4 = rlx.bit_or %xi1, %xi1 : (tensor<2x3xi1>, tensor<2x3xi1>) -> tensor<2x3xi1>
  return
}

// CHECK-LABEL: func.func @binary_bit_or_broadcast(
// CHECK-SAME:    %[[L0:[a-z0-9]+]]: tensor<2x3xi32>, %[[R0:[a-z0-9]+]]: tensor<2x3xi32>, %[[L1:[a-z0-9]+]]: tensor<i32>, %[[R1:[a-z0-9]+]]: tensor<2x3xi32>, %[[L2:[a-z0-9]+]]: tensor<2x3xi32>, %[[R2:[a-z0-9]+]]: tensor<i32>, %[[L3:[a-z0-9]+]]: tensor<i32>, %[[R3:[a-z0-9]+]]: tensor<i32>, %[[L4:[a-z0-9]+]]: tensor<2x1xi32>, %[[R4:[a-z0-9]+]]: tensor<1x3xi32>, %[[L5:[a-z0-9]+]]: tensor<3xi32>, %[[R5:[a-z0-9]+]]: tensor<4x2x3xi32>, %[[L6:[a-z0-9]+]]: tensor<4x1x3xi32>, %[[R6:[a-z0-9]+]]: tensor<2x1xi32>, %[[L7:[a-z0-9]+]]: tensor<0x3xi32>, %[[R7:[a-z0-9]+]]: tensor<1x3xi32>, %[[L8:[a-z0-9]+]]: tensor<0x1xi32>, %[[R8:[a-z0-9]+]]: tensor<3xi32>, %[[L9:[a-z0-9]+]]: tensor<1x2x1x3x1x2xi32>, %[[R9:[a-z0-9]+]]: tensor<1x1x3x5x2xi32>)
// CHECK-NEXT:    %{{.*}} = rlx.bit_or %[[L0]], %[[R0]] : (tensor<2x3xi32>, tensor<2x3xi32>) -> tensor<2x3xi32>
// CHECK-NEXT:    %{{.*}} = rlx.bit_or %[[L1]], %[[R1]] : (tensor<i32>, tensor<2x3xi32>) -> tensor<2x3xi32>
// CHECK-NEXT:    %{{.*}} = rlx.bit_or %[[L2]], %[[R2]] : (tensor<2x3xi32>, tensor<i32>) -> tensor<2x3xi32>
// CHECK-NEXT:    %{{.*}} = rlx.bit_or %[[L3]], %[[R3]] : (tensor<i32>, tensor<i32>) -> tensor<i32>
// CHECK-NEXT:    %{{.*}} = rlx.bit_or %[[L4]], %[[R4]] : (tensor<2x1xi32>, tensor<1x3xi32>) -> tensor<2x3xi32>
// CHECK-NEXT:    %{{.*}} = rlx.bit_or %[[L5]], %[[R5]] : (tensor<3xi32>, tensor<4x2x3xi32>) -> tensor<4x2x3xi32>
// CHECK-NEXT:    %{{.*}} = rlx.bit_or %[[L6]], %[[R6]] : (tensor<4x1x3xi32>, tensor<2x1xi32>) -> tensor<4x2x3xi32>
// CHECK-NEXT:    %{{.*}} = rlx.bit_or %[[L7]], %[[R7]] : (tensor<0x3xi32>, tensor<1x3xi32>) -> tensor<0x3xi32>
// CHECK-NEXT:    %{{.*}} = rlx.bit_or %[[L8]], %[[R8]] : (tensor<0x1xi32>, tensor<3xi32>) -> tensor<0x3xi32>
// CHECK-NEXT:    %{{.*}} = rlx.bit_or %[[L9]], %[[R9]] : (tensor<1x2x1x3x1x2xi32>, tensor<1x1x3x5x2xi32>) -> tensor<1x2x1x3x5x2xi32>
// CHECK-NEXT:    return
func.func @binary_bit_or_broadcast(%l0: tensor<2x3xi32>, %r0: tensor<2x3xi32>, %l1: tensor<i32>, %r1: tensor<2x3xi32>, %l2: tensor<2x3xi32>, %r2: tensor<i32>, %l3: tensor<i32>, %r3: tensor<i32>, %l4: tensor<2x1xi32>, %r4: tensor<1x3xi32>, %l5: tensor<3xi32>, %r5: tensor<4x2x3xi32>, %l6: tensor<4x1x3xi32>, %r6: tensor<2x1xi32>, %l7: tensor<0x3xi32>, %r7: tensor<1x3xi32>, %l8: tensor<0x1xi32>, %r8: tensor<3xi32>, %l9: tensor<1x2x1x3x1x2xi32>, %r9: tensor<1x1x3x5x2xi32>) {
  %0 = rlx.bit_or %l0, %r0 : (tensor<2x3xi32>, tensor<2x3xi32>) -> tensor<2x3xi32>
  %1 = rlx.bit_or %l1, %r1 : (tensor<i32>, tensor<2x3xi32>) -> tensor<2x3xi32>
  %2 = rlx.bit_or %l2, %r2 : (tensor<2x3xi32>, tensor<i32>) -> tensor<2x3xi32>
  %3 = rlx.bit_or %l3, %r3 : (tensor<i32>, tensor<i32>) -> tensor<i32>
  %4 = rlx.bit_or %l4, %r4 : (tensor<2x1xi32>, tensor<1x3xi32>) -> tensor<2x3xi32>
  %5 = rlx.bit_or %l5, %r5 : (tensor<3xi32>, tensor<4x2x3xi32>) -> tensor<4x2x3xi32>
  %6 = rlx.bit_or %l6, %r6 : (tensor<4x1x3xi32>, tensor<2x1xi32>) -> tensor<4x2x3xi32>
  %7 = rlx.bit_or %l7, %r7 : (tensor<0x3xi32>, tensor<1x3xi32>) -> tensor<0x3xi32>
  %8 = rlx.bit_or %l8, %r8 : (tensor<0x1xi32>, tensor<3xi32>) -> tensor<0x3xi32>
  %9 = rlx.bit_or %l9, %r9 : (tensor<1x2x1x3x1x2xi32>, tensor<1x1x3x5x2xi32>) -> tensor<1x2x1x3x5x2xi32>
  return
}

// CHECK-LABEL: func.func @binary_bit_xor_types(
// CHECK-SAME:    %[[XI8:[a-z0-9]+]]: tensor<2x3xi8>, %[[XI16:[a-z0-9]+]]: tensor<2x3xi16>, %[[XI32:[a-z0-9]+]]: tensor<2x3xi32>, %[[XI64:[a-z0-9]+]]: tensor<2x3xi64>, %[[XI1:[a-z0-9]+]]: tensor<2x3xi1>)
// CHECK-NEXT:    %{{.*}} = rlx.bit_xor %[[XI8]], %[[XI8]] : (tensor<2x3xi8>, tensor<2x3xi8>) -> tensor<2x3xi8>
// CHECK-NEXT:    %{{.*}} = rlx.bit_xor %[[XI16]], %[[XI16]] : (tensor<2x3xi16>, tensor<2x3xi16>) -> tensor<2x3xi16>
// CHECK-NEXT:    %{{.*}} = rlx.bit_xor %[[XI32]], %[[XI32]] : (tensor<2x3xi32>, tensor<2x3xi32>) -> tensor<2x3xi32>
// CHECK-NEXT:    %{{.*}} = rlx.bit_xor %[[XI64]], %[[XI64]] : (tensor<2x3xi64>, tensor<2x3xi64>) -> tensor<2x3xi64>
// CHECK-NEXT:    %{{.*}} = rlx.bit_xor %[[XI1]], %[[XI1]] : (tensor<2x3xi1>, tensor<2x3xi1>) -> tensor<2x3xi1>
// CHECK-NEXT:    return
func.func @binary_bit_xor_types(%xi8: tensor<2x3xi8>, %xi16: tensor<2x3xi16>, %xi32: tensor<2x3xi32>, %xi64: tensor<2x3xi64>, %xi1: tensor<2x3xi1>) {
  %0 = rlx.bit_xor %xi8, %xi8 : (tensor<2x3xi8>, tensor<2x3xi8>) -> tensor<2x3xi8>
  %1 = rlx.bit_xor %xi16, %xi16 : (tensor<2x3xi16>, tensor<2x3xi16>) -> tensor<2x3xi16>
  %2 = rlx.bit_xor %xi32, %xi32 : (tensor<2x3xi32>, tensor<2x3xi32>) -> tensor<2x3xi32>
  %3 = rlx.bit_xor %xi64, %xi64 : (tensor<2x3xi64>, tensor<2x3xi64>) -> tensor<2x3xi64>
  %4 = rlx.bit_xor %xi1, %xi1 : (tensor<2x3xi1>, tensor<2x3xi1>) -> tensor<2x3xi1>
  return
}

// CHECK-LABEL: func.func @binary_bit_xor_broadcast(
// CHECK-SAME:    %[[L0:[a-z0-9]+]]: tensor<2x3xi32>, %[[R0:[a-z0-9]+]]: tensor<2x3xi32>, %[[L1:[a-z0-9]+]]: tensor<i32>, %[[R1:[a-z0-9]+]]: tensor<2x3xi32>, %[[L2:[a-z0-9]+]]: tensor<2x3xi32>, %[[R2:[a-z0-9]+]]: tensor<i32>, %[[L3:[a-z0-9]+]]: tensor<i32>, %[[R3:[a-z0-9]+]]: tensor<i32>, %[[L4:[a-z0-9]+]]: tensor<2x1xi32>, %[[R4:[a-z0-9]+]]: tensor<1x3xi32>, %[[L5:[a-z0-9]+]]: tensor<3xi32>, %[[R5:[a-z0-9]+]]: tensor<4x2x3xi32>, %[[L6:[a-z0-9]+]]: tensor<4x1x3xi32>, %[[R6:[a-z0-9]+]]: tensor<2x1xi32>, %[[L7:[a-z0-9]+]]: tensor<0x3xi32>, %[[R7:[a-z0-9]+]]: tensor<1x3xi32>, %[[L8:[a-z0-9]+]]: tensor<0x1xi32>, %[[R8:[a-z0-9]+]]: tensor<3xi32>, %[[L9:[a-z0-9]+]]: tensor<1x2x1x3x1x2xi32>, %[[R9:[a-z0-9]+]]: tensor<1x1x3x5x2xi32>)
// CHECK-NEXT:    %{{.*}} = rlx.bit_xor %[[L0]], %[[R0]] : (tensor<2x3xi32>, tensor<2x3xi32>) -> tensor<2x3xi32>
// CHECK-NEXT:    %{{.*}} = rlx.bit_xor %[[L1]], %[[R1]] : (tensor<i32>, tensor<2x3xi32>) -> tensor<2x3xi32>
// CHECK-NEXT:    %{{.*}} = rlx.bit_xor %[[L2]], %[[R2]] : (tensor<2x3xi32>, tensor<i32>) -> tensor<2x3xi32>
// CHECK-NEXT:    %{{.*}} = rlx.bit_xor %[[L3]], %[[R3]] : (tensor<i32>, tensor<i32>) -> tensor<i32>
// CHECK-NEXT:    %{{.*}} = rlx.bit_xor %[[L4]], %[[R4]] : (tensor<2x1xi32>, tensor<1x3xi32>) -> tensor<2x3xi32>
// CHECK-NEXT:    %{{.*}} = rlx.bit_xor %[[L5]], %[[R5]] : (tensor<3xi32>, tensor<4x2x3xi32>) -> tensor<4x2x3xi32>
// CHECK-NEXT:    %{{.*}} = rlx.bit_xor %[[L6]], %[[R6]] : (tensor<4x1x3xi32>, tensor<2x1xi32>) -> tensor<4x2x3xi32>
// CHECK-NEXT:    %{{.*}} = rlx.bit_xor %[[L7]], %[[R7]] : (tensor<0x3xi32>, tensor<1x3xi32>) -> tensor<0x3xi32>
// CHECK-NEXT:    %{{.*}} = rlx.bit_xor %[[L8]], %[[R8]] : (tensor<0x1xi32>, tensor<3xi32>) -> tensor<0x3xi32>
// CHECK-NEXT:    %{{.*}} = rlx.bit_xor %[[L9]], %[[R9]] : (tensor<1x2x1x3x1x2xi32>, tensor<1x1x3x5x2xi32>) -> tensor<1x2x1x3x5x2xi32>
// CHECK-NEXT:    return
func.func @binary_bit_xor_broadcast(%l0: tensor<2x3xi32>, %r0: tensor<2x3xi32>, %l1: tensor<i32>, %r1: tensor<2x3xi32>, %l2: tensor<2x3xi32>, %r2: tensor<i32>, %l3: tensor<i32>, %r3: tensor<i32>, %l4: tensor<2x1xi32>, %r4: tensor<1x3xi32>, %l5: tensor<3xi32>, %r5: tensor<4x2x3xi32>, %l6: tensor<4x1x3xi32>, %r6: tensor<2x1xi32>, %l7: tensor<0x3xi32>, %r7: tensor<1x3xi32>, %l8: tensor<0x1xi32>, %r8: tensor<3xi32>, %l9: tensor<1x2x1x3x1x2xi32>, %r9: tensor<1x1x3x5x2xi32>) {
  %0 = rlx.bit_xor %l0, %r0 : (tensor<2x3xi32>, tensor<2x3xi32>) -> tensor<2x3xi32>
  %1 = rlx.bit_xor %l1, %r1 : (tensor<i32>, tensor<2x3xi32>) -> tensor<2x3xi32>
  %2 = rlx.bit_xor %l2, %r2 : (tensor<2x3xi32>, tensor<i32>) -> tensor<2x3xi32>
  %3 = rlx.bit_xor %l3, %r3 : (tensor<i32>, tensor<i32>) -> tensor<i32>
  %4 = rlx.bit_xor %l4, %r4 : (tensor<2x1xi32>, tensor<1x3xi32>) -> tensor<2x3xi32>
  %5 = rlx.bit_xor %l5, %r5 : (tensor<3xi32>, tensor<4x2x3xi32>) -> tensor<4x2x3xi32>
  %6 = rlx.bit_xor %l6, %r6 : (tensor<4x1x3xi32>, tensor<2x1xi32>) -> tensor<4x2x3xi32>
  %7 = rlx.bit_xor %l7, %r7 : (tensor<0x3xi32>, tensor<1x3xi32>) -> tensor<0x3xi32>
  %8 = rlx.bit_xor %l8, %r8 : (tensor<0x1xi32>, tensor<3xi32>) -> tensor<0x3xi32>
  %9 = rlx.bit_xor %l9, %r9 : (tensor<1x2x1x3x1x2xi32>, tensor<1x1x3x5x2xi32>) -> tensor<1x2x1x3x5x2xi32>
  return
}

// CHECK-LABEL: func.func @binary_shl_types(
// CHECK-SAME:    %[[XI8:[a-z0-9]+]]: tensor<2x3xi8>, %[[XI16:[a-z0-9]+]]: tensor<2x3xi16>, %[[XI32:[a-z0-9]+]]: tensor<2x3xi32>, %[[XI64:[a-z0-9]+]]: tensor<2x3xi64>)
// CHECK-NEXT:    %{{.*}} = rlx.shl %[[XI8]], %[[XI8]] : (tensor<2x3xi8>, tensor<2x3xi8>) -> tensor<2x3xi8>
// CHECK-NEXT:    %{{.*}} = rlx.shl %[[XI16]], %[[XI16]] : (tensor<2x3xi16>, tensor<2x3xi16>) -> tensor<2x3xi16>
// CHECK-NEXT:    %{{.*}} = rlx.shl %[[XI32]], %[[XI32]] : (tensor<2x3xi32>, tensor<2x3xi32>) -> tensor<2x3xi32>
// CHECK-NEXT:    %{{.*}} = rlx.shl %[[XI64]], %[[XI64]] : (tensor<2x3xi64>, tensor<2x3xi64>) -> tensor<2x3xi64>
// CHECK-NEXT:    return
func.func @binary_shl_types(%xi8: tensor<2x3xi8>, %xi16: tensor<2x3xi16>, %xi32: tensor<2x3xi32>, %xi64: tensor<2x3xi64>) {
  %0 = rlx.shl %xi8, %xi8 : (tensor<2x3xi8>, tensor<2x3xi8>) -> tensor<2x3xi8>
  %1 = rlx.shl %xi16, %xi16 : (tensor<2x3xi16>, tensor<2x3xi16>) -> tensor<2x3xi16>
  %2 = rlx.shl %xi32, %xi32 : (tensor<2x3xi32>, tensor<2x3xi32>) -> tensor<2x3xi32>
  %3 = rlx.shl %xi64, %xi64 : (tensor<2x3xi64>, tensor<2x3xi64>) -> tensor<2x3xi64>
  return
}

// CHECK-LABEL: func.func @binary_shl_broadcast(
// CHECK-SAME:    %[[L0:[a-z0-9]+]]: tensor<2x3xi32>, %[[R0:[a-z0-9]+]]: tensor<2x3xi32>, %[[L1:[a-z0-9]+]]: tensor<i32>, %[[R1:[a-z0-9]+]]: tensor<2x3xi32>, %[[L2:[a-z0-9]+]]: tensor<2x3xi32>, %[[R2:[a-z0-9]+]]: tensor<i32>, %[[L3:[a-z0-9]+]]: tensor<i32>, %[[R3:[a-z0-9]+]]: tensor<i32>, %[[L4:[a-z0-9]+]]: tensor<2x1xi32>, %[[R4:[a-z0-9]+]]: tensor<1x3xi32>, %[[L5:[a-z0-9]+]]: tensor<3xi32>, %[[R5:[a-z0-9]+]]: tensor<4x2x3xi32>, %[[L6:[a-z0-9]+]]: tensor<4x1x3xi32>, %[[R6:[a-z0-9]+]]: tensor<2x1xi32>, %[[L7:[a-z0-9]+]]: tensor<0x3xi32>, %[[R7:[a-z0-9]+]]: tensor<1x3xi32>, %[[L8:[a-z0-9]+]]: tensor<0x1xi32>, %[[R8:[a-z0-9]+]]: tensor<3xi32>, %[[L9:[a-z0-9]+]]: tensor<1x2x1x3x1x2xi32>, %[[R9:[a-z0-9]+]]: tensor<1x1x3x5x2xi32>)
// CHECK-NEXT:    %{{.*}} = rlx.shl %[[L0]], %[[R0]] : (tensor<2x3xi32>, tensor<2x3xi32>) -> tensor<2x3xi32>
// CHECK-NEXT:    %{{.*}} = rlx.shl %[[L1]], %[[R1]] : (tensor<i32>, tensor<2x3xi32>) -> tensor<2x3xi32>
// CHECK-NEXT:    %{{.*}} = rlx.shl %[[L2]], %[[R2]] : (tensor<2x3xi32>, tensor<i32>) -> tensor<2x3xi32>
// CHECK-NEXT:    %{{.*}} = rlx.shl %[[L3]], %[[R3]] : (tensor<i32>, tensor<i32>) -> tensor<i32>
// CHECK-NEXT:    %{{.*}} = rlx.shl %[[L4]], %[[R4]] : (tensor<2x1xi32>, tensor<1x3xi32>) -> tensor<2x3xi32>
// CHECK-NEXT:    %{{.*}} = rlx.shl %[[L5]], %[[R5]] : (tensor<3xi32>, tensor<4x2x3xi32>) -> tensor<4x2x3xi32>
// CHECK-NEXT:    %{{.*}} = rlx.shl %[[L6]], %[[R6]] : (tensor<4x1x3xi32>, tensor<2x1xi32>) -> tensor<4x2x3xi32>
// CHECK-NEXT:    %{{.*}} = rlx.shl %[[L7]], %[[R7]] : (tensor<0x3xi32>, tensor<1x3xi32>) -> tensor<0x3xi32>
// CHECK-NEXT:    %{{.*}} = rlx.shl %[[L8]], %[[R8]] : (tensor<0x1xi32>, tensor<3xi32>) -> tensor<0x3xi32>
// CHECK-NEXT:    %{{.*}} = rlx.shl %[[L9]], %[[R9]] : (tensor<1x2x1x3x1x2xi32>, tensor<1x1x3x5x2xi32>) -> tensor<1x2x1x3x5x2xi32>
// CHECK-NEXT:    return
func.func @binary_shl_broadcast(%l0: tensor<2x3xi32>, %r0: tensor<2x3xi32>, %l1: tensor<i32>, %r1: tensor<2x3xi32>, %l2: tensor<2x3xi32>, %r2: tensor<i32>, %l3: tensor<i32>, %r3: tensor<i32>, %l4: tensor<2x1xi32>, %r4: tensor<1x3xi32>, %l5: tensor<3xi32>, %r5: tensor<4x2x3xi32>, %l6: tensor<4x1x3xi32>, %r6: tensor<2x1xi32>, %l7: tensor<0x3xi32>, %r7: tensor<1x3xi32>, %l8: tensor<0x1xi32>, %r8: tensor<3xi32>, %l9: tensor<1x2x1x3x1x2xi32>, %r9: tensor<1x1x3x5x2xi32>) {
  %0 = rlx.shl %l0, %r0 : (tensor<2x3xi32>, tensor<2x3xi32>) -> tensor<2x3xi32>
  %1 = rlx.shl %l1, %r1 : (tensor<i32>, tensor<2x3xi32>) -> tensor<2x3xi32>
  %2 = rlx.shl %l2, %r2 : (tensor<2x3xi32>, tensor<i32>) -> tensor<2x3xi32>
  %3 = rlx.shl %l3, %r3 : (tensor<i32>, tensor<i32>) -> tensor<i32>
  %4 = rlx.shl %l4, %r4 : (tensor<2x1xi32>, tensor<1x3xi32>) -> tensor<2x3xi32>
  %5 = rlx.shl %l5, %r5 : (tensor<3xi32>, tensor<4x2x3xi32>) -> tensor<4x2x3xi32>
  %6 = rlx.shl %l6, %r6 : (tensor<4x1x3xi32>, tensor<2x1xi32>) -> tensor<4x2x3xi32>
  %7 = rlx.shl %l7, %r7 : (tensor<0x3xi32>, tensor<1x3xi32>) -> tensor<0x3xi32>
  %8 = rlx.shl %l8, %r8 : (tensor<0x1xi32>, tensor<3xi32>) -> tensor<0x3xi32>
  %9 = rlx.shl %l9, %r9 : (tensor<1x2x1x3x1x2xi32>, tensor<1x1x3x5x2xi32>) -> tensor<1x2x1x3x5x2xi32>
  return
}

// CHECK-LABEL: func.func @binary_shr_types(
// CHECK-SAME:    %[[XI8:[a-z0-9]+]]: tensor<2x3xi8>, %[[XI16:[a-z0-9]+]]: tensor<2x3xi16>, %[[XI32:[a-z0-9]+]]: tensor<2x3xi32>, %[[XI64:[a-z0-9]+]]: tensor<2x3xi64>)
// CHECK-NEXT:    %{{.*}} = rlx.shr %[[XI8]], %[[XI8]] : (tensor<2x3xi8>, tensor<2x3xi8>) -> tensor<2x3xi8>
// CHECK-NEXT:    %{{.*}} = rlx.shr %[[XI16]], %[[XI16]] : (tensor<2x3xi16>, tensor<2x3xi16>) -> tensor<2x3xi16>
// CHECK-NEXT:    %{{.*}} = rlx.shr %[[XI32]], %[[XI32]] : (tensor<2x3xi32>, tensor<2x3xi32>) -> tensor<2x3xi32>
// CHECK-NEXT:    %{{.*}} = rlx.shr %[[XI64]], %[[XI64]] : (tensor<2x3xi64>, tensor<2x3xi64>) -> tensor<2x3xi64>
// CHECK-NEXT:    return
func.func @binary_shr_types(%xi8: tensor<2x3xi8>, %xi16: tensor<2x3xi16>, %xi32: tensor<2x3xi32>, %xi64: tensor<2x3xi64>) {
  %0 = rlx.shr %xi8, %xi8 : (tensor<2x3xi8>, tensor<2x3xi8>) -> tensor<2x3xi8>
  %1 = rlx.shr %xi16, %xi16 : (tensor<2x3xi16>, tensor<2x3xi16>) -> tensor<2x3xi16>
  %2 = rlx.shr %xi32, %xi32 : (tensor<2x3xi32>, tensor<2x3xi32>) -> tensor<2x3xi32>
  %3 = rlx.shr %xi64, %xi64 : (tensor<2x3xi64>, tensor<2x3xi64>) -> tensor<2x3xi64>
  return
}

// CHECK-LABEL: func.func @binary_shr_broadcast(
// CHECK-SAME:    %[[L0:[a-z0-9]+]]: tensor<2x3xi32>, %[[R0:[a-z0-9]+]]: tensor<2x3xi32>, %[[L1:[a-z0-9]+]]: tensor<i32>, %[[R1:[a-z0-9]+]]: tensor<2x3xi32>, %[[L2:[a-z0-9]+]]: tensor<2x3xi32>, %[[R2:[a-z0-9]+]]: tensor<i32>, %[[L3:[a-z0-9]+]]: tensor<i32>, %[[R3:[a-z0-9]+]]: tensor<i32>, %[[L4:[a-z0-9]+]]: tensor<2x1xi32>, %[[R4:[a-z0-9]+]]: tensor<1x3xi32>, %[[L5:[a-z0-9]+]]: tensor<3xi32>, %[[R5:[a-z0-9]+]]: tensor<4x2x3xi32>, %[[L6:[a-z0-9]+]]: tensor<4x1x3xi32>, %[[R6:[a-z0-9]+]]: tensor<2x1xi32>, %[[L7:[a-z0-9]+]]: tensor<0x3xi32>, %[[R7:[a-z0-9]+]]: tensor<1x3xi32>, %[[L8:[a-z0-9]+]]: tensor<0x1xi32>, %[[R8:[a-z0-9]+]]: tensor<3xi32>, %[[L9:[a-z0-9]+]]: tensor<1x2x1x3x1x2xi32>, %[[R9:[a-z0-9]+]]: tensor<1x1x3x5x2xi32>)
// CHECK-NEXT:    %{{.*}} = rlx.shr %[[L0]], %[[R0]] : (tensor<2x3xi32>, tensor<2x3xi32>) -> tensor<2x3xi32>
// CHECK-NEXT:    %{{.*}} = rlx.shr %[[L1]], %[[R1]] : (tensor<i32>, tensor<2x3xi32>) -> tensor<2x3xi32>
// CHECK-NEXT:    %{{.*}} = rlx.shr %[[L2]], %[[R2]] : (tensor<2x3xi32>, tensor<i32>) -> tensor<2x3xi32>
// CHECK-NEXT:    %{{.*}} = rlx.shr %[[L3]], %[[R3]] : (tensor<i32>, tensor<i32>) -> tensor<i32>
// CHECK-NEXT:    %{{.*}} = rlx.shr %[[L4]], %[[R4]] : (tensor<2x1xi32>, tensor<1x3xi32>) -> tensor<2x3xi32>
// CHECK-NEXT:    %{{.*}} = rlx.shr %[[L5]], %[[R5]] : (tensor<3xi32>, tensor<4x2x3xi32>) -> tensor<4x2x3xi32>
// CHECK-NEXT:    %{{.*}} = rlx.shr %[[L6]], %[[R6]] : (tensor<4x1x3xi32>, tensor<2x1xi32>) -> tensor<4x2x3xi32>
// CHECK-NEXT:    %{{.*}} = rlx.shr %[[L7]], %[[R7]] : (tensor<0x3xi32>, tensor<1x3xi32>) -> tensor<0x3xi32>
// CHECK-NEXT:    %{{.*}} = rlx.shr %[[L8]], %[[R8]] : (tensor<0x1xi32>, tensor<3xi32>) -> tensor<0x3xi32>
// CHECK-NEXT:    %{{.*}} = rlx.shr %[[L9]], %[[R9]] : (tensor<1x2x1x3x1x2xi32>, tensor<1x1x3x5x2xi32>) -> tensor<1x2x1x3x5x2xi32>
// CHECK-NEXT:    return
func.func @binary_shr_broadcast(%l0: tensor<2x3xi32>, %r0: tensor<2x3xi32>, %l1: tensor<i32>, %r1: tensor<2x3xi32>, %l2: tensor<2x3xi32>, %r2: tensor<i32>, %l3: tensor<i32>, %r3: tensor<i32>, %l4: tensor<2x1xi32>, %r4: tensor<1x3xi32>, %l5: tensor<3xi32>, %r5: tensor<4x2x3xi32>, %l6: tensor<4x1x3xi32>, %r6: tensor<2x1xi32>, %l7: tensor<0x3xi32>, %r7: tensor<1x3xi32>, %l8: tensor<0x1xi32>, %r8: tensor<3xi32>, %l9: tensor<1x2x1x3x1x2xi32>, %r9: tensor<1x1x3x5x2xi32>) {
  %0 = rlx.shr %l0, %r0 : (tensor<2x3xi32>, tensor<2x3xi32>) -> tensor<2x3xi32>
  %1 = rlx.shr %l1, %r1 : (tensor<i32>, tensor<2x3xi32>) -> tensor<2x3xi32>
  %2 = rlx.shr %l2, %r2 : (tensor<2x3xi32>, tensor<i32>) -> tensor<2x3xi32>
  %3 = rlx.shr %l3, %r3 : (tensor<i32>, tensor<i32>) -> tensor<i32>
  %4 = rlx.shr %l4, %r4 : (tensor<2x1xi32>, tensor<1x3xi32>) -> tensor<2x3xi32>
  %5 = rlx.shr %l5, %r5 : (tensor<3xi32>, tensor<4x2x3xi32>) -> tensor<4x2x3xi32>
  %6 = rlx.shr %l6, %r6 : (tensor<4x1x3xi32>, tensor<2x1xi32>) -> tensor<4x2x3xi32>
  %7 = rlx.shr %l7, %r7 : (tensor<0x3xi32>, tensor<1x3xi32>) -> tensor<0x3xi32>
  %8 = rlx.shr %l8, %r8 : (tensor<0x1xi32>, tensor<3xi32>) -> tensor<0x3xi32>
  %9 = rlx.shr %l9, %r9 : (tensor<1x2x1x3x1x2xi32>, tensor<1x1x3x5x2xi32>) -> tensor<1x2x1x3x5x2xi32>
  return
}

// CHECK-LABEL: func.func @binary_atan2_types(
// CHECK-SAME:    %[[XF16:[a-z0-9]+]]: tensor<2x3xf16>, %[[XBF16:[a-z0-9]+]]: tensor<2x3xbf16>, %[[XF32:[a-z0-9]+]]: tensor<2x3xf32>, %[[XF64:[a-z0-9]+]]: tensor<2x3xf64>)
// CHECK-NEXT:    %{{.*}} = rlx.atan2 %[[XF16]], %[[XF16]] : (tensor<2x3xf16>, tensor<2x3xf16>) -> tensor<2x3xf16>
// CHECK-NEXT:    %{{.*}} = rlx.atan2 %[[XBF16]], %[[XBF16]] : (tensor<2x3xbf16>, tensor<2x3xbf16>) -> tensor<2x3xbf16>
// CHECK-NEXT:    %{{.*}} = rlx.atan2 %[[XF32]], %[[XF32]] : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT:    %{{.*}} = rlx.atan2 %[[XF64]], %[[XF64]] : (tensor<2x3xf64>, tensor<2x3xf64>) -> tensor<2x3xf64>
// CHECK-NEXT:    return
func.func @binary_atan2_types(%xf16: tensor<2x3xf16>, %xbf16: tensor<2x3xbf16>, %xf32: tensor<2x3xf32>, %xf64: tensor<2x3xf64>) {
  %0 = rlx.atan2 %xf16, %xf16 : (tensor<2x3xf16>, tensor<2x3xf16>) -> tensor<2x3xf16>
  %1 = rlx.atan2 %xbf16, %xbf16 : (tensor<2x3xbf16>, tensor<2x3xbf16>) -> tensor<2x3xbf16>
  %2 = rlx.atan2 %xf32, %xf32 : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %3 = rlx.atan2 %xf64, %xf64 : (tensor<2x3xf64>, tensor<2x3xf64>) -> tensor<2x3xf64>
  return
}

// CHECK-LABEL: func.func @binary_atan2_broadcast(
// CHECK-SAME:    %[[L0:[a-z0-9]+]]: tensor<2x3xf32>, %[[R0:[a-z0-9]+]]: tensor<2x3xf32>, %[[L1:[a-z0-9]+]]: tensor<f32>, %[[R1:[a-z0-9]+]]: tensor<2x3xf32>, %[[L2:[a-z0-9]+]]: tensor<2x3xf32>, %[[R2:[a-z0-9]+]]: tensor<f32>, %[[L3:[a-z0-9]+]]: tensor<f32>, %[[R3:[a-z0-9]+]]: tensor<f32>, %[[L4:[a-z0-9]+]]: tensor<2x1xf32>, %[[R4:[a-z0-9]+]]: tensor<1x3xf32>, %[[L5:[a-z0-9]+]]: tensor<3xf32>, %[[R5:[a-z0-9]+]]: tensor<4x2x3xf32>, %[[L6:[a-z0-9]+]]: tensor<4x1x3xf32>, %[[R6:[a-z0-9]+]]: tensor<2x1xf32>, %[[L7:[a-z0-9]+]]: tensor<0x3xf32>, %[[R7:[a-z0-9]+]]: tensor<1x3xf32>, %[[L8:[a-z0-9]+]]: tensor<0x1xf32>, %[[R8:[a-z0-9]+]]: tensor<3xf32>, %[[L9:[a-z0-9]+]]: tensor<1x2x1x3x1x2xf32>, %[[R9:[a-z0-9]+]]: tensor<1x1x3x5x2xf32>)
// CHECK-NEXT:    %{{.*}} = rlx.atan2 %[[L0]], %[[R0]] : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT:    %{{.*}} = rlx.atan2 %[[L1]], %[[R1]] : (tensor<f32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT:    %{{.*}} = rlx.atan2 %[[L2]], %[[R2]] : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
// CHECK-NEXT:    %{{.*}} = rlx.atan2 %[[L3]], %[[R3]] : (tensor<f32>, tensor<f32>) -> tensor<f32>
// CHECK-NEXT:    %{{.*}} = rlx.atan2 %[[L4]], %[[R4]] : (tensor<2x1xf32>, tensor<1x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT:    %{{.*}} = rlx.atan2 %[[L5]], %[[R5]] : (tensor<3xf32>, tensor<4x2x3xf32>) -> tensor<4x2x3xf32>
// CHECK-NEXT:    %{{.*}} = rlx.atan2 %[[L6]], %[[R6]] : (tensor<4x1x3xf32>, tensor<2x1xf32>) -> tensor<4x2x3xf32>
// CHECK-NEXT:    %{{.*}} = rlx.atan2 %[[L7]], %[[R7]] : (tensor<0x3xf32>, tensor<1x3xf32>) -> tensor<0x3xf32>
// CHECK-NEXT:    %{{.*}} = rlx.atan2 %[[L8]], %[[R8]] : (tensor<0x1xf32>, tensor<3xf32>) -> tensor<0x3xf32>
// CHECK-NEXT:    %{{.*}} = rlx.atan2 %[[L9]], %[[R9]] : (tensor<1x2x1x3x1x2xf32>, tensor<1x1x3x5x2xf32>) -> tensor<1x2x1x3x5x2xf32>
// CHECK-NEXT:    return
func.func @binary_atan2_broadcast(%l0: tensor<2x3xf32>, %r0: tensor<2x3xf32>, %l1: tensor<f32>, %r1: tensor<2x3xf32>, %l2: tensor<2x3xf32>, %r2: tensor<f32>, %l3: tensor<f32>, %r3: tensor<f32>, %l4: tensor<2x1xf32>, %r4: tensor<1x3xf32>, %l5: tensor<3xf32>, %r5: tensor<4x2x3xf32>, %l6: tensor<4x1x3xf32>, %r6: tensor<2x1xf32>, %l7: tensor<0x3xf32>, %r7: tensor<1x3xf32>, %l8: tensor<0x1xf32>, %r8: tensor<3xf32>, %l9: tensor<1x2x1x3x1x2xf32>, %r9: tensor<1x1x3x5x2xf32>) {
  %0 = rlx.atan2 %l0, %r0 : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %1 = rlx.atan2 %l1, %r1 : (tensor<f32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %2 = rlx.atan2 %l2, %r2 : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
  %3 = rlx.atan2 %l3, %r3 : (tensor<f32>, tensor<f32>) -> tensor<f32>
  %4 = rlx.atan2 %l4, %r4 : (tensor<2x1xf32>, tensor<1x3xf32>) -> tensor<2x3xf32>
  %5 = rlx.atan2 %l5, %r5 : (tensor<3xf32>, tensor<4x2x3xf32>) -> tensor<4x2x3xf32>
  %6 = rlx.atan2 %l6, %r6 : (tensor<4x1x3xf32>, tensor<2x1xf32>) -> tensor<4x2x3xf32>
  %7 = rlx.atan2 %l7, %r7 : (tensor<0x3xf32>, tensor<1x3xf32>) -> tensor<0x3xf32>
  %8 = rlx.atan2 %l8, %r8 : (tensor<0x1xf32>, tensor<3xf32>) -> tensor<0x3xf32>
  %9 = rlx.atan2 %l9, %r9 : (tensor<1x2x1x3x1x2xf32>, tensor<1x1x3x5x2xf32>) -> tensor<1x2x1x3x5x2xf32>
  return
}

//===----------------------------------------------------------------------===//
// Comparisons
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @compare_eq_types(
// CHECK-SAME:    %[[XF16:[a-z0-9]+]]: tensor<2x3xf16>, %[[XBF16:[a-z0-9]+]]: tensor<2x3xbf16>, %[[XF32:[a-z0-9]+]]: tensor<2x3xf32>, %[[XF64:[a-z0-9]+]]: tensor<2x3xf64>, %[[XI8:[a-z0-9]+]]: tensor<2x3xi8>, %[[XI16:[a-z0-9]+]]: tensor<2x3xi16>, %[[XI32:[a-z0-9]+]]: tensor<2x3xi32>, %[[XI64:[a-z0-9]+]]: tensor<2x3xi64>, %[[XI1:[a-z0-9]+]]: tensor<2x3xi1>)
// CHECK-NEXT:    %{{.*}} = rlx.eq %[[XF16]], %[[XF16]] : (tensor<2x3xf16>, tensor<2x3xf16>) -> tensor<2x3xi1>
// CHECK-NEXT:    %{{.*}} = rlx.eq %[[XBF16]], %[[XBF16]] : (tensor<2x3xbf16>, tensor<2x3xbf16>) -> tensor<2x3xi1>
// CHECK-NEXT:    %{{.*}} = rlx.eq %[[XF32]], %[[XF32]] : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xi1>
// CHECK-NEXT:    %{{.*}} = rlx.eq %[[XF64]], %[[XF64]] : (tensor<2x3xf64>, tensor<2x3xf64>) -> tensor<2x3xi1>
// CHECK-NEXT:    %{{.*}} = rlx.eq %[[XI8]], %[[XI8]] : (tensor<2x3xi8>, tensor<2x3xi8>) -> tensor<2x3xi1>
// CHECK-NEXT:    %{{.*}} = rlx.eq %[[XI16]], %[[XI16]] : (tensor<2x3xi16>, tensor<2x3xi16>) -> tensor<2x3xi1>
// CHECK-NEXT:    %{{.*}} = rlx.eq %[[XI32]], %[[XI32]] : (tensor<2x3xi32>, tensor<2x3xi32>) -> tensor<2x3xi1>
// CHECK-NEXT:    %{{.*}} = rlx.eq %[[XI64]], %[[XI64]] : (tensor<2x3xi64>, tensor<2x3xi64>) -> tensor<2x3xi1>
// CHECK-NEXT:    %{{.*}} = rlx.eq %[[XI1]], %[[XI1]] : (tensor<2x3xi1>, tensor<2x3xi1>) -> tensor<2x3xi1>
// CHECK-NEXT:    return
func.func @compare_eq_types(%xf16: tensor<2x3xf16>, %xbf16: tensor<2x3xbf16>, %xf32: tensor<2x3xf32>, %xf64: tensor<2x3xf64>, %xi8: tensor<2x3xi8>, %xi16: tensor<2x3xi16>, %xi32: tensor<2x3xi32>, %xi64: tensor<2x3xi64>, %xi1: tensor<2x3xi1>) {
  %0 = rlx.eq %xf16, %xf16 : (tensor<2x3xf16>, tensor<2x3xf16>) -> tensor<2x3xi1>
  %1 = rlx.eq %xbf16, %xbf16 : (tensor<2x3xbf16>, tensor<2x3xbf16>) -> tensor<2x3xi1>
  %2 = rlx.eq %xf32, %xf32 : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xi1>
  %3 = rlx.eq %xf64, %xf64 : (tensor<2x3xf64>, tensor<2x3xf64>) -> tensor<2x3xi1>
  %4 = rlx.eq %xi8, %xi8 : (tensor<2x3xi8>, tensor<2x3xi8>) -> tensor<2x3xi1>
  %5 = rlx.eq %xi16, %xi16 : (tensor<2x3xi16>, tensor<2x3xi16>) -> tensor<2x3xi1>
  %6 = rlx.eq %xi32, %xi32 : (tensor<2x3xi32>, tensor<2x3xi32>) -> tensor<2x3xi1>
  %7 = rlx.eq %xi64, %xi64 : (tensor<2x3xi64>, tensor<2x3xi64>) -> tensor<2x3xi1>
  %8 = rlx.eq %xi1, %xi1 : (tensor<2x3xi1>, tensor<2x3xi1>) -> tensor<2x3xi1>
  return
}

// CHECK-LABEL: func.func @compare_eq_broadcast(
// CHECK-SAME:    %[[L0:[a-z0-9]+]]: tensor<2x3xf32>, %[[R0:[a-z0-9]+]]: tensor<2x3xf32>, %[[L1:[a-z0-9]+]]: tensor<f32>, %[[R1:[a-z0-9]+]]: tensor<2x3xf32>, %[[L2:[a-z0-9]+]]: tensor<2x3xf32>, %[[R2:[a-z0-9]+]]: tensor<f32>, %[[L3:[a-z0-9]+]]: tensor<f32>, %[[R3:[a-z0-9]+]]: tensor<f32>, %[[L4:[a-z0-9]+]]: tensor<2x1xf32>, %[[R4:[a-z0-9]+]]: tensor<1x3xf32>, %[[L5:[a-z0-9]+]]: tensor<3xf32>, %[[R5:[a-z0-9]+]]: tensor<4x2x3xf32>, %[[L6:[a-z0-9]+]]: tensor<4x1x3xf32>, %[[R6:[a-z0-9]+]]: tensor<2x1xf32>, %[[L7:[a-z0-9]+]]: tensor<0x3xf32>, %[[R7:[a-z0-9]+]]: tensor<1x3xf32>, %[[L8:[a-z0-9]+]]: tensor<0x1xf32>, %[[R8:[a-z0-9]+]]: tensor<3xf32>, %[[L9:[a-z0-9]+]]: tensor<1x2x1x3x1x2xf32>, %[[R9:[a-z0-9]+]]: tensor<1x1x3x5x2xf32>)
// CHECK-NEXT:    %{{.*}} = rlx.eq %[[L0]], %[[R0]] : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xi1>
// CHECK-NEXT:    %{{.*}} = rlx.eq %[[L1]], %[[R1]] : (tensor<f32>, tensor<2x3xf32>) -> tensor<2x3xi1>
// CHECK-NEXT:    %{{.*}} = rlx.eq %[[L2]], %[[R2]] : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xi1>
// CHECK-NEXT:    %{{.*}} = rlx.eq %[[L3]], %[[R3]] : (tensor<f32>, tensor<f32>) -> tensor<i1>
// CHECK-NEXT:    %{{.*}} = rlx.eq %[[L4]], %[[R4]] : (tensor<2x1xf32>, tensor<1x3xf32>) -> tensor<2x3xi1>
// CHECK-NEXT:    %{{.*}} = rlx.eq %[[L5]], %[[R5]] : (tensor<3xf32>, tensor<4x2x3xf32>) -> tensor<4x2x3xi1>
// CHECK-NEXT:    %{{.*}} = rlx.eq %[[L6]], %[[R6]] : (tensor<4x1x3xf32>, tensor<2x1xf32>) -> tensor<4x2x3xi1>
// CHECK-NEXT:    %{{.*}} = rlx.eq %[[L7]], %[[R7]] : (tensor<0x3xf32>, tensor<1x3xf32>) -> tensor<0x3xi1>
// CHECK-NEXT:    %{{.*}} = rlx.eq %[[L8]], %[[R8]] : (tensor<0x1xf32>, tensor<3xf32>) -> tensor<0x3xi1>
// CHECK-NEXT:    %{{.*}} = rlx.eq %[[L9]], %[[R9]] : (tensor<1x2x1x3x1x2xf32>, tensor<1x1x3x5x2xf32>) -> tensor<1x2x1x3x5x2xi1>
// CHECK-NEXT:    return
func.func @compare_eq_broadcast(%l0: tensor<2x3xf32>, %r0: tensor<2x3xf32>, %l1: tensor<f32>, %r1: tensor<2x3xf32>, %l2: tensor<2x3xf32>, %r2: tensor<f32>, %l3: tensor<f32>, %r3: tensor<f32>, %l4: tensor<2x1xf32>, %r4: tensor<1x3xf32>, %l5: tensor<3xf32>, %r5: tensor<4x2x3xf32>, %l6: tensor<4x1x3xf32>, %r6: tensor<2x1xf32>, %l7: tensor<0x3xf32>, %r7: tensor<1x3xf32>, %l8: tensor<0x1xf32>, %r8: tensor<3xf32>, %l9: tensor<1x2x1x3x1x2xf32>, %r9: tensor<1x1x3x5x2xf32>) {
  %0 = rlx.eq %l0, %r0 : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xi1>
  %1 = rlx.eq %l1, %r1 : (tensor<f32>, tensor<2x3xf32>) -> tensor<2x3xi1>
  %2 = rlx.eq %l2, %r2 : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xi1>
  %3 = rlx.eq %l3, %r3 : (tensor<f32>, tensor<f32>) -> tensor<i1>
  %4 = rlx.eq %l4, %r4 : (tensor<2x1xf32>, tensor<1x3xf32>) -> tensor<2x3xi1>
  %5 = rlx.eq %l5, %r5 : (tensor<3xf32>, tensor<4x2x3xf32>) -> tensor<4x2x3xi1>
  %6 = rlx.eq %l6, %r6 : (tensor<4x1x3xf32>, tensor<2x1xf32>) -> tensor<4x2x3xi1>
  %7 = rlx.eq %l7, %r7 : (tensor<0x3xf32>, tensor<1x3xf32>) -> tensor<0x3xi1>
  %8 = rlx.eq %l8, %r8 : (tensor<0x1xf32>, tensor<3xf32>) -> tensor<0x3xi1>
  %9 = rlx.eq %l9, %r9 : (tensor<1x2x1x3x1x2xf32>, tensor<1x1x3x5x2xf32>) -> tensor<1x2x1x3x5x2xi1>
  return
}

// CHECK-LABEL: func.func @compare_ne_types(
// CHECK-SAME:    %[[XF16:[a-z0-9]+]]: tensor<2x3xf16>, %[[XBF16:[a-z0-9]+]]: tensor<2x3xbf16>, %[[XF32:[a-z0-9]+]]: tensor<2x3xf32>, %[[XF64:[a-z0-9]+]]: tensor<2x3xf64>, %[[XI8:[a-z0-9]+]]: tensor<2x3xi8>, %[[XI16:[a-z0-9]+]]: tensor<2x3xi16>, %[[XI32:[a-z0-9]+]]: tensor<2x3xi32>, %[[XI64:[a-z0-9]+]]: tensor<2x3xi64>, %[[XI1:[a-z0-9]+]]: tensor<2x3xi1>)
// CHECK-NEXT:    %{{.*}} = rlx.ne %[[XF16]], %[[XF16]] : (tensor<2x3xf16>, tensor<2x3xf16>) -> tensor<2x3xi1>
// CHECK-NEXT:    %{{.*}} = rlx.ne %[[XBF16]], %[[XBF16]] : (tensor<2x3xbf16>, tensor<2x3xbf16>) -> tensor<2x3xi1>
// CHECK-NEXT:    %{{.*}} = rlx.ne %[[XF32]], %[[XF32]] : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xi1>
// CHECK-NEXT:    %{{.*}} = rlx.ne %[[XF64]], %[[XF64]] : (tensor<2x3xf64>, tensor<2x3xf64>) -> tensor<2x3xi1>
// CHECK-NEXT:    %{{.*}} = rlx.ne %[[XI8]], %[[XI8]] : (tensor<2x3xi8>, tensor<2x3xi8>) -> tensor<2x3xi1>
// CHECK-NEXT:    %{{.*}} = rlx.ne %[[XI16]], %[[XI16]] : (tensor<2x3xi16>, tensor<2x3xi16>) -> tensor<2x3xi1>
// CHECK-NEXT:    %{{.*}} = rlx.ne %[[XI32]], %[[XI32]] : (tensor<2x3xi32>, tensor<2x3xi32>) -> tensor<2x3xi1>
// CHECK-NEXT:    %{{.*}} = rlx.ne %[[XI64]], %[[XI64]] : (tensor<2x3xi64>, tensor<2x3xi64>) -> tensor<2x3xi1>
// CHECK-NEXT:    %{{.*}} = rlx.ne %[[XI1]], %[[XI1]] : (tensor<2x3xi1>, tensor<2x3xi1>) -> tensor<2x3xi1>
// CHECK-NEXT:    return
func.func @compare_ne_types(%xf16: tensor<2x3xf16>, %xbf16: tensor<2x3xbf16>, %xf32: tensor<2x3xf32>, %xf64: tensor<2x3xf64>, %xi8: tensor<2x3xi8>, %xi16: tensor<2x3xi16>, %xi32: tensor<2x3xi32>, %xi64: tensor<2x3xi64>, %xi1: tensor<2x3xi1>) {
  %0 = rlx.ne %xf16, %xf16 : (tensor<2x3xf16>, tensor<2x3xf16>) -> tensor<2x3xi1>
  %1 = rlx.ne %xbf16, %xbf16 : (tensor<2x3xbf16>, tensor<2x3xbf16>) -> tensor<2x3xi1>
  %2 = rlx.ne %xf32, %xf32 : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xi1>
  %3 = rlx.ne %xf64, %xf64 : (tensor<2x3xf64>, tensor<2x3xf64>) -> tensor<2x3xi1>
  %4 = rlx.ne %xi8, %xi8 : (tensor<2x3xi8>, tensor<2x3xi8>) -> tensor<2x3xi1>
  %5 = rlx.ne %xi16, %xi16 : (tensor<2x3xi16>, tensor<2x3xi16>) -> tensor<2x3xi1>
  %6 = rlx.ne %xi32, %xi32 : (tensor<2x3xi32>, tensor<2x3xi32>) -> tensor<2x3xi1>
  %7 = rlx.ne %xi64, %xi64 : (tensor<2x3xi64>, tensor<2x3xi64>) -> tensor<2x3xi1>
  %8 = rlx.ne %xi1, %xi1 : (tensor<2x3xi1>, tensor<2x3xi1>) -> tensor<2x3xi1>
  return
}

// CHECK-LABEL: func.func @compare_ne_broadcast(
// CHECK-SAME:    %[[L0:[a-z0-9]+]]: tensor<2x3xf32>, %[[R0:[a-z0-9]+]]: tensor<2x3xf32>, %[[L1:[a-z0-9]+]]: tensor<f32>, %[[R1:[a-z0-9]+]]: tensor<2x3xf32>, %[[L2:[a-z0-9]+]]: tensor<2x3xf32>, %[[R2:[a-z0-9]+]]: tensor<f32>, %[[L3:[a-z0-9]+]]: tensor<f32>, %[[R3:[a-z0-9]+]]: tensor<f32>, %[[L4:[a-z0-9]+]]: tensor<2x1xf32>, %[[R4:[a-z0-9]+]]: tensor<1x3xf32>, %[[L5:[a-z0-9]+]]: tensor<3xf32>, %[[R5:[a-z0-9]+]]: tensor<4x2x3xf32>, %[[L6:[a-z0-9]+]]: tensor<4x1x3xf32>, %[[R6:[a-z0-9]+]]: tensor<2x1xf32>, %[[L7:[a-z0-9]+]]: tensor<0x3xf32>, %[[R7:[a-z0-9]+]]: tensor<1x3xf32>, %[[L8:[a-z0-9]+]]: tensor<0x1xf32>, %[[R8:[a-z0-9]+]]: tensor<3xf32>, %[[L9:[a-z0-9]+]]: tensor<1x2x1x3x1x2xf32>, %[[R9:[a-z0-9]+]]: tensor<1x1x3x5x2xf32>)
// CHECK-NEXT:    %{{.*}} = rlx.ne %[[L0]], %[[R0]] : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xi1>
// CHECK-NEXT:    %{{.*}} = rlx.ne %[[L1]], %[[R1]] : (tensor<f32>, tensor<2x3xf32>) -> tensor<2x3xi1>
// CHECK-NEXT:    %{{.*}} = rlx.ne %[[L2]], %[[R2]] : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xi1>
// CHECK-NEXT:    %{{.*}} = rlx.ne %[[L3]], %[[R3]] : (tensor<f32>, tensor<f32>) -> tensor<i1>
// CHECK-NEXT:    %{{.*}} = rlx.ne %[[L4]], %[[R4]] : (tensor<2x1xf32>, tensor<1x3xf32>) -> tensor<2x3xi1>
// CHECK-NEXT:    %{{.*}} = rlx.ne %[[L5]], %[[R5]] : (tensor<3xf32>, tensor<4x2x3xf32>) -> tensor<4x2x3xi1>
// CHECK-NEXT:    %{{.*}} = rlx.ne %[[L6]], %[[R6]] : (tensor<4x1x3xf32>, tensor<2x1xf32>) -> tensor<4x2x3xi1>
// CHECK-NEXT:    %{{.*}} = rlx.ne %[[L7]], %[[R7]] : (tensor<0x3xf32>, tensor<1x3xf32>) -> tensor<0x3xi1>
// CHECK-NEXT:    %{{.*}} = rlx.ne %[[L8]], %[[R8]] : (tensor<0x1xf32>, tensor<3xf32>) -> tensor<0x3xi1>
// CHECK-NEXT:    %{{.*}} = rlx.ne %[[L9]], %[[R9]] : (tensor<1x2x1x3x1x2xf32>, tensor<1x1x3x5x2xf32>) -> tensor<1x2x1x3x5x2xi1>
// CHECK-NEXT:    return
func.func @compare_ne_broadcast(%l0: tensor<2x3xf32>, %r0: tensor<2x3xf32>, %l1: tensor<f32>, %r1: tensor<2x3xf32>, %l2: tensor<2x3xf32>, %r2: tensor<f32>, %l3: tensor<f32>, %r3: tensor<f32>, %l4: tensor<2x1xf32>, %r4: tensor<1x3xf32>, %l5: tensor<3xf32>, %r5: tensor<4x2x3xf32>, %l6: tensor<4x1x3xf32>, %r6: tensor<2x1xf32>, %l7: tensor<0x3xf32>, %r7: tensor<1x3xf32>, %l8: tensor<0x1xf32>, %r8: tensor<3xf32>, %l9: tensor<1x2x1x3x1x2xf32>, %r9: tensor<1x1x3x5x2xf32>) {
  %0 = rlx.ne %l0, %r0 : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xi1>
  %1 = rlx.ne %l1, %r1 : (tensor<f32>, tensor<2x3xf32>) -> tensor<2x3xi1>
  %2 = rlx.ne %l2, %r2 : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xi1>
  %3 = rlx.ne %l3, %r3 : (tensor<f32>, tensor<f32>) -> tensor<i1>
  %4 = rlx.ne %l4, %r4 : (tensor<2x1xf32>, tensor<1x3xf32>) -> tensor<2x3xi1>
  %5 = rlx.ne %l5, %r5 : (tensor<3xf32>, tensor<4x2x3xf32>) -> tensor<4x2x3xi1>
  %6 = rlx.ne %l6, %r6 : (tensor<4x1x3xf32>, tensor<2x1xf32>) -> tensor<4x2x3xi1>
  %7 = rlx.ne %l7, %r7 : (tensor<0x3xf32>, tensor<1x3xf32>) -> tensor<0x3xi1>
  %8 = rlx.ne %l8, %r8 : (tensor<0x1xf32>, tensor<3xf32>) -> tensor<0x3xi1>
  %9 = rlx.ne %l9, %r9 : (tensor<1x2x1x3x1x2xf32>, tensor<1x1x3x5x2xf32>) -> tensor<1x2x1x3x5x2xi1>
  return
}

// CHECK-LABEL: func.func @compare_lt_types(
// CHECK-SAME:    %[[XF16:[a-z0-9]+]]: tensor<2x3xf16>, %[[XBF16:[a-z0-9]+]]: tensor<2x3xbf16>, %[[XF32:[a-z0-9]+]]: tensor<2x3xf32>, %[[XF64:[a-z0-9]+]]: tensor<2x3xf64>, %[[XI8:[a-z0-9]+]]: tensor<2x3xi8>, %[[XI16:[a-z0-9]+]]: tensor<2x3xi16>, %[[XI32:[a-z0-9]+]]: tensor<2x3xi32>, %[[XI64:[a-z0-9]+]]: tensor<2x3xi64>, %[[XI1:[a-z0-9]+]]: tensor<2x3xi1>)
// CHECK-NEXT:    %{{.*}} = rlx.lt %[[XF16]], %[[XF16]] : (tensor<2x3xf16>, tensor<2x3xf16>) -> tensor<2x3xi1>
// CHECK-NEXT:    %{{.*}} = rlx.lt %[[XBF16]], %[[XBF16]] : (tensor<2x3xbf16>, tensor<2x3xbf16>) -> tensor<2x3xi1>
// CHECK-NEXT:    %{{.*}} = rlx.lt %[[XF32]], %[[XF32]] : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xi1>
// CHECK-NEXT:    %{{.*}} = rlx.lt %[[XF64]], %[[XF64]] : (tensor<2x3xf64>, tensor<2x3xf64>) -> tensor<2x3xi1>
// CHECK-NEXT:    %{{.*}} = rlx.lt %[[XI8]], %[[XI8]] : (tensor<2x3xi8>, tensor<2x3xi8>) -> tensor<2x3xi1>
// CHECK-NEXT:    %{{.*}} = rlx.lt %[[XI16]], %[[XI16]] : (tensor<2x3xi16>, tensor<2x3xi16>) -> tensor<2x3xi1>
// CHECK-NEXT:    %{{.*}} = rlx.lt %[[XI32]], %[[XI32]] : (tensor<2x3xi32>, tensor<2x3xi32>) -> tensor<2x3xi1>
// CHECK-NEXT:    %{{.*}} = rlx.lt %[[XI64]], %[[XI64]] : (tensor<2x3xi64>, tensor<2x3xi64>) -> tensor<2x3xi1>
// CHECK-NEXT:    %{{.*}} = rlx.lt %[[XI1]], %[[XI1]] : (tensor<2x3xi1>, tensor<2x3xi1>) -> tensor<2x3xi1>
// CHECK-NEXT:    return
func.func @compare_lt_types(%xf16: tensor<2x3xf16>, %xbf16: tensor<2x3xbf16>, %xf32: tensor<2x3xf32>, %xf64: tensor<2x3xf64>, %xi8: tensor<2x3xi8>, %xi16: tensor<2x3xi16>, %xi32: tensor<2x3xi32>, %xi64: tensor<2x3xi64>, %xi1: tensor<2x3xi1>) {
  %0 = rlx.lt %xf16, %xf16 : (tensor<2x3xf16>, tensor<2x3xf16>) -> tensor<2x3xi1>
  %1 = rlx.lt %xbf16, %xbf16 : (tensor<2x3xbf16>, tensor<2x3xbf16>) -> tensor<2x3xi1>
  %2 = rlx.lt %xf32, %xf32 : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xi1>
  %3 = rlx.lt %xf64, %xf64 : (tensor<2x3xf64>, tensor<2x3xf64>) -> tensor<2x3xi1>
  %4 = rlx.lt %xi8, %xi8 : (tensor<2x3xi8>, tensor<2x3xi8>) -> tensor<2x3xi1>
  %5 = rlx.lt %xi16, %xi16 : (tensor<2x3xi16>, tensor<2x3xi16>) -> tensor<2x3xi1>
  %6 = rlx.lt %xi32, %xi32 : (tensor<2x3xi32>, tensor<2x3xi32>) -> tensor<2x3xi1>
  %7 = rlx.lt %xi64, %xi64 : (tensor<2x3xi64>, tensor<2x3xi64>) -> tensor<2x3xi1>
  %8 = rlx.lt %xi1, %xi1 : (tensor<2x3xi1>, tensor<2x3xi1>) -> tensor<2x3xi1>
  return
}

// CHECK-LABEL: func.func @compare_lt_broadcast(
// CHECK-SAME:    %[[L0:[a-z0-9]+]]: tensor<2x3xf32>, %[[R0:[a-z0-9]+]]: tensor<2x3xf32>, %[[L1:[a-z0-9]+]]: tensor<f32>, %[[R1:[a-z0-9]+]]: tensor<2x3xf32>, %[[L2:[a-z0-9]+]]: tensor<2x3xf32>, %[[R2:[a-z0-9]+]]: tensor<f32>, %[[L3:[a-z0-9]+]]: tensor<f32>, %[[R3:[a-z0-9]+]]: tensor<f32>, %[[L4:[a-z0-9]+]]: tensor<2x1xf32>, %[[R4:[a-z0-9]+]]: tensor<1x3xf32>, %[[L5:[a-z0-9]+]]: tensor<3xf32>, %[[R5:[a-z0-9]+]]: tensor<4x2x3xf32>, %[[L6:[a-z0-9]+]]: tensor<4x1x3xf32>, %[[R6:[a-z0-9]+]]: tensor<2x1xf32>, %[[L7:[a-z0-9]+]]: tensor<0x3xf32>, %[[R7:[a-z0-9]+]]: tensor<1x3xf32>, %[[L8:[a-z0-9]+]]: tensor<0x1xf32>, %[[R8:[a-z0-9]+]]: tensor<3xf32>, %[[L9:[a-z0-9]+]]: tensor<1x2x1x3x1x2xf32>, %[[R9:[a-z0-9]+]]: tensor<1x1x3x5x2xf32>)
// CHECK-NEXT:    %{{.*}} = rlx.lt %[[L0]], %[[R0]] : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xi1>
// CHECK-NEXT:    %{{.*}} = rlx.lt %[[L1]], %[[R1]] : (tensor<f32>, tensor<2x3xf32>) -> tensor<2x3xi1>
// CHECK-NEXT:    %{{.*}} = rlx.lt %[[L2]], %[[R2]] : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xi1>
// CHECK-NEXT:    %{{.*}} = rlx.lt %[[L3]], %[[R3]] : (tensor<f32>, tensor<f32>) -> tensor<i1>
// CHECK-NEXT:    %{{.*}} = rlx.lt %[[L4]], %[[R4]] : (tensor<2x1xf32>, tensor<1x3xf32>) -> tensor<2x3xi1>
// CHECK-NEXT:    %{{.*}} = rlx.lt %[[L5]], %[[R5]] : (tensor<3xf32>, tensor<4x2x3xf32>) -> tensor<4x2x3xi1>
// CHECK-NEXT:    %{{.*}} = rlx.lt %[[L6]], %[[R6]] : (tensor<4x1x3xf32>, tensor<2x1xf32>) -> tensor<4x2x3xi1>
// CHECK-NEXT:    %{{.*}} = rlx.lt %[[L7]], %[[R7]] : (tensor<0x3xf32>, tensor<1x3xf32>) -> tensor<0x3xi1>
// CHECK-NEXT:    %{{.*}} = rlx.lt %[[L8]], %[[R8]] : (tensor<0x1xf32>, tensor<3xf32>) -> tensor<0x3xi1>
// CHECK-NEXT:    %{{.*}} = rlx.lt %[[L9]], %[[R9]] : (tensor<1x2x1x3x1x2xf32>, tensor<1x1x3x5x2xf32>) -> tensor<1x2x1x3x5x2xi1>
// CHECK-NEXT:    return
func.func @compare_lt_broadcast(%l0: tensor<2x3xf32>, %r0: tensor<2x3xf32>, %l1: tensor<f32>, %r1: tensor<2x3xf32>, %l2: tensor<2x3xf32>, %r2: tensor<f32>, %l3: tensor<f32>, %r3: tensor<f32>, %l4: tensor<2x1xf32>, %r4: tensor<1x3xf32>, %l5: tensor<3xf32>, %r5: tensor<4x2x3xf32>, %l6: tensor<4x1x3xf32>, %r6: tensor<2x1xf32>, %l7: tensor<0x3xf32>, %r7: tensor<1x3xf32>, %l8: tensor<0x1xf32>, %r8: tensor<3xf32>, %l9: tensor<1x2x1x3x1x2xf32>, %r9: tensor<1x1x3x5x2xf32>) {
  %0 = rlx.lt %l0, %r0 : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xi1>
  %1 = rlx.lt %l1, %r1 : (tensor<f32>, tensor<2x3xf32>) -> tensor<2x3xi1>
  %2 = rlx.lt %l2, %r2 : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xi1>
  %3 = rlx.lt %l3, %r3 : (tensor<f32>, tensor<f32>) -> tensor<i1>
  %4 = rlx.lt %l4, %r4 : (tensor<2x1xf32>, tensor<1x3xf32>) -> tensor<2x3xi1>
  %5 = rlx.lt %l5, %r5 : (tensor<3xf32>, tensor<4x2x3xf32>) -> tensor<4x2x3xi1>
  %6 = rlx.lt %l6, %r6 : (tensor<4x1x3xf32>, tensor<2x1xf32>) -> tensor<4x2x3xi1>
  %7 = rlx.lt %l7, %r7 : (tensor<0x3xf32>, tensor<1x3xf32>) -> tensor<0x3xi1>
  %8 = rlx.lt %l8, %r8 : (tensor<0x1xf32>, tensor<3xf32>) -> tensor<0x3xi1>
  %9 = rlx.lt %l9, %r9 : (tensor<1x2x1x3x1x2xf32>, tensor<1x1x3x5x2xf32>) -> tensor<1x2x1x3x5x2xi1>
  return
}

// CHECK-LABEL: func.func @compare_le_types(
// CHECK-SAME:    %[[XF16:[a-z0-9]+]]: tensor<2x3xf16>, %[[XBF16:[a-z0-9]+]]: tensor<2x3xbf16>, %[[XF32:[a-z0-9]+]]: tensor<2x3xf32>, %[[XF64:[a-z0-9]+]]: tensor<2x3xf64>, %[[XI8:[a-z0-9]+]]: tensor<2x3xi8>, %[[XI16:[a-z0-9]+]]: tensor<2x3xi16>, %[[XI32:[a-z0-9]+]]: tensor<2x3xi32>, %[[XI64:[a-z0-9]+]]: tensor<2x3xi64>, %[[XI1:[a-z0-9]+]]: tensor<2x3xi1>)
// CHECK-NEXT:    %{{.*}} = rlx.le %[[XF16]], %[[XF16]] : (tensor<2x3xf16>, tensor<2x3xf16>) -> tensor<2x3xi1>
// CHECK-NEXT:    %{{.*}} = rlx.le %[[XBF16]], %[[XBF16]] : (tensor<2x3xbf16>, tensor<2x3xbf16>) -> tensor<2x3xi1>
// CHECK-NEXT:    %{{.*}} = rlx.le %[[XF32]], %[[XF32]] : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xi1>
// CHECK-NEXT:    %{{.*}} = rlx.le %[[XF64]], %[[XF64]] : (tensor<2x3xf64>, tensor<2x3xf64>) -> tensor<2x3xi1>
// CHECK-NEXT:    %{{.*}} = rlx.le %[[XI8]], %[[XI8]] : (tensor<2x3xi8>, tensor<2x3xi8>) -> tensor<2x3xi1>
// CHECK-NEXT:    %{{.*}} = rlx.le %[[XI16]], %[[XI16]] : (tensor<2x3xi16>, tensor<2x3xi16>) -> tensor<2x3xi1>
// CHECK-NEXT:    %{{.*}} = rlx.le %[[XI32]], %[[XI32]] : (tensor<2x3xi32>, tensor<2x3xi32>) -> tensor<2x3xi1>
// CHECK-NEXT:    %{{.*}} = rlx.le %[[XI64]], %[[XI64]] : (tensor<2x3xi64>, tensor<2x3xi64>) -> tensor<2x3xi1>
// CHECK-NEXT:    %{{.*}} = rlx.le %[[XI1]], %[[XI1]] : (tensor<2x3xi1>, tensor<2x3xi1>) -> tensor<2x3xi1>
// CHECK-NEXT:    return
func.func @compare_le_types(%xf16: tensor<2x3xf16>, %xbf16: tensor<2x3xbf16>, %xf32: tensor<2x3xf32>, %xf64: tensor<2x3xf64>, %xi8: tensor<2x3xi8>, %xi16: tensor<2x3xi16>, %xi32: tensor<2x3xi32>, %xi64: tensor<2x3xi64>, %xi1: tensor<2x3xi1>) {
  %0 = rlx.le %xf16, %xf16 : (tensor<2x3xf16>, tensor<2x3xf16>) -> tensor<2x3xi1>
  %1 = rlx.le %xbf16, %xbf16 : (tensor<2x3xbf16>, tensor<2x3xbf16>) -> tensor<2x3xi1>
  %2 = rlx.le %xf32, %xf32 : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xi1>
  %3 = rlx.le %xf64, %xf64 : (tensor<2x3xf64>, tensor<2x3xf64>) -> tensor<2x3xi1>
  %4 = rlx.le %xi8, %xi8 : (tensor<2x3xi8>, tensor<2x3xi8>) -> tensor<2x3xi1>
  %5 = rlx.le %xi16, %xi16 : (tensor<2x3xi16>, tensor<2x3xi16>) -> tensor<2x3xi1>
  %6 = rlx.le %xi32, %xi32 : (tensor<2x3xi32>, tensor<2x3xi32>) -> tensor<2x3xi1>
  %7 = rlx.le %xi64, %xi64 : (tensor<2x3xi64>, tensor<2x3xi64>) -> tensor<2x3xi1>
  %8 = rlx.le %xi1, %xi1 : (tensor<2x3xi1>, tensor<2x3xi1>) -> tensor<2x3xi1>
  return
}

// CHECK-LABEL: func.func @compare_le_broadcast(
// CHECK-SAME:    %[[L0:[a-z0-9]+]]: tensor<2x3xf32>, %[[R0:[a-z0-9]+]]: tensor<2x3xf32>, %[[L1:[a-z0-9]+]]: tensor<f32>, %[[R1:[a-z0-9]+]]: tensor<2x3xf32>, %[[L2:[a-z0-9]+]]: tensor<2x3xf32>, %[[R2:[a-z0-9]+]]: tensor<f32>, %[[L3:[a-z0-9]+]]: tensor<f32>, %[[R3:[a-z0-9]+]]: tensor<f32>, %[[L4:[a-z0-9]+]]: tensor<2x1xf32>, %[[R4:[a-z0-9]+]]: tensor<1x3xf32>, %[[L5:[a-z0-9]+]]: tensor<3xf32>, %[[R5:[a-z0-9]+]]: tensor<4x2x3xf32>, %[[L6:[a-z0-9]+]]: tensor<4x1x3xf32>, %[[R6:[a-z0-9]+]]: tensor<2x1xf32>, %[[L7:[a-z0-9]+]]: tensor<0x3xf32>, %[[R7:[a-z0-9]+]]: tensor<1x3xf32>, %[[L8:[a-z0-9]+]]: tensor<0x1xf32>, %[[R8:[a-z0-9]+]]: tensor<3xf32>, %[[L9:[a-z0-9]+]]: tensor<1x2x1x3x1x2xf32>, %[[R9:[a-z0-9]+]]: tensor<1x1x3x5x2xf32>)
// CHECK-NEXT:    %{{.*}} = rlx.le %[[L0]], %[[R0]] : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xi1>
// CHECK-NEXT:    %{{.*}} = rlx.le %[[L1]], %[[R1]] : (tensor<f32>, tensor<2x3xf32>) -> tensor<2x3xi1>
// CHECK-NEXT:    %{{.*}} = rlx.le %[[L2]], %[[R2]] : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xi1>
// CHECK-NEXT:    %{{.*}} = rlx.le %[[L3]], %[[R3]] : (tensor<f32>, tensor<f32>) -> tensor<i1>
// CHECK-NEXT:    %{{.*}} = rlx.le %[[L4]], %[[R4]] : (tensor<2x1xf32>, tensor<1x3xf32>) -> tensor<2x3xi1>
// CHECK-NEXT:    %{{.*}} = rlx.le %[[L5]], %[[R5]] : (tensor<3xf32>, tensor<4x2x3xf32>) -> tensor<4x2x3xi1>
// CHECK-NEXT:    %{{.*}} = rlx.le %[[L6]], %[[R6]] : (tensor<4x1x3xf32>, tensor<2x1xf32>) -> tensor<4x2x3xi1>
// CHECK-NEXT:    %{{.*}} = rlx.le %[[L7]], %[[R7]] : (tensor<0x3xf32>, tensor<1x3xf32>) -> tensor<0x3xi1>
// CHECK-NEXT:    %{{.*}} = rlx.le %[[L8]], %[[R8]] : (tensor<0x1xf32>, tensor<3xf32>) -> tensor<0x3xi1>
// CHECK-NEXT:    %{{.*}} = rlx.le %[[L9]], %[[R9]] : (tensor<1x2x1x3x1x2xf32>, tensor<1x1x3x5x2xf32>) -> tensor<1x2x1x3x5x2xi1>
// CHECK-NEXT:    return
func.func @compare_le_broadcast(%l0: tensor<2x3xf32>, %r0: tensor<2x3xf32>, %l1: tensor<f32>, %r1: tensor<2x3xf32>, %l2: tensor<2x3xf32>, %r2: tensor<f32>, %l3: tensor<f32>, %r3: tensor<f32>, %l4: tensor<2x1xf32>, %r4: tensor<1x3xf32>, %l5: tensor<3xf32>, %r5: tensor<4x2x3xf32>, %l6: tensor<4x1x3xf32>, %r6: tensor<2x1xf32>, %l7: tensor<0x3xf32>, %r7: tensor<1x3xf32>, %l8: tensor<0x1xf32>, %r8: tensor<3xf32>, %l9: tensor<1x2x1x3x1x2xf32>, %r9: tensor<1x1x3x5x2xf32>) {
  %0 = rlx.le %l0, %r0 : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xi1>
  %1 = rlx.le %l1, %r1 : (tensor<f32>, tensor<2x3xf32>) -> tensor<2x3xi1>
  %2 = rlx.le %l2, %r2 : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xi1>
  %3 = rlx.le %l3, %r3 : (tensor<f32>, tensor<f32>) -> tensor<i1>
  %4 = rlx.le %l4, %r4 : (tensor<2x1xf32>, tensor<1x3xf32>) -> tensor<2x3xi1>
  %5 = rlx.le %l5, %r5 : (tensor<3xf32>, tensor<4x2x3xf32>) -> tensor<4x2x3xi1>
  %6 = rlx.le %l6, %r6 : (tensor<4x1x3xf32>, tensor<2x1xf32>) -> tensor<4x2x3xi1>
  %7 = rlx.le %l7, %r7 : (tensor<0x3xf32>, tensor<1x3xf32>) -> tensor<0x3xi1>
  %8 = rlx.le %l8, %r8 : (tensor<0x1xf32>, tensor<3xf32>) -> tensor<0x3xi1>
  %9 = rlx.le %l9, %r9 : (tensor<1x2x1x3x1x2xf32>, tensor<1x1x3x5x2xf32>) -> tensor<1x2x1x3x5x2xi1>
  return
}

// CHECK-LABEL: func.func @compare_gt_types(
// CHECK-SAME:    %[[XF16:[a-z0-9]+]]: tensor<2x3xf16>, %[[XBF16:[a-z0-9]+]]: tensor<2x3xbf16>, %[[XF32:[a-z0-9]+]]: tensor<2x3xf32>, %[[XF64:[a-z0-9]+]]: tensor<2x3xf64>, %[[XI8:[a-z0-9]+]]: tensor<2x3xi8>, %[[XI16:[a-z0-9]+]]: tensor<2x3xi16>, %[[XI32:[a-z0-9]+]]: tensor<2x3xi32>, %[[XI64:[a-z0-9]+]]: tensor<2x3xi64>, %[[XI1:[a-z0-9]+]]: tensor<2x3xi1>)
// CHECK-NEXT:    %{{.*}} = rlx.gt %[[XF16]], %[[XF16]] : (tensor<2x3xf16>, tensor<2x3xf16>) -> tensor<2x3xi1>
// CHECK-NEXT:    %{{.*}} = rlx.gt %[[XBF16]], %[[XBF16]] : (tensor<2x3xbf16>, tensor<2x3xbf16>) -> tensor<2x3xi1>
// CHECK-NEXT:    %{{.*}} = rlx.gt %[[XF32]], %[[XF32]] : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xi1>
// CHECK-NEXT:    %{{.*}} = rlx.gt %[[XF64]], %[[XF64]] : (tensor<2x3xf64>, tensor<2x3xf64>) -> tensor<2x3xi1>
// CHECK-NEXT:    %{{.*}} = rlx.gt %[[XI8]], %[[XI8]] : (tensor<2x3xi8>, tensor<2x3xi8>) -> tensor<2x3xi1>
// CHECK-NEXT:    %{{.*}} = rlx.gt %[[XI16]], %[[XI16]] : (tensor<2x3xi16>, tensor<2x3xi16>) -> tensor<2x3xi1>
// CHECK-NEXT:    %{{.*}} = rlx.gt %[[XI32]], %[[XI32]] : (tensor<2x3xi32>, tensor<2x3xi32>) -> tensor<2x3xi1>
// CHECK-NEXT:    %{{.*}} = rlx.gt %[[XI64]], %[[XI64]] : (tensor<2x3xi64>, tensor<2x3xi64>) -> tensor<2x3xi1>
// CHECK-NEXT:    %{{.*}} = rlx.gt %[[XI1]], %[[XI1]] : (tensor<2x3xi1>, tensor<2x3xi1>) -> tensor<2x3xi1>
// CHECK-NEXT:    return
func.func @compare_gt_types(%xf16: tensor<2x3xf16>, %xbf16: tensor<2x3xbf16>, %xf32: tensor<2x3xf32>, %xf64: tensor<2x3xf64>, %xi8: tensor<2x3xi8>, %xi16: tensor<2x3xi16>, %xi32: tensor<2x3xi32>, %xi64: tensor<2x3xi64>, %xi1: tensor<2x3xi1>) {
  %0 = rlx.gt %xf16, %xf16 : (tensor<2x3xf16>, tensor<2x3xf16>) -> tensor<2x3xi1>
  %1 = rlx.gt %xbf16, %xbf16 : (tensor<2x3xbf16>, tensor<2x3xbf16>) -> tensor<2x3xi1>
  %2 = rlx.gt %xf32, %xf32 : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xi1>
  %3 = rlx.gt %xf64, %xf64 : (tensor<2x3xf64>, tensor<2x3xf64>) -> tensor<2x3xi1>
  %4 = rlx.gt %xi8, %xi8 : (tensor<2x3xi8>, tensor<2x3xi8>) -> tensor<2x3xi1>
  %5 = rlx.gt %xi16, %xi16 : (tensor<2x3xi16>, tensor<2x3xi16>) -> tensor<2x3xi1>
  %6 = rlx.gt %xi32, %xi32 : (tensor<2x3xi32>, tensor<2x3xi32>) -> tensor<2x3xi1>
  %7 = rlx.gt %xi64, %xi64 : (tensor<2x3xi64>, tensor<2x3xi64>) -> tensor<2x3xi1>
  %8 = rlx.gt %xi1, %xi1 : (tensor<2x3xi1>, tensor<2x3xi1>) -> tensor<2x3xi1>
  return
}

// CHECK-LABEL: func.func @compare_gt_broadcast(
// CHECK-SAME:    %[[L0:[a-z0-9]+]]: tensor<2x3xf32>, %[[R0:[a-z0-9]+]]: tensor<2x3xf32>, %[[L1:[a-z0-9]+]]: tensor<f32>, %[[R1:[a-z0-9]+]]: tensor<2x3xf32>, %[[L2:[a-z0-9]+]]: tensor<2x3xf32>, %[[R2:[a-z0-9]+]]: tensor<f32>, %[[L3:[a-z0-9]+]]: tensor<f32>, %[[R3:[a-z0-9]+]]: tensor<f32>, %[[L4:[a-z0-9]+]]: tensor<2x1xf32>, %[[R4:[a-z0-9]+]]: tensor<1x3xf32>, %[[L5:[a-z0-9]+]]: tensor<3xf32>, %[[R5:[a-z0-9]+]]: tensor<4x2x3xf32>, %[[L6:[a-z0-9]+]]: tensor<4x1x3xf32>, %[[R6:[a-z0-9]+]]: tensor<2x1xf32>, %[[L7:[a-z0-9]+]]: tensor<0x3xf32>, %[[R7:[a-z0-9]+]]: tensor<1x3xf32>, %[[L8:[a-z0-9]+]]: tensor<0x1xf32>, %[[R8:[a-z0-9]+]]: tensor<3xf32>, %[[L9:[a-z0-9]+]]: tensor<1x2x1x3x1x2xf32>, %[[R9:[a-z0-9]+]]: tensor<1x1x3x5x2xf32>)
// CHECK-NEXT:    %{{.*}} = rlx.gt %[[L0]], %[[R0]] : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xi1>
// CHECK-NEXT:    %{{.*}} = rlx.gt %[[L1]], %[[R1]] : (tensor<f32>, tensor<2x3xf32>) -> tensor<2x3xi1>
// CHECK-NEXT:    %{{.*}} = rlx.gt %[[L2]], %[[R2]] : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xi1>
// CHECK-NEXT:    %{{.*}} = rlx.gt %[[L3]], %[[R3]] : (tensor<f32>, tensor<f32>) -> tensor<i1>
// CHECK-NEXT:    %{{.*}} = rlx.gt %[[L4]], %[[R4]] : (tensor<2x1xf32>, tensor<1x3xf32>) -> tensor<2x3xi1>
// CHECK-NEXT:    %{{.*}} = rlx.gt %[[L5]], %[[R5]] : (tensor<3xf32>, tensor<4x2x3xf32>) -> tensor<4x2x3xi1>
// CHECK-NEXT:    %{{.*}} = rlx.gt %[[L6]], %[[R6]] : (tensor<4x1x3xf32>, tensor<2x1xf32>) -> tensor<4x2x3xi1>
// CHECK-NEXT:    %{{.*}} = rlx.gt %[[L7]], %[[R7]] : (tensor<0x3xf32>, tensor<1x3xf32>) -> tensor<0x3xi1>
// CHECK-NEXT:    %{{.*}} = rlx.gt %[[L8]], %[[R8]] : (tensor<0x1xf32>, tensor<3xf32>) -> tensor<0x3xi1>
// CHECK-NEXT:    %{{.*}} = rlx.gt %[[L9]], %[[R9]] : (tensor<1x2x1x3x1x2xf32>, tensor<1x1x3x5x2xf32>) -> tensor<1x2x1x3x5x2xi1>
// CHECK-NEXT:    return
func.func @compare_gt_broadcast(%l0: tensor<2x3xf32>, %r0: tensor<2x3xf32>, %l1: tensor<f32>, %r1: tensor<2x3xf32>, %l2: tensor<2x3xf32>, %r2: tensor<f32>, %l3: tensor<f32>, %r3: tensor<f32>, %l4: tensor<2x1xf32>, %r4: tensor<1x3xf32>, %l5: tensor<3xf32>, %r5: tensor<4x2x3xf32>, %l6: tensor<4x1x3xf32>, %r6: tensor<2x1xf32>, %l7: tensor<0x3xf32>, %r7: tensor<1x3xf32>, %l8: tensor<0x1xf32>, %r8: tensor<3xf32>, %l9: tensor<1x2x1x3x1x2xf32>, %r9: tensor<1x1x3x5x2xf32>) {
  %0 = rlx.gt %l0, %r0 : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xi1>
  %1 = rlx.gt %l1, %r1 : (tensor<f32>, tensor<2x3xf32>) -> tensor<2x3xi1>
  %2 = rlx.gt %l2, %r2 : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xi1>
  %3 = rlx.gt %l3, %r3 : (tensor<f32>, tensor<f32>) -> tensor<i1>
  %4 = rlx.gt %l4, %r4 : (tensor<2x1xf32>, tensor<1x3xf32>) -> tensor<2x3xi1>
  %5 = rlx.gt %l5, %r5 : (tensor<3xf32>, tensor<4x2x3xf32>) -> tensor<4x2x3xi1>
  %6 = rlx.gt %l6, %r6 : (tensor<4x1x3xf32>, tensor<2x1xf32>) -> tensor<4x2x3xi1>
  %7 = rlx.gt %l7, %r7 : (tensor<0x3xf32>, tensor<1x3xf32>) -> tensor<0x3xi1>
  %8 = rlx.gt %l8, %r8 : (tensor<0x1xf32>, tensor<3xf32>) -> tensor<0x3xi1>
  %9 = rlx.gt %l9, %r9 : (tensor<1x2x1x3x1x2xf32>, tensor<1x1x3x5x2xf32>) -> tensor<1x2x1x3x5x2xi1>
  return
}

// CHECK-LABEL: func.func @compare_ge_types(
// CHECK-SAME:    %[[XF16:[a-z0-9]+]]: tensor<2x3xf16>, %[[XBF16:[a-z0-9]+]]: tensor<2x3xbf16>, %[[XF32:[a-z0-9]+]]: tensor<2x3xf32>, %[[XF64:[a-z0-9]+]]: tensor<2x3xf64>, %[[XI8:[a-z0-9]+]]: tensor<2x3xi8>, %[[XI16:[a-z0-9]+]]: tensor<2x3xi16>, %[[XI32:[a-z0-9]+]]: tensor<2x3xi32>, %[[XI64:[a-z0-9]+]]: tensor<2x3xi64>, %[[XI1:[a-z0-9]+]]: tensor<2x3xi1>)
// CHECK-NEXT:    %{{.*}} = rlx.ge %[[XF16]], %[[XF16]] : (tensor<2x3xf16>, tensor<2x3xf16>) -> tensor<2x3xi1>
// CHECK-NEXT:    %{{.*}} = rlx.ge %[[XBF16]], %[[XBF16]] : (tensor<2x3xbf16>, tensor<2x3xbf16>) -> tensor<2x3xi1>
// CHECK-NEXT:    %{{.*}} = rlx.ge %[[XF32]], %[[XF32]] : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xi1>
// CHECK-NEXT:    %{{.*}} = rlx.ge %[[XF64]], %[[XF64]] : (tensor<2x3xf64>, tensor<2x3xf64>) -> tensor<2x3xi1>
// CHECK-NEXT:    %{{.*}} = rlx.ge %[[XI8]], %[[XI8]] : (tensor<2x3xi8>, tensor<2x3xi8>) -> tensor<2x3xi1>
// CHECK-NEXT:    %{{.*}} = rlx.ge %[[XI16]], %[[XI16]] : (tensor<2x3xi16>, tensor<2x3xi16>) -> tensor<2x3xi1>
// CHECK-NEXT:    %{{.*}} = rlx.ge %[[XI32]], %[[XI32]] : (tensor<2x3xi32>, tensor<2x3xi32>) -> tensor<2x3xi1>
// CHECK-NEXT:    %{{.*}} = rlx.ge %[[XI64]], %[[XI64]] : (tensor<2x3xi64>, tensor<2x3xi64>) -> tensor<2x3xi1>
// CHECK-NEXT:    %{{.*}} = rlx.ge %[[XI1]], %[[XI1]] : (tensor<2x3xi1>, tensor<2x3xi1>) -> tensor<2x3xi1>
// CHECK-NEXT:    return
func.func @compare_ge_types(%xf16: tensor<2x3xf16>, %xbf16: tensor<2x3xbf16>, %xf32: tensor<2x3xf32>, %xf64: tensor<2x3xf64>, %xi8: tensor<2x3xi8>, %xi16: tensor<2x3xi16>, %xi32: tensor<2x3xi32>, %xi64: tensor<2x3xi64>, %xi1: tensor<2x3xi1>) {
  %0 = rlx.ge %xf16, %xf16 : (tensor<2x3xf16>, tensor<2x3xf16>) -> tensor<2x3xi1>
  %1 = rlx.ge %xbf16, %xbf16 : (tensor<2x3xbf16>, tensor<2x3xbf16>) -> tensor<2x3xi1>
  %2 = rlx.ge %xf32, %xf32 : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xi1>
  %3 = rlx.ge %xf64, %xf64 : (tensor<2x3xf64>, tensor<2x3xf64>) -> tensor<2x3xi1>
  %4 = rlx.ge %xi8, %xi8 : (tensor<2x3xi8>, tensor<2x3xi8>) -> tensor<2x3xi1>
  %5 = rlx.ge %xi16, %xi16 : (tensor<2x3xi16>, tensor<2x3xi16>) -> tensor<2x3xi1>
  %6 = rlx.ge %xi32, %xi32 : (tensor<2x3xi32>, tensor<2x3xi32>) -> tensor<2x3xi1>
  %7 = rlx.ge %xi64, %xi64 : (tensor<2x3xi64>, tensor<2x3xi64>) -> tensor<2x3xi1>
  %8 = rlx.ge %xi1, %xi1 : (tensor<2x3xi1>, tensor<2x3xi1>) -> tensor<2x3xi1>
  return
}

// CHECK-LABEL: func.func @compare_ge_broadcast(
// CHECK-SAME:    %[[L0:[a-z0-9]+]]: tensor<2x3xf32>, %[[R0:[a-z0-9]+]]: tensor<2x3xf32>, %[[L1:[a-z0-9]+]]: tensor<f32>, %[[R1:[a-z0-9]+]]: tensor<2x3xf32>, %[[L2:[a-z0-9]+]]: tensor<2x3xf32>, %[[R2:[a-z0-9]+]]: tensor<f32>, %[[L3:[a-z0-9]+]]: tensor<f32>, %[[R3:[a-z0-9]+]]: tensor<f32>, %[[L4:[a-z0-9]+]]: tensor<2x1xf32>, %[[R4:[a-z0-9]+]]: tensor<1x3xf32>, %[[L5:[a-z0-9]+]]: tensor<3xf32>, %[[R5:[a-z0-9]+]]: tensor<4x2x3xf32>, %[[L6:[a-z0-9]+]]: tensor<4x1x3xf32>, %[[R6:[a-z0-9]+]]: tensor<2x1xf32>, %[[L7:[a-z0-9]+]]: tensor<0x3xf32>, %[[R7:[a-z0-9]+]]: tensor<1x3xf32>, %[[L8:[a-z0-9]+]]: tensor<0x1xf32>, %[[R8:[a-z0-9]+]]: tensor<3xf32>, %[[L9:[a-z0-9]+]]: tensor<1x2x1x3x1x2xf32>, %[[R9:[a-z0-9]+]]: tensor<1x1x3x5x2xf32>)
// CHECK-NEXT:    %{{.*}} = rlx.ge %[[L0]], %[[R0]] : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xi1>
// CHECK-NEXT:    %{{.*}} = rlx.ge %[[L1]], %[[R1]] : (tensor<f32>, tensor<2x3xf32>) -> tensor<2x3xi1>
// CHECK-NEXT:    %{{.*}} = rlx.ge %[[L2]], %[[R2]] : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xi1>
// CHECK-NEXT:    %{{.*}} = rlx.ge %[[L3]], %[[R3]] : (tensor<f32>, tensor<f32>) -> tensor<i1>
// CHECK-NEXT:    %{{.*}} = rlx.ge %[[L4]], %[[R4]] : (tensor<2x1xf32>, tensor<1x3xf32>) -> tensor<2x3xi1>
// CHECK-NEXT:    %{{.*}} = rlx.ge %[[L5]], %[[R5]] : (tensor<3xf32>, tensor<4x2x3xf32>) -> tensor<4x2x3xi1>
// CHECK-NEXT:    %{{.*}} = rlx.ge %[[L6]], %[[R6]] : (tensor<4x1x3xf32>, tensor<2x1xf32>) -> tensor<4x2x3xi1>
// CHECK-NEXT:    %{{.*}} = rlx.ge %[[L7]], %[[R7]] : (tensor<0x3xf32>, tensor<1x3xf32>) -> tensor<0x3xi1>
// CHECK-NEXT:    %{{.*}} = rlx.ge %[[L8]], %[[R8]] : (tensor<0x1xf32>, tensor<3xf32>) -> tensor<0x3xi1>
// CHECK-NEXT:    %{{.*}} = rlx.ge %[[L9]], %[[R9]] : (tensor<1x2x1x3x1x2xf32>, tensor<1x1x3x5x2xf32>) -> tensor<1x2x1x3x5x2xi1>
// CHECK-NEXT:    return
func.func @compare_ge_broadcast(%l0: tensor<2x3xf32>, %r0: tensor<2x3xf32>, %l1: tensor<f32>, %r1: tensor<2x3xf32>, %l2: tensor<2x3xf32>, %r2: tensor<f32>, %l3: tensor<f32>, %r3: tensor<f32>, %l4: tensor<2x1xf32>, %r4: tensor<1x3xf32>, %l5: tensor<3xf32>, %r5: tensor<4x2x3xf32>, %l6: tensor<4x1x3xf32>, %r6: tensor<2x1xf32>, %l7: tensor<0x3xf32>, %r7: tensor<1x3xf32>, %l8: tensor<0x1xf32>, %r8: tensor<3xf32>, %l9: tensor<1x2x1x3x1x2xf32>, %r9: tensor<1x1x3x5x2xf32>) {
  %0 = rlx.ge %l0, %r0 : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xi1>
  %1 = rlx.ge %l1, %r1 : (tensor<f32>, tensor<2x3xf32>) -> tensor<2x3xi1>
  %2 = rlx.ge %l2, %r2 : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xi1>
  %3 = rlx.ge %l3, %r3 : (tensor<f32>, tensor<f32>) -> tensor<i1>
  %4 = rlx.ge %l4, %r4 : (tensor<2x1xf32>, tensor<1x3xf32>) -> tensor<2x3xi1>
  %5 = rlx.ge %l5, %r5 : (tensor<3xf32>, tensor<4x2x3xf32>) -> tensor<4x2x3xi1>
  %6 = rlx.ge %l6, %r6 : (tensor<4x1x3xf32>, tensor<2x1xf32>) -> tensor<4x2x3xi1>
  %7 = rlx.ge %l7, %r7 : (tensor<0x3xf32>, tensor<1x3xf32>) -> tensor<0x3xi1>
  %8 = rlx.ge %l8, %r8 : (tensor<0x1xf32>, tensor<3xf32>) -> tensor<0x3xi1>
  %9 = rlx.ge %l9, %r9 : (tensor<1x2x1x3x1x2xf32>, tensor<1x1x3x5x2xf32>) -> tensor<1x2x1x3x5x2xi1>
  return
}

//===----------------------------------------------------------------------===//
// where, fma
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @where_types(
// CHECK-SAME:    %[[C:[a-z0-9]+]]: tensor<2x3xi1>, %[[XF16:[a-z0-9]+]]: tensor<2x3xf16>, %[[XBF16:[a-z0-9]+]]: tensor<2x3xbf16>, %[[XF32:[a-z0-9]+]]: tensor<2x3xf32>, %[[XF64:[a-z0-9]+]]: tensor<2x3xf64>, %[[XI8:[a-z0-9]+]]: tensor<2x3xi8>, %[[XI16:[a-z0-9]+]]: tensor<2x3xi16>, %[[XI32:[a-z0-9]+]]: tensor<2x3xi32>, %[[XI64:[a-z0-9]+]]: tensor<2x3xi64>, %[[XI1:[a-z0-9]+]]: tensor<2x3xi1>)
// CHECK-NEXT:    %{{.*}} = rlx.where %[[C]], %[[XF16]], %[[XF16]] : (tensor<2x3xi1>, tensor<2x3xf16>, tensor<2x3xf16>) -> tensor<2x3xf16>
// CHECK-NEXT:    %{{.*}} = rlx.where %[[C]], %[[XBF16]], %[[XBF16]] : (tensor<2x3xi1>, tensor<2x3xbf16>, tensor<2x3xbf16>) -> tensor<2x3xbf16>
// CHECK-NEXT:    %{{.*}} = rlx.where %[[C]], %[[XF32]], %[[XF32]] : (tensor<2x3xi1>, tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT:    %{{.*}} = rlx.where %[[C]], %[[XF64]], %[[XF64]] : (tensor<2x3xi1>, tensor<2x3xf64>, tensor<2x3xf64>) -> tensor<2x3xf64>
// CHECK-NEXT:    %{{.*}} = rlx.where %[[C]], %[[XI8]], %[[XI8]] : (tensor<2x3xi1>, tensor<2x3xi8>, tensor<2x3xi8>) -> tensor<2x3xi8>
// CHECK-NEXT:    %{{.*}} = rlx.where %[[C]], %[[XI16]], %[[XI16]] : (tensor<2x3xi1>, tensor<2x3xi16>, tensor<2x3xi16>) -> tensor<2x3xi16>
// CHECK-NEXT:    %{{.*}} = rlx.where %[[C]], %[[XI32]], %[[XI32]] : (tensor<2x3xi1>, tensor<2x3xi32>, tensor<2x3xi32>) -> tensor<2x3xi32>
// CHECK-NEXT:    %{{.*}} = rlx.where %[[C]], %[[XI64]], %[[XI64]] : (tensor<2x3xi1>, tensor<2x3xi64>, tensor<2x3xi64>) -> tensor<2x3xi64>
// CHECK-NEXT:    %{{.*}} = rlx.where %[[C]], %[[XI1]], %[[XI1]] : (tensor<2x3xi1>, tensor<2x3xi1>, tensor<2x3xi1>) -> tensor<2x3xi1>
// CHECK-NEXT:    return
func.func @where_types(%c: tensor<2x3xi1>, %xf16: tensor<2x3xf16>, %xbf16: tensor<2x3xbf16>, %xf32: tensor<2x3xf32>, %xf64: tensor<2x3xf64>, %xi8: tensor<2x3xi8>, %xi16: tensor<2x3xi16>, %xi32: tensor<2x3xi32>, %xi64: tensor<2x3xi64>, %xi1: tensor<2x3xi1>) {
  %0 = rlx.where %c, %xf16, %xf16 : (tensor<2x3xi1>, tensor<2x3xf16>, tensor<2x3xf16>) -> tensor<2x3xf16>
  %1 = rlx.where %c, %xbf16, %xbf16 : (tensor<2x3xi1>, tensor<2x3xbf16>, tensor<2x3xbf16>) -> tensor<2x3xbf16>
  %2 = rlx.where %c, %xf32, %xf32 : (tensor<2x3xi1>, tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %3 = rlx.where %c, %xf64, %xf64 : (tensor<2x3xi1>, tensor<2x3xf64>, tensor<2x3xf64>) -> tensor<2x3xf64>
  %4 = rlx.where %c, %xi8, %xi8 : (tensor<2x3xi1>, tensor<2x3xi8>, tensor<2x3xi8>) -> tensor<2x3xi8>
  %5 = rlx.where %c, %xi16, %xi16 : (tensor<2x3xi1>, tensor<2x3xi16>, tensor<2x3xi16>) -> tensor<2x3xi16>
  %6 = rlx.where %c, %xi32, %xi32 : (tensor<2x3xi1>, tensor<2x3xi32>, tensor<2x3xi32>) -> tensor<2x3xi32>
  %7 = rlx.where %c, %xi64, %xi64 : (tensor<2x3xi1>, tensor<2x3xi64>, tensor<2x3xi64>) -> tensor<2x3xi64>
  %8 = rlx.where %c, %xi1, %xi1 : (tensor<2x3xi1>, tensor<2x3xi1>, tensor<2x3xi1>) -> tensor<2x3xi1>
  return
}

// CHECK-LABEL: func.func @where_broadcast(
// CHECK-SAME:    %[[C0:[a-z0-9]+]]: tensor<2x3xi1>, %[[T0:[a-z0-9]+]]: tensor<2x3xf32>, %[[F0:[a-z0-9]+]]: tensor<2x3xf32>, %[[C1:[a-z0-9]+]]: tensor<i1>, %[[T1:[a-z0-9]+]]: tensor<2x3xf32>, %[[F1:[a-z0-9]+]]: tensor<2x3xf32>, %[[C2:[a-z0-9]+]]: tensor<2x3xi1>, %[[T2:[a-z0-9]+]]: tensor<f32>, %[[F2:[a-z0-9]+]]: tensor<f32>, %[[C3:[a-z0-9]+]]: tensor<i1>, %[[T3:[a-z0-9]+]]: tensor<f32>, %[[F3:[a-z0-9]+]]: tensor<f32>, %[[C4:[a-z0-9]+]]: tensor<2x1xi1>, %[[T4:[a-z0-9]+]]: tensor<1x3xf32>, %[[F4:[a-z0-9]+]]: tensor<f32>, %[[C5:[a-z0-9]+]]: tensor<4x1x1xi1>, %[[T5:[a-z0-9]+]]: tensor<3x1xf32>, %[[F5:[a-z0-9]+]]: tensor<2xf32>, %[[C6:[a-z0-9]+]]: tensor<0x1xi1>, %[[T6:[a-z0-9]+]]: tensor<3xf32>, %[[F6:[a-z0-9]+]]: tensor<1x3xf32>, %[[C7:[a-z0-9]+]]: tensor<1x1x1x1x1x2xi1>, %[[T7:[a-z0-9]+]]: tensor<3x1x1x1x1xf32>, %[[F7:[a-z0-9]+]]: tensor<5x1x1x2xf32>)
// CHECK-NEXT:    %{{.*}} = rlx.where %[[C0]], %[[T0]], %[[F0]] : (tensor<2x3xi1>, tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT:    %{{.*}} = rlx.where %[[C1]], %[[T1]], %[[F1]] : (tensor<i1>, tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT:    %{{.*}} = rlx.where %[[C2]], %[[T2]], %[[F2]] : (tensor<2x3xi1>, tensor<f32>, tensor<f32>) -> tensor<2x3xf32>
// CHECK-NEXT:    %{{.*}} = rlx.where %[[C3]], %[[T3]], %[[F3]] : (tensor<i1>, tensor<f32>, tensor<f32>) -> tensor<f32>
// CHECK-NEXT:    %{{.*}} = rlx.where %[[C4]], %[[T4]], %[[F4]] : (tensor<2x1xi1>, tensor<1x3xf32>, tensor<f32>) -> tensor<2x3xf32>
// CHECK-NEXT:    %{{.*}} = rlx.where %[[C5]], %[[T5]], %[[F5]] : (tensor<4x1x1xi1>, tensor<3x1xf32>, tensor<2xf32>) -> tensor<4x3x2xf32>
// CHECK-NEXT:    %{{.*}} = rlx.where %[[C6]], %[[T6]], %[[F6]] : (tensor<0x1xi1>, tensor<3xf32>, tensor<1x3xf32>) -> tensor<0x3xf32>
// CHECK-NEXT:    %{{.*}} = rlx.where %[[C7]], %[[T7]], %[[F7]] : (tensor<1x1x1x1x1x2xi1>, tensor<3x1x1x1x1xf32>, tensor<5x1x1x2xf32>) -> tensor<1x3x5x1x1x2xf32>
// CHECK-NEXT:    return
func.func @where_broadcast(%c0: tensor<2x3xi1>, %t0: tensor<2x3xf32>, %f0: tensor<2x3xf32>, %c1: tensor<i1>, %t1: tensor<2x3xf32>, %f1: tensor<2x3xf32>, %c2: tensor<2x3xi1>, %t2: tensor<f32>, %f2: tensor<f32>, %c3: tensor<i1>, %t3: tensor<f32>, %f3: tensor<f32>, %c4: tensor<2x1xi1>, %t4: tensor<1x3xf32>, %f4: tensor<f32>, %c5: tensor<4x1x1xi1>, %t5: tensor<3x1xf32>, %f5: tensor<2xf32>, %c6: tensor<0x1xi1>, %t6: tensor<3xf32>, %f6: tensor<1x3xf32>, %c7: tensor<1x1x1x1x1x2xi1>, %t7: tensor<3x1x1x1x1xf32>, %f7: tensor<5x1x1x2xf32>) {
  %0 = rlx.where %c0, %t0, %f0 : (tensor<2x3xi1>, tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %1 = rlx.where %c1, %t1, %f1 : (tensor<i1>, tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %2 = rlx.where %c2, %t2, %f2 : (tensor<2x3xi1>, tensor<f32>, tensor<f32>) -> tensor<2x3xf32>
  %3 = rlx.where %c3, %t3, %f3 : (tensor<i1>, tensor<f32>, tensor<f32>) -> tensor<f32>
  %4 = rlx.where %c4, %t4, %f4 : (tensor<2x1xi1>, tensor<1x3xf32>, tensor<f32>) -> tensor<2x3xf32>
  %5 = rlx.where %c5, %t5, %f5 : (tensor<4x1x1xi1>, tensor<3x1xf32>, tensor<2xf32>) -> tensor<4x3x2xf32>
  %6 = rlx.where %c6, %t6, %f6 : (tensor<0x1xi1>, tensor<3xf32>, tensor<1x3xf32>) -> tensor<0x3xf32>
  %7 = rlx.where %c7, %t7, %f7 : (tensor<1x1x1x1x1x2xi1>, tensor<3x1x1x1x1xf32>, tensor<5x1x1x2xf32>) -> tensor<1x3x5x1x1x2xf32>
  return
}

// CHECK-LABEL: func.func @fma_types(
// CHECK-SAME:    %[[XF16:[a-z0-9]+]]: tensor<2x3xf16>, %[[XBF16:[a-z0-9]+]]: tensor<2x3xbf16>, %[[XF32:[a-z0-9]+]]: tensor<2x3xf32>, %[[XF64:[a-z0-9]+]]: tensor<2x3xf64>)
// CHECK-NEXT:    %{{.*}} = rlx.fma %[[XF16]], %[[XF16]], %[[XF16]] : (tensor<2x3xf16>, tensor<2x3xf16>, tensor<2x3xf16>) -> tensor<2x3xf16>
// CHECK-NEXT:    %{{.*}} = rlx.fma %[[XBF16]], %[[XBF16]], %[[XBF16]] : (tensor<2x3xbf16>, tensor<2x3xbf16>, tensor<2x3xbf16>) -> tensor<2x3xbf16>
// CHECK-NEXT:    %{{.*}} = rlx.fma %[[XF32]], %[[XF32]], %[[XF32]] : (tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT:    %{{.*}} = rlx.fma %[[XF64]], %[[XF64]], %[[XF64]] : (tensor<2x3xf64>, tensor<2x3xf64>, tensor<2x3xf64>) -> tensor<2x3xf64>
// CHECK-NEXT:    return
func.func @fma_types(%xf16: tensor<2x3xf16>, %xbf16: tensor<2x3xbf16>, %xf32: tensor<2x3xf32>, %xf64: tensor<2x3xf64>) {
  %0 = rlx.fma %xf16, %xf16, %xf16 : (tensor<2x3xf16>, tensor<2x3xf16>, tensor<2x3xf16>) -> tensor<2x3xf16>
  %1 = rlx.fma %xbf16, %xbf16, %xbf16 : (tensor<2x3xbf16>, tensor<2x3xbf16>, tensor<2x3xbf16>) -> tensor<2x3xbf16>
  %2 = rlx.fma %xf32, %xf32, %xf32 : (tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %3 = rlx.fma %xf64, %xf64, %xf64 : (tensor<2x3xf64>, tensor<2x3xf64>, tensor<2x3xf64>) -> tensor<2x3xf64>
  return
}

// CHECK-LABEL: func.func @fma_broadcast(
// CHECK-SAME:    %[[A0:[a-z0-9]+]]: tensor<2x3xf32>, %[[B0:[a-z0-9]+]]: tensor<2x3xf32>, %[[C0:[a-z0-9]+]]: tensor<2x3xf32>, %[[A1:[a-z0-9]+]]: tensor<f32>, %[[B1:[a-z0-9]+]]: tensor<2x3xf32>, %[[C1:[a-z0-9]+]]: tensor<2x3xf32>, %[[A2:[a-z0-9]+]]: tensor<2x3xf32>, %[[B2:[a-z0-9]+]]: tensor<f32>, %[[C2:[a-z0-9]+]]: tensor<f32>, %[[A3:[a-z0-9]+]]: tensor<f32>, %[[B3:[a-z0-9]+]]: tensor<f32>, %[[C3:[a-z0-9]+]]: tensor<f32>, %[[A4:[a-z0-9]+]]: tensor<2x1xf32>, %[[B4:[a-z0-9]+]]: tensor<1x3xf32>, %[[C4:[a-z0-9]+]]: tensor<f32>, %[[A5:[a-z0-9]+]]: tensor<4x1x1xf32>, %[[B5:[a-z0-9]+]]: tensor<3x1xf32>, %[[C5:[a-z0-9]+]]: tensor<2xf32>, %[[A6:[a-z0-9]+]]: tensor<0x1xf32>, %[[B6:[a-z0-9]+]]: tensor<3xf32>, %[[C6:[a-z0-9]+]]: tensor<1x3xf32>, %[[A7:[a-z0-9]+]]: tensor<1x1x1x1x1x2xf32>, %[[B7:[a-z0-9]+]]: tensor<3x1x1x1x1xf32>, %[[C7:[a-z0-9]+]]: tensor<5x1x1x2xf32>)
// CHECK-NEXT:    %{{.*}} = rlx.fma %[[A0]], %[[B0]], %[[C0]] : (tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT:    %{{.*}} = rlx.fma %[[A1]], %[[B1]], %[[C1]] : (tensor<f32>, tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT:    %{{.*}} = rlx.fma %[[A2]], %[[B2]], %[[C2]] : (tensor<2x3xf32>, tensor<f32>, tensor<f32>) -> tensor<2x3xf32>
// CHECK-NEXT:    %{{.*}} = rlx.fma %[[A3]], %[[B3]], %[[C3]] : (tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<f32>
// CHECK-NEXT:    %{{.*}} = rlx.fma %[[A4]], %[[B4]], %[[C4]] : (tensor<2x1xf32>, tensor<1x3xf32>, tensor<f32>) -> tensor<2x3xf32>
// CHECK-NEXT:    %{{.*}} = rlx.fma %[[A5]], %[[B5]], %[[C5]] : (tensor<4x1x1xf32>, tensor<3x1xf32>, tensor<2xf32>) -> tensor<4x3x2xf32>
// CHECK-NEXT:    %{{.*}} = rlx.fma %[[A6]], %[[B6]], %[[C6]] : (tensor<0x1xf32>, tensor<3xf32>, tensor<1x3xf32>) -> tensor<0x3xf32>
// CHECK-NEXT:    %{{.*}} = rlx.fma %[[A7]], %[[B7]], %[[C7]] : (tensor<1x1x1x1x1x2xf32>, tensor<3x1x1x1x1xf32>, tensor<5x1x1x2xf32>) -> tensor<1x3x5x1x1x2xf32>
// CHECK-NEXT:    return
func.func @fma_broadcast(%a0: tensor<2x3xf32>, %b0: tensor<2x3xf32>, %c0: tensor<2x3xf32>, %a1: tensor<f32>, %b1: tensor<2x3xf32>, %c1: tensor<2x3xf32>, %a2: tensor<2x3xf32>, %b2: tensor<f32>, %c2: tensor<f32>, %a3: tensor<f32>, %b3: tensor<f32>, %c3: tensor<f32>, %a4: tensor<2x1xf32>, %b4: tensor<1x3xf32>, %c4: tensor<f32>, %a5: tensor<4x1x1xf32>, %b5: tensor<3x1xf32>, %c5: tensor<2xf32>, %a6: tensor<0x1xf32>, %b6: tensor<3xf32>, %c6: tensor<1x3xf32>, %a7: tensor<1x1x1x1x1x2xf32>, %b7: tensor<3x1x1x1x1xf32>, %c7: tensor<5x1x1x2xf32>) {
  %0 = rlx.fma %a0, %b0, %c0 : (tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %1 = rlx.fma %a1, %b1, %c1 : (tensor<f32>, tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %2 = rlx.fma %a2, %b2, %c2 : (tensor<2x3xf32>, tensor<f32>, tensor<f32>) -> tensor<2x3xf32>
  %3 = rlx.fma %a3, %b3, %c3 : (tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<f32>
  %4 = rlx.fma %a4, %b4, %c4 : (tensor<2x1xf32>, tensor<1x3xf32>, tensor<f32>) -> tensor<2x3xf32>
  %5 = rlx.fma %a5, %b5, %c5 : (tensor<4x1x1xf32>, tensor<3x1xf32>, tensor<2xf32>) -> tensor<4x3x2xf32>
  %6 = rlx.fma %a6, %b6, %c6 : (tensor<0x1xf32>, tensor<3xf32>, tensor<1x3xf32>) -> tensor<0x3xf32>
  %7 = rlx.fma %a7, %b7, %c7 : (tensor<1x1x1x1x1x2xf32>, tensor<3x1x1x1x1xf32>, tensor<5x1x1x2xf32>) -> tensor<1x3x5x1x1x2xf32>
  return
}

//===----------------------------------------------------------------------===//
// cast: every source element type to every target element type
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @cast_from_f16(
// CHECK-SAME:    %[[X:[a-z0-9]+]]: tensor<2x3xf16>)
// CHECK-NEXT:    %{{.*}} = rlx.cast %[[X]] : tensor<2x3xf16> -> tensor<2x3xf16>
// CHECK-NEXT:    %{{.*}} = rlx.cast %[[X]] : tensor<2x3xf16> -> tensor<2x3xbf16>
// CHECK-NEXT:    %{{.*}} = rlx.cast %[[X]] : tensor<2x3xf16> -> tensor<2x3xf32>
// CHECK-NEXT:    %{{.*}} = rlx.cast %[[X]] : tensor<2x3xf16> -> tensor<2x3xf64>
// CHECK-NEXT:    %{{.*}} = rlx.cast %[[X]] : tensor<2x3xf16> -> tensor<2x3xi8>
// CHECK-NEXT:    %{{.*}} = rlx.cast %[[X]] : tensor<2x3xf16> -> tensor<2x3xi16>
// CHECK-NEXT:    %{{.*}} = rlx.cast %[[X]] : tensor<2x3xf16> -> tensor<2x3xi32>
// CHECK-NEXT:    %{{.*}} = rlx.cast %[[X]] : tensor<2x3xf16> -> tensor<2x3xi64>
// CHECK-NEXT:    %{{.*}} = rlx.cast %[[X]] : tensor<2x3xf16> -> tensor<2x3xi1>
// CHECK-NEXT:    return
func.func @cast_from_f16(%x: tensor<2x3xf16>) {
  %0 = rlx.cast %x : tensor<2x3xf16> -> tensor<2x3xf16>
  %1 = rlx.cast %x : tensor<2x3xf16> -> tensor<2x3xbf16>
  %2 = rlx.cast %x : tensor<2x3xf16> -> tensor<2x3xf32>
  %3 = rlx.cast %x : tensor<2x3xf16> -> tensor<2x3xf64>
  %4 = rlx.cast %x : tensor<2x3xf16> -> tensor<2x3xi8>
  %5 = rlx.cast %x : tensor<2x3xf16> -> tensor<2x3xi16>
  %6 = rlx.cast %x : tensor<2x3xf16> -> tensor<2x3xi32>
  %7 = rlx.cast %x : tensor<2x3xf16> -> tensor<2x3xi64>
  %8 = rlx.cast %x : tensor<2x3xf16> -> tensor<2x3xi1>
  return
}

// CHECK-LABEL: func.func @cast_from_bf16(
// CHECK-SAME:    %[[X:[a-z0-9]+]]: tensor<2x3xbf16>)
// CHECK-NEXT:    %{{.*}} = rlx.cast %[[X]] : tensor<2x3xbf16> -> tensor<2x3xf16>
// CHECK-NEXT:    %{{.*}} = rlx.cast %[[X]] : tensor<2x3xbf16> -> tensor<2x3xbf16>
// CHECK-NEXT:    %{{.*}} = rlx.cast %[[X]] : tensor<2x3xbf16> -> tensor<2x3xf32>
// CHECK-NEXT:    %{{.*}} = rlx.cast %[[X]] : tensor<2x3xbf16> -> tensor<2x3xf64>
// CHECK-NEXT:    %{{.*}} = rlx.cast %[[X]] : tensor<2x3xbf16> -> tensor<2x3xi8>
// CHECK-NEXT:    %{{.*}} = rlx.cast %[[X]] : tensor<2x3xbf16> -> tensor<2x3xi16>
// CHECK-NEXT:    %{{.*}} = rlx.cast %[[X]] : tensor<2x3xbf16> -> tensor<2x3xi32>
// CHECK-NEXT:    %{{.*}} = rlx.cast %[[X]] : tensor<2x3xbf16> -> tensor<2x3xi64>
// CHECK-NEXT:    %{{.*}} = rlx.cast %[[X]] : tensor<2x3xbf16> -> tensor<2x3xi1>
// CHECK-NEXT:    return
func.func @cast_from_bf16(%x: tensor<2x3xbf16>) {
  %0 = rlx.cast %x : tensor<2x3xbf16> -> tensor<2x3xf16>
  %1 = rlx.cast %x : tensor<2x3xbf16> -> tensor<2x3xbf16>
  %2 = rlx.cast %x : tensor<2x3xbf16> -> tensor<2x3xf32>
  %3 = rlx.cast %x : tensor<2x3xbf16> -> tensor<2x3xf64>
  %4 = rlx.cast %x : tensor<2x3xbf16> -> tensor<2x3xi8>
  %5 = rlx.cast %x : tensor<2x3xbf16> -> tensor<2x3xi16>
  %6 = rlx.cast %x : tensor<2x3xbf16> -> tensor<2x3xi32>
  %7 = rlx.cast %x : tensor<2x3xbf16> -> tensor<2x3xi64>
  %8 = rlx.cast %x : tensor<2x3xbf16> -> tensor<2x3xi1>
  return
}

// CHECK-LABEL: func.func @cast_from_f32(
// CHECK-SAME:    %[[X:[a-z0-9]+]]: tensor<2x3xf32>)
// CHECK-NEXT:    %{{.*}} = rlx.cast %[[X]] : tensor<2x3xf32> -> tensor<2x3xf16>
// CHECK-NEXT:    %{{.*}} = rlx.cast %[[X]] : tensor<2x3xf32> -> tensor<2x3xbf16>
// CHECK-NEXT:    %{{.*}} = rlx.cast %[[X]] : tensor<2x3xf32> -> tensor<2x3xf32>
// CHECK-NEXT:    %{{.*}} = rlx.cast %[[X]] : tensor<2x3xf32> -> tensor<2x3xf64>
// CHECK-NEXT:    %{{.*}} = rlx.cast %[[X]] : tensor<2x3xf32> -> tensor<2x3xi8>
// CHECK-NEXT:    %{{.*}} = rlx.cast %[[X]] : tensor<2x3xf32> -> tensor<2x3xi16>
// CHECK-NEXT:    %{{.*}} = rlx.cast %[[X]] : tensor<2x3xf32> -> tensor<2x3xi32>
// CHECK-NEXT:    %{{.*}} = rlx.cast %[[X]] : tensor<2x3xf32> -> tensor<2x3xi64>
// CHECK-NEXT:    %{{.*}} = rlx.cast %[[X]] : tensor<2x3xf32> -> tensor<2x3xi1>
// CHECK-NEXT:    return
func.func @cast_from_f32(%x: tensor<2x3xf32>) {
  %0 = rlx.cast %x : tensor<2x3xf32> -> tensor<2x3xf16>
  %1 = rlx.cast %x : tensor<2x3xf32> -> tensor<2x3xbf16>
  %2 = rlx.cast %x : tensor<2x3xf32> -> tensor<2x3xf32>
  %3 = rlx.cast %x : tensor<2x3xf32> -> tensor<2x3xf64>
  %4 = rlx.cast %x : tensor<2x3xf32> -> tensor<2x3xi8>
  %5 = rlx.cast %x : tensor<2x3xf32> -> tensor<2x3xi16>
  %6 = rlx.cast %x : tensor<2x3xf32> -> tensor<2x3xi32>
  %7 = rlx.cast %x : tensor<2x3xf32> -> tensor<2x3xi64>
  %8 = rlx.cast %x : tensor<2x3xf32> -> tensor<2x3xi1>
  return
}

// CHECK-LABEL: func.func @cast_from_f64(
// CHECK-SAME:    %[[X:[a-z0-9]+]]: tensor<2x3xf64>)
// CHECK-NEXT:    %{{.*}} = rlx.cast %[[X]] : tensor<2x3xf64> -> tensor<2x3xf16>
// CHECK-NEXT:    %{{.*}} = rlx.cast %[[X]] : tensor<2x3xf64> -> tensor<2x3xbf16>
// CHECK-NEXT:    %{{.*}} = rlx.cast %[[X]] : tensor<2x3xf64> -> tensor<2x3xf32>
// CHECK-NEXT:    %{{.*}} = rlx.cast %[[X]] : tensor<2x3xf64> -> tensor<2x3xf64>
// CHECK-NEXT:    %{{.*}} = rlx.cast %[[X]] : tensor<2x3xf64> -> tensor<2x3xi8>
// CHECK-NEXT:    %{{.*}} = rlx.cast %[[X]] : tensor<2x3xf64> -> tensor<2x3xi16>
// CHECK-NEXT:    %{{.*}} = rlx.cast %[[X]] : tensor<2x3xf64> -> tensor<2x3xi32>
// CHECK-NEXT:    %{{.*}} = rlx.cast %[[X]] : tensor<2x3xf64> -> tensor<2x3xi64>
// CHECK-NEXT:    %{{.*}} = rlx.cast %[[X]] : tensor<2x3xf64> -> tensor<2x3xi1>
// CHECK-NEXT:    return
func.func @cast_from_f64(%x: tensor<2x3xf64>) {
  %0 = rlx.cast %x : tensor<2x3xf64> -> tensor<2x3xf16>
  %1 = rlx.cast %x : tensor<2x3xf64> -> tensor<2x3xbf16>
  %2 = rlx.cast %x : tensor<2x3xf64> -> tensor<2x3xf32>
  %3 = rlx.cast %x : tensor<2x3xf64> -> tensor<2x3xf64>
  %4 = rlx.cast %x : tensor<2x3xf64> -> tensor<2x3xi8>
  %5 = rlx.cast %x : tensor<2x3xf64> -> tensor<2x3xi16>
  %6 = rlx.cast %x : tensor<2x3xf64> -> tensor<2x3xi32>
  %7 = rlx.cast %x : tensor<2x3xf64> -> tensor<2x3xi64>
  %8 = rlx.cast %x : tensor<2x3xf64> -> tensor<2x3xi1>
  return
}

// CHECK-LABEL: func.func @cast_from_i8(
// CHECK-SAME:    %[[X:[a-z0-9]+]]: tensor<2x3xi8>)
// CHECK-NEXT:    %{{.*}} = rlx.cast %[[X]] : tensor<2x3xi8> -> tensor<2x3xf16>
// CHECK-NEXT:    %{{.*}} = rlx.cast %[[X]] : tensor<2x3xi8> -> tensor<2x3xbf16>
// CHECK-NEXT:    %{{.*}} = rlx.cast %[[X]] : tensor<2x3xi8> -> tensor<2x3xf32>
// CHECK-NEXT:    %{{.*}} = rlx.cast %[[X]] : tensor<2x3xi8> -> tensor<2x3xf64>
// CHECK-NEXT:    %{{.*}} = rlx.cast %[[X]] : tensor<2x3xi8> -> tensor<2x3xi8>
// CHECK-NEXT:    %{{.*}} = rlx.cast %[[X]] : tensor<2x3xi8> -> tensor<2x3xi16>
// CHECK-NEXT:    %{{.*}} = rlx.cast %[[X]] : tensor<2x3xi8> -> tensor<2x3xi32>
// CHECK-NEXT:    %{{.*}} = rlx.cast %[[X]] : tensor<2x3xi8> -> tensor<2x3xi64>
// CHECK-NEXT:    %{{.*}} = rlx.cast %[[X]] : tensor<2x3xi8> -> tensor<2x3xi1>
// CHECK-NEXT:    return
func.func @cast_from_i8(%x: tensor<2x3xi8>) {
  %0 = rlx.cast %x : tensor<2x3xi8> -> tensor<2x3xf16>
  %1 = rlx.cast %x : tensor<2x3xi8> -> tensor<2x3xbf16>
  %2 = rlx.cast %x : tensor<2x3xi8> -> tensor<2x3xf32>
  %3 = rlx.cast %x : tensor<2x3xi8> -> tensor<2x3xf64>
  %4 = rlx.cast %x : tensor<2x3xi8> -> tensor<2x3xi8>
  %5 = rlx.cast %x : tensor<2x3xi8> -> tensor<2x3xi16>
  %6 = rlx.cast %x : tensor<2x3xi8> -> tensor<2x3xi32>
  %7 = rlx.cast %x : tensor<2x3xi8> -> tensor<2x3xi64>
  %8 = rlx.cast %x : tensor<2x3xi8> -> tensor<2x3xi1>
  return
}

// CHECK-LABEL: func.func @cast_from_i16(
// CHECK-SAME:    %[[X:[a-z0-9]+]]: tensor<2x3xi16>)
// CHECK-NEXT:    %{{.*}} = rlx.cast %[[X]] : tensor<2x3xi16> -> tensor<2x3xf16>
// CHECK-NEXT:    %{{.*}} = rlx.cast %[[X]] : tensor<2x3xi16> -> tensor<2x3xbf16>
// CHECK-NEXT:    %{{.*}} = rlx.cast %[[X]] : tensor<2x3xi16> -> tensor<2x3xf32>
// CHECK-NEXT:    %{{.*}} = rlx.cast %[[X]] : tensor<2x3xi16> -> tensor<2x3xf64>
// CHECK-NEXT:    %{{.*}} = rlx.cast %[[X]] : tensor<2x3xi16> -> tensor<2x3xi8>
// CHECK-NEXT:    %{{.*}} = rlx.cast %[[X]] : tensor<2x3xi16> -> tensor<2x3xi16>
// CHECK-NEXT:    %{{.*}} = rlx.cast %[[X]] : tensor<2x3xi16> -> tensor<2x3xi32>
// CHECK-NEXT:    %{{.*}} = rlx.cast %[[X]] : tensor<2x3xi16> -> tensor<2x3xi64>
// CHECK-NEXT:    %{{.*}} = rlx.cast %[[X]] : tensor<2x3xi16> -> tensor<2x3xi1>
// CHECK-NEXT:    return
func.func @cast_from_i16(%x: tensor<2x3xi16>) {
  %0 = rlx.cast %x : tensor<2x3xi16> -> tensor<2x3xf16>
  %1 = rlx.cast %x : tensor<2x3xi16> -> tensor<2x3xbf16>
  %2 = rlx.cast %x : tensor<2x3xi16> -> tensor<2x3xf32>
  %3 = rlx.cast %x : tensor<2x3xi16> -> tensor<2x3xf64>
  %4 = rlx.cast %x : tensor<2x3xi16> -> tensor<2x3xi8>
  %5 = rlx.cast %x : tensor<2x3xi16> -> tensor<2x3xi16>
  %6 = rlx.cast %x : tensor<2x3xi16> -> tensor<2x3xi32>
  %7 = rlx.cast %x : tensor<2x3xi16> -> tensor<2x3xi64>
  %8 = rlx.cast %x : tensor<2x3xi16> -> tensor<2x3xi1>
  return
}

// CHECK-LABEL: func.func @cast_from_i32(
// CHECK-SAME:    %[[X:[a-z0-9]+]]: tensor<2x3xi32>)
// CHECK-NEXT:    %{{.*}} = rlx.cast %[[X]] : tensor<2x3xi32> -> tensor<2x3xf16>
// CHECK-NEXT:    %{{.*}} = rlx.cast %[[X]] : tensor<2x3xi32> -> tensor<2x3xbf16>
// CHECK-NEXT:    %{{.*}} = rlx.cast %[[X]] : tensor<2x3xi32> -> tensor<2x3xf32>
// CHECK-NEXT:    %{{.*}} = rlx.cast %[[X]] : tensor<2x3xi32> -> tensor<2x3xf64>
// CHECK-NEXT:    %{{.*}} = rlx.cast %[[X]] : tensor<2x3xi32> -> tensor<2x3xi8>
// CHECK-NEXT:    %{{.*}} = rlx.cast %[[X]] : tensor<2x3xi32> -> tensor<2x3xi16>
// CHECK-NEXT:    %{{.*}} = rlx.cast %[[X]] : tensor<2x3xi32> -> tensor<2x3xi32>
// CHECK-NEXT:    %{{.*}} = rlx.cast %[[X]] : tensor<2x3xi32> -> tensor<2x3xi64>
// CHECK-NEXT:    %{{.*}} = rlx.cast %[[X]] : tensor<2x3xi32> -> tensor<2x3xi1>
// CHECK-NEXT:    return
func.func @cast_from_i32(%x: tensor<2x3xi32>) {
  %0 = rlx.cast %x : tensor<2x3xi32> -> tensor<2x3xf16>
  %1 = rlx.cast %x : tensor<2x3xi32> -> tensor<2x3xbf16>
  %2 = rlx.cast %x : tensor<2x3xi32> -> tensor<2x3xf32>
  %3 = rlx.cast %x : tensor<2x3xi32> -> tensor<2x3xf64>
  %4 = rlx.cast %x : tensor<2x3xi32> -> tensor<2x3xi8>
  %5 = rlx.cast %x : tensor<2x3xi32> -> tensor<2x3xi16>
  %6 = rlx.cast %x : tensor<2x3xi32> -> tensor<2x3xi32>
  %7 = rlx.cast %x : tensor<2x3xi32> -> tensor<2x3xi64>
  %8 = rlx.cast %x : tensor<2x3xi32> -> tensor<2x3xi1>
  return
}

// CHECK-LABEL: func.func @cast_from_i64(
// CHECK-SAME:    %[[X:[a-z0-9]+]]: tensor<2x3xi64>)
// CHECK-NEXT:    %{{.*}} = rlx.cast %[[X]] : tensor<2x3xi64> -> tensor<2x3xf16>
// CHECK-NEXT:    %{{.*}} = rlx.cast %[[X]] : tensor<2x3xi64> -> tensor<2x3xbf16>
// CHECK-NEXT:    %{{.*}} = rlx.cast %[[X]] : tensor<2x3xi64> -> tensor<2x3xf32>
// CHECK-NEXT:    %{{.*}} = rlx.cast %[[X]] : tensor<2x3xi64> -> tensor<2x3xf64>
// CHECK-NEXT:    %{{.*}} = rlx.cast %[[X]] : tensor<2x3xi64> -> tensor<2x3xi8>
// CHECK-NEXT:    %{{.*}} = rlx.cast %[[X]] : tensor<2x3xi64> -> tensor<2x3xi16>
// CHECK-NEXT:    %{{.*}} = rlx.cast %[[X]] : tensor<2x3xi64> -> tensor<2x3xi32>
// CHECK-NEXT:    %{{.*}} = rlx.cast %[[X]] : tensor<2x3xi64> -> tensor<2x3xi64>
// CHECK-NEXT:    %{{.*}} = rlx.cast %[[X]] : tensor<2x3xi64> -> tensor<2x3xi1>
// CHECK-NEXT:    return
func.func @cast_from_i64(%x: tensor<2x3xi64>) {
  %0 = rlx.cast %x : tensor<2x3xi64> -> tensor<2x3xf16>
  %1 = rlx.cast %x : tensor<2x3xi64> -> tensor<2x3xbf16>
  %2 = rlx.cast %x : tensor<2x3xi64> -> tensor<2x3xf32>
  %3 = rlx.cast %x : tensor<2x3xi64> -> tensor<2x3xf64>
  %4 = rlx.cast %x : tensor<2x3xi64> -> tensor<2x3xi8>
  %5 = rlx.cast %x : tensor<2x3xi64> -> tensor<2x3xi16>
  %6 = rlx.cast %x : tensor<2x3xi64> -> tensor<2x3xi32>
  %7 = rlx.cast %x : tensor<2x3xi64> -> tensor<2x3xi64>
  %8 = rlx.cast %x : tensor<2x3xi64> -> tensor<2x3xi1>
  return
}

// CHECK-LABEL: func.func @cast_from_i1(
// CHECK-SAME:    %[[X:[a-z0-9]+]]: tensor<2x3xi1>)
// CHECK-NEXT:    %{{.*}} = rlx.cast %[[X]] : tensor<2x3xi1> -> tensor<2x3xf16>
// CHECK-NEXT:    %{{.*}} = rlx.cast %[[X]] : tensor<2x3xi1> -> tensor<2x3xbf16>
// CHECK-NEXT:    %{{.*}} = rlx.cast %[[X]] : tensor<2x3xi1> -> tensor<2x3xf32>
// CHECK-NEXT:    %{{.*}} = rlx.cast %[[X]] : tensor<2x3xi1> -> tensor<2x3xf64>
// CHECK-NEXT:    %{{.*}} = rlx.cast %[[X]] : tensor<2x3xi1> -> tensor<2x3xi8>
// CHECK-NEXT:    %{{.*}} = rlx.cast %[[X]] : tensor<2x3xi1> -> tensor<2x3xi16>
// CHECK-NEXT:    %{{.*}} = rlx.cast %[[X]] : tensor<2x3xi1> -> tensor<2x3xi32>
// CHECK-NEXT:    %{{.*}} = rlx.cast %[[X]] : tensor<2x3xi1> -> tensor<2x3xi64>
// CHECK-NEXT:    %{{.*}} = rlx.cast %[[X]] : tensor<2x3xi1> -> tensor<2x3xi1>
// CHECK-NEXT:    return
func.func @cast_from_i1(%x: tensor<2x3xi1>) {
  %0 = rlx.cast %x : tensor<2x3xi1> -> tensor<2x3xf16>
  %1 = rlx.cast %x : tensor<2x3xi1> -> tensor<2x3xbf16>
  %2 = rlx.cast %x : tensor<2x3xi1> -> tensor<2x3xf32>
  %3 = rlx.cast %x : tensor<2x3xi1> -> tensor<2x3xf64>
  %4 = rlx.cast %x : tensor<2x3xi1> -> tensor<2x3xi8>
  %5 = rlx.cast %x : tensor<2x3xi1> -> tensor<2x3xi16>
  %6 = rlx.cast %x : tensor<2x3xi1> -> tensor<2x3xi32>
  %7 = rlx.cast %x : tensor<2x3xi1> -> tensor<2x3xi64>
  %8 = rlx.cast %x : tensor<2x3xi1> -> tensor<2x3xi1>
  return
}

// CHECK-LABEL: func.func @cast_shapes(
// CHECK-SAME:    %[[A:[a-z0-9]+]]: tensor<f32>, %[[B:[a-z0-9]+]]: tensor<0x4xi1>, %[[C:[a-z0-9]+]]: tensor<1x2x1x2x1x2xbf16>)
// CHECK-NEXT:    %{{.*}} = rlx.cast %[[A]] : tensor<f32> -> tensor<i64>
// CHECK-NEXT:    %{{.*}} = rlx.cast %[[B]] : tensor<0x4xi1> -> tensor<0x4xf16>
// CHECK-NEXT:    %{{.*}} = rlx.cast %[[C]] : tensor<1x2x1x2x1x2xbf16> -> tensor<1x2x1x2x1x2xi8>
// CHECK-NEXT:    return
func.func @cast_shapes(%a: tensor<f32>, %b: tensor<0x4xi1>, %c: tensor<1x2x1x2x1x2xbf16>) {
  %0 = rlx.cast %a : tensor<f32> -> tensor<i64>
  %1 = rlx.cast %b : tensor<0x4xi1> -> tensor<0x4xf16>
  %2 = rlx.cast %c : tensor<1x2x1x2x1x2xbf16> -> tensor<1x2x1x2x1x2xi8>
  return
}

// CHECK-LABEL: func.func @stop_gradient_types(
// CHECK-SAME:    %[[XF16:[a-z0-9]+]]: tensor<2x3xf16>, %[[XBF16:[a-z0-9]+]]: tensor<2x3xbf16>, %[[XF32:[a-z0-9]+]]: tensor<2x3xf32>, %[[XF64:[a-z0-9]+]]: tensor<2x3xf64>, %[[XI8:[a-z0-9]+]]: tensor<2x3xi8>, %[[XI16:[a-z0-9]+]]: tensor<2x3xi16>, %[[XI32:[a-z0-9]+]]: tensor<2x3xi32>, %[[XI64:[a-z0-9]+]]: tensor<2x3xi64>, %[[XI1:[a-z0-9]+]]: tensor<2x3xi1>, %[[R0:[a-z0-9]+]]: tensor<f32>, %[[Z:[a-z0-9]+]]: tensor<0x2xf32>, %[[R6:[a-z0-9]+]]: tensor<1x2x1x2x1x2xf16>)
// CHECK-NEXT:    %{{.*}} = rlx.stop_gradient %[[XF16]] : tensor<2x3xf16>
// CHECK-NEXT:    %{{.*}} = rlx.stop_gradient %[[XBF16]] : tensor<2x3xbf16>
// CHECK-NEXT:    %{{.*}} = rlx.stop_gradient %[[XF32]] : tensor<2x3xf32>
// CHECK-NEXT:    %{{.*}} = rlx.stop_gradient %[[XF64]] : tensor<2x3xf64>
// CHECK-NEXT:    %{{.*}} = rlx.stop_gradient %[[XI8]] : tensor<2x3xi8>
// CHECK-NEXT:    %{{.*}} = rlx.stop_gradient %[[XI16]] : tensor<2x3xi16>
// CHECK-NEXT:    %{{.*}} = rlx.stop_gradient %[[XI32]] : tensor<2x3xi32>
// CHECK-NEXT:    %{{.*}} = rlx.stop_gradient %[[XI64]] : tensor<2x3xi64>
// CHECK-NEXT:    %{{.*}} = rlx.stop_gradient %[[XI1]] : tensor<2x3xi1>
// CHECK-NEXT:    %{{.*}} = rlx.stop_gradient %[[R0]] : tensor<f32>
// CHECK-NEXT:    %{{.*}} = rlx.stop_gradient %[[Z]] : tensor<0x2xf32>
// CHECK-NEXT:    %{{.*}} = rlx.stop_gradient %[[R6]] : tensor<1x2x1x2x1x2xf16>
// CHECK-NEXT:    return
func.func @stop_gradient_types(%xf16: tensor<2x3xf16>, %xbf16: tensor<2x3xbf16>, %xf32: tensor<2x3xf32>, %xf64: tensor<2x3xf64>, %xi8: tensor<2x3xi8>, %xi16: tensor<2x3xi16>, %xi32: tensor<2x3xi32>, %xi64: tensor<2x3xi64>, %xi1: tensor<2x3xi1>, %r0: tensor<f32>, %z: tensor<0x2xf32>, %r6: tensor<1x2x1x2x1x2xf16>) {
  %0 = rlx.stop_gradient %xf16 : tensor<2x3xf16>
  %1 = rlx.stop_gradient %xbf16 : tensor<2x3xbf16>
  %2 = rlx.stop_gradient %xf32 : tensor<2x3xf32>
  %3 = rlx.stop_gradient %xf64 : tensor<2x3xf64>
  %4 = rlx.stop_gradient %xi8 : tensor<2x3xi8>
  %5 = rlx.stop_gradient %xi16 : tensor<2x3xi16>
  %6 = rlx.stop_gradient %xi32 : tensor<2x3xi32>
  %7 = rlx.stop_gradient %xi64 : tensor<2x3xi64>
  %8 = rlx.stop_gradient %xi1 : tensor<2x3xi1>
  %9 = rlx.stop_gradient %r0 : tensor<f32>
  %10 = rlx.stop_gradient %z : tensor<0x2xf32>
  %11 = rlx.stop_gradient %r6 : tensor<1x2x1x2x1x2xf16>
  return
}

//===----------------------------------------------------------------------===//
// matmul
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @matmul_types(
// CHECK-SAME:    %[[LF16:[a-z0-9]+]]: tensor<2x3xf16>, %[[LBF16:[a-z0-9]+]]: tensor<2x3xbf16>, %[[LF32:[a-z0-9]+]]: tensor<2x3xf32>, %[[LF64:[a-z0-9]+]]: tensor<2x3xf64>, %[[LI8:[a-z0-9]+]]: tensor<2x3xi8>, %[[LI16:[a-z0-9]+]]: tensor<2x3xi16>, %[[LI32:[a-z0-9]+]]: tensor<2x3xi32>, %[[LI64:[a-z0-9]+]]: tensor<2x3xi64>, %[[RF16:[a-z0-9]+]]: tensor<3x4xf16>, %[[RBF16:[a-z0-9]+]]: tensor<3x4xbf16>, %[[RF32:[a-z0-9]+]]: tensor<3x4xf32>, %[[RF64:[a-z0-9]+]]: tensor<3x4xf64>, %[[RI8:[a-z0-9]+]]: tensor<3x4xi8>, %[[RI16:[a-z0-9]+]]: tensor<3x4xi16>, %[[RI32:[a-z0-9]+]]: tensor<3x4xi32>, %[[RI64:[a-z0-9]+]]: tensor<3x4xi64>)
// CHECK-NEXT:    %{{.*}} = rlx.matmul %[[LF16]], %[[RF16]] : (tensor<2x3xf16>, tensor<3x4xf16>) -> tensor<2x4xf16>
// CHECK-NEXT:    %{{.*}} = rlx.matmul %[[LBF16]], %[[RBF16]] : (tensor<2x3xbf16>, tensor<3x4xbf16>) -> tensor<2x4xbf16>
// CHECK-NEXT:    %{{.*}} = rlx.matmul %[[LF32]], %[[RF32]] : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
// CHECK-NEXT:    %{{.*}} = rlx.matmul %[[LF64]], %[[RF64]] : (tensor<2x3xf64>, tensor<3x4xf64>) -> tensor<2x4xf64>
// CHECK-NEXT:    %{{.*}} = rlx.matmul %[[LI8]], %[[RI8]] : (tensor<2x3xi8>, tensor<3x4xi8>) -> tensor<2x4xi8>
// CHECK-NEXT:    %{{.*}} = rlx.matmul %[[LI16]], %[[RI16]] : (tensor<2x3xi16>, tensor<3x4xi16>) -> tensor<2x4xi16>
// CHECK-NEXT:    %{{.*}} = rlx.matmul %[[LI32]], %[[RI32]] : (tensor<2x3xi32>, tensor<3x4xi32>) -> tensor<2x4xi32>
// CHECK-NEXT:    %{{.*}} = rlx.matmul %[[LI64]], %[[RI64]] : (tensor<2x3xi64>, tensor<3x4xi64>) -> tensor<2x4xi64>
// CHECK-NEXT:    return
func.func @matmul_types(%lf16: tensor<2x3xf16>, %lbf16: tensor<2x3xbf16>, %lf32: tensor<2x3xf32>, %lf64: tensor<2x3xf64>, %li8: tensor<2x3xi8>, %li16: tensor<2x3xi16>, %li32: tensor<2x3xi32>, %li64: tensor<2x3xi64>, %rf16: tensor<3x4xf16>, %rbf16: tensor<3x4xbf16>, %rf32: tensor<3x4xf32>, %rf64: tensor<3x4xf64>, %ri8: tensor<3x4xi8>, %ri16: tensor<3x4xi16>, %ri32: tensor<3x4xi32>, %ri64: tensor<3x4xi64>) {
  %0 = rlx.matmul %lf16, %rf16 : (tensor<2x3xf16>, tensor<3x4xf16>) -> tensor<2x4xf16>
  %1 = rlx.matmul %lbf16, %rbf16 : (tensor<2x3xbf16>, tensor<3x4xbf16>) -> tensor<2x4xbf16>
  %2 = rlx.matmul %lf32, %rf32 : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  %3 = rlx.matmul %lf64, %rf64 : (tensor<2x3xf64>, tensor<3x4xf64>) -> tensor<2x4xf64>
  %4 = rlx.matmul %li8, %ri8 : (tensor<2x3xi8>, tensor<3x4xi8>) -> tensor<2x4xi8>
  %5 = rlx.matmul %li16, %ri16 : (tensor<2x3xi16>, tensor<3x4xi16>) -> tensor<2x4xi16>
  %6 = rlx.matmul %li32, %ri32 : (tensor<2x3xi32>, tensor<3x4xi32>) -> tensor<2x4xi32>
  %7 = rlx.matmul %li64, %ri64 : (tensor<2x3xi64>, tensor<3x4xi64>) -> tensor<2x4xi64>
  return
}

// CHECK-LABEL: func.func @matmul_shapes(
// CHECK-SAME:    %[[L0:[a-z0-9]+]]: tensor<2x3xf32>, %[[R0:[a-z0-9]+]]: tensor<3x4xf32>, %[[L1:[a-z0-9]+]]: tensor<5x2x3xf32>, %[[R1:[a-z0-9]+]]: tensor<5x3x4xf32>, %[[L2:[a-z0-9]+]]: tensor<1x2x3xf32>, %[[R2:[a-z0-9]+]]: tensor<5x3x4xf32>, %[[L3:[a-z0-9]+]]: tensor<5x2x3xf32>, %[[R3:[a-z0-9]+]]: tensor<3x4xf32>, %[[L4:[a-z0-9]+]]: tensor<2x3xf32>, %[[R4:[a-z0-9]+]]: tensor<6x5x3x4xf32>, %[[L5:[a-z0-9]+]]: tensor<6x1x2x3xf32>, %[[R5:[a-z0-9]+]]: tensor<5x3x4xf32>, %[[L6:[a-z0-9]+]]: tensor<1x2x1x7x2x3xf32>, %[[R6:[a-z0-9]+]]: tensor<3x1x3x4xf32>, %[[L7:[a-z0-9]+]]: tensor<0x3xf32>, %[[R7:[a-z0-9]+]]: tensor<3x4xf32>, %[[L8:[a-z0-9]+]]: tensor<2x0xf32>, %[[R8:[a-z0-9]+]]: tensor<0x4xf32>, %[[L9:[a-z0-9]+]]: tensor<0x2x3xf32>, %[[R9:[a-z0-9]+]]: tensor<1x3x0xf32>, %[[L10:[a-z0-9]+]]: tensor<1x1xf32>, %[[R10:[a-z0-9]+]]: tensor<1x1xf32>)
// CHECK-NEXT:    %{{.*}} = rlx.matmul %[[L0]], %[[R0]] : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
// CHECK-NEXT:    %{{.*}} = rlx.matmul %[[L1]], %[[R1]] : (tensor<5x2x3xf32>, tensor<5x3x4xf32>) -> tensor<5x2x4xf32>
// CHECK-NEXT:    %{{.*}} = rlx.matmul %[[L2]], %[[R2]] : (tensor<1x2x3xf32>, tensor<5x3x4xf32>) -> tensor<5x2x4xf32>
// CHECK-NEXT:    %{{.*}} = rlx.matmul %[[L3]], %[[R3]] : (tensor<5x2x3xf32>, tensor<3x4xf32>) -> tensor<5x2x4xf32>
// CHECK-NEXT:    %{{.*}} = rlx.matmul %[[L4]], %[[R4]] : (tensor<2x3xf32>, tensor<6x5x3x4xf32>) -> tensor<6x5x2x4xf32>
// CHECK-NEXT:    %{{.*}} = rlx.matmul %[[L5]], %[[R5]] : (tensor<6x1x2x3xf32>, tensor<5x3x4xf32>) -> tensor<6x5x2x4xf32>
// CHECK-NEXT:    %{{.*}} = rlx.matmul %[[L6]], %[[R6]] : (tensor<1x2x1x7x2x3xf32>, tensor<3x1x3x4xf32>) -> tensor<1x2x3x7x2x4xf32>
// CHECK-NEXT:    %{{.*}} = rlx.matmul %[[L7]], %[[R7]] : (tensor<0x3xf32>, tensor<3x4xf32>) -> tensor<0x4xf32>
// CHECK-NEXT:    %{{.*}} = rlx.matmul %[[L8]], %[[R8]] : (tensor<2x0xf32>, tensor<0x4xf32>) -> tensor<2x4xf32>
// CHECK-NEXT:    %{{.*}} = rlx.matmul %[[L9]], %[[R9]] : (tensor<0x2x3xf32>, tensor<1x3x0xf32>) -> tensor<0x2x0xf32>
// CHECK-NEXT:    %{{.*}} = rlx.matmul %[[L10]], %[[R10]] : (tensor<1x1xf32>, tensor<1x1xf32>) -> tensor<1x1xf32>
// CHECK-NEXT:    return
func.func @matmul_shapes(%l0: tensor<2x3xf32>, %r0: tensor<3x4xf32>, %l1: tensor<5x2x3xf32>, %r1: tensor<5x3x4xf32>, %l2: tensor<1x2x3xf32>, %r2: tensor<5x3x4xf32>, %l3: tensor<5x2x3xf32>, %r3: tensor<3x4xf32>, %l4: tensor<2x3xf32>, %r4: tensor<6x5x3x4xf32>, %l5: tensor<6x1x2x3xf32>, %r5: tensor<5x3x4xf32>, %l6: tensor<1x2x1x7x2x3xf32>, %r6: tensor<3x1x3x4xf32>, %l7: tensor<0x3xf32>, %r7: tensor<3x4xf32>, %l8: tensor<2x0xf32>, %r8: tensor<0x4xf32>, %l9: tensor<0x2x3xf32>, %r9: tensor<1x3x0xf32>, %l10: tensor<1x1xf32>, %r10: tensor<1x1xf32>) {
  %0 = rlx.matmul %l0, %r0 : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  %1 = rlx.matmul %l1, %r1 : (tensor<5x2x3xf32>, tensor<5x3x4xf32>) -> tensor<5x2x4xf32>
  %2 = rlx.matmul %l2, %r2 : (tensor<1x2x3xf32>, tensor<5x3x4xf32>) -> tensor<5x2x4xf32>
  %3 = rlx.matmul %l3, %r3 : (tensor<5x2x3xf32>, tensor<3x4xf32>) -> tensor<5x2x4xf32>
  %4 = rlx.matmul %l4, %r4 : (tensor<2x3xf32>, tensor<6x5x3x4xf32>) -> tensor<6x5x2x4xf32>
  %5 = rlx.matmul %l5, %r5 : (tensor<6x1x2x3xf32>, tensor<5x3x4xf32>) -> tensor<6x5x2x4xf32>
  %6 = rlx.matmul %l6, %r6 : (tensor<1x2x1x7x2x3xf32>, tensor<3x1x3x4xf32>) -> tensor<1x2x3x7x2x4xf32>
  %7 = rlx.matmul %l7, %r7 : (tensor<0x3xf32>, tensor<3x4xf32>) -> tensor<0x4xf32>
  %8 = rlx.matmul %l8, %r8 : (tensor<2x0xf32>, tensor<0x4xf32>) -> tensor<2x4xf32>
  %9 = rlx.matmul %l9, %r9 : (tensor<0x2x3xf32>, tensor<1x3x0xf32>) -> tensor<0x2x0xf32>
  %10 = rlx.matmul %l10, %r10 : (tensor<1x1xf32>, tensor<1x1xf32>) -> tensor<1x1xf32>
  return
}

//===----------------------------------------------------------------------===//
// reduce
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @reduce_sum(
// CHECK-SAME:    %[[XF16:[a-z0-9]+]]: tensor<2x3x4xf16>, %[[XBF16:[a-z0-9]+]]: tensor<2x3x4xbf16>, %[[XF32:[a-z0-9]+]]: tensor<2x3x4xf32>, %[[XF64:[a-z0-9]+]]: tensor<2x3x4xf64>, %[[XI8:[a-z0-9]+]]: tensor<2x3x4xi8>, %[[XI16:[a-z0-9]+]]: tensor<2x3x4xi16>, %[[XI32:[a-z0-9]+]]: tensor<2x3x4xi32>, %[[XI64:[a-z0-9]+]]: tensor<2x3x4xi64>, %[[Z:[a-z0-9]+]]: tensor<0x3xf32>, %[[R6:[a-z0-9]+]]: tensor<2x1x3x1x2x5xf32>)
// CHECK-NEXT:    %{{.*}} = rlx.reduce sum %[[XF16]] axes = [1] : tensor<2x3x4xf16> -> tensor<2x4xf16>
// CHECK-NEXT:    %{{.*}} = rlx.reduce sum %[[XBF16]] axes = [1] : tensor<2x3x4xbf16> -> tensor<2x4xbf16>
// CHECK-NEXT:    %{{.*}} = rlx.reduce sum %[[XF32]] axes = [1] : tensor<2x3x4xf32> -> tensor<2x4xf32>
// CHECK-NEXT:    %{{.*}} = rlx.reduce sum %[[XF64]] axes = [1] : tensor<2x3x4xf64> -> tensor<2x4xf64>
// CHECK-NEXT:    %{{.*}} = rlx.reduce sum %[[XI8]] axes = [1] : tensor<2x3x4xi8> -> tensor<2x4xi8>
// CHECK-NEXT:    %{{.*}} = rlx.reduce sum %[[XI16]] axes = [1] : tensor<2x3x4xi16> -> tensor<2x4xi16>
// CHECK-NEXT:    %{{.*}} = rlx.reduce sum %[[XI32]] axes = [1] : tensor<2x3x4xi32> -> tensor<2x4xi32>
// CHECK-NEXT:    %{{.*}} = rlx.reduce sum %[[XI64]] axes = [1] : tensor<2x3x4xi64> -> tensor<2x4xi64>
// CHECK-NEXT:    %{{.*}} = rlx.reduce sum %[[XF32]] axes = [1] keep_dim : tensor<2x3x4xf32> -> tensor<2x1x4xf32>
// CHECK-NEXT:    %{{.*}} = rlx.reduce sum %[[XF32]] axes = [-1] : tensor<2x3x4xf32> -> tensor<2x3xf32>
// CHECK-NEXT:    %{{.*}} = rlx.reduce sum %[[XF32]] axes = [-1, 0] keep_dim : tensor<2x3x4xf32> -> tensor<1x3x1xf32>
// CHECK-NEXT:    %{{.*}} = rlx.reduce sum %[[XF32]] axes = [2, 0, 1] : tensor<2x3x4xf32> -> tensor<f32>
// CHECK-NEXT:    %{{.*}} = rlx.reduce sum %[[XF32]] axes = [0, 1, 2] keep_dim : tensor<2x3x4xf32> -> tensor<1x1x1xf32>
// CHECK-NEXT:    %{{.*}} = rlx.reduce sum %[[XF32]] axes = [-3] : tensor<2x3x4xf32> -> tensor<3x4xf32>
// CHECK-NEXT:    %{{.*}} = rlx.reduce sum %[[Z]] axes = [0] : tensor<0x3xf32> -> tensor<3xf32>
// CHECK-NEXT:    %{{.*}} = rlx.reduce sum %[[Z]] axes = [1] keep_dim : tensor<0x3xf32> -> tensor<0x1xf32>
// CHECK-NEXT:    %{{.*}} = rlx.reduce sum %[[R6]] axes = [5, -4, 0] : tensor<2x1x3x1x2x5xf32> -> tensor<1x1x2xf32>
// CHECK-NEXT:    return
func.func @reduce_sum(%xf16: tensor<2x3x4xf16>, %xbf16: tensor<2x3x4xbf16>, %xf32: tensor<2x3x4xf32>, %xf64: tensor<2x3x4xf64>, %xi8: tensor<2x3x4xi8>, %xi16: tensor<2x3x4xi16>, %xi32: tensor<2x3x4xi32>, %xi64: tensor<2x3x4xi64>, %z: tensor<0x3xf32>, %r6: tensor<2x1x3x1x2x5xf32>) {
  %0 = rlx.reduce sum %xf16 axes = [1] : tensor<2x3x4xf16> -> tensor<2x4xf16>
  %1 = rlx.reduce sum %xbf16 axes = [1] : tensor<2x3x4xbf16> -> tensor<2x4xbf16>
  %2 = rlx.reduce sum %xf32 axes = [1] : tensor<2x3x4xf32> -> tensor<2x4xf32>
  %3 = rlx.reduce sum %xf64 axes = [1] : tensor<2x3x4xf64> -> tensor<2x4xf64>
  %4 = rlx.reduce sum %xi8 axes = [1] : tensor<2x3x4xi8> -> tensor<2x4xi8>
  %5 = rlx.reduce sum %xi16 axes = [1] : tensor<2x3x4xi16> -> tensor<2x4xi16>
  %6 = rlx.reduce sum %xi32 axes = [1] : tensor<2x3x4xi32> -> tensor<2x4xi32>
  %7 = rlx.reduce sum %xi64 axes = [1] : tensor<2x3x4xi64> -> tensor<2x4xi64>
  %8 = rlx.reduce sum %xf32 axes = [1] keep_dim : tensor<2x3x4xf32> -> tensor<2x1x4xf32>
  %9 = rlx.reduce sum %xf32 axes = [-1] : tensor<2x3x4xf32> -> tensor<2x3xf32>
  %10 = rlx.reduce sum %xf32 axes = [-1, 0] keep_dim : tensor<2x3x4xf32> -> tensor<1x3x1xf32>
  %11 = rlx.reduce sum %xf32 axes = [2, 0, 1] : tensor<2x3x4xf32> -> tensor<f32>
  %12 = rlx.reduce sum %xf32 axes = [0, 1, 2] keep_dim : tensor<2x3x4xf32> -> tensor<1x1x1xf32>
  %13 = rlx.reduce sum %xf32 axes = [-3] : tensor<2x3x4xf32> -> tensor<3x4xf32>
  %14 = rlx.reduce sum %z axes = [0] : tensor<0x3xf32> -> tensor<3xf32>
  %15 = rlx.reduce sum %z axes = [1] keep_dim : tensor<0x3xf32> -> tensor<0x1xf32>
  %16 = rlx.reduce sum %r6 axes = [5, -4, 0] : tensor<2x1x3x1x2x5xf32> -> tensor<1x1x2xf32>
  return
}

// CHECK-LABEL: func.func @reduce_mean(
// CHECK-SAME:    %[[XF16:[a-z0-9]+]]: tensor<2x3x4xf16>, %[[XBF16:[a-z0-9]+]]: tensor<2x3x4xbf16>, %[[XF32:[a-z0-9]+]]: tensor<2x3x4xf32>, %[[XF64:[a-z0-9]+]]: tensor<2x3x4xf64>, %[[Z:[a-z0-9]+]]: tensor<0x3xf32>, %[[R6:[a-z0-9]+]]: tensor<2x1x3x1x2x5xf32>)
// CHECK-NEXT:    %{{.*}} = rlx.reduce mean %[[XF16]] axes = [1] : tensor<2x3x4xf16> -> tensor<2x4xf16>
// CHECK-NEXT:    %{{.*}} = rlx.reduce mean %[[XBF16]] axes = [1] : tensor<2x3x4xbf16> -> tensor<2x4xbf16>
// CHECK-NEXT:    %{{.*}} = rlx.reduce mean %[[XF32]] axes = [1] : tensor<2x3x4xf32> -> tensor<2x4xf32>
// CHECK-NEXT:    %{{.*}} = rlx.reduce mean %[[XF64]] axes = [1] : tensor<2x3x4xf64> -> tensor<2x4xf64>
// CHECK-NEXT:    %{{.*}} = rlx.reduce mean %[[XF32]] axes = [1] keep_dim : tensor<2x3x4xf32> -> tensor<2x1x4xf32>
// CHECK-NEXT:    %{{.*}} = rlx.reduce mean %[[XF32]] axes = [-1] : tensor<2x3x4xf32> -> tensor<2x3xf32>
// CHECK-NEXT:    %{{.*}} = rlx.reduce mean %[[XF32]] axes = [-1, 0] keep_dim : tensor<2x3x4xf32> -> tensor<1x3x1xf32>
// CHECK-NEXT:    %{{.*}} = rlx.reduce mean %[[XF32]] axes = [2, 0, 1] : tensor<2x3x4xf32> -> tensor<f32>
// CHECK-NEXT:    %{{.*}} = rlx.reduce mean %[[XF32]] axes = [0, 1, 2] keep_dim : tensor<2x3x4xf32> -> tensor<1x1x1xf32>
// CHECK-NEXT:    %{{.*}} = rlx.reduce mean %[[XF32]] axes = [-3] : tensor<2x3x4xf32> -> tensor<3x4xf32>
// CHECK-NEXT:    %{{.*}} = rlx.reduce mean %[[Z]] axes = [0] : tensor<0x3xf32> -> tensor<3xf32>
// CHECK-NEXT:    %{{.*}} = rlx.reduce mean %[[Z]] axes = [1] keep_dim : tensor<0x3xf32> -> tensor<0x1xf32>
// CHECK-NEXT:    %{{.*}} = rlx.reduce mean %[[R6]] axes = [5, -4, 0] : tensor<2x1x3x1x2x5xf32> -> tensor<1x1x2xf32>
// CHECK-NEXT:    return
func.func @reduce_mean(%xf16: tensor<2x3x4xf16>, %xbf16: tensor<2x3x4xbf16>, %xf32: tensor<2x3x4xf32>, %xf64: tensor<2x3x4xf64>, %z: tensor<0x3xf32>, %r6: tensor<2x1x3x1x2x5xf32>) {
  %0 = rlx.reduce mean %xf16 axes = [1] : tensor<2x3x4xf16> -> tensor<2x4xf16>
  %1 = rlx.reduce mean %xbf16 axes = [1] : tensor<2x3x4xbf16> -> tensor<2x4xbf16>
  %2 = rlx.reduce mean %xf32 axes = [1] : tensor<2x3x4xf32> -> tensor<2x4xf32>
  %3 = rlx.reduce mean %xf64 axes = [1] : tensor<2x3x4xf64> -> tensor<2x4xf64>
  %4 = rlx.reduce mean %xf32 axes = [1] keep_dim : tensor<2x3x4xf32> -> tensor<2x1x4xf32>
  %5 = rlx.reduce mean %xf32 axes = [-1] : tensor<2x3x4xf32> -> tensor<2x3xf32>
  %6 = rlx.reduce mean %xf32 axes = [-1, 0] keep_dim : tensor<2x3x4xf32> -> tensor<1x3x1xf32>
  %7 = rlx.reduce mean %xf32 axes = [2, 0, 1] : tensor<2x3x4xf32> -> tensor<f32>
  %8 = rlx.reduce mean %xf32 axes = [0, 1, 2] keep_dim : tensor<2x3x4xf32> -> tensor<1x1x1xf32>
  %9 = rlx.reduce mean %xf32 axes = [-3] : tensor<2x3x4xf32> -> tensor<3x4xf32>
  %10 = rlx.reduce mean %z axes = [0] : tensor<0x3xf32> -> tensor<3xf32>
  %11 = rlx.reduce mean %z axes = [1] keep_dim : tensor<0x3xf32> -> tensor<0x1xf32>
  %12 = rlx.reduce mean %r6 axes = [5, -4, 0] : tensor<2x1x3x1x2x5xf32> -> tensor<1x1x2xf32>
  return
}

// CHECK-LABEL: func.func @reduce_max(
// CHECK-SAME:    %[[XF16:[a-z0-9]+]]: tensor<2x3x4xf16>, %[[XBF16:[a-z0-9]+]]: tensor<2x3x4xbf16>, %[[XF32:[a-z0-9]+]]: tensor<2x3x4xf32>, %[[XF64:[a-z0-9]+]]: tensor<2x3x4xf64>, %[[XI8:[a-z0-9]+]]: tensor<2x3x4xi8>, %[[XI16:[a-z0-9]+]]: tensor<2x3x4xi16>, %[[XI32:[a-z0-9]+]]: tensor<2x3x4xi32>, %[[XI64:[a-z0-9]+]]: tensor<2x3x4xi64>, %[[Z:[a-z0-9]+]]: tensor<0x3xf32>, %[[R6:[a-z0-9]+]]: tensor<2x1x3x1x2x5xf32>)
// CHECK-NEXT:    %{{.*}} = rlx.reduce max %[[XF16]] axes = [1] : tensor<2x3x4xf16> -> tensor<2x4xf16>
// CHECK-NEXT:    %{{.*}} = rlx.reduce max %[[XBF16]] axes = [1] : tensor<2x3x4xbf16> -> tensor<2x4xbf16>
// CHECK-NEXT:    %{{.*}} = rlx.reduce max %[[XF32]] axes = [1] : tensor<2x3x4xf32> -> tensor<2x4xf32>
// CHECK-NEXT:    %{{.*}} = rlx.reduce max %[[XF64]] axes = [1] : tensor<2x3x4xf64> -> tensor<2x4xf64>
// CHECK-NEXT:    %{{.*}} = rlx.reduce max %[[XI8]] axes = [1] : tensor<2x3x4xi8> -> tensor<2x4xi8>
// CHECK-NEXT:    %{{.*}} = rlx.reduce max %[[XI16]] axes = [1] : tensor<2x3x4xi16> -> tensor<2x4xi16>
// CHECK-NEXT:    %{{.*}} = rlx.reduce max %[[XI32]] axes = [1] : tensor<2x3x4xi32> -> tensor<2x4xi32>
// CHECK-NEXT:    %{{.*}} = rlx.reduce max %[[XI64]] axes = [1] : tensor<2x3x4xi64> -> tensor<2x4xi64>
// CHECK-NEXT:    %{{.*}} = rlx.reduce max %[[XF32]] axes = [1] keep_dim : tensor<2x3x4xf32> -> tensor<2x1x4xf32>
// CHECK-NEXT:    %{{.*}} = rlx.reduce max %[[XF32]] axes = [-1] : tensor<2x3x4xf32> -> tensor<2x3xf32>
// CHECK-NEXT:    %{{.*}} = rlx.reduce max %[[XF32]] axes = [-1, 0] keep_dim : tensor<2x3x4xf32> -> tensor<1x3x1xf32>
// CHECK-NEXT:    %{{.*}} = rlx.reduce max %[[XF32]] axes = [2, 0, 1] : tensor<2x3x4xf32> -> tensor<f32>
// CHECK-NEXT:    %{{.*}} = rlx.reduce max %[[XF32]] axes = [0, 1, 2] keep_dim : tensor<2x3x4xf32> -> tensor<1x1x1xf32>
// CHECK-NEXT:    %{{.*}} = rlx.reduce max %[[XF32]] axes = [-3] : tensor<2x3x4xf32> -> tensor<3x4xf32>
// CHECK-NEXT:    %{{.*}} = rlx.reduce max %[[Z]] axes = [0] : tensor<0x3xf32> -> tensor<3xf32>
// CHECK-NEXT:    %{{.*}} = rlx.reduce max %[[Z]] axes = [1] keep_dim : tensor<0x3xf32> -> tensor<0x1xf32>
// CHECK-NEXT:    %{{.*}} = rlx.reduce max %[[R6]] axes = [5, -4, 0] : tensor<2x1x3x1x2x5xf32> -> tensor<1x1x2xf32>
// CHECK-NEXT:    return
func.func @reduce_max(%xf16: tensor<2x3x4xf16>, %xbf16: tensor<2x3x4xbf16>, %xf32: tensor<2x3x4xf32>, %xf64: tensor<2x3x4xf64>, %xi8: tensor<2x3x4xi8>, %xi16: tensor<2x3x4xi16>, %xi32: tensor<2x3x4xi32>, %xi64: tensor<2x3x4xi64>, %z: tensor<0x3xf32>, %r6: tensor<2x1x3x1x2x5xf32>) {
  %0 = rlx.reduce max %xf16 axes = [1] : tensor<2x3x4xf16> -> tensor<2x4xf16>
  %1 = rlx.reduce max %xbf16 axes = [1] : tensor<2x3x4xbf16> -> tensor<2x4xbf16>
  %2 = rlx.reduce max %xf32 axes = [1] : tensor<2x3x4xf32> -> tensor<2x4xf32>
  %3 = rlx.reduce max %xf64 axes = [1] : tensor<2x3x4xf64> -> tensor<2x4xf64>
  %4 = rlx.reduce max %xi8 axes = [1] : tensor<2x3x4xi8> -> tensor<2x4xi8>
  %5 = rlx.reduce max %xi16 axes = [1] : tensor<2x3x4xi16> -> tensor<2x4xi16>
  %6 = rlx.reduce max %xi32 axes = [1] : tensor<2x3x4xi32> -> tensor<2x4xi32>
  %7 = rlx.reduce max %xi64 axes = [1] : tensor<2x3x4xi64> -> tensor<2x4xi64>
  %8 = rlx.reduce max %xf32 axes = [1] keep_dim : tensor<2x3x4xf32> -> tensor<2x1x4xf32>
  %9 = rlx.reduce max %xf32 axes = [-1] : tensor<2x3x4xf32> -> tensor<2x3xf32>
  %10 = rlx.reduce max %xf32 axes = [-1, 0] keep_dim : tensor<2x3x4xf32> -> tensor<1x3x1xf32>
  %11 = rlx.reduce max %xf32 axes = [2, 0, 1] : tensor<2x3x4xf32> -> tensor<f32>
  %12 = rlx.reduce max %xf32 axes = [0, 1, 2] keep_dim : tensor<2x3x4xf32> -> tensor<1x1x1xf32>
  %13 = rlx.reduce max %xf32 axes = [-3] : tensor<2x3x4xf32> -> tensor<3x4xf32>
  %14 = rlx.reduce max %z axes = [0] : tensor<0x3xf32> -> tensor<3xf32>
  %15 = rlx.reduce max %z axes = [1] keep_dim : tensor<0x3xf32> -> tensor<0x1xf32>
  %16 = rlx.reduce max %r6 axes = [5, -4, 0] : tensor<2x1x3x1x2x5xf32> -> tensor<1x1x2xf32>
  return
}

// CHECK-LABEL: func.func @reduce_min(
// CHECK-SAME:    %[[XF16:[a-z0-9]+]]: tensor<2x3x4xf16>, %[[XBF16:[a-z0-9]+]]: tensor<2x3x4xbf16>, %[[XF32:[a-z0-9]+]]: tensor<2x3x4xf32>, %[[XF64:[a-z0-9]+]]: tensor<2x3x4xf64>, %[[XI8:[a-z0-9]+]]: tensor<2x3x4xi8>, %[[XI16:[a-z0-9]+]]: tensor<2x3x4xi16>, %[[XI32:[a-z0-9]+]]: tensor<2x3x4xi32>, %[[XI64:[a-z0-9]+]]: tensor<2x3x4xi64>, %[[Z:[a-z0-9]+]]: tensor<0x3xf32>, %[[R6:[a-z0-9]+]]: tensor<2x1x3x1x2x5xf32>)
// CHECK-NEXT:    %{{.*}} = rlx.reduce min %[[XF16]] axes = [1] : tensor<2x3x4xf16> -> tensor<2x4xf16>
// CHECK-NEXT:    %{{.*}} = rlx.reduce min %[[XBF16]] axes = [1] : tensor<2x3x4xbf16> -> tensor<2x4xbf16>
// CHECK-NEXT:    %{{.*}} = rlx.reduce min %[[XF32]] axes = [1] : tensor<2x3x4xf32> -> tensor<2x4xf32>
// CHECK-NEXT:    %{{.*}} = rlx.reduce min %[[XF64]] axes = [1] : tensor<2x3x4xf64> -> tensor<2x4xf64>
// CHECK-NEXT:    %{{.*}} = rlx.reduce min %[[XI8]] axes = [1] : tensor<2x3x4xi8> -> tensor<2x4xi8>
// CHECK-NEXT:    %{{.*}} = rlx.reduce min %[[XI16]] axes = [1] : tensor<2x3x4xi16> -> tensor<2x4xi16>
// CHECK-NEXT:    %{{.*}} = rlx.reduce min %[[XI32]] axes = [1] : tensor<2x3x4xi32> -> tensor<2x4xi32>
// CHECK-NEXT:    %{{.*}} = rlx.reduce min %[[XI64]] axes = [1] : tensor<2x3x4xi64> -> tensor<2x4xi64>
// CHECK-NEXT:    %{{.*}} = rlx.reduce min %[[XF32]] axes = [1] keep_dim : tensor<2x3x4xf32> -> tensor<2x1x4xf32>
// CHECK-NEXT:    %{{.*}} = rlx.reduce min %[[XF32]] axes = [-1] : tensor<2x3x4xf32> -> tensor<2x3xf32>
// CHECK-NEXT:    %{{.*}} = rlx.reduce min %[[XF32]] axes = [-1, 0] keep_dim : tensor<2x3x4xf32> -> tensor<1x3x1xf32>
// CHECK-NEXT:    %{{.*}} = rlx.reduce min %[[XF32]] axes = [2, 0, 1] : tensor<2x3x4xf32> -> tensor<f32>
// CHECK-NEXT:    %{{.*}} = rlx.reduce min %[[XF32]] axes = [0, 1, 2] keep_dim : tensor<2x3x4xf32> -> tensor<1x1x1xf32>
// CHECK-NEXT:    %{{.*}} = rlx.reduce min %[[XF32]] axes = [-3] : tensor<2x3x4xf32> -> tensor<3x4xf32>
// CHECK-NEXT:    %{{.*}} = rlx.reduce min %[[Z]] axes = [0] : tensor<0x3xf32> -> tensor<3xf32>
// CHECK-NEXT:    %{{.*}} = rlx.reduce min %[[Z]] axes = [1] keep_dim : tensor<0x3xf32> -> tensor<0x1xf32>
// CHECK-NEXT:    %{{.*}} = rlx.reduce min %[[R6]] axes = [5, -4, 0] : tensor<2x1x3x1x2x5xf32> -> tensor<1x1x2xf32>
// CHECK-NEXT:    return
func.func @reduce_min(%xf16: tensor<2x3x4xf16>, %xbf16: tensor<2x3x4xbf16>, %xf32: tensor<2x3x4xf32>, %xf64: tensor<2x3x4xf64>, %xi8: tensor<2x3x4xi8>, %xi16: tensor<2x3x4xi16>, %xi32: tensor<2x3x4xi32>, %xi64: tensor<2x3x4xi64>, %z: tensor<0x3xf32>, %r6: tensor<2x1x3x1x2x5xf32>) {
  %0 = rlx.reduce min %xf16 axes = [1] : tensor<2x3x4xf16> -> tensor<2x4xf16>
  %1 = rlx.reduce min %xbf16 axes = [1] : tensor<2x3x4xbf16> -> tensor<2x4xbf16>
  %2 = rlx.reduce min %xf32 axes = [1] : tensor<2x3x4xf32> -> tensor<2x4xf32>
  %3 = rlx.reduce min %xf64 axes = [1] : tensor<2x3x4xf64> -> tensor<2x4xf64>
  %4 = rlx.reduce min %xi8 axes = [1] : tensor<2x3x4xi8> -> tensor<2x4xi8>
  %5 = rlx.reduce min %xi16 axes = [1] : tensor<2x3x4xi16> -> tensor<2x4xi16>
  %6 = rlx.reduce min %xi32 axes = [1] : tensor<2x3x4xi32> -> tensor<2x4xi32>
  %7 = rlx.reduce min %xi64 axes = [1] : tensor<2x3x4xi64> -> tensor<2x4xi64>
  %8 = rlx.reduce min %xf32 axes = [1] keep_dim : tensor<2x3x4xf32> -> tensor<2x1x4xf32>
  %9 = rlx.reduce min %xf32 axes = [-1] : tensor<2x3x4xf32> -> tensor<2x3xf32>
  %10 = rlx.reduce min %xf32 axes = [-1, 0] keep_dim : tensor<2x3x4xf32> -> tensor<1x3x1xf32>
  %11 = rlx.reduce min %xf32 axes = [2, 0, 1] : tensor<2x3x4xf32> -> tensor<f32>
  %12 = rlx.reduce min %xf32 axes = [0, 1, 2] keep_dim : tensor<2x3x4xf32> -> tensor<1x1x1xf32>
  %13 = rlx.reduce min %xf32 axes = [-3] : tensor<2x3x4xf32> -> tensor<3x4xf32>
  %14 = rlx.reduce min %z axes = [0] : tensor<0x3xf32> -> tensor<3xf32>
  %15 = rlx.reduce min %z axes = [1] keep_dim : tensor<0x3xf32> -> tensor<0x1xf32>
  %16 = rlx.reduce min %r6 axes = [5, -4, 0] : tensor<2x1x3x1x2x5xf32> -> tensor<1x1x2xf32>
  return
}

// CHECK-LABEL: func.func @reduce_prod(
// CHECK-SAME:    %[[XF16:[a-z0-9]+]]: tensor<2x3x4xf16>, %[[XBF16:[a-z0-9]+]]: tensor<2x3x4xbf16>, %[[XF32:[a-z0-9]+]]: tensor<2x3x4xf32>, %[[XF64:[a-z0-9]+]]: tensor<2x3x4xf64>, %[[XI8:[a-z0-9]+]]: tensor<2x3x4xi8>, %[[XI16:[a-z0-9]+]]: tensor<2x3x4xi16>, %[[XI32:[a-z0-9]+]]: tensor<2x3x4xi32>, %[[XI64:[a-z0-9]+]]: tensor<2x3x4xi64>, %[[Z:[a-z0-9]+]]: tensor<0x3xf32>, %[[R6:[a-z0-9]+]]: tensor<2x1x3x1x2x5xf32>)
// CHECK-NEXT:    %{{.*}} = rlx.reduce prod %[[XF16]] axes = [1] : tensor<2x3x4xf16> -> tensor<2x4xf16>
// CHECK-NEXT:    %{{.*}} = rlx.reduce prod %[[XBF16]] axes = [1] : tensor<2x3x4xbf16> -> tensor<2x4xbf16>
// CHECK-NEXT:    %{{.*}} = rlx.reduce prod %[[XF32]] axes = [1] : tensor<2x3x4xf32> -> tensor<2x4xf32>
// CHECK-NEXT:    %{{.*}} = rlx.reduce prod %[[XF64]] axes = [1] : tensor<2x3x4xf64> -> tensor<2x4xf64>
// CHECK-NEXT:    %{{.*}} = rlx.reduce prod %[[XI8]] axes = [1] : tensor<2x3x4xi8> -> tensor<2x4xi8>
// CHECK-NEXT:    %{{.*}} = rlx.reduce prod %[[XI16]] axes = [1] : tensor<2x3x4xi16> -> tensor<2x4xi16>
// CHECK-NEXT:    %{{.*}} = rlx.reduce prod %[[XI32]] axes = [1] : tensor<2x3x4xi32> -> tensor<2x4xi32>
// CHECK-NEXT:    %{{.*}} = rlx.reduce prod %[[XI64]] axes = [1] : tensor<2x3x4xi64> -> tensor<2x4xi64>
// CHECK-NEXT:    %{{.*}} = rlx.reduce prod %[[XF32]] axes = [1] keep_dim : tensor<2x3x4xf32> -> tensor<2x1x4xf32>
// CHECK-NEXT:    %{{.*}} = rlx.reduce prod %[[XF32]] axes = [-1] : tensor<2x3x4xf32> -> tensor<2x3xf32>
// CHECK-NEXT:    %{{.*}} = rlx.reduce prod %[[XF32]] axes = [-1, 0] keep_dim : tensor<2x3x4xf32> -> tensor<1x3x1xf32>
// CHECK-NEXT:    %{{.*}} = rlx.reduce prod %[[XF32]] axes = [2, 0, 1] : tensor<2x3x4xf32> -> tensor<f32>
// CHECK-NEXT:    %{{.*}} = rlx.reduce prod %[[XF32]] axes = [0, 1, 2] keep_dim : tensor<2x3x4xf32> -> tensor<1x1x1xf32>
// CHECK-NEXT:    %{{.*}} = rlx.reduce prod %[[XF32]] axes = [-3] : tensor<2x3x4xf32> -> tensor<3x4xf32>
// CHECK-NEXT:    %{{.*}} = rlx.reduce prod %[[Z]] axes = [0] : tensor<0x3xf32> -> tensor<3xf32>
// CHECK-NEXT:    %{{.*}} = rlx.reduce prod %[[Z]] axes = [1] keep_dim : tensor<0x3xf32> -> tensor<0x1xf32>
// CHECK-NEXT:    %{{.*}} = rlx.reduce prod %[[R6]] axes = [5, -4, 0] : tensor<2x1x3x1x2x5xf32> -> tensor<1x1x2xf32>
// CHECK-NEXT:    return
func.func @reduce_prod(%xf16: tensor<2x3x4xf16>, %xbf16: tensor<2x3x4xbf16>, %xf32: tensor<2x3x4xf32>, %xf64: tensor<2x3x4xf64>, %xi8: tensor<2x3x4xi8>, %xi16: tensor<2x3x4xi16>, %xi32: tensor<2x3x4xi32>, %xi64: tensor<2x3x4xi64>, %z: tensor<0x3xf32>, %r6: tensor<2x1x3x1x2x5xf32>) {
  %0 = rlx.reduce prod %xf16 axes = [1] : tensor<2x3x4xf16> -> tensor<2x4xf16>
  %1 = rlx.reduce prod %xbf16 axes = [1] : tensor<2x3x4xbf16> -> tensor<2x4xbf16>
  %2 = rlx.reduce prod %xf32 axes = [1] : tensor<2x3x4xf32> -> tensor<2x4xf32>
  %3 = rlx.reduce prod %xf64 axes = [1] : tensor<2x3x4xf64> -> tensor<2x4xf64>
  %4 = rlx.reduce prod %xi8 axes = [1] : tensor<2x3x4xi8> -> tensor<2x4xi8>
  %5 = rlx.reduce prod %xi16 axes = [1] : tensor<2x3x4xi16> -> tensor<2x4xi16>
  %6 = rlx.reduce prod %xi32 axes = [1] : tensor<2x3x4xi32> -> tensor<2x4xi32>
  %7 = rlx.reduce prod %xi64 axes = [1] : tensor<2x3x4xi64> -> tensor<2x4xi64>
  %8 = rlx.reduce prod %xf32 axes = [1] keep_dim : tensor<2x3x4xf32> -> tensor<2x1x4xf32>
  %9 = rlx.reduce prod %xf32 axes = [-1] : tensor<2x3x4xf32> -> tensor<2x3xf32>
  %10 = rlx.reduce prod %xf32 axes = [-1, 0] keep_dim : tensor<2x3x4xf32> -> tensor<1x3x1xf32>
  %11 = rlx.reduce prod %xf32 axes = [2, 0, 1] : tensor<2x3x4xf32> -> tensor<f32>
  %12 = rlx.reduce prod %xf32 axes = [0, 1, 2] keep_dim : tensor<2x3x4xf32> -> tensor<1x1x1xf32>
  %13 = rlx.reduce prod %xf32 axes = [-3] : tensor<2x3x4xf32> -> tensor<3x4xf32>
  %14 = rlx.reduce prod %z axes = [0] : tensor<0x3xf32> -> tensor<3xf32>
  %15 = rlx.reduce prod %z axes = [1] keep_dim : tensor<0x3xf32> -> tensor<0x1xf32>
  %16 = rlx.reduce prod %r6 axes = [5, -4, 0] : tensor<2x1x3x1x2x5xf32> -> tensor<1x1x2xf32>
  return
}

//===----------------------------------------------------------------------===//
// softmax, log_softmax
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @softmax(
// CHECK-SAME:    %[[XF16:[a-z0-9]+]]: tensor<2x3xf16>, %[[XBF16:[a-z0-9]+]]: tensor<2x3xbf16>, %[[XF32:[a-z0-9]+]]: tensor<2x3xf32>, %[[XF64:[a-z0-9]+]]: tensor<2x3xf64>, %[[V:[a-z0-9]+]]: tensor<7xf32>, %[[R6:[a-z0-9]+]]: tensor<1x2x1x3x1x2xf32>, %[[Z:[a-z0-9]+]]: tensor<0x3xf32>)
// CHECK-NEXT:    %{{.*}} = rlx.softmax %[[XF16]] axis = 1 : tensor<2x3xf16>
// CHECK-NEXT:    %{{.*}} = rlx.softmax %[[XBF16]] axis = 1 : tensor<2x3xbf16>
// CHECK-NEXT:    %{{.*}} = rlx.softmax %[[XF32]] axis = 1 : tensor<2x3xf32>
// CHECK-NEXT:    %{{.*}} = rlx.softmax %[[XF64]] axis = 1 : tensor<2x3xf64>
// CHECK-NEXT:    %{{.*}} = rlx.softmax %[[V]] axis = 0 : tensor<7xf32>
// CHECK-NEXT:    %{{.*}} = rlx.softmax %[[V]] axis = -1 : tensor<7xf32>
// CHECK-NEXT:    %{{.*}} = rlx.softmax %[[R6]] axis = -6 : tensor<1x2x1x3x1x2xf32>
// CHECK-NEXT:    %{{.*}} = rlx.softmax %[[R6]] axis = 5 : tensor<1x2x1x3x1x2xf32>
// CHECK-NEXT:    %{{.*}} = rlx.softmax %[[Z]] axis = 0 : tensor<0x3xf32>
// CHECK-NEXT:    %{{.*}} = rlx.softmax %[[Z]] axis = -1 : tensor<0x3xf32>
// CHECK-NEXT:    return
func.func @softmax(%xf16: tensor<2x3xf16>, %xbf16: tensor<2x3xbf16>, %xf32: tensor<2x3xf32>, %xf64: tensor<2x3xf64>, %v: tensor<7xf32>, %r6: tensor<1x2x1x3x1x2xf32>, %z: tensor<0x3xf32>) {
  %0 = rlx.softmax %xf16 axis = 1 : tensor<2x3xf16>
  %1 = rlx.softmax %xbf16 axis = 1 : tensor<2x3xbf16>
  %2 = rlx.softmax %xf32 axis = 1 : tensor<2x3xf32>
  %3 = rlx.softmax %xf64 axis = 1 : tensor<2x3xf64>
  %4 = rlx.softmax %v axis = 0 : tensor<7xf32>
  %5 = rlx.softmax %v axis = -1 : tensor<7xf32>
  %6 = rlx.softmax %r6 axis = -6 : tensor<1x2x1x3x1x2xf32>
  %7 = rlx.softmax %r6 axis = 5 : tensor<1x2x1x3x1x2xf32>
  %8 = rlx.softmax %z axis = 0 : tensor<0x3xf32>
  %9 = rlx.softmax %z axis = -1 : tensor<0x3xf32>
  return
}

// CHECK-LABEL: func.func @log_softmax(
// CHECK-SAME:    %[[XF16:[a-z0-9]+]]: tensor<2x3xf16>, %[[XBF16:[a-z0-9]+]]: tensor<2x3xbf16>, %[[XF32:[a-z0-9]+]]: tensor<2x3xf32>, %[[XF64:[a-z0-9]+]]: tensor<2x3xf64>, %[[V:[a-z0-9]+]]: tensor<7xf32>, %[[R6:[a-z0-9]+]]: tensor<1x2x1x3x1x2xf32>, %[[Z:[a-z0-9]+]]: tensor<0x3xf32>)
// CHECK-NEXT:    %{{.*}} = rlx.log_softmax %[[XF16]] axis = 1 : tensor<2x3xf16>
// CHECK-NEXT:    %{{.*}} = rlx.log_softmax %[[XBF16]] axis = 1 : tensor<2x3xbf16>
// CHECK-NEXT:    %{{.*}} = rlx.log_softmax %[[XF32]] axis = 1 : tensor<2x3xf32>
// CHECK-NEXT:    %{{.*}} = rlx.log_softmax %[[XF64]] axis = 1 : tensor<2x3xf64>
// CHECK-NEXT:    %{{.*}} = rlx.log_softmax %[[V]] axis = 0 : tensor<7xf32>
// CHECK-NEXT:    %{{.*}} = rlx.log_softmax %[[V]] axis = -1 : tensor<7xf32>
// CHECK-NEXT:    %{{.*}} = rlx.log_softmax %[[R6]] axis = -6 : tensor<1x2x1x3x1x2xf32>
// CHECK-NEXT:    %{{.*}} = rlx.log_softmax %[[R6]] axis = 5 : tensor<1x2x1x3x1x2xf32>
// CHECK-NEXT:    %{{.*}} = rlx.log_softmax %[[Z]] axis = 0 : tensor<0x3xf32>
// CHECK-NEXT:    %{{.*}} = rlx.log_softmax %[[Z]] axis = -1 : tensor<0x3xf32>
// CHECK-NEXT:    return
func.func @log_softmax(%xf16: tensor<2x3xf16>, %xbf16: tensor<2x3xbf16>, %xf32: tensor<2x3xf32>, %xf64: tensor<2x3xf64>, %v: tensor<7xf32>, %r6: tensor<1x2x1x3x1x2xf32>, %z: tensor<0x3xf32>) {
  %0 = rlx.log_softmax %xf16 axis = 1 : tensor<2x3xf16>
  %1 = rlx.log_softmax %xbf16 axis = 1 : tensor<2x3xbf16>
  %2 = rlx.log_softmax %xf32 axis = 1 : tensor<2x3xf32>
  %3 = rlx.log_softmax %xf64 axis = 1 : tensor<2x3xf64>
  %4 = rlx.log_softmax %v axis = 0 : tensor<7xf32>
  %5 = rlx.log_softmax %v axis = -1 : tensor<7xf32>
  %6 = rlx.log_softmax %r6 axis = -6 : tensor<1x2x1x3x1x2xf32>
  %7 = rlx.log_softmax %r6 axis = 5 : tensor<1x2x1x3x1x2xf32>
  %8 = rlx.log_softmax %z axis = 0 : tensor<0x3xf32>
  %9 = rlx.log_softmax %z axis = -1 : tensor<0x3xf32>
  return
}

//===----------------------------------------------------------------------===//
// clamp
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @clamp(
// CHECK-SAME:    %[[A:[a-z0-9]+]]: tensor<2x3xf32>, %[[B:[a-z0-9]+]]: tensor<4xf16>, %[[C:[a-z0-9]+]]: tensor<bf16>, %[[D:[a-z0-9]+]]: tensor<1x2x1x2x1x2xf64>, %[[E:[a-z0-9]+]]: tensor<2x3xi8>, %[[F:[a-z0-9]+]]: tensor<0x3xi16>, %[[G:[a-z0-9]+]]: tensor<3xi32>, %[[H:[a-z0-9]+]]: tensor<i64>)
// CHECK-NEXT:    %{{.*}} = rlx.clamp %[[A]] {max = 6.000000e+00 : f64, min = 0.000000e+00 : f64} : tensor<2x3xf32>
// CHECK-NEXT:    %{{.*}} = rlx.clamp %[[B]] {min = -1.500000e+00 : f64} : tensor<4xf16>
// CHECK-NEXT:    %{{.*}} = rlx.clamp %[[C]] {max = 2.500000e-01 : f64} : tensor<bf16>
// CHECK-NEXT:    %{{.*}} = rlx.clamp %[[D]] {max = 1.000000e+00 : f64, min = 1.000000e+00 : f64} : tensor<1x2x1x2x1x2xf64>
// CHECK-NEXT:    %{{.*}} = rlx.clamp %[[E]] {max = 1.270000e+02 : f64, min = -1.280000e+02 : f64} : tensor<2x3xi8>
// CHECK-NEXT:    %{{.*}} = rlx.clamp %[[F]] {min = 0.000000e+00 : f64} : tensor<0x3xi16>
// CHECK-NEXT:    %{{.*}} = rlx.clamp %[[G]] {max = 1.000000e+01 : f64, min = -1.000000e+01 : f64} : tensor<3xi32>
// CHECK-NEXT:    %{{.*}} = rlx.clamp %[[H]] {max = 0.000000e+00 : f64} : tensor<i64>
// CHECK-NEXT:    %{{.*}} = rlx.clamp %[[A]] {max = 0x7FF0000000000000 : f64, min = 0xFFF0000000000000 : f64} : tensor<2x3xf32>
// CHECK-NEXT:    return
func.func @clamp(%a: tensor<2x3xf32>, %b: tensor<4xf16>, %c: tensor<bf16>, %d: tensor<1x2x1x2x1x2xf64>, %e: tensor<2x3xi8>, %f: tensor<0x3xi16>, %g: tensor<3xi32>, %h: tensor<i64>) {
  %0 = rlx.clamp %a {max = 6.000000e+00 : f64, min = 0.000000e+00 : f64} : tensor<2x3xf32>
  %1 = rlx.clamp %b {min = -1.500000e+00 : f64} : tensor<4xf16>
  %2 = rlx.clamp %c {max = 2.500000e-01 : f64} : tensor<bf16>
  %3 = rlx.clamp %d {max = 1.000000e+00 : f64, min = 1.000000e+00 : f64} : tensor<1x2x1x2x1x2xf64>
  %4 = rlx.clamp %e {max = 1.270000e+02 : f64, min = -1.280000e+02 : f64} : tensor<2x3xi8>
  %5 = rlx.clamp %f {min = 0.000000e+00 : f64} : tensor<0x3xi16>
  %6 = rlx.clamp %g {max = 1.000000e+01 : f64, min = -1.000000e+01 : f64} : tensor<3xi32>
  %7 = rlx.clamp %h {max = 0.000000e+00 : f64} : tensor<i64>
  %8 = rlx.clamp %a {max = 0x7FF0000000000000 : f64, min = 0xFFF0000000000000 : f64} : tensor<2x3xf32>
  return
}

//===----------------------------------------------------------------------===//
// reshape
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @reshape(
// CHECK-SAME:    %[[A:[a-z0-9]+]]: tensor<2x3xf32>, %[[S:[a-z0-9]+]]: tensor<i1>, %[[O:[a-z0-9]+]]: tensor<1x1x1xi64>, %[[Z:[a-z0-9]+]]: tensor<0x3xbf16>, %[[R:[a-z0-9]+]]: tensor<2x1x3x1x2x1xf16>, %[[I:[a-z0-9]+]]: tensor<4xi8>)
// CHECK-NEXT:    %{{.*}} = rlx.reshape %[[A]] : tensor<2x3xf32> -> tensor<6xf32>
// CHECK-NEXT:    %{{.*}} = rlx.reshape %[[A]] : tensor<2x3xf32> -> tensor<3x2xf32>
// CHECK-NEXT:    %{{.*}} = rlx.reshape %[[A]] : tensor<2x3xf32> -> tensor<2x3xf32>
// CHECK-NEXT:    %{{.*}} = rlx.reshape %[[A]] : tensor<2x3xf32> -> tensor<1x2x1x3x1x1xf32>
// CHECK-NEXT:    %{{.*}} = rlx.reshape %[[S]] : tensor<i1> -> tensor<1x1xi1>
// CHECK-NEXT:    %{{.*}} = rlx.reshape %[[O]] : tensor<1x1x1xi64> -> tensor<i64>
// CHECK-NEXT:    %{{.*}} = rlx.reshape %[[Z]] : tensor<0x3xbf16> -> tensor<3x0x7xbf16>
// CHECK-NEXT:    %{{.*}} = rlx.reshape %[[Z]] : tensor<0x3xbf16> -> tensor<0xbf16>
// CHECK-NEXT:    %{{.*}} = rlx.reshape %[[R]] : tensor<2x1x3x1x2x1xf16> -> tensor<12xf16>
// CHECK-NEXT:    %{{.*}} = rlx.reshape %[[I]] : tensor<4xi8> -> tensor<2x2xi8>
// CHECK-NEXT:    return
func.func @reshape(%a: tensor<2x3xf32>, %s: tensor<i1>, %o: tensor<1x1x1xi64>, %z: tensor<0x3xbf16>, %r: tensor<2x1x3x1x2x1xf16>, %i: tensor<4xi8>) {
  %0 = rlx.reshape %a : tensor<2x3xf32> -> tensor<6xf32>
  %1 = rlx.reshape %a : tensor<2x3xf32> -> tensor<3x2xf32>
  %2 = rlx.reshape %a : tensor<2x3xf32> -> tensor<2x3xf32>
  %3 = rlx.reshape %a : tensor<2x3xf32> -> tensor<1x2x1x3x1x1xf32>
  %4 = rlx.reshape %s : tensor<i1> -> tensor<1x1xi1>
  %5 = rlx.reshape %o : tensor<1x1x1xi64> -> tensor<i64>
  %6 = rlx.reshape %z : tensor<0x3xbf16> -> tensor<3x0x7xbf16>
  %7 = rlx.reshape %z : tensor<0x3xbf16> -> tensor<0xbf16>
  %8 = rlx.reshape %r : tensor<2x1x3x1x2x1xf16> -> tensor<12xf16>
  %9 = rlx.reshape %i : tensor<4xi8> -> tensor<2x2xi8>
  return
}

//===----------------------------------------------------------------------===//
// transpose
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @transpose(
// CHECK-SAME:    %[[S:[a-z0-9]+]]: tensor<f32>, %[[A:[a-z0-9]+]]: tensor<2x3xf32>, %[[B:[a-z0-9]+]]: tensor<2x3x4x5xi1>, %[[R:[a-z0-9]+]]: tensor<1x2x3x4x5x6xbf16>, %[[Z:[a-z0-9]+]]: tensor<0x3x1xi32>, %[[V:[a-z0-9]+]]: tensor<7xf64>)
// CHECK-NEXT:    %{{.*}} = rlx.transpose %[[S]] [] : tensor<f32> -> tensor<f32>
// CHECK-NEXT:    %{{.*}} = rlx.transpose %[[A]] [1, 0] : tensor<2x3xf32> -> tensor<3x2xf32>
// CHECK-NEXT:    %{{.*}} = rlx.transpose %[[A]] [0, 1] : tensor<2x3xf32> -> tensor<2x3xf32>
// CHECK-NEXT:    %{{.*}} = rlx.transpose %[[B]] [3, 1, 0, 2] : tensor<2x3x4x5xi1> -> tensor<5x3x2x4xi1>
// CHECK-NEXT:    %{{.*}} = rlx.transpose %[[R]] [5, 4, 3, 2, 1, 0] : tensor<1x2x3x4x5x6xbf16> -> tensor<6x5x4x3x2x1xbf16>
// CHECK-NEXT:    %{{.*}} = rlx.transpose %[[Z]] [2, 0, 1] : tensor<0x3x1xi32> -> tensor<1x0x3xi32>
// CHECK-NEXT:    %{{.*}} = rlx.transpose %[[V]] [0] : tensor<7xf64> -> tensor<7xf64>
// CHECK-NEXT:    return
func.func @transpose(%s: tensor<f32>, %a: tensor<2x3xf32>, %b: tensor<2x3x4x5xi1>, %r: tensor<1x2x3x4x5x6xbf16>, %z: tensor<0x3x1xi32>, %v: tensor<7xf64>) {
  %0 = rlx.transpose %s [] : tensor<f32> -> tensor<f32>
  %1 = rlx.transpose %a [1, 0] : tensor<2x3xf32> -> tensor<3x2xf32>
  %2 = rlx.transpose %a [0, 1] : tensor<2x3xf32> -> tensor<2x3xf32>
  %3 = rlx.transpose %b [3, 1, 0, 2] : tensor<2x3x4x5xi1> -> tensor<5x3x2x4xi1>
  %4 = rlx.transpose %r [5, 4, 3, 2, 1, 0] : tensor<1x2x3x4x5x6xbf16> -> tensor<6x5x4x3x2x1xbf16>
  %5 = rlx.transpose %z [2, 0, 1] : tensor<0x3x1xi32> -> tensor<1x0x3xi32>
  %6 = rlx.transpose %v [0] : tensor<7xf64> -> tensor<7xf64>
  return
}

//===----------------------------------------------------------------------===//
// expand
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @expand(
// CHECK-SAME:    %[[S:[a-z0-9]+]]: tensor<f32>, %[[A:[a-z0-9]+]]: tensor<3xf32>, %[[B:[a-z0-9]+]]: tensor<2x1xi1>, %[[O:[a-z0-9]+]]: tensor<1xi16>, %[[Z:[a-z0-9]+]]: tensor<0x1xf16>, %[[C:[a-z0-9]+]]: tensor<1x3x1xbf16>)
// CHECK-NEXT:    %{{.*}} = rlx.expand %[[S]] : tensor<f32> -> tensor<f32>
// CHECK-NEXT:    %{{.*}} = rlx.expand %[[S]] : tensor<f32> -> tensor<2x3xf32>
// CHECK-NEXT:    %{{.*}} = rlx.expand %[[A]] : tensor<3xf32> -> tensor<2x3xf32>
// CHECK-NEXT:    %{{.*}} = rlx.expand %[[A]] : tensor<3xf32> -> tensor<3xf32>
// CHECK-NEXT:    %{{.*}} = rlx.expand %[[B]] : tensor<2x1xi1> -> tensor<4x2x5xi1>
// CHECK-NEXT:    %{{.*}} = rlx.expand %[[O]] : tensor<1xi16> -> tensor<0xi16>
// CHECK-NEXT:    %{{.*}} = rlx.expand %[[Z]] : tensor<0x1xf16> -> tensor<0x6xf16>
// CHECK-NEXT:    %{{.*}} = rlx.expand %[[C]] : tensor<1x3x1xbf16> -> tensor<2x1x1x2x3x4xbf16>
// CHECK-NEXT:    return
func.func @expand(%s: tensor<f32>, %a: tensor<3xf32>, %b: tensor<2x1xi1>, %o: tensor<1xi16>, %z: tensor<0x1xf16>, %c: tensor<1x3x1xbf16>) {
  %0 = rlx.expand %s : tensor<f32> -> tensor<f32>
  %1 = rlx.expand %s : tensor<f32> -> tensor<2x3xf32>
  %2 = rlx.expand %a : tensor<3xf32> -> tensor<2x3xf32>
  %3 = rlx.expand %a : tensor<3xf32> -> tensor<3xf32>
  %4 = rlx.expand %b : tensor<2x1xi1> -> tensor<4x2x5xi1>
  %5 = rlx.expand %o : tensor<1xi16> -> tensor<0xi16>
  %6 = rlx.expand %z : tensor<0x1xf16> -> tensor<0x6xf16>
  %7 = rlx.expand %c : tensor<1x3x1xbf16> -> tensor<2x1x1x2x3x4xbf16>
  return
}

//===----------------------------------------------------------------------===//
// concat
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @concat(
// CHECK-SAME:    %[[A:[a-z0-9]+]]: tensor<2x3xf32>, %[[B:[a-z0-9]+]]: tensor<4x3xf32>, %[[C:[a-z0-9]+]]: tensor<2x5xf32>, %[[Z:[a-z0-9]+]]: tensor<0x3xf32>, %[[O:[a-z0-9]+]]: tensor<1xi1>, %[[P:[a-z0-9]+]]: tensor<1x2x1x3x2x2xi64>, %[[Q:[a-z0-9]+]]: tensor<1x2x1x3x2x1xi64>)
// CHECK-NEXT:    %{{.*}} = rlx.concat %[[A]] axis = 0 : (tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT:    %{{.*}} = rlx.concat %[[A]], %[[B]] axis = 0 : (tensor<2x3xf32>, tensor<4x3xf32>) -> tensor<6x3xf32>
// CHECK-NEXT:    %{{.*}} = rlx.concat %[[A]], %[[B]], %[[A]] axis = -2 : (tensor<2x3xf32>, tensor<4x3xf32>, tensor<2x3xf32>) -> tensor<8x3xf32>
// CHECK-NEXT:    %{{.*}} = rlx.concat %[[A]], %[[C]] axis = 1 : (tensor<2x3xf32>, tensor<2x5xf32>) -> tensor<2x8xf32>
// CHECK-NEXT:    %{{.*}} = rlx.concat %[[A]], %[[C]], %[[A]] axis = -1 : (tensor<2x3xf32>, tensor<2x5xf32>, tensor<2x3xf32>) -> tensor<2x11xf32>
// CHECK-NEXT:    %{{.*}} = rlx.concat %[[Z]], %[[A]], %[[Z]] axis = 0 : (tensor<0x3xf32>, tensor<2x3xf32>, tensor<0x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT:    %{{.*}} = rlx.concat %[[Z]], %[[Z]] axis = 0 : (tensor<0x3xf32>, tensor<0x3xf32>) -> tensor<0x3xf32>
// CHECK-NEXT:    %{{.*}} = rlx.concat %[[O]], %[[O]], %[[O]] axis = 0 : (tensor<1xi1>, tensor<1xi1>, tensor<1xi1>) -> tensor<3xi1>
// CHECK-NEXT:    %{{.*}} = rlx.concat %[[P]], %[[Q]] axis = 5 : (tensor<1x2x1x3x2x2xi64>, tensor<1x2x1x3x2x1xi64>) -> tensor<1x2x1x3x2x3xi64>
// CHECK-NEXT:    return
func.func @concat(%a: tensor<2x3xf32>, %b: tensor<4x3xf32>, %c: tensor<2x5xf32>, %z: tensor<0x3xf32>, %o: tensor<1xi1>, %p: tensor<1x2x1x3x2x2xi64>, %q: tensor<1x2x1x3x2x1xi64>) {
  %0 = rlx.concat %a axis = 0 : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %1 = rlx.concat %a, %b axis = 0 : (tensor<2x3xf32>, tensor<4x3xf32>) -> tensor<6x3xf32>
  %2 = rlx.concat %a, %b, %a axis = -2 : (tensor<2x3xf32>, tensor<4x3xf32>, tensor<2x3xf32>) -> tensor<8x3xf32>
  %3 = rlx.concat %a, %c axis = 1 : (tensor<2x3xf32>, tensor<2x5xf32>) -> tensor<2x8xf32>
  %4 = rlx.concat %a, %c, %a axis = -1 : (tensor<2x3xf32>, tensor<2x5xf32>, tensor<2x3xf32>) -> tensor<2x11xf32>
  %5 = rlx.concat %z, %a, %z axis = 0 : (tensor<0x3xf32>, tensor<2x3xf32>, tensor<0x3xf32>) -> tensor<2x3xf32>
  %6 = rlx.concat %z, %z axis = 0 : (tensor<0x3xf32>, tensor<0x3xf32>) -> tensor<0x3xf32>
  %7 = rlx.concat %o, %o, %o axis = 0 : (tensor<1xi1>, tensor<1xi1>, tensor<1xi1>) -> tensor<3xi1>
  %8 = rlx.concat %p, %q axis = 5 : (tensor<1x2x1x3x2x2xi64>, tensor<1x2x1x3x2x1xi64>) -> tensor<1x2x1x3x2x3xi64>
  return
}

//===----------------------------------------------------------------------===//
// narrow, slice
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @narrow(
// CHECK-SAME:    %[[A:[a-z0-9]+]]: tensor<4x6xf32>, %[[S:[a-z0-9]+]]: tensor<5xi1>, %[[R:[a-z0-9]+]]: tensor<1x2x3x4x5x6xf16>)
// CHECK-NEXT:    %{{.*}} = rlx.narrow %[[A]] axis = 0, start = 1, length = 2 : tensor<4x6xf32> -> tensor<2x6xf32>
// CHECK-NEXT:    %{{.*}} = rlx.narrow %[[A]] axis = 1, start = 0, length = 6 : tensor<4x6xf32> -> tensor<4x6xf32>
// CHECK-NEXT:    %{{.*}} = rlx.narrow %[[A]] axis = -1, start = 5, length = 1 : tensor<4x6xf32> -> tensor<4x1xf32>
// CHECK-NEXT:    %{{.*}} = rlx.narrow %[[A]] axis = -2, start = 3, length = 1 : tensor<4x6xf32> -> tensor<1x6xf32>
// CHECK-NEXT:    %{{.*}} = rlx.narrow %[[A]] axis = 1, start = 2, length = 0 : tensor<4x6xf32> -> tensor<4x0xf32>
// CHECK-NEXT:    %{{.*}} = rlx.narrow %[[A]] axis = 1, start = 6, length = 0 : tensor<4x6xf32> -> tensor<4x0xf32>
// CHECK-NEXT:    %{{.*}} = rlx.narrow %[[S]] axis = 0, start = 1, length = 3 : tensor<5xi1> -> tensor<3xi1>
// CHECK-NEXT:    %{{.*}} = rlx.narrow %[[R]] axis = 4, start = 1, length = 3 : tensor<1x2x3x4x5x6xf16> -> tensor<1x2x3x4x3x6xf16>
// CHECK-NEXT:    return
func.func @narrow(%a: tensor<4x6xf32>, %s: tensor<5xi1>, %r: tensor<1x2x3x4x5x6xf16>) {
  %0 = rlx.narrow %a axis = 0, start = 1, length = 2 : tensor<4x6xf32> -> tensor<2x6xf32>
  %1 = rlx.narrow %a axis = 1, start = 0, length = 6 : tensor<4x6xf32> -> tensor<4x6xf32>
  %2 = rlx.narrow %a axis = -1, start = 5, length = 1 : tensor<4x6xf32> -> tensor<4x1xf32>
  %3 = rlx.narrow %a axis = -2, start = 3, length = 1 : tensor<4x6xf32> -> tensor<1x6xf32>
  %4 = rlx.narrow %a axis = 1, start = 2, length = 0 : tensor<4x6xf32> -> tensor<4x0xf32>
  %5 = rlx.narrow %a axis = 1, start = 6, length = 0 : tensor<4x6xf32> -> tensor<4x0xf32>
  %6 = rlx.narrow %s axis = 0, start = 1, length = 3 : tensor<5xi1> -> tensor<3xi1>
  %7 = rlx.narrow %r axis = 4, start = 1, length = 3 : tensor<1x2x3x4x5x6xf16> -> tensor<1x2x3x4x3x6xf16>
  return
}

// CHECK-LABEL: func.func @slice(
// CHECK-SAME:    %[[A:[a-z0-9]+]]: tensor<4x6xf32>, %[[S:[a-z0-9]+]]: tensor<5xi1>, %[[R:[a-z0-9]+]]: tensor<1x2x3x4x5x6xf16>)
// CHECK-NEXT:    %{{.*}} = rlx.slice %[[A]] axis = 0, start = 1, length = 2, step = 1 : tensor<4x6xf32> -> tensor<2x6xf32>
// CHECK-NEXT:    %{{.*}} = rlx.slice %[[A]] axis = 1, start = 0, length = 3, step = 2 : tensor<4x6xf32> -> tensor<4x3xf32>
// CHECK-NEXT:    %{{.*}} = rlx.slice %[[A]] axis = 1, start = 1, length = 3, step = 2 : tensor<4x6xf32> -> tensor<4x3xf32>
// CHECK-NEXT:    %{{.*}} = rlx.slice %[[A]] axis = 1, start = 5, length = 6, step = -1 : tensor<4x6xf32> -> tensor<4x6xf32>
// CHECK-NEXT:    %{{.*}} = rlx.slice %[[A]] axis = -1, start = 5, length = 2, step = -5 : tensor<4x6xf32> -> tensor<4x2xf32>
// CHECK-NEXT:    %{{.*}} = rlx.slice %[[A]] axis = -2, start = 3, length = 2, step = -3 : tensor<4x6xf32> -> tensor<2x6xf32>
// CHECK-NEXT:    %{{.*}} = rlx.slice %[[A]] axis = 0, start = 2, length = 1, step = 100 : tensor<4x6xf32> -> tensor<1x6xf32>
// CHECK-NEXT:    %{{.*}} = rlx.slice %[[A]] axis = 1, start = 0, length = 0, step = 7 : tensor<4x6xf32> -> tensor<4x0xf32>
// CHECK-NEXT:    %{{.*}} = rlx.slice %[[S]] axis = 0, start = 4, length = 3, step = -2 : tensor<5xi1> -> tensor<3xi1>
// CHECK-NEXT:    %{{.*}} = rlx.slice %[[R]] axis = -1, start = 0, length = 2, step = 5 : tensor<1x2x3x4x5x6xf16> -> tensor<1x2x3x4x5x2xf16>
// CHECK-NEXT:    return
func.func @slice(%a: tensor<4x6xf32>, %s: tensor<5xi1>, %r: tensor<1x2x3x4x5x6xf16>) {
  %0 = rlx.slice %a axis = 0, start = 1, length = 2, step = 1 : tensor<4x6xf32> -> tensor<2x6xf32>
  %1 = rlx.slice %a axis = 1, start = 0, length = 3, step = 2 : tensor<4x6xf32> -> tensor<4x3xf32>
  %2 = rlx.slice %a axis = 1, start = 1, length = 3, step = 2 : tensor<4x6xf32> -> tensor<4x3xf32>
  %3 = rlx.slice %a axis = 1, start = 5, length = 6, step = -1 : tensor<4x6xf32> -> tensor<4x6xf32>
  %4 = rlx.slice %a axis = -1, start = 5, length = 2, step = -5 : tensor<4x6xf32> -> tensor<4x2xf32>
  %5 = rlx.slice %a axis = -2, start = 3, length = 2, step = -3 : tensor<4x6xf32> -> tensor<2x6xf32>
  %6 = rlx.slice %a axis = 0, start = 2, length = 1, step = 100 : tensor<4x6xf32> -> tensor<1x6xf32>
  %7 = rlx.slice %a axis = 1, start = 0, length = 0, step = 7 : tensor<4x6xf32> -> tensor<4x0xf32>
  %8 = rlx.slice %s axis = 0, start = 4, length = 3, step = -2 : tensor<5xi1> -> tensor<3xi1>
  %9 = rlx.slice %r axis = -1, start = 0, length = 2, step = 5 : tensor<1x2x3x4x5x6xf16> -> tensor<1x2x3x4x5x2xf16>
  return
}

//===----------------------------------------------------------------------===//
// data movement: every element type
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @data_movement_f16(
// CHECK-SAME:    %[[X:[a-z0-9]+]]: tensor<2x3xf16>, %[[Y:[a-z0-9]+]]: tensor<2x2xf16>, %[[Z:[a-z0-9]+]]: tensor<0x2xf16>)
// CHECK-NEXT:    %{{.*}} = rlx.reshape %[[X]] : tensor<2x3xf16> -> tensor<3x1x2xf16>
// CHECK-NEXT:    %{{.*}} = rlx.transpose %[[X]] [1, 0] : tensor<2x3xf16> -> tensor<3x2xf16>
// CHECK-NEXT:    %{{.*}} = rlx.expand %[[X]] : tensor<2x3xf16> -> tensor<4x2x3xf16>
// CHECK-NEXT:    %{{.*}} = rlx.concat %[[X]], %[[X]] axis = 1 : (tensor<2x3xf16>, tensor<2x3xf16>) -> tensor<2x6xf16>
// CHECK-NEXT:    %{{.*}} = rlx.concat %[[Z]], %[[Y]], %[[Z]] axis = 0 : (tensor<0x2xf16>, tensor<2x2xf16>, tensor<0x2xf16>) -> tensor<2x2xf16>
// CHECK-NEXT:    %{{.*}} = rlx.narrow %[[X]] axis = 0, start = 1, length = 1 : tensor<2x3xf16> -> tensor<1x3xf16>
// CHECK-NEXT:    %{{.*}} = rlx.slice %[[X]] axis = 1, start = 2, length = 2, step = -2 : tensor<2x3xf16> -> tensor<2x2xf16>
// CHECK-NEXT:    %{{.*}} = rlx.narrow %[[Z]] axis = 1, start = 1, length = 1 : tensor<0x2xf16> -> tensor<0x1xf16>
// CHECK-NEXT:    %{{.*}} = rlx.slice %[[Z]] axis = -1, start = 1, length = 2, step = -1 : tensor<0x2xf16> -> tensor<0x2xf16>
// CHECK-NEXT:    %{{.*}} = rlx.transpose %[[Z]] [1, 0] : tensor<0x2xf16> -> tensor<2x0xf16>
// CHECK-NEXT:    %{{.*}} = rlx.reshape %[[Z]] : tensor<0x2xf16> -> tensor<5x0xf16>
// CHECK-NEXT:    return
func.func @data_movement_f16(%x: tensor<2x3xf16>, %y: tensor<2x2xf16>, %z: tensor<0x2xf16>) {
  %0 = rlx.reshape %x : tensor<2x3xf16> -> tensor<3x1x2xf16>
  %1 = rlx.transpose %x [1, 0] : tensor<2x3xf16> -> tensor<3x2xf16>
  %2 = rlx.expand %x : tensor<2x3xf16> -> tensor<4x2x3xf16>
  %3 = rlx.concat %x, %x axis = 1 : (tensor<2x3xf16>, tensor<2x3xf16>) -> tensor<2x6xf16>
  %4 = rlx.concat %z, %y, %z axis = 0 : (tensor<0x2xf16>, tensor<2x2xf16>, tensor<0x2xf16>) -> tensor<2x2xf16>
  %5 = rlx.narrow %x axis = 0, start = 1, length = 1 : tensor<2x3xf16> -> tensor<1x3xf16>
  %6 = rlx.slice %x axis = 1, start = 2, length = 2, step = -2 : tensor<2x3xf16> -> tensor<2x2xf16>
  %7 = rlx.narrow %z axis = 1, start = 1, length = 1 : tensor<0x2xf16> -> tensor<0x1xf16>
  %8 = rlx.slice %z axis = -1, start = 1, length = 2, step = -1 : tensor<0x2xf16> -> tensor<0x2xf16>
  %9 = rlx.transpose %z [1, 0] : tensor<0x2xf16> -> tensor<2x0xf16>
  %10 = rlx.reshape %z : tensor<0x2xf16> -> tensor<5x0xf16>
  return
}

// CHECK-LABEL: func.func @data_movement_bf16(
// CHECK-SAME:    %[[X:[a-z0-9]+]]: tensor<2x3xbf16>, %[[Y:[a-z0-9]+]]: tensor<2x2xbf16>, %[[Z:[a-z0-9]+]]: tensor<0x2xbf16>)
// CHECK-NEXT:    %{{.*}} = rlx.reshape %[[X]] : tensor<2x3xbf16> -> tensor<3x1x2xbf16>
// CHECK-NEXT:    %{{.*}} = rlx.transpose %[[X]] [1, 0] : tensor<2x3xbf16> -> tensor<3x2xbf16>
// CHECK-NEXT:    %{{.*}} = rlx.expand %[[X]] : tensor<2x3xbf16> -> tensor<4x2x3xbf16>
// CHECK-NEXT:    %{{.*}} = rlx.concat %[[X]], %[[X]] axis = 1 : (tensor<2x3xbf16>, tensor<2x3xbf16>) -> tensor<2x6xbf16>
// CHECK-NEXT:    %{{.*}} = rlx.concat %[[Z]], %[[Y]], %[[Z]] axis = 0 : (tensor<0x2xbf16>, tensor<2x2xbf16>, tensor<0x2xbf16>) -> tensor<2x2xbf16>
// CHECK-NEXT:    %{{.*}} = rlx.narrow %[[X]] axis = 0, start = 1, length = 1 : tensor<2x3xbf16> -> tensor<1x3xbf16>
// CHECK-NEXT:    %{{.*}} = rlx.slice %[[X]] axis = 1, start = 2, length = 2, step = -2 : tensor<2x3xbf16> -> tensor<2x2xbf16>
// CHECK-NEXT:    %{{.*}} = rlx.narrow %[[Z]] axis = 1, start = 1, length = 1 : tensor<0x2xbf16> -> tensor<0x1xbf16>
// CHECK-NEXT:    %{{.*}} = rlx.slice %[[Z]] axis = -1, start = 1, length = 2, step = -1 : tensor<0x2xbf16> -> tensor<0x2xbf16>
// CHECK-NEXT:    %{{.*}} = rlx.transpose %[[Z]] [1, 0] : tensor<0x2xbf16> -> tensor<2x0xbf16>
// CHECK-NEXT:    %{{.*}} = rlx.reshape %[[Z]] : tensor<0x2xbf16> -> tensor<5x0xbf16>
// CHECK-NEXT:    return
func.func @data_movement_bf16(%x: tensor<2x3xbf16>, %y: tensor<2x2xbf16>, %z: tensor<0x2xbf16>) {
  %0 = rlx.reshape %x : tensor<2x3xbf16> -> tensor<3x1x2xbf16>
  %1 = rlx.transpose %x [1, 0] : tensor<2x3xbf16> -> tensor<3x2xbf16>
  %2 = rlx.expand %x : tensor<2x3xbf16> -> tensor<4x2x3xbf16>
  %3 = rlx.concat %x, %x axis = 1 : (tensor<2x3xbf16>, tensor<2x3xbf16>) -> tensor<2x6xbf16>
  %4 = rlx.concat %z, %y, %z axis = 0 : (tensor<0x2xbf16>, tensor<2x2xbf16>, tensor<0x2xbf16>) -> tensor<2x2xbf16>
  %5 = rlx.narrow %x axis = 0, start = 1, length = 1 : tensor<2x3xbf16> -> tensor<1x3xbf16>
  %6 = rlx.slice %x axis = 1, start = 2, length = 2, step = -2 : tensor<2x3xbf16> -> tensor<2x2xbf16>
  %7 = rlx.narrow %z axis = 1, start = 1, length = 1 : tensor<0x2xbf16> -> tensor<0x1xbf16>
  %8 = rlx.slice %z axis = -1, start = 1, length = 2, step = -1 : tensor<0x2xbf16> -> tensor<0x2xbf16>
  %9 = rlx.transpose %z [1, 0] : tensor<0x2xbf16> -> tensor<2x0xbf16>
  %10 = rlx.reshape %z : tensor<0x2xbf16> -> tensor<5x0xbf16>
  return
}

// CHECK-LABEL: func.func @data_movement_f32(
// CHECK-SAME:    %[[X:[a-z0-9]+]]: tensor<2x3xf32>, %[[Y:[a-z0-9]+]]: tensor<2x2xf32>, %[[Z:[a-z0-9]+]]: tensor<0x2xf32>)
// CHECK-NEXT:    %{{.*}} = rlx.reshape %[[X]] : tensor<2x3xf32> -> tensor<3x1x2xf32>
// CHECK-NEXT:    %{{.*}} = rlx.transpose %[[X]] [1, 0] : tensor<2x3xf32> -> tensor<3x2xf32>
// CHECK-NEXT:    %{{.*}} = rlx.expand %[[X]] : tensor<2x3xf32> -> tensor<4x2x3xf32>
// CHECK-NEXT:    %{{.*}} = rlx.concat %[[X]], %[[X]] axis = 1 : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x6xf32>
// CHECK-NEXT:    %{{.*}} = rlx.concat %[[Z]], %[[Y]], %[[Z]] axis = 0 : (tensor<0x2xf32>, tensor<2x2xf32>, tensor<0x2xf32>) -> tensor<2x2xf32>
// CHECK-NEXT:    %{{.*}} = rlx.narrow %[[X]] axis = 0, start = 1, length = 1 : tensor<2x3xf32> -> tensor<1x3xf32>
// CHECK-NEXT:    %{{.*}} = rlx.slice %[[X]] axis = 1, start = 2, length = 2, step = -2 : tensor<2x3xf32> -> tensor<2x2xf32>
// CHECK-NEXT:    %{{.*}} = rlx.narrow %[[Z]] axis = 1, start = 1, length = 1 : tensor<0x2xf32> -> tensor<0x1xf32>
// CHECK-NEXT:    %{{.*}} = rlx.slice %[[Z]] axis = -1, start = 1, length = 2, step = -1 : tensor<0x2xf32> -> tensor<0x2xf32>
// CHECK-NEXT:    %{{.*}} = rlx.transpose %[[Z]] [1, 0] : tensor<0x2xf32> -> tensor<2x0xf32>
// CHECK-NEXT:    %{{.*}} = rlx.reshape %[[Z]] : tensor<0x2xf32> -> tensor<5x0xf32>
// CHECK-NEXT:    return
func.func @data_movement_f32(%x: tensor<2x3xf32>, %y: tensor<2x2xf32>, %z: tensor<0x2xf32>) {
  %0 = rlx.reshape %x : tensor<2x3xf32> -> tensor<3x1x2xf32>
  %1 = rlx.transpose %x [1, 0] : tensor<2x3xf32> -> tensor<3x2xf32>
  %2 = rlx.expand %x : tensor<2x3xf32> -> tensor<4x2x3xf32>
  %3 = rlx.concat %x, %x axis = 1 : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x6xf32>
  %4 = rlx.concat %z, %y, %z axis = 0 : (tensor<0x2xf32>, tensor<2x2xf32>, tensor<0x2xf32>) -> tensor<2x2xf32>
  %5 = rlx.narrow %x axis = 0, start = 1, length = 1 : tensor<2x3xf32> -> tensor<1x3xf32>
  %6 = rlx.slice %x axis = 1, start = 2, length = 2, step = -2 : tensor<2x3xf32> -> tensor<2x2xf32>
  %7 = rlx.narrow %z axis = 1, start = 1, length = 1 : tensor<0x2xf32> -> tensor<0x1xf32>
  %8 = rlx.slice %z axis = -1, start = 1, length = 2, step = -1 : tensor<0x2xf32> -> tensor<0x2xf32>
  %9 = rlx.transpose %z [1, 0] : tensor<0x2xf32> -> tensor<2x0xf32>
  %10 = rlx.reshape %z : tensor<0x2xf32> -> tensor<5x0xf32>
  return
}

// CHECK-LABEL: func.func @data_movement_f64(
// CHECK-SAME:    %[[X:[a-z0-9]+]]: tensor<2x3xf64>, %[[Y:[a-z0-9]+]]: tensor<2x2xf64>, %[[Z:[a-z0-9]+]]: tensor<0x2xf64>)
// CHECK-NEXT:    %{{.*}} = rlx.reshape %[[X]] : tensor<2x3xf64> -> tensor<3x1x2xf64>
// CHECK-NEXT:    %{{.*}} = rlx.transpose %[[X]] [1, 0] : tensor<2x3xf64> -> tensor<3x2xf64>
// CHECK-NEXT:    %{{.*}} = rlx.expand %[[X]] : tensor<2x3xf64> -> tensor<4x2x3xf64>
// CHECK-NEXT:    %{{.*}} = rlx.concat %[[X]], %[[X]] axis = 1 : (tensor<2x3xf64>, tensor<2x3xf64>) -> tensor<2x6xf64>
// CHECK-NEXT:    %{{.*}} = rlx.concat %[[Z]], %[[Y]], %[[Z]] axis = 0 : (tensor<0x2xf64>, tensor<2x2xf64>, tensor<0x2xf64>) -> tensor<2x2xf64>
// CHECK-NEXT:    %{{.*}} = rlx.narrow %[[X]] axis = 0, start = 1, length = 1 : tensor<2x3xf64> -> tensor<1x3xf64>
// CHECK-NEXT:    %{{.*}} = rlx.slice %[[X]] axis = 1, start = 2, length = 2, step = -2 : tensor<2x3xf64> -> tensor<2x2xf64>
// CHECK-NEXT:    %{{.*}} = rlx.narrow %[[Z]] axis = 1, start = 1, length = 1 : tensor<0x2xf64> -> tensor<0x1xf64>
// CHECK-NEXT:    %{{.*}} = rlx.slice %[[Z]] axis = -1, start = 1, length = 2, step = -1 : tensor<0x2xf64> -> tensor<0x2xf64>
// CHECK-NEXT:    %{{.*}} = rlx.transpose %[[Z]] [1, 0] : tensor<0x2xf64> -> tensor<2x0xf64>
// CHECK-NEXT:    %{{.*}} = rlx.reshape %[[Z]] : tensor<0x2xf64> -> tensor<5x0xf64>
// CHECK-NEXT:    return
func.func @data_movement_f64(%x: tensor<2x3xf64>, %y: tensor<2x2xf64>, %z: tensor<0x2xf64>) {
  %0 = rlx.reshape %x : tensor<2x3xf64> -> tensor<3x1x2xf64>
  %1 = rlx.transpose %x [1, 0] : tensor<2x3xf64> -> tensor<3x2xf64>
  %2 = rlx.expand %x : tensor<2x3xf64> -> tensor<4x2x3xf64>
  %3 = rlx.concat %x, %x axis = 1 : (tensor<2x3xf64>, tensor<2x3xf64>) -> tensor<2x6xf64>
  %4 = rlx.concat %z, %y, %z axis = 0 : (tensor<0x2xf64>, tensor<2x2xf64>, tensor<0x2xf64>) -> tensor<2x2xf64>
  %5 = rlx.narrow %x axis = 0, start = 1, length = 1 : tensor<2x3xf64> -> tensor<1x3xf64>
  %6 = rlx.slice %x axis = 1, start = 2, length = 2, step = -2 : tensor<2x3xf64> -> tensor<2x2xf64>
  %7 = rlx.narrow %z axis = 1, start = 1, length = 1 : tensor<0x2xf64> -> tensor<0x1xf64>
  %8 = rlx.slice %z axis = -1, start = 1, length = 2, step = -1 : tensor<0x2xf64> -> tensor<0x2xf64>
  %9 = rlx.transpose %z [1, 0] : tensor<0x2xf64> -> tensor<2x0xf64>
  %10 = rlx.reshape %z : tensor<0x2xf64> -> tensor<5x0xf64>
  return
}

// CHECK-LABEL: func.func @data_movement_i8(
// CHECK-SAME:    %[[X:[a-z0-9]+]]: tensor<2x3xi8>, %[[Y:[a-z0-9]+]]: tensor<2x2xi8>, %[[Z:[a-z0-9]+]]: tensor<0x2xi8>)
// CHECK-NEXT:    %{{.*}} = rlx.reshape %[[X]] : tensor<2x3xi8> -> tensor<3x1x2xi8>
// CHECK-NEXT:    %{{.*}} = rlx.transpose %[[X]] [1, 0] : tensor<2x3xi8> -> tensor<3x2xi8>
// CHECK-NEXT:    %{{.*}} = rlx.expand %[[X]] : tensor<2x3xi8> -> tensor<4x2x3xi8>
// CHECK-NEXT:    %{{.*}} = rlx.concat %[[X]], %[[X]] axis = 1 : (tensor<2x3xi8>, tensor<2x3xi8>) -> tensor<2x6xi8>
// CHECK-NEXT:    %{{.*}} = rlx.concat %[[Z]], %[[Y]], %[[Z]] axis = 0 : (tensor<0x2xi8>, tensor<2x2xi8>, tensor<0x2xi8>) -> tensor<2x2xi8>
// CHECK-NEXT:    %{{.*}} = rlx.narrow %[[X]] axis = 0, start = 1, length = 1 : tensor<2x3xi8> -> tensor<1x3xi8>
// CHECK-NEXT:    %{{.*}} = rlx.slice %[[X]] axis = 1, start = 2, length = 2, step = -2 : tensor<2x3xi8> -> tensor<2x2xi8>
// CHECK-NEXT:    %{{.*}} = rlx.narrow %[[Z]] axis = 1, start = 1, length = 1 : tensor<0x2xi8> -> tensor<0x1xi8>
// CHECK-NEXT:    %{{.*}} = rlx.slice %[[Z]] axis = -1, start = 1, length = 2, step = -1 : tensor<0x2xi8> -> tensor<0x2xi8>
// CHECK-NEXT:    %{{.*}} = rlx.transpose %[[Z]] [1, 0] : tensor<0x2xi8> -> tensor<2x0xi8>
// CHECK-NEXT:    %{{.*}} = rlx.reshape %[[Z]] : tensor<0x2xi8> -> tensor<5x0xi8>
// CHECK-NEXT:    return
func.func @data_movement_i8(%x: tensor<2x3xi8>, %y: tensor<2x2xi8>, %z: tensor<0x2xi8>) {
  %0 = rlx.reshape %x : tensor<2x3xi8> -> tensor<3x1x2xi8>
  %1 = rlx.transpose %x [1, 0] : tensor<2x3xi8> -> tensor<3x2xi8>
  %2 = rlx.expand %x : tensor<2x3xi8> -> tensor<4x2x3xi8>
  %3 = rlx.concat %x, %x axis = 1 : (tensor<2x3xi8>, tensor<2x3xi8>) -> tensor<2x6xi8>
  %4 = rlx.concat %z, %y, %z axis = 0 : (tensor<0x2xi8>, tensor<2x2xi8>, tensor<0x2xi8>) -> tensor<2x2xi8>
  %5 = rlx.narrow %x axis = 0, start = 1, length = 1 : tensor<2x3xi8> -> tensor<1x3xi8>
  %6 = rlx.slice %x axis = 1, start = 2, length = 2, step = -2 : tensor<2x3xi8> -> tensor<2x2xi8>
  %7 = rlx.narrow %z axis = 1, start = 1, length = 1 : tensor<0x2xi8> -> tensor<0x1xi8>
  %8 = rlx.slice %z axis = -1, start = 1, length = 2, step = -1 : tensor<0x2xi8> -> tensor<0x2xi8>
  %9 = rlx.transpose %z [1, 0] : tensor<0x2xi8> -> tensor<2x0xi8>
  %10 = rlx.reshape %z : tensor<0x2xi8> -> tensor<5x0xi8>
  return
}

// CHECK-LABEL: func.func @data_movement_i16(
// CHECK-SAME:    %[[X:[a-z0-9]+]]: tensor<2x3xi16>, %[[Y:[a-z0-9]+]]: tensor<2x2xi16>, %[[Z:[a-z0-9]+]]: tensor<0x2xi16>)
// CHECK-NEXT:    %{{.*}} = rlx.reshape %[[X]] : tensor<2x3xi16> -> tensor<3x1x2xi16>
// CHECK-NEXT:    %{{.*}} = rlx.transpose %[[X]] [1, 0] : tensor<2x3xi16> -> tensor<3x2xi16>
// CHECK-NEXT:    %{{.*}} = rlx.expand %[[X]] : tensor<2x3xi16> -> tensor<4x2x3xi16>
// CHECK-NEXT:    %{{.*}} = rlx.concat %[[X]], %[[X]] axis = 1 : (tensor<2x3xi16>, tensor<2x3xi16>) -> tensor<2x6xi16>
// CHECK-NEXT:    %{{.*}} = rlx.concat %[[Z]], %[[Y]], %[[Z]] axis = 0 : (tensor<0x2xi16>, tensor<2x2xi16>, tensor<0x2xi16>) -> tensor<2x2xi16>
// CHECK-NEXT:    %{{.*}} = rlx.narrow %[[X]] axis = 0, start = 1, length = 1 : tensor<2x3xi16> -> tensor<1x3xi16>
// CHECK-NEXT:    %{{.*}} = rlx.slice %[[X]] axis = 1, start = 2, length = 2, step = -2 : tensor<2x3xi16> -> tensor<2x2xi16>
// CHECK-NEXT:    %{{.*}} = rlx.narrow %[[Z]] axis = 1, start = 1, length = 1 : tensor<0x2xi16> -> tensor<0x1xi16>
// CHECK-NEXT:    %{{.*}} = rlx.slice %[[Z]] axis = -1, start = 1, length = 2, step = -1 : tensor<0x2xi16> -> tensor<0x2xi16>
// CHECK-NEXT:    %{{.*}} = rlx.transpose %[[Z]] [1, 0] : tensor<0x2xi16> -> tensor<2x0xi16>
// CHECK-NEXT:    %{{.*}} = rlx.reshape %[[Z]] : tensor<0x2xi16> -> tensor<5x0xi16>
// CHECK-NEXT:    return
func.func @data_movement_i16(%x: tensor<2x3xi16>, %y: tensor<2x2xi16>, %z: tensor<0x2xi16>) {
  %0 = rlx.reshape %x : tensor<2x3xi16> -> tensor<3x1x2xi16>
  %1 = rlx.transpose %x [1, 0] : tensor<2x3xi16> -> tensor<3x2xi16>
  %2 = rlx.expand %x : tensor<2x3xi16> -> tensor<4x2x3xi16>
  %3 = rlx.concat %x, %x axis = 1 : (tensor<2x3xi16>, tensor<2x3xi16>) -> tensor<2x6xi16>
  %4 = rlx.concat %z, %y, %z axis = 0 : (tensor<0x2xi16>, tensor<2x2xi16>, tensor<0x2xi16>) -> tensor<2x2xi16>
  %5 = rlx.narrow %x axis = 0, start = 1, length = 1 : tensor<2x3xi16> -> tensor<1x3xi16>
  %6 = rlx.slice %x axis = 1, start = 2, length = 2, step = -2 : tensor<2x3xi16> -> tensor<2x2xi16>
  %7 = rlx.narrow %z axis = 1, start = 1, length = 1 : tensor<0x2xi16> -> tensor<0x1xi16>
  %8 = rlx.slice %z axis = -1, start = 1, length = 2, step = -1 : tensor<0x2xi16> -> tensor<0x2xi16>
  %9 = rlx.transpose %z [1, 0] : tensor<0x2xi16> -> tensor<2x0xi16>
  %10 = rlx.reshape %z : tensor<0x2xi16> -> tensor<5x0xi16>
  return
}

// CHECK-LABEL: func.func @data_movement_i32(
// CHECK-SAME:    %[[X:[a-z0-9]+]]: tensor<2x3xi32>, %[[Y:[a-z0-9]+]]: tensor<2x2xi32>, %[[Z:[a-z0-9]+]]: tensor<0x2xi32>)
// CHECK-NEXT:    %{{.*}} = rlx.reshape %[[X]] : tensor<2x3xi32> -> tensor<3x1x2xi32>
// CHECK-NEXT:    %{{.*}} = rlx.transpose %[[X]] [1, 0] : tensor<2x3xi32> -> tensor<3x2xi32>
// CHECK-NEXT:    %{{.*}} = rlx.expand %[[X]] : tensor<2x3xi32> -> tensor<4x2x3xi32>
// CHECK-NEXT:    %{{.*}} = rlx.concat %[[X]], %[[X]] axis = 1 : (tensor<2x3xi32>, tensor<2x3xi32>) -> tensor<2x6xi32>
// CHECK-NEXT:    %{{.*}} = rlx.concat %[[Z]], %[[Y]], %[[Z]] axis = 0 : (tensor<0x2xi32>, tensor<2x2xi32>, tensor<0x2xi32>) -> tensor<2x2xi32>
// CHECK-NEXT:    %{{.*}} = rlx.narrow %[[X]] axis = 0, start = 1, length = 1 : tensor<2x3xi32> -> tensor<1x3xi32>
// CHECK-NEXT:    %{{.*}} = rlx.slice %[[X]] axis = 1, start = 2, length = 2, step = -2 : tensor<2x3xi32> -> tensor<2x2xi32>
// CHECK-NEXT:    %{{.*}} = rlx.narrow %[[Z]] axis = 1, start = 1, length = 1 : tensor<0x2xi32> -> tensor<0x1xi32>
// CHECK-NEXT:    %{{.*}} = rlx.slice %[[Z]] axis = -1, start = 1, length = 2, step = -1 : tensor<0x2xi32> -> tensor<0x2xi32>
// CHECK-NEXT:    %{{.*}} = rlx.transpose %[[Z]] [1, 0] : tensor<0x2xi32> -> tensor<2x0xi32>
// CHECK-NEXT:    %{{.*}} = rlx.reshape %[[Z]] : tensor<0x2xi32> -> tensor<5x0xi32>
// CHECK-NEXT:    return
func.func @data_movement_i32(%x: tensor<2x3xi32>, %y: tensor<2x2xi32>, %z: tensor<0x2xi32>) {
  %0 = rlx.reshape %x : tensor<2x3xi32> -> tensor<3x1x2xi32>
  %1 = rlx.transpose %x [1, 0] : tensor<2x3xi32> -> tensor<3x2xi32>
  %2 = rlx.expand %x : tensor<2x3xi32> -> tensor<4x2x3xi32>
  %3 = rlx.concat %x, %x axis = 1 : (tensor<2x3xi32>, tensor<2x3xi32>) -> tensor<2x6xi32>
  %4 = rlx.concat %z, %y, %z axis = 0 : (tensor<0x2xi32>, tensor<2x2xi32>, tensor<0x2xi32>) -> tensor<2x2xi32>
  %5 = rlx.narrow %x axis = 0, start = 1, length = 1 : tensor<2x3xi32> -> tensor<1x3xi32>
  %6 = rlx.slice %x axis = 1, start = 2, length = 2, step = -2 : tensor<2x3xi32> -> tensor<2x2xi32>
  %7 = rlx.narrow %z axis = 1, start = 1, length = 1 : tensor<0x2xi32> -> tensor<0x1xi32>
  %8 = rlx.slice %z axis = -1, start = 1, length = 2, step = -1 : tensor<0x2xi32> -> tensor<0x2xi32>
  %9 = rlx.transpose %z [1, 0] : tensor<0x2xi32> -> tensor<2x0xi32>
  %10 = rlx.reshape %z : tensor<0x2xi32> -> tensor<5x0xi32>
  return
}

// CHECK-LABEL: func.func @data_movement_i64(
// CHECK-SAME:    %[[X:[a-z0-9]+]]: tensor<2x3xi64>, %[[Y:[a-z0-9]+]]: tensor<2x2xi64>, %[[Z:[a-z0-9]+]]: tensor<0x2xi64>)
// CHECK-NEXT:    %{{.*}} = rlx.reshape %[[X]] : tensor<2x3xi64> -> tensor<3x1x2xi64>
// CHECK-NEXT:    %{{.*}} = rlx.transpose %[[X]] [1, 0] : tensor<2x3xi64> -> tensor<3x2xi64>
// CHECK-NEXT:    %{{.*}} = rlx.expand %[[X]] : tensor<2x3xi64> -> tensor<4x2x3xi64>
// CHECK-NEXT:    %{{.*}} = rlx.concat %[[X]], %[[X]] axis = 1 : (tensor<2x3xi64>, tensor<2x3xi64>) -> tensor<2x6xi64>
// CHECK-NEXT:    %{{.*}} = rlx.concat %[[Z]], %[[Y]], %[[Z]] axis = 0 : (tensor<0x2xi64>, tensor<2x2xi64>, tensor<0x2xi64>) -> tensor<2x2xi64>
// CHECK-NEXT:    %{{.*}} = rlx.narrow %[[X]] axis = 0, start = 1, length = 1 : tensor<2x3xi64> -> tensor<1x3xi64>
// CHECK-NEXT:    %{{.*}} = rlx.slice %[[X]] axis = 1, start = 2, length = 2, step = -2 : tensor<2x3xi64> -> tensor<2x2xi64>
// CHECK-NEXT:    %{{.*}} = rlx.narrow %[[Z]] axis = 1, start = 1, length = 1 : tensor<0x2xi64> -> tensor<0x1xi64>
// CHECK-NEXT:    %{{.*}} = rlx.slice %[[Z]] axis = -1, start = 1, length = 2, step = -1 : tensor<0x2xi64> -> tensor<0x2xi64>
// CHECK-NEXT:    %{{.*}} = rlx.transpose %[[Z]] [1, 0] : tensor<0x2xi64> -> tensor<2x0xi64>
// CHECK-NEXT:    %{{.*}} = rlx.reshape %[[Z]] : tensor<0x2xi64> -> tensor<5x0xi64>
// CHECK-NEXT:    return
func.func @data_movement_i64(%x: tensor<2x3xi64>, %y: tensor<2x2xi64>, %z: tensor<0x2xi64>) {
  %0 = rlx.reshape %x : tensor<2x3xi64> -> tensor<3x1x2xi64>
  %1 = rlx.transpose %x [1, 0] : tensor<2x3xi64> -> tensor<3x2xi64>
  %2 = rlx.expand %x : tensor<2x3xi64> -> tensor<4x2x3xi64>
  %3 = rlx.concat %x, %x axis = 1 : (tensor<2x3xi64>, tensor<2x3xi64>) -> tensor<2x6xi64>
  %4 = rlx.concat %z, %y, %z axis = 0 : (tensor<0x2xi64>, tensor<2x2xi64>, tensor<0x2xi64>) -> tensor<2x2xi64>
  %5 = rlx.narrow %x axis = 0, start = 1, length = 1 : tensor<2x3xi64> -> tensor<1x3xi64>
  %6 = rlx.slice %x axis = 1, start = 2, length = 2, step = -2 : tensor<2x3xi64> -> tensor<2x2xi64>
  %7 = rlx.narrow %z axis = 1, start = 1, length = 1 : tensor<0x2xi64> -> tensor<0x1xi64>
  %8 = rlx.slice %z axis = -1, start = 1, length = 2, step = -1 : tensor<0x2xi64> -> tensor<0x2xi64>
  %9 = rlx.transpose %z [1, 0] : tensor<0x2xi64> -> tensor<2x0xi64>
  %10 = rlx.reshape %z : tensor<0x2xi64> -> tensor<5x0xi64>
  return
}

// CHECK-LABEL: func.func @data_movement_i1(
// CHECK-SAME:    %[[X:[a-z0-9]+]]: tensor<2x3xi1>, %[[Y:[a-z0-9]+]]: tensor<2x2xi1>, %[[Z:[a-z0-9]+]]: tensor<0x2xi1>)
// CHECK-NEXT:    %{{.*}} = rlx.reshape %[[X]] : tensor<2x3xi1> -> tensor<3x1x2xi1>
// CHECK-NEXT:    %{{.*}} = rlx.transpose %[[X]] [1, 0] : tensor<2x3xi1> -> tensor<3x2xi1>
// CHECK-NEXT:    %{{.*}} = rlx.expand %[[X]] : tensor<2x3xi1> -> tensor<4x2x3xi1>
// CHECK-NEXT:    %{{.*}} = rlx.concat %[[X]], %[[X]] axis = 1 : (tensor<2x3xi1>, tensor<2x3xi1>) -> tensor<2x6xi1>
// CHECK-NEXT:    %{{.*}} = rlx.concat %[[Z]], %[[Y]], %[[Z]] axis = 0 : (tensor<0x2xi1>, tensor<2x2xi1>, tensor<0x2xi1>) -> tensor<2x2xi1>
// CHECK-NEXT:    %{{.*}} = rlx.narrow %[[X]] axis = 0, start = 1, length = 1 : tensor<2x3xi1> -> tensor<1x3xi1>
// CHECK-NEXT:    %{{.*}} = rlx.slice %[[X]] axis = 1, start = 2, length = 2, step = -2 : tensor<2x3xi1> -> tensor<2x2xi1>
// CHECK-NEXT:    %{{.*}} = rlx.narrow %[[Z]] axis = 1, start = 1, length = 1 : tensor<0x2xi1> -> tensor<0x1xi1>
// CHECK-NEXT:    %{{.*}} = rlx.slice %[[Z]] axis = -1, start = 1, length = 2, step = -1 : tensor<0x2xi1> -> tensor<0x2xi1>
// CHECK-NEXT:    %{{.*}} = rlx.transpose %[[Z]] [1, 0] : tensor<0x2xi1> -> tensor<2x0xi1>
// CHECK-NEXT:    %{{.*}} = rlx.reshape %[[Z]] : tensor<0x2xi1> -> tensor<5x0xi1>
// CHECK-NEXT:    return
func.func @data_movement_i1(%x: tensor<2x3xi1>, %y: tensor<2x2xi1>, %z: tensor<0x2xi1>) {
  %0 = rlx.reshape %x : tensor<2x3xi1> -> tensor<3x1x2xi1>
  %1 = rlx.transpose %x [1, 0] : tensor<2x3xi1> -> tensor<3x2xi1>
  %2 = rlx.expand %x : tensor<2x3xi1> -> tensor<4x2x3xi1>
  %3 = rlx.concat %x, %x axis = 1 : (tensor<2x3xi1>, tensor<2x3xi1>) -> tensor<2x6xi1>
  %4 = rlx.concat %z, %y, %z axis = 0 : (tensor<0x2xi1>, tensor<2x2xi1>, tensor<0x2xi1>) -> tensor<2x2xi1>
  %5 = rlx.narrow %x axis = 0, start = 1, length = 1 : tensor<2x3xi1> -> tensor<1x3xi1>
  %6 = rlx.slice %x axis = 1, start = 2, length = 2, step = -2 : tensor<2x3xi1> -> tensor<2x2xi1>
  %7 = rlx.narrow %z axis = 1, start = 1, length = 1 : tensor<0x2xi1> -> tensor<0x1xi1>
  %8 = rlx.slice %z axis = -1, start = 1, length = 2, step = -1 : tensor<0x2xi1> -> tensor<0x2xi1>
  %9 = rlx.transpose %z [1, 0] : tensor<0x2xi1> -> tensor<2x0xi1>
  %10 = rlx.reshape %z : tensor<0x2xi1> -> tensor<5x0xi1>
  return
}

//===----------------------------------------------------------------------===//
// constant
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @constant(
// CHECK-NEXT:    %{{.*}} = rlx.constant dense<1.000000e+00> : tensor<2x3xf32>
// CHECK-NEXT:    %{{.*}} = rlx.constant dense<[1.500000e+00, -2.000000e+00]> : tensor<2xf16>
// CHECK-NEXT:    %{{.*}} = rlx.constant dense<5.000000e-01> : tensor<bf16>
// CHECK-NEXT:    %{{.*}} = rlx.constant dense<{{\[}}[1.000000e-01, 2.000000e+00]]> : tensor<1x2xf64>
// CHECK-NEXT:    %{{.*}} = rlx.constant dense<[-128, 127]> : tensor<2xi8>
// CHECK-NEXT:    %{{.*}} = rlx.constant dense<7> : tensor<3x1xi16>
// CHECK-NEXT:    %{{.*}} = rlx.constant dense<-1> : tensor<i32>
// CHECK-NEXT:    %{{.*}} = rlx.constant dense<{{\[}}[1, 2], [3, 4]]> : tensor<2x2xi64>
// CHECK-NEXT:    %{{.*}} = rlx.constant dense<[true, false]> : tensor<2xi1>
// CHECK-NEXT:    %{{.*}} = rlx.constant dense<false> : tensor<i1>
// CHECK-NEXT:    %{{.*}} = rlx.constant dense<> : tensor<0x3xf32>
// CHECK-NEXT:    %{{.*}} = rlx.constant dense<2> : tensor<1x2x1x2x1x2xi32>
// CHECK-NEXT:    %{{.*}} = rlx.constant dense<[0x7FC00000, 0x7F800000, 0xFF800000, -0.000000e+00]> : tensor<4xf32>
// CHECK-NEXT:    return
func.func @constant() {
  %0 = rlx.constant dense<1.0> : tensor<2x3xf32>
  %1 = rlx.constant dense<[1.5, -2.0]> : tensor<2xf16>
  %2 = rlx.constant dense<0.5> : tensor<bf16>
  %3 = rlx.constant dense<[[0.1, 2.0]]> : tensor<1x2xf64>
  %4 = rlx.constant dense<[-128, 127]> : tensor<2xi8>
  %5 = rlx.constant dense<7> : tensor<3x1xi16>
  %6 = rlx.constant dense<-1> : tensor<i32>
  %7 = rlx.constant dense<[[1, 2], [3, 4]]> : tensor<2x2xi64>
  %8 = rlx.constant dense<[true, false]> : tensor<2xi1>
  %9 = rlx.constant dense<false> : tensor<i1>
  %10 = rlx.constant dense<> : tensor<0x3xf32>
  %11 = rlx.constant dense<2> : tensor<1x2x1x2x1x2xi32>
  %12 = rlx.constant dense<[0x7FC00000, 0x7F800000, 0xFF800000, -0.0]> : tensor<4xf32>
  return
}

//===----------------------------------------------------------------------===//
// Non-canonical spellings: generic form and untyped attributes.
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @generic_spellings(
// CHECK-SAME:    %[[X:[a-z0-9]+]]: tensor<2x3xf32>, %[[Y:[a-z0-9]+]]: tensor<3xf32>, %[[I:[a-z0-9]+]]: tensor<2x3xi32>)
// CHECK-NEXT:    %{{.*}} = rlx.clamp %[[X]] {min = 0.000000e+00 : f64} : tensor<2x3xf32>
// CHECK-NEXT:    %{{.*}} = rlx.clamp %[[X]] {max = 1.000000e+00 : f64, min = -1.000000e+00 : f64} : tensor<2x3xf32>
// CHECK-NEXT:    %{{.*}} = rlx.clamp %[[I]] {max = 2.500000e+00 : f64} : tensor<2x3xi32>
// CHECK-NEXT:    %{{.*}} = rlx.add %[[X]], %[[Y]] : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT:    %{{.*}} = rlx.reduce prod %[[I]] axes = [1] : tensor<2x3xi32> -> tensor<2xi32>
// CHECK-NEXT:    %{{.*}} = rlx.reduce mean %[[X]] axes = [-2, 1] keep_dim : tensor<2x3xf32> -> tensor<1x1xf32>
// CHECK-NEXT:    %{{.*}} = rlx.softmax %[[X]] axis = -1 : tensor<2x3xf32>
// CHECK-NEXT:    %{{.*}} = rlx.transpose %[[X]] [1, 0] : tensor<2x3xf32> -> tensor<3x2xf32>
// CHECK-NEXT:    %{{.*}} = rlx.slice %[[Y]] axis = 0, start = 2, length = 3, step = -1 : tensor<3xf32> -> tensor<3xf32>
// CHECK-NEXT:    %{{.*}} = rlx.constant dense<3> : tensor<2xi32>
// CHECK-NEXT:    %{{.*}} = rlx.cast %[[I]] : tensor<2x3xi32> -> tensor<2x3xi1>
// CHECK-NEXT:    return
func.func @generic_spellings(%x: tensor<2x3xf32>, %y: tensor<3xf32>, %i: tensor<2x3xi32>) {
  %0 = rlx.clamp %x {min = 0.0} : tensor<2x3xf32>
  %1 = rlx.clamp %x {min = -1.0, max = 1.0} : tensor<2x3xf32>
  %2 = "rlx.clamp"(%i) <{max = 2.5 : f64}> : (tensor<2x3xi32>) -> tensor<2x3xi32>
  %3 = "rlx.add"(%x, %y) : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %4 = "rlx.reduce"(%i) <{axes = array<i64: 1>, kind = 4 : i32}> : (tensor<2x3xi32>) -> tensor<2xi32>
  %5 = "rlx.reduce"(%x) <{axes = array<i64: -2, 1>, keep_dim, kind = 1 : i32}> : (tensor<2x3xf32>) -> tensor<1x1xf32>
  %6 = "rlx.softmax"(%x) <{axis = -1 : i64}> : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %7 = "rlx.transpose"(%x) <{permutation = array<i64: 1, 0>}> : (tensor<2x3xf32>) -> tensor<3x2xf32>
  %8 = "rlx.slice"(%y) <{axis = 0 : i64, start = 2 : i64, length = 3 : i64, step = -1 : i64}> : (tensor<3xf32>) -> tensor<3xf32>
  %9 = "rlx.constant"() <{value = dense<3> : tensor<2xi32>}> : () -> tensor<2xi32>
  %10 = "rlx.cast"(%i) : (tensor<2x3xi32>) -> tensor<2x3xi1>
  return
}

//===----------------------------------------------------------------------===//
// A small graph: ops consuming other ops' results.
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @mlp(
// CHECK-SAME:    %[[X:[a-z0-9]+]]: tensor<8x16xbf16>, %[[W:[a-z0-9]+]]: tensor<16x32xbf16>, %[[B:[a-z0-9]+]]: tensor<32xbf16>)
// CHECK-NEXT:    %[[MM:.*]] = rlx.matmul %[[X]], %[[W]] : (tensor<8x16xbf16>, tensor<16x32xbf16>) -> tensor<8x32xbf16>
// CHECK-NEXT:    %[[ADD:.*]] = rlx.add %[[MM]], %[[B]] : (tensor<8x32xbf16>, tensor<32xbf16>) -> tensor<8x32xbf16>
// CHECK-NEXT:    %[[ACT:.*]] = rlx.gelu %[[ADD]] : tensor<8x32xbf16>
// CHECK-NEXT:    %[[SM:.*]] = rlx.log_softmax %[[ACT]] axis = -1 : tensor<8x32xbf16>
// CHECK-NEXT:    %[[SG:.*]] = rlx.stop_gradient %[[SM]] : tensor<8x32xbf16>
// CHECK-NEXT:    %[[MAX:.*]] = rlx.reduce max %[[SG]] axes = [1] keep_dim : tensor<8x32xbf16> -> tensor<8x1xbf16>
// CHECK-NEXT:    %[[EQ:.*]] = rlx.eq %[[SG]], %[[MAX]] : (tensor<8x32xbf16>, tensor<8x1xbf16>) -> tensor<8x32xi1>
// CHECK-NEXT:    %[[IDX:.*]] = rlx.cast %[[EQ]] : tensor<8x32xi1> -> tensor<8x32xi64>
// CHECK-NEXT:    return %[[IDX]] : tensor<8x32xi64>
func.func @mlp(%x: tensor<8x16xbf16>, %w: tensor<16x32xbf16>, %b: tensor<32xbf16>) -> tensor<8x32xi64> {
  %0 = rlx.matmul %x, %w : (tensor<8x16xbf16>, tensor<16x32xbf16>) -> tensor<8x32xbf16>
  %1 = rlx.add %0, %b : (tensor<8x32xbf16>, tensor<32xbf16>) -> tensor<8x32xbf16>
  %2 = rlx.gelu %1 : tensor<8x32xbf16>
  %3 = rlx.log_softmax %2 axis = -1 : tensor<8x32xbf16>
  %4 = rlx.stop_gradient %3 : tensor<8x32xbf16>
  %5 = rlx.reduce max %4 axes = [1] keep_dim : tensor<8x32xbf16> -> tensor<8x1xbf16>
  %6 = rlx.eq %4, %5 : (tensor<8x32xbf16>, tensor<8x1xbf16>) -> tensor<8x32xi1>
  %7 = rlx.cast %6 : tensor<8x32xi1> -> tensor<8x32xi64>
  return %7 : tensor<8x32xi64>
}
