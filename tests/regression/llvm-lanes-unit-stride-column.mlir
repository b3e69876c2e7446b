// RUN: grafo translate %s --to=llvm | filecheck %s
// RUN: grafo translate %s --to=llvm --mcpu=haswell | filecheck %s
// RUN: grafo translate %s --to=llvm --mcpu=skylake-avx512 | filecheck %s
// RUN: grafo translate %s --to=llvm --mcpu=znver4 | filecheck %s

/// A grafo.lanes loop that reads down a column (its induction variable indexes dim 0 of a
/// strided memref, as a sum over the first axis of a Fortran-ordered array does) is emitted
/// twice too: with the stride of dim 0 (descriptor bytes 40) taken as 1 when it is, so the
/// eight lanes load as one vector, and as it is otherwise (eight scalar loads).

// CHECK-LABEL: define {{.*}}@column_sum(
// CHECK: getelementptr {{.*}}i8, ptr %{{.*}}, i64 40
// CHECK: icmp eq i64 %{{.*}}, 1
// CHECK: phi <8 x float>
// CHECK: load <8 x float>
// CHECK: fadd <8 x float>
"builtin.module"() ({
  "func.func"() ({
  ^bb0(%a: memref<?x?xf32, strided<[?, ?], offset: ?>>, %j: index):
    %c0 = "arith.constant"() {value = 0 : index} : () -> index
    %c1 = "arith.constant"() {value = 1 : index} : () -> index
    %c2 = "arith.constant"() {value = 2 : index} : () -> index
    %c3 = "arith.constant"() {value = 3 : index} : () -> index
    %c4 = "arith.constant"() {value = 4 : index} : () -> index
    %c5 = "arith.constant"() {value = 5 : index} : () -> index
    %c6 = "arith.constant"() {value = 6 : index} : () -> index
    %c7 = "arith.constant"() {value = 7 : index} : () -> index
    %c8 = "arith.constant"() {value = 8 : index} : () -> index
    %z = "arith.constant"() {value = 0.0 : f32} : () -> f32
    %n = "memref.dim"(%a, %c0) : (memref<?x?xf32, strided<[?, ?], offset: ?>>, index) -> index
    %q = "arith.divsi"(%n, %c8) : (index, index) -> index
    %full = "arith.muli"(%q, %c8) : (index, index) -> index
    %r:8 = "scf.for"(%c0, %full, %c8, %z, %z, %z, %z, %z, %z, %z, %z) ({
    ^bb0(%i: index, %s0: f32, %s1: f32, %s2: f32, %s3: f32, %s4: f32, %s5: f32, %s6: f32, %s7: f32):
      %i1 = "arith.addi"(%i, %c1) : (index, index) -> index
      %i2 = "arith.addi"(%i, %c2) : (index, index) -> index
      %i3 = "arith.addi"(%i, %c3) : (index, index) -> index
      %i4 = "arith.addi"(%i, %c4) : (index, index) -> index
      %i5 = "arith.addi"(%i, %c5) : (index, index) -> index
      %i6 = "arith.addi"(%i, %c6) : (index, index) -> index
      %i7 = "arith.addi"(%i, %c7) : (index, index) -> index
      %x0 = "memref.load"(%a, %i, %j) : (memref<?x?xf32, strided<[?, ?], offset: ?>>, index, index) -> f32
      %x1 = "memref.load"(%a, %i1, %j) : (memref<?x?xf32, strided<[?, ?], offset: ?>>, index, index) -> f32
      %x2 = "memref.load"(%a, %i2, %j) : (memref<?x?xf32, strided<[?, ?], offset: ?>>, index, index) -> f32
      %x3 = "memref.load"(%a, %i3, %j) : (memref<?x?xf32, strided<[?, ?], offset: ?>>, index, index) -> f32
      %x4 = "memref.load"(%a, %i4, %j) : (memref<?x?xf32, strided<[?, ?], offset: ?>>, index, index) -> f32
      %x5 = "memref.load"(%a, %i5, %j) : (memref<?x?xf32, strided<[?, ?], offset: ?>>, index, index) -> f32
      %x6 = "memref.load"(%a, %i6, %j) : (memref<?x?xf32, strided<[?, ?], offset: ?>>, index, index) -> f32
      %x7 = "memref.load"(%a, %i7, %j) : (memref<?x?xf32, strided<[?, ?], offset: ?>>, index, index) -> f32
      %t0 = "arith.addf"(%s0, %x0) : (f32, f32) -> f32
      %t1 = "arith.addf"(%s1, %x1) : (f32, f32) -> f32
      %t2 = "arith.addf"(%s2, %x2) : (f32, f32) -> f32
      %t3 = "arith.addf"(%s3, %x3) : (f32, f32) -> f32
      %t4 = "arith.addf"(%s4, %x4) : (f32, f32) -> f32
      %t5 = "arith.addf"(%s5, %x5) : (f32, f32) -> f32
      %t6 = "arith.addf"(%s6, %x6) : (f32, f32) -> f32
      %t7 = "arith.addf"(%s7, %x7) : (f32, f32) -> f32
      "scf.yield"(%t0, %t1, %t2, %t3, %t4, %t5, %t6, %t7) : (f32, f32, f32, f32, f32, f32, f32, f32) -> ()
    }) {grafo.lanes = 8 : i64} : (index, index, index, f32, f32, f32, f32, f32, f32, f32, f32) -> (f32, f32, f32, f32, f32, f32, f32, f32)
    %a01 = "arith.addf"(%r#0, %r#1) : (f32, f32) -> f32
    %a23 = "arith.addf"(%r#2, %r#3) : (f32, f32) -> f32
    %a45 = "arith.addf"(%r#4, %r#5) : (f32, f32) -> f32
    %a67 = "arith.addf"(%r#6, %r#7) : (f32, f32) -> f32
    %b0 = "arith.addf"(%a01, %a23) : (f32, f32) -> f32
    %b1 = "arith.addf"(%a45, %a67) : (f32, f32) -> f32
    %s = "arith.addf"(%b0, %b1) : (f32, f32) -> f32
    "func.return"(%s) : (f32) -> ()
  }) {function_type = (memref<?x?xf32, strided<[?, ?], offset: ?>>, index) -> f32, sym_name = "column_sum"} : () -> ()
}) : () -> () loc(unknown)
