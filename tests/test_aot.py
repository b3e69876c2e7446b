"""Ahead-of-time artifacts: save -> runtime.load round trips, loading without the compiler,
the C ABI through the generated header, bad artifacts, cross-compilation and the CLI."""

import inspect
import io
import json
import os
import pickle
import shutil
import subprocess
import sys
import textwrap
import zipfile

import aot_functions as F
import numpy as np
import pytest

import compiler
import runtime
from compiler.cli import main
from compiler.targets import cpu_model
from runtime.artifact import MANIFEST, payload_digest

TESTS = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(TESTS)


@pytest.fixture(scope="module")
def dot_cf():
    return compiler.compile(F.dot_at, "f32[?], f32[?]")


@pytest.fixture(scope="module")
def artifact(dot_cf, tmp_path_factory):
    path = tmp_path_factory.mktemp("aot") / "dot.grafo"
    dot_cf.save(path)
    return path


def rewrite(path, out, edit_manifest=None, edit_members=None, resign=False):
    """Copy an artifact with an edited manifest and/or members (zip CRCs stay valid); with
    ``resign`` the recorded SHA-256 is recomputed for the edited contents."""
    with zipfile.ZipFile(path) as zf:
        members = {n: zf.read(n) for n in zf.namelist()}
    manifest = json.loads(members[MANIFEST])
    if edit_members:
        edit_members(members)
    if edit_manifest:
        edit_manifest(manifest)
    if resign:
        manifest["payload"]["sha256"] = payload_digest(members, manifest)
    members[MANIFEST] = json.dumps(manifest).encode()
    with zipfile.ZipFile(out, "w") as zf:
        for name, data in members.items():
            zf.writestr(name, data)
    return out


# round trips -----------------------------------------------------------------------------------

def test_load_matches_concrete_function(dot_cf, artifact, same):
    f = runtime.load(artifact)
    x = np.arange(10, dtype=np.float32)
    y = np.linspace(0, 1, 10, dtype=np.float32)
    same(f(x, y), dot_cf(x, y))
    same(f(x[::2], y[::2]), F.dot_at(x[::2], y[::2]))
    assert f.name == "dot_at" and f.arg_names == ["x", "y"] and f.signature == dot_cf.signature


def test_load_raises_the_same_errors(dot_cf, artifact):
    f = runtime.load(artifact)
    x = np.arange(2, dtype=np.float32)
    with pytest.raises(IndexError) as want:
        dot_cf(x, x)
    with pytest.raises(IndexError) as got:
        f(x, x)
    # the artifact names the file relative to the project root, the JIT by its path here
    assert str(got.value) == str(want.value).replace(F.__file__, "tests/aot_functions.py")
    line = inspect.getsourcelines(F.dot_at)[1] + 1
    assert f"File \"tests/aot_functions.py\", line {line}" in str(got.value)
    assert "x[3]" in str(got.value)
    with pytest.raises(TypeError, match=r"dot_at\(\) argument 'x': expected float32\[\?\], "
                                        r"got float64\[2\]"):
        f(x.astype(np.float64), x)


def test_several_entries_constants_and_tuples(tmp_path, same):
    scaled = compiler.function(F.scaled).get_concrete_function(
        compiler.TensorSpec((None,), "float64"), 3)
    pair = compiler.compile(F.pair, "f32[2,?]")
    smooth = compiler.compile(F.smooth, "f64[?]")
    compiler.save(tmp_path / "lib.grafo", [scaled, pair, smooth, pair])
    lib = runtime.load(tmp_path / "lib.grafo")
    assert sorted(lib) == ["pair", "pair_2", "scaled", "smooth"]
    x = np.random.default_rng(0).random(1000)
    same(lib.scaled(x), F.scaled(x, 3))
    same(lib["scaled"](x, 3), F.scaled(x, 3))
    with pytest.raises(TypeError, match="traced with 3"):
        lib.scaled(x, 4)
    m = np.ones((2, 5), np.float32)
    same(lib.pair(m), F.pair(m))
    same(lib.smooth(x), F.smooth(x))


