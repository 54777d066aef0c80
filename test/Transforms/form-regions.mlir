// RUN: rlx-opt %s --rlx-form-regions="row=false reduction=false contraction=false" -split-input-file | FileCheck %s --check-prefixes=CHECK,DEF,MO
// RUN: rlx-opt %s --rlx-form-regions="multi-output=false row=false reduction=false contraction=false" -split-input-file | FileCheck %s --check-prefixes=CHECK,DEF,NOMO
// RUN: rlx-opt %s --rlx-form-regions="max-inputs=2 row=false reduction=false contraction=false" -split-input-file | FileCheck %s --check-prefixes=CHECK,CAP,MO

// Elementwise producer/consumer chains become `rlx.region elementwise` at
// the position of their last op. The plain prefix holds for every option
// set; DEF is for the default max-inputs (16), CAP for max-inputs=2, MO for
// multi-output on (the default), NOMO for multi-output=false.

//===----------------------------------------------------------------------===//
// Positive cases
//===----------------------------------------------------------------------===//

// A chain of four ops with three inputs (full, row-broadcast, scalar): one
// region; the broadcast inputs stay inputs of their original shapes. With
// max-inputs=2 the first add (which would bring the third input) stays out.
// CHECK-LABEL: func.func @chain(
// CHECK-SAME:      %[[X:[a-z0-9]+]]: tensor<4x8xf32>, %[[B:[a-z0-9]+]]: tensor<8xf32>, %[[S:[a-z0-9]+]]: tensor<f32>)
// DEF-NEXT:      %[[R:.*]] = rlx.region elementwise ins(%[[X]], %[[B]], %[[S]] : tensor<4x8xf32>, tensor<8xf32>, tensor<f32>) -> tensor<4x8xf32> {
// DEF-NEXT:      ^bb0(%[[A0:[a-z0-9]+]]: tensor<4x8xf32>, %[[A1:[a-z0-9]+]]: tensor<8xf32>, %[[A2:[a-z0-9]+]]: tensor<f32>):
// DEF-NEXT:        %[[V0:.*]] = rlx.add %[[A0]], %[[A1]] : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
// DEF-NEXT:        %[[V1:.*]] = rlx.gelu %[[V0]] : tensor<4x8xf32>
// DEF-NEXT:        %[[V2:.*]] = rlx.mul %[[V1]], %[[A2]] : (tensor<4x8xf32>, tensor<f32>) -> tensor<4x8xf32>
// DEF-NEXT:        %[[V3:.*]] = rlx.exp %[[V2]] : tensor<4x8xf32>
// DEF-NEXT:        rlx.yield %[[V3]] : tensor<4x8xf32>
// DEF-NEXT:      }
// DEF-NEXT:      return %[[R]] : tensor<4x8xf32>
// CAP-NEXT:      %[[ADD:.*]] = rlx.add %[[X]], %[[B]] : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
// CAP-NEXT:      %[[R:.*]] = rlx.region elementwise ins(%[[ADD]], %[[S]] : tensor<4x8xf32>, tensor<f32>) -> tensor<4x8xf32> {
// CAP-NEXT:      ^bb0(%[[A0:[a-z0-9]+]]: tensor<4x8xf32>, %[[A1:[a-z0-9]+]]: tensor<f32>):
// CAP-NEXT:        %[[V1:.*]] = rlx.gelu %[[A0]] : tensor<4x8xf32>
// CAP-NEXT:        %[[V2:.*]] = rlx.mul %[[V1]], %[[A1]] : (tensor<4x8xf32>, tensor<f32>) -> tensor<4x8xf32>
// CAP-NEXT:        %[[V3:.*]] = rlx.exp %[[V2]] : tensor<4x8xf32>
// CAP-NEXT:        rlx.yield %[[V3]] : tensor<4x8xf32>
// CAP-NEXT:      }
// CAP-NEXT:      return %[[R]] : tensor<4x8xf32>
func.func @chain(%x: tensor<4x8xf32>, %b: tensor<8xf32>, %s: tensor<f32>) -> tensor<4x8xf32> {
  %0 = rlx.add %x, %b : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
  %1 = rlx.gelu %0 : tensor<4x8xf32>
  %2 = rlx.mul %1, %s : (tensor<4x8xf32>, tensor<f32>) -> tensor<4x8xf32>
  %3 = rlx.exp %2 : tensor<4x8xf32>
  return %3 : tensor<4x8xf32>
}

