// RUN: grafo ir %S/inputs/constructs.py:fused --signature "f32[?], f32[?], f32[?]" --stage loops > %t.mlir
// RUN: grafo translate %t.mlir --to=asm --mcpu=znver4 | filecheck %s --check-prefix=ZEN4
// RUN: grafo translate %t.mlir --to=asm --mcpu=skylake-avx512 | filecheck %s --check-prefix=SKX
// RUN: grafo translate %t.mlir --to=asm --mcpu=haswell | filecheck %s --check-prefix=HSW
// RUN: grafo translate %t.mlir --to=asm --mcpu=x86-64 | filecheck %s --check-prefix=BASE

/// --mcpu pins the CPU model as llc -mcpu does: the fused loop gets that model's vector
/// width (Zen 4 and Skylake-AVX512: 512-bit, grafo turns off LLVM's prefer-256-bit tuning;
/// Haswell: 256-bit AVX2; baseline x86-64: 128-bit SSE), whatever CPU runs the test.

// ZEN4: fused:
// ZEN4: vmulps {{.*}}zmm
// SKX: fused:
// SKX: vmulps {{.*}}zmm
// HSW: fused:
// HSW-NOT: zmm
// HSW: vmulps {{.*}}ymm
// HSW-NOT: zmm
// BASE: fused:
// BASE-NOT: ymm
// BASE: mulps {{.*}}xmm
// BASE-NOT: ymm
