// RUN: grafo ir %S/inputs/ufunc_methods.py:bitwise_or_reduce --signature "i16[?,?]" --stage optimized | filecheck %s

/// np.bitwise_or.reduce(a, axis=None): per axis, a leading slab of the identity (0) so an
/// empty extent gives it, an np.scan of the ufunc, and its last element, in int16.

// CHECK: %[[ZERO:.*]] = "np.constant"() {value = 0 : i16}
// CHECK: %[[SLAB:.*]] = "np.full"(%[[ZERO]]
// CHECK: %[[PAD:.*]] = "np.concatenate"(%[[SLAB]], %arg0) {axis = 0 : i64}
// CHECK: %[[SCAN:.*]] = "np.scan"(%[[PAD]]) {axis = 0 : i64, kind = "bitwise_or"}
// CHECK: "np.subscript"(%[[SCAN]]
// CHECK: "np.scan"(%{{.*}}) {axis = 1 : i64, kind = "bitwise_or"}
// CHECK: -> i16
// CHECK-LABEL: sym_name = "bitwise_or_reduce"
