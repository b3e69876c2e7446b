// RUN: grafo opt %s | grafo opt - | filecheck %s

/// An op with two results prints as %N:2 and its results are used as %N#0 and %N#1.

// CHECK: %[[R:.*]]:2 = "scf.if"(%{{.*}}) ({
// CHECK: }) : (i1) -> (f32, i64)
// CHECK-NEXT: "func.return"(%[[R]]#1, %[[R]]#0) : (i64, f32) -> ()
// CHECK-LABEL: sym_name = "two"
"builtin.module"() ({
  "func.func"() ({
  ^bb0(%c: i1, %x: f32, %n: i64):
    %r:2 = "scf.if"(%c) ({
      "scf.yield"(%x, %n) : (f32, i64) -> ()
    }, {
      "scf.yield"(%x, %n) : (f32, i64) -> ()
    }) : (i1) -> (f32, i64)
    "func.return"(%r#1, %r#0) : (i64, f32) -> ()
  }) {function_type = (i1, f32, i64) -> (i64, f32), sym_name = "two"} : () -> ()
}) : () -> ()
