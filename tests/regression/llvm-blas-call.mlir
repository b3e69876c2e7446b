// RUN: grafo translate %s --to=llvm | filecheck %s

/// blas ops call NumPy's ILP64 CBLAS: CblasRowMajor (101) first, each trans flag selected
/// between CblasTrans (112) and CblasNoTrans (111) (a constant false: 111), sizes and leading dimensions i64, alpha
/// and beta by value, each array as the address of its element at the offset.

// CHECK-LABEL: define {{.*}}@gemm(
// CHECK: %[[TA:.*]] = select i1 %{{.*}}, i32 {{111, i32 112|112, i32 111}}
// CHECK: call void @scipy_cblas_dgemm64_(i32 101, i32 %[[TA]], i32 111, i64 {{.*}}, i64 {{.*}}, i64 {{.*}}, double 1.000000e+00, ptr {{.*}}, i64 {{.*}}, ptr {{.*}}, i64 {{.*}}, double 0.000000e+00, ptr {{.*}}, i64 {{.*}})
// CHECK-LABEL: define {{.*}}@gemv(
// CHECK: call void @scipy_cblas_sgemv64_(i32 101, i32 {{.*}}, i64 {{.*}}, i64 {{.*}}, float 1.000000e+00, ptr {{.*}}, i64 {{.*}}, ptr {{.*}}, i64 {{.*}}, float 0.000000e+00, ptr {{.*}}, i64 {{.*}})
"builtin.module"() ({
  "func.func"() ({
  ^bb0(%a: memref<?x?xf64>, %b: memref<?x?xf64>, %c: memref<?x?xf64>, %n: index, %t: i1):
    %f = "arith.constant"() {value = false} : () -> i1
    %one = "arith.constant"() {value = 1.0 : f64} : () -> f64
    %zero = "arith.constant"() {value = 0.0 : f64} : () -> f64
    "blas.gemm"(%t, %f, %n, %n, %n, %one, %a, %n, %n, %b, %n, %n, %zero, %c, %n, %n) : (i1, i1, index, index, index, f64, memref<?x?xf64>, index, index, memref<?x?xf64>, index, index, f64, memref<?x?xf64>, index, index) -> ()
    "func.return"() : () -> ()
  }) {function_type = (memref<?x?xf64>, memref<?x?xf64>, memref<?x?xf64>, index, i1) -> (), sym_name = "gemm"} : () -> ()
  "func.func"() ({
  ^bb0(%a: memref<?x?xf32>, %x: memref<?xf32>, %y: memref<?xf32>, %n: index, %t: i1):
    %one = "arith.constant"() {value = 1.0 : f32} : () -> f32
    %zero = "arith.constant"() {value = 0.0 : f32} : () -> f32
    "blas.gemv"(%t, %n, %n, %one, %a, %n, %n, %x, %n, %n, %zero, %y, %n, %n) : (i1, index, index, f32, memref<?x?xf32>, index, index, memref<?xf32>, index, index, f32, memref<?xf32>, index, index) -> ()
    "func.return"() : () -> ()
  }) {function_type = (memref<?x?xf32>, memref<?xf32>, memref<?xf32>, index, i1) -> (), sym_name = "gemv"} : () -> ()
}) : () -> ()
