// RUN: rlx-opt %s --rlx-carry-tensors-in-place -split-input-file | FileCheck %s
// After bufferization the loop carries one buffer: no allocation inside it.
// RUN: rlx-opt %s --rlx-carry-tensors-in-place --eliminate-empty-tensors \
// RUN:   --one-shot-bufferize="bufferize-function-boundaries" -canonicalize \
// RUN:   -split-input-file | FileCheck %s --check-prefix=BUF

// An RNN step computes its new state out of place: it is copied into the
// carried tensor.
// CHECK-LABEL: func.func @rnn_step
// CHECK:         scf.for {{.*}} iter_args(%[[H:.*]] = %{{.*}})
// CHECK:           %[[N:.*]] = linalg.generic
// CHECK:           %[[C:.*]] = linalg.copy ins(%[[N]] : tensor<2x4xf32>) outs(%[[H]] : tensor<2x4xf32>)
// CHECK:           scf.yield %[[C]]
// BUF-LABEL: func.func @rnn_step
// BUF:         scf.for
// BUF:           memref.alloc
// BUF:           linalg.matmul
// BUF-NOT:       memref.alloc
// BUF:           linalg.generic
// BUF-NOT:       linalg.copy
// BUF:         return
func.func @rnn_step(%x: tensor<2x4xf32>, %u: tensor<4x4xf32>) -> tensor<2x4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c5 = arith.constant 5 : index
  %zero = arith.constant 0.0 : f32
  %r = scf.for %t = %c0 to %c5 step %c1 iter_args(%h = %x) -> (tensor<2x4xf32>) {
    %e = tensor.empty() : tensor<2x4xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<2x4xf32>) -> tensor<2x4xf32>
    %m = linalg.matmul ins(%h, %u : tensor<2x4xf32>, tensor<4x4xf32>)
                       outs(%f : tensor<2x4xf32>) -> tensor<2x4xf32>
    %e2 = tensor.empty() : tensor<2x4xf32>
    %n = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>,
                                          affine_map<(d0, d1) -> (d0, d1)>],
                         iterator_types = ["parallel", "parallel"]}
        ins(%m : tensor<2x4xf32>) outs(%e2 : tensor<2x4xf32>) {
    ^bb0(%in: f32, %out: f32):
      %t1 = math.tanh %in : f32
      linalg.yield %t1 : f32
    } -> tensor<2x4xf32>
    scf.yield %n : tensor<2x4xf32>
  }
  return %r : tensor<2x4xf32>
}

// -----

// Written in place already (a slice inserted into the carried tensor, and a
// nested loop carrying it on): untouched.
// CHECK-LABEL: func.func @in_place
// CHECK-NOT:     linalg.copy
// CHECK:         return
func.func @in_place(%x: tensor<4x8xf32>, %v: tensor<1x8xf32>) -> tensor<4x8xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %x) -> (tensor<4x8xf32>) {
    %s = tensor.insert_slice %v into %acc[%i, 0] [1, 8] [1, 1]
        : tensor<1x8xf32> into tensor<4x8xf32>
    %inner = scf.for %j = %c0 to %c4 step %c1 iter_args(%a = %s) -> (tensor<4x8xf32>) {
      %zero = arith.constant 0.0 : f32
      %w = linalg.fill ins(%zero : f32) outs(%a : tensor<4x8xf32>) -> tensor<4x8xf32>
      scf.yield %w : tensor<4x8xf32>
    }
    scf.yield %inner : tensor<4x8xf32>
  }
  return %r : tensor<4x8xf32>
}

// -----

