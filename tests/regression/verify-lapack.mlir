// RUN: not grafo opt %s --split-input-file 2>&1 | filecheck %s

/// A lapack op takes its routine's arguments in LAPACK's order, each of its kind (integers
/// i64 or index, arrays contiguous 1-D memrefs of f64 or i64); np.linalg ops take float64
/// stacks of matrices, square where the routine needs it.

// CHECK-LABEL: k.py:3:5: error: 'lapack.getrf' op takes 5 operands (m, n, a:A, lda, ipiv:I), has 4
"builtin.module"() ({
  "func.func"() ({
  ^bb0(%a: memref<?xf64>, %n: i64):
    %0 = "lapack.getrf"(%n, %n, %a, %n) : (i64, i64, memref<?xf64>, i64) -> i64 loc("k.py":3:5)
    "func.return"() : () -> ()
  }) {function_type = (memref<?xf64>, i64) -> (), sym_name = "too_few"} : () -> ()
}) : () -> ()

// -----

// CHECK-LABEL: k.py:4:5: error: 'lapack.getrf' op operand 'ipiv' has type memref<?xf64>
"builtin.module"() ({
  "func.func"() ({
  ^bb0(%a: memref<?xf64>, %n: i64):
    %0 = "lapack.getrf"(%n, %n, %a, %n, %a) : (i64, i64, memref<?xf64>, i64, memref<?xf64>) -> i64 loc("k.py":4:5)
    "func.return"() : () -> ()
  }) {function_type = (memref<?xf64>, i64) -> (), sym_name = "float_pivots"} : () -> ()
}) : () -> ()

// -----

// CHECK-LABEL: k.py:5:5: error: 'np.linalg.inv' op
// CHECK-SAME: Last 2 dimensions of the array must be square
"builtin.module"() ({
  "func.func"() ({
  ^bb0(%a: tensor<2x3xf64>):
    %0 = "np.linalg.inv"(%a) : (tensor<2x3xf64>) -> tensor<2x3xf64> loc("k.py":5:5)
    "func.return"() : () -> ()
  }) {function_type = (tensor<2x3xf64>) -> (), sym_name = "not_square"} : () -> ()
}) : () -> ()
