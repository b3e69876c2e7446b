// RUN: grafo ir %S/inputs/constructs.py:int_index --signature "f32[?], i64" --stage frontend | filecheck %s

/// a[i] with a run-time i is an np.subscript with the index as an operand, giving a scalar.

// CHECK: ^bb0(%[[A:.*]]: tensor<?xf32>, %[[I:.*]]: i64):
// CHECK-NEXT: %[[J:.*]] = "np.astype"(%[[I]]) : (i64) -> !py.int
// CHECK-NEXT: %[[E:.*]] = "np.subscript"(%[[A]], %[[J]]) {bounds = [], spec = ["i"]} : (tensor<?xf32>, !py.int) -> f32
// CHECK-LABEL: sym_name = "int_index"
