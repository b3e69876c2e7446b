// RUN: grafo ir %S/inputs/constructs.py:if_elif --signature "f64" --stage frontend | filecheck %s

/// if/elif with early returns nests a second scf.if in the else region and returns f64.

// CHECK: "np.greater"
// CHECK: "scf.if"
// CHECK: }, {
// CHECK: "np.less"
// CHECK: "scf.if"
// CHECK: "func.return"(%{{.*}}) : (f64) -> ()
// CHECK-LABEL: function_type = (f64) -> f64, sym_name = "if_elif"
