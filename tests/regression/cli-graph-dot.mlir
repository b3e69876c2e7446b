// RUN: grafo graph %S/inputs/constructs.py:if_else --signature "f64" -o %t.dot && cat %t.dot | filecheck %s
// REQUIRES: graphviz

/// The .dot graph has input and output nodes, op nodes, typed edges and the scf.if regions as clusters.

// CHECK: digraph grafo {
// CHECK: subgraph cluster_func_{{.*}} {
// CHECK: label="func @if_else"
// CHECK: [[IN:in[0-9]+]] [label="%arg0"
// CHECK: subgraph cluster_[[IF:op[0-9]+]] {
// CHECK: [[IF]] [label="scf.if"
// CHECK: subgraph cluster_[[IF]]_region0
// CHECK: subgraph cluster_[[IF]]_region1
// CHECK: label="np.negative"
// CHECK: [[OUT:out[0-9]+]] [label="result 0"
// CHECK: [[IN]] -> {{op[0-9]+}} [label=f64]
// CHECK: [[IF]] -> [[OUT]] [label=f64]
