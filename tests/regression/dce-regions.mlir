// RUN: grafo opt %s --pass-pipeline=dce | filecheck %s

/// An unused scf.if / scf.for goes when everything inside is pure; one holding a check stays
/// (its own dead pure ops still go).

"builtin.module"() ({
  // CHECK: ^bb0(%[[C:.*]]: i1, %[[X:.*]]: f32, %[[OK:.*]]: i1):
  // CHECK-NEXT: "scf.if"(%[[C]]) ({
  // CHECK-NEXT: "grafo.check"(%[[OK]])
  // CHECK-NEXT: "scf.yield"(%[[X]])
  // CHECK-NEXT: }, {
  // CHECK-NEXT: "scf.yield"(%[[X]])
  // CHECK-NEXT: })
  // CHECK-NEXT: "func.return"(%[[X]])
  // CHECK-NOT: scf.for
  // CHECK-LABEL: sym_name = "regions"
  "func.func"() ({
  ^bb0(%c: i1, %x: f32, %ok: i1):
    %pure = "scf.if"(%c) ({
      %0 = "np.exp"(%x) : (f32) -> f32
      "scf.yield"(%0) : (f32) -> ()
    }, {
      "scf.yield"(%x) : (f32) -> ()
    }) : (i1) -> f32
    %lb = "arith.constant"() {value = 0 : index} : () -> index
    %ub = "arith.constant"() {value = 8 : index} : () -> index
    %st = "arith.constant"() {value = 1 : index} : () -> index
    %sum = "scf.for"(%lb, %ub, %st, %x) ({
    ^bb0(%iv: index, %acc: f32):
      %1 = "arith.addf"(%acc, %acc) : (f32, f32) -> f32
      "scf.yield"(%1) : (f32) -> ()
    }) : (index, index, index, f32) -> f32
    %effect = "scf.if"(%c) ({
      %2 = "np.sin"(%x) : (f32) -> f32
      "grafo.check"(%ok) {kind = "ValueError", message = "bad"} : (i1) -> ()
      "scf.yield"(%x) : (f32) -> ()
    }, {
      "scf.yield"(%x) : (f32) -> ()
    }) : (i1) -> f32
    "func.return"(%x) : (f32) -> ()
  }) {function_type = (i1, f32, i1) -> f32, sym_name = "regions"} : () -> ()
}) : () -> ()
