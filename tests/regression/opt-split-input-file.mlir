// RUN: grafo opt %s --split-input-file --pass-pipeline=canonicalize | filecheck %s

/// --split-input-file processes each case on its own and separates the outputs by // -----.

// CHECK: "func.return"(%arg0)
// CHECK-LABEL: sym_name = "first"
// CHECK: // -----
"builtin.module"() ({
  "func.func"() ({
  ^bb0(%x: i32):
    %c = "np.constant"() {value = 1 : i32} : () -> i32
    %0 = "np.multiply"(%x, %c) : (i32, i32) -> i32
    "func.return"(%0) : (i32) -> ()
  }) {function_type = (i32) -> i32, sym_name = "first"} : () -> ()
}) : () -> ()

// -----

// CHECK: "func.return"(%arg0)
// CHECK-LABEL: sym_name = "second"
"builtin.module"() ({
  "func.func"() ({
  ^bb0(%x: f32):
    %c = "np.constant"() {value = -0.0 : f32} : () -> f32
    %0 = "np.add"(%x, %c) : (f32, f32) -> f32
    "func.return"(%0) : (f32) -> ()
  }) {function_type = (f32) -> f32, sym_name = "second"} : () -> ()
}) : () -> ()
