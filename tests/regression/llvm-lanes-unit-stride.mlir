// RUN: grafo ir %S/inputs/constructs.py:sum_all --signature "f32[?]" --stage loops | grafo translate - --to=llvm | filecheck %s
// RUN: grafo ir %S/inputs/constructs.py:sum_all --signature "f32[?]" --stage loops | grafo translate - --to=llvm --mcpu=haswell | filecheck %s
// RUN: grafo ir %S/inputs/constructs.py:sum_all --signature "f32[?]" --stage loops | grafo translate - --to=llvm --mcpu=skylake-avx512 | filecheck %s
// RUN: grafo ir %S/inputs/constructs.py:sum_all --signature "f32[?]" --stage loops | grafo translate - --to=llvm --mcpu=znver4 | filecheck %s

/// A grafo.lanes loop keeps its 8 partial sums in one <8 x float> phi. Its argument is
/// a strided memref, so the loop is emitted twice: with the last stride taken as 1 when it
/// is (contiguous vector loads) and as it is otherwise.

// CHECK: define {{.*}}@sum_all(
// CHECK: icmp eq i64 %{{.*}}, 1
// CHECK: phi <8 x float>
// CHECK: load <8 x float>
// CHECK: fadd <8 x float>