def test_loaded_constants_compare_as_specializations_do(tmp_path, same):
    """A loaded artifact takes only the constant it was traced with, told apart as a Function
    tells its specializations apart: -0.0 is not 0.0, (1.0,) is not (1,), NaN is NaN."""
    x = np.ones(3)
    cfs = [compiler.function(F.scaled).get_concrete_function(x, c)
           for c in (0.0, float("nan"), (1,))]
    compiler.save(tmp_path / "zero.grafo", [cfs[0]])
    zero = runtime.load(tmp_path / "zero.grafo")
    same(zero(x, 0.0), F.scaled(x, 0.0))
    with pytest.raises(TypeError, match="traced with 0.0, received -0.0"):
        zero(x, -0.0)
    compiler.save(tmp_path / "nan.grafo", [cfs[1]])
    same(runtime.load(tmp_path / "nan.grafo")(x, float("nan")), F.scaled(x, float("nan")))
    compiler.save(tmp_path / "tuple.grafo", [cfs[2]])
    one = runtime.load(tmp_path / "tuple.grafo")
    same(one(x, (1,)), F.scaled(x, (1,)))
    for other in ((1.0,), (True,)):
        with pytest.raises(TypeError, match="traced with"):
            one(x, other)


def test_large_constants_survive_save_and_load(tmp_path, same):
    table = np.random.default_rng(1).random(200_000)

    def weigh(x):
        return x * table - table[::-1]

    compiler.compile(weigh, "f64[200000]").save(tmp_path / "big.grafo")
    x = np.random.default_rng(2).random(200_000)
    same(runtime.load(tmp_path / "big.grafo")(x), weigh(x))
    with zipfile.ZipFile(tmp_path / "big.grafo") as zf:
        loops = zf.read("ir/weigh.loops.mlir").decode()
    assert loops.count('"grafo.constant"() {value = dense<"0x') == 1


def test_save_rejects_bad_names_and_mixed_targets(tmp_path, dot_cf):
    with pytest.raises(ValueError, match="not a C identifier"):
        compiler.save(tmp_path / "x.grafo", {"a-b": dot_cf})
    v2 = compiler.compile(F.dot_at, "f32[?], f32[?]", target="x86-64-v2")
    with pytest.raises(ValueError, match="different targets"):
        compiler.save(tmp_path / "x.grafo", [dot_cf, v2])


BLOCKER = """
import sys
for name in ("compiler", "llvmlite", "lark"):
    sys.modules[name] = None      # any import of these raises ImportError
import numpy as np
import runtime
f = runtime.load(sys.argv[1])
x = np.arange(6, dtype=np.float32)
print(repr(float(f(x, x))))
try:
    f(x[:2], x[:2])
except IndexError as e:
    print(str(e).splitlines()[0])
print(sorted(m for m in sys.modules if m.split(".")[0] in ("compiler", "llvmlite", "lark")
             and sys.modules[m] is not None))
"""


def test_load_without_compiler_llvmlite_or_lark(artifact, tmp_path):
    out = subprocess.run([sys.executable, "-c", BLOCKER, str(artifact)], cwd=tmp_path,
                         env={**os.environ, "PYTHONPATH": ROOT}, capture_output=True,
                         text=True, check=True).stdout.splitlines()
    x = np.arange(6, dtype=np.float32)
    assert out == [repr(float(F.dot_at(x, x))),
                   "index 3 is out of bounds for axis 0 with size 2", "[]"]


# the C ABI -------------------------------------------------------------------------------------

