// RUN: grafo ir %S/inputs/constructs.py:copy_then_write --signature "f64[?]" --stage loops | filecheck %s

/// b = np.copy(a) folds to a's value, but b is a new array: the write b[0] = 5.0 goes to a
/// fresh buffer that holds a copy of a, never to the argument's buffer (no np.write_back
/// targets a, so its buffer is not a home for in-place updates).

// CHECK: ^bb0(%[[A:.*]]: memref<?xf64, strided<[?], offset: ?>>):
// CHECK-NOT: "memref.store"({{.*}}, %[[A]],
// CHECK: %[[B:.*]] = "memref.alloc"
// CHECK-NOT: "memref.store"({{.*}}, %[[A]],
// CHECK: "memref.load"(%[[A]], %[[I:[^)]*]])
// CHECK-NEXT: "memref.store"(%{{.*}}, %[[B]], %[[I]])
// CHECK-NOT: "memref.store"({{.*}}, %[[A]],
// CHECK: "memref.store"(%{{.*}}, %[[B]], %{{.*}})
// CHECK-NOT: "memref.store"({{.*}}, %[[A]],
// CHECK: "func.return"(%[[B]])
