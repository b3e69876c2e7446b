// RUN: not grafo opt %s --split-input-file 2>&1 | filecheck %s

/// Each op checks the kinds and types of its operands and results against its definition;
/// a module's functions have distinct names.

// CHECK-LABEL: k.py:3:5: error: 'arith.addi' op operand #0 must be a signless integer or index, got f32
"builtin.module"() ({
  "func.func"() ({
  ^bb0(%a: f32):
    %0 = "arith.addi"(%a, %a) : (f32, f32) -> f32 loc("k.py":3:5)
    "func.return"(%0) : (f32) -> ()
  }) {function_type = (f32) -> f32, sym_name = "float_addi"} : () -> ()
}) : () -> ()

// -----

// CHECK-LABEL: k.py:4:5: error: 'arith.addf' op requires the same type for all operands and results, got f32, f64, f32
"builtin.module"() ({
  "func.func"() ({
  ^bb0(%a: f32, %b: f64):
    %0 = "arith.addf"(%a, %b) : (f32, f64) -> f32 loc("k.py":4:5)
    "func.return"(%0) : (f32) -> ()
  }) {function_type = (f32, f64) -> f32, sym_name = "mixed_addf"} : () -> ()
}) : () -> ()

// -----

// CHECK-LABEL: k.py:5:5: error: 'memref.load' op needs 2 subscripts for memref<?x4xf32>, has 1
"builtin.module"() ({
  "func.func"() ({
  ^bb0(%m: memref<?x4xf32>, %i: index):
    %0 = "memref.load"(%m, %i) : (memref<?x4xf32>, index) -> f32 loc("k.py":5:5)
    "func.return"(%0) : (f32) -> ()
  }) {function_type = (memref<?x4xf32>, index) -> f32, sym_name = "short_load"} : () -> ()
}) : () -> ()

// -----

// CHECK-LABEL: k.py:6:5: error: 'np.add' op result type tensor<3xf32> does not match the inferred tensor<4xf32>
"builtin.module"() ({
  "func.func"() ({
  ^bb0(%x: tensor<4xf32>):
    %0 = "np.add"(%x, %x) : (tensor<4xf32>, tensor<4xf32>) -> tensor<3xf32> loc("k.py":6:5)
    "func.return"(%0) : (tensor<3xf32>) -> ()
  }) {function_type = (tensor<4xf32>) -> tensor<3xf32>, sym_name = "wrong_shape"} : () -> ()
}) : () -> ()

// -----

// CHECK-LABEL: k.py:7:7: error: 'scf.yield' op forwards (i64), but the enclosing 'scf.if' expects (f32)
"builtin.module"() ({
  "func.func"() ({
  ^bb0(%c: i1, %x: f32, %n: i64):
    %0 = "scf.if"(%c) ({
      "scf.yield"(%n) : (i64) -> () loc("k.py":7:7)
    }, {
      "scf.yield"(%x) : (f32) -> ()
    }) : (i1) -> f32
    "func.return"(%0) : (f32) -> ()
  }) {function_type = (i1, f32, i64) -> f32, sym_name = "yield_type"} : () -> ()
}) : () -> ()

// -----

// CHECK-LABEL: k.py:9:3: error: 'func.func' op redefines the function @f
"builtin.module"() ({
  "func.func"() ({
  ^bb0(%x: f32):
    "func.return"(%x) : (f32) -> ()
  }) {function_type = (f32) -> f32, sym_name = "f"} : () -> () loc("k.py":2:3)
  "func.func"() ({
  ^bb0(%x: f64):
    "func.return"(%x) : (f64) -> ()
  }) {function_type = (f64) -> f64, sym_name = "f"} : () -> () loc("k.py":9:3)
}) : () -> ()
