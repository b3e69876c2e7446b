// RUN: not grafo opt %s --split-input-file 2>&1 | filecheck %s

/// Each op checks its attributes against its definition: required ones present, each of its
/// kind and range; the grafo.* loop hints too, and an unknown grafo.* name is an error.

// CHECK-LABEL: k.py:3:5: error: 'arith.cmpi' op requires attribute 'predicate' (an i64 integer naming one of 0 (eq), 1 (ne), {{.*}})
"builtin.module"() ({
  "func.func"() ({
  ^bb0(%a: i64, %b: i64):
    %0 = "arith.cmpi"(%a, %b) : (i64, i64) -> i1 loc("k.py":3:5)
    "func.return"(%0) : (i1) -> ()
  }) {function_type = (i64, i64) -> i1, sym_name = "no_predicate"} : () -> ()
}) : () -> ()

// -----

// CHECK-LABEL: k.py:4:5: error: 'arith.cmpi' op attribute 'predicate' must be an i64 integer naming one of {{.*}} 9 (uge), got 77 : i64
"builtin.module"() ({
  "func.func"() ({
  ^bb0(%a: i64, %b: i64):
    %0 = "arith.cmpi"(%a, %b) {predicate = 77 : i64} : (i64, i64) -> i1 loc("k.py":4:5)
    "func.return"(%0) : (i1) -> ()
  }) {function_type = (i64, i64) -> i1, sym_name = "predicate_out_of_range"} : () -> ()
}) : () -> ()

// -----

// CHECK-LABEL: k.py:5:5: error: 'np.constant' op attribute 'value' must be an integer, float, complex ([re, im]) or dense elements attribute, got "max"
"builtin.module"() ({
  "func.func"() ({
    %0 = "np.constant"() {value = "max"} : () -> f32 loc("k.py":5:5)
    "func.return"(%0) : (f32) -> ()
  }) {function_type = () -> f32, sym_name = "string_constant"} : () -> ()
}) : () -> ()

// -----

// CHECK-LABEL: k.py:6:5: error: 'arith.constant' op 'value' = 2.5 : f64 does not have the result type i64
"builtin.module"() ({
  "func.func"() ({
    %0 = "arith.constant"() {value = 2.5 : f64} : () -> i64 loc("k.py":6:5)
    "func.return"(%0) : (i64) -> ()
  }) {function_type = () -> i64, sym_name = "float_for_int"} : () -> ()
}) : () -> ()

// -----

// CHECK-LABEL: k.py:7:5: error: 'np.reduce' op axis 1 is out of bounds for array of dimension 1
"builtin.module"() ({
  "func.func"() ({
  ^bb0(%x: tensor<?xf32>):
    %0 = "np.reduce"(%x) {axes = [1], keepdims = false, kind = "sum"} : (tensor<?xf32>) -> f32 loc("k.py":7:5)
    "func.return"(%0) : (f32) -> ()
  }) {function_type = (tensor<?xf32>) -> f32, sym_name = "bad_axis"} : () -> ()
}) : () -> ()

// -----

// CHECK-LABEL: k.py:8:5: error: 'np.reduce' op attribute 'kind' must be one of the strings "sum", "prod", "max", "min", "any", "all", got "mean"
"builtin.module"() ({
  "func.func"() ({
  ^bb0(%x: tensor<?xf32>):
    %0 = "np.reduce"(%x) {axes = [0], kind = "mean"} : (tensor<?xf32>) -> f32 loc("k.py":8:5)
    "func.return"(%0) : (f32) -> ()
  }) {function_type = (tensor<?xf32>) -> f32, sym_name = "bad_kind"} : () -> ()
}) : () -> ()

// -----

// CHECK-LABEL: k.py:9:5: error: 'scf.for' op attribute 'grafo.lanes' must be an i64 integer >= 1, got 0 : i64
"builtin.module"() ({
  "func.func"() ({
  ^bb0(%n: index, %x: f32):
    %c0 = "arith.constant"() {value = 0 : index} : () -> index
    %c1 = "arith.constant"() {value = 1 : index} : () -> index
    %r = "scf.for"(%c0, %n, %c1, %x) ({
    ^bb0(%i: index, %acc: f32):
      "scf.yield"(%acc) : (f32) -> ()
    }) {grafo.lanes = 0} : (index, index, index, f32) -> f32 loc("k.py":9:5)
    "func.return"(%r) : (f32) -> ()
  }) {function_type = (index, f32) -> f32, sym_name = "zero_lanes"} : () -> ()
}) : () -> ()

// -----

// CHECK-LABEL: k.py:10:5: error: 'scf.for' op 'grafo.lanes' = 2 needs iteration values in groups of 2 scalars of one type, got (f32)
"builtin.module"() ({
  "func.func"() ({
  ^bb0(%n: index, %x: f32):
    %c0 = "arith.constant"() {value = 0 : index} : () -> index
    %c1 = "arith.constant"() {value = 1 : index} : () -> index
    %r = "scf.for"(%c0, %n, %c1, %x) ({
    ^bb0(%i: index, %acc: f32):
      "scf.yield"(%acc) : (f32) -> ()
    }) {grafo.lanes = 2} : (index, index, index, f32) -> f32 loc("k.py":10:5)
    "func.return"(%r) : (f32) -> ()
  }) {function_type = (index, f32) -> f32, sym_name = "lanes_of_one"} : () -> ()
}) : () -> ()

// -----

// CHECK-LABEL: k.py:11:5: error: 'scf.for' op 'grafo.paralel' is not an attribute of 'scf.for'
"builtin.module"() ({
  "func.func"() ({
  ^bb0(%n: index):
    %c0 = "arith.constant"() {value = 0 : index} : () -> index
    %c1 = "arith.constant"() {value = 1 : index} : () -> index
    "scf.for"(%c0, %n, %c1) ({
    ^bb0(%i: index):
      "scf.yield"() : () -> ()
    }) {grafo.paralel} : (index, index, index) -> () loc("k.py":11:5)
    "func.return"() : () -> ()
  }) {function_type = (index) -> (), sym_name = "misspelled_hint"} : () -> ()
}) : () -> ()

// -----

// CHECK-LABEL: k.py:12:5: error: 'grafo.check' op 'message' is not a format string of 1 integer parameter(s): IndexError: {{.*}}
"builtin.module"() ({
  "func.func"() ({
  ^bb0(%ok: i1, %n: i64):
    "grafo.check"(%ok, %n) {kind = "IndexError", message = "index {1} is out of bounds"} : (i1, i64) -> () loc("k.py":12:5)
    "func.return"() : () -> ()
  }) {function_type = (i1, i64) -> (), sym_name = "message_fields"} : () -> ()
}) : () -> ()
