// RUN: grafo ir %S/inputs/constructs.py:sum_all --signature "f32[?]" --stage loops | grafo translate - --to=llvm | filecheck %s

/// The unrolled f32 sum becomes vector fadds in the optimized LLVM IR.

// CHECK: define {{.*}}@sum_all(
// CHECK: fadd {{.*}}<{{[0-9]+}} x float>
