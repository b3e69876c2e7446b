// RUN: grafo opt %s | grafo opt - | filecheck %s

/// Inherent attributes written as MLIR properties (as mlir-opt prints them) join the attribute dictionary.

// CHECK: "arith.cmpi"(%{{.*}}, %{{.*}}) {predicate = 4 : i64} : (i32, i32) -> i1
// CHECK-LABEL: sym_name = "props"
"builtin.module"() ({
  "func.func"() ({
  ^bb0(%a: i32, %b: i32):
    %c = "arith.cmpi"(%a, %b) <{predicate = 4 : i64}> : (i32, i32) -> i1
    "func.return"(%c) : (i1) -> ()
  }) {function_type = (i32, i32) -> i1, sym_name = "props"} : () -> ()
}) : () -> ()
