// RUN: not grafo opt %s 2>&1 | filecheck %s

/// func.call operand types must match the callee's function type.

// CHECK: k.py:9:10: error: 'func.call' op operand and result types do not match the type (f32) -> f32 of '@g'
"builtin.module"() ({
  "func.func"() ({
  ^bb0(%y: f32):
    "func.return"(%y) : (f32) -> ()
  }) {function_type = (f32) -> f32, sym_name = "g"} : () -> ()
  "func.func"() ({
  ^bb0(%x: f64):
    %0 = "func.call"(%x) {callee = @g} : (f64) -> f32 loc("k.py":9:10)
    "func.return"(%0) : (f32) -> ()
  }) {function_type = (f64) -> f32, sym_name = "f"} : () -> ()
}) : () -> ()
