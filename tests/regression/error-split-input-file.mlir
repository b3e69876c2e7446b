// RUN: not grafo opt %s --split-input-file 2>&1 | filecheck %s

/// With --split-input-file every case is tried; errors keep the whole file's line numbers.

// CHECK: error-split-input-file.mlir:19:19: error: use of undefined value %y
// CHECK: error-split-input-file.mlir:27:10: error: unknown operation 'np.nope'
"builtin.module"() ({
  "func.func"() ({
  ^bb0(%x: f32):
    "func.return"(%x) : (f32) -> ()
  }) {function_type = (f32) -> f32, sym_name = "ok"} : () -> ()
}) : () -> ()

// -----

"builtin.module"() ({
  "func.func"() ({
  ^bb0(%x: f32):
    "func.return"(%y) : (f32) -> ()
  }) {function_type = (f32) -> f32, sym_name = "bad"} : () -> ()
}) : () -> ()

// -----

"builtin.module"() ({
  "func.func"() ({
    %0 = "np.nope"() : () -> f32
    "func.return"() : () -> ()
  }) {function_type = () -> (), sym_name = "worse"} : () -> ()
}) : () -> ()