// -----

// Two independent, interleaved chains: two regions, each at its last op.
// CHECK-LABEL: func.func @two_chains(
// CHECK-SAME:      %[[X:[a-z0-9]+]]: tensor<3xf32>, %[[Y:[a-z0-9]+]]: tensor<3xf32>)
// CHECK-NEXT:    %[[R0:.*]] = rlx.region elementwise ins(%[[X]] : tensor<3xf32>) -> tensor<3xf32> {
// CHECK-NEXT:    ^bb0(%[[A:[a-z0-9]+]]: tensor<3xf32>):
// CHECK-NEXT:      %[[E:.*]] = rlx.exp %[[A]] : tensor<3xf32>
// CHECK-NEXT:      %[[N:.*]] = rlx.neg %[[E]] : tensor<3xf32>
// CHECK-NEXT:      rlx.yield %[[N]] : tensor<3xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[R1:.*]] = rlx.region elementwise ins(%[[Y]] : tensor<3xf32>) -> tensor<3xf32> {
// CHECK-NEXT:    ^bb0(%[[B:[a-z0-9]+]]: tensor<3xf32>):
// CHECK-NEXT:      %[[AB:.*]] = rlx.abs %[[B]] : tensor<3xf32>
// CHECK-NEXT:      %[[SQ:.*]] = rlx.sqrt %[[AB]] : tensor<3xf32>
// CHECK-NEXT:      rlx.yield %[[SQ]] : tensor<3xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    return %[[R0]], %[[R1]] : tensor<3xf32>, tensor<3xf32>
func.func @two_chains(%x: tensor<3xf32>, %y: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>) {
  %0 = rlx.exp %x : tensor<3xf32>
  %1 = rlx.abs %y : tensor<3xf32>
  %2 = rlx.neg %0 : tensor<3xf32>
  %3 = rlx.sqrt %1 : tensor<3xf32>
  return %2, %3 : tensor<3xf32>, tensor<3xf32>
}

// -----

// f16 with a column-broadcast input, ending in a cast to f32: the region
// returns the cast's type.
// CHECK-LABEL: func.func @f16(
// CHECK-SAME:      %[[X:[a-z0-9]+]]: tensor<2x5xf16>, %[[B:[a-z0-9]+]]: tensor<2x1xf16>)
// CHECK-NEXT:    %[[R:.*]] = rlx.region elementwise ins(%[[X]], %[[B]] : tensor<2x5xf16>, tensor<2x1xf16>) -> tensor<2x5xf32> {
// CHECK-NEXT:    ^bb0(%[[A0:[a-z0-9]+]]: tensor<2x5xf16>, %[[A1:[a-z0-9]+]]: tensor<2x1xf16>):
// CHECK-NEXT:      %[[D:.*]] = rlx.sub %[[A0]], %[[A1]] : (tensor<2x5xf16>, tensor<2x1xf16>) -> tensor<2x5xf16>
// CHECK-NEXT:      %[[T:.*]] = rlx.tanh %[[D]] : tensor<2x5xf16>
// CHECK-NEXT:      %[[C:.*]] = rlx.cast %[[T]] : tensor<2x5xf16> -> tensor<2x5xf32>
// CHECK-NEXT:      rlx.yield %[[C]] : tensor<2x5xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    return %[[R]] : tensor<2x5xf32>
func.func @f16(%x: tensor<2x5xf16>, %b: tensor<2x1xf16>) -> tensor<2x5xf32> {
  %0 = rlx.sub %x, %b : (tensor<2x5xf16>, tensor<2x1xf16>) -> tensor<2x5xf16>
  %1 = rlx.tanh %0 : tensor<2x5xf16>
  %2 = rlx.cast %1 : tensor<2x5xf16> -> tensor<2x5xf32>
  return %2 : tensor<2x5xf32>
}

