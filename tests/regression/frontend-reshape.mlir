// RUN: grafo ir %S/inputs/constructs.py:reshape --signature "f32[2,3]" --stage frontend | filecheck %s

/// reshape(-1) of a static 2x3 array infers 6 elements.

// CHECK: "np.reshape"(%{{.*}}) : (tensor<2x3xf32>) -> tensor<6xf32>
// CHECK-LABEL: sym_name = "reshape"
