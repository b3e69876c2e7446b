// RUN: not grafo opt %s --pass-pipeline=cse,frobnicate 2>&1 | filecheck %s

/// An unknown pass name is reported with the list of known passes, without a traceback.

// CHECK: error: unknown pass 'frobnicate' in pipeline 'cse,frobnicate'; known passes: arith-emulate-unsupported-floats, canonicalize, cse, dce, drop-bounds-checks, fold
// CHECK-NOT: Traceback
"builtin.module"() ({
^bb0:
}) : () -> ()
