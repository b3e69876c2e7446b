// RUN: not grafo opt %s --pass-pipeline canonicalize 2>&1 | filecheck %s

/// An integer constant must fit its type: at tensor level the dtype's range (i8: -128..127),
/// signless at loop level -2^(N-1)..2^N-1. The verifier rejects it before any pass folds it.

// CHECK: k.py:4:7: error: 'np.constant' op integer value 99999999999999999999999 does not fit its type i8 (range -128..127)
// CHECK-NOT: Traceback
"builtin.module"() ({
  "func.func"() ({
  ^bb0(%arg0: tensor<?xi8>):
    %0 = "np.constant"() {value = 99999999999999999999999 : i8} : () -> i8 loc("k.py":4:7)
    %1 = "np.multiply"(%arg0, %0) : (tensor<?xi8>, i8) -> tensor<?xi8>
    "func.return"(%1) : (tensor<?xi8>) -> ()
  }) {function_type = (tensor<?xi8>) -> tensor<?xi8>, sym_name = "f"} : () -> ()
}) : () -> ()
