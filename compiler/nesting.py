"""Room on the Python stack for compiling deeply nested code.

The frontend, the passes and the lowering recurse once per nesting level of the code they
work on (an ``elif`` is an ``if`` inside the previous one's ``else``, so a chain of 170
branches nests 170 levels deep and needed about 1,000 Python frames, CPython's default
limit). ``room_for(fn)`` raises the recursion limit for one compilation by the frames that
the deepest nesting of ``fn``'s AST needs, so whatever CPython itself compiles (elif chains
up to about 2,900 branches) compiles here too. Python-to-Python calls do not grow the C
stack since CPython 3.11, so the raised limit does not risk overflowing it. Limits raised by
concurrent compilations in several threads are restored when the last of them ends.

CPython 3.11's AST constructor fails ("AST constructor recursion depth mismatch") when the
limit changes while it runs in another thread, so the limit changes only when a function
needs more than it, and under ``LOCK``, which the frontend holds while it parses source.
"""

from __future__ import annotations

import ast
import contextlib
import sys
import threading

FRAMES_PER_LEVEL = 12   # measured: the frontend takes 6 frames per ``if`` level, passes fewer
MARGIN = 2000           # frames for everything that does not grow with the nesting

LOCK = threading.Lock()   # held while the limit changes and while grafo parses source
_active = 0
_saved = 0


def ast_depth(node: ast.AST) -> int:
    """The number of nodes on the longest path from ``node`` down to a leaf (iteratively)."""
    deepest, stack = 0, [(node, 1)]
    while stack:
        n, d = stack.pop()
        deepest = max(deepest, d)
        stack.extend((child, d + 1) for child in ast.iter_child_nodes(n))
    return deepest


def _frames() -> int:
    """The depth of the calling thread's Python stack."""
    n, frame = 0, sys._getframe()
    while frame is not None:
        n, frame = n + 1, frame.f_back
    return n


@contextlib.contextmanager
def room_for(depth: int):
    """Raise the recursion limit, while the block runs, to fit code nested ``depth`` AST
    levels deep (never lowering it)."""
    global _active, _saved
    with LOCK:
        if _active == 0:
            _saved = sys.getrecursionlimit()
        _active += 1
        needed = _frames() + MARGIN + FRAMES_PER_LEVEL * depth
        if needed > sys.getrecursionlimit():
            sys.setrecursionlimit(needed)
    try:
        yield
    finally:
        with LOCK:
            _active -= 1
            if _active == 0 and sys.getrecursionlimit() != _saved:
                sys.setrecursionlimit(_saved)
