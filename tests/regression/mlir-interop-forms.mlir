// REQUIRES: mlir-opt
// RUN: grafo opt %s -o %t.own
// RUN: mlir-opt --allow-unregistered-dialect --mlir-print-op-generic --mlir-print-debuginfo --mlir-print-elementsattrs-with-hex-if-larger=1 %s > %t.upstream
// RUN: filecheck %s --check-prefix=UPSTREAM < %t.upstream
// RUN: grafo opt %t.upstream -o %t.back
// The diffs come last: lit's builtin diff leaves PYTHONPATH pointing at lit for later commands.
// RUN: diff %t.own %t.back

/// Constants that mlir-opt prints in hex (bit-packed for i1), a dense_resource blob that it
/// prints in its resource section, flags and attributes grafo does not model, and locations
/// in aliases read back as what grafo reads from this file itself.

// UPSTREAM: dense<"0x0D"> : tensor<4xi1>
// UPSTREAM: dense<"0x0000803F000000C0"> : tensor<2xf32>
// UPSTREAM: dense<"0x01FF"> : tensor<2xui8>
// UPSTREAM: dense_resource<blob1> : tensor<3xi64>
// UPSTREAM: <{fastmath = #arith.fastmath<fast>}>
// UPSTREAM: loc(#loc{{[0-9]*}})
// UPSTREAM: {-#
// UPSTREAM: blob1: "0x08000000
"builtin.module"() ({
  "func.func"() ({
  ^bb0(%x: f32):
    %0 = "np.constant"() {value = dense<[true, false, true, true]> : tensor<4xi1>} : () -> tensor<4xi1> loc("k.py":2:5)
    %1 = "np.constant"() {value = dense<[1.0, -2.0]> : tensor<2xf32>} : () -> tensor<2xf32> loc("k.py":3:5)
    %2 = "np.constant"() {value = dense<[1, 255]> : tensor<2xui8>} : () -> tensor<2xui8> loc("k.py":4:5)
    %3 = "np.constant"() {value = dense_resource<blob1> : tensor<3xi64>} : () -> tensor<3xi64> loc("k.py":5:5)
    %4 = "arith.mulf"(%x, %x) {fastmath = #arith.fastmath<fast>} : (f32, f32) -> f32 loc("k.py":6:5)
    "func.return"(%0, %1, %2, %3, %4) : (tensor<4xi1>, tensor<2xf32>, tensor<2xui8>, tensor<3xi64>, f32) -> () loc("k.py":7:5)
  }) {function_type = (f32) -> (tensor<4xi1>, tensor<2xf32>, tensor<2xui8>, tensor<3xi64>, f32), sym_name = "forms"} : () -> () loc("k.py":1:1)
}) : () -> () loc(unknown)
{-#
  dialect_resources: {
    builtin: {
      blob1: "0x08000000010000000000000002000000000000000300000000000000"
    }
  }
#-}
