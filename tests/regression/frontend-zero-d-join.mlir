// RUN: grafo ir %S/inputs/constructs.py:zero_d_or_scalar --signature "i32" --stage frontend | filecheck %s

/// A return value that is a NumPy scalar on one path and a 0-d array of its dtype on another
/// is the scalar: the 0-d path yields the array's element (np.subscript without items).

// CHECK: ^bb0(%[[X:.*]]: i32):
// CHECK: %[[Z:.*]] = "np.full"(%{{.*}}) : (i32) -> tensor<i32>
// CHECK: %[[E:.*]] = "np.subscript"(%[[Z]]) {bounds = [], spec = []} : (tensor<i32>) -> i32
// CHECK: "scf.yield"(%{{.*}}, %[[E]]) : (!py.bool, i32) -> ()
// CHECK: "func.return"(%{{.*}}) : (i32) -> ()
// CHECK: function_type = (i32) -> i32
// CHECK-SAME: sym_name = "zero_d_or_scalar"
