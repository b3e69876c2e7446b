// RUN: not grafo opt %s 2>&1 | filecheck %s

/// A module region without a block is invalid (upstream needs exactly one); the message says how to write it.

// CHECK: error: 'builtin.module' op requires one block in its region, has 0 (an empty module is written with the block label ^bb0:)
"builtin.module"() ({
}) : () -> ()
