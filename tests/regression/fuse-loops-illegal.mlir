// RUN: grafo opt %s --split-input-file --pass-pipeline=fuse-loops | filecheck %s

/// Sibling parallel loops that must stay apart.

/// A read of another iteration's element (%y[%c63]) keeps the loops apart.
// CHECK-LABEL: "builtin.module"
// CHECK: "scf.for"
// CHECK: "scf.for"
// CHECK: sym_name = "shifted"
"builtin.module"() ({
  "func.func"() ({
  ^bb0(%x: memref<64xf32>, %y: memref<64xf32>):
    %c0 = "arith.constant"() {value = 0 : index} : () -> index
    %c1 = "arith.constant"() {value = 1 : index} : () -> index
    %c63 = "arith.constant"() {value = 63 : index} : () -> index
    %c64 = "arith.constant"() {value = 64 : index} : () -> index
    "scf.for"(%c0, %c64, %c1) ({
    ^bb0(%i: index):
      %vi = "memref.load"(%x, %i) : (memref<64xf32>, index) -> f32
      "memref.store"(%vi, %y, %i) : (f32, memref<64xf32>, index) -> ()
      "scf.yield"() : () -> ()
    }) {grafo.parallel} : (index, index, index) -> ()
    "scf.for"(%c0, %c64, %c1) ({
    ^bb0(%k: index):
      %wk = "memref.load"(%y, %c63) : (memref<64xf32>, index) -> f32
      "memref.store"(%wk, %x, %k) : (f32, memref<64xf32>, index) -> ()
      "scf.yield"() : () -> ()
    }) {grafo.parallel} : (index, index, index) -> ()
    "func.return"() : () -> ()
  }) {function_type = (memref<64xf32>, memref<64xf32>) -> (), sym_name = "shifted"} : () -> ()
}) : () -> ()

// -----

/// A grafo.check in a loop keeps NumPy's order of errors: no fusion.
// CHECK-LABEL: "builtin.module"
// CHECK: "scf.for"
// CHECK: "scf.for"
// CHECK: sym_name = "check"
"builtin.module"() ({
  "func.func"() ({
  ^bb0(%x: memref<64xf32>, %y: memref<64xf32>):
    %c0 = "arith.constant"() {value = 0 : index} : () -> index
    %c1 = "arith.constant"() {value = 1 : index} : () -> index
    %c63 = "arith.constant"() {value = 63 : index} : () -> index
    %c64 = "arith.constant"() {value = 64 : index} : () -> index
    "scf.for"(%c0, %c64, %c1) ({
    ^bb0(%i: index):
      %vi = "memref.load"(%x, %i) : (memref<64xf32>, index) -> f32
      "memref.store"(%vi, %y, %i) : (f32, memref<64xf32>, index) -> ()
      %t = "arith.constant"() {value = true} : () -> i1
      "grafo.check"(%t) {kind = "ValueError", message = "m"} : (i1) -> ()
      "scf.yield"() : () -> ()
    }) {grafo.parallel} : (index, index, index) -> ()
    "scf.for"(%c0, %c64, %c1) ({
    ^bb0(%k: index):
      %wk = "memref.load"(%y, %k) : (memref<64xf32>, index) -> f32
      "memref.store"(%wk, %x, %k) : (f32, memref<64xf32>, index) -> ()
      "scf.yield"() : () -> ()
    }) {grafo.parallel} : (index, index, index) -> ()
    "func.return"() : () -> ()
  }) {function_type = (memref<64xf32>, memref<64xf32>) -> (), sym_name = "check"} : () -> ()
}) : () -> ()

// -----

