// RUN: not grafo opt %s 2>&1 | filecheck %s

/// An op name no dialect defines is an error at its position.

// CHECK: error-unknown-op.mlir:[[# @LINE + 4]]:{{[0-9]+}}: error: unknown operation 'np.frobnicate'
"builtin.module"() ({
  "func.func"() ({
  ^bb0(%x: f32):
    %0 = "np.frobnicate"(%x) : (f32) -> f32
    "func.return"(%0) : (f32) -> ()
  }) {function_type = (f32) -> f32, sym_name = "f"} : () -> ()
}) : () -> ()
