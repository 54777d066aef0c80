// RUN: rlx-opt %s --rlx-form-regions -split-input-file | FileCheck %s
// RUN: rlx-opt %s --rlx-form-regions="row=false reduction=false contraction=false" -split-input-file | FileCheck %s --check-prefix=OFF
// RUN: rlx-opt %s --rlx-form-regions="max-inputs=2" -split-input-file | FileCheck %s --check-prefix=CAP

// Region kinds beyond elementwise: row ops decompose into elementwise ops
// and keep_dim reductions, which fuse with their neighbours into one row
// region; elementwise work feeding a reduction makes a reduction region; a
// contraction with its epilogue a contraction region. OFF turns those
// kinds off; CAP caps region inputs at 2.

// Scale, mask and softmax: one row region.
// CHECK-LABEL: func.func @masked_softmax(
// CHECK:         %[[R:.*]] = rlx.region row ins(
// CHECK:           rlx.mul
// CHECK-NEXT:      rlx.add
// CHECK-NEXT:      rlx.reduce max %{{.*}} axes = [1] keep_dim
// CHECK-NEXT:      rlx.sub
// CHECK-NEXT:      rlx.exp
// CHECK-NEXT:      rlx.reduce sum %{{.*}} axes = [1] keep_dim
// CHECK-NEXT:      rlx.div
// CHECK-NEXT:      rlx.yield
// CHECK-NEXT:    }
// CHECK-NEXT:    return %[[R]]
// OFF-LABEL:   func.func @masked_softmax(
// OFF:           rlx.region elementwise
// OFF:           rlx.softmax
// OFF-NOT:       rlx.region
// CAP-LABEL:   func.func @masked_softmax(
// CAP:           rlx.mul
// CAP-NEXT:      rlx.region row
func.func @masked_softmax(%x: tensor<4x8xf32>, %m: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %c = rlx.constant dense<0.5> : tensor<f32>
  %s = rlx.mul %x, %c : (tensor<4x8xf32>, tensor<f32>) -> tensor<4x8xf32>
  %a = rlx.add %s, %m : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %r = rlx.softmax %a axis = 1 : tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}

// -----

// `?` rows: the same row region (a `?` size is not an empty axis).
// CHECK-LABEL: func.func @rms_norm_dynamic_rows(
// CHECK:         rlx.region row ins(
// CHECK:           rlx.reduce mean %{{.*}} axes = [2] keep_dim : tensor<?x?x64xf32> -> tensor<?x?x1xf32>
// CHECK:           rlx.rsqrt
// CHECK:           rlx.yield
// CHECK-NOT:     rlx.region
// OFF-LABEL:   func.func @rms_norm_dynamic_rows(
// OFF:           rlx.rms_norm
// CAP-LABEL:   func.func @rms_norm_dynamic_rows(
// CAP:           rlx.region row
func.func @rms_norm_dynamic_rows(%x: tensor<?x?x64xf32>, %g: tensor<64xf32>) -> tensor<?x?x64xf32> {
  %r = rlx.rms_norm %x, %g axis = -1 eps = 1.0e-6 : (tensor<?x?x64xf32>, tensor<64xf32>) -> tensor<?x?x64xf32>
  return %r : tensor<?x?x64xf32>
}

// -----

