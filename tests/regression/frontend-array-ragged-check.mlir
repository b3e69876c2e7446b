// RUN: grafo ir %S/inputs/creation.py:array_of_rows --signature "f64[?], f64[3]" --stage frontend | filecheck %s

/// np.array([a, b]) of a dynamic-length and a length-3 array: a run-time check that the
/// lengths agree, with NumPy's ragged-sequence ValueError, then the rows are stacked into a
/// static 2x3 array.

// CHECK: ^bb0(%[[A:.*]]: tensor<?xf64>, %[[B:.*]]: tensor<3xf64>):
// CHECK: %[[N:.*]] = "np.dim"(%[[A]]) {index = 0 : i64}
// CHECK: %[[OK:.*]] = "np.equal"(%[[N]], %{{.*}})
// CHECK: "grafo.check"(%[[OK]]) {kind = "ValueError", message = "setting an array element with a sequence. The requested array has an inhomogeneous shape after 1 dimensions. The detected shape was (2,) + inhomogeneous part."}
// CHECK: %[[RA:.*]] = "np.subscript"(%[[A]]) {{.*}} -> tensor<1x?xf64>
// CHECK: %[[RB:.*]] = "np.subscript"(%[[B]]) {{.*}} -> tensor<1x3xf64>
// CHECK: "np.concatenate"(%[[RA]], %[[RB]]) {axis = 0 : i64} : (tensor<1x?xf64>, tensor<1x3xf64>) -> tensor<2x3xf64>
// CHECK-LABEL: sym_name = "array_of_rows"
