"""``IRParseError``, the error of malformed IR text, apart from the parser (``parser.py``) so
that code which only names the error (``compiler.errors``) does not load the parser and lark."""

from __future__ import annotations


class IRParseError(Exception):
    """Malformed IR text. ``line``/``col`` (1-based) locate the fault, ``reason`` says what it is.

    The message reads ``file:line:col: error: reason`` followed by the source line and a caret.
    """

    def __init__(self, reason: str, filename: str, line: int, col: int, source_line: str = ""):
        self.reason = reason
        self.filename = filename
        self.line = line
        self.col = col
        text = f"{filename}:{line}:{col}: error: {reason}"
        if source_line:
            text += f"\n    {source_line}\n    {' ' * max(col - 1, 0)}^"
        super().__init__(text)