// Residual add + layer_norm: one row region that also returns the residual
// sum (multi-output), its per-row statistics staying inside.
// CHECK-LABEL: func.func @residual_layer_norm(
// CHECK:         %[[R:.*]]:2 = rlx.region row ins(
// CHECK-NEXT:    ^bb0(
// CHECK-NEXT:      %[[H:.*]] = rlx.add
// CHECK-NEXT:      rlx.reduce mean %[[H]] axes = [1] keep_dim
// CHECK:           rlx.reduce mean %{{.*}} axes = [1] keep_dim
// CHECK:           rlx.rsqrt
// CHECK:           rlx.yield %[[H]], %{{.*}} : tensor<4x8xf32>, tensor<4x8xf32>
// CHECK:         return %[[R]]#1, %[[R]]#0
// OFF-LABEL:   func.func @residual_layer_norm(
// OFF:           rlx.add
// OFF-NEXT:      rlx.layer_norm
func.func @residual_layer_norm(%x: tensor<4x8xf32>, %r: tensor<4x8xf32>, %g: tensor<8xf32>, %b: tensor<8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %h = rlx.add %x, %r : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %n = rlx.layer_norm %h, %g, %b axis = -1 eps = 1.0e-5 : (tensor<4x8xf32>, tensor<8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
  return %n, %h : tensor<4x8xf32>, tensor<4x8xf32>
}

// -----

// A loss: elementwise work feeding a reduction over every axis.
// CHECK-LABEL: func.func @mse(
// CHECK:         %[[R:.*]] = rlx.region reduction ins(%{{.*}}, %{{.*}} : tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<f32> {
// CHECK:           rlx.sub
// CHECK-NEXT:      rlx.mul
// CHECK-NEXT:      rlx.reduce mean
// CHECK-NEXT:      rlx.yield
// OFF-LABEL:   func.func @mse(
// OFF:           rlx.region elementwise
// OFF:           rlx.reduce mean
func.func @mse(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>) -> tensor<f32> {
  %d = rlx.sub %a, %b : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %q = rlx.mul %d, %d : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %r = rlx.reduce mean %q axes = [0, 1] : tensor<4x8xf32> -> tensor<f32>
  return %r : tensor<f32>
}

// -----

// An elementwise value read outside cannot be a reduction region's result:
// the reduction region keeps only the work nobody else reads.
// CHECK-LABEL: func.func @reduction_shared_producer(
// CHECK:         %[[D:.*]] = rlx.sub
// CHECK-NEXT:    %[[R:.*]] = rlx.region reduction ins(%[[D]] : tensor<4x8xf32>)
// CHECK:         return %[[R]], %[[D]]
func.func @reduction_shared_producer(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>) -> (tensor<4xf32>, tensor<4x8xf32>) {
  %d = rlx.sub %a, %b : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %q = rlx.exp %d : tensor<4x8xf32>
  %r = rlx.reduce sum %q axes = [1] : tensor<4x8xf32> -> tensor<4xf32>
  return %r, %d : tensor<4xf32>, tensor<4x8xf32>
}

// -----

// Reductions over different axes do not share a row region: the one found
// first joins, the other stays outside and feeds it.
// CHECK-LABEL: func.func @mismatched_axes(
// CHECK:         %[[M:.*]] = rlx.reduce max %{{.*}} axes = [1] keep_dim
// CHECK-NEXT:    rlx.region row ins(%{{.*}}, %[[M]] :
// CHECK:           rlx.reduce sum %{{.*}} axes = [0] keep_dim
// CHECK-NOT:       rlx.reduce
// CHECK:         }
func.func @mismatched_axes(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %s = rlx.reduce sum %x axes = [0] keep_dim : tensor<4x8xf32> -> tensor<1x8xf32>
  %m = rlx.reduce max %x axes = [1] keep_dim : tensor<4x8xf32> -> tensor<4x1xf32>
  %a = rlx.sub %x, %m : (tensor<4x8xf32>, tensor<4x1xf32>) -> tensor<4x8xf32>
  %b = rlx.div %a, %s : (tensor<4x8xf32>, tensor<1x8xf32>) -> tensor<4x8xf32>
  return %b : tensor<4x8xf32>
}

// -----

// A non-fusible op (transpose) between the mask and the softmax: the
// softmax's row region starts after it.
// CHECK-LABEL: func.func @transpose_splits(
// CHECK:         rlx.exp
// CHECK-NEXT:    %[[T:.*]] = rlx.transpose
// CHECK-NEXT:    rlx.region row ins(%[[T]] :
func.func @transpose_splits(%x: tensor<8x4xf32>) -> tensor<4x8xf32> {
  %e = rlx.exp %x : tensor<8x4xf32>
  %t = rlx.transpose %e [1, 0] : tensor<8x4xf32> -> tensor<4x8xf32>
  %r = rlx.softmax %t axis = 1 : tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}

// -----

// matmul + bias + gelu: a contraction region.
// CHECK-LABEL: func.func @linear_gelu(
// CHECK:         %[[R:.*]] = rlx.region contraction ins(
// CHECK-NEXT:    ^bb0(
// CHECK-NEXT:      rlx.matmul
// CHECK-NEXT:      rlx.add
// CHECK-NEXT:      rlx.gelu
// CHECK-NEXT:      rlx.yield
// OFF-LABEL:   func.func @linear_gelu(
// OFF:           rlx.matmul
// OFF-NEXT:      rlx.region elementwise
func.func @linear_gelu(%x: tensor<4x8xf32>, %w: tensor<8x16xf32>, %b: tensor<16xf32>) -> tensor<4x16xf32> {
  %m = rlx.matmul %x, %w : (tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>
  %a = rlx.add %m, %b : (tensor<4x16xf32>, tensor<16xf32>) -> tensor<4x16xf32>
  %g = rlx.gelu %a : tensor<4x16xf32>
  return %g : tensor<4x16xf32>
}

// -----

// A matmul whose result is also returned is not fused: the epilogue would
// have to store it anyway.
// CHECK-LABEL: func.func @matmul_two_users(
// CHECK:         %[[M:.*]] = rlx.matmul
// CHECK-NEXT:    rlx.region elementwise ins(%[[M]]
func.func @matmul_two_users(%x: tensor<4x8xf32>, %w: tensor<8x16xf32>, %b: tensor<16xf32>) -> (tensor<4x16xf32>, tensor<4x16xf32>) {
  %m = rlx.matmul %x, %w : (tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>
  %a = rlx.add %m, %b : (tensor<4x16xf32>, tensor<16xf32>) -> tensor<4x16xf32>
  %g = rlx.gelu %a : tensor<4x16xf32>
  return %g, %m : tensor<4x16xf32>, tensor<4x16xf32>
}

// -----

// Elementwise producers of the matmul's operands join as its prologue,
// unless something else reads them (%e2 is also returned).
// CHECK-LABEL: func.func @prologue(
// CHECK:         %[[E2:.*]] = rlx.exp %{{.*}} : tensor<8x16xf32>
// CHECK-NEXT:    %[[R:.*]] = rlx.region contraction ins(%{{.*}}, %[[E2]] : tensor<4x8xf32>, tensor<8x16xf32>)
// CHECK-NEXT:    ^bb0(%[[A:.*]]: tensor<4x8xf32>, %[[B:.*]]: tensor<8x16xf32>):
// CHECK-NEXT:      %[[E:.*]] = rlx.exp %[[A]]
// CHECK-NEXT:      rlx.matmul %[[E]], %[[B]]
// CHECK-NEXT:      rlx.relu
// CHECK-NEXT:      rlx.yield
// OFF-LABEL:   func.func @prologue(
// OFF:           rlx.matmul
func.func @prologue(%x: tensor<4x8xf32>, %w: tensor<8x16xf32>) -> (tensor<4x16xf32>, tensor<8x16xf32>) {
  %e = rlx.exp %x : tensor<4x8xf32>
  %e2 = rlx.exp %w : tensor<8x16xf32>
  %m = rlx.matmul %e, %e2 : (tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>
  %g = rlx.relu %m : tensor<4x16xf32>
  return %g, %e2 : tensor<4x16xf32>, tensor<8x16xf32>
}

// -----

// A contraction with a prologue and no epilogue still forms a region.
// CHECK-LABEL: func.func @prologue_only(
// CHECK:         rlx.region contraction
// CHECK:           rlx.neg
// CHECK-NEXT:      rlx.matmul
func.func @prologue_only(%x: tensor<4x8xf32>, %w: tensor<8x16xf32>) -> tensor<4x16xf32> {
  %n = rlx.neg %x : tensor<4x8xf32>
  %m = rlx.matmul %n, %w : (tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>
  return %m : tensor<4x16xf32>
}

// -----

// Cross-entropy against labels decomposes into one row region (the
// labels reshaped per row, the column indices a constant input).
// CHECK-LABEL: func.func @cross_entropy_labels(
// CHECK:         %[[L:.*]] = rlx.reshape %{{.*}} : tensor<4xi64> -> tensor<4x1xi64>
// CHECK:         %[[R:.*]] = rlx.region row
// CHECK-COUNT-3:   rlx.reduce
// CHECK:         rlx.reshape %[[R]] : tensor<4x1xf32> -> tensor<4xf32>
func.func @cross_entropy_labels(%x: tensor<4x8xf32>, %l: tensor<4xi64>) -> tensor<4xf32> {
  %r = rlx.softmax_cross_entropy_with_labels %x, %l : (tensor<4x8xf32>, tensor<4xi64>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

// The prologue stops at values of another shape than the operand: the
// matmul's prologue normalizes the rows (x * rstd * gamma, per block of
// rows) and reads rms_norm's per-row rstd, which a row region computes.
// CHECK-LABEL: func.func @prologue_stops_at_row_values(
// CHECK:         %[[RSTD:.*]] = rlx.region row {{.*}} -> tensor<4x1xf32> {
// CHECK:           rlx.rsqrt
// CHECK:         rlx.region contraction ins(%{{.*}}, %[[RSTD]], %{{.*}}, %{{.*}} :
// CHECK:           rlx.mul
// CHECK-NEXT:      rlx.mul
// CHECK-NEXT:      rlx.matmul
func.func @prologue_stops_at_row_values(%x: tensor<4x8xf32>, %g: tensor<8xf32>, %w: tensor<8x16xf32>) -> tensor<4x16xf32> {
  %n = rlx.rms_norm %x, %g axis = -1 eps = 1.0e-5 : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
  %m = rlx.matmul %n, %w : (tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>
  return %m : tensor<4x16xf32>
}
