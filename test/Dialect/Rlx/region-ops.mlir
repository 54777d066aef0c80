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

// A row region: softmax over the last axis, with per-row values broadcast
// back and a per-row result.
// CHECK-LABEL: func.func @row_softmax(
// CHECK:         %{{.*}}:2 = rlx.region row ins(%{{.*}} : tensor<2x4xf32>) -> tensor<2x4xf32>, tensor<2x1xf32> {
// CHECK:           rlx.reduce max %{{.*}} axes = [1] keep_dim
// CHECK:           rlx.reduce sum %{{.*}} axes = [1] keep_dim
// CHECK:           rlx.yield %{{.*}}, %{{.*}} : tensor<2x4xf32>, tensor<2x1xf32>
func.func @row_softmax(%x: tensor<2x4xf32>) -> (tensor<2x4xf32>, tensor<2x1xf32>) {
  %r:2 = rlx.region row ins(%x : tensor<2x4xf32>) -> tensor<2x4xf32>, tensor<2x1xf32> {
  ^bb0(%a: tensor<2x4xf32>):
    %0 = rlx.reduce max %a axes = [1] keep_dim : tensor<2x4xf32> -> tensor<2x1xf32>
    %1 = rlx.sub %a, %0 : (tensor<2x4xf32>, tensor<2x1xf32>) -> tensor<2x4xf32>
    %2 = rlx.exp %1 : tensor<2x4xf32>
    %3 = rlx.reduce sum %2 axes = [1] keep_dim : tensor<2x4xf32> -> tensor<2x1xf32>
    %4 = rlx.div %2, %3 : (tensor<2x4xf32>, tensor<2x1xf32>) -> tensor<2x4xf32>
    rlx.yield %4, %3 : tensor<2x4xf32>, tensor<2x1xf32>
  }
  return %r#0, %r#1 : tensor<2x4xf32>, tensor<2x1xf32>
}

// A reduction region: elementwise work feeding two reductions of the same
// axes.
// CHECK-LABEL: func.func @reduction_two_results(
// CHECK:         %{{.*}}:2 = rlx.region reduction ins(%{{.*}}, %{{.*}} : tensor<3x5xf32>, tensor<3x5xf32>) -> tensor<5xf32>, tensor<1x5xf32> {
func.func @reduction_two_results(%x: tensor<3x5xf32>, %y: tensor<3x5xf32>) -> (tensor<5xf32>, tensor<1x5xf32>) {
  %r:2 = rlx.region reduction ins(%x, %y : tensor<3x5xf32>, tensor<3x5xf32>) -> tensor<5xf32>, tensor<1x5xf32> {
  ^bb0(%a: tensor<3x5xf32>, %b: tensor<3x5xf32>):
    %0 = rlx.sub %a, %b : (tensor<3x5xf32>, tensor<3x5xf32>) -> tensor<3x5xf32>
    %1 = rlx.mul %0, %0 : (tensor<3x5xf32>, tensor<3x5xf32>) -> tensor<3x5xf32>
    %2 = rlx.reduce sum %1 axes = [0] : tensor<3x5xf32> -> tensor<5xf32>
    %3 = rlx.reduce max %0 axes = [0] keep_dim : tensor<3x5xf32> -> tensor<1x5xf32>
    rlx.yield %2, %3 : tensor<5xf32>, tensor<1x5xf32>
  }
  return %r#0, %r#1 : tensor<5xf32>, tensor<1x5xf32>
}

// A contraction region: matmul with a bias and activation epilogue; the
// matmul's operands need not broadcast to the result shape.
// CHECK-LABEL: func.func @contraction_epilogue(
// CHECK:         rlx.region contraction ins(%{{.*}}, %{{.*}}, %{{.*}} : tensor<4x8xf32>, tensor<8x16xf32>, tensor<16xf32>) -> tensor<4x16xf32> {
// CHECK:           rlx.matmul
// CHECK:           rlx.add
// CHECK:           rlx.gelu
func.func @contraction_epilogue(%x: tensor<4x8xf32>, %w: tensor<8x16xf32>, %b: tensor<16xf32>) -> tensor<4x16xf32> {
  %r = rlx.region contraction ins(%x, %w, %b : tensor<4x8xf32>, tensor<8x16xf32>, tensor<16xf32>) -> tensor<4x16xf32> {
  ^bb0(%a: tensor<4x8xf32>, %c: tensor<8x16xf32>, %d: tensor<16xf32>):
    %0 = rlx.matmul %a, %c : (tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>
    %1 = rlx.add %0, %d : (tensor<4x16xf32>, tensor<16xf32>) -> tensor<4x16xf32>
    %2 = rlx.gelu %1 : tensor<4x16xf32>
    rlx.yield %2 : tensor<4x16xf32>
  }
  return %r : tensor<4x16xf32>
}

// A contraction region with a prologue on both operands.
// CHECK-LABEL: func.func @contraction_prologue(
// CHECK:         rlx.region contraction
// CHECK:           rlx.gelu
// CHECK:           rlx.tanh
// CHECK:           rlx.matmul
func.func @contraction_prologue(%x: tensor<4x8xf32>, %w: tensor<8x16xf32>) -> tensor<4x16xf32> {
  %r = rlx.region contraction ins(%x, %w : tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x16xf32> {
  ^bb0(%a: tensor<4x8xf32>, %c: tensor<8x16xf32>):
    %0 = rlx.gelu %a : tensor<4x8xf32>
    %1 = rlx.tanh %c : tensor<8x16xf32>
    %2 = rlx.matmul %0, %1 : (tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>
    rlx.yield %2 : tensor<4x16xf32>
  }
  return %r : tensor<4x16xf32>
}

// rlx.rows: a row region's body with one destination per result.
// CHECK-LABEL: func.func @rows(
// CHECK:         %{{.*}}:2 = rlx.rows ins(%{{.*}} : tensor<2x4xf32>) outs(%{{.*}}, %{{.*}} : tensor<2x4xf32>, tensor<2x1xf32>) attributes {tag} {
// CHECK:           rlx.reduce max %{{.*}} axes = [1] keep_dim
// CHECK:           rlx.yield %{{.*}}, %{{.*}} : tensor<2x4xf32>, tensor<2x1xf32>
// CHECK:         } -> tensor<2x4xf32>, tensor<2x1xf32>
func.func @rows(%x: tensor<2x4xf32>, %o: tensor<2x4xf32>, %m: tensor<2x1xf32>) -> (tensor<2x4xf32>, tensor<2x1xf32>) {
  %r:2 = rlx.rows ins(%x : tensor<2x4xf32>) outs(%o, %m : tensor<2x4xf32>, tensor<2x1xf32>) attributes {tag} {
  ^bb0(%a: tensor<2x4xf32>):
    %0 = rlx.reduce max %a axes = [1] keep_dim : tensor<2x4xf32> -> tensor<2x1xf32>
    %1 = rlx.sub %a, %0 : (tensor<2x4xf32>, tensor<2x1xf32>) -> tensor<2x4xf32>
    rlx.yield %1, %0 : tensor<2x4xf32>, tensor<2x1xf32>
  } -> tensor<2x4xf32>, tensor<2x1xf32>
  return %r#0, %r#1 : tensor<2x4xf32>, tensor<2x1xf32>
}
