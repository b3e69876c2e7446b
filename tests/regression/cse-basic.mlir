// RUN: grafo opt %s --pass-pipeline=cse | filecheck %s

/// Equal pure ops merge into the first; commutative operands match in either order.

"builtin.module"() ({
  // CHECK: ^bb0(%[[X:.*]]: f32, %[[Y:.*]]: f32):
  // CHECK-NEXT: %[[A:.*]] = "np.add"(%[[X]], %[[Y]])
  // CHECK-NEXT: %[[E:.*]] = "np.exp"(%[[A]])
  // CHECK-NEXT: %[[M:.*]] = "np.multiply"(%[[E]], %[[E]])
  // CHECK-NEXT: "func.return"(%[[M]], %[[A]])
  // CHECK-LABEL: sym_name = "basic"
  "func.func"() ({
  ^bb0(%x: f32, %y: f32):
    %0 = "np.add"(%x, %y) : (f32, f32) -> f32
    %1 = "np.add"(%y, %x) : (f32, f32) -> f32
    %2 = "np.exp"(%0) : (f32) -> f32
    %3 = "np.exp"(%1) : (f32) -> f32
    %4 = "np.multiply"(%2, %3) : (f32, f32) -> f32
    "func.return"(%4, %1) : (f32, f32) -> ()
  }) {function_type = (f32, f32) -> (f32, f32), sym_name = "basic"} : () -> ()
}) : () -> ()
