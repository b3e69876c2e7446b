// RUN: not grafo ir %S/inputs/constructs.py:binop --signature "f64" 2>&1 | filecheck %s

/// A signature with the wrong number of arguments is a one-line error.

// CHECK: error: binop takes 3 argument(s), --signature gives 1
