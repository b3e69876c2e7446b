// RUN: grafo ir %S/inputs/constructs.py:global_table --signature "f64[128]" --stage loops | filecheck %s

/// A global array is one read-only grafo.constant buffer (its bytes in hex) that the fused
/// loop reads: no element-by-element stores of the table.

// CHECK: ^bb0(%[[X:.*]]: memref<128xf64, strided<[?], offset: ?>>):
// CHECK: {{^    }}%[[T:.*]] = "grafo.constant"() {value = dense<"0x0000000000000000080402814020803F{{[0-9A-F]+}}"> : tensor<128xf64>} : () -> memref<128xf64>
// CHECK: %[[OUT:.*]] = "memref.alloc"()
// CHECK: "scf.for"
// CHECK: %[[A:.*]] = "memref.load"(%[[X]], %[[I:[a-z0-9]+]])
// CHECK-NEXT: %[[B:.*]] = "memref.load"(%[[T]], %[[I]]) : (memref<128xf64>, index) -> f64
// CHECK-NEXT: %[[P:.*]] = "arith.mulf"(%[[A]], %[[B]])
// CHECK-NEXT: "memref.store"(%[[P]], %[[OUT]], %[[I]])
// CHECK-NOT: "memref.store"
// CHECK-LABEL: sym_name = "global_table"
