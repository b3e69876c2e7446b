// RUN: grafo ir %S/inputs/constructs.py:fused --signature "f32[?], f32[?], f32[?]" --stage loops > %t.mlir
// RUN: grafo translate %t.mlir --to=asm --mcpu=znver4 | filecheck %s --check-prefix=ZEN4
// RUN: grafo translate %t.mlir --to=asm --mcpu=skylake-avx512 | filecheck %s --check-prefix=SKX
// RUN: grafo translate %t.mlir --to=asm --mcpu=x86-64 | filecheck %s --check-prefix=BASE

/// --mcpu pins the CPU model as llc -mcpu does: the fused loop gets that model's vector
/// width (Zen 4: 512-bit; Skylake-AVX512: 256-bit, LLVM's prefer-256-bit tuning; baseline
/// x86-64: 128-bit SSE), whatever CPU runs the test.

// ZEN4: fused:
// ZEN4: vmulps {{.*}}zmm
// SKX: fused:
// SKX-NOT: zmm
// SKX: vmulps {{.*}}ymm
// SKX-NOT: zmm
// BASE: fused:
// BASE-NOT: ymm
// BASE: mulps {{.*}}xmm
// BASE-NOT: ymm
