// RUN: grafo opt %s | grafo opt - | filecheck %s

/// complex<f32>/complex<f64> (MLIR's builtin complex type), !py.complex, complex.constant's
/// [re, im] value, complex dense constants in hex form and complex ops print back unchanged;
/// upstream's (re,im) dense elements read as the same constant, printed in hex.

// CHECK: ^bb0(%[[A:.*]]: tensor<?xcomplex<f64>>, %[[B:.*]]: memref<2xcomplex<f32>, strided<[?], offset: ?>>, %[[C:.*]]: !py.complex, %[[D:.*]]: complex<f32>):
// CHECK: "np.constant"() {value = dense<"0x000000000000F03F00000000000000C0"> : tensor<1xcomplex<f64>>} : () -> tensor<1xcomplex<f64>>
// CHECK: "np.constant"() {value = dense<"0x0000C03F000000400000C07F00000080"> : tensor<2xcomplex<f32>>}
// CHECK: %[[K:.*]] = "complex.constant"() {value = [1.5 : f32, -0.0 : f32]} : () -> complex<f32>
// CHECK: %[[S:.*]] = "complex.add"(%[[D]], %[[K]]) : (complex<f32>, complex<f32>) -> complex<f32>
// CHECK: "complex.re"(%[[S]]) : (complex<f32>) -> f32
// CHECK-LABEL: sym_name = "types"
"builtin.module"() ({
  "func.func"() ({
  ^bb0(%a: tensor<?xcomplex<f64>>, %b: memref<2xcomplex<f32>, strided<[?], offset: ?>>, %c: !py.complex, %d: complex<f32>):
    %0 = "np.constant"() {value = dense<"0x000000000000F03F00000000000000C0"> : tensor<1xcomplex<f64>>} : () -> tensor<1xcomplex<f64>>
    %9 = "np.constant"() {value = dense<[(1.5,2.0), (0x7FC00000,-0.0)]> : tensor<2xcomplex<f32>>} : () -> tensor<2xcomplex<f32>>
    %1 = "complex.constant"() {value = [1.5 : f32, -0.0 : f32]} : () -> complex<f32>
    %2 = "complex.add"(%d, %1) : (complex<f32>, complex<f32>) -> complex<f32>
    %3 = "complex.re"(%2) : (complex<f32>) -> f32
    "func.return"(%3) : (f32) -> ()
  }) {function_type = (tensor<?xcomplex<f64>>, memref<2xcomplex<f32>, strided<[?], offset: ?>>, !py.complex, complex<f32>) -> f32, sym_name = "types"} : () -> ()
}) : () -> ()
