// RUN: rlx-opt %s --rlx-rename-openmpi-ops | FileCheck %s

// MPIToLLVM's `ompi_mpi_<op>` become OpenMPI's `ompi_mpi_op_<op>`, with their
// uses; other globals stay.
// CHECK-DAG: llvm.mlir.global external @ompi_mpi_op_sum()
// CHECK-DAG: llvm.mlir.global external @ompi_mpi_op_max()
// CHECK-DAG: llvm.mlir.global external @ompi_mpi_float()
// CHECK-NOT: @ompi_mpi_sum
// CHECK-LABEL: llvm.func @f()
// CHECK: llvm.mlir.addressof @ompi_mpi_op_sum
// CHECK: llvm.mlir.addressof @ompi_mpi_op_max
// CHECK: llvm.mlir.addressof @ompi_mpi_float
llvm.mlir.global external @ompi_mpi_sum() {addr_space = 0 : i32} : !llvm.struct<"ompi_op_t", opaque>
llvm.mlir.global external @ompi_mpi_max() {addr_space = 0 : i32} : !llvm.struct<"ompi_op_t", opaque>
llvm.mlir.global external @ompi_mpi_float() {addr_space = 0 : i32} : !llvm.struct<"ompi_datatype_t", opaque>
llvm.func @f() {
  %0 = llvm.mlir.addressof @ompi_mpi_sum : !llvm.ptr
  %1 = llvm.mlir.addressof @ompi_mpi_max : !llvm.ptr
  %2 = llvm.mlir.addressof @ompi_mpi_float : !llvm.ptr
  llvm.return
}
