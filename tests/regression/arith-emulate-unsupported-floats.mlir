// RUN: grafo opt %s --pass-pipeline=arith-emulate-unsupported-floats | filecheck %s

/// f16 arithmetic and comparisons run in f32 between an extf of each f16 operand and a
/// truncf of each f16 result; selects, constants, bit casts and terminators keep f16.
// CHECK-LABEL: "builtin.module"
// CHECK: %[[C:.*]] = "arith.constant"() {value = 1.5 : f16} : () -> f16
// CHECK: %[[X:.*]] = "arith.extf"(%arg0) : (f16) -> f32
// CHECK-NEXT: %[[Y:.*]] = "arith.extf"(%[[C]]) : (f16) -> f32
// CHECK-NEXT: %[[S:.*]] = "arith.addf"(%[[X]], %[[Y]]) : (f32, f32) -> f32
// CHECK-NEXT: %[[S16:.*]] = "arith.truncf"(%[[S]]) : (f32) -> f16
// CHECK: %[[L:.*]] = "arith.extf"(%[[S16]]) : (f16) -> f32
// CHECK-NEXT: %[[R:.*]] = "arith.extf"(%arg0) : (f16) -> f32
// CHECK-NEXT: %[[LT:.*]] = "arith.cmpf"(%[[L]], %[[R]]) {predicate = 4 : i64} : (f32, f32) -> i1
// CHECK-NEXT: %[[M:.*]] = "arith.select"(%[[LT]], %[[S16]], %arg0) : (i1, f16, f16) -> f16
// CHECK-NEXT: %[[WM:.*]] = "arith.extf"(%[[M]]) : (f16) -> f32
// CHECK-NEXT: %[[I:.*]] = "arith.fptosi"(%[[WM]]) : (f32) -> i32
// CHECK-NEXT: %[[B:.*]] = "arith.bitcast"(%[[M]]) : (f16) -> i16
// CHECK-NEXT: "func.return"(%[[M]], %[[I]], %[[B]]) : (f16, i32, i16) -> ()
"builtin.module"() ({
  "func.func"() ({
  ^bb0(%a: f16):
    %c = "arith.constant"() {value = 1.5 : f16} : () -> f16
    %s = "arith.addf"(%a, %c) : (f16, f16) -> f16
    %lt = "arith.cmpf"(%s, %a) {predicate = 4 : i64} : (f16, f16) -> i1
    %m = "arith.select"(%lt, %s, %a) : (i1, f16, f16) -> f16
    %i = "arith.fptosi"(%m) : (f16) -> i32
    %b = "arith.bitcast"(%m) : (f16) -> i16
    "func.return"(%m, %i, %b) : (f16, i32, i16) -> ()
  }) {function_type = (f16) -> (f16, i32, i16), sym_name = "f"} : () -> ()
}) : () -> ()
