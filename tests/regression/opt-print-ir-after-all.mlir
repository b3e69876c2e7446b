// RUN: grafo opt %s --pass-pipeline=canonicalize,dce --print-ir-after-all --verify-each 2>&1 >/dev/null | filecheck %s

/// --print-ir-after-all writes the IR after each pass to stderr, in pipeline order.

// CHECK: // -----// IR Dump After canonicalize //----- //
// CHECK: "func.return"(%arg0)
// CHECK: // -----// IR Dump After dce //----- //
// CHECK: "func.return"(%arg0)
"builtin.module"() ({
  "func.func"() ({
  ^bb0(%x: i32):
    %c = "np.constant"() {value = 0 : i32} : () -> i32
    %0 = "np.add"(%x, %c) : (i32, i32) -> i32
    "func.return"(%0) : (i32) -> ()
  }) {function_type = (i32) -> i32, sym_name = "f"} : () -> ()
}) : () -> ()
