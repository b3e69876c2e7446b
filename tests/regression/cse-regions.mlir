// RUN: grafo opt %s --pass-pipeline=cse | filecheck %s

/// A value computed in an enclosing block is reused in nested regions; the then and else
/// regions of an scf.if never share, and nothing moves out of a region.

"builtin.module"() ({
  // CHECK: ^bb0(%[[C:.*]]: i1, %[[X:.*]]: f32):
  // CHECK-NEXT: %[[E:.*]] = "np.exp"(%[[X]])
  // CHECK-NEXT: %[[R:.*]]:2 = "scf.if"(%[[C]]) ({
  // CHECK-NEXT: %[[S1:.*]] = "np.sin"(%[[X]])
  // CHECK-NEXT: "scf.yield"(%[[E]], %[[S1]])
  // CHECK-NEXT: }, {
  // CHECK-NEXT: %[[S2:.*]] = "np.sin"(%[[X]])
  // CHECK-NEXT: "scf.yield"(%[[S2]], %[[S2]])
  // CHECK-NEXT: })
  // CHECK-NEXT: %[[S3:.*]] = "np.sin"(%[[X]])
  // CHECK-NEXT: "func.return"(%[[R]]#0, %[[R]]#1, %[[S3]])
  // CHECK-LABEL: sym_name = "regions"
  "func.func"() ({
  ^bb0(%c: i1, %x: f32):
    %e = "np.exp"(%x) : (f32) -> f32
    %r:2 = "scf.if"(%c) ({
      %0 = "np.exp"(%x) : (f32) -> f32
      %1 = "np.sin"(%x) : (f32) -> f32
      "scf.yield"(%0, %1) : (f32, f32) -> ()
    }, {
      %2 = "np.sin"(%x) : (f32) -> f32
      %3 = "np.sin"(%x) : (f32) -> f32
      "scf.yield"(%2, %3) : (f32, f32) -> ()
    }) : (i1) -> (f32, f32)
    %4 = "np.sin"(%x) : (f32) -> f32
    "func.return"(%r#0, %r#1, %4) : (f32, f32, f32) -> ()
  }) {function_type = (i1, f32) -> (f32, f32, f32), sym_name = "regions"} : () -> ()
}) : () -> ()
