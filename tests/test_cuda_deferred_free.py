"""Device memory of collected ``DeviceArray`` s (``runtime/cuda/driver.py``): ``__del__`` never
calls the driver (the collector can run inside a driver call, where a second call deadlocks);
the Runtime frees it at its next call, on the driver it was made with."""

import gc
import threading

import numpy as np
import pytest

import runtime.cuda as rc
from runtime.cuda import driver


@pytest.fixture(autouse=True)
def sim():
    driver.select("simulator")
    yield driver.simulator()
    driver.select(None)


def _frees(sim):
    return [e[1] for e in sim.events if e[0] == "free"]


def test_a_collected_array_is_freed_at_the_next_runtime_call(sim):
    rt = rc.get()
    a = rt.empty((4,), np.float64)
    ptr = a.ptr
    del a
    assert ptr not in _frees(sim)
    rt.synchronize()
    assert _frees(sim).count(ptr) == 1


def test_an_explicit_free_is_immediate_and_once(sim):
    rt = rc.get()
    a = rt.empty((4,), np.float64)
    a.free()
    assert _frees(sim).count(a.ptr) == 1
    del a
    rt.synchronize()
    assert len(_frees(sim)) == 1


class _Reentry:
    """The selected driver behind a lock that records a call made while another holds it,
    with a garbage collection inside every call (as a lazily loading binding may do)."""

    def __init__(self, drv):
        self.drv, self.lock, self.reentered = drv, threading.Lock(), False

    def __getattr__(self, name):
        fn = getattr(self.drv, name)

        def call(*args):
            if not self.lock.acquire(blocking=False):
                self.reentered = True
                return fn(*args)
            try:
                gc.collect()
                return fn(*args)
            finally:
                self.lock.release()
        return call


def test_collection_inside_a_driver_call_does_not_call_the_driver(sim):
    rt = rc.get()
    wrapped = _Reentry(rt.drv)
    rt.drv = wrapped
    a = rt.empty((4,), np.float64)
    ptr = a.ptr
    cycle = [a]
    cycle.append(cycle)         # only the cycle collector frees it
    del a, cycle
    rt.synchronize()            # collects inside the driver call, then frees at the next
    rt.synchronize()
    assert not wrapped.reentered
    assert _frees(sim).count(ptr) == 1


def test_a_runtime_keeps_its_driver_after_select(sim):
    rt = rc.get()
    a = rt.empty((4,), np.float64)
    driver.select("simulator")          # a fresh simulated machine
    other = driver.simulator()
    a.free()
    assert _frees(sim) == [a.ptr]
    assert _frees(other) == []
