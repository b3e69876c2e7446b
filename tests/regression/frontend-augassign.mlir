// RUN: grafo ir %S/inputs/constructs.py:aug_assign --signature "f32[?]" --stage frontend | filecheck %s

/// += and *= on an array update it in place (np.setitem of the whole array); the Python float stays f32 (NEP 50).

// CHECK: %[[A:.*]] = "np.multiply"(%{{.*}}, %{{.*}}) : (tensor<?xf32>, f32) -> tensor<?xf32>
// CHECK: %[[B:.*]] = "np.add"(%[[A]], %{{.*}}) : (tensor<?xf32>, f32) -> tensor<?xf32>
// CHECK-NEXT: %[[A1:.*]] = "np.setitem"(%[[A]], %[[B]])
// CHECK: %[[C:.*]] = "np.multiply"(%[[A1]], %{{.*}}) : (tensor<?xf32>, f32) -> tensor<?xf32>
// CHECK-NEXT: %[[A2:.*]] = "np.setitem"(%[[A1]], %[[C]])
// CHECK-NEXT: "func.return"(%[[A2]])
// CHECK-LABEL: sym_name = "aug_assign"
