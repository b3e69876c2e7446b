// RUN: grafo ir %S/inputs/constructs.py:fused --signature "f32[?], f32[?], f32[?]" --stage loops | grafo translate - --to=asm | filecheck %s

/// --to=asm prints host assembly: the entry symbol is defined and returns.

// CHECK: fused:
// CHECK: ret
