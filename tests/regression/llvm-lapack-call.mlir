// RUN: grafo translate %s --to=llvm | filecheck %s

/// lapack ops call NumPy's ILP64 LAPACK with the Fortran convention: every argument by
/// reference (scalars in stack slots, buffers as element pointers), info read back from its
/// slot, and each character argument's hidden length (a size_t 1) after the others.

// CHECK-LABEL: define {{.*}}@lu(
// CHECK: call void @scipy_dgetrf_64_(ptr {{.*}}, ptr {{.*}}, ptr {{.*}}, ptr {{.*}}, ptr {{.*}}, ptr {{.*}})
// CHECK-LABEL: define {{.*}}@chol(
// CHECK: call void @scipy_dpotrf_64_(ptr {{.*}}, ptr {{.*}}, ptr {{.*}}, ptr {{.*}}, ptr {{.*}}, i64 1)
"builtin.module"() ({
  "func.func"() ({
  ^bb0(%a: memref<?xf64>, %p: memref<?xi64>, %n: i64):
    %info = "lapack.getrf"(%n, %n, %a, %n, %p) : (i64, i64, memref<?xf64>, i64, memref<?xi64>) -> i64
    "func.return"(%info) : (i64) -> ()
  }) {function_type = (memref<?xf64>, memref<?xi64>, i64) -> i64, sym_name = "lu"} : () -> ()
  "func.func"() ({
  ^bb0(%a: memref<?xf64>, %n: i64):
    %info = "lapack.potrf"(%n, %a, %n) {uplo = "L"} : (i64, memref<?xf64>, i64) -> i64
    "func.return"(%info) : (i64) -> ()
  }) {function_type = (memref<?xf64>, i64) -> i64, sym_name = "chol"} : () -> ()
}) : () -> ()
