// RUN: grafo opt %s | grafo opt - | filecheck %s

/// np.linalg ops (several results, mode attributes) and lapack ops (character attributes)
/// print and parse back unchanged.

// CHECK-LABEL: "builtin.module"
// CHECK: %[[R:.*]]:3 = "np.linalg.svd"(%{{.*}}) {mode = "reduced"} : (tensor<2x5x3xf64>) -> (tensor<2x5x3xf64>, tensor<2x3xf64>, tensor<2x3x3xf64>)
// CHECK: "func.return"(%[[R]]#1) : (tensor<2x3xf64>) -> ()
// CHECK: sym_name = "svd"
// CHECK: "lapack.syevd"(%{{.*}}) {jobz = "V", uplo = "U"} : (index, memref<?xf64>, index, memref<?xf64>, memref<?xf64>, index, memref<?xi64>, index) -> i64
// CHECK: sym_name = "syevd"
"builtin.module"() ({
  "func.func"() ({
  ^bb0(%a: tensor<2x5x3xf64>):
    %r:3 = "np.linalg.svd"(%a) {mode = "reduced"} : (tensor<2x5x3xf64>) -> (tensor<2x5x3xf64>, tensor<2x3xf64>, tensor<2x3x3xf64>)
    "func.return"(%r#1) : (tensor<2x3xf64>) -> ()
  }) {function_type = (tensor<2x5x3xf64>) -> tensor<2x3xf64>, sym_name = "svd"} : () -> ()
  "func.func"() ({
  ^bb0(%a: memref<?xf64>, %w: memref<?xf64>, %work: memref<?xf64>, %iwork: memref<?xi64>, %n: index):
    %info = "lapack.syevd"(%n, %a, %n, %w, %work, %n, %iwork, %n) {jobz = "V", uplo = "U"} : (index, memref<?xf64>, index, memref<?xf64>, memref<?xf64>, index, memref<?xi64>, index) -> i64
    "func.return"(%info) : (i64) -> ()
  }) {function_type = (memref<?xf64>, memref<?xf64>, memref<?xf64>, memref<?xi64>, index) -> i64, sym_name = "syevd"} : () -> ()
}) : () -> ()
