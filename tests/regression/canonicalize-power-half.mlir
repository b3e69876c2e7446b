// RUN: grafo opt %s --pass-pipeline=canonicalize | filecheck %s

/// An array raised to the constant 0.5 is its sqrt (NumPy's power loop takes sqrt for a
/// scalar exponent of 0.5, so -0.0 ** 0.5 is -0.0); a scalar base keeps C's pow, as a NumPy
/// scalar's ** does, and so does an exponent array of 0.5s.

"builtin.module"() ({
  // CHECK: ^bb0(%[[X:.*]]: tensor<?xf64>, %[[S:.*]]: f64, %[[Y:.*]]: tensor<2xf64>):
  // CHECK: %[[R:.*]] = "np.sqrt"(%[[X]])
  // CHECK: %[[P:.*]] = "np.power"(%[[S]], %{{.*}})
  // CHECK: %[[Q:.*]] = "np.power"(%[[Y]], %{{.*}})
  // CHECK: "func.return"(%[[R]], %[[P]], %[[Q]])
  // CHECK-LABEL: sym_name = "halves"
  "func.func"() ({
  ^bb0(%x: tensor<?xf64>, %s: f64, %y: tensor<2xf64>):
    %half = "np.constant"() {value = 0.5 : f64} : () -> f64
    %halves = "np.constant"() {value = dense<0.5> : tensor<2xf64>} : () -> tensor<2xf64>
    %0 = "np.power"(%x, %half) : (tensor<?xf64>, f64) -> tensor<?xf64>
    %1 = "np.power"(%s, %half) : (f64, f64) -> f64
    %2 = "np.power"(%y, %halves) : (tensor<2xf64>, tensor<2xf64>) -> tensor<2xf64>
    "func.return"(%0, %1, %2) : (tensor<?xf64>, f64, tensor<2xf64>) -> ()
  }) {function_type = (tensor<?xf64>, f64, tensor<2xf64>) -> (tensor<?xf64>, f64, tensor<2xf64>), sym_name = "halves"} : () -> ()
}) : () -> ()
