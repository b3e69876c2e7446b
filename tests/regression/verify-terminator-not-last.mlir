// RUN: not grafo opt %s 2>&1 | filecheck %s

/// A terminator in the middle of a block is rejected at its location.

// CHECK: k.py:5:5: error: 'scf.yield' op is a terminator but is not last in its block
"builtin.module"() ({
  "func.func"() ({
  ^bb0(%c: i1, %x: f32):
    "scf.if"(%c) ({
      "scf.yield"() : () -> () loc("k.py":5:5)
      %0 = "arith.addf"(%x, %x) : (f32, f32) -> f32
      "scf.yield"() : () -> ()
    }, {
      "scf.yield"() : () -> ()
    }) : (i1) -> ()
    "func.return"(%x) : (f32) -> ()
  }) {function_type = (i1, f32) -> f32, sym_name = "f"} : () -> ()
}) : () -> ()
