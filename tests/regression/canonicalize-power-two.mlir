// RUN: grafo opt %s --pass-pipeline=canonicalize | filecheck %s

/// x ** 2 is x * x (NumPy's square fast path); x ** 3 stays a power.

"builtin.module"() ({
  // CHECK: ^bb0(%[[X:.*]]: tensor<?xf32>):
  // CHECK: %[[SQ:.*]] = "np.multiply"(%[[X]], %[[X]])
  // CHECK: %[[CUBE:.*]] = "np.power"(%[[X]], %{{.*}})
  // CHECK: "func.return"(%[[SQ]], %[[CUBE]])
  // CHECK-LABEL: sym_name = "powers"
  "func.func"() ({
  ^bb0(%x: tensor<?xf32>):
    %two = "np.constant"() {value = 2.0 : f32} : () -> f32
    %three = "np.constant"() {value = 3.0 : f32} : () -> f32
    %0 = "np.power"(%x, %two) : (tensor<?xf32>, f32) -> tensor<?xf32>
    %1 = "np.power"(%x, %three) : (tensor<?xf32>, f32) -> tensor<?xf32>
    "func.return"(%0, %1) : (tensor<?xf32>, tensor<?xf32>) -> ()
  }) {function_type = (tensor<?xf32>) -> (tensor<?xf32>, tensor<?xf32>), sym_name = "powers"} : () -> ()
}) : () -> ()