// -----

// A producer used twice inside the cluster (a diamond) joins once; the
// region has one input and one result.
// CHECK-LABEL: func.func @diamond(
// CHECK-SAME:      %[[X:[a-z0-9]+]]: tensor<3xf32>)
// CHECK-NEXT:    %[[R:.*]] = rlx.region elementwise ins(%[[X]] : tensor<3xf32>) -> tensor<3xf32> {
// CHECK-NEXT:    ^bb0(%[[A:[a-z0-9]+]]: tensor<3xf32>):
// CHECK-NEXT:      %[[E:.*]] = rlx.exp %[[A]] : tensor<3xf32>
// CHECK-NEXT:      %[[N:.*]] = rlx.neg %[[E]] : tensor<3xf32>
// CHECK-NEXT:      %[[AB:.*]] = rlx.abs %[[E]] : tensor<3xf32>
// CHECK-NEXT:      %[[S:.*]] = rlx.add %[[N]], %[[AB]] : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
// CHECK-NEXT:      rlx.yield %[[S]] : tensor<3xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    return %[[R]] : tensor<3xf32>
func.func @diamond(%x: tensor<3xf32>) -> tensor<3xf32> {
  %0 = rlx.exp %x : tensor<3xf32>
  %1 = rlx.neg %0 : tensor<3xf32>
  %2 = rlx.abs %0 : tensor<3xf32>
  %3 = rlx.add %1, %2 : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  return %3 : tensor<3xf32>
}

// -----

