// RUN: grafo opt %s | grafo opt - | filecheck %s

/// func.call names its callee with a symbol reference to a function of the module.

// CHECK: %[[R:.*]] = "func.call"(%{{.*}}) {callee = @sq} : (f32) -> f32
// CHECK-LABEL: sym_name = "caller"
// CHECK: "arith.mulf"
// CHECK-LABEL: sym_name = "sq"
"builtin.module"() ({
  "func.func"() ({
  ^bb0(%x: f32):
    %r = "func.call"(%x) {callee = @sq} : (f32) -> f32
    "func.return"(%r) : (f32) -> ()
  }) {function_type = (f32) -> f32, sym_name = "caller"} : () -> ()
  "func.func"() ({
  ^bb0(%y: f32):
    %m = "arith.mulf"(%y, %y) : (f32, f32) -> f32
    "func.return"(%m) : (f32) -> ()
  }) {function_type = (f32) -> f32, sym_name = "sq"} : () -> ()
}) : () -> ()
