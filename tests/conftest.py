import os
import subprocess
import sys
import time

import pytest

# Compile once per test run, and reuse the cache across runs.
os.environ.setdefault(
    "NUMBA_CACHE_DIR", os.path.join(os.path.dirname(os.path.dirname(__file__)), ".numba_cache")
)


def pytest_sessionstart(session):
    """With test workers (pytest -n), before they start: compile every game's main kernel
    entries once (tests/warm_kernels.py), in two processes. Otherwise both workers compile each
    kernel their first tests need, often the same one at once, on a fresh machine."""
    if hasattr(session.config, "workerinput") or not getattr(session.config.option, "numprocesses", None):
        return
    from sim.core.game import games

    halves = [[], []]
    for g in sorted(games(), key=lambda g: -g.kernel.compile_seconds):  # the longest first, to the lighter half
        min(halves, key=lambda h: sum(x.kernel.compile_seconds for x in h)).append(g)
    start = time.perf_counter()
    script = os.path.join(os.path.dirname(__file__), "warm_kernels.py")
    procs = [subprocess.Popen([sys.executable, script, *(g.name for g in half)], stdout=subprocess.DEVNULL,
                              stderr=subprocess.PIPE, text=True) for half in halves]
    for p in procs:
        err = p.communicate()[1]
        if p.returncode:  # the tests that need the kernel will say what is wrong
            print(f"warming the kernels failed ({p.returncode}): {err.strip().splitlines()[-1:]}", file=sys.stderr)
    print(f"kernels compiled or loaded in {time.perf_counter() - start:.0f} s", file=sys.stderr)


def pytest_addoption(parser):
    parser.addoption(
        "--long", action="store_true", help="run statistical tests at full sample sizes"
    )


@pytest.fixture(scope="session")
def long_run(request) -> bool:
    """True under --long: statistical tests use their full sample sizes."""
    return request.config.getoption("--long")


@pytest.fixture
def monosim():
    """The CLI in this process (faster than a subprocess per command), from the checkout's root."""
    import inprocess

    root = os.path.dirname(os.path.dirname(__file__))
    return lambda *args, stdin="": inprocess.monosim(*args, cwd=root, stdin=stdin)
