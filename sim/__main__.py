"""monosim's entry point (the `monosim` command, `python -m sim`).

A module of its own, so that a Ctrl-C while the CLI is still loading (its imports take about a
second; the package's own, numba's, are guarded in sim/__init__.py) ends as an interrupt
anywhere else does: one line and exit code 130, not a traceback. Once the CLI runs,
sim.cli.main handles interrupts itself.
"""

import sys

from sim import INTERRUPTED_AT_START


def main() -> None:
    try:
        from sim.cli import main as cli_main

        cli_main()
    except KeyboardInterrupt:  # only before sim.cli.main's own handling begins: nothing was started
        print(INTERRUPTED_AT_START, file=sys.stderr)
        sys.exit(130)


if __name__ == "__main__":
    main()
