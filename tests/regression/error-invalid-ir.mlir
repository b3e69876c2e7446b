// RUN: not grafo opt %s --pass-pipeline=canonicalize 2>&1 | filecheck %s

/// IR that parses but breaks an invariant is rejected by the verifier before any pass runs.

// CHECK: k.py:7:3: error: 'func.return' op operand types do not match the function's result types
// CHECK-NOT: Traceback
"builtin.module"() ({
  "func.func"() ({
  ^bb0(%x: f32):
    "func.return"(%x) : (f32) -> () loc("k.py":7:3)
  }) {function_type = (f32) -> i32, sym_name = "f"} : () -> ()
}) : () -> ()
