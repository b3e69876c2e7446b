// RUN: grafo opt %s --pass-pipeline=dce | filecheck %s

/// Ops without the Pure trait stay even when unused: checks, stores, calls, allocations,
/// and the pure ops that feed them.

"builtin.module"() ({
  // CHECK: ^bb0(%[[M:.*]]: memref<4xf32>, %[[I:.*]]: index, %[[OK:.*]]: i1):
  // CHECK-NEXT: %[[L:.*]] = "memref.load"(%[[M]], %[[I]])
  // CHECK-NEXT: %[[E:.*]] = "math.exp"(%[[L]])
  // CHECK-NEXT: "memref.store"(%[[E]], %[[M]], %[[I]])
  // CHECK-NEXT: "grafo.check"(%[[OK]])
  // CHECK-NEXT: "func.call"()
  // CHECK-NEXT: "memref.alloc"()
  // CHECK-NEXT: "func.return"()
  // CHECK-LABEL: sym_name = "effects"
  "func.func"() ({
  ^bb0(%m: memref<4xf32>, %i: index, %ok: i1):
    %0 = "memref.load"(%m, %i) : (memref<4xf32>, index) -> f32
    %1 = "math.exp"(%0) : (f32) -> f32
    %2 = "math.sin"(%0) : (f32) -> f32
    "memref.store"(%1, %m, %i) : (f32, memref<4xf32>, index) -> ()
    "grafo.check"(%ok) {kind = "ValueError", message = "bad value"} : (i1) -> ()
    %3 = "func.call"() {callee = @g} : () -> f32
    %4 = "memref.alloc"() : () -> memref<8xf32>
    "func.return"() : () -> ()
  }) {function_type = (memref<4xf32>, index, i1) -> (), sym_name = "effects"} : () -> ()
  "func.func"() ({
    %0 = "arith.constant"() {value = 1.0 : f32} : () -> f32
    "func.return"(%0) : (f32) -> ()
  }) {function_type = () -> f32, sym_name = "g"} : () -> ()
}) : () -> ()
