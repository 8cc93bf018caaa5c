"""Compilation options shared by the game kernels."""

from numba import njit

# Decorator for compiled functions that never create an array (everything but the functions
# that allocate state buffers and the parallel batch loops). Without numba's reference counting
# (its private `_nrt=False` flag), a call that LLVM does not inline no longer pays an atomic
# increment and decrement for each array argument: about a dozen per call with six arrays,
# which was a large part of the time of the many small decision calls. Measured bit-identical
# and 1.2-1.7x faster in every game (docs/architecture.md). A function that allocates, or
# calls one that does, fails to compile with it (a typing error), so the mistake cannot pass
# silently.
# Should a numba release drop the private flag, plain njit(cache=True) changes only the speed.
njit_no_refcount = njit(cache=True, _nrt=False)
# The same, and inlined by numba into every caller: for small helpers called several times a
# turn and for functions with one caller, which LLVM keeps out of line, so that no call passes
# each array argument as seven words.
njit_inline = njit(cache=True, _nrt=False, inline="always")
