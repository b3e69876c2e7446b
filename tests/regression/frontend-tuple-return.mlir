// RUN: grafo ir %S/inputs/constructs.py:tuple_return --signature "f32[?]" --stage frontend | filecheck %s

/// Returning a tuple gives two results and the grafo.result_tuple unit attribute.

// CHECK: %[[A:.*]] = "np.add"
// CHECK: %[[M:.*]] = "np.multiply"
// CHECK-NEXT: "func.return"(%[[A]], %[[M]]) : (tensor<?xf32>, tensor<?xf32>) -> ()
// CHECK-LABEL: function_type = (tensor<?xf32>) -> (tensor<?xf32>, tensor<?xf32>), grafo.result_tuple, sym_name = "tuple_return"
