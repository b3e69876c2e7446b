// RUN: grafo opt %s | grafo opt - | filecheck %s

/// Strided memref types of several ranks and the 0-d case print back unchanged.

// CHECK: ^bb0(%[[A:.*]]: memref<?x4xf32, strided<[?, ?], offset: ?>>, %[[B:.*]]: memref<i1, strided<[], offset: ?>>, %[[C:.*]]: memref<2x?x3xui8>):
// CHECK-NEXT: "func.return"(%[[C]], %[[A]])
// CHECK-LABEL: sym_name = "types"
"builtin.module"() ({
  "func.func"() ({
  ^bb0(%a: memref<?x4xf32, strided<[?, ?], offset: ?>>, %b: memref<i1, strided<[], offset: ?>>, %c: memref<2x?x3xui8>):
    "func.return"(%c, %a) : (memref<2x?x3xui8>, memref<?x4xf32, strided<[?, ?], offset: ?>>) -> ()
  }) {function_type = (memref<?x4xf32, strided<[?, ?], offset: ?>>, memref<i1, strided<[], offset: ?>>, memref<2x?x3xui8>) -> (memref<2x?x3xui8>, memref<?x4xf32, strided<[?, ?], offset: ?>>), sym_name = "types"} : () -> ()
}) : () -> ()
