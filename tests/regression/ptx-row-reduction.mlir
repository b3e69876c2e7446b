// RUN: grafo ir %S/inputs/constructs.py:sum_axis --signature "f32[?,?]" --stage optimized | grafo translate - --to=ptx | filecheck %s
// RUN: grafo ir %S/inputs/constructs.py:softmax --signature "f64[?,?]" --stage optimized | grafo translate - --to=ptx | filecheck %s --check-prefix=SOFTMAX

/// A row reduction (np.sum(a, axis=1)) is one kernel in which a group of threads (tid.x)
/// shares each row (tid.y picks the row within the block): the threads' partial sums meet
/// by a butterfly of warp shuffles, then across warps through shared memory between
/// barriers.

// CHECK-LABEL: .visible .entry sum_axis_k0(
// CHECK-DAG: .shared .align 8 .b8 sum_axis_k0_$_smem0[128];
// CHECK-DAG: %tid.y
// CHECK-DAG: %ntid.x
// CHECK-DAG: ld.global.b32
// CHECK-DAG: shfl.sync.bfly.b32 {{.*}}, 16, 31, -1;
// CHECK-DAG: shfl.sync.bfly.b32 {{.*}}, 1, 31, -1;
// CHECK-DAG: st.shared.b32
// CHECK-DAG: bar.sync 0;
// CHECK-DAG: ld.shared.b32
// CHECK-DAG: st.global.b32
// CHECK-NOT: .entry

/// softmax: the row max (first kernel) and the row sum of exp (third) are row reductions;
/// a double is shuffled as two 32-bit halves; the exp kernel between them has no shuffles.

// SOFTMAX-LABEL: .visible .entry softmax_k0(
// SOFTMAX-DAG: .shared .align 8 .b8 softmax_k0_$_smem0[256];
// SOFTMAX-DAG: shfl.sync.bfly.b32 {{.*}}, 16, 31, -1;
// SOFTMAX-DAG: max.f64
// SOFTMAX-DAG: st.shared.b64
// SOFTMAX-DAG: bar.sync 0;
// SOFTMAX-LABEL: .visible .entry softmax_k1(
// SOFTMAX-NOT: shfl.sync
// SOFTMAX-LABEL: .visible .entry softmax_k2(
// SOFTMAX-DAG: shfl.sync.bfly.b32 {{.*}}, 16, 31, -1;
// SOFTMAX-DAG: st.shared.b64
// SOFTMAX-DAG: add.rn.f64
// SOFTMAX-LABEL: .visible .entry softmax_k3(
// SOFTMAX-NOT: shfl.sync
