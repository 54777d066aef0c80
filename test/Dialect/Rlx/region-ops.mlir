// RUN: rlx-opt %s | rlx-opt | FileCheck %s
// RUN: rlx-opt %s --mlir-print-op-generic | rlx-opt | FileCheck %s

// Round-trip of rlx.region and rlx.yield through the custom and the generic
// form.

// One result, an input broadcast from a smaller shape.
// CHECK-LABEL: func.func @single_result(
// CHECK-SAME:    %[[X:[a-z0-9]+]]: tensor<4x8xf32>, %[[B:[a-z0-9]+]]: tensor<8xf32>)
// CHECK-NEXT:    %[[R:.*]] = rlx.region elementwise ins(%[[X]], %[[B]] : tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32> {
// CHECK-NEXT:    ^bb0(%[[A:[a-z0-9]+]]: tensor<4x8xf32>, %[[C:[a-z0-9]+]]: tensor<8xf32>):
// CHECK-NEXT:      %[[S:.*]] = rlx.add %[[A]], %[[C]] : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT:      %[[G:.*]] = rlx.gelu %[[S]] : tensor<4x8xf32>
// CHECK-NEXT:      rlx.yield %[[G]] : tensor<4x8xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    return %[[R]] : tensor<4x8xf32>
func.func @single_result(%x: tensor<4x8xf32>, %b: tensor<8xf32>) -> tensor<4x8xf32> {
  %r = rlx.region elementwise ins(%x, %b : tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32> {
  ^bb0(%a: tensor<4x8xf32>, %c: tensor<8xf32>):
    %0 = rlx.add %a, %c : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
    %1 = rlx.gelu %0 : tensor<4x8xf32>
    rlx.yield %1 : tensor<4x8xf32>
  }
  return %r : tensor<4x8xf32>
}

// Several results, one of them an intermediate; inputs of rank 0, of
// size-1 dims and of full shape; a result of another element type.
// CHECK-LABEL: func.func @multi_result(
// CHECK-SAME:    %[[X:[a-z0-9]+]]: tensor<2x3x4xf32>, %[[S:[a-z0-9]+]]: tensor<f32>, %[[COL:[a-z0-9]+]]: tensor<2x1x4xf32>)
// CHECK-NEXT:    %[[R:.*]]:3 = rlx.region elementwise ins(%[[X]], %[[S]], %[[COL]] : tensor<2x3x4xf32>, tensor<f32>, tensor<2x1x4xf32>) -> tensor<2x3x4xf32>, tensor<2x3x4xf32>, tensor<2x3x4xi1> {
// CHECK-NEXT:    ^bb0(%[[A:[a-z0-9]+]]: tensor<2x3x4xf32>, %[[B:[a-z0-9]+]]: tensor<f32>, %[[C:[a-z0-9]+]]: tensor<2x1x4xf32>):
// CHECK-NEXT:      %[[M:.*]] = rlx.mul %[[A]], %[[B]] : (tensor<2x3x4xf32>, tensor<f32>) -> tensor<2x3x4xf32>
// CHECK-NEXT:      %[[D:.*]] = rlx.sub %[[M]], %[[C]] : (tensor<2x3x4xf32>, tensor<2x1x4xf32>) -> tensor<2x3x4xf32>
// CHECK-NEXT:      %[[E:.*]] = rlx.exp %[[D]] : tensor<2x3x4xf32>
// CHECK-NEXT:      %[[L:.*]] = rlx.lt %[[E]], %[[C]] : (tensor<2x3x4xf32>, tensor<2x1x4xf32>) -> tensor<2x3x4xi1>
// CHECK-NEXT:      rlx.yield %[[M]], %[[E]], %[[L]] : tensor<2x3x4xf32>, tensor<2x3x4xf32>, tensor<2x3x4xi1>
// CHECK-NEXT:    }
// CHECK-NEXT:    return %[[R]]#0, %[[R]]#1, %[[R]]#2 : tensor<2x3x4xf32>, tensor<2x3x4xf32>, tensor<2x3x4xi1>
func.func @multi_result(%x: tensor<2x3x4xf32>, %s: tensor<f32>, %col: tensor<2x1x4xf32>) -> (tensor<2x3x4xf32>, tensor<2x3x4xf32>, tensor<2x3x4xi1>) {
  %r:3 = rlx.region elementwise ins(%x, %s, %col : tensor<2x3x4xf32>, tensor<f32>, tensor<2x1x4xf32>) -> tensor<2x3x4xf32>, tensor<2x3x4xf32>, tensor<2x3x4xi1> {
  ^bb0(%a: tensor<2x3x4xf32>, %b: tensor<f32>, %c: tensor<2x1x4xf32>):
    %0 = rlx.mul %a, %b : (tensor<2x3x4xf32>, tensor<f32>) -> tensor<2x3x4xf32>
    %1 = rlx.sub %0, %c : (tensor<2x3x4xf32>, tensor<2x1x4xf32>) -> tensor<2x3x4xf32>
    %2 = rlx.exp %1 : tensor<2x3x4xf32>
    %3 = rlx.lt %2, %c : (tensor<2x3x4xf32>, tensor<2x1x4xf32>) -> tensor<2x3x4xi1>
    rlx.yield %0, %2, %3 : tensor<2x3x4xf32>, tensor<2x3x4xf32>, tensor<2x3x4xi1>
  }
  return %r#0, %r#1, %r#2 : tensor<2x3x4xf32>, tensor<2x3x4xf32>, tensor<2x3x4xi1>
}

// f16 values, and a cast to f32 inside the body.
// CHECK-LABEL: func.func @f16(
// CHECK-SAME:    %[[X:[a-z0-9]+]]: tensor<5x6xf16>, %[[Y:[a-z0-9]+]]: tensor<5x1xf16>)
// CHECK-NEXT:    %[[R:.*]]:2 = rlx.region elementwise ins(%[[X]], %[[Y]] : tensor<5x6xf16>, tensor<5x1xf16>) -> tensor<5x6xf16>, tensor<5x6xf32> {
// CHECK-NEXT:    ^bb0(%[[A:[a-z0-9]+]]: tensor<5x6xf16>, %[[B:[a-z0-9]+]]: tensor<5x1xf16>):
// CHECK-NEXT:      %[[D:.*]] = rlx.div %[[A]], %[[B]] : (tensor<5x6xf16>, tensor<5x1xf16>) -> tensor<5x6xf16>
// CHECK-NEXT:      %[[T:.*]] = rlx.tanh %[[D]] : tensor<5x6xf16>
// CHECK-NEXT:      %[[C:.*]] = rlx.cast %[[T]] : tensor<5x6xf16> -> tensor<5x6xf32>
// CHECK-NEXT:      rlx.yield %[[T]], %[[C]] : tensor<5x6xf16>, tensor<5x6xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    return %[[R]]#0, %[[R]]#1
func.func @f16(%x: tensor<5x6xf16>, %y: tensor<5x1xf16>) -> (tensor<5x6xf16>, tensor<5x6xf32>) {
  %r:2 = rlx.region elementwise ins(%x, %y : tensor<5x6xf16>, tensor<5x1xf16>) -> tensor<5x6xf16>, tensor<5x6xf32> {
  ^bb0(%a: tensor<5x6xf16>, %b: tensor<5x1xf16>):
    %0 = rlx.div %a, %b : (tensor<5x6xf16>, tensor<5x1xf16>) -> tensor<5x6xf16>
    %1 = rlx.tanh %0 : tensor<5x6xf16>
    %2 = rlx.cast %1 : tensor<5x6xf16> -> tensor<5x6xf32>
    rlx.yield %1, %2 : tensor<5x6xf16>, tensor<5x6xf32>
  }
  return %r#0, %r#1 : tensor<5x6xf16>, tensor<5x6xf32>
}

// A body that yields an argument as is, and a rank-0 region.
// CHECK-LABEL: func.func @passthrough_rank0(
// CHECK-SAME:    %[[X:[a-z0-9]+]]: tensor<f32>)
// CHECK-NEXT:    %[[R:.*]]:2 = rlx.region elementwise ins(%[[X]] : tensor<f32>) -> tensor<f32>, tensor<f32> {
// CHECK-NEXT:    ^bb0(%[[A:[a-z0-9]+]]: tensor<f32>):
// CHECK-NEXT:      %[[N:.*]] = rlx.neg %[[A]] : tensor<f32>
// CHECK-NEXT:      rlx.yield %[[A]], %[[N]] : tensor<f32>, tensor<f32>
// CHECK-NEXT:    }
func.func @passthrough_rank0(%x: tensor<f32>) -> (tensor<f32>, tensor<f32>) {
  %r:2 = rlx.region elementwise ins(%x : tensor<f32>) -> tensor<f32>, tensor<f32> {
  ^bb0(%a: tensor<f32>):
    %0 = rlx.neg %a : tensor<f32>
    rlx.yield %a, %0 : tensor<f32>, tensor<f32>
  }
  return %r#0, %r#1 : tensor<f32>, tensor<f32>
}
