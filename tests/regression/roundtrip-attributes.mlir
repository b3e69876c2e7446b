// RUN: grafo opt %s | grafo opt - | filecheck %s

/// Dense, array, string, unit and hex-float attributes print back bit-exactly.

// CHECK: "np.constant"() {value = dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>} : () -> tensor<2x2xi32>
// CHECK-NEXT: "np.constant"() {value = 0x7FC00000 : f32} : () -> f32
// CHECK-NEXT: "np.constant"() {value = -0.0 : f64} : () -> f64
// CHECK-NEXT: "grafo.check"(%{{.*}}, %{{.*}}) {kind = "IndexError", message = "tab\tquote\" {0}"} : (i1, i64) -> ()
// CHECK-LABEL: sym_name = "attrs"
"builtin.module"() ({
  "func.func"() ({
  ^bb0(%ok: i1, %n: i64):
    %0 = "np.constant"() {value = dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>} : () -> tensor<2x2xi32>
    %1 = "np.constant"() {value = 0x7FC00000 : f32} : () -> f32
    %2 = "np.constant"() {value = -0.0 : f64} : () -> f64
    "grafo.check"(%ok, %n) {kind = "IndexError", message = "tab\tquote\" {0}"} : (i1, i64) -> ()
    "func.return"(%0, %1, %2) : (tensor<2x2xi32>, f32, f64) -> ()
  }) {function_type = (i1, i64) -> (tensor<2x2xi32>, f32, f64), sym_name = "attrs"} : () -> ()
}) : () -> ()
