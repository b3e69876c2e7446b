// RUN: grafo ir %S/inputs/constructs.py:mse --signature "f32[?], f32[?]" --stage loops | filecheck %s

/// mean((a-b)**2) is one scf.for nest: the squared difference feeds the sum directly, no memref.alloc temporary.

// CHECK-NOT: "memref.alloc"
// CHECK: "scf.for"
// CHECK: "arith.subf"
// CHECK: "arith.addf"
// CHECK: "arith.divf"
// CHECK-NOT: "memref.alloc"
// CHECK-LABEL: sym_name = "mse"
