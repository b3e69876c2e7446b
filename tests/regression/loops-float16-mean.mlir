// RUN: grafo ir %S/inputs/float16.py:average --signature "f16[?]" --stage loops | filecheck %s

/// np.mean of float16 sums in f32 as NumPy's buffered cast does: pairwise sums of
/// 8192-element pieces added in order to an f32 total, then the f32 quotient rounded to f16.

// CHECK: %[[TOTAL:.*]] = "scf.for"(%{{.*}}, %{{.*}}, %[[STEP:.*]], %{{.*}}) ({
// CHECK: "scf.while"
// CHECK: }) : (index, index, index, f32) -> f32
// CHECK: %[[Q:.*]] = "arith.divf"(%[[TOTAL]], %{{.*}}) : (f32, f32) -> f32
// CHECK: "arith.truncf"(%[[Q]]) : (f32) -> f16
// CHECK-LABEL: sym_name = "average"
