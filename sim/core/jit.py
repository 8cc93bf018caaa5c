"""Compilation options shared by the game kernels."""

import os
import warnings

import llvmlite.binding as _ll
import numba
from llvmlite import ir as _ir
from numba import njit
from numba.core import caching as _caching
from numba.core import codegen as _codegen
from numba.core import config, types
from numba.core import cpu as _cpu
from numba.core import dispatcher as _dispatcher
from numba.cpython.unsafe.numbers import trailing_zeros as _trailing_zeros
from numba.extending import intrinsic as _intrinsic
from numba.np import arrayobj

# The hooks below change how numba compiles this project's code: speed and compile time only,
# never a result (the golden tables are the same with them off: tests/test_contract.py). Each
# patches a private part of numba, so pyproject.toml bounds numba to the releases they are
# tested on, and here each checks that what it patches exists. If anything is missing, none
# is applied: the project runs on plain numba, with one warning. MONOSIM_PLAIN_NUMBA=1 asks
# for plain numba outright (compiled into a cache folder of its own, sim.cache_base).
PLAIN_NUMBA_VARIABLE = "MONOSIM_PLAIN_NUMBA"
PLAIN_NUMBA_ASKED = os.environ.get(PLAIN_NUMBA_VARIABLE, "") not in ("", "0")

_fix_integer_index = getattr(arrayobj, "fix_integer_index", None)
_optimize_final_module = getattr(_codegen.CPUCodeLibrary, "_optimize_final_module", None)
_get_call_template = getattr(_dispatcher.Dispatcher, "get_call_template", None)
# Older numba releases name the cache classes with a leading underscore.
USER_CACHE_LOCATOR = getattr(_caching, "UserProvidedCacheLocator", None) or getattr(
    _caching, "_UserProvidedCacheLocator", None)
CACHE_IMPL = getattr(_caching, "CacheImpl", None) or getattr(_caching, "_CacheImpl", None)

HOOK_TARGETS = {
    "the _nrt compile option": hasattr(_cpu.CPUTargetOptions, "_nrt"),
    "numba.np.arrayobj.fix_integer_index": callable(_fix_integer_index),
    "CPUCodeLibrary._optimize_final_module": callable(_optimize_final_module),
    "Dispatcher.get_call_template": callable(_get_call_template),
    "the cache locator classes": USER_CACHE_LOCATOR is not None and hasattr(CACHE_IMPL, "_locator_classes"),
}
MISSING_HOOK_TARGETS = [name for name, found in HOOK_TARGETS.items() if not found]
HOOKS_ON = not PLAIN_NUMBA_ASKED and not MISSING_HOOK_TARGETS
if MISSING_HOOK_TARGETS and not PLAIN_NUMBA_ASKED:
    warnings.warn(
        f"monosim: numba {numba.__version__} lacks {', '.join(MISSING_HOOK_TARGETS)}; running on plain numba "
        "(the same games, slower)", RuntimeWarning, stacklevel=2)

# Decorator for compiled functions that never create an array (everything but the functions
# that allocate state buffers and the parallel batch loops). Without numba's reference counting
# (its private `_nrt=False` option), a call that LLVM does not inline no longer pays an atomic
# increment and decrement for each array argument: about a dozen per call with six arrays,
# which was a large part of the time of the many small decision calls. Measured bit-identical
# and 1.2-1.7x faster in every game (docs/performance.md). A function that allocates, or
# calls one that does, fails to compile with it (a typing error), so the mistake cannot pass
# silently. numba rejects an option it does not know, so the option is given only where
# HOOK_TARGETS found it.
_NO_REFCOUNT = {"_nrt": False} if HOOKS_ON else {}
njit_no_refcount = njit(cache=True, **_NO_REFCOUNT)
# The same, and inlined by numba into every caller: for small helpers called several times a
# turn and for functions with one caller, which LLVM keeps out of line, so that no call passes
# each array argument as seven words.
njit_inline = njit(cache=True, inline="always", **_NO_REFCOUNT)

# For the modules generated for user bots (sim/core/userbot.py, which does not name numba's
# decorators, so that it stays out of the kernel sources' digest: see sim.kernel_sources_digest):
# a bot's own functions compile with numba's defaults (reference counting is set by their
# callers), the wrappers that call them like every decision function.
compile_bot_function = njit
compile_decision = njit_no_refcount


# Index wrap-around off for this project's compiled code. numba gives an array index of a
# signed type Python's meaning (a[-1] is the last item): every load and store adds a sign test
# and a select on its address path, which in these kernels' chains of dependent loads (a card,
# then its entry in the rules block) costs about a tenth of the run (classic 1.1-1.2x, measured
# bit-identical). The kernels never index with a negative number, so for functions of the sim
# and strategies packages (their package starts their mangled LLVM name) the index is used as
# it is; code of numba or of anyone else keeps the wrap-around.
_OWN_FUNCTIONS = ("_ZN3sim", "_ZN10strategies")


