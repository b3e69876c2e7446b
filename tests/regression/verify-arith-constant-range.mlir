// RUN: not grafo opt %s 2>&1 | filecheck %s

/// A signless arith.constant holds any value representable in N bits, signed or unsigned
/// (i8: -128..255); 256 does not fit.

// CHECK: k.py:3:5: error: 'arith.constant' op integer value 256 does not fit its type i8 (range -128..255)
"builtin.module"() ({
  "func.func"() ({
  ^bb0(%arg0: i8):
    %0 = "arith.constant"() {value = 255 : i8} : () -> i8
    %1 = "arith.constant"() {value = 256 : i8} : () -> i8 loc("k.py":3:5)
    %2 = "arith.addi"(%0, %1) : (i8, i8) -> i8
    "func.return"(%2) : (i8) -> ()
  }) {function_type = (i8) -> i8, sym_name = "f"} : () -> ()
}) : () -> ()
