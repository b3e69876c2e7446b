// RUN: grafo opt %s --split-input-file --pass-pipeline=dce,parallelize-loops | filecheck %s

/// A Python for loop's scf.for carries the loop variable's last value. Unread, dce drops
/// it, and the loop, whose iterations touch only row %i of what it writes, is marked
/// grafo.parallel.
// CHECK-LABEL: "builtin.module"
// CHECK: "scf.for"(%{{.*}}, %{{.*}}, %{{.*}}) ({
// CHECK-NEXT: ^bb0(%[[I:.*]]: i64):
// CHECK: %[[J:.*]] = "arith.index_cast"(%[[I]])
// CHECK: "memref.store"(%{{.*}}, %{{.*}}, %[[J]])
// CHECK-NEXT: "scf.yield"() : () -> ()
// CHECK-NEXT: }) {grafo.parallel} : (i64, i64, i64) -> ()
// CHECK: sym_name = "triad"
"builtin.module"() ({
  "func.func"() ({
  ^bb0(%a: memref<65536xf64>, %b: memref<65536xf64>, %s: f64):
    %c0 = "arith.constant"() {value = 0 : i64} : () -> i64
    %c1 = "arith.constant"() {value = 1 : i64} : () -> i64
    %cn = "arith.constant"() {value = 65536 : i64} : () -> i64
    %last = "scf.for"(%c0, %cn, %c1, %c0) ({
    ^bb0(%i: i64, %prev: i64):
      %j = "arith.index_cast"(%i) : (i64) -> index
      %x = "memref.load"(%b, %j) : (memref<65536xf64>, index) -> f64
      %y = "arith.mulf"(%s, %x) : (f64, f64) -> f64
      "memref.store"(%y, %a, %j) : (f64, memref<65536xf64>, index) -> ()
      "scf.yield"(%i) : (i64) -> ()
    }) : (i64, i64, i64, i64) -> i64
    "func.return"() : () -> ()
  }) {function_type = (memref<65536xf64>, memref<65536xf64>, f64) -> (), sym_name = "triad"} : () -> ()
}) : () -> ()

// -----

/// A read of the previous element of the array the loop writes: serial.
// CHECK-LABEL: "builtin.module"
// CHECK: }) : (i64, i64, i64) -> ()
// CHECK: sym_name = "recurrence"
"builtin.module"() ({
  "func.func"() ({
  ^bb0(%a: memref<65536xf64>):
    %c1 = "arith.constant"() {value = 1 : i64} : () -> i64
    %cn = "arith.constant"() {value = 65536 : i64} : () -> i64
    %one = "arith.constant"() {value = 1 : index} : () -> index
    "scf.for"(%c1, %cn, %c1) ({
    ^bb0(%i: i64):
      %j = "arith.index_cast"(%i) : (i64) -> index
      %p = "arith.subi"(%j, %one) : (index, index) -> index
      %x = "memref.load"(%a, %p) : (memref<65536xf64>, index) -> f64
      "memref.store"(%x, %a, %j) : (f64, memref<65536xf64>, index) -> ()
      "scf.yield"() : () -> ()
    }) : (i64, i64, i64) -> ()
    "func.return"() : () -> ()
  }) {function_type = (memref<65536xf64>) -> (), sym_name = "recurrence"} : () -> ()
}) : () -> ()

// -----

/// A run-time check left in the body fixes the order of the iterations: serial.
// CHECK-LABEL: "builtin.module"
// CHECK: "grafo.check"
// CHECK: }) : (i64, i64, i64) -> ()
// CHECK: sym_name = "checked"
"builtin.module"() ({
  "func.func"() ({
  ^bb0(%a: memref<65536xf64>, %n: i64):
    %c0 = "arith.constant"() {value = 0 : i64} : () -> i64
    %c1 = "arith.constant"() {value = 1 : i64} : () -> i64
    %cn = "arith.constant"() {value = 65536 : index} : () -> index
    "scf.for"(%c0, %n, %c1) ({
    ^bb0(%i: i64):
      %j = "arith.index_cast"(%i) : (i64) -> index
      %ok = "arith.cmpi"(%j, %cn) {predicate = 2 : i64} : (index, index) -> i1
      "grafo.check"(%ok) {kind = "IndexError", message = "out of bounds"} : (i1) -> ()
      %x = "memref.load"(%a, %j) : (memref<65536xf64>, index) -> f64
      "memref.store"(%x, %a, %j) : (f64, memref<65536xf64>, index) -> ()
      "scf.yield"() : () -> ()
    }) : (i64, i64, i64) -> ()
    "func.return"() : () -> ()
  }) {function_type = (memref<65536xf64>, i64) -> (), sym_name = "checked"} : () -> ()
}) : () -> ()

