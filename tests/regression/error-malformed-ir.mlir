// RUN: not grafo opt %s --pass-pipeline=cse 2>&1 | filecheck %s

/// Malformed IR text is reported on one line as file:line:col: error: ..., without a traceback.

// CHECK: error-malformed-ir.mlir:10:19: error: use of undefined value %y
// CHECK-NOT: Traceback
"builtin.module"() ({
  "func.func"() ({
  ^bb0(%x: f32):
    "func.return"(%y) : (f32) -> ()
  }) {function_type = (f32) -> f32, sym_name = "f"} : () -> ()
}) : () -> ()
