"""The shared semantics cases (drawn from public bug reports against other compilers): each
compiled function must give the eager outcome recorded in the case file.

The case file lives in the steering repository's ``shared/cases/semantics.py``, beside the
checkout; the test is skipped when it is absent. Cases that need a construct grafo does not
compile yet are strict xfails naming the construct, so fixing one forces its entry to go.
"""

import copy
import importlib.util
import os
import warnings

import pytest

import compiler

HERE = os.path.dirname(os.path.abspath(__file__))
CASES_FILE = os.path.join(HERE, "..", "..", "shared", "cases", "semantics.py")

NOT_YET: dict = {}


def _load_cases():
    if not os.path.exists(CASES_FILE):
        return None
    spec = importlib.util.spec_from_file_location("semantics_cases", CASES_FILE)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


S = _load_cases()
CASES = S.CASES if S else []


@pytest.mark.skipif(S is None, reason="shared/cases/semantics.py is not beside the checkout")
@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_case_gives_eager_outcome(case):
    args = copy.deepcopy(case["args"])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            outcome = ("value", compiler.function(case["fn"])(*args))
        except compiler.CompileError as exc:
            outcome = ("compile error", exc)
        except Exception as exc:  # noqa: BLE001 - the outcome under test
            outcome = ("raises", exc)
    ok = outcome[0] != "compile error" and S.check_case(case, *outcome)
    if case["id"] in NOT_YET:
        assert not ok, f"{case['id']} passes now: remove it from NOT_YET"
        pytest.xfail(f"not compiled yet: {NOT_YET[case['id']]}")
    assert ok, (case["id"], outcome, case.get("value"))
