// RUN: not grafo opt %s 2>&1 | filecheck %s

/// An op without a location is placed by the input file and its enclosing function.

// CHECK: verify-no-location-names-function.mlir: error: 'func.return' op operand types do not match the function's result types (in func @nameless)
"builtin.module"() ({
  "func.func"() ({
  ^bb0(%x: f32):
    "func.return"(%x) : (f32) -> ()
  }) {function_type = (f32) -> f64, sym_name = "nameless"} : () -> ()
}) : () -> ()
