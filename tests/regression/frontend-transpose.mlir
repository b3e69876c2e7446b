// RUN: grafo ir %S/inputs/constructs.py:transpose --signature "f32[2,3]" --stage frontend | filecheck %s

/// a.T is np.transpose with perm [1, 0] and the swapped static shape.

// CHECK: "np.transpose"(%{{.*}}) {perm = [1 : i64, 0 : i64]} : (tensor<2x3xf32>) -> tensor<3x2xf32>
// CHECK-LABEL: sym_name = "transpose"
