"""Fuzzing of artifact manifests (the mutations of benches/fuzz_artifacts.py, drawn by
Hypothesis): a manifest edited any way, with its checksum recomputed for the edit, either
loads and computes what the original computes (or raises its argument errors), or raises an
ArtifactError. Loading and calling run in a worker process, so a crash fails the test
instead of ending the test run."""

import importlib.util
import json
import os

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

BENCH = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "benches",
                     "fuzz_artifacts.py")


@pytest.fixture(scope="module")
def fuzz():
    spec = importlib.util.spec_from_file_location("fuzz_artifacts", BENCH)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def seeds(fuzz):
    """[(name, members, manifest, calls, the original's answer)] and the worker."""
    worker = fuzz.Worker()
    out = []
    for name, data, calls in fuzz.seed_artifacts():
        members = fuzz.members_of(data)
        baseline = worker.run(data, calls)
        assert baseline["load"] == "ok", (name, baseline)
        out.append((name, members, json.loads(members["manifest.json"]), calls, baseline))
    yield out, worker
    worker.close()


@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_edited_manifests_load_cleanly_or_raise_artifact_errors(fuzz, seeds, data):
    bases, worker = seeds
    name, members, manifest, calls, baseline = bases[data.draw(st.integers(0, len(bases) - 1))]
    mutated, change = fuzz.mutate(manifest, data.draw(st.randoms(use_true_random=False)))
    answer = worker.run(fuzz.resigned(members, mutated), calls)
    assert fuzz.outcome(answer, baseline) in ("clean", "artifact_error"), (name, change, answer)


def test_the_bench_counts_each_outcome(fuzz):
    lines = []
    counts = fuzz.fuzz(12, seed=3, report=lines.append)
    assert lines[0] == "tried: 12" and counts["tried"] == 12
    assert sum(counts[k] for k in fuzz.OUTCOMES) == 12
    assert counts["crash"] == counts["other"] == counts["different"] == 0
