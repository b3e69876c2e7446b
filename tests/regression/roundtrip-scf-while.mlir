// RUN: grafo opt %s | grafo opt - | filecheck %s

/// scf.while keeps both regions, their block arguments and the scf.condition operands.

// CHECK: %[[R:.*]] = "scf.while"(%{{.*}}) ({
// CHECK-NEXT: ^bb0(%[[B:.*]]: i64):
// CHECK-NEXT: %[[C:.*]] = "arith.cmpi"(%[[B]], %{{.*}}) {predicate = 2 : i64} : (i64, i64) -> i1
// CHECK-NEXT: "scf.condition"(%[[C]], %[[B]]) : (i1, i64) -> ()
// CHECK-NEXT: }, {
// CHECK-NEXT: ^bb0(%[[A:.*]]: i64):
// CHECK-NEXT: %[[D:.*]] = "arith.muli"(%[[A]], %[[A]])
// CHECK-NEXT: "scf.yield"(%[[D]])
// CHECK-NEXT: }) : (i64) -> i64
// CHECK-LABEL: sym_name = "w"
"builtin.module"() ({
  "func.func"() ({
  ^bb0(%x: i64, %lim: i64):
    %r = "scf.while"(%x) ({
    ^bb0(%b: i64):
      %c = "arith.cmpi"(%b, %lim) {predicate = 2 : i64} : (i64, i64) -> i1
      "scf.condition"(%c, %b) : (i1, i64) -> ()
    }, {
    ^bb0(%a: i64):
      %d = "arith.muli"(%a, %a) : (i64, i64) -> i64
      "scf.yield"(%d) : (i64) -> ()
    }) : (i64) -> i64
    "func.return"(%r) : (i64) -> ()
  }) {function_type = (i64, i64) -> i64, sym_name = "w"} : () -> ()
}) : () -> ()
