// RUN: grafo ir %S/inputs/constructs.py:where --signature "f32[?]" --stage frontend | filecheck %s

/// np.where takes a bool tensor condition and broadcasts the scalar branch.

// CHECK: %[[C:.*]] = "np.greater"(%{{.*}}, %{{.*}}) : (tensor<?xf32>, f32) -> tensor<?xi1>
// CHECK: "np.where"(%[[C]], %{{.*}}, %{{.*}}) : (tensor<?xi1>, tensor<?xf32>, f32) -> tensor<?xf32>
// CHECK-LABEL: sym_name = "where"
