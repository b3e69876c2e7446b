// RUN: not grafo opt %s --split-input-file 2>&1 | filecheck %s

/// np.gather and np.scatter check their axes, their index axes and that their index arrays
/// broadcast; a valid pair prints back unchanged (the placement axis and the axes indexed).

// CHECK-LABEL: k.py:3:5: error: 'np.gather' op 'axes' (0, 0) repeats an axis
"builtin.module"() ({
  "func.func"() ({
  ^bb0(%x: tensor<3x4x5xf32>, %i: tensor<2xi64>, %j: tensor<2xi8>):
    %0 = "np.gather"(%x, %i, %j) {axes = [0 : i64, 0 : i64], axis = 0 : i64} : (tensor<3x4x5xf32>, tensor<2xi64>, tensor<2xi8>) -> tensor<2x4xf32> loc("k.py":3:5)
    "func.return"(%0) : (tensor<2x4xf32>) -> ()
  }) {function_type = (tensor<3x4x5xf32>, tensor<2xi64>, tensor<2xi8>) -> tensor<2x4xf32>, sym_name = "repeated_axis"} : () -> ()
}) : () -> ()


// -----

// CHECK-LABEL: k.py:4:5: error: 'np.gather' op 'axes' names 1 axes for 2 index arrays
"builtin.module"() ({
  "func.func"() ({
  ^bb0(%x: tensor<3x4x5xf32>, %i: tensor<2xi64>, %j: tensor<2xi8>):
    %0 = "np.gather"(%x, %i, %j) {axes = [1 : i64], axis = 0 : i64} : (tensor<3x4x5xf32>, tensor<2xi64>, tensor<2xi8>) -> tensor<2x3x5xf32> loc("k.py":4:5)
    "func.return"(%0) : (tensor<2x3x5xf32>) -> ()
  }) {function_type = (tensor<3x4x5xf32>, tensor<2xi64>, tensor<2xi8>) -> tensor<2x3x5xf32>, sym_name = "axes_count"} : () -> ()
}) : () -> ()


// -----

// CHECK-LABEL: k.py:5:5: error: 'np.gather' op shape mismatch: indexing arrays could not be broadcast together with shapes (2,) (3,)
"builtin.module"() ({
  "func.func"() ({
  ^bb0(%x: tensor<3x4x5xf32>, %i: tensor<2xi64>, %j: tensor<3xi8>):
    %0 = "np.gather"(%x, %i, %j) {axes = [0 : i64, 2 : i64], axis = 0 : i64} : (tensor<3x4x5xf32>, tensor<2xi64>, tensor<3xi8>) -> tensor<2x4xf32> loc("k.py":5:5)
    "func.return"(%0) : (tensor<2x4xf32>) -> ()
  }) {function_type = (tensor<3x4x5xf32>, tensor<2xi64>, tensor<3xi8>) -> tensor<2x4xf32>, sym_name = "no_broadcast"} : () -> ()
}) : () -> ()


// -----

// CHECK-LABEL: k.py:8:5: error: 'np.gather' op 'index_axes' names 2 axes for 1 index arrays
"builtin.module"() ({
  "func.func"() ({
  ^bb0(%x: tensor<3x4x5xf32>, %i: tensor<2xi64>):
    %0 = "np.gather"(%x, %i) {axis = 0 : i64, index_axes = [0 : i64, 1 : i64]} : (tensor<3x4x5xf32>, tensor<2xi64>) -> tensor<2x4x5xf32> loc("k.py":8:5)
    "func.return"(%0) : (tensor<2x4x5xf32>) -> ()
  }) {function_type = (tensor<3x4x5xf32>, tensor<2xi64>) -> tensor<2x4x5xf32>, sym_name = "index_axes_count"} : () -> ()
}) : () -> ()

// -----

// CHECK: "np.scatter"(%arg0, %arg1, %arg2, %arg3) {axes = [0 : i64, 2 : i64], axis = 1 : i64} : (tensor<3x4x5xf32>, tensor<2x1xi64>, tensor<3xi8>, f32) -> tensor<3x4x5xf32>
// CHECK: "np.gather"(%0, %arg1, %arg2) {axes = [0 : i64, 2 : i64], axis = 1 : i64, index_axes = [0 : i64, 2 : i64]} : (tensor<3x4x5xf32>, tensor<2x1xi64>, tensor<3xi8>) -> tensor<4x2x3xf32>
// CHECK-LABEL: sym_name = "valid"
"builtin.module"() ({
  "func.func"() ({
  ^bb0(%x: tensor<3x4x5xf32>, %i: tensor<2x1xi64>, %j: tensor<3xi8>, %v: f32):
    %0 = "np.scatter"(%x, %i, %j, %v) {axes = [0 : i64, 2 : i64], axis = 1 : i64} : (tensor<3x4x5xf32>, tensor<2x1xi64>, tensor<3xi8>, f32) -> tensor<3x4x5xf32> loc("k.py":6:5)
    %1 = "np.gather"(%0, %i, %j) {axes = [0 : i64, 2 : i64], axis = 1 : i64, index_axes = [0 : i64, 2 : i64]} : (tensor<3x4x5xf32>, tensor<2x1xi64>, tensor<3xi8>) -> tensor<4x2x3xf32> loc("k.py":7:5)
    "func.return"(%1) : (tensor<4x2x3xf32>) -> ()
  }) {function_type = (tensor<3x4x5xf32>, tensor<2x1xi64>, tensor<3xi8>, f32) -> tensor<4x2x3xf32>, sym_name = "valid"} : () -> ()
}) : () -> ()
