// RUN: grafo opt %s | grafo opt - | filecheck %s

/// memref.alloc prints MLIR's operandSegmentSizes property (dynamic sizes, no symbols), as mlir-opt needs.

// CHECK: ^bb0(%[[N:.*]]: index, %[[M:.*]]: index):
// CHECK-NEXT: %[[A:.*]] = "memref.alloc"(%[[N]], %[[M]]) <{operandSegmentSizes = array<i32: 2, 0>}> : (index, index) -> memref<?x?xf64>
// CHECK-NEXT: %[[B:.*]] = "memref.alloc"() <{operandSegmentSizes = array<i32: 0, 0>}> : () -> memref<4xi1>
// CHECK-NEXT: "memref.dealloc"(%[[B]])
// CHECK-NEXT: "func.return"(%[[A]])
// CHECK-LABEL: sym_name = "alloc"
"builtin.module"() ({
  "func.func"() ({
  ^bb0(%n: index, %m: index):
    %a = "memref.alloc"(%n, %m) : (index, index) -> memref<?x?xf64>
    %b = "memref.alloc"() <{operandSegmentSizes = array<i32: 0, 0>}> : () -> memref<4xi1>
    "memref.dealloc"(%b) : (memref<4xi1>) -> ()
    "func.return"(%a) : (memref<?x?xf64>) -> ()
  }) {function_type = (index, index) -> memref<?x?xf64>, sym_name = "alloc"} : () -> ()
}) : () -> ()
