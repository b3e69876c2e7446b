// RUN: grafo ir %S/inputs/constructs.py:matmul_op --signature "f32[?,?], f32[?,?]" --stage loops | filecheck %s

/// matmul checks the core dims, allocates the MxN result and accumulates A*B with math.fma in an scf.for nest; the result is returned, not freed.
/// The k-loop of a register tile is marked grafo.no_unroll: unrolled, its accumulators and operands would not fit the vector registers.

// CHECK: ^bb0(%[[A:.*]]: memref<?x?xf32, strided<[?, ?], offset: ?>>, %[[B:.*]]: memref<?x?xf32, strided<[?, ?], offset: ?>>):
// CHECK: "grafo.check"{{.*}}kind = "ValueError", message = "matmul: Input operand 1 has a mismatch in its core dimension 0
// CHECK: %[[C:.*]] = "memref.alloc"(%{{.*}}, %{{.*}}) <{operandSegmentSizes = array<i32: 2, 0>}> : (index, index) -> memref<?x?xf32>
// CHECK: "scf.for"
// CHECK: "memref.load"(%[[B]], %{{.*}}, %{{.*}})
// CHECK: "memref.load"(%[[A]], %{{.*}}, %{{.*}})
// CHECK: "math.fma"
// CHECK: }) {grafo.no_unroll} :
// CHECK: "memref.store"(%{{.*}}, %[[C]], %{{.*}}, %{{.*}})
// CHECK-NOT: "memref.dealloc"(%[[C]])
// CHECK: "func.return"(%[[C]])
// CHECK-LABEL: sym_name = "matmul_op"
