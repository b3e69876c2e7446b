// RUN: grafo translate %s --to=llvm | filecheck %s

/// A parallel loop marked grafo.serial_outlined has one copy of its body: the outlined
/// function, which the threads run through GOMP_parallel and the serial path calls directly
/// on the whole range (the closure's SINGLE field set, so the body takes thread 0 of 1
/// without asking libgomp). An unmarked parallel loop keeps its serial copy inline.

// CHECK-LABEL: define internal void @outlined.impl.par1(
// CHECK: fmul
// CHECK-LABEL: define {{.*}}@outlined(
// CHECK-NOT: fmul
// CHECK: call void @outlined.impl.par1(ptr
// CHECK-NOT: fmul
// CHECK: ret
// CHECK-LABEL: define {{.*}}@inline(
// CHECK: fmul
"builtin.module"() ({
  "func.func"() ({
  ^bb0(%a: memref<?xf32>):
    %c0 = "arith.constant"() {value = 0 : index} : () -> index
    %c1 = "arith.constant"() {value = 1 : index} : () -> index
    %two = "arith.constant"() {value = 2.0 : f32} : () -> f32
    %n = "memref.dim"(%a, %c0) : (memref<?xf32>, index) -> index
    "scf.for"(%c0, %n, %c1) ({
    ^bb0(%i: index):
      %x = "memref.load"(%a, %i) : (memref<?xf32>, index) -> f32
      %y = "arith.mulf"(%x, %two) : (f32, f32) -> f32
      "memref.store"(%y, %a, %i) : (f32, memref<?xf32>, index) -> ()
      "scf.yield"() : () -> ()
    }) {grafo.parallel, grafo.serial_outlined} : (index, index, index) -> ()
    "func.return"() : () -> ()
  }) {sym_name = "outlined", function_type = (memref<?xf32>) -> ()} : () -> ()
  "func.func"() ({
  ^bb0(%a: memref<?xf32>):
    %c0 = "arith.constant"() {value = 0 : index} : () -> index
    %c1 = "arith.constant"() {value = 1 : index} : () -> index
    %two = "arith.constant"() {value = 2.0 : f32} : () -> f32
    %n = "memref.dim"(%a, %c0) : (memref<?xf32>, index) -> index
    "scf.for"(%c0, %n, %c1) ({
    ^bb0(%i: index):
      %x = "memref.load"(%a, %i) : (memref<?xf32>, index) -> f32
      %y = "arith.mulf"(%x, %two) : (f32, f32) -> f32
      "memref.store"(%y, %a, %i) : (f32, memref<?xf32>, index) -> ()
      "scf.yield"() : () -> ()
    }) {grafo.parallel} : (index, index, index) -> ()
    "func.return"() : () -> ()
  }) {sym_name = "inline", function_type = (memref<?xf32>) -> ()} : () -> ()
}) : () -> ()
