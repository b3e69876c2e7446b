// RUN: grafo ir %S/inputs/float16.py:widen --signature "f16[?]" --stage loops | grafo translate - --to=llvm | filecheck %s

/// half -> double is integer code on the stored bits (i16), no fpext of half and no
/// libgcc call (__extendhfsf2), so the JIT and CPUs without F16C need nothing more.

// CHECK: define {{.*}}@widen(
// CHECK-NOT: fpext half
// CHECK-NOT: __extendhf
// CHECK: load {{.*}}i16
// CHECK: shl {{.*}}i32
// CHECK: fpext {{.*}}float {{.*}} to double
