// RUN: grafo ir %S/inputs/constructs.py:fused --signature "f32[?], f32[?], f32[?]" --stage loops | grafo translate - --to=llvm | filecheck %s

/// The fused a * b + c loop is vectorized for the host: float vectors in the optimized LLVM IR.

// CHECK: define {{.*}}@fused(
// CHECK: <{{[0-9]+}} x float>
// CHECK: {{fmul|fadd|fma}}
