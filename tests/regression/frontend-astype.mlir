// RUN: grafo ir %S/inputs/constructs.py:astype_call --signature "f64[?]" --stage frontend | filecheck %s

/// ndarray.astype(np.int32) is one np.astype to tensor<?xi32>.

// CHECK: "np.astype"(%{{.*}}) : (tensor<?xf64>) -> tensor<?xi32>
// CHECK-LABEL: sym_name = "astype_call"
