"""The shared compile options: index wrap-around is off for this project's code only."""

import numpy as np
from numba import njit

import sim.core.jit  # noqa: F401  (imported by sim itself; named here for clarity)


def read_at(a, i):
    return a[i]


def compiled_as_module(module):
    """read_at compiled as if it were defined in `module`."""
    fn = type(read_at)(read_at.__code__, {}, "read_at")
    fn.__module__ = module
    return njit(fn)


def test_project_functions_use_a_negative_index_as_it_is():
    base = np.arange(10)
    # Without wrap-around, index -1 of the view base[1:] is the element before it: base[0].
    assert compiled_as_module("sim.probe")(base[1:], -1) == 0
    assert compiled_as_module("strategies.probe")(base[1:], -1) == 0


def test_other_code_keeps_python_negative_indexes():
    base = np.arange(10)
    assert compiled_as_module("tests.probe")(base[1:], -1) == 9
    assert compiled_as_module("simulation.probe")(base[1:], -1) == 9
    assert njit(lambda a: a[-2])(base) == 8
