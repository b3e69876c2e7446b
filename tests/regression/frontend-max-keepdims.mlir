// RUN: grafo ir %S/inputs/constructs.py:max_keepdims --signature "f32[3,4]" --stage frontend | filecheck %s

/// np.max(axis=0, keepdims=True) keeps a static dim of size 1.

// CHECK: "np.reduce"(%{{.*}}) {axes = [0 : i64], keepdims = true, kind = "max"} : (tensor<3x4xf32>) -> tensor<1x4xf32>
// CHECK-LABEL: sym_name = "max_keepdims"
