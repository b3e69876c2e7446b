// RUN: grafo ir %S/inputs/constructs.py:sum_all --signature "f32[?]" --stage loops | filecheck %s

/// A full f32 sum needs no buffer: an 8-way unrolled inner loop with compensated (Kahan) outer accumulation.

// CHECK-NOT: "memref.alloc"
// CHECK: %[[R:.*]]:2 = "scf.for"
// CHECK: }) : (index, index, index, f32, f32, f32, f32, f32, f32, f32, f32) -> (f32, f32, f32, f32, f32, f32, f32, f32)
// CHECK: "math.absf"
// CHECK: }) : (index, index, index, f32, f32) -> (f32, f32)
// CHECK: %[[T:.*]] = "arith.{{addf|subf}}"(%[[R]]#0, %[[R]]#1)
// CHECK-NEXT: "func.return"(%[[T]]) : (f32) -> ()
// CHECK-LABEL: sym_name = "sum_all"
