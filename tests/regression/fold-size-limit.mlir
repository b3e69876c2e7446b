// RUN: grafo opt %s --pass-pipeline=fold,dce | filecheck %s

/// Results of up to 1024 elements fold; larger ones stay ops (no huge constants in the IR).

"builtin.module"() ({
  // CHECK: %[[SMALL:.*]] = "np.constant"() {value = dense<-1.0> : tensor<1024xf32>}
  // CHECK-NEXT: %[[ONES:.*]] = "np.constant"() {value = dense<1.0> : tensor<1025xf32>}
  // CHECK-NEXT: %[[BIG:.*]] = "np.negative"(%[[ONES]])
  // CHECK-NEXT: "func.return"(%[[SMALL]], %[[BIG]])
  // CHECK-LABEL: sym_name = "limit"
  "func.func"() ({
    %a = "np.constant"() {value = dense<1.0> : tensor<1024xf32>} : () -> tensor<1024xf32>
    %0 = "np.negative"(%a) : (tensor<1024xf32>) -> tensor<1024xf32>
    %b = "np.constant"() {value = dense<1.0> : tensor<1025xf32>} : () -> tensor<1025xf32>
    %1 = "np.negative"(%b) : (tensor<1025xf32>) -> tensor<1025xf32>
    "func.return"(%0, %1) : (tensor<1024xf32>, tensor<1025xf32>) -> ()
  }) {function_type = () -> (tensor<1024xf32>, tensor<1025xf32>), sym_name = "limit"} : () -> ()
}) : () -> ()
