// RUN: grafo opt %s | grafo opt - | filecheck %s

/// scf.for with iter args and the grafo.parallel unit attribute prints back unchanged.

// CHECK: ^bb0(%[[N:.*]]: index, %[[X:.*]]: f32):
// CHECK: %[[R:.*]] = "scf.for"(%{{.*}}, %[[N]], %{{.*}}, %[[X]]) ({
// CHECK-NEXT: ^bb0(%[[I:.*]]: index, %[[ACC:.*]]: f32):
// CHECK-NEXT: %[[S:.*]] = "arith.addf"(%[[ACC]], %[[ACC]]) : (f32, f32) -> f32
// CHECK-NEXT: "scf.yield"(%[[S]]) : (f32) -> ()
// CHECK-NEXT: }) {grafo.parallel} : (index, index, index, f32) -> f32
// CHECK-NEXT: "func.return"(%[[R]])
// CHECK-LABEL: sym_name = "loop"
"builtin.module"() ({
  "func.func"() ({
  ^bb0(%n: index, %x: f32):
    %c0 = "arith.constant"() {value = 0 : index} : () -> index
    %c1 = "arith.constant"() {value = 1 : index} : () -> index
    %r = "scf.for"(%c0, %n, %c1, %x) ({
    ^bb0(%i: index, %acc: f32):
      %s = "arith.addf"(%acc, %acc) : (f32, f32) -> f32
      "scf.yield"(%s) : (f32) -> ()
    }) {grafo.parallel} : (index, index, index, f32) -> f32
    "func.return"(%r) : (f32) -> ()
  }) {function_type = (index, f32) -> f32, sym_name = "loop"} : () -> ()
}) : () -> ()
