// RUN: grafo opt %s --pass-pipeline=canonicalize | filecheck %s

/// Loop-level arith identities: addi x+0, muli x*1, addf x+(-0.0), mulf x*1.0, negf(negf(x)).

"builtin.module"() ({
  // CHECK: ^bb0(%[[I:.*]]: i32, %[[X:.*]]: f64):
  // CHECK: %[[KEPT:.*]] = "arith.addf"(%[[X]], %{{.*}})
  // CHECK-NEXT: "func.return"(%[[I]], %[[I]], %[[X]], %[[X]], %[[X]], %[[KEPT]])
  // CHECK-LABEL: sym_name = "arith"
  "func.func"() ({
  ^bb0(%i: i32, %x: f64):
    %z = "arith.constant"() {value = 0 : i32} : () -> i32
    %o = "arith.constant"() {value = 1 : i32} : () -> i32
    %nz = "arith.constant"() {value = -0.0 : f64} : () -> f64
    %pz = "arith.constant"() {value = 0.0 : f64} : () -> f64
    %fo = "arith.constant"() {value = 1.0 : f64} : () -> f64
    %0 = "arith.addi"(%z, %i) : (i32, i32) -> i32
    %1 = "arith.muli"(%i, %o) : (i32, i32) -> i32
    %2 = "arith.addf"(%x, %nz) : (f64, f64) -> f64
    %3 = "arith.mulf"(%fo, %x) : (f64, f64) -> f64
    %4 = "arith.negf"(%x) : (f64) -> f64
    %5 = "arith.negf"(%4) : (f64) -> f64
    %6 = "arith.addf"(%x, %pz) : (f64, f64) -> f64
    "func.return"(%0, %1, %2, %3, %5, %6) : (i32, i32, f64, f64, f64, f64) -> ()
  }) {function_type = (i32, f64) -> (i32, i32, f64, f64, f64, f64), sym_name = "arith"} : () -> ()
}) : () -> ()
