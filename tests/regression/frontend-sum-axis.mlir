// RUN: grafo ir %S/inputs/constructs.py:sum_axis --signature "f32[?,?]" --stage frontend | filecheck %s

/// np.sum(a, axis=1) is one np.reduce over axis 1 with a rank-1 result.

// CHECK: "np.reduce"(%{{.*}}) {axes = [1 : i64], keepdims = false, kind = "sum"} : (tensor<?x?xf32>) -> tensor<?xf32>
// CHECK-LABEL: sym_name = "sum_axis"
