import os

import pytest

# Compile once per test run, and reuse the cache across runs.
os.environ.setdefault(
    "NUMBA_CACHE_DIR", os.path.join(os.path.dirname(os.path.dirname(__file__)), ".numba_cache")
)


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
