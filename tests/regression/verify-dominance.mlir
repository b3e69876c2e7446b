// RUN: not grafo opt %s 2>&1 | filecheck %s

/// A function (isolated from above) cannot use a value defined outside it.

// CHECK: k.py:5:5: error: 'func.return' op operand #0 does not dominate this use (defined later or in another region)
"builtin.module"() ({
  %c = "arith.constant"() {value = 1.0 : f32} : () -> f32
  "func.func"() ({
  ^bb0(%x: f32):
    "func.return"(%c) : (f32) -> () loc("k.py":5:5)
  }) {function_type = (f32) -> f32, sym_name = "f"} : () -> ()
}) : () -> ()
