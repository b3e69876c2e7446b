// RUN: grafo opt %s --split-input-file --pass-pipeline=task-groups | filecheck %s

/// Regions that must keep their order: no task group.

/// Two views of one argument (x[0::2] and x[1::2]) are index arithmetic on the same root:
/// the writes conflict.
// CHECK-LABEL: "builtin.module"
// CHECK-NOT: grafo.tasks
// CHECK: sym_name = "views"
"builtin.module"() ({
  "func.func"() ({
  ^bb0(%x: memref<?xf64>, %y: memref<?xf64>):
    %c0 = "arith.constant"() {value = 0 : index} : () -> index
    %c1 = "arith.constant"() {value = 1 : index} : () -> index
    %z = "arith.constant"() {value = 0.0 : f64} : () -> f64
    %n = "memref.dim"(%x, %c0) : (memref<?xf64>, index) -> index
    %m = "memref.dim"(%y, %c0) : (memref<?xf64>, index) -> index
    "scf.for"(%c0, %m, %c1) ({
    ^bb0(%i_a: index):
      %j_a = "arith.addi"(%i_a, %i_a) : (index, index) -> index
      %v_a = "memref.load"(%y, %i_a) : (memref<?xf64>, index) -> f64
      %w_a = "arith.mulf"(%v_a, %v_a) : (f64, f64) -> f64
      "memref.store"(%w_a, %x, %j_a) : (f64, memref<?xf64>, index) -> ()
      "scf.yield"() : () -> ()
    }) : (index, index, index) -> ()
    "scf.for"(%c0, %m, %c1) ({
    ^bb0(%i_b: index):
      %j_b = "arith.addi"(%i_b, %i_b) : (index, index) -> index
      %k_b = "arith.addi"(%j_b, %c1) : (index, index) -> index
      %v_b = "memref.load"(%y, %i_b) : (memref<?xf64>, index) -> f64
      %w_b = "arith.mulf"(%v_b, %v_b) : (f64, f64) -> f64
      "memref.store"(%w_b, %x, %k_b) : (f64, memref<?xf64>, index) -> ()
      "scf.yield"() : () -> ()
    }) : (index, index, index) -> ()
    "func.return"() : () -> ()
  }) {function_type = (memref<?xf64>, memref<?xf64>) -> (), sym_name = "views"} : () -> ()
}) : () -> ()

// -----

/// A loop reads the argument another writes.
// CHECK-LABEL: "builtin.module"
// CHECK-NOT: grafo.tasks
// CHECK: sym_name = "read_after_write"
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
      %v_a = "memref.load"(%y, %i_a) : (memref<?xf64>, index) -> f64
      %w_a = "arith.mulf"(%v_a, %v_a) : (f64, f64) -> f64
      "memref.store"(%w_a, %x, %i_a) : (f64, memref<?xf64>, index) -> ()
      "scf.yield"() : () -> ()
    }) : (index, index, index) -> ()
    %t = "scf.for"(%c0, %n, %c1, %z) ({
    ^bb0(%i_t: index, %acc_t: f64):
      %v_t = "memref.load"(%x, %i_t) : (memref<?xf64>, index) -> f64
      %a_t = "arith.addf"(%acc_t, %v_t) : (f64, f64) -> f64
      "scf.yield"(%a_t) : (f64) -> ()
    }) : (index, index, index, f64) -> f64
    "func.return"(%t) : (f64) -> ()
  }) {function_type = (memref<?xf64>, memref<?xf64>) -> (f64), sym_name = "read_after_write"} : () -> ()
}) : () -> ()

// -----

