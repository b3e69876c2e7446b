// RUN: grafo opt %s --split-input-file --pass-pipeline=task-groups | filecheck %s

/// Independent regions of a function body become one task group (grafo.tasks).

/// Two reductions over two arguments: two tasks; the sums leave through one-element
/// buffers, and the addition of both results sinks below the group.
// CHECK-LABEL: "builtin.module"
// CHECK: %[[S:.*]] = "memref.alloc"() {{.*}} -> memref<1xf64>
// CHECK: %[[T:.*]] = "memref.alloc"() {{.*}} -> memref<1xf64>
// CHECK: "scf.for"
// CHECK-NEXT: ^bb0(%[[K:.*]]: index):
// CHECK-NEXT: %[[FIRST:.*]] = "arith.cmpi"(%[[K]], %{{.*}}) {predicate = 0 : i64}
// CHECK-NEXT: "scf.if"(%[[FIRST]])
// CHECK: %[[A:.*]] = "scf.for"
// CHECK: "memref.load"(%arg0
// CHECK: "memref.store"(%[[A]], %[[S]]
// CHECK: }, {
// CHECK: %[[B:.*]] = "scf.for"
// CHECK: "memref.load"(%arg1
// CHECK: "memref.store"(%[[B]], %[[T]]
// CHECK: }) {grafo.parallel, grafo.tasks}
// CHECK-NEXT: %[[SA:.*]] = "memref.load"(%[[S]]
// CHECK-NEXT: "memref.dealloc"(%[[S]])
// CHECK-NEXT: %[[SB:.*]] = "memref.load"(%[[T]]
// CHECK-NEXT: "memref.dealloc"(%[[T]])
// CHECK-NEXT: %[[SUM:.*]] = "arith.addf"(%[[SA]], %[[SB]])
// CHECK-NEXT: "func.return"(%[[SUM]])
"builtin.module"() ({
  "func.func"() ({
  ^bb0(%x: memref<?xf64>, %y: memref<?xf64>):
    %c0 = "arith.constant"() {value = 0 : index} : () -> index
    %c1 = "arith.constant"() {value = 1 : index} : () -> index
    %z = "arith.constant"() {value = 0.0 : f64} : () -> f64
    %n = "memref.dim"(%x, %c0) : (memref<?xf64>, index) -> index
    %m = "memref.dim"(%y, %c0) : (memref<?xf64>, index) -> index
    %s = "scf.for"(%c0, %n, %c1, %z) ({
    ^bb0(%i_s: index, %acc_s: f64):
      %v_s = "memref.load"(%x, %i_s) : (memref<?xf64>, index) -> f64
      %a_s = "arith.addf"(%acc_s, %v_s) : (f64, f64) -> f64
      "scf.yield"(%a_s) : (f64) -> ()
    }) : (index, index, index, f64) -> f64
    %t = "scf.for"(%c0, %m, %c1, %z) ({
    ^bb0(%i_t: index, %acc_t: f64):
      %v_t = "memref.load"(%y, %i_t) : (memref<?xf64>, index) -> f64
      %a_t = "arith.addf"(%acc_t, %v_t) : (f64, f64) -> f64
      "scf.yield"(%a_t) : (f64) -> ()
    }) : (index, index, index, f64) -> f64
    %u = "arith.addf"(%s, %t) : (f64, f64) -> f64
    "func.return"(%u) : (f64) -> ()
  }) {function_type = (memref<?xf64>, memref<?xf64>) -> (f64), sym_name = "sums"} : () -> ()
}) : () -> ()

// -----

/// Writes through two different arguments are independent (a call whose written arguments
/// share memory runs eagerly).
// CHECK-LABEL: "builtin.module"
// CHECK: "scf.for"
// CHECK: "memref.store"(%{{.*}}, %arg0
// CHECK: "memref.store"(%{{.*}}, %arg1
// CHECK: }) {grafo.parallel, grafo.tasks}
// CHECK: sym_name = "writes"
"builtin.module"() ({
  "func.func"() ({
  ^bb0(%x: memref<?xf64>, %y: memref<?xf64>):
    %c0 = "arith.constant"() {value = 0 : index} : () -> index
    %c1 = "arith.constant"() {value = 1 : index} : () -> index
    %z = "arith.constant"() {value = 0.0 : f64} : () -> f64
    %n = "memref.dim"(%x, %c0) : (memref<?xf64>, index) -> index
    %m = "memref.dim"(%y, %c0) : (memref<?xf64>, index) -> index
    "scf.for"(%c0, %n, %c1) ({
    ^bb0(%i_a: index):
      %v_a = "memref.load"(%x, %i_a) : (memref<?xf64>, index) -> f64
      %w_a = "arith.mulf"(%v_a, %v_a) : (f64, f64) -> f64
      "memref.store"(%w_a, %x, %i_a) : (f64, memref<?xf64>, index) -> ()
      "scf.yield"() : () -> ()
    }) : (index, index, index) -> ()
    "scf.for"(%c0, %m, %c1) ({
    ^bb0(%i_b: index):
      %v_b = "memref.load"(%y, %i_b) : (memref<?xf64>, index) -> f64
      %w_b = "arith.mulf"(%v_b, %v_b) : (f64, f64) -> f64
      "memref.store"(%w_b, %y, %i_b) : (f64, memref<?xf64>, index) -> ()
      "scf.yield"() : () -> ()
    }) : (index, index, index) -> ()
    "func.return"() : () -> ()
  }) {function_type = (memref<?xf64>, memref<?xf64>) -> (), sym_name = "writes"} : () -> ()
}) : () -> ()

