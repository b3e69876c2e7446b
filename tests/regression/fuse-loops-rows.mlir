// RUN: grafo opt %s --pass-pipeline=fuse-loops | filecheck %s

/// Three parallel row loops (softmax's shape: a row max into %m, exp rows into %e, then
/// %e scaled by %m) fuse into one: every access to %m and %e indexes its first dim with the
/// loop's induction variable. The alloc between the loops moves above the fused loop, the
/// second and third bodies follow the first with their induction variable replaced, and
/// grafo.work adds up where both loops had it.

"builtin.module"() ({
  // CHECK: %[[M:.*]] = "memref.alloc"
  // CHECK-NEXT: %[[E:.*]] = "memref.alloc"
  // CHECK-NEXT: "scf.for"(%{{.*}}) ({
  // CHECK-NEXT: ^bb0(%[[I:.*]]: index):
  // CHECK: "memref.store"(%{{.*}}, %[[M]], %[[I]])
  // CHECK: "memref.load"(%[[M]], %[[I]])
  // CHECK: "memref.store"(%{{.*}}, %[[E]], %[[I]], %{{.*}})
  // CHECK: "memref.load"(%[[E]], %[[I]], %{{.*}})
  // CHECK: }) {grafo.parallel}
  // CHECK-NOT: "scf.for"
  // CHECK: "func.return"(%[[E]])
  "func.func"() ({
  ^bb0(%x: memref<64x32xf32>):
    %c0 = "arith.constant"() {value = 0 : index} : () -> index
    %c1 = "arith.constant"() {value = 1 : index} : () -> index
    %c32 = "arith.constant"() {value = 32 : index} : () -> index
    %c64 = "arith.constant"() {value = 64 : index} : () -> index
    %ninf = "arith.constant"() {value = 0xFF800000 : f32} : () -> f32
    %m = "memref.alloc"() <{operandSegmentSizes = array<i32: 0, 0>}> : () -> memref<64xf32>
    "scf.for"(%c0, %c64, %c1) ({
    ^bb0(%i: index):
      %r = "scf.for"(%c0, %c32, %c1, %ninf) ({
      ^bb0(%j: index, %acc: f32):
        %v = "memref.load"(%x, %i, %j) : (memref<64x32xf32>, index, index) -> f32
        %n = "arith.maximumf"(%acc, %v) : (f32, f32) -> f32
        "scf.yield"(%n) : (f32) -> ()
      }) : (index, index, index, f32) -> f32
      "memref.store"(%r, %m, %i) : (f32, memref<64xf32>, index) -> ()
      "scf.yield"() : () -> ()
    }) {grafo.parallel, grafo.work = 32 : i64} : (index, index, index) -> ()
    %e = "memref.alloc"() <{operandSegmentSizes = array<i32: 0, 0>}> : () -> memref<64x32xf32>
    "scf.for"(%c0, %c64, %c1) ({
    ^bb0(%i2: index):
      "scf.for"(%c0, %c32, %c1) ({
      ^bb0(%j2: index):
        %v2 = "memref.load"(%x, %i2, %j2) : (memref<64x32xf32>, index, index) -> f32
        %mx = "memref.load"(%m, %i2) : (memref<64xf32>, index) -> f32
        %d = "arith.subf"(%v2, %mx) : (f32, f32) -> f32
        %ex = "math.exp"(%d) : (f32) -> f32
        "memref.store"(%ex, %e, %i2, %j2) : (f32, memref<64x32xf32>, index, index) -> ()
        "scf.yield"() : () -> ()
      }) : (index, index, index) -> ()
      "scf.yield"() : () -> ()
    }) {grafo.parallel, grafo.work = 32 : i64} : (index, index, index) -> ()
    "scf.for"(%c0, %c64, %c1) ({
    ^bb0(%i3: index):
      "scf.for"(%c0, %c32, %c1) ({
      ^bb0(%j3: index):
        %v3 = "memref.load"(%e, %i3, %j3) : (memref<64x32xf32>, index, index) -> f32
        %mx3 = "memref.load"(%m, %i3) : (memref<64xf32>, index) -> f32
        %q = "arith.divf"(%v3, %mx3) : (f32, f32) -> f32
        "memref.store"(%q, %e, %i3, %j3) : (f32, memref<64x32xf32>, index, index) -> ()
        "scf.yield"() : () -> ()
      }) : (index, index, index) -> ()
      "scf.yield"() : () -> ()
    }) {grafo.parallel} : (index, index, index) -> ()
    "memref.dealloc"(%m) : (memref<64xf32>) -> ()
    "func.return"(%e) : (memref<64x32xf32>) -> ()
  }) {function_type = (memref<64x32xf32>) -> memref<64x32xf32>, sym_name = "rows"} : () -> ()
}) : () -> ()
