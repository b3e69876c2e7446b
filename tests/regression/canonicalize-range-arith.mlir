// RUN: grafo opt %s --pass-pipeline=canonicalize | filecheck %s

/// In `for i in range(1, 63)` the reads x[i - 1] and x[i + 1] stay in 0..63: the ranges of
/// i - 1 (0..61) and i + 1 (2..63) decide their bounds checks, which go away. A compare the
/// ranges do not decide (i + 1 < 40) stays.
// CHECK-LABEL: "builtin.module"
// CHECK-NOT: "grafo.check"
// CHECK: "arith.cmpi"(%{{.*}}, %{{.*}}) {predicate = 2 : i64}
// CHECK-NOT: "grafo.check"
// CHECK: sym_name = "stencil"
"builtin.module"() ({
  "func.func"() ({
  ^bb0(%x: memref<64xf64>, %out: memref<64xi1>):
    %c0 = "arith.constant"() {value = 0 : index} : () -> index
    %c1 = "arith.constant"() {value = 1 : i64} : () -> i64
    %c63 = "arith.constant"() {value = 63 : i64} : () -> i64
    %n = "arith.constant"() {value = 64 : index} : () -> index
    %one = "arith.constant"() {value = 1 : index} : () -> index
    %c40 = "arith.constant"() {value = 40 : index} : () -> index
    "scf.for"(%c1, %c63, %c1) ({
    ^bb0(%i: i64):
      %j = "arith.index_cast"(%i) : (i64) -> index
      %l = "arith.subi"(%j, %one) : (index, index) -> index
      %r = "arith.addi"(%j, %one) : (index, index) -> index
      %lok = "arith.cmpi"(%l, %c0) {predicate = 5 : i64} : (index, index) -> i1
      "grafo.check"(%lok) {kind = "IndexError", message = "below"} : (i1) -> ()
      %rok = "arith.cmpi"(%r, %n) {predicate = 2 : i64} : (index, index) -> i1
      "grafo.check"(%rok) {kind = "IndexError", message = "above"} : (i1) -> ()
      %low = "arith.cmpi"(%r, %c40) {predicate = 2 : i64} : (index, index) -> i1
      "memref.store"(%low, %out, %j) : (i1, memref<64xi1>, index) -> ()
      "scf.yield"() : () -> ()
    }) : (i64, i64, i64) -> ()
    "func.return"() : () -> ()
  }) {function_type = (memref<64xf64>, memref<64xi1>) -> (), sym_name = "stencil"} : () -> ()
}) : () -> ()
