// REQUIRES: mlir-opt
// RUN: grafo ir %S/inputs/constructs.py:mse --signature "f32[?], f32[?]" --stage loops > %t.loops
// RUN: grafo translate %t.loops --to=llvm -o %t.ll
// RUN: mlir-opt --allow-unregistered-dialect --mlir-print-op-generic %t.loops | grafo translate - --to=llvm -o %t.back.ll
// RUN: filecheck %s < %t.back.ll
// RUN: grafo ir %S/inputs/constructs.py:triad_loop --signature "f64[?], f64[?], f64[?], f64" --stage frontend > %t.frontend
// RUN: grafo translate %t.frontend --to=llvm -o %t.triad.ll
// RUN: mlir-opt --allow-unregistered-dialect --mlir-print-op-generic %t.frontend | grafo translate - --to=llvm -o %t.triad.back.ll
// RUN: filecheck %s --check-prefix=TRIAD < %t.triad.back.ll
// The diffs come last: lit's builtin diff leaves PYTHONPATH pointing at lit for later commands.
// RUN: diff %t.ll %t.back.ll
// RUN: diff %t.triad.ll %t.triad.back.ll

/// Loop IR and tensor-level IR that went through mlir-opt (generic form, no debug info)
/// translate to the same LLVM IR as grafo's own text: the same vectorized mse and triad loop.

// CHECK: define internal void @mse.impl.par
// CHECK: fsub <{{[0-9]+}} x float>
// CHECK: fmul <{{[0-9]+}} x float>
// CHECK: define i32 @mse(

// TRIAD: define {{.*}}@triad_loop
// TRIAD: fmul {{.*}}<{{[0-9]+}} x double>
// TRIAD: ret i32
