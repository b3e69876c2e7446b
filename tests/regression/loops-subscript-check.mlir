// RUN: grafo ir %S/inputs/constructs.py:int_index --signature "f32[?], i64" --stage loops | filecheck %s

/// a[i] wraps a negative index and checks the bounds with grafo.check raising IndexError.

// CHECK: ^bb0(%[[A:.*]]: memref<?xf32, strided<[?], offset: ?>>, %[[I:.*]]: i64):
// CHECK: %[[N:.*]] = "memref.dim"(%[[A]], %{{.*}})
// CHECK: %[[II:.*]] = "arith.index_cast"(%[[I]]) : (i64) -> index
// CHECK: %[[NEG:.*]] = "arith.cmpi"(%[[II]], %{{.*}}) {predicate = 2 : i64}
// CHECK: %[[J:.*]] = "arith.select"(%[[NEG]], %{{.*}}, %[[II]])
// CHECK: "grafo.check"(%{{.*}}, %[[I]], %{{.*}}) {kind = "IndexError", message = "index {0} is out of bounds for axis 0 with size {1}"}
// CHECK-NEXT: %[[V:.*]] = "memref.load"(%[[A]], %[[J]])
// CHECK-NEXT: "func.return"(%[[V]])
// CHECK-LABEL: sym_name = "int_index"
