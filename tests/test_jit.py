"""The shared compile options: index wrap-around is off for this project's code only, its
functions are compiled once per kind of arguments (no copies for constants or int32), and they
are internal to the module of a parallel batch loop. And what they must not change:
a compiled run plays exactly the games its plain Python source plays."""

import os
import subprocess
import sys

import numpy as np
import pytest
from numba import njit


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


CALLER = """
@njit
def add(a, b):
    return a + b

@njit
def count(steps, n):
    total = 0  # a constant first, then a sum: its first typing is the literal 0
    for _ in range(n):
        total = add(total, steps[0])  # an int32 read from the array
    return add(total, 2)
"""


def compiled_callee_signatures(module):
    """The argument types `add` was compiled for when `count`, defined in `module`, calls it."""
    namespace = {"__name__": module, "njit": njit}
    exec(CALLER, namespace)
    assert namespace["count"](np.ones(1, np.int32), 3) == 5
    return [tuple(str(t) for t in sig) for sig in namespace["add"].signatures]


def test_project_functions_compile_once_for_constant_and_narrow_integer_arguments():
    assert compiled_callee_signatures("sim.probe") == [("int64", "int64")]
    assert compiled_callee_signatures("strategies.probe") == [("int64", "int64")]


def test_other_code_keeps_numba_s_copies_for_them():
    signatures = compiled_callee_signatures("tests.probe")
    assert len(signatures) > 1 and any("Literal" in t for sig in signatures for t in sig)
    assert any("int32" in sig for sig in signatures)


def test_positive_bits32_matches_its_plain_python_version():
    from sim.core.jit import _positive_bits, positive_bits32

    masks = njit(lambda a, starts: [positive_bits32(a, o) for o in starts])
    rng = np.random.default_rng(5)
    a = rng.integers(-3, 4, 200).astype(np.int32)
    a[[40, 71, 100]] = [np.iinfo(np.int32).max, np.iinfo(np.int32).min, 1]
    starts = np.arange(len(a) - 31)
    got = masks(a, starts)
    assert got == [_positive_bits(a, o) for o in starts]
    assert masks(np.ones(32, np.int32), np.zeros(1, np.int64)) == [2**32 - 1]  # bit 31 too, as a positive int


def finalized_ir(library_name):
    """The optimized LLVM IR of a library named library_name holding a caller of two functions
    kept out of line (noinline), one named as if from the sim package and one not."""
    import llvmlite.binding as ll
    from numba.core.compiler_lock import global_compiler_lock
    from numba.core.registry import cpu_target

    ir = """
    define linkonce_odr i64 @_ZN3sim5probe4stepEx(i64 %x) noinline { %y = add i64 %x, 1
      ret i64 %y }
    define linkonce_odr i64 @_ZN5other5probe4stepEx(i64 %x) noinline { %y = add i64 %x, 2
      ret i64 %y }
    define i64 @caller(i64 %x) { %a = call i64 @_ZN3sim5probe4stepEx(i64 %x)
      %b = call i64 @_ZN5other5probe4stepEx(i64 %a)
      ret i64 %b }
    """
    library = cpu_target.target_context.codegen().create_library(library_name)
    library.add_llvm_module(ll.parse_assembly(ir))
    with global_compiler_lock:
        library.finalize()
    return {ln.split("@")[1].split("(")[0]: ln for ln in library.get_llvm_str().splitlines() if ln.startswith("define")}


def test_project_functions_are_internal_to_a_parallel_loop_module():
    defs = finalized_ir("__numba_parfor_gufunc_probe")
    assert " internal " in defs["_ZN3sim5probe4stepEx.batch"]
    assert " linkonce_odr " in defs["_ZN5other5probe4stepEx"]
    # Elsewhere the project's functions keep the linkage numba gave them.
    assert " linkonce_odr " in finalized_ir("probe")["_ZN3sim5probe4stepEx"]


# The same, in the real thing: the Chance kernel compiled afresh (a kernel loaded from the cache
# keeps no IR in the process), and its batch loop's own library read back. The synthetic library
# above shows the rule; only the real pipeline shows that numba still calls the hook, under the
# library name it checks, with functions of the linkage it expects.
BATCH_LOOP_IR = """
import re
from sim.chance import api, kernel
from sim.chance.game import GAME
GAME.simulate(2, 2, seed=1, threads=1)
ir = "".join(lib.get_llvm_str() for cres in kernel.play_batch.overloads.values()
             for lib in cres.library._linking_libraries if lib.name.startswith("__numba_parfor_gufunc"))
print(len(re.findall(r'^define internal [^@]*@"?_ZN(?:3sim|10strategies)[^"(]*[.]batch', ir, re.M)))
"""


def internal_batch_functions(tmp_path, **env) -> int:
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    done = subprocess.run([sys.executable, "-c", BATCH_LOOP_IR], cwd=root, capture_output=True, text=True,
                          env={**os.environ, "NUMBA_CACHE_DIR": str(tmp_path), **env})
    assert done.returncode == 0, done.stderr[-2000:]
    return int(done.stdout)


@pytest.mark.builds
def test_a_real_batch_loop_holds_the_projects_functions_as_internal_copies(tmp_path):
    assert internal_batch_functions(tmp_path) >= 5  # play_game, the deck shuffle, the bots...


MISSING_TARGET = """
import warnings
import numba.np.arrayobj
del numba.np.arrayobj.fix_integer_index  # as a numba release without it would be
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    import sim
    from sim.core import jit
import numba.core.dispatcher as d
print(jit.HOOKS_ON, jit.MISSING_HOOK_TARGETS, d.Dispatcher.get_call_template is jit._get_call_template)
print(len(caught), caught[0].message if caught else "")
"""


def test_a_hook_whose_target_is_missing_leaves_numba_plain_with_one_warning():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    done = subprocess.run([sys.executable, "-c", MISSING_TARGET], cwd=root, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-2000:]
    state, warning = done.stdout.splitlines()
    # no hook applied, the others included
    assert state == "False ['numba.np.arrayobj.fix_integer_index'] True"
    assert warning.startswith("1 monosim: numba ") and "plain numba" in warning
