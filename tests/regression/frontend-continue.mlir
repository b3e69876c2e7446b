// RUN: grafo ir %S/inputs/constructs.py:continue_loop --signature "i64" --stage frontend | filecheck %s

/// continue skips the rest of the body through an scf.if on the negated condition; only the sum is carried.

// CHECK: %[[R:.*]] = "scf.for"
// CHECK: "np.remainder"
// CHECK: "np.equal"
// CHECK: "np.logical_not"
// CHECK: "np.add"
// CHECK: }) : (i64, i64, i64, !py.int) -> !py.int
// CHECK-NEXT: "func.return"(%[[R]])
// CHECK-LABEL: sym_name = "continue_loop"
