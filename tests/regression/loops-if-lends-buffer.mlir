// RUN: grafo ir %S/inputs/constructs.py:return_array_loop --signature "f64[?], f64" --stage loops | filecheck %s

/// A loop that may `return a` carries the returned array. A branch of an scf.if that passes
/// a buffer on unchanged hands it on instead of copying it (the if's branches own a buffer
/// nothing after the if reads): the returning branch copies the argument once and frees the
/// carried buffer, the others yield the carried buffer itself, so no iteration after the
/// return copies the array.

// CHECK: ^bb0(%{{[a-z0-9]+}}: i64, %[[DONE:[a-z0-9]+]]: i1, %[[RET:[a-z0-9]+]]: memref<?xf64>):
// CHECK: "scf.if"
// CHECK: "scf.if"
// CHECK-NEXT: %[[COPY:.*]] = "memref.alloc"
// CHECK: "memref.dealloc"(%[[RET]])
// CHECK-NEXT: "scf.yield"(%{{.*}}, %[[COPY]])
// CHECK-NEXT: }, {
// CHECK-NEXT: "scf.yield"(%{{.*}}, %[[RET]])
// CHECK: }, {
// CHECK-NEXT: "scf.yield"(%[[DONE]], %[[RET]])
// CHECK-LABEL: sym_name = "return_array_loop"
