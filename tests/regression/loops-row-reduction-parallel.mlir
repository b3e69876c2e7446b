// RUN: grafo ir %S/inputs/constructs.py:softmax --signature "f32[2000,500]" --stage loops | filecheck %s
// RUN: grafo ir %S/inputs/constructs.py:sum_axis --signature "f32[2000,500]" --stage loops | filecheck %s --check-prefix=SUM

/// A reduction over the innermost axis marks its row loop grafo.parallel with the row's
/// extent as grafo.work, which the backend counts toward its threshold (np.sum over axis 1
/// of 2000 x 500). softmax's row loops (max, exp with the row sums, divide) are then one parallel
/// loop over the rows (fuse-loops).

// SUM: "scf.for"
// SUM: }) {grafo.parallel, grafo.poll = {{[0-9]+}} : i64, grafo.work = 500 : i64}

// CHECK: "arith.maximumf"
// CHECK-NOT: grafo.parallel
// CHECK: "math.exp"
// CHECK-NOT: grafo.parallel
// CHECK: "arith.divf"
// CHECK: }) {grafo.parallel, grafo.poll = 1 : i64}
// CHECK-NOT: grafo.parallel
