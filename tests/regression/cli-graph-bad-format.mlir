// RUN: not grafo graph %S/inputs/constructs.py:binop --signature "f64, f64, f64" -o %t.bmp 2>&1 | filecheck %s

/// An output extension that is no graph format is a one-line error listing the formats.

// CHECK: error: unknown graph format 'bmp'; formats: dot, svg, png, pdf
