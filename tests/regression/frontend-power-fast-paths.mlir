// RUN: grafo ir %S/inputs/conversions.py:power_fast_paths --signature "bool[?], f32[?]" --stage frontend | filecheck %s

/// ndarray ** 2 is np.square (a bool array squares in int8), ** 3 np.power in int64 (a weak
/// Python int), a float array ** -1 np.reciprocal: NumPy's fast_scalar_power.

// CHECK: ^bb0(%[[F:.*]]: tensor<?xi1>, %[[X:.*]]: tensor<?xf32>):
// CHECK: %[[F8:.*]] = "np.astype"(%[[F]]) : (tensor<?xi1>) -> tensor<?xi8>
// CHECK-NEXT: %[[SQ:.*]] = "np.square"(%[[F8]]) : (tensor<?xi8>) -> tensor<?xi8>
// CHECK: %[[F64:.*]] = "np.astype"(%[[F]]) : (tensor<?xi1>) -> tensor<?xi64>
// CHECK: %[[CUBE:.*]] = "np.power"(%[[F64]], %{{.*}}) : (tensor<?xi64>, i64) -> tensor<?xi64>
// CHECK: %[[INV:.*]] = "np.reciprocal"(%[[X]]) : (tensor<?xf32>) -> tensor<?xf32>
// CHECK-NOT: "np.power"
// CHECK: "func.return"(%[[SQ]], %[[CUBE]], %[[INV]])
// CHECK-LABEL: sym_name = "power_fast_paths"
