"""PTX is checked when it is made: a malformed PTX text (injected in place of what the NVPTX
target emits) is a CompileError naming the kernel and quoting the assembler, from ptxas at
compile time or, without ptxas, from the driver's JIT at load time (simulated driver)."""

import os
import re
import subprocess
import tempfile

import numpy as np
import pytest

import compiler
import compiler.backend.ptx as P
from compiler.backend.ptx import check
from compiler.backend.ptx.target import ptxas_path
from runtime.cuda import driver


def two_kernels(a):
    b = a * 3.0
    return b + np.sum(b)


BAD = "\tbogus.op.f32 \t%f1, %f1;\n"


def malformed(ptx: str, kernel: int) -> tuple:
    """``ptx`` with an unknown instruction after the first instruction of the ``kernel``-th
    ``.entry``; returns the text and that entry's name."""
    lines = ptx.splitlines(True)
    entries = [i for i, t in enumerate(lines) if check._ENTRY.match(t)]
    start = entries[kernel]
    name = check._ENTRY.match(lines[start]).group(1)
    body = next(i for i in range(start, len(lines)) if lines[i].strip().startswith("ld."))
    return "".join(lines[:body + 1] + [BAD] + lines[body + 1:]), name


@pytest.fixture
def inject(monkeypatch):
    """Make the NVPTX target emit malformed PTX in kernel ``k``; records the names."""
    made = {}

    def use(k):
        real = P.target_machine

        class Machine:
            def __init__(self, sm):
                self.tm = real(sm)

            def emit_assembly(self, ref):
                text, made["kernel"] = malformed(self.tm.emit_assembly(ref), k)
                return text
        monkeypatch.setattr(P, "target_machine", Machine)
        return made
    return use


@pytest.mark.skipif(ptxas_path() is None, reason="ptxas not found")
@pytest.mark.parametrize("k", [0, 1])
def test_ptxas_rejection_names_the_kernel(inject, k):
    made = inject(k)
    with pytest.raises(compiler.CompileError) as info:
        compiler.compile(two_kernels, "f32[?]", target="cuda")
    text = str(info.value)
    assert f"ptxas rejected the PTX of kernel {made['kernel']!r}" in text
    assert "bogus" in text and re.search(r"line \d+", text)
    assert "CUDA_ERROR" not in text


def ptxas_log(ptx: str) -> str | None:
    """What ptxas says about ``ptx`` (as the driver's JIT would), None when it accepts it."""
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, "k.ptx")
        with open(src, "w") as f:
            f.write(ptx)
        proc = subprocess.run([ptxas_path(), "-arch=sm_80", src, "-o", os.devnull],
                              capture_output=True, text=True)
    return proc.stderr.replace(src, "application ptx input") if proc.returncode else None


def test_jit_rejection_at_load_names_the_kernel(inject, monkeypatch):
    """Without ptxas, the driver's JIT rejects the module at its first call; its error log
    (here the simulated driver's ``jit``: real ptxas messages where ptxas exists, else a
    message in their format) becomes the CompileError."""
    made = inject(1)
    monkeypatch.setattr(check, "ptxas_path", lambda: None)
    cf = compiler.compile(two_kernels, "f32[?]", target="cuda")
    assert "bogus.op" in cf.ptx
    driver.select("simulator")
    try:
        sim = driver.simulator()
        if ptxas_path() is not None:
            sim.jit = ptxas_log
        else:
            line = cf.ptx.splitlines().index(BAD.rstrip("\n")) + 1
            sim.jit = lambda ptx: (f"ptxas application ptx input, line {line}; error   : "
                                   f"Not a name of any known instruction: 'bogus'")
        with pytest.raises(compiler.CompileError) as info:
            cf(np.ones(8, np.float32))
    finally:
        driver.select(None)
    text = str(info.value)
    assert (f"the CUDA driver's JIT compiler rejected the PTX of kernel {made['kernel']!r}"
            in text)
    assert "bogus" in text and "CUDA_ERROR" not in text


def test_log_outside_every_kernel_names_the_module():
    ptx = ".version 8.0\n.target sm_80\n.visible .entry k1(\n)\n{\nret;\n}\n"
    err = check.ptx_error(ptx, "ptxas x.ptx, line 1; error : bad version", "ptxas")
    assert "the module of kernel 'k1'" in str(err) and "bad version" in str(err)
    assert check.kernel_at(ptx, 6) == "k1" and check.kernel_at(ptx, 2) is None


def test_good_ptx_passes_and_runs(monkeypatch):
    driver.select("simulator")
    try:
        cf = compiler.compile(two_kernels, "f32[?]", target="cuda")
        a = np.arange(5, dtype=np.float32)
        np.testing.assert_allclose(cf(a), two_kernels(a), rtol=1e-6)
    finally:
        driver.select(None)
