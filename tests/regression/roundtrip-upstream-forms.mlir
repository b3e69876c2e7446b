// RUN: grafo opt %s | filecheck %s

/// The forms upstream mlir-opt prints read as grafo's own: aliases before and after the
/// module, locations of every kind (name, call site and fused ones become the first file
/// location they hold), block argument locations, default flags dropped, other flags and
/// dialect attributes kept as text, bit-packed i1 hex, dense_resource blobs.

// CHECK-LABEL: "func.func"() ({
// CHECK-NEXT: ^bb0(%arg0: f32, %arg1: i32):
// CHECK-NEXT: %0 = "arith.addf"(%arg0, %arg0) {fastmath = #arith.fastmath<nnan,ninf>} : (f32, f32) -> f32 loc("k.py":2:3)
// CHECK-NEXT: %1 = "arith.addi"(%arg1, %arg1) {overflowFlags = #arith.overflow<nsw>} : (i32, i32) -> i32 loc("inner.py":7:4)
// CHECK-NEXT: %2 = "arith.mulf"(%0, %0) : (f32, f32) -> f32 loc("k.py":4:2)
// CHECK-NEXT: %3 = "arith.subf"(%2, %arg0) : (f32, f32) -> f32 loc("k.py":5:6)
// CHECK-NEXT: %4 = "np.constant"() {value = dense<[1, 2, 3]> : tensor<3xi32>} : () -> tensor<3xi32> loc(unknown)
// CHECK-NEXT: %5 = "np.constant"() {extra = #my.attr<"a>b" -> <c<d>>>, k = 3 : i64, value = dense<[true, false, true]> : tensor<3xi1>} : () -> tensor<3xi1> loc("k.py":1:1)
// CHECK-NEXT: %6 = "np.constant"() {value = dense<true> : tensor<9xi1>} : () -> tensor<9xi1> loc("k.py":9:9)
// CHECK-NEXT: "func.return"(%3) : (f32) -> () loc("k.py":1:1)
// CHECK-NEXT: }) {function_type = (f32, i32) -> f32, sym_name = "forms"} : () -> () loc(unknown)
#c = 3 : i64
!t = tensor<3xi1>
#loc1 = loc("k.py":1:1)
"builtin.module"() ({
  "func.func"() <{function_type = (f32, i32) -> f32, sym_name = "forms"}> ({
  ^bb0(%a: f32 loc("k.py":1:5), %b: i32 loc(#loc1)):
    %0 = "arith.addf"(%a, %a) <{fastmath = #arith.fastmath<nnan,ninf>}> : (f32, f32) -> f32 loc(#loc13)
    %1 = "arith.addi"(%b, %b) <{overflowFlags = #arith.overflow<nsw>}> : (i32, i32) -> i32 loc(#loc14)
    %2 = "arith.mulf"(%0, %0) <{fastmath = #arith.fastmath<none>}> : (f32, f32) -> f32 loc("mul"("k.py":4:2))
    %3 = "arith.subf"(%2, %a) <{fastmath = #arith.fastmath<none>}> : (f32, f32) -> f32 loc(fused<"tag">[unknown, "k.py":5:6])
    %4 = "np.constant"() {value = dense_resource<blob1> : tensor<3xi32>} : () -> tensor<3xi32> loc("named")
    %5 = "np.constant"() {extra = #my.attr<"a>b" -> <c<d>>>, k = #c, value = dense<"0x05"> : !t} : () -> !t loc(#loc1)
    %6 = "np.constant"() {value = dense<"0xFF"> : tensor<9xi1>} : () -> tensor<9xi1> loc(fused["k.py":9:9, #loc1])
    "func.return"(%3) : (f32) -> () loc(#loc1)
  }) : () -> () loc(#loc)
}) : () -> () loc(#loc)
#loc = loc(unknown)
#loc5 = loc("k.py":2:3)
#loc6 = loc("inner.py":7:4)
#loc13 = loc(fused[#loc5, "k.py":2:9])
#loc14 = loc(callsite(#loc6 at "k.py":3:1))
{-#
  dialect_resources: {
    builtin: {
      blob1: "0x04000000010000000200000003000000"
    }
  }
#-}
