// RUN: rlx-opt %s -allow-unregistered-dialect --pass-pipeline='builtin.module(func.func(rlx-distinct-result-buffers))' | FileCheck %s
// RUN: rlx-opt %s -allow-unregistered-dialect --pass-pipeline='builtin.module(func.func(rlx-distinct-result-buffers),buffer-results-to-out-params{hoist-static-allocs modify-public-functions})' | FileCheck %s --check-prefix=OUT

// A buffer returned more than once gets a copy in a new allocation for each
// later occurrence, so that buffer-results-to-out-params (with
// hoist-static-allocs) gives every result its own out-parameter.

// One allocation returned three times (equal ops merged by CSE): the first
// occurrence becomes out-parameter 0, the copies out-parameters 1 and 2.
// CHECK-LABEL: func.func @alloc_twice(
// CHECK:         %[[A:.*]] = memref.alloc() : memref<3xf32>
// CHECK:         "test.fill"(%[[A]])
// CHECK:         %[[B:.*]] = memref.alloc() : memref<3xf32>
// CHECK:         memref.copy %[[A]], %[[B]]
// CHECK:         %[[C:.*]] = memref.alloc() : memref<3xf32>
// CHECK:         memref.copy %[[A]], %[[C]]
// CHECK:         return %[[A]], %[[B]], %[[C]] :
// OUT-LABEL: func.func @alloc_twice(
// OUT-SAME:      %[[OUT0:[a-z0-9]+]]: memref<3xf32>, %[[OUT1:[a-z0-9]+]]: memref<3xf32>, %[[OUT2:[a-z0-9]+]]: memref<3xf32>) {
// OUT-NOT:       memref.alloc
// OUT:           "test.fill"(%[[OUT0]])
// OUT:           memref.copy %[[OUT0]], %[[OUT1]]
// OUT:           memref.copy %[[OUT0]], %[[OUT2]]
// OUT:           return
func.func @alloc_twice() -> (memref<3xf32>, memref<3xf32>, memref<3xf32>) {
  %a = memref.alloc() : memref<3xf32>
  "test.fill"(%a) : (memref<3xf32>) -> ()
  return %a, %a, %a : memref<3xf32>, memref<3xf32>, memref<3xf32>
}

// An argument returned twice: each result is a copy of it.
// CHECK-LABEL: func.func @argument_twice(
// CHECK-SAME:      %[[X:.*]]: memref<2x2xi32>)
// CHECK:         %[[B:.*]] = memref.alloc() : memref<2x2xi32>
// CHECK:         memref.copy %[[X]], %[[B]]
// CHECK:         return %[[X]], %[[B]] :
// OUT-LABEL: func.func @argument_twice(
// OUT-SAME:      %[[X:[a-z0-9]+]]: memref<2x2xi32>, %[[OUT0:[a-z0-9]+]]: memref<2x2xi32>, %[[OUT1:[a-z0-9]+]]: memref<2x2xi32>) {
// OUT:           memref.copy %[[X]], %[[OUT1]]
// OUT:           memref.copy %[[X]], %[[OUT0]]
// OUT:           return
func.func @argument_twice(%x: memref<2x2xi32>) -> (memref<2x2xi32>, memref<2x2xi32>) {
  return %x, %x : memref<2x2xi32>, memref<2x2xi32>
}

// A constant returned twice, with a scalar result in between.
// CHECK-LABEL: func.func @constant_twice(
// CHECK:         %[[G:.*]] = memref.get_global @table
// CHECK:         %[[B:.*]] = memref.alloc() : memref<2xf32>
// CHECK:         memref.copy %[[G]], %[[B]]
// CHECK:         return %[[G]], %{{.*}}, %[[B]] :
memref.global "private" constant @table : memref<2xf32> = dense<[1.0, 2.0]>
func.func @constant_twice() -> (memref<2xf32>, i32, memref<2xf32>) {
  %g = memref.get_global @table : memref<2xf32>
  %c = arith.constant 7 : i32
  return %g, %c, %g : memref<2xf32>, i32, memref<2xf32>
}