// The three-operand where needs three inputs alone, yet its compare producer
// may join (the region then reads %x and %y only). With max-inputs=2 the
// trailing neg starts a cluster that could only take the where with its
// three inputs, so neg stays out and the region is {gt, where}.
// CHECK-LABEL: func.func @where(
// CHECK-SAME:      %[[X:[a-z0-9]+]]: tensor<3xf32>, %[[Y:[a-z0-9]+]]: tensor<3xf32>)
// CHECK-NEXT:    %[[R:.*]] = rlx.region elementwise ins(%[[X]], %[[Y]] : tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32> {
// CHECK-NEXT:    ^bb0(%[[A:[a-z0-9]+]]: tensor<3xf32>, %[[B:[a-z0-9]+]]: tensor<3xf32>):
// CHECK-NEXT:      %[[C:.*]] = rlx.gt %[[A]], %[[B]] : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xi1>
// CHECK-NEXT:      %[[W:.*]] = rlx.where %[[C]], %[[A]], %[[B]] : (tensor<3xi1>, tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
// DEF-NEXT:        %[[N:.*]] = rlx.neg %[[W]] : tensor<3xf32>
// DEF-NEXT:        rlx.yield %[[N]] : tensor<3xf32>
// DEF-NEXT:      }
// DEF-NEXT:      return %[[R]] : tensor<3xf32>
// CAP-NEXT:        rlx.yield %[[W]] : tensor<3xf32>
// CAP-NEXT:      }
// CAP-NEXT:      %[[N:.*]] = rlx.neg %[[R]] : tensor<3xf32>
// CAP-NEXT:      return %[[N]] : tensor<3xf32>
func.func @where(%x: tensor<3xf32>, %y: tensor<3xf32>) -> tensor<3xf32> {
  %c = rlx.gt %x, %y : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xi1>
  %w = rlx.where %c, %x, %y : (tensor<3xi1>, tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  %n = rlx.neg %w : tensor<3xf32>
  return %n : tensor<3xf32>
}

// -----

//===----------------------------------------------------------------------===//
// What stays out
//===----------------------------------------------------------------------===//

// A single elementwise op is no region.
// CHECK-LABEL: func.func @single_op(
// CHECK-NOT:     rlx.region
// CHECK:         %[[E:.*]] = rlx.exp %{{.*}} : tensor<3xf32>
// CHECK-NEXT:    return %[[E]]
func.func @single_op(%x: tensor<3xf32>) -> tensor<3xf32> {
  %0 = rlx.exp %x : tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

// exp is also read by the softmax, which comes before the chain's last op:
// it stays out (with or without multi-output) and feeds the region.
// CHECK-LABEL: func.func @multi_use_before_end(
// CHECK-SAME:      %[[X:[a-z0-9]+]]: tensor<4xf32>)
// CHECK-NEXT:    %[[E:.*]] = rlx.exp %[[X]] : tensor<4xf32>
// CHECK-NEXT:    %[[U:.*]] = rlx.softmax %[[E]] axis = 0 : tensor<4xf32>
// CHECK-NEXT:    %[[R:.*]] = rlx.region elementwise ins(%[[E]], %[[U]] : tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32> {
// CHECK-NEXT:    ^bb0(%[[A:[a-z0-9]+]]: tensor<4xf32>, %[[B:[a-z0-9]+]]: tensor<4xf32>):
// CHECK-NEXT:      %[[N:.*]] = rlx.neg %[[A]] : tensor<4xf32>
// CHECK-NEXT:      %[[AB:.*]] = rlx.abs %[[N]] : tensor<4xf32>
// CHECK-NEXT:      %[[S:.*]] = rlx.add %[[AB]], %[[B]] : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:      rlx.yield %[[S]] : tensor<4xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    return %[[R]], %[[U]]
func.func @multi_use_before_end(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %0 = rlx.exp %x : tensor<4xf32>
  %1 = rlx.neg %0 : tensor<4xf32>
  %u = rlx.softmax %0 axis = 0 : tensor<4xf32>
  %2 = rlx.abs %1 : tensor<4xf32>
  %3 = rlx.add %2, %u : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %3, %u : tensor<4xf32>, tensor<4xf32>
}

// -----

// A softmax in the middle splits the chain into two regions.
// CHECK-LABEL: func.func @softmax_splits(
// CHECK-SAME:      %[[X:[a-z0-9]+]]: tensor<2x4xf32>)
// CHECK-NEXT:    %[[R0:.*]] = rlx.region elementwise ins(%[[X]] : tensor<2x4xf32>) -> tensor<2x4xf32> {
// CHECK-NEXT:    ^bb0(%[[A:[a-z0-9]+]]: tensor<2x4xf32>):
// CHECK-NEXT:      %[[E:.*]] = rlx.exp %[[A]]
// CHECK-NEXT:      %[[N:.*]] = rlx.neg %[[E]]
// CHECK-NEXT:      rlx.yield %[[N]] : tensor<2x4xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[SM:.*]] = rlx.softmax %[[R0]] axis = -1 : tensor<2x4xf32>
// CHECK-NEXT:    %[[R1:.*]] = rlx.region elementwise ins(%[[SM]] : tensor<2x4xf32>) -> tensor<2x4xf32> {
// CHECK-NEXT:    ^bb0(%[[B:[a-z0-9]+]]: tensor<2x4xf32>):
// CHECK-NEXT:      %[[AB:.*]] = rlx.abs %[[B]]
// CHECK-NEXT:      %[[SQ:.*]] = rlx.sqrt %[[AB]]
// CHECK-NEXT:      rlx.yield %[[SQ]] : tensor<2x4xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    return %[[R1]]
func.func @softmax_splits(%x: tensor<2x4xf32>) -> tensor<2x4xf32> {
  %0 = rlx.exp %x : tensor<2x4xf32>
  %1 = rlx.neg %0 : tensor<2x4xf32>
  %2 = rlx.softmax %1 axis = -1 : tensor<2x4xf32>
  %3 = rlx.abs %2 : tensor<2x4xf32>
  %4 = rlx.sqrt %3 : tensor<2x4xf32>
  return %4 : tensor<2x4xf32>
}

// -----

// A reduction splits the chain; its smaller result is a broadcast input of
// the second region, next to %x which both regions read.
// CHECK-LABEL: func.func @reduce_splits(
// CHECK-SAME:      %[[X:[a-z0-9]+]]: tensor<2x4xf32>)
// CHECK-NEXT:    %[[R0:.*]] = rlx.region elementwise ins(%[[X]] : tensor<2x4xf32>) -> tensor<2x4xf32> {
// CHECK-NEXT:    ^bb0(%[[A:[a-z0-9]+]]: tensor<2x4xf32>):
// CHECK-NEXT:      %[[E:.*]] = rlx.exp %[[A]]
// CHECK-NEXT:      %[[N:.*]] = rlx.neg %[[E]]
// CHECK-NEXT:      rlx.yield %[[N]] : tensor<2x4xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[SUM:.*]] = rlx.reduce sum %[[R0]] axes = [1] keep_dim : tensor<2x4xf32> -> tensor<2x1xf32>
// CHECK-NEXT:    %[[R1:.*]] = rlx.region elementwise ins(%[[X]], %[[SUM]] : tensor<2x4xf32>, tensor<2x1xf32>) -> tensor<2x4xf32> {
// CHECK-NEXT:    ^bb0(%[[B:[a-z0-9]+]]: tensor<2x4xf32>, %[[C:[a-z0-9]+]]: tensor<2x1xf32>):
// CHECK-NEXT:      %[[D:.*]] = rlx.sub %[[B]], %[[C]] : (tensor<2x4xf32>, tensor<2x1xf32>) -> tensor<2x4xf32>
// CHECK-NEXT:      %[[E2:.*]] = rlx.exp %[[D]]
// CHECK-NEXT:      rlx.yield %[[E2]] : tensor<2x4xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    return %[[R1]]
func.func @reduce_splits(%x: tensor<2x4xf32>) -> tensor<2x4xf32> {
  %0 = rlx.exp %x : tensor<2x4xf32>
  %1 = rlx.neg %0 : tensor<2x4xf32>
  %r = rlx.reduce sum %1 axes = [1] keep_dim : tensor<2x4xf32> -> tensor<2x1xf32>
  %2 = rlx.sub %x, %r : (tensor<2x4xf32>, tensor<2x1xf32>) -> tensor<2x4xf32>
  %3 = rlx.exp %2 : tensor<2x4xf32>
  return %3 : tensor<2x4xf32>
}

// -----

// A matmul splits the chain too.
// CHECK-LABEL: func.func @matmul_splits(
// CHECK-SAME:      %[[X:[a-z0-9]+]]: tensor<4x4xf32>, %[[W:[a-z0-9]+]]: tensor<4x4xf32>)
// CHECK-NEXT:    %[[R0:.*]] = rlx.region elementwise ins(%[[X]] : tensor<4x4xf32>) -> tensor<4x4xf32> {
// CHECK:           rlx.exp
// CHECK-NEXT:      rlx.neg
// CHECK-NEXT:      rlx.yield
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[M:.*]] = rlx.matmul %[[R0]], %[[W]]
// CHECK-NEXT:    %[[R1:.*]] = rlx.region elementwise ins(%[[M]] : tensor<4x4xf32>) -> tensor<4x4xf32> {
// CHECK:           rlx.relu
// CHECK-NEXT:      rlx.sqrt
// CHECK-NEXT:      rlx.yield
// CHECK-NEXT:    }
// CHECK-NEXT:    return %[[R1]]
func.func @matmul_splits(%x: tensor<4x4xf32>, %w: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %0 = rlx.exp %x : tensor<4x4xf32>
  %1 = rlx.neg %0 : tensor<4x4xf32>
  %m = rlx.matmul %1, %w : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %2 = rlx.relu %m : tensor<4x4xf32>
  %3 = rlx.sqrt %2 : tensor<4x4xf32>
  return %3 : tensor<4x4xf32>
}

// -----

// A producer of another (smaller) shape stays out of the 4x8 region and
// becomes a broadcast input; it forms a region of its own (shape 8).
// CHECK-LABEL: func.func @smaller_producer(
// CHECK-SAME:      %[[X:[a-z0-9]+]]: tensor<4x8xf32>, %[[B:[a-z0-9]+]]: tensor<8xf32>)
// CHECK-NEXT:    %[[R0:.*]] = rlx.region elementwise ins(%[[B]] : tensor<8xf32>) -> tensor<8xf32> {
// CHECK-NEXT:    ^bb0(%[[A:[a-z0-9]+]]: tensor<8xf32>):
// CHECK-NEXT:      %[[E:.*]] = rlx.exp %[[A]] : tensor<8xf32>
// CHECK-NEXT:      %[[N:.*]] = rlx.neg %[[E]] : tensor<8xf32>
// CHECK-NEXT:      rlx.yield %[[N]] : tensor<8xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[R1:.*]] = rlx.region elementwise ins(%[[X]], %[[R0]] : tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32> {
// CHECK-NEXT:    ^bb0(%[[C:[a-z0-9]+]]: tensor<4x8xf32>, %[[D:[a-z0-9]+]]: tensor<8xf32>):
// CHECK-NEXT:      %[[S:.*]] = rlx.add %[[C]], %[[D]] : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT:      %[[RL:.*]] = rlx.relu %[[S]] : tensor<4x8xf32>
// CHECK-NEXT:      rlx.yield %[[RL]] : tensor<4x8xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    return %[[R1]]
func.func @smaller_producer(%x: tensor<4x8xf32>, %b: tensor<8xf32>) -> tensor<4x8xf32> {
  %0 = rlx.exp %b : tensor<8xf32>
  %1 = rlx.neg %0 : tensor<8xf32>
  %2 = rlx.add %x, %1 : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
  %3 = rlx.relu %2 : tensor<4x8xf32>
  return %3 : tensor<4x8xf32>
}

// -----

// Three distinct inputs: one region by default; with max-inputs=2 the chain
// splits where the third input would join, into two regions of two inputs.
// CHECK-LABEL: func.func @max_inputs(
// CHECK-SAME:      %[[X:[a-z0-9]+]]: tensor<2x3xf32>, %[[B1:[a-z0-9]+]]: tensor<3xf32>, %[[B2:[a-z0-9]+]]: tensor<2x1xf32>)
// DEF-NEXT:      %[[R:.*]] = rlx.region elementwise ins(%[[X]], %[[B1]], %[[B2]] : tensor<2x3xf32>, tensor<3xf32>, tensor<2x1xf32>) -> tensor<2x3xf32> {
// DEF-NEXT:      ^bb0(%[[A:[a-z0-9]+]]: tensor<2x3xf32>, %[[C:[a-z0-9]+]]: tensor<3xf32>, %[[D:[a-z0-9]+]]: tensor<2x1xf32>):
// DEF-NEXT:        %[[E:.*]] = rlx.exp %[[A]]
// DEF-NEXT:        %[[S:.*]] = rlx.add %[[E]], %[[C]]
// DEF-NEXT:        %[[M:.*]] = rlx.mul %[[S]], %[[D]]
// DEF-NEXT:        %[[N:.*]] = rlx.neg %[[M]]
// DEF-NEXT:        rlx.yield %[[N]] : tensor<2x3xf32>
// DEF-NEXT:      }
// DEF-NEXT:      return %[[R]]
// CAP-NEXT:      %[[R0:.*]] = rlx.region elementwise ins(%[[X]], %[[B1]] : tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32> {
// CAP-NEXT:      ^bb0(%[[A:[a-z0-9]+]]: tensor<2x3xf32>, %[[C:[a-z0-9]+]]: tensor<3xf32>):
// CAP-NEXT:        %[[E:.*]] = rlx.exp %[[A]]
// CAP-NEXT:        %[[S:.*]] = rlx.add %[[E]], %[[C]]
// CAP-NEXT:        rlx.yield %[[S]] : tensor<2x3xf32>
// CAP-NEXT:      }
// CAP-NEXT:      %[[R1:.*]] = rlx.region elementwise ins(%[[R0]], %[[B2]] : tensor<2x3xf32>, tensor<2x1xf32>) -> tensor<2x3xf32> {
// CAP-NEXT:      ^bb0(%[[F:[a-z0-9]+]]: tensor<2x3xf32>, %[[G:[a-z0-9]+]]: tensor<2x1xf32>):
// CAP-NEXT:        %[[M:.*]] = rlx.mul %[[F]], %[[G]]
// CAP-NEXT:        %[[N:.*]] = rlx.neg %[[M]]
// CAP-NEXT:        rlx.yield %[[N]] : tensor<2x3xf32>
// CAP-NEXT:      }
// CAP-NEXT:      return %[[R1]]
func.func @max_inputs(%x: tensor<2x3xf32>, %b1: tensor<3xf32>, %b2: tensor<2x1xf32>) -> tensor<2x3xf32> {
  %0 = rlx.exp %x : tensor<2x3xf32>
  %1 = rlx.add %0, %b1 : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %2 = rlx.mul %1, %b2 : (tensor<2x3xf32>, tensor<2x1xf32>) -> tensor<2x3xf32>
  %3 = rlx.neg %2 : tensor<2x3xf32>
  return %3 : tensor<2x3xf32>
}

// -----

//===----------------------------------------------------------------------===//
// Multi-output
//===----------------------------------------------------------------------===//

// exp feeds the chain and a softmax after the chain's end: with
// multi-output it joins and becomes a second region result; without, it
// stays out and feeds the region.
// CHECK-LABEL: func.func @multi_output(
// CHECK-SAME:      %[[X:[a-z0-9]+]]: tensor<4xf32>)
// MO-NEXT:       %[[R:.*]]:2 = rlx.region elementwise ins(%[[X]] : tensor<4xf32>) -> tensor<4xf32>, tensor<4xf32> {
// MO-NEXT:       ^bb0(%[[A:[a-z0-9]+]]: tensor<4xf32>):
// MO-NEXT:         %[[E:.*]] = rlx.exp %[[A]] : tensor<4xf32>
// MO-NEXT:         %[[N:.*]] = rlx.neg %[[E]] : tensor<4xf32>
// MO-NEXT:         %[[AB:.*]] = rlx.abs %[[N]] : tensor<4xf32>
// MO-NEXT:         rlx.yield %[[E]], %[[AB]] : tensor<4xf32>, tensor<4xf32>
// MO-NEXT:       }
// MO-NEXT:       %[[U:.*]] = rlx.softmax %[[R]]#0 axis = 0 : tensor<4xf32>
// MO-NEXT:       return %[[R]]#1, %[[U]]
// NOMO-NEXT:     %[[E:.*]] = rlx.exp %[[X]] : tensor<4xf32>
// NOMO-NEXT:     %[[R:.*]] = rlx.region elementwise ins(%[[E]] : tensor<4xf32>) -> tensor<4xf32> {
// NOMO-NEXT:     ^bb0(%[[A:[a-z0-9]+]]: tensor<4xf32>):
// NOMO-NEXT:       %[[N:.*]] = rlx.neg %[[A]] : tensor<4xf32>
// NOMO-NEXT:       %[[AB:.*]] = rlx.abs %[[N]] : tensor<4xf32>
// NOMO-NEXT:       rlx.yield %[[AB]] : tensor<4xf32>
// NOMO-NEXT:     }
// NOMO-NEXT:     %[[U:.*]] = rlx.softmax %[[E]] axis = 0 : tensor<4xf32>
// NOMO-NEXT:     return %[[R]], %[[U]]
func.func @multi_output(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %0 = rlx.exp %x : tensor<4xf32>
  %1 = rlx.neg %0 : tensor<4xf32>
  %2 = rlx.abs %1 : tensor<4xf32>
  %u = rlx.softmax %0 axis = 0 : tensor<4xf32>
  return %2, %u : tensor<4xf32>, tensor<4xf32>
}

// -----

// The same with the function's return as the later user.
// CHECK-LABEL: func.func @multi_output_returned(
// CHECK-SAME:      %[[X:[a-z0-9]+]]: tensor<3xf32>)
// MO-NEXT:       %[[R:.*]]:2 = rlx.region elementwise ins(%[[X]] : tensor<3xf32>) -> tensor<3xf32>, tensor<3xf32> {
// MO-NEXT:       ^bb0(%[[A:[a-z0-9]+]]: tensor<3xf32>):
// MO-NEXT:         %[[E:.*]] = rlx.exp %[[A]] : tensor<3xf32>
// MO-NEXT:         %[[N:.*]] = rlx.neg %[[E]] : tensor<3xf32>
// MO-NEXT:         %[[AB:.*]] = rlx.abs %[[N]] : tensor<3xf32>
// MO-NEXT:         rlx.yield %[[E]], %[[AB]] : tensor<3xf32>, tensor<3xf32>
// MO-NEXT:       }
// MO-NEXT:       return %[[R]]#0, %[[R]]#1
// NOMO-NEXT:     %[[E:.*]] = rlx.exp %[[X]] : tensor<3xf32>
// NOMO-NEXT:     %[[R:.*]] = rlx.region elementwise ins(%[[E]] : tensor<3xf32>) -> tensor<3xf32> {
// NOMO-NEXT:     ^bb0(%[[A:[a-z0-9]+]]: tensor<3xf32>):
// NOMO-NEXT:       %[[N:.*]] = rlx.neg %[[A]] : tensor<3xf32>
// NOMO-NEXT:       %[[AB:.*]] = rlx.abs %[[N]] : tensor<3xf32>
// NOMO-NEXT:       rlx.yield %[[AB]] : tensor<3xf32>
// NOMO-NEXT:     }
// NOMO-NEXT:     return %[[E]], %[[R]]
func.func @multi_output_returned(%x: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>) {
  %0 = rlx.exp %x : tensor<3xf32>
  %1 = rlx.neg %0 : tensor<3xf32>
  %2 = rlx.abs %1 : tensor<3xf32>
  return %0, %2 : tensor<3xf32>, tensor<3xf32>
}

// -----

// exp feeds two chains split by a softmax. The later chain (abs, add) is
// formed first and cannot take exp (neg reads it before the add). The
// earlier chain (exp, neg) then takes exp as an extra result for the later
// region; without multi-output it cannot, and exp and neg stay ops.
// CHECK-LABEL: func.func @multi_output_feeds_later_region(
// CHECK-SAME:      %[[X:[a-z0-9]+]]: tensor<4xf32>)
// MO-NEXT:       %[[R0:.*]]:2 = rlx.region elementwise ins(%[[X]] : tensor<4xf32>) -> tensor<4xf32>, tensor<4xf32> {
// MO-NEXT:       ^bb0(%[[A:[a-z0-9]+]]: tensor<4xf32>):
// MO-NEXT:         %[[E:.*]] = rlx.exp %[[A]] : tensor<4xf32>
// MO-NEXT:         %[[N:.*]] = rlx.neg %[[E]] : tensor<4xf32>
// MO-NEXT:         rlx.yield %[[E]], %[[N]] : tensor<4xf32>, tensor<4xf32>
// MO-NEXT:       }
// MO-NEXT:       %[[SM:.*]] = rlx.softmax %[[R0]]#1 axis = 0 : tensor<4xf32>
// MO-NEXT:       %[[R1:.*]] = rlx.region elementwise ins(%[[R0]]#0, %[[SM]] : tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32> {
// NOMO-NEXT:     %[[E:.*]] = rlx.exp %[[X]] : tensor<4xf32>
// NOMO-NEXT:     %[[N:.*]] = rlx.neg %[[E]] : tensor<4xf32>
// NOMO-NEXT:     %[[SM:.*]] = rlx.softmax %[[N]] axis = 0 : tensor<4xf32>
// NOMO-NEXT:     %[[R1:.*]] = rlx.region elementwise ins(%[[E]], %[[SM]] : tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32> {
// CHECK-NEXT:    ^bb0(%[[B:[a-z0-9]+]]: tensor<4xf32>, %[[C:[a-z0-9]+]]: tensor<4xf32>):
// CHECK-NEXT:      %[[AB:.*]] = rlx.abs %[[B]] : tensor<4xf32>
// CHECK-NEXT:      %[[S:.*]] = rlx.add %[[AB]], %[[C]] : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:      rlx.yield %[[S]] : tensor<4xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    return %[[R1]]
func.func @multi_output_feeds_later_region(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = rlx.exp %x : tensor<4xf32>
  %1 = rlx.neg %0 : tensor<4xf32>
  %s = rlx.softmax %1 axis = 0 : tensor<4xf32>
  %2 = rlx.abs %0 : tensor<4xf32>
  %3 = rlx.add %2, %s : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %3 : tensor<4xf32>
}
