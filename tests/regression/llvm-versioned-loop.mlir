// RUN: grafo ir %S/inputs/versioned_loops.py:triad --signature "f64[?], f64[?], f64[?], f64, i64" --stage loops | grafo translate - --to=llvm | filecheck %s

/// In LLVM IR the versioned triad loop is a branch on the hoisted range check (n - 1 below
/// every size): one side runs the outlined body on libgomp's threads (above the work
/// threshold), the other the checked loop.
// CHECK: define internal void @[[BODY:[a-z._]+par[0-9]+]](ptr
// CHECK: define i32 @triad(
// CHECK: %[[LAST:.*]] = add i64 %{{.*}}, -1
// CHECK: icmp slt i64 %[[LAST]]
// CHECK: br i1 %{{.*}}, label %[[FAST:[a-z0-9._]+]], label %[[CHECKED:[a-z0-9._]+]]
// CHECK: [[FAST]]:
// CHECK-NEXT: smax
// CHECK-NEXT: load ptr, ptr @grafo.rt.threads
// CHECK: [[CHECKED]]:
// CHECK: call void %{{.*}}(ptr nonnull @[[BODY]], ptr
