// RUN: not grafo opt %s 2>&1 | filecheck %s

/// The function's entry block arguments must match its function_type.

// CHECK: k.py:1:1: error: 'func.func' op entry block arguments do not match the function type
"builtin.module"() ({
  "func.func"() ({
  ^bb0(%x: f32):
    "func.return"() : () -> ()
  }) {function_type = (f64) -> (), sym_name = "f"} : () -> () loc("k.py":1:1)
}) : () -> ()
