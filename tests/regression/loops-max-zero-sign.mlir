// RUN: grafo ir %S/inputs/constructs.py:softmax --signature "f32[?,?]" --stage loops | filecheck %s
// RUN: grafo ir %S/inputs/constructs.py:softmax --signature "f32[?,?]" --stage loops | grafo translate - --to=llvm | filecheck %s --check-prefix=LLVM

/// A row max ignores the sign of zeros in its loop (grafo.nsz: LLVM's nsz flag, so the vector
/// max needs no zero fix-ups), then, only when the max is zero, rescans the row for a +0.0
/// (its bits are all zero) to return IEEE maximum's +0.0 or -0.0.

// CHECK: %[[M:.*]] = "scf.for"
// CHECK: "arith.maximumf"(%{{.*}}) {grafo.nsz}
// CHECK: %[[Z:.*]] = "arith.cmpf"(%[[M]], %{{.*}}) {predicate = 1 : i64}
// CHECK-NEXT: "scf.if"(%[[Z]])
// CHECK: "arith.bitcast"(%{{.*}}) : (f32) -> i32
// CHECK: "arith.cmpi"
// CHECK: "arith.ori"
// CHECK: "arith.select"
// CHECK: }, {
// CHECK-NEXT: "scf.yield"(%[[M]])

// LLVM: call nsz {{.*}}@llvm.maximum.
