// RUN: grafo ir %S/inputs/constructs.py:fused --signature "f32[100000], f32[100000], f32[100000]" --stage loops | grafo translate - --to=llvm | filecheck %s

/// The outlined body of a parallel loop (one thread's chunk) is vectorized like the serial
/// loop: its loop bounds and step stay constants, so LLVM widens the chunk loop.

// CHECK-LABEL: define internal void @fused.impl.par1(
// CHECK: load <{{[0-9]+}} x float>
// CHECK: fmul <{{[0-9]+}} x float>
// CHECK-LABEL: define {{.*}}@fused(
