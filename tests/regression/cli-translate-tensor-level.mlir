// RUN: grafo translate %s --to=llvm | filecheck %s

/// Tensor-level IR is lowered to loops before translation: the np.add becomes a vectorized fadd loop.

// CHECK: define {{.*}}@add(
// CHECK: fadd {{.*}}<{{[0-9]+}} x float>
"builtin.module"() ({
  "func.func"() ({
  ^bb0(%a: tensor<?xf32>, %b: tensor<?xf32>):
    %0 = "np.add"(%a, %b) : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
    "func.return"(%0) : (tensor<?xf32>) -> ()
  }) {function_type = (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>, sym_name = "add"} : () -> ()
}) : () -> ()
