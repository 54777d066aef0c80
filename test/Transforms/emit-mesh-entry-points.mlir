// RUN: rlx-opt %s --rlx-emit-mesh-entry-points -split-input-file -verify-diagnostics | FileCheck %s

// The runtime's mesh ABI in the mpi dialect; the grid goes; a split whose
// color every process shares is the parent communicator.
// CHECK-NOT: shard.grid
// CHECK-LABEL: func.func @f(
// CHECK: %[[WORLD:.*]] = mpi.comm_world
// CHECK-NOT: mpi.comm_split
// CHECK: mpi.allreduce(%{{.*}}, %{{.*}}, MPI_SUM, %[[WORLD]])
// CHECK-LABEL: func.func @rlx_mesh_start() -> i32
// CHECK: mpi.init
// CHECK-LABEL: func.func @rlx_mesh_rank() -> i32
// CHECK: mpi.comm_rank
// CHECK-LABEL: func.func @rlx_mesh_size() -> i32
// CHECK: %[[ONE:.*]] = arith.constant 1 : i32
// CHECK: memref.store %[[ONE]]
// CHECK: mpi.allreduce({{.*}}, MPI_SUM,
// CHECK-LABEL: func.func @rlx_mesh_any(%{{.*}}: i32) -> i32
// CHECK: mpi.allreduce({{.*}}, MPI_MAX,
// CHECK-LABEL: func.func @rlx_mesh_stop() -> i32
// CHECK: mpi.finalize
shard.grid @mesh(shape = 2)
func.func @f(%b: memref<3xf32>) {
  %c0 = arith.constant 0 : i32
  %w = mpi.comm_world : !mpi.comm
  %e, %r = mpi.comm_rank(%w) : !mpi.retval, i32
  %s = mpi.comm_split(%w, %c0, %r) : !mpi.comm
  mpi.allreduce(%b, %b, MPI_SUM, %s) : memref<3xf32>, memref<3xf32>
  return
}

// -----

// A module without a grid gets nothing.
// CHECK-LABEL: func.func @g(
// CHECK-NOT: rlx_mesh
func.func @g() {
  return
}

// -----

shard.grid @mesh(shape = 2x2)
func.func @f(%b: memref<3xf32>) {
  %w = mpi.comm_world : !mpi.comm
  %e, %r = mpi.comm_rank(%w) : !mpi.retval, i32
  // expected-error @+1 {{a collective over some of the mesh's axes needs a split communicator, which the MPI lowering cannot make for OpenMPI yet: use collectives over the whole mesh}}
  %s = mpi.comm_split(%w, %r, %r) : !mpi.comm
  mpi.allreduce(%b, %b, MPI_SUM, %s) : memref<3xf32>, memref<3xf32>
  return
}

// -----

shard.grid @mesh(shape = 2)
// expected-error @+1 {{'rlx_mesh_rank' is the name of a mesh module's entry point}}
func.func @rlx_mesh_rank() {
  return
}
