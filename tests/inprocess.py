"""`monosim ARGS` run in the test's own process, with what a child process would give back: the
exit code, stdout and stderr. A child would only add its start (a second or two of imports and
kernel loading a command); the tests that need a real process (signals, the entry point, umask)
start one themselves."""

from __future__ import annotations

import contextlib
import io
import os
import subprocess
from pathlib import Path


def monosim(*args: str, cwd: str | Path | None = None, stdin: str = "") -> subprocess.CompletedProcess:
    """`monosim args` in `cwd` (the current folder if None) with a wide terminal, reading
    `stdin`; a first compile's announcement is left out of stderr (whether a test sees it
    depends on what ran before it in its worker)."""
    import sys

    from sim.cli import main

    out, err = io.StringIO(), io.StringIO()
    saved = os.getcwd(), os.environ.get("COLUMNS"), sys.stdin
    os.environ["COLUMNS"] = "200"
    sys.stdin = io.StringIO(stdin)
    try:
        if cwd is not None:
            os.chdir(cwd)
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                main([str(a) for a in args])
                code = 0
            except SystemExit as e:  # as a process would exit: None is 0, a message 1
                code = 0 if e.code is None else e.code if isinstance(e.code, int) else 1
    finally:
        sys.stdin = saved[2]
        os.chdir(saved[0])
        if saved[1] is None:
            del os.environ["COLUMNS"]
        else:
            os.environ["COLUMNS"] = saved[1]
    stderr = "".join(line for line in err.getvalue().splitlines(keepends=True) if not line.startswith("monosim: compil"))
    return subprocess.CompletedProcess(list(args), code, out.getvalue(), stderr)
