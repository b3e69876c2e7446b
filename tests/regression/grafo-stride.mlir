// RUN: grafo opt %s | grafo opt - | filecheck %s
// RUN: grafo translate %s --to=llvm | filecheck %s --check-prefix=LLVM

/// grafo.stride reads the element stride of one dim from a memref's descriptor (the single-
/// value form of memref.extract_strided_metadata). It prints and parses back unchanged; a
/// strided memref's stride is a descriptor field ({allocated, aligned, offset, sizes[2],
/// strides[2]}: strides at bytes 40 and 48), chosen by a select for a run-time dim, and a
/// contiguous memref's follows from its sizes (dim 0 of 3x? is the size of dim 1, byte 32).

// CHECK: ^bb0(%[[A:.*]]: memref<?x?xf32, strided<[?, ?], offset: ?>>, %[[K:.*]]: index):
// CHECK-NEXT: %[[C1:.*]] = "arith.constant"() {value = 1 : index}
// CHECK-NEXT: %{{.*}} = "grafo.stride"(%[[A]], %[[C1]]) : (memref<?x?xf32, strided<[?, ?], offset: ?>>, index) -> index
// CHECK-NEXT: %{{.*}} = "grafo.stride"(%[[A]], %[[K]]) : (memref<?x?xf32, strided<[?, ?], offset: ?>>, index) -> index
// CHECK-LABEL: sym_name = "strides"
// CHECK: "grafo.stride"(%{{.*}}, %{{.*}}) : (memref<3x?xf64>, index) -> index
// CHECK-LABEL: sym_name = "row_stride"

// LLVM-LABEL: define {{.*}}@strides(
// LLVM-DAG: getelementptr i8, ptr %{{.*}}, i64 40
// LLVM-DAG: getelementptr i8, ptr %{{.*}}, i64 48
// LLVM-DAG: icmp eq i64 %{{.*}}, 0
// LLVM: select i1
// LLVM: ret i32 0
// LLVM-LABEL: define {{.*}}@row_stride(
// LLVM: getelementptr i8, ptr %{{.*}}, i64 32
// LLVM-NEXT: load i64
// LLVM: ret i32 0
"builtin.module"() ({
  "func.func"() ({
  ^bb0(%a: memref<?x?xf32, strided<[?, ?], offset: ?>>, %k: index):
    %c1 = "arith.constant"() {value = 1 : index} : () -> index
    %s1 = "grafo.stride"(%a, %c1) : (memref<?x?xf32, strided<[?, ?], offset: ?>>, index) -> index
    %sk = "grafo.stride"(%a, %k) : (memref<?x?xf32, strided<[?, ?], offset: ?>>, index) -> index
    %sum = "arith.addi"(%s1, %sk) : (index, index) -> index
    %r = "arith.index_cast"(%sum) : (index) -> i64
    "func.return"(%r) : (i64) -> ()
  }) {function_type = (memref<?x?xf32, strided<[?, ?], offset: ?>>, index) -> i64, sym_name = "strides"} : () -> ()
  "func.func"() ({
  ^bb0(%b: memref<3x?xf64>):
    %c0 = "arith.constant"() {value = 0 : index} : () -> index
    %s0 = "grafo.stride"(%b, %c0) : (memref<3x?xf64>, index) -> index
    %r = "arith.index_cast"(%s0) : (index) -> i64
    "func.return"(%r) : (i64) -> ()
  }) {function_type = (memref<3x?xf64>) -> i64, sym_name = "row_stride"} : () -> ()
}) : () -> ()
