// REQUIRES: mlir-opt
// RUN: grafo ir %S/inputs/constructs.py:complex_ops --signature "c64[?], c64[?]" --stage optimized > %t.optimized
// RUN: mlir-opt --allow-unregistered-dialect --mlir-print-op-generic --mlir-print-debuginfo %t.optimized | grafo opt - -o %t.optimized.back
// RUN: grafo ir %S/inputs/constructs.py:complex_ops --signature "c64[?], c64[?]" --stage loops > %t.loops
// RUN: mlir-opt --allow-unregistered-dialect --mlir-print-op-generic --mlir-print-debuginfo %t.loops > %t.upstream
// RUN: filecheck %s < %t.upstream
// RUN: grafo opt %t.upstream -o %t.loops.back
// The diffs come last: lit's builtin diff leaves PYTHONPATH pointing at lit for later commands.
// RUN: diff %t.optimized %t.optimized.back
// RUN: diff %t.loops %t.loops.back

/// Upstream MLIR verifies grafo's complex IR (the builtin complex type, the complex dialect's
/// ops, memrefs of complex elements) and grafo reads back what it prints, byte for byte:
/// the default fast-math flags upstream adds to complex.re and the arithmetic are dropped.

// CHECK: "memref.load"({{.*}}) : (memref<?xcomplex<f32>, strided<[?], offset: ?>>, index) -> complex<f32>
// CHECK: "complex.re"({{.*}}) <{fastmath = #arith.fastmath<none>}> : (complex<f32>) -> f32
// CHECK: "complex.div"({{.*}}) <{fastmath = #arith.fastmath<none>}> : (complex<f32>, complex<f32>) -> complex<f32>
