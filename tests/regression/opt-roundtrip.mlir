// RUN: grafo opt %s | filecheck %s
// RUN: grafo opt %s | grafo opt - | filecheck %s

/// Without a pipeline the IR is parsed, verified and printed unchanged, locations included.

"builtin.module"() ({
  // CHECK: ^bb0(%[[X:.*]]: f32):
  // CHECK-NEXT: %[[C:.*]] = "np.constant"() {value = 0.0 : f32} : () -> f32 loc("k.py":3:8)
  // CHECK-NEXT: %[[S:.*]] = "np.add"(%[[X]], %[[C]]) : (f32, f32) -> f32 loc("k.py":3:12)
  // CHECK-NEXT: "func.return"(%[[S]]) : (f32) -> () loc("k.py":4:5)
  // CHECK-LABEL: sym_name = "f"
  "func.func"() ({
  ^bb0(%x: f32):
    %c = "np.constant"() {value = 0.0 : f32} : () -> f32 loc("k.py":3:8)
    %0 = "np.add"(%x, %c) : (f32, f32) -> f32 loc("k.py":3:12)
    "func.return"(%0) : (f32) -> () loc("k.py":4:5)
  }) {function_type = (f32) -> f32, sym_name = "f"} : () -> () loc("k.py":1:1)
}) : () -> ()
