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
def monosim(capsys, monkeypatch):
    """The CLI in this process (faster than a subprocess per command), from the checkout's root."""
    from types import SimpleNamespace

    from sim.cli import main

    monkeypatch.chdir(os.path.dirname(os.path.dirname(__file__)))

    def run(*args: str):
        try:
            main(list(args))
            code = 0
        except SystemExit as e:
            code = e.code
        out = capsys.readouterr()
        # A first compile is announced (and reported) on stderr; whether a test sees it depends
        # on what ran before it in its worker, so tests read stderr without those lines.
        err = "".join(line for line in out.err.splitlines(keepends=True) if not line.startswith("monosim: compil"))
        return SimpleNamespace(returncode=code, stdout=out.out, stderr=err)

    return run
