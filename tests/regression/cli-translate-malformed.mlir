// RUN: not grafo translate %s --to=llvm 2>&1 | filecheck %s

/// grafo translate reports malformed IR on one line with its position.

// CHECK: cli-translate-malformed.mlir:[[# @LINE + 4]]:{{[0-9]+}}: error: use of undefined value %nope
// CHECK-NOT: Traceback
"builtin.module"() ({
  "func.func"() ({
    "func.return"(%nope) : (f32) -> ()
  }) {function_type = () -> f32, sym_name = "f"} : () -> ()
}) : () -> ()
