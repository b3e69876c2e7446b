// RUN: grafo ir %S/inputs/constructs.py:fused --signature "f32[?], f32[?], f32[?]" --stage loops | filecheck %s --check-prefix=LOOPS
// RUN: grafo ir %S/inputs/constructs.py:fused --signature "f32[?], f32[?], f32[?]" --stage loops | grafo translate - --to=llvm | filecheck %s

/// The elementwise loop polls every 65536 iterations, on the threads and serially; its
/// chunks are vectorized as the loop was. A poll that finds the flag set for this thread
/// (on the threads: for the thread that started the loop, whose pthread_self() the caller
/// puts in the closure) returns status -3 (INTERRUPTED) from the entry, or records it for
/// the join.

// LOOPS: }) {grafo.parallel, grafo.poll = 65536 : i64} : (index, index, index) -> ()

// CHECK: @grafo.rt.interrupt = {{.*}}global ptr null
// CHECK-LABEL: define internal void @fused.impl.par1(
// CHECK-NOT: @pthread_self
// CHECK: load atomic ptr, ptr @grafo.rt.interrupt monotonic
// CHECK: load atomic i32, ptr %{{.*}} monotonic
// CHECK: load <{{[0-9]+}} x float>
// CHECK: store i32 -3
// CHECK-LABEL: define {{.*}}@fused(
// CHECK: call i64 @pthread_self()
// CHECK: call void %{{.*}}(ptr nonnull @fused.impl.par1,
// CHECK: load atomic ptr, ptr @grafo.rt.interrupt monotonic
// CHECK: load <{{[0-9]+}} x float>
// CHECK: phi i32 [ -3,
