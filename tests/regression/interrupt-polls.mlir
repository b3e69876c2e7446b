// RUN: grafo opt %s --split-input-file --pass-pipeline=interrupt-polls | filecheck %s

/// An innermost loop of a run-time trip count polls every 65536 iterations.
// CHECK-LABEL: "builtin.module"
// CHECK: }) {grafo.poll = 65536 : i64} : (index, index, index) -> ()
// CHECK: sym_name = "innermost"
"builtin.module"() ({
  "func.func"() ({
  ^bb0(%a: memref<?xf64>):
    %c0 = "arith.constant"() {value = 0 : index} : () -> index
    %c1 = "arith.constant"() {value = 1 : index} : () -> index
    %x = "arith.constant"() {value = 1.0 : f64} : () -> f64
    %n = "memref.dim"(%a, %c0) : (memref<?xf64>, index) -> index
    "scf.for"(%c0, %n, %c1) ({
    ^bb0(%i: index):
      "memref.store"(%x, %a, %i) : (f64, memref<?xf64>, index) -> ()
      "scf.yield"() : () -> ()
    }) : (index, index, index) -> ()
    "func.return"() : () -> ()
  }) {function_type = (memref<?xf64>) -> (), sym_name = "innermost"} : () -> ()
}) : () -> ()

// -----

/// A loop of constant bounds and little work is bounded: no poll.
// CHECK-LABEL: "builtin.module"
// CHECK-NOT: grafo.poll
// CHECK: sym_name = "short"
"builtin.module"() ({
  "func.func"() ({
  ^bb0(%a: memref<1000xf64>):
    %c0 = "arith.constant"() {value = 0 : index} : () -> index
    %c1 = "arith.constant"() {value = 1 : index} : () -> index
    %c1000 = "arith.constant"() {value = 1000 : index} : () -> index
    %x = "arith.constant"() {value = 1.0 : f64} : () -> f64
    "scf.for"(%c0, %c1000, %c1) ({
    ^bb0(%i: index):
      "memref.store"(%x, %a, %i) : (f64, memref<1000xf64>, index) -> ()
      "scf.yield"() : () -> ()
    }) : (index, index, index) -> ()
    "func.return"() : () -> ()
  }) {function_type = (memref<1000xf64>) -> (), sym_name = "short"} : () -> ()
}) : () -> ()

// -----

/// A loop around a loop that is not bounded polls at each iteration; the inner loop polls
/// between its chunks.
// CHECK-LABEL: "builtin.module"
// CHECK: }) {grafo.poll = 65536 : i64} : (index, index, index) -> ()
// CHECK-NEXT: "scf.yield"
// CHECK-NEXT: }) {grafo.poll = 1 : i64} : (index, index, index) -> ()
// CHECK: sym_name = "rows"
"builtin.module"() ({
  "func.func"() ({
  ^bb0(%a: memref<?x?xf64>):
    %c0 = "arith.constant"() {value = 0 : index} : () -> index
    %c1 = "arith.constant"() {value = 1 : index} : () -> index
    %x = "arith.constant"() {value = 1.0 : f64} : () -> f64
    %m = "memref.dim"(%a, %c0) : (memref<?x?xf64>, index) -> index
    %n = "memref.dim"(%a, %c1) : (memref<?x?xf64>, index) -> index
    "scf.for"(%c0, %m, %c1) ({
    ^bb0(%i: index):
      "scf.for"(%c0, %n, %c1) ({
      ^bb0(%j: index):
        "memref.store"(%x, %a, %i, %j) : (f64, memref<?x?xf64>, index, index) -> ()
        "scf.yield"() : () -> ()
      }) : (index, index, index) -> ()
      "scf.yield"() : () -> ()
    }) : (index, index, index) -> ()
    "func.return"() : () -> ()
  }) {function_type = (memref<?x?xf64>) -> (), sym_name = "rows"} : () -> ()
}) : () -> ()

// -----