// Carried tensors swapped each step (a <- b, b <- a + b): both are copied;
// bufferization keeps them correct (the second copy reads a saved a).
// CHECK-LABEL: func.func @swap
// CHECK:         scf.for {{.*}} iter_args(%[[A:.*]] = %{{.*}}, %[[B:.*]] = %{{.*}})
// CHECK:           %[[S:.*]] = linalg.add
// CHECK:           %[[CA:.*]] = linalg.copy ins(%[[B]] : tensor<3xf32>) outs(%[[A]] : tensor<3xf32>)
// CHECK:           %[[CB:.*]] = linalg.copy ins(%[[S]] : tensor<3xf32>) outs(%[[B]] : tensor<3xf32>)
// CHECK:           scf.yield %[[CA]], %[[CB]]
func.func @swap(%x: tensor<3xf32>, %y: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %r:2 = scf.for %i = %c0 to %c4 step %c1 iter_args(%a = %x, %b = %y)
      -> (tensor<3xf32>, tensor<3xf32>) {
    %e = tensor.empty() : tensor<3xf32>
    %s = linalg.add ins(%a, %b : tensor<3xf32>, tensor<3xf32>)
                    outs(%e : tensor<3xf32>) -> tensor<3xf32>
    scf.yield %b, %s : tensor<3xf32>, tensor<3xf32>
  }
  return %r#0, %r#1 : tensor<3xf32>, tensor<3xf32>
}

// -----

// A conditional that computes a tensor in one branch and passes an argument
// through in the other: both write one destination allocated before it.
// CHECK-LABEL: func.func @conditional
// CHECK:         %[[D:.*]] = tensor.empty() : tensor<3xf32>
// CHECK:         scf.if
// CHECK:           %[[E:.*]] = linalg.exp
// CHECK:           %[[C1:.*]] = linalg.copy ins(%[[E]] : tensor<3xf32>) outs(%[[D]] : tensor<3xf32>)
// CHECK:           scf.yield %[[C1]]
// CHECK:         } else {
// CHECK:           %[[C2:.*]] = linalg.copy ins(%{{.*}} : tensor<3xf32>) outs(%[[D]] : tensor<3xf32>)
// CHECK:           scf.yield %[[C2]]
// BUF-LABEL: func.func @conditional
// BUF:         %[[D:.*]] = memref.alloc() {{.*}} : memref<3xf32>
// BUF:         scf.if
// BUF-NOT:       memref.alloc
// BUF:           linalg.exp ins(%{{.*}} : memref<3xf32{{.*}}>) outs(%[[D]] : memref<3xf32>)
// BUF:         } else {
// BUF:           linalg.copy ins(%{{.*}} : memref<3xf32{{.*}}>) outs(%[[D]] : memref<3xf32>)
func.func @conditional(%p: i1, %x: tensor<3xf32>) -> tensor<3xf32> {
  %r = scf.if %p -> (tensor<3xf32>) {
    %e = tensor.empty() : tensor<3xf32>
    %x2 = linalg.exp ins(%x : tensor<3xf32>) outs(%e : tensor<3xf32>) -> tensor<3xf32>
    scf.yield %x2 : tensor<3xf32>
  } else {
    scf.yield %x : tensor<3xf32>
  }
  return %r : tensor<3xf32>
}

// -----

// Both branches yield values from outside (no new buffer), a conditional
// without results, and a dynamically shaped result: untouched.
// CHECK-LABEL: func.func @conditional_untouched
// CHECK-NOT:     linalg.copy
// CHECK-NOT:     tensor.empty() : tensor<3xf32>
// CHECK:         return
func.func @conditional_untouched(%p: i1, %x: tensor<3xf32>, %y: tensor<3xf32>,
                                 %d: tensor<?xf32>) -> (tensor<3xf32>, tensor<?xf32>) {
  %r = scf.if %p -> (tensor<3xf32>) {
    scf.yield %x : tensor<3xf32>
  } else {
    scf.yield %y : tensor<3xf32>
  }
  scf.if %p {
    %u = linalg.exp ins(%x : tensor<3xf32>) outs(%y : tensor<3xf32>) -> tensor<3xf32>
  }
  %s = scf.if %p -> (tensor<?xf32>) {
    %c0 = arith.constant 0 : index
    %n = tensor.dim %d, %c0 : tensor<?xf32>
    %e = tensor.empty(%n) : tensor<?xf32>
    %d2 = linalg.exp ins(%d : tensor<?xf32>) outs(%e : tensor<?xf32>) -> tensor<?xf32>
    scf.yield %d2 : tensor<?xf32>
  } else {
    scf.yield %d : tensor<?xf32>
  }
  return %r, %s : tensor<3xf32>, tensor<?xf32>
}