def _fix_own_index(context, builder, idxty, idx, size):
    if idxty.signed and builder.function.name.startswith(_OWN_FUNCTIONS):
        return context.cast(builder, idx, idxty, types.intp)
    return _fix_integer_index(context, builder, idxty, idx, size)


# Calls between the project's compiled functions without the parts of each array they never
# read. numba passes an array argument as seven to nine words (meminfo, parent, sizes, data,
# shape, strides), and a function it links into another library's module stays visible outside
# it, so LLVM keeps that calling convention. In the module of a kernel's parallel batch loop,
# which links in the whole game, the project's functions (sim and strategies packages) are
# made internal, so that LLVM's optimizer may drop the unread words and pass the rest in
# registers. Only there: internal copies in every library cost about 40% more compile time.
def _optimize_own_final_module(self):
    if self.name.startswith("__numba_parfor_gufunc"):
        for fn in self._final_module.functions:
            if fn.name.startswith(_OWN_FUNCTIONS) and not fn.is_declaration and fn.linkage == _ll.Linkage.linkonce_odr:
                fn.linkage = _ll.Linkage.internal
                # Renamed too: numba's JIT finds a function by name in any module not yet
                # compiled, and must not find this copy, whose calling convention LLVM changes.
                fn.name += ".batch"
    _optimize_final_module(self)


# One compiled version of each of the project's functions per kind of arguments, not a copy for
# each constant passed or each integer width. numba types a call `f(S, 0)` with the literal
# type of 0 and compiles f for it; a variable set to a constant and changed later (`p = 0`)
# has the literal type in the first rounds of type inference, enough to compile its callees
# for it too; and an index read from an int32 array compiles a callee again beside the int64
# one. Over half of every game's compiled code was such copies. For functions of the sim and
# strategies packages the call is typed with plain types and signed integers widened to int64
# (Python's meaning: no int32 wrap-around). LLVM still folds a constant wherever it inlines the
# callee. Without it only the compile time changes.
_OWN_MODULES = ("sim.", "strategies.")


def _plain_type(t):
    t = types.unliteral(t)
    if isinstance(t, types.Integer) and t.signed:
        return types.int64
    return t


def _get_own_call_template(self, args, kws):
    if (getattr(self.py_func, "__module__", None) or "").startswith(_OWN_MODULES):
        args = tuple(_plain_type(a) for a in args)
        kws = {k: _plain_type(v) for k, v in kws.items()}
    return _get_call_template(self, args, kws)


if HOOKS_ON:
    arrayobj.fix_integer_index = _fix_own_index
    _codegen.CPUCodeLibrary._optimize_final_module = _optimize_own_final_module
    _dispatcher.Dispatcher.get_call_template = _get_own_call_template


def or_python(python_version):
    """Decorator: the numba intrinsic it wraps (usable only in compiled code), or
    `python_version` when numba's JIT is off (NUMBA_DISABLE_JIT=1). The kernels then also run as
    plain Python, for debugging and for the test that a compiled run plays exactly the games of
    a plain one."""

    def choose(intrinsic):
        return python_version if config.DISABLE_JIT else intrinsic

    return choose


def _lowest_bit_index(x):
    x = int(x)
    return (x & -x).bit_length() - 1


# The index of the lowest set bit of x > 0 (LLVM's count of trailing zeros when compiled).
trailing_zeros = or_python(_lowest_bit_index)(_trailing_zeros)


def _positive_bits(a, start):
    return sum(1 << k for k in range(32) if a[start + k] > 0)


@or_python(_positive_bits)
@_intrinsic
def positive_bits32(typingctx, a, start):
    """A bit mask of which of a[start], ..., a[start + 31] (an int32 array) are above zero, from
    one vector compare: a loop over the 32 items, one compare, shift and or each, is what LLVM
    leaves it otherwise. Reads the 32 items without numba's bounds check."""
    if not (isinstance(a, types.Array) and a.dtype == types.int32 and isinstance(start, types.Integer)):
        return None

    def codegen(context, builder, signature, args):
        data = context.make_array(signature.args[0])(context, builder, args[0]).data
        first = builder.gep(data, [context.cast(builder, args[1], signature.args[1], types.intp)])
        vector = _ir.VectorType(_ir.IntType(32), 32)
        items = builder.load(builder.bitcast(first, vector.as_pointer()), align=4)
        above = builder.icmp_signed(">", items, _ir.Constant(vector, None))
        return builder.zext(builder.bitcast(above, _ir.IntType(32)), _ir.IntType(64))

    return types.int64(a, start), codegen
