// RUN: grafo ir %S/inputs/gpu_complex.py:exp_scaled --signature "c64[?]" --stage optimized | grafo translate - --to=ptx | filecheck %s
// RUN: grafo ir %S/inputs/gpu_complex.py:complex_total --signature "c128[?]" --stage optimized | grafo translate - --to=ptx | filecheck %s --check-prefix=SUM
// RUN: grafo ir %S/inputs/gpu_complex.py:half_axpy --signature "f16[?], f16[?]" --stage optimized | grafo translate - --to=ptx | filecheck %s --check-prefix=HALF
// RUN: grafo ir %S/inputs/gpu_complex.py:complex_sine --signature "c128[?]" --stage optimized | grafo translate - --to=ptx | filecheck %s --check-prefix=SINE
// RUN: grafo ir %S/inputs/gpu_complex.py:complex_scaled --signature "c128[?], c128" --stage optimized | grafo translate - --to=ptx | filecheck %s --check-prefix=SCALAR

/// np.exp of complex64 in a kernel: each element is loaded as two floats (re at +0, im at +4),
/// exp/sin/cos come from libdevice (no glibc cexpf), and both parts are stored.

// CHECK-LABEL: .visible .entry exp_scaled_k0(
// CHECK-NOT: cexpf
// CHECK-DAG: ld.global.b32 {{.*}}, [[[A:%rd[0-9]+]]];
// CHECK-DAG: ld.global.b32 {{.*}}, [[[A]]+4];
// CHECK-DAG: mul.rn.f32
// CHECK-DAG: st.global.b32 [[[O:%rd[0-9]+]]], {{.*}};
// CHECK-DAG: st.global.b32 [[[O]]+4], {{.*}};
// CHECK-NOT: cexpf

/// A complex128 sum is a reduce kernel of two compensated double sums (real and imaginary
/// parts), each combined across a warp by shuffles of its 32-bit halves.

// SUM-LABEL: .visible .entry complex_total_k0(
// SUM-DAG: ld.global.b64 {{.*}}, [[[Z:%rd[0-9]+]]+-8];
// SUM-DAG: ld.global.b64 {{.*}}, [[[Z]]];
// SUM-DAG: add.rn.f64
// SUM-DAG: sub.rn.f64
// SUM-DAG: shfl.sync.bfly.b32 {{.*}}, 16, 31, -1;
// SUM-DAG: st.global.b64
// SUM-NOT: .entry

/// float16 arithmetic runs in float32 (arith-emulate-unsupported-floats): halves are loaded
/// and stored as 16-bit integers, converted by integer code, and added in f32.

// HALF-LABEL: .visible .entry half_axpy_k0(
// HALF-DAG: ld.global.b16
// HALF-DAG: add.rn.f32
// HALF-DAG: st.global.b16
// HALF-NOT: add.rn.f16

/// np.sin of complex128 (complextrig.py's csin over libdevice's sin, cos, sinh, cosh): the
/// kernel loads both parts, calls libdevice's argument reduction, and no C library csin.

// SINE-LABEL: .visible .entry complex_sine_k0(
// SINE-NOT: csin
// SINE-DAG: ld.global.b64 {{.*}}, [[[Z:%rd[0-9]+]]+8];
// SINE-DAG: ld.global.b64 {{.*}}, [[[Z]]];
// SINE-DAG: call.uni (retval0), __internal_trig_reduction_slowpathd
// SINE: ret;

/// A complex128 scalar argument is two .f64 kernel parameters, both used by the product.

// SCALAR-LABEL: .visible .entry complex_scaled_k0(
// SCALAR: .param .f64 [[RE:complex_scaled_k0_param_[0-9]+]],
// SCALAR-NEXT: .param .f64 [[IM:complex_scaled_k0_param_[0-9]+]],
// SCALAR-DAG: ld.param.b64 {{.*}}, [[[RE]]];
// SCALAR-DAG: ld.param.b64 {{.*}}, [[[IM]]];
// SCALAR-DAG: fma.rn.f64