C_PROGRAM = r"""
#include <stdio.h>
#include <stdlib.h>
#include "grafo.h"

int main(int argc, char **argv) {
    int64_t n = atoi(argv[2]);
    double *a = malloc(n * sizeof(double)), *b = malloc(n * sizeof(double));
    FILE *f = fopen(argv[1], "rb");
    if (fread(a, sizeof(double), n, f) != (size_t)n || fread(b, sizeof(double), n, f) != (size_t)n)
        return 2;
    fclose(f);
    /* b is read with stride 2: the descriptor says so, no copy needed */
    grafo_memref_1d x = {a, a, 0, {n}, {1}}, y = {b, b, 0, {n / 2}, {2}};
    grafo_memref_1d out;
    grafo_status status;
    int32_t rc = grafo_affine(&x, &x, &out, &status);
    if (rc != 0) return 3;
    for (int64_t i = 0; i < out.sizes[0]; i++)
        printf("%.17g\n", ((double *)out.aligned)[out.offset + i * out.strides[0]]);
    free(out.allocated);
    rc = grafo_affine(&x, &y, &out, &status);   /* shapes (n,) and (n/2,) do not broadcast */
    printf("rc=%d params=%lld,%lld\n", rc, (long long)status.params[0],
           (long long)status.params[1]);
    return 0;
}
"""


@pytest.mark.skipif(shutil.which("cc") is None, reason="needs a C compiler")
def test_c_program_calls_the_shared_library(tmp_path):
    cf = compiler.compile(F.affine, "f64[?], f64[?]")
    compiler.save(tmp_path / "affine.grafo", {"affine": cf})
    with zipfile.ZipFile(tmp_path / "affine.grafo") as zf:
        zf.extract("include/grafo.h", tmp_path)
        zf.extract("lib/libgrafo.so", tmp_path)
    (tmp_path / "main.c").write_text(C_PROGRAM)
    exe = tmp_path / "main"
    subprocess.run(["cc", "-std=c11", "-Wall", "-Werror", "-o", str(exe), "main.c",
                    "-Iinclude", "-Llib", "-lgrafo", f"-Wl,-rpath,{tmp_path / 'lib'}"],
                   cwd=tmp_path, check=True)
    x = np.random.default_rng(1).random(10)
    np.concatenate([x, x[::-1]]).tofile(tmp_path / "in.bin")
    out = subprocess.run([str(exe), str(tmp_path / "in.bin"), "10"], capture_output=True,
                         text=True, check=True).stdout.splitlines()
    np.testing.assert_array_equal(np.array([float(v) for v in out[:-1]]), F.affine(x, x))
    assert out[-1] == "rc=1 params=10,5"
    assert "operands could not be broadcast" in cf.compiled.native.errors[0][1]


C_THREADS = r"""
#include <stdio.h>
#include <stdlib.h>
#include "grafo.h"

void GOMP_parallel(void (*body)(void *), void *data, unsigned threads, unsigned flags);
int omp_get_thread_num(void), omp_get_num_threads(void);

static int calls;

static void counting(void (*body)(void *), void *data, unsigned threads, unsigned flags) {
    calls++;
    GOMP_parallel(body, data, threads, flags);
}

int main(int argc, char **argv) {
    int64_t n = atoi(argv[1]);
    double *a = malloc(n * sizeof(double));
    for (int64_t i = 0; i < n; i++) a[i] = (double)i;
    grafo_memref_1d x = {a, a, 0, {n}, {1}}, out;
    grafo_status status;
    grafo_thread_state state = {counting, omp_get_thread_num, omp_get_num_threads, 2};
    for (int bound = 0; bound < 2; bound++) {
        grafo_threads = bound ? &state : NULL;
        calls = 0;
        if (grafo_affine(&x, &x, &out, &status) != 0) return 3;
        double sum = 0;
        for (int64_t i = 0; i < n; i++) sum += ((double *)out.aligned)[i];
        printf("%d %.17g\n", calls, sum);
        free(out.allocated);
    }
    return 0;
}
"""