// -----

/// A loop-carried sum whose result is read: serial, the value kept.
// CHECK-LABEL: "builtin.module"
// CHECK: %[[S:.*]] = "scf.for"
// CHECK: }) : (i64, i64, i64, f64) -> f64
// CHECK: "func.return"(%[[S]])
"builtin.module"() ({
  "func.func"() ({
  ^bb0(%a: memref<65536xf64>):
    %c0 = "arith.constant"() {value = 0 : i64} : () -> i64
    %c1 = "arith.constant"() {value = 1 : i64} : () -> i64
    %cn = "arith.constant"() {value = 65536 : i64} : () -> i64
    %z = "arith.constant"() {value = 0.0 : f64} : () -> f64
    %s = "scf.for"(%c0, %cn, %c1, %z) ({
    ^bb0(%i: i64, %acc: f64):
      %j = "arith.index_cast"(%i) : (i64) -> index
      %x = "memref.load"(%a, %j) : (memref<65536xf64>, index) -> f64
      %t = "arith.addf"(%acc, %x) : (f64, f64) -> f64
      "scf.yield"(%t) : (f64) -> ()
    }) : (i64, i64, i64, f64) -> f64
    "func.return"(%s) : (f64) -> ()
  }) {function_type = (memref<65536xf64>) -> f64, sym_name = "sum"} : () -> ()
}) : () -> ()

// -----

/// Independent, but 64 iterations stay serial at run time anyway: not marked, so no
/// outlined copy is compiled.
// CHECK-LABEL: "builtin.module"
// CHECK: }) : (i64, i64, i64) -> ()
// CHECK: sym_name = "small"
"builtin.module"() ({
  "func.func"() ({
  ^bb0(%a: memref<64xf64>, %b: memref<64xf64>):
    %c0 = "arith.constant"() {value = 0 : i64} : () -> i64
    %c1 = "arith.constant"() {value = 1 : i64} : () -> i64
    %c64 = "arith.constant"() {value = 64 : i64} : () -> i64
    "scf.for"(%c0, %c64, %c1) ({
    ^bb0(%i: i64):
      %j = "arith.index_cast"(%i) : (i64) -> index
      %x = "memref.load"(%b, %j) : (memref<64xf64>, index) -> f64
      "memref.store"(%x, %a, %j) : (f64, memref<64xf64>, index) -> ()
      "scf.yield"() : () -> ()
    }) : (i64, i64, i64) -> ()
    "func.return"() : () -> ()
  }) {function_type = (memref<64xf64>, memref<64xf64>) -> (), sym_name = "small"} : () -> ()
}) : () -> ()

// -----

/// An index-typed loop is lowering's own (an array operation's), which decides itself
/// whether to thread it: not marked.
// CHECK-LABEL: "builtin.module"
// CHECK: }) : (index, index, index) -> ()
// CHECK: sym_name = "lowered"
"builtin.module"() ({
  "func.func"() ({
  ^bb0(%a: memref<65536xf64>, %b: memref<65536xf64>):
    %c0 = "arith.constant"() {value = 0 : index} : () -> index
    %c1 = "arith.constant"() {value = 1 : index} : () -> index
    %cn = "arith.constant"() {value = 65536 : index} : () -> index
    "scf.for"(%c0, %cn, %c1) ({
    ^bb0(%i: index):
      %x = "memref.load"(%b, %i) : (memref<65536xf64>, index) -> f64
      "memref.store"(%x, %a, %i) : (f64, memref<65536xf64>, index) -> ()
      "scf.yield"() : () -> ()
    }) : (index, index, index) -> ()
    "func.return"() : () -> ()
  }) {function_type = (memref<65536xf64>, memref<65536xf64>) -> (), sym_name = "lowered"} : () -> ()
}) : () -> ()
