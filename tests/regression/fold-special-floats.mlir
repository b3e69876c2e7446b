// RUN: grafo opt %s --pass-pipeline=fold,dce | filecheck %s

/// Folding follows IEEE 754 as NumPy does: inf * 0 is NaN, -0.0 + 0.0 is +0.0, 1/0 is inf.

"builtin.module"() ({
  // CHECK: %[[NAN:.*]] = "np.constant"() {value = 0x{{7FF8|FFF8}}000000000000 : f64}
  // CHECK-NEXT: %[[ZERO:.*]] = "np.constant"() {value = 0.0 : f64}
  // CHECK-NEXT: %[[INF:.*]] = "np.constant"() {value = 0x7FF0000000000000 : f64}
  // CHECK-NEXT: "func.return"(%[[NAN]], %[[ZERO]], %[[INF]])
  // CHECK-LABEL: sym_name = "special"
  "func.func"() ({
    %inf = "np.constant"() {value = 0x7FF0000000000000 : f64} : () -> f64
    %z = "np.constant"() {value = 0.0 : f64} : () -> f64
    %nz = "np.constant"() {value = -0.0 : f64} : () -> f64
    %one = "np.constant"() {value = 1.0 : f64} : () -> f64
    %0 = "np.multiply"(%inf, %z) : (f64, f64) -> f64
    %1 = "np.add"(%nz, %z) : (f64, f64) -> f64
    %2 = "np.divide"(%one, %z) : (f64, f64) -> f64
    "func.return"(%0, %1, %2) : (f64, f64, f64) -> ()
  }) {function_type = () -> (f64, f64, f64), sym_name = "special"} : () -> ()
}) : () -> ()
