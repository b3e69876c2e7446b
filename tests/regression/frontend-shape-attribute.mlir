// RUN: grafo ir %S/inputs/constructs.py:shape_attr --signature "f32[?]" --stage frontend | filecheck %s

/// a.shape[0] of a dynamic dim is np.dim, a Python int at run time.

// CHECK: %[[N:.*]] = "np.dim"(%{{.*}}) {index = 0 : i64} : (tensor<?xf32>) -> !py.int
// CHECK-NEXT: "func.return"(%[[N]]) : (!py.int) -> ()
// CHECK-LABEL: sym_name = "shape_attr"
