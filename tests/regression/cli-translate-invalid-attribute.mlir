// RUN: not grafo translate %s --to=llvm 2>&1 | filecheck %s

/// grafo translate rejects an op whose attribute the LLVM backend could not read on one line
/// with its position, before any lowering runs.

// CHECK: k.py:4:10: error: 'arith.cmpf' op attribute 'predicate' must be an i64 integer naming one of 0 (false), {{.*}} 15 (true), got "olt"
// CHECK-NOT: Traceback
"builtin.module"() ({
  "func.func"() ({
  ^bb0(%a: f32, %b: f32):
    %0 = "arith.cmpf"(%a, %b) {predicate = "olt"} : (f32, f32) -> i1 loc("k.py":4:10)
    "func.return"(%0) : (i1) -> ()
  }) {function_type = (f32, f32) -> i1, sym_name = "f"} : () -> ()
}) : () -> ()