@pytest.mark.skipif(shutil.which("cc") is None, reason="needs a C compiler")
@pytest.mark.skipif(runtime.parallel.library_path() is None, reason="needs libgomp")
def test_c_program_binds_the_thread_state(tmp_path):
    # Regression: the header declared grafo_threads as void *, so a C caller could not give
    # parallel loops libgomp's threads without copying runtime/parallel.py's struct.
    cf = compiler.compile(F.affine, "f64[?], f64[?]")
    cf.save(tmp_path / "affine.grafo")
    with zipfile.ZipFile(tmp_path / "affine.grafo") as zf:
        zf.extractall(tmp_path)
    (tmp_path / "main.c").write_text(C_THREADS)
    subprocess.run(["cc", "-std=c11", "-Wall", "-Werror", "-o", "main", "main.c", "-Iinclude",
                    "-Llib", "-lgrafo", "-lgomp", f"-Wl,-rpath,{tmp_path / 'lib'}"],
                   cwd=tmp_path, check=True)
    n = 1 << 18
    out = subprocess.run([str(tmp_path / "main"), str(n)], capture_output=True, text=True,
                         check=True).stdout.split()
    x = np.arange(n, dtype=np.float64)
    want = float(np.sum(F.affine(x, x)))
    assert out[0] == "0" and float(out[1]) == want   # null: serial, same values
    assert out[2] == "1" and float(out[3]) == want   # bound: one parallel loop on libgomp


# bad artifacts ---------------------------------------------------------------------------------

