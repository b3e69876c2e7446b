// RUN: grafo ir %S/inputs/constructs.py:slicing --signature "f32[?,?]" --stage frontend | filecheck %s

/// a[1:, ::2] is one np.subscript with two slices and their bounds.

// CHECK: "np.subscript"(%{{.*}}) {bounds = [1 : i64, "none", "none", "none", "none", 2 : i64], spec = ["s", "s"]} : (tensor<?x?xf32>) -> tensor<?x?xf32>
// CHECK-LABEL: sym_name = "slicing"
