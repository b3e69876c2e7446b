// RUN: grafo translate %s --to=llvm --mcpu=znver4 | filecheck %s
// RUN: grafo translate %s --to=llvm --mcpu=haswell | filecheck %s

/// An scf.for marked grafo.no_unroll gets a loop ID on its back edge that names itself first
/// and asks LLVM not to unroll the loop (llvm.loop.unroll.disable): its optimized body keeps
/// one add per iteration, where the same loop unmarked is unrolled. Pinned to CPU models
/// whose cost model unrolls it (AMD Zen 2's does not).

// CHECK-LABEL: define {{.*}}@sum_no_unroll(
// CHECK: fadd float
// CHECK-NOT: fadd
// CHECK: br {{.*}}, !llvm.loop ![[ID:[0-9]+]]
// CHECK-LABEL: define {{.*}}@sum_plain(
// CHECK: %unroll_iter
// CHECK-COUNT-8: fadd float
// CHECK: ![[ID]] = distinct !{![[ID]], ![[P:[0-9]+]]}
// CHECK: ![[P]] = !{!"llvm.loop.unroll.disable"}
"builtin.module"() ({
  "func.func"() ({
  ^bb0(%a: memref<?xf32>):
    %c0 = "arith.constant"() {value = 0 : index} : () -> index
    %c1 = "arith.constant"() {value = 1 : index} : () -> index
    %z = "arith.constant"() {value = 0.0 : f32} : () -> f32
    %n = "memref.dim"(%a, %c0) : (memref<?xf32>, index) -> index
    %s = "scf.for"(%c0, %n, %c1, %z) ({
    ^bb0(%i: index, %acc: f32):
      %x = "memref.load"(%a, %i) : (memref<?xf32>, index) -> f32
      %t = "arith.addf"(%acc, %x) : (f32, f32) -> f32
      "scf.yield"(%t) : (f32) -> ()
    }) {grafo.no_unroll} : (index, index, index, f32) -> f32
    "func.return"(%s) : (f32) -> ()
  }) {sym_name = "sum_no_unroll", function_type = (memref<?xf32>) -> f32} : () -> ()
  "func.func"() ({
  ^bb0(%a: memref<?xf32>):
    %c0 = "arith.constant"() {value = 0 : index} : () -> index
    %c1 = "arith.constant"() {value = 1 : index} : () -> index
    %z = "arith.constant"() {value = 0.0 : f32} : () -> f32
    %n = "memref.dim"(%a, %c0) : (memref<?xf32>, index) -> index
    %s = "scf.for"(%c0, %n, %c1, %z) ({
    ^bb0(%i: index, %acc: f32):
      %x = "memref.load"(%a, %i) : (memref<?xf32>, index) -> f32
      %t = "arith.addf"(%acc, %x) : (f32, f32) -> f32
      "scf.yield"(%t) : (f32) -> ()
    }) : (index, index, index, f32) -> f32
    "func.return"(%s) : (f32) -> ()
  }) {sym_name = "sum_plain", function_type = (memref<?xf32>) -> f32} : () -> ()
}) : () -> ()
