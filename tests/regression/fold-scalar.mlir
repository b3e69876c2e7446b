// RUN: grafo opt %s --pass-pipeline=fold,dce | filecheck %s

/// Scalar chains fold to one constant with NumPy's result (float32 arithmetic, int8 wraparound),
/// placed at the location of the last folded op.

"builtin.module"() ({
  // CHECK: %[[F:.*]] = "np.constant"() {value = 0.30000001192092896 : f32} : () -> f32 loc("k.py":4:9)
  // CHECK-NEXT: %[[I:.*]] = "np.constant"() {value = -128 : i8} : () -> i8 loc("k.py":5:9)
  // CHECK-NEXT: %[[B:.*]] = "np.constant"() {value = true} : () -> i1
  // CHECK-NEXT: "func.return"(%[[F]], %[[I]], %[[B]])
  // CHECK-LABEL: sym_name = "scalars"
  "func.func"() ({
    %a = "np.constant"() {value = 0.1 : f32} : () -> f32
    %b = "np.constant"() {value = 0.2 : f32} : () -> f32
    %0 = "np.add"(%a, %b) : (f32, f32) -> f32 loc("k.py":4:9)
    %m = "np.constant"() {value = 127 : i8} : () -> i8
    %one = "np.constant"() {value = 1 : i8} : () -> i8
    %1 = "np.add"(%m, %one) : (i8, i8) -> i8 loc("k.py":5:9)
    %2 = "np.less"(%1, %one) : (i8, i8) -> i1
    "func.return"(%0, %1, %2) : (f32, i8, i1) -> ()
  }) {function_type = () -> (f32, i8, i1), sym_name = "scalars"} : () -> ()
}) : () -> ()
