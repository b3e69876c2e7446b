// RUN: not grafo opt %s 2>&1 | filecheck %s

/// A memref.alloc property that disagrees with the operands is a parse error at the property.

// CHECK: verify-alloc-property.mlir:[[# @LINE + 4]]:{{[0-9]+}}: error: property operandSegmentSizes = array<i32: 0, 0> of 'memref.alloc' does not match its operands, expected array<i32: 1, 0>
"builtin.module"() ({
  "func.func"() ({
  ^bb0(%n: index):
    %a = "memref.alloc"(%n) <{operandSegmentSizes = array<i32: 0, 0>}> : (index) -> memref<?xf32>
    "func.return"(%a) : (memref<?xf32>) -> ()
  }) {function_type = (index) -> memref<?xf32>, sym_name = "f"} : () -> ()
}) : () -> ()
