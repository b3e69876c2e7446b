// REQUIRES: mlir-opt
// RUN: grafo ir %S/inputs/constructs.py:softmax --signature "f32[?,?]" --stage frontend > %t.frontend
// RUN: mlir-opt --allow-unregistered-dialect --mlir-print-op-generic --mlir-print-debuginfo %t.frontend | grafo opt - -o %t.frontend.back
// RUN: grafo ir %S/inputs/constructs.py:softmax --signature "f32[?,?]" --stage optimized > %t.optimized
// RUN: mlir-opt --allow-unregistered-dialect --mlir-print-op-generic --mlir-print-debuginfo %t.optimized | grafo opt - -o %t.optimized.back
// RUN: grafo ir %S/inputs/constructs.py:softmax --signature "f32[?,?]" --stage loops > %t.loops
// RUN: mlir-opt --allow-unregistered-dialect --mlir-print-op-generic --mlir-print-debuginfo %t.loops > %t.upstream
// RUN: filecheck %s --check-prefix=UPSTREAM < %t.upstream
// RUN: grafo opt %t.upstream -o %t.loops.back
// RUN: mlir-opt --allow-unregistered-dialect --mlir-print-op-generic --mlir-print-debuginfo --mlir-print-local-scope %t.loops | grafo opt - -o %t.loops.local
// RUN: mlir-opt --allow-unregistered-dialect --mlir-print-op-generic %t.loops | grafo opt - | filecheck %s
// The diffs come last: lit's builtin diff leaves PYTHONPATH pointing at lit for later commands.
// RUN: diff %t.frontend %t.frontend.back
// RUN: diff %t.optimized %t.optimized.back
// RUN: diff %t.loops %t.loops.back
// RUN: diff %t.loops %t.loops.local

/// grafo reads back what mlir-opt prints of grafo's IR at every stage: with its debug info,
/// the text grafo prints again is grafo's own, byte for byte. Upstream writes inherent
/// attributes as properties, adds default fast-math and overflow flags, and moves locations
/// into #loc aliases after the module (in place with --mlir-print-local-scope) and gives block
/// arguments locations; grafo drops the default flags and the block argument locations.

// UPSTREAM: "func.func"() <{function_type = {{.*}}, sym_name = "softmax"}>
// UPSTREAM: ^bb0(%arg0: memref<?x?xf32, strided<[?, ?], offset: ?>> loc({{.*}})):
// UPSTREAM: "arith.constant"() <{value = 0 : index}> : () -> index loc(#loc{{[0-9]+}})
// UPSTREAM: "arith.maximumf"({{.*}}) <{fastmath = #arith.fastmath<none>}> {grafo.nsz}
// UPSTREAM: "arith.addi"({{.*}}) <{overflowFlags = #arith.overflow<none>}>
// UPSTREAM: }) : () -> () loc(#loc)
// UPSTREAM-NEXT: #loc = loc(unknown)

/// Without debug info the meaning is kept; the locations are unknown.

// CHECK-LABEL: "func.func"() ({
// CHECK: "arith.maximumf"(%{{.*}}, %{{.*}}) {grafo.nsz} : (f32, f32) -> f32 loc(unknown)
// CHECK-NOT: fastmath
// CHECK-NOT: overflow
// CHECK: {function_type = (memref<?x?xf32, strided<[?, ?], offset: ?>>) -> memref<?x?xf32>, sym_name = "softmax"} : () -> () loc(unknown)
