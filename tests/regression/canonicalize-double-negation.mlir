// RUN: grafo opt %s --pass-pipeline=canonicalize | filecheck %s

/// Negation, bitwise not and logical not applied twice cancel (logical not only on bools).

"builtin.module"() ({
  // CHECK: ^bb0(%[[X:.*]]: tensor<?xf32>):
  // CHECK-NEXT: "func.return"(%[[X]])
  // CHECK-LABEL: sym_name = "neg_neg"
  "func.func"() ({
  ^bb0(%x: tensor<?xf32>):
    %0 = "np.negative"(%x) : (tensor<?xf32>) -> tensor<?xf32>
    %1 = "np.negative"(%0) : (tensor<?xf32>) -> tensor<?xf32>
    "func.return"(%1) : (tensor<?xf32>) -> ()
  }) {function_type = (tensor<?xf32>) -> tensor<?xf32>, sym_name = "neg_neg"} : () -> ()
  // CHECK: ^bb0(%[[I:.*]]: i8):
  // CHECK-NEXT: "func.return"(%[[I]])
  // CHECK-LABEL: sym_name = "invert_invert"
  "func.func"() ({
  ^bb0(%i: i8):
    %0 = "np.invert"(%i) : (i8) -> i8
    %1 = "np.invert"(%0) : (i8) -> i8
    "func.return"(%1) : (i8) -> ()
  }) {function_type = (i8) -> i8, sym_name = "invert_invert"} : () -> ()
  // CHECK: ^bb0(%[[B:.*]]: i1):
  // CHECK-NEXT: "func.return"(%[[B]])
  // CHECK-LABEL: sym_name = "not_not_bool"
  "func.func"() ({
  ^bb0(%b: i1):
    %0 = "np.logical_not"(%b) : (i1) -> i1
    %1 = "np.logical_not"(%0) : (i1) -> i1
    "func.return"(%1) : (i1) -> ()
  }) {function_type = (i1) -> i1, sym_name = "not_not_bool"} : () -> ()
  // CHECK: "np.logical_not"
  // CHECK: "np.logical_not"
  // CHECK-LABEL: sym_name = "not_not_int_kept"
  "func.func"() ({
  ^bb0(%x: i32):
    %0 = "np.logical_not"(%x) : (i32) -> i1
    %1 = "np.logical_not"(%0) : (i1) -> i1
    "func.return"(%1) : (i1) -> ()
  }) {function_type = (i32) -> i1, sym_name = "not_not_int_kept"} : () -> ()
}) : () -> ()
