"""The dynamic symbols of an ELF shared library, read from its bytes without loading it.

Opening a library runs its initializers, and looking a name up with ``dlsym`` also finds the
libraries it depends on (``abort`` and ``free`` from the C library), so ``runtime.artifact``
checks what an artifact's library itself exports before the dynamic loader sees it: the
symbol table of the ``SHT_DYNSYM`` section (name, kind, binding, section, size), and the
initial bytes of a data symbol (through the ``PT_LOAD`` segment holding it). Only 64-bit
ELF files of either byte order are read. Any inconsistency raises ElfError.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass

ET_DYN = 3
SHT_DYNSYM, SHT_NOBITS = 11, 8
SHF_WRITE = 0x1
PT_LOAD = 1
SHN_UNDEF, SHN_LORESERVE = 0, 0xFF00
STB_GLOBAL, STB_WEAK = 1, 2
STT_OBJECT, STT_FUNC = 1, 2
STV_DEFAULT, STV_PROTECTED = 0, 3
MACHINES = {"x86_64": 62, "aarch64": 183}   # e_machine of each architecture
_KINDS = {STT_OBJECT: "object", STT_FUNC: "function"}


class ElfError(ValueError):
    """The bytes are not a well-formed 64-bit ELF shared library."""


@dataclass(frozen=True)
class Symbol:
    """An exported, defined dynamic symbol: ``kind`` "object", "function" or "other";
    ``writable``: it lies in a writable section; ``in_file``: its bytes are in the file (not
    ``.bss``)."""

    name: str
    kind: str
    value: int
    size: int
    writable: bool
    in_file: bool


class Library:
    """A shared library's bytes: ``machine`` (ELF ``e_machine``), ``symbols`` ({name:
    Symbol} of the defined global and weak symbols of default or protected visibility), and
    ``read(symbol)``. Raises ElfError for a file that is not a 64-bit ELF shared library."""

    def __init__(self, data: bytes):
        self.data = data
        if data[:4] != b"\x7fELF" or len(data) < 64:
            raise ElfError("not an ELF file")
        if data[4] != 2:
            raise ElfError("not a 64-bit ELF file")
        if data[5] not in (1, 2):
            raise ElfError("unknown ELF byte order")
        self._order = "<" if data[5] == 1 else ">"
        (e_type, self.machine, _, _, self._phoff, self._shoff, _, _, self._phentsize,
         self._phnum, self._shentsize, self._shnum, _) = self._unpack("HHIQQQIHHHHHH", 16)
        if e_type != ET_DYN:
            raise ElfError(f"not a shared library (ELF type {e_type})")
        if self._shentsize != 64 or self._phentsize != 56:
            raise ElfError("unexpected ELF header sizes")
        self._sections = [self._unpack("IIQQQQIIQQ", self._shoff + 64 * k)
                          for k in range(self._shnum)]
        self.symbols = self._dynamic_symbols()

    def _unpack(self, fmt: str, offset: int) -> tuple:
        fmt = self._order + fmt
        if offset < 0 or offset + struct.calcsize(fmt) > len(self.data):
            raise ElfError("truncated ELF file")
        return struct.unpack_from(fmt, self.data, offset)

    def _bytes(self, offset: int, size: int) -> bytes:
        if offset < 0 or size < 0 or offset + size > len(self.data):
            raise ElfError("ELF section outside the file")
        return self.data[offset:offset + size]

    def _dynamic_symbols(self) -> dict:
        tables = [s for s in self._sections if s[1] == SHT_DYNSYM]
        if len(tables) != 1:
            raise ElfError("no single dynamic symbol table")
        _, _, _, _, offset, size, link, _, _, entsize = tables[0]
        if entsize != 24 or link >= len(self._sections):
            raise ElfError("malformed dynamic symbol table")
        strtab = self._sections[link]
        names = self._bytes(strtab[4], strtab[5])
        symbols = {}
        for k in range(size // 24):
            st_name, info, other, shndx, value, st_size = self._unpack("IBBHQQ", offset + 24 * k)
            binding, kind, visibility = info >> 4, info & 0xF, other & 0x3
            if (shndx == SHN_UNDEF or binding not in (STB_GLOBAL, STB_WEAK)
                    or visibility not in (STV_DEFAULT, STV_PROTECTED)):
                continue
            end = names.find(b"\0", st_name)
            if st_name >= len(names) or end < 0:
                raise ElfError("symbol name outside the string table")
            name = names[st_name:end].decode("ascii", "replace")
            section = self._sections[shndx] if shndx < min(len(self._sections),
                                                           SHN_LORESERVE) else None
            symbols[name] = Symbol(
                name, _KINDS.get(kind, "other"), value, st_size,
                writable=section is not None and bool(section[2] & SHF_WRITE),
                in_file=section is not None and section[1] != SHT_NOBITS)
        return symbols

    def offset(self, symbol: Symbol) -> int:
        """The file offset of the initial bytes of the data symbol ``symbol``. Raises
        ElfError when no loaded segment holds them in the file."""
        if symbol.in_file:
            for k in range(self._phnum):
                p_type, _, p_offset, p_vaddr, _, p_filesz, _, _ = self._unpack(
                    "IIQQQQQQ", self._phoff + self._phentsize * k)
                if p_type == PT_LOAD and p_vaddr <= symbol.value \
                        and symbol.value + symbol.size <= p_vaddr + p_filesz:
                    return p_offset + symbol.value - p_vaddr
        raise ElfError(f"the bytes of {symbol.name} are not in the file")

    def read(self, symbol: Symbol) -> bytes:
        """The initial bytes of the data symbol ``symbol`` as the file holds them (see
        ``offset``)."""
        return self._bytes(self.offset(symbol), symbol.size)

    def read_int(self, symbol: Symbol) -> int:
        """``read(symbol)`` as a signed integer in the file's byte order."""
        return int.from_bytes(self.read(symbol), "little" if self._order == "<" else "big",
                              signed=True)
