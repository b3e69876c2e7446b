// RUN: not grafo opt %s 2>&1 | filecheck %s

/// The callee of func.call must be a symbol reference (@g), not a string.

// CHECK: k.py:4:8: error: 'func.call' op attribute 'callee' must be a symbol reference (@name), got "g"
"builtin.module"() ({
  "func.func"() ({
    "func.return"() : () -> ()
  }) {function_type = () -> (), sym_name = "g"} : () -> ()
  "func.func"() ({
    "func.call"() {callee = "g"} : () -> () loc("k.py":4:8)
    "func.return"() : () -> ()
  }) {function_type = () -> (), sym_name = "f"} : () -> ()
}) : () -> ()
