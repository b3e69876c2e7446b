// RUN: grafo opt %s --pass-pipeline=dce | filecheck %s

/// An scf.for iteration value that neither the body nor the loop's users read goes (a
/// Python loop variable's last value); one the result of which is returned stays, and so
/// does the loop itself, which stores.
// CHECK-LABEL: "builtin.module"
// CHECK: %[[S:.*]] = "scf.for"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) ({
// CHECK-NEXT: ^bb0(%{{.*}}: i64, %[[ACC:.*]]: f64):
// CHECK: "scf.yield"(%{{.*}}) : (f64) -> ()
// CHECK-NEXT: }) : (i64, i64, i64, f64) -> f64
// CHECK: "func.return"(%[[S]])
"builtin.module"() ({
  "func.func"() ({
  ^bb0(%a: memref<64xf64>):
    %c0 = "arith.constant"() {value = 0 : i64} : () -> i64
    %c1 = "arith.constant"() {value = 1 : i64} : () -> i64
    %c64 = "arith.constant"() {value = 64 : i64} : () -> i64
    %z = "arith.constant"() {value = 0.0 : f64} : () -> f64
    %r:2 = "scf.for"(%c0, %c64, %c1, %c0, %z) ({
    ^bb0(%i: i64, %prev: i64, %acc: f64):
      %j = "arith.index_cast"(%i) : (i64) -> index
      %x = "memref.load"(%a, %j) : (memref<64xf64>, index) -> f64
      %t = "arith.addf"(%acc, %x) : (f64, f64) -> f64
      "memref.store"(%t, %a, %j) : (f64, memref<64xf64>, index) -> ()
      "scf.yield"(%i, %t) : (i64, f64) -> ()
    }) : (i64, i64, i64, i64, f64) -> (i64, f64)
    "func.return"(%r#1) : (f64) -> ()
  }) {function_type = (memref<64xf64>) -> f64, sym_name = "loop_values"} : () -> ()
}) : () -> ()
