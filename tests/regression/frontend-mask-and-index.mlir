// RUN: grafo ir %S/inputs/manipulation.py:mask_and_index --signature "f64[?,?], bool[?], i64[?]" --stage frontend | filecheck %s

/// x[m, j] with a 1-D bool mask beside an index array: NumPy's mask-length IndexError as a
/// run-time check, the mask's nonzero positions (arange selected by the mask), then one
/// np.gather by both index arrays.

// CHECK: ^bb0(%[[X:.*]]: tensor<?x?xf64>, %[[M:.*]]: tensor<?xi1>, %[[J:.*]]: tensor<?xi64>):
// CHECK: "grafo.check"(%{{.*}}, %{{.*}}, %{{.*}}) {kind = "IndexError", message = "boolean index did not match indexed array along axis 0; size of axis is {0} but size of corresponding boolean axis is {1}"}
// CHECK: %[[R:.*]] = "np.arange"({{.*}}) : (i64, i64, !py.int) -> tensor<?xi64>
// CHECK-NEXT: %[[I:.*]] = "np.mask_select"(%[[R]], %[[M]]) : (tensor<?xi64>, tensor<?xi1>) -> tensor<?xi64>
// CHECK-NEXT: %[[G:.*]] = "np.gather"(%[[X]], %[[I]], %[[J]]) {axes = [0 : i64, 1 : i64], axis = 0 : i64, index_axes = [0 : i64, 1 : i64]}
// CHECK: "func.return"(%[[G]])