/// A check that may fail, then a write through an argument: sequentially the write never
/// happens after the error, so the second loop keeps its place.
// CHECK-LABEL: "builtin.module"
// CHECK-NOT: grafo.tasks
// CHECK: sym_name = "check_then_write"
"builtin.module"() ({
  "func.func"() ({
  ^bb0(%x: memref<?xf64>, %y: memref<?xf64>):
    %c0 = "arith.constant"() {value = 0 : index} : () -> index
    %c1 = "arith.constant"() {value = 1 : index} : () -> index
    %z = "arith.constant"() {value = 0.0 : f64} : () -> f64
    %n = "memref.dim"(%x, %c0) : (memref<?xf64>, index) -> index
    %m = "memref.dim"(%y, %c0) : (memref<?xf64>, index) -> index
    %s = "scf.for"(%c0, %m, %c1, %z) ({
    ^bb0(%i_s: index, %acc_s: f64):
      %v_s = "memref.load"(%y, %i_s) : (memref<?xf64>, index) -> f64
      %a_s = "arith.addf"(%acc_s, %v_s) : (f64, f64) -> f64
      "scf.yield"(%a_s) : (f64) -> ()
    }) : (index, index, index, f64) -> f64
    %ok = "arith.cmpf"(%s, %s) {predicate = 1 : i64} : (f64, f64) -> i1
    "grafo.check"(%ok) {kind = "ValueError", message = "NaN sum"} : (i1) -> ()
    "scf.for"(%c0, %n, %c1) ({
    ^bb0(%i_b: index):
      %v_b = "memref.load"(%x, %i_b) : (memref<?xf64>, index) -> f64
      %w_b = "arith.mulf"(%v_b, %v_b) : (f64, f64) -> f64
      "memref.store"(%w_b, %x, %i_b) : (f64, memref<?xf64>, index) -> ()
      "scf.yield"() : () -> ()
    }) : (index, index, index) -> ()
    "func.return"(%s) : (f64) -> ()
  }) {function_type = (memref<?xf64>, memref<?xf64>) -> (f64), sym_name = "check_then_write"} : () -> ()
}) : () -> ()

// -----

/// A print keeps its place between the loops: no window holds both.
// CHECK-LABEL: "builtin.module"
// CHECK-NOT: grafo.tasks
// CHECK: sym_name = "printed"
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
    "grafo.print"(%s) {conversions = "s", kinds = ["float64"], pieces = ["s ", "\n"]} : (f64) -> ()
    %t = "scf.for"(%c0, %m, %c1, %z) ({
    ^bb0(%i_t: index, %acc_t: f64):
      %v_t = "memref.load"(%y, %i_t) : (memref<?xf64>, index) -> f64
      %a_t = "arith.addf"(%acc_t, %v_t) : (f64, f64) -> f64
      "scf.yield"(%a_t) : (f64) -> ()
    }) : (index, index, index, f64) -> f64
    "func.return"(%t) : (f64) -> ()
  }) {function_type = (memref<?xf64>, memref<?xf64>) -> (f64), sym_name = "printed"} : () -> ()
}) : () -> ()

// -----

/// A task holding a parallel loop of unknown size would run it on one thread: the loops
/// stay as they are.
// CHECK-LABEL: "builtin.module"
// CHECK-NOT: grafo.tasks
// CHECK: sym_name = "parallel_inside"
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
    "scf.for"(%c0, %m, %c1) ({
    ^bb0(%i_b: index):
      %v_b = "memref.load"(%y, %i_b) : (memref<?xf64>, index) -> f64
      %w_b = "arith.mulf"(%v_b, %v_b) : (f64, f64) -> f64
      "memref.store"(%w_b, %y, %i_b) : (f64, memref<?xf64>, index) -> ()
      "scf.yield"() : () -> ()
    }) {grafo.parallel} : (index, index, index) -> ()
    "func.return"(%s) : (f64) -> ()
  }) {function_type = (memref<?xf64>, memref<?xf64>) -> (f64), sym_name = "parallel_inside"} : () -> ()
}) : () -> ()

// -----

/// Loops of known, small trip counts cost less than starting the threads.
// CHECK-LABEL: "builtin.module"
// CHECK-NOT: grafo.tasks
// CHECK: sym_name = "small"
"builtin.module"() ({
  "func.func"() ({
  ^bb0(%x: memref<?xf64>, %y: memref<?xf64>):
    %c0 = "arith.constant"() {value = 0 : index} : () -> index
    %c1 = "arith.constant"() {value = 1 : index} : () -> index
    %z = "arith.constant"() {value = 0.0 : f64} : () -> f64
    %n = "arith.constant"() {value = 64 : index} : () -> index
    %m = "arith.constant"() {value = 64 : index} : () -> index
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
  }) {function_type = (memref<?xf64>, memref<?xf64>) -> (f64), sym_name = "small"} : () -> ()
}) : () -> ()

// -----

/// The second loop uses the first one's result: one chain, no tasks.
// CHECK-LABEL: "builtin.module"
// CHECK-NOT: grafo.tasks
// CHECK: sym_name = "chained"
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
    "scf.for"(%c0, %m, %c1) ({
    ^bb0(%i: index):
      "memref.store"(%s, %y, %i) : (f64, memref<?xf64>, index) -> ()
      "scf.yield"() : () -> ()
    }) : (index, index, index) -> ()
    "func.return"() : () -> ()
  }) {function_type = (memref<?xf64>, memref<?xf64>) -> (), sym_name = "chained"} : () -> ()
}) : () -> ()
