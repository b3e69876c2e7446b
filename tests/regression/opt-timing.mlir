// RUN: grafo opt %s --pass-pipeline=fold,cse,dce --timing 2>&1 >/dev/null | filecheck %s

/// --timing reports the wall time of every pass and the total on stderr, as --mlir-timing.

// CHECK: Execution time report
// CHECK: Total Execution Time: {{[0-9.]+}} seconds
// CHECK: ----Wall Time----  ----Name----
// CHECK-NEXT: {{[0-9.]+}} ({{ *[0-9.]+}}%)  fold
// CHECK-NEXT: {{[0-9.]+}} ({{ *[0-9.]+}}%)  cse
// CHECK-NEXT: {{[0-9.]+}} ({{ *[0-9.]+}}%)  dce
// CHECK-NEXT: {{[0-9.]+}} (100.0%)  Total
"builtin.module"() ({
  "func.func"() ({
  ^bb0(%x: i32):
    "func.return"(%x) : (i32) -> ()
  }) {function_type = (i32) -> i32, sym_name = "f"} : () -> ()
}) : () -> ()
