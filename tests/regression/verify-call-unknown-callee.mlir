// RUN: not grafo opt %s 2>&1 | filecheck %s

/// A func.call of a symbol the module does not define is rejected, naming op, location and callee.

// CHECK: k.py:3:8: error: 'func.call' op '@nope' does not reference a function of the module
// CHECK-NOT: Traceback
"builtin.module"() ({
  "func.func"() ({
    %0 = "func.call"() {callee = @nope} : () -> f32 loc("k.py":3:8)
    "func.return"(%0) : (f32) -> ()
  }) {function_type = () -> f32, sym_name = "f"} : () -> ()
}) : () -> ()
