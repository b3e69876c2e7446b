// RUN: grafo ir %S/inputs/constructs.py:matmul_op --signature "f64[?,?], f64[?,?]" --stage loops | filecheck %s

/// A float64 product of dynamic shape: from 110592 multiply-adds (48^3) on, blas.gemm on the
/// operands where they lie (their strides read with grafo.stride, a transpose passed as
/// trans), each operand BLAS cannot read copied into a contiguous buffer first; the
/// generated kernel below that.

// CHECK-LABEL: "func.func"
// CHECK: %[[MIN:.*]] = "arith.constant"() {value = 110592 : index}
// CHECK: "grafo.stride"(%arg0
// CHECK: "grafo.stride"(%arg1
// CHECK: %[[LARGE:.*]] = "arith.cmpi"(%{{.*}}, %[[MIN]]) {predicate = 5 : i64}
// CHECK: %[[C:.*]] = "memref.alloc"
// CHECK: "scf.if"(%[[LARGE]])
// CHECK: "blas.gemm"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %arg0, %{{.*}}, %{{.*}}, %arg1, %{{.*}}, %{{.*}}, %{{.*}}, %[[C]], %{{.*}}, %{{.*}}) : (i1, i1, index, index, index, f64, memref<?x?xf64, strided<[?, ?], offset: ?>>, index, index, memref<?x?xf64, strided<[?, ?], offset: ?>>, index, index, f64, memref<?x?xf64>, index, index) -> ()
// CHECK: %[[COPY:.*]] = "memref.alloc"
// CHECK: "blas.gemm"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %arg0, %{{.*}}, %{{.*}}, %[[COPY]],
// CHECK: "memref.dealloc"(%[[COPY]])
// CHECK: "math.fma"
// CHECK: "func.return"(%[[C]])
