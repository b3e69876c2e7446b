// RUN: grafo ir %S/inputs/conversions.py:store_float --signature "i8[?], f32" --stage frontend | filecheck %s
// RUN: grafo ir %S/inputs/conversions.py:store_float --signature "u8[?], f32" --stage frontend | filecheck %s --check-prefix=UNSIGNED

/// A NumPy float stored into a signed integer array converts as int(v): run-time checks for
/// NaN, infinities, C's long and the dtype's range come before the store. Into an unsigned
/// array NumPy casts it: no checks.

// CHECK: ^bb0(%[[BUF:.*]]: tensor<?xi8>, %[[V:.*]]: f32):
// CHECK: %[[NUM:.*]] = "np.equal"(%[[V]], %[[V]]) : (f32, f32) -> i1
// CHECK-NEXT: "grafo.check"(%[[NUM]]) {kind = "ValueError", message = "cannot convert float NaN to integer"}
// CHECK-NEXT: %[[FIN:.*]] = "np.isfinite"(%[[V]])
// CHECK-NEXT: "grafo.check"(%[[FIN]]) {kind = "OverflowError", message = "cannot convert float infinity to integer"}
// CHECK: "grafo.check"(%{{.*}}) {kind = "OverflowError", message = "Python int too large to convert to C long"}
// CHECK: %[[N:.*]] = "np.astype"(%[[V]]) : (f32) -> i64
// CHECK-NEXT: "grafo.check"(%{{.*}}, %[[N]]) {kind = "OverflowError", message = "Python integer {0} out of bounds for int8"}
// CHECK: %[[V8:.*]] = "np.astype"(%[[V]]) : (f32) -> i8
// CHECK-NEXT: "np.setitem"(%[[BUF]], %[[V8]], %{{.*}})
// CHECK-LABEL: sym_name = "store_float"

// UNSIGNED: ^bb0(%[[BUF:.*]]: tensor<?xui8>, %[[V:.*]]: f32):
// UNSIGNED-NOT: grafo.check
// UNSIGNED: %[[V8:.*]] = "np.astype"(%[[V]]) : (f32) -> ui8
// UNSIGNED-NEXT: "np.setitem"(%[[BUF]], %[[V8]], %{{.*}})
// UNSIGNED-LABEL: sym_name = "store_float"
