// RUN: grafo ir %S/inputs/float16.py:total --signature "f16[?]" --stage loops | filecheck %s

/// A float16 sum is NumPy's HALF_pairwise_sum: f32 adds in NumPy's order, rounded to f16
/// once. Up to 128 elements one block (8 lanes, then the rest); beyond, the recursion
/// runs on explicit stacks of ranges (index) and partial sums (f32) in an scf.while. No
/// 65536-element parallel chunks: they would change the order.

// CHECK: %[[N:.*]] = "memref.dim"
// CHECK: %[[SMALL:.*]] = "arith.cmpi"(%[[N]], %{{.*}}) {predicate = 3 : i64}
// CHECK-NEXT: %[[R:.*]] = "scf.if"(%[[SMALL]]) ({
// CHECK: grafo.lanes = 8
// CHECK: }, {
// CHECK: %[[RANGES:.*]] = "memref.alloc"() {{.*}} -> memref<384xindex>
// CHECK: %[[SUMS:.*]] = "memref.alloc"() {{.*}} -> memref<192xf32>
// CHECK: "scf.while"
// CHECK: "arith.extf"(%{{.*}}) : (f16) -> f32
// CHECK: "memref.dealloc"(%[[RANGES]])
// CHECK: }) : (i1) -> f32
// CHECK-NOT: grafo.parallel
// CHECK: %[[H:.*]] = "arith.truncf"(%[[R]]) : (f32) -> f16
// CHECK: "func.return"(%[[H]])
// CHECK-LABEL: sym_name = "total"