/// A block loop bounded by min(%k + 64, %n) (lowering's blocked loops) needs no poll; the
/// loop around it counts 65 units per iteration and polls every 65536 / 65 iterations.
// CHECK-LABEL: "builtin.module"
// CHECK: "arith.select"
// CHECK: }) : (index, index, index) -> ()
// CHECK-NEXT: "scf.yield"
// CHECK-NEXT: }) {grafo.poll = 1008 : i64} : (index, index, index) -> ()
// CHECK: sym_name = "blocks"
"builtin.module"() ({
  "func.func"() ({
  ^bb0(%a: memref<?xf64>):
    %c0 = "arith.constant"() {value = 0 : index} : () -> index
    %c1 = "arith.constant"() {value = 1 : index} : () -> index
    %c64 = "arith.constant"() {value = 64 : index} : () -> index
    %x = "arith.constant"() {value = 1.0 : f64} : () -> f64
    %n = "memref.dim"(%a, %c0) : (memref<?xf64>, index) -> index
    "scf.for"(%c0, %n, %c64) ({
    ^bb0(%k: index):
      %e = "arith.addi"(%k, %c64) : (index, index) -> index
      %lt = "arith.cmpi"(%e, %n) {predicate = 2 : i64} : (index, index) -> i1
      %end = "arith.select"(%lt, %e, %n) : (i1, index, index) -> index
      "scf.for"(%k, %end, %c1) ({
      ^bb0(%i: index):
        "memref.store"(%x, %a, %i) : (f64, memref<?xf64>, index) -> ()
        "scf.yield"() : () -> ()
      }) : (index, index, index) -> ()
      "scf.yield"() : () -> ()
    }) : (index, index, index) -> ()
    "func.return"() : () -> ()
  }) {function_type = (memref<?xf64>) -> (), sym_name = "blocks"} : () -> ()
}) : () -> ()

// -----

/// An iteration of at least 256 units (a bounded inner loop of 300) polls every time.
// CHECK-LABEL: "builtin.module"
// CHECK: }) : (index, index, index) -> ()
// CHECK-NEXT: "scf.yield"
// CHECK-NEXT: }) {grafo.poll = 1 : i64} : (index, index, index) -> ()
// CHECK: sym_name = "long_iterations"
"builtin.module"() ({
  "func.func"() ({
  ^bb0(%a: memref<?x300xf64>):
    %c0 = "arith.constant"() {value = 0 : index} : () -> index
    %c1 = "arith.constant"() {value = 1 : index} : () -> index
    %c300 = "arith.constant"() {value = 300 : index} : () -> index
    %x = "arith.constant"() {value = 1.0 : f64} : () -> f64
    %m = "memref.dim"(%a, %c0) : (memref<?x300xf64>, index) -> index
    "scf.for"(%c0, %m, %c1) ({
    ^bb0(%i: index):
      "scf.for"(%c0, %c300, %c1) ({
      ^bb0(%j: index):
        "memref.store"(%x, %a, %i, %j) : (f64, memref<?x300xf64>, index, index) -> ()
        "scf.yield"() : () -> ()
      }) : (index, index, index) -> ()
      "scf.yield"() : () -> ()
    }) : (index, index, index) -> ()
    "func.return"() : () -> ()
  }) {function_type = (memref<?x300xf64>) -> (), sym_name = "long_iterations"} : () -> ()
}) : () -> ()

// -----

/// A while loop counts down and polls every 65536 iterations.
// CHECK-LABEL: "builtin.module"
// CHECK: "scf.while"
// CHECK: }) {grafo.poll = 65536 : i64} : (f64) -> f64
// CHECK: sym_name = "doubling"
"builtin.module"() ({
  "func.func"() ({
  ^bb0(%x: f64):
    %two = "arith.constant"() {value = 2.0 : f64} : () -> f64
    %hundred = "arith.constant"() {value = 100.0 : f64} : () -> f64
    %r = "scf.while"(%x) ({
    ^bb0(%v: f64):
      %c = "arith.cmpf"(%v, %hundred) {predicate = 4 : i64} : (f64, f64) -> i1
      "scf.condition"(%c, %v) : (i1, f64) -> ()
    }, {
    ^bb0(%w: f64):
      %y = "arith.mulf"(%w, %two) : (f64, f64) -> f64
      "scf.yield"(%y) : (f64) -> ()
    }) : (f64) -> f64
    "func.return"(%r) : (f64) -> ()
  }) {function_type = (f64) -> f64, sym_name = "doubling"} : () -> ()
}) : () -> ()