// Dynamic sizes come from the returned buffer; a strided view gets a
// contiguous copy cast to its type.
// CHECK-LABEL: func.func @dynamic_and_strided(
// CHECK-SAME:      %[[X:[a-z0-9]+]]: memref<?xf32>, %[[V:[a-z0-9]+]]: memref<4xf32, strided<[?], offset: ?>>)
// CHECK:         %[[C0:.*]] = arith.constant 0 : index
// CHECK:         %[[N:.*]] = memref.dim %[[X]], %[[C0]]
// CHECK:         %[[B:.*]] = memref.alloc(%[[N]]) : memref<?xf32>
// CHECK:         memref.copy %[[X]], %[[B]]
// CHECK:         %[[W:.*]] = memref.alloc() : memref<4xf32>
// CHECK:         memref.copy %[[V]], %[[W]]
// CHECK:         %[[CAST:.*]] = memref.cast %[[W]] : memref<4xf32> to memref<4xf32, strided<[?], offset: ?>>
// CHECK:         return %[[X]], %[[B]], %[[V]], %[[CAST]] :
func.func @dynamic_and_strided(%x: memref<?xf32>, %v: memref<4xf32, strided<[?], offset: ?>>)
    -> (memref<?xf32>, memref<?xf32>, memref<4xf32, strided<[?], offset: ?>>, memref<4xf32, strided<[?], offset: ?>>) {
  return %x, %x, %v, %v : memref<?xf32>, memref<?xf32>, memref<4xf32, strided<[?], offset: ?>>, memref<4xf32, strided<[?], offset: ?>>
}

// Distinct buffers and declarations are left alone.
// CHECK-LABEL: func.func @distinct(
// CHECK-NOT:     memref.alloc
// CHECK:         return %{{.*}}, %{{.*}} :
func.func @distinct(%x: memref<3xf32>, %y: memref<3xf32>) -> (memref<3xf32>, memref<3xf32>) {
  return %x, %y : memref<3xf32>, memref<3xf32>
}
// CHECK-LABEL: func.func private @declaration(
func.func private @declaration() -> (memref<3xf32>, memref<3xf32>)

// A reshape of an allocation returned (a row loop's [rows, 1] result
// returned as [rows]): the reshaped buffer is allocated and the old
// allocation becomes a view of it, so the result is written in the
// caller's buffer, not copied there. Reshaped twice into the results, or a
// reshape that is not the allocation's: left alone.
// CHECK-LABEL: func.func @reshaped(
// CHECK:         %[[R:.*]] = memref.alloc() {alignment = 64 : i64} : memref<4xf32>
// CHECK:         %[[V:.*]] = memref.expand_shape %[[R]] {{\[\[}}0, 1]] output_shape [4, 1] : memref<4xf32> into memref<4x1xf32>
// CHECK:         "test.fill"(%[[V]])
// CHECK:         %[[E:.*]] = memref.alloc() : memref<2x3xf32>
// CHECK:         %[[EV:.*]] = memref.collapse_shape %[[E]] {{\[\[}}0, 1]] : memref<2x3xf32> into memref<6xf32>
// CHECK:         "test.fill"(%[[EV]])
// CHECK:         return %[[R]], %[[E]]
// OUT-LABEL: func.func @reshaped(
// OUT-SAME:      %[[OUT0:[a-z0-9]+]]: memref<4xf32>, %[[OUT1:[a-z0-9]+]]: memref<2x3xf32>) {
// OUT-NOT:       memref.alloc
// OUT-NOT:       memref.copy
// OUT:           memref.expand_shape %[[OUT0]]
// OUT:           memref.collapse_shape %[[OUT1]]
// OUT:           return
func.func @reshaped() -> (memref<4xf32>, memref<2x3xf32>) {
  %a = memref.alloc() {alignment = 64 : i64} : memref<4x1xf32>
  "test.fill"(%a) : (memref<4x1xf32>) -> ()
  %r = memref.collapse_shape %a [[0, 1]] : memref<4x1xf32> into memref<4xf32>
  %b = memref.alloc() : memref<6xf32>
  "test.fill"(%b) : (memref<6xf32>) -> ()
  %e = memref.expand_shape %b [[0, 1]] output_shape [2, 3] : memref<6xf32> into memref<2x3xf32>
  return %r, %e : memref<4xf32>, memref<2x3xf32>
}

// CHECK-LABEL: func.func @reshaped_untouched(
// CHECK:         %[[A:.*]] = memref.alloc() : memref<4x1xf32>
// CHECK:         %[[R:.*]] = memref.collapse_shape %[[A]]
// CHECK:         %[[S:.*]] = memref.collapse_shape %arg0
// CHECK:         %[[C:.*]] = memref.alloc() : memref<4xf32>
// CHECK:         memref.copy %[[R]], %[[C]]
// CHECK:         return %[[R]], %[[C]], %[[S]]
func.func @reshaped_untouched(%x: memref<2x2xf32>) -> (memref<4xf32>, memref<4xf32>, memref<4xf32>) {
  %a = memref.alloc() : memref<4x1xf32>
  "test.fill"(%a) : (memref<4x1xf32>) -> ()
  %r = memref.collapse_shape %a [[0, 1]] : memref<4x1xf32> into memref<4xf32>
  %s = memref.collapse_shape %x [[0, 1]] : memref<2x2xf32> into memref<4xf32>
  return %r, %r, %s : memref<4xf32>, memref<4xf32>, memref<4xf32>
}