// -----

/// An argument written before a check that may fail: the write happens in the sequential
/// program too, so the tasks stay independent.
// CHECK-LABEL: "builtin.module"
// CHECK: "scf.for"
// CHECK: "memref.store"(%{{.*}}, %arg0
// CHECK: "grafo.check"
// CHECK: }) {grafo.parallel, grafo.tasks}
// CHECK: sym_name = "write_then_check"
"builtin.module"() ({
  "func.func"() ({
  ^bb0(%x: memref<?xf64>, %y: memref<?xf64>):
    %c0 = "arith.constant"() {value = 0 : index} : () -> index
    %c1 = "arith.constant"() {value = 1 : index} : () -> index
    %z = "arith.constant"() {value = 0.0 : f64} : () -> f64
    %n = "memref.dim"(%x, %c0) : (memref<?xf64>, index) -> index
    %m = "memref.dim"(%y, %c0) : (memref<?xf64>, index) -> index
    "scf.for"(%c0, %n, %c1) ({
    ^bb0(%i_a: index):
      %v_a = "memref.load"(%x, %i_a) : (memref<?xf64>, index) -> f64
      %w_a = "arith.mulf"(%v_a, %v_a) : (f64, f64) -> f64
      "memref.store"(%w_a, %x, %i_a) : (f64, memref<?xf64>, index) -> ()
      "scf.yield"() : () -> ()
    }) : (index, index, index) -> ()
    %t = "scf.for"(%c0, %m, %c1, %z) ({
    ^bb0(%i_t: index, %acc_t: f64):
      %v_t = "memref.load"(%y, %i_t) : (memref<?xf64>, index) -> f64
      %a_t = "arith.addf"(%acc_t, %v_t) : (f64, f64) -> f64
      "scf.yield"(%a_t) : (f64) -> ()
    }) : (index, index, index, f64) -> f64
    %ok = "arith.cmpf"(%t, %t) {predicate = 1 : i64} : (f64, f64) -> i1
    "grafo.check"(%ok) {kind = "ValueError", message = "NaN sum"} : (i1) -> ()
    "func.return"(%t) : (f64) -> ()
  }) {function_type = (memref<?xf64>, memref<?xf64>) -> (f64), sym_name = "write_then_check"} : () -> ()
}) : () -> ()

// -----

/// Three reductions over reads of one argument and a second one: reads never conflict; a
/// top-level check joins the task that computes its operand.
// CHECK-LABEL: "builtin.module"
// CHECK: "scf.for"(%{{.*}}, %[[THREE:.*]], %{{.*}}) ({
// CHECK: "scf.if"
// CHECK: "grafo.check"
// CHECK: "scf.if"
// CHECK: "memref.load"(%arg1
// CHECK: }) {grafo.parallel, grafo.tasks}
// CHECK: sym_name = "three"
"builtin.module"() ({
  "func.func"() ({
  ^bb0(%x: memref<?xf64>, %y: memref<?xf64>):
    %c0 = "arith.constant"() {value = 0 : index} : () -> index
    %c1 = "arith.constant"() {value = 1 : index} : () -> index
    %z = "arith.constant"() {value = 0.0 : f64} : () -> f64
    %n = "memref.dim"(%x, %c0) : (memref<?xf64>, index) -> index
    %m = "memref.dim"(%y, %c0) : (memref<?xf64>, index) -> index
    %s = "scf.for"(%c0, %n, %c1, %z) ({
    ^bb0(%i_s: index, %acc_s: f64):
      %v_s = "memref.load"(%x, %i_s) : (memref<?xf64>, index) -> f64
      %a_s = "arith.addf"(%acc_s, %v_s) : (f64, f64) -> f64
      "scf.yield"(%a_s) : (f64) -> ()
    }) : (index, index, index, f64) -> f64
    %ok = "arith.cmpf"(%s, %s) {predicate = 1 : i64} : (f64, f64) -> i1
    "grafo.check"(%ok) {kind = "ValueError", message = "NaN sum"} : (i1) -> ()
    %t = "scf.for"(%c0, %n, %c1, %z) ({
    ^bb0(%i_t: index, %acc_t: f64):
      %v_t = "memref.load"(%x, %i_t) : (memref<?xf64>, index) -> f64
      %a_t = "arith.addf"(%acc_t, %v_t) : (f64, f64) -> f64
      "scf.yield"(%a_t) : (f64) -> ()
    }) : (index, index, index, f64) -> f64
    %r = "scf.for"(%c0, %m, %c1, %z) ({
    ^bb0(%i_r: index, %acc_r: f64):
      %v_r = "memref.load"(%y, %i_r) : (memref<?xf64>, index) -> f64
      %a_r = "arith.addf"(%acc_r, %v_r) : (f64, f64) -> f64
      "scf.yield"(%a_r) : (f64) -> ()
    }) : (index, index, index, f64) -> f64
    %u = "arith.addf"(%s, %t) : (f64, f64) -> f64
    %v = "arith.addf"(%u, %r) : (f64, f64) -> f64
    "func.return"(%v) : (f64) -> ()
  }) {function_type = (memref<?xf64>, memref<?xf64>) -> (f64), sym_name = "three"} : () -> ()
}) : () -> ()
