// RUN: grafo opt %s | grafo opt - | filecheck %s

/// An empty module keeps its entry block, printed as ^bb0: (MLIR requires the block).

// CHECK: "builtin.module"() ({
// CHECK-NEXT: ^bb0:
// CHECK-NEXT: }) : () -> ()
"builtin.module"() ({
^bb0:
}) : () -> ()
