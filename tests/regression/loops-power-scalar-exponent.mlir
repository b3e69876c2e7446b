// RUN: grafo ir %S/inputs/constructs.py:power_scalar_exponent --signature "f32[?], f32" --stage loops | filecheck %s

/// x ** p with a run-time scalar p: NumPy's power loop takes sqrt when the scalar exponent is
/// 0.5 (-0.0 ** 0.5 is -0.0, -inf ** 0.5 nan), pow otherwise; the loop selects per element.

// CHECK: ^bb0(%[[X:.*]]: memref<?xf32, strided<[?], offset: ?>>, %[[P:.*]]: f32):
// CHECK: %[[HALF:.*]] = "arith.constant"() {value = 0.5 : f32}
// CHECK: "scf.for"
// CHECK: %[[V:[0-9a-z]+]] = "memref.load"(%[[X]]
// CHECK: %[[IS:[0-9a-z]+]] = "arith.cmpf"(%[[P]], %[[HALF]]) {predicate = 1 : i64}
// CHECK: %[[R:[0-9a-z]+]] = "math.sqrt"(%[[V]])
// CHECK: %[[W:[0-9a-z]+]] = "math.powf"(%[[V]], %[[P]])
// CHECK: "arith.select"(%[[IS]], %[[R]], %[[W]])
