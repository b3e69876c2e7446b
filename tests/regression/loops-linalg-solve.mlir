// RUN: grafo ir %S/inputs/constructs.py:linalg_solve --signature "f32[?,?], f32[?,3]" --stage loops | filecheck %s

/// np.linalg.solve: a run-time check that the matrix is square, A and B copied (cast to
/// float64) into column-major buffers with leading dimension max(n, 1), LAPACK's gesv on
/// them, its info turned into NumPy's LinAlgError, X read back row-major, the work buffers
/// freed, and the result cast back to float32.

// CHECK-LABEL: "func.func"
// CHECK: %[[N:.*]] = "memref.dim"(%arg0, %{{.*}})
// CHECK: "grafo.check"(%{{.*}}) {kind = "LinAlgError", message = "Last 2 dimensions of the array must be square"}
// CHECK: %[[LD:.*]] = "arith.select"(%{{.*}}, %[[N]], %{{.*}}) : (i1, index, index) -> index
// CHECK: %[[A:.*]] = "memref.alloc"(%{{.*}}) {{.*}} -> memref<?xf64>
// CHECK: %[[B:.*]] = "memref.alloc"(%{{.*}}) {{.*}} -> memref<?xf64>
// CHECK: %[[PIV:.*]] = "memref.alloc"(%{{.*}}) {{.*}} -> memref<?xi64>
// CHECK: "arith.extf"
// CHECK: "memref.store"(%{{.*}}, %[[A]], %{{.*}})
// CHECK: "memref.store"(%{{.*}}, %[[B]], %{{.*}})
// CHECK: %[[INFO:.*]] = "lapack.gesv"(%[[N]], %{{.*}}, %[[A]], %[[LD]], %[[PIV]], %[[B]], %[[LD]]) : (index, index, memref<?xf64>, index, memref<?xi64>, memref<?xf64>, index) -> i64
// CHECK: %[[OK:.*]] = "arith.cmpi"(%[[INFO]], %{{.*}}) {predicate = 0 : i64}
// CHECK: "grafo.check"(%[[OK]]) {kind = "LinAlgError", message = "Singular matrix"}
// CHECK: "memref.load"(%[[B]], %{{.*}})
// CHECK: "memref.dealloc"(%[[A]])
// CHECK: "memref.dealloc"(%[[B]])
// CHECK: "memref.dealloc"(%[[PIV]])
// CHECK: "arith.truncf"
