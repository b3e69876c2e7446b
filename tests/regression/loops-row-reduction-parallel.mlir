// RUN: grafo ir %S/inputs/constructs.py:softmax --signature "f32[2000,500]" --stage loops | filecheck %s

/// softmax's row reductions (the row max, then exp and the row sums) run their 2000 rows on
/// threads: the row loops are marked grafo.parallel with the row's 500 elements as
/// grafo.work, which the backend counts toward its threshold; the divide loop follows.

// CHECK: "arith.maximumf"
// CHECK: }) {grafo.parallel, grafo.work = 500 : i64}
// CHECK: "math.exp"
// CHECK: }) {grafo.parallel, grafo.work = 500 : i64}
// CHECK: "arith.divf"
// CHECK: }) {grafo.parallel}
