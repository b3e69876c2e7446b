// REQUIRES: mlir-opt
// RUN: mlir-opt --allow-unregistered-dialect %s | not grafo opt - 2>&1 | filecheck %s --check-prefix=CUSTOM
// RUN: mlir-opt --allow-unregistered-dialect --mlir-print-op-generic --mlir-elide-elementsattrs-if-larger=2 %s | not grafo opt - 2>&1 | filecheck %s --check-prefix=ELIDED

/// mlir-opt's custom assembly form is refused with a pointer to the generic form grafo reads;
/// constants whose elements mlir-opt elided cannot be read back.

// CUSTOM: <stdin>:1:1: error: unexpected 'module', expected {{.*}}; grafo reads MLIR's generic operation form: print it with 'mlir-opt --mlir-print-op-generic'
// ELIDED: <stdin>:3:{{[0-9]+}}: error: the elements of this dense_resource were elided (--mlir-elide-elementsattrs-if-larger); print it whole
"builtin.module"() ({
  "func.func"() ({
    %0 = "np.constant"() {value = dense<[1.0, 2.0, 3.0]> : tensor<3xf32>} : () -> tensor<3xf32> loc("k.py":2:5)
    "func.return"(%0) : (tensor<3xf32>) -> () loc("k.py":3:5)
  }) {function_type = () -> tensor<3xf32>, sym_name = "elided"} : () -> () loc("k.py":1:1)
}) : () -> () loc(unknown)
