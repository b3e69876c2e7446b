// RUN: grafo opt %s --pass-pipeline=canonicalize | filecheck %s

/// Patterns apply inside scf.if regions; the scf.if itself stays.

"builtin.module"() ({
  // CHECK: ^bb0(%[[C:.*]]: i1, %[[X:.*]]: f32):
  // CHECK-NEXT: %[[R:.*]] = "scf.if"(%[[C]]) ({
  // CHECK-NEXT: "scf.yield"(%[[X]])
  // CHECK-NEXT: }, {
  // CHECK-NEXT: %[[N:.*]] = "np.negative"(%[[X]])
  // CHECK-NEXT: "scf.yield"(%[[N]])
  // CHECK: "func.return"(%[[R]])
  // CHECK-LABEL: sym_name = "nested"
  "func.func"() ({
  ^bb0(%c: i1, %x: f32):
    %one = "np.constant"() {value = 1.0 : f32} : () -> f32
    %r = "scf.if"(%c) ({
      %0 = "np.multiply"(%x, %one) : (f32, f32) -> f32
      "scf.yield"(%0) : (f32) -> ()
    }, {
      %1 = "np.negative"(%x) : (f32) -> f32
      "scf.yield"(%1) : (f32) -> ()
    }) : (i1) -> f32
    "func.return"(%r) : (f32) -> ()
  }) {function_type = (i1, f32) -> f32, sym_name = "nested"} : () -> ()
}) : () -> ()
