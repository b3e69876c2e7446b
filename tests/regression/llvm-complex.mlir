// RUN: grafo ir %S/inputs/constructs.py:complex_scalar --signature "c64, c64" --stage loops | filecheck %s --check-prefix=LOOPS
// RUN: grafo ir %S/inputs/constructs.py:complex_scalar --signature "c64, c64" --stage loops | grafo translate - --to=llvm | filecheck %s

/// NumPy complex64 scalars: the plain product (complex.mul), hypotf for abs, both parts
/// compared for ==; in LLVM a complex is a {float, float} value, passed by pointer.

// LOOPS: "complex.mul"(%[[A:.*]], %[[B:.*]]) : (complex<f32>, complex<f32>) -> complex<f32>
// LOOPS: "complex.abs"(%[[A]]) : (complex<f32>) -> f32
// LOOPS: "complex.eq"(%[[A]], %[[B]]) : (complex<f32>, complex<f32>) -> i1
// LOOPS-LABEL: sym_name = "complex_scalar"

// CHECK: declare float @hypotf(float, float)
// CHECK: define {{.*}}@complex_scalar(ptr
// CHECK: %[[AR:[^ ]*]] = load float, ptr
// CHECK: fmul float %[[AR]], %
// CHECK: call float @hypotf(float %[[AR]]
// CHECK: fcmp oeq float %[[AR]], %