/// Different trip counts: no fusion.
// CHECK-LABEL: "builtin.module"
// CHECK: "scf.for"
// CHECK: "scf.for"
// CHECK: sym_name = "bounds"
"builtin.module"() ({
  "func.func"() ({
  ^bb0(%x: memref<64xf32>, %y: memref<64xf32>):
    %c0 = "arith.constant"() {value = 0 : index} : () -> index
    %c1 = "arith.constant"() {value = 1 : index} : () -> index
    %c63 = "arith.constant"() {value = 63 : index} : () -> index
    %c64 = "arith.constant"() {value = 64 : index} : () -> index
    "scf.for"(%c0, %c64, %c1) ({
    ^bb0(%i: index):
      %vi = "memref.load"(%x, %i) : (memref<64xf32>, index) -> f32
      "memref.store"(%vi, %y, %i) : (f32, memref<64xf32>, index) -> ()
      "scf.yield"() : () -> ()
    }) {grafo.parallel} : (index, index, index) -> ()
    "scf.for"(%c0, %c63, %c1) ({
    ^bb0(%k: index):
      %wk = "memref.load"(%y, %k) : (memref<64xf32>, index) -> f32
      "memref.store"(%wk, %x, %k) : (f32, memref<64xf32>, index) -> ()
      "scf.yield"() : () -> ()
    }) {grafo.parallel} : (index, index, index) -> ()
    "func.return"() : () -> ()
  }) {function_type = (memref<64xf32>, memref<64xf32>) -> (), sym_name = "bounds"} : () -> ()
}) : () -> ()

// -----

/// A loop without grafo.parallel is not fused.
// CHECK-LABEL: "builtin.module"
// CHECK: "scf.for"
// CHECK: "scf.for"
// CHECK: sym_name = "serial"
"builtin.module"() ({
  "func.func"() ({
  ^bb0(%x: memref<64xf32>, %y: memref<64xf32>):
    %c0 = "arith.constant"() {value = 0 : index} : () -> index
    %c1 = "arith.constant"() {value = 1 : index} : () -> index
    %c63 = "arith.constant"() {value = 63 : index} : () -> index
    %c64 = "arith.constant"() {value = 64 : index} : () -> index
    "scf.for"(%c0, %c64, %c1) ({
    ^bb0(%i: index):
      %vi = "memref.load"(%x, %i) : (memref<64xf32>, index) -> f32
      "memref.store"(%vi, %y, %i) : (f32, memref<64xf32>, index) -> ()
      "scf.yield"() : () -> ()
    })  : (index, index, index) -> ()
    "scf.for"(%c0, %c64, %c1) ({
    ^bb0(%k: index):
      %wk = "memref.load"(%y, %k) : (memref<64xf32>, index) -> f32
      "memref.store"(%wk, %x, %k) : (f32, memref<64xf32>, index) -> ()
      "scf.yield"() : () -> ()
    }) {grafo.parallel} : (index, index, index) -> ()
    "func.return"() : () -> ()
  }) {function_type = (memref<64xf32>, memref<64xf32>) -> (), sym_name = "serial"} : () -> ()
}) : () -> ()

// -----

/// A store between the loops cannot move above the first: no fusion.
// CHECK-LABEL: "builtin.module"
// CHECK: "scf.for"
// CHECK: "scf.for"
// CHECK: sym_name = "between"
"builtin.module"() ({
  "func.func"() ({
  ^bb0(%x: memref<64xf32>, %y: memref<64xf32>):
    %c0 = "arith.constant"() {value = 0 : index} : () -> index
    %c1 = "arith.constant"() {value = 1 : index} : () -> index
    %c63 = "arith.constant"() {value = 63 : index} : () -> index
    %c64 = "arith.constant"() {value = 64 : index} : () -> index
    %c0f = "arith.constant"() {value = 0.0 : f32} : () -> f32
    "scf.for"(%c0, %c64, %c1) ({
    ^bb0(%i: index):
      %vi = "memref.load"(%x, %i) : (memref<64xf32>, index) -> f32
      "memref.store"(%vi, %y, %i) : (f32, memref<64xf32>, index) -> ()
      "scf.yield"() : () -> ()
    }) {grafo.parallel} : (index, index, index) -> ()
    "memref.store"(%c0f, %y, %c0) : (f32, memref<64xf32>, index) -> ()
    "scf.for"(%c0, %c64, %c1) ({
    ^bb0(%k: index):
      %wk = "memref.load"(%y, %k) : (memref<64xf32>, index) -> f32
      "memref.store"(%wk, %x, %k) : (f32, memref<64xf32>, index) -> ()
      "scf.yield"() : () -> ()
    }) {grafo.parallel} : (index, index, index) -> ()
    "func.return"() : () -> ()
  }) {function_type = (memref<64xf32>, memref<64xf32>) -> (), sym_name = "between"} : () -> ()
}) : () -> ()