def test_truncated_file(artifact, tmp_path):
    data = artifact.read_bytes()
    (tmp_path / "t.grafo").write_bytes(data[:len(data) // 2])
    with pytest.raises(runtime.CorruptArtifactError, match="truncated or damaged"):
        runtime.load(tmp_path / "t.grafo")


def test_flipped_byte_is_corrupt(artifact, tmp_path):
    data = bytearray(artifact.read_bytes())
    data[len(data) // 3] ^= 0xFF
    (tmp_path / "c.grafo").write_bytes(bytes(data))
    with pytest.raises(runtime.CorruptArtifactError):
        runtime.load(tmp_path / "c.grafo")


def test_checksum_mismatch(artifact, tmp_path):
    def patch(members):
        so = bytearray(members["lib/libgrafo.so"])
        so[-1] ^= 1
        members["lib/libgrafo.so"] = bytes(so)
    bad = rewrite(artifact, tmp_path / "k.grafo", edit_members=patch)
    with pytest.raises(runtime.ChecksumError, match="checksum mismatch"):
        runtime.load(bad)


@pytest.mark.parametrize("edit", [
    lambda m: m["entries"][0]["results"][0].update(dtype="int8"),
    lambda m: m["entries"][0]["results"][0].update(shape=[None, None, None]),
    lambda m: m["entries"][0]["inputs"][0].update(shape=[None, None]),
    lambda m: m["entries"][0].update(result_tuple=not m["entries"][0]["result_tuple"]),
])
def test_edited_manifest_fails_checksum(artifact, tmp_path, edit):
    # Regression: the checksum covered only the payload, so an edited manifest (result
    # dtypes, ranks) was trusted and native buffers were read out of bounds.
    bad = rewrite(artifact, tmp_path / "e.grafo", edit_manifest=edit)
    with pytest.raises(runtime.ChecksumError, match="checksum mismatch"):
        runtime.load(bad)


def test_unknown_format_version(artifact, tmp_path):
    bad = rewrite(artifact, tmp_path / "v.grafo",
                  edit_manifest=lambda m: m.update(format_version=99))
    with pytest.raises(runtime.FormatVersionError, match="version 99 is not supported"):
        runtime.load(bad)


def test_not_an_artifact(tmp_path):
    (tmp_path / "x.grafo").write_text("hello")
    with pytest.raises(runtime.NotAnArtifactError):
        runtime.load(tmp_path / "x.grafo")
    with zipfile.ZipFile(tmp_path / "z.grafo", "w") as zf:
        zf.writestr("readme.txt", "a zip, not an artifact")
    with pytest.raises(runtime.NotAnArtifactError, match="no manifest.json"):
        runtime.load(tmp_path / "z.grafo")
    with pytest.raises(runtime.NotAnArtifactError):
        runtime.load(b"")


def test_malformed_manifest(artifact, tmp_path):
    with zipfile.ZipFile(artifact) as zf:
        members = {n: zf.read(n) for n in zf.namelist()}
    for text in (b'{"format": "grafo-artifact", ', b"[" * 100_000 + b"]" * 100_000):
        with zipfile.ZipFile(tmp_path / "m.grafo", "w") as zf:
            for name, data in members.items():
                zf.writestr(name, text if name == MANIFEST else data)
        with pytest.raises(runtime.CorruptArtifactError, match="malformed manifest"):
            runtime.load(tmp_path / "m.grafo")


def test_resigned_manifest_with_an_unsupported_dtype(artifact, tmp_path):
    bad = rewrite(artifact, tmp_path / "m.grafo", resign=True,
                  edit_manifest=lambda m: m["entries"][0]["inputs"][0].update(dtype="complex7"))
    with pytest.raises(runtime.InvalidManifestError,
                       match=r"entries\[0\]\.inputs\[0\]\.dtype: expected one of 'bool'"):
        runtime.load(bad)


def test_missing_cpu_features(artifact, tmp_path):
    flags = runtime.cpu.host_flags() or set()
    lacking = [f for f, flag in runtime.cpu.X86_CPUINFO_FLAG.items() if flag not in flags]
    if runtime.cpu.host_arch() != "x86_64" or not lacking:
        pytest.skip("needs an x86-64 CPU lacking some feature")
    bad = rewrite(artifact, tmp_path / "f.grafo",
                  edit_manifest=lambda m: m["target"]["features"].append(lacking[0]),
                  resign=True)
    with pytest.raises(runtime.MissingCPUFeaturesError, match=lacking[0].replace(".", r"\.")):
        runtime.load(bad)


def test_host_features_all_present(artifact):
    manifest = runtime.artifact.read(artifact).manifest
    assert runtime.cpu.missing_features(manifest["target"]["triple"],
                                        manifest["target"]["features"]) == []


def test_system_instructions_are_not_checked(monkeypatch):
    """A KVM guest's kernel hides ``xsaves`` from /proc/cpuinfo while LLVM's CPUID probe
    reports it: such system instructions never appear in numeric code, so loading ignores
    them, and still refuses a missing vector extension."""
    monkeypatch.setattr(runtime.cpu, "host_flags", lambda: frozenset({"sse", "sse2", "lm"}))
    triple = "x86_64-unknown-linux-gnu"
    assert runtime.cpu.missing_features(
        triple, ["xsaves", "xsavec", "xsaveopt", "fsgsbase", "rdpid", "clwb", "sse2"]) == []
    assert runtime.cpu.missing_features(triple, ["avx2", "xsaves"]) == ["avx2"]


# cross-compilation -----------------------------------------------------------------------------

def readelf(path):
    out = subprocess.run(["readelf", "-h", str(path)], capture_output=True, text=True,
                         check=True).stdout
    return {k.strip(): v.strip() for k, _, v in
            (line.partition(":") for line in out.splitlines()) if v}


@pytest.mark.skipif(shutil.which("readelf") is None, reason="needs binutils")
def test_aarch64_object_and_refusal(tmp_path):
    cf = compiler.compile(F.smooth, "f64[?]", target="aarch64-linux-gnu")
    assert cf.target == "aarch64-linux-gnu"
    with pytest.raises(RuntimeError, match="compiled for target 'aarch64-linux-gnu'"):
        cf(np.ones(3))
    cf.save(tmp_path / "a.grafo")
    art = runtime.artifact.read(tmp_path / "a.grafo")
    member = art.manifest["native"]["member"]
    (tmp_path / "lib").mkdir()
    (tmp_path / member).write_bytes(art.members[member])
    header = readelf(tmp_path / member)
    assert header["Machine"] == "AArch64"
    assert art.manifest["target"]["triple"] == "aarch64-unknown-linux-gnu"
    if art.manifest["native"]["kind"] == "object":
        assert header["Type"].startswith("REL") and "link it with" in art.manifest["native"]["note"]
    with pytest.raises(runtime.TargetMismatchError, match="aarch64.*cannot run on this x86_64"):
        runtime.load(tmp_path / "a.grafo")


@pytest.mark.skipif(shutil.which("readelf") is None, reason="needs binutils")
@pytest.mark.parametrize("level", ["x86-64-v2", "x86-64-v3", "x86-64-v4"])
def test_x86_levels(level, tmp_path, same):
    cf = compiler.compile(F.smooth, "f64[?]", target=level)
    cf.save(tmp_path / "l.grafo")
    art = runtime.artifact.read(tmp_path / "l.grafo")
    assert art.manifest["target"]["cpu"] == level
    assert set(runtime.cpu.X86_LEVELS[level]) == set(art.manifest["target"]["features"])
    (tmp_path / "lib").mkdir()
    (tmp_path / "lib/libgrafo.so").write_bytes(art.members["lib/libgrafo.so"])
    header = readelf(tmp_path / "lib/libgrafo.so")
    assert header["Machine"] == "Advanced Micro Devices X86-64" and header["Type"].startswith("DYN")
    if runtime.cpu.missing_features(art.manifest["target"]["triple"],
                                    art.manifest["target"]["features"]):
        with pytest.raises(runtime.MissingCPUFeaturesError):
            runtime.load(tmp_path / "l.grafo")
    else:
        x = np.random.default_rng(2).random(100)
        same(runtime.load(tmp_path / "l.grafo")(x), F.smooth(x))


def test_unknown_target():
    with pytest.raises(ValueError, match="unknown target 'sparc'"):
        compiler.compile(F.smooth, "f64[?]", target="sparc")


def test_cpu_model_code_is_read_not_run_or_saved(tmp_path):
    cf = compiler.compile(F.smooth, "f64[?]", target=cpu_model("znver4"))
    assert "zmm" in cf.asm
    with pytest.raises(RuntimeError, match="cannot be called in this process"):
        cf(np.ones(3))
    with pytest.raises(ValueError, match="CPU model 'znver4' can be read"):
        cf.save(tmp_path / "z.grafo")
    assert not (tmp_path / "z.grafo").exists()


# CLI -------------------------------------------------------------------------------------------

def test_cli_compile_and_run(tmp_path, capsys, same):
    src = os.path.join(TESTS, "aot_functions.py")
    out = tmp_path / "a.grafo"
    assert main(["compile", f"{src}:affine", "--signature", "f32[?], f32[?]",
                 "-o", str(out)]) == 0
    a = np.arange(4, dtype=np.float32)
    np.save(tmp_path / "a.npy", a)
    np.save(tmp_path / "b.npy", a * 3)
    assert main(["run", str(out), "--input", str(tmp_path / "a.npy"), str(tmp_path / "b.npy"),
                 "--output", str(tmp_path / "y.npy")]) == 0
    same(np.load(tmp_path / "y.npy"), F.affine(a, a * 3))
    assert main(["run", str(out), "--input", str(tmp_path / "a.npy"),
                 str(tmp_path / "a.npy")]) == 0
    assert "[0. 3. 6. 9.]" in capsys.readouterr().out


def test_cli_run_reports_errors(tmp_path, capsys):
    src = os.path.join(TESTS, "aot_functions.py")
    out = tmp_path / "d.grafo"
    assert main(["compile", f"{src}:dot_at", "--signature", "f32[?], f32[?]",
                 "-o", str(out), "--target", "x86-64-v2"]) == 0
    np.save(tmp_path / "x.npy", np.ones(2, np.float32))
    x = str(tmp_path / "x.npy")
    assert main(["run", str(out), "--input", x, x]) == 1
    err = capsys.readouterr().err
    assert err.startswith("IndexError: index 3 is out of bounds") or "CPU" in err
    (tmp_path / "junk.grafo").write_text("junk")
    assert main(["run", str(tmp_path / "junk.grafo"), "--input", x]) == 1
    assert "not a grafo artifact" in capsys.readouterr().err
    assert main(["compile", f"{src}:nope", "--signature", "f32", "-o", str(out)]) == 1
    assert "nope" in capsys.readouterr().err


def test_artifact_bytes_are_a_zip_with_fixed_members(artifact):
    with zipfile.ZipFile(io.BytesIO(artifact.read_bytes())) as zf:
        names = set(zf.namelist())
    assert {"manifest.json", "include/grafo.h", "lib/libgrafo.so", "ir/dot_at.optimized.mlir",
            "ir/dot_at.loops.mlir", "llvm/dot_at.ll"} == names
    art = runtime.artifact.read(artifact)
    assert art.manifest["payload"]["sha256"] == payload_digest(art.members, art.manifest)
    entry = art.entries[0]
    assert entry["symbol"] == "grafo_dot_at" and entry["params"] == ["x", "y"]
    assert entry["inputs"][0] == {"name": "x", "dtype": "float32", "shape": [None],
                                  "contiguous": False}
    assert [e["kind"] for e in entry["errors"]] == ["ValueError", "IndexError"]
    assert textwrap.dedent(entry["errors"][1]["source"]).strip().endswith("x[3]")
    assert "int32_t grafo_dot_at(grafo_memref_1d *x, grafo_memref_1d *y, float *result0, " \
           "grafo_status *status);" in art.header


def test_saving_a_function_with_a_variable_is_a_clear_error(tmp_path):
    # Regression: saving/pickling failed with an internal zip() ValueError.
    v = compiler.Variable(np.zeros(3, np.float32))

    def uses_variable(x):
        v.assign_add(x)
        return v.value * 2

    cf = compiler.compile(uses_variable, "f32[3]")
    with pytest.raises(TypeError, match="compiler.Variable cannot be saved yet"):
        cf.save(tmp_path / "v.grafo")
    with pytest.raises(TypeError, match="compiler.Variable cannot be saved yet"):
        pickle.dumps(cf)


def test_loaded_artifact_refuses_a_written_argument_aliasing_another(tmp_path):
    """A ConcreteFunction runs f(a, view of a) as Python; a loaded artifact has no Python
    function, so it raises instead of reading elements it already overwrote."""
    from aot_functions import shift_into
    cf = compiler.compile(shift_into, "f64[?], f64[?]")
    path = tmp_path / "shift.grafo"
    cf.save(path)
    loaded = runtime.load(path)
    x, y = np.arange(6.0), np.arange(6.0)
    loaded(x, y)
    np.testing.assert_array_equal(x, y + 1)
    x = np.arange(6.0)
    before = x.copy()
    with pytest.raises(ValueError, match="share memory and 'a' is written"):
        loaded(x, x[::-1])
    np.testing.assert_array_equal(x, before)
    assert loaded.record["written"] == [0]


@pytest.mark.parametrize("written", [[1.0], [2], [-1], ["0"]])
def test_malformed_written_positions(tmp_path, written):
    """``written`` must name array inputs: the loader checks the flags of those arguments
    and copies them back."""
    from aot_functions import shift_into
    path = tmp_path / "shift.grafo"
    compiler.compile(shift_into, "f64[?], f64[?]").save(path)
    runtime.load(path)
    bad = rewrite(path, tmp_path / "w.grafo",
                  edit_manifest=lambda m: m["entries"][0].update(written=written), resign=True)
    with pytest.raises(runtime.CorruptArtifactError, match=r"entries\[0\](\.written|: written)"):
        runtime.load(bad)
