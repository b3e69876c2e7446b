// RUN: grafo opt %s --pass-pipeline=cse | filecheck %s

/// Ops without the Pure trait never merge: loads around a store, repeated checks and calls.

"builtin.module"() ({
  // CHECK: "memref.load"
  // CHECK-NEXT: "memref.store"
  // CHECK-NEXT: "memref.load"
  // CHECK-NEXT: "grafo.check"
  // CHECK-NEXT: "grafo.check"
  // CHECK-NEXT: "func.call"
  // CHECK-NEXT: "func.call"
  // CHECK-LABEL: sym_name = "effects"
  "func.func"() ({
  ^bb0(%m: memref<4xf32>, %i: index, %v: f32, %ok: i1):
    %0 = "memref.load"(%m, %i) : (memref<4xf32>, index) -> f32
    "memref.store"(%v, %m, %i) : (f32, memref<4xf32>, index) -> ()
    %1 = "memref.load"(%m, %i) : (memref<4xf32>, index) -> f32
    "grafo.check"(%ok) {kind = "IndexError", message = "index out of range"} : (i1) -> ()
    "grafo.check"(%ok) {kind = "IndexError", message = "index out of range"} : (i1) -> ()
    "func.call"() {callee = @g} : () -> ()
    "func.call"() {callee = @g} : () -> ()
    "func.return"(%0, %1) : (f32, f32) -> ()
  }) {function_type = (memref<4xf32>, index, f32, i1) -> (f32, f32), sym_name = "effects"} : () -> ()
  "func.func"() ({
    "func.return"() : () -> ()
  }) {function_type = () -> (), sym_name = "g"} : () -> ()
}) : () -> ()
