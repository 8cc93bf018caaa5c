"""Every monosim command that README.md and docs/*.md show, and the outputs they print.

    python tests/docs_commands.py --write   # run the commands whose output the docs show; write it in
    python tests/docs_commands.py --check   # the same, compared (tests/test_docs.py does this)

A command is a line of a console, sh or bash block that starts with `monosim` (`$ monosim` in
a console block); the lines after it, up to the next `$` line or the end of the block, are its
output. A command with output is run as written, and its output must be what the docs show,
so no number in them can go stale. A command without output is run scaled down (few games,
the spec's runs cut to a hundred games, tune's --check) in a scratch folder, with the
placeholders the docs use (a run folder, a position file, a bad spec) made real; it must exit
as `expected_exit` says.
"""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

import inprocess

ROOT = Path(__file__).resolve().parent.parent
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
SMALL = 300  # games for a scaled-down command
SMALL_LADDER = 50  # games a table for a scaled-down ladder: it plays every table (504 of 9 bots)
COUNT_OPTIONS = ("--games", "-n")
# Commands the suite cannot run, and why.
NOT_RUN = {
    "--scheduler tcp://SCHEDULER": "needs a running Dask scheduler (tests/test_experiment.py runs a LocalCluster)",
    "monosim tune SPEC --out DIR --resume": "a template: SPEC and DIR stand for an interrupted tune of your own",
}
# The bad specs the docs show errors for, by doc.
BAD_SPECS = {
    "experiments.md": 'name = "bad"\ngame = "chance"\nplayers = 2\nseats = ["bust_threshold"]\n[sweep]\n'
                      '"seat.0.q" = [0.1]\n[run]\ngames = 100\n',
    "tuning.md": 'name = "bad"\ngame = "deal"\nplayers = 2\n[search]\n"seat.0.set_bonus" = [3, 6]\n'
                 '[goals]\ncomeback = { min = 0.1 }\n',
}


@dataclass
class Shown:
    doc: Path
    line: int  # of the command, 1-based
    command: str
    output: list[str] | None  # the lines the docs show after it (None: none shown)

    @property
    def where(self) -> str:
        return f"{self.doc.relative_to(ROOT)}:{self.line}"


def shown(doc: Path) -> list[Shown]:
    lines = doc.read_text().splitlines()
    found: list[Shown] = []
    block, current = None, None  # the open block's language; its last command
    for i, line in enumerate(lines):
        fence = re.match(r"^```(\w*)", line)
        if fence:
            block, current = (fence.group(1) if block is None else None), None
            continue
        if block == "console":
            if line.startswith("$ monosim "):
                current = Shown(doc, i + 1, line[2:], [])
                found.append(current)
            elif line.startswith("$ "):
                current = None
            elif current is not None:
                current.output.append(line)
        elif block in ("sh", "bash") and line.startswith("monosim "):
            found.append(Shown(doc, i + 1, line, None))
    for s in found:
        if s.output == []:
            s.output = None
    return found


def all_shown() -> list[Shown]:
    return [s for doc in DOCS for s in shown(doc)]


def argv(command: str) -> list[str]:
    """The words of a shown command, without its trailing comment and with [optional] parts
    taken in."""
    text = re.sub(r"\s+#.*$", "", command.strip())
    text = re.sub(r"\[(--[^\]]*)\]", r"\1", text)  # an [--option] shown as optional
    return shlex.split(text)[1:]  # without "monosim"


class Scratch:
    """A scratch folder with what the docs' placeholders stand for."""

    def __init__(self, path: Path):
        self.path = path
        self.runs = path / "results"
        self.run_dir: Path | None = None

    def run_folder(self) -> Path:
        if self.run_dir is None:
            done = monosim(["run", str(ROOT / "experiments" / "seat_advantage.toml"), "--set", "run.games=200",
                            "--set", "run.chunk_size=100", "--out-root", str(self.path / "fixture"),
                            "--no-progress"], self.path)
            assert done.returncode == 0, done.stdout
            self.run_dir = next((self.path / "fixture" / "seat_advantage").iterdir())
        return self.run_dir


def scaled(s: Shown, scratch: Scratch) -> list[str]:
    """The command as the suite runs it when the docs show no output for it."""
    args = argv(s.command)
    out = []
    for a in args:
        if re.fullmatch(r"results/[\w.-]+/(<RUN-ID>|\d{8}-\d{6})", a):
            a = str(scratch.run_folder())
        elif a in ("game.toml", "my_game.toml"):
            a = str(ROOT / "experiments" / "classic-position.toml")
        elif a == "bad.toml":
            bad = scratch.path / "bad.toml"
            bad.write_text(BAD_SPECS[s.doc.name])
            a = str(bad)
        elif a.startswith("experiments/"):
            a = str(ROOT / a)
        out.append(a)
    small = SMALL_LADDER if len(out) > 1 and out[1] == "ladder" else SMALL
    for i, a in enumerate(out[:-1]):
        if a in COUNT_OPTIONS and int(out[i + 1]) > small:
            out[i + 1] = str(small if out[0] != "bench" else 2000)
        if a == "--rolls":
            out[i + 1] = "1000"
    verb = out[0]
    if verb == "run":
        out += ["--set", "run.games=100", "--set", "run.chunk_size=100", "--out-root", str(scratch.runs),
                "--no-progress"]
    elif verb == "tune" and "--check" not in out:
        out.append("--check")
    elif verb == "bench" and not any(a in COUNT_OPTIONS for a in out):
        out += ["-n", "2000"]
    elif len(out) > 1 and out[1] in ("simulate", "values", "house-rules", "seats", "position", "advise", "ladder") \
            and not any(a in COUNT_OPTIONS for a in out):
        out += ["--games", str(small)]
    return out


def expected_exit(s: Shown) -> int:
    if "bad.toml" in s.command or (s.output and s.output[-1].startswith("monosim: error:")):
        return 2
    if "--resume" in s.command:
        return 2  # nothing unfinished in the scratch folder: the command says so
    if s.output and "monosim: interrupted;" in s.output[-1]:
        return 130  # a `play` session whose input ends at a prompt
    return 0


def not_run(s: Shown) -> str | None:
    return next((why for key, why in NOT_RUN.items() if key in s.command), None)


def monosim(args: list[str], cwd: Path) -> subprocess.CompletedProcess:
    return inprocess.monosim(*args, cwd=cwd)


def output_of(s: Shown) -> list[str]:
    """What the command prints when run as the docs show it, in a scratch folder that sees the
    checkout's experiments/ (a run writes its results there, not into the checkout)."""
    with tempfile.TemporaryDirectory() as tmp:
        (Path(tmp) / "experiments").symlink_to(ROOT / "experiments")
        if "bad.toml" in s.command:
            (Path(tmp) / "bad.toml").write_text(BAD_SPECS[s.doc.name])
        done = monosim(argv(s.command), Path(tmp))
        return (done.stdout + (done.stderr if done.returncode else "")).splitlines()


def excerpt(shown_lines: list[str], printed: list[str]) -> list[str] | None:
    """What an output shown with "..." (lines left out) should read: the printed lines up to
    the "...", then from the printed line that begins as the shown line after it, to the end of
    that paragraph. None when the docs show the whole output."""
    if "..." not in shown_lines:
        return None
    cut = shown_lines.index("...")
    head = printed[:cut]
    anchor = shown_lines[cut + 1] if cut + 1 < len(shown_lines) else None
    after = range(cut, len(printed))
    start = next((i for i in after if printed[i] == anchor), None)  # the same line, else one that begins alike
    if start is None:
        start = next((i for i in after if anchor and printed[i].startswith(anchor[:8])), len(printed))
    end = next((i for i in range(start, len(printed)) if not printed[i].strip()), len(printed))
    return head + ["..."] + printed[start:end]


def current(s: Shown) -> list[str]:
    """The output the docs should show for this command now."""
    printed = output_of(s)
    return excerpt(s.output, printed) or printed


def write(docs: list[Shown]) -> None:
    by_doc: dict[Path, list[Shown]] = {}
    for s in docs:
        if s.output is not None:
            by_doc.setdefault(s.doc, []).append(s)
    for doc, items in by_doc.items():
        lines = doc.read_text().splitlines()
        for s in sorted(items, key=lambda s: -s.line):  # from the end, so line numbers hold
            lines[s.line: s.line + len(s.output)] = current(s)
        doc.write_text("\n".join(lines) + "\n")


def main() -> int:
    docs = all_shown()
    if sys.argv[1:] == ["--write"]:
        write(docs)
        return 0
    if sys.argv[1:] == ["--check"]:
        stale = [s.where for s in docs if s.output is not None and current(s) != s.output]
        print("\n".join(f"stale output: {w}" for w in stale) or "every output the docs show is current")
        with tempfile.TemporaryDirectory() as tmp:
            scratch = Scratch(Path(tmp))
            failed = [s.where for s in docs if s.output is None and not not_run(s)
                      and monosim(scaled(s, scratch), scratch.path).returncode != expected_exit(s)]
        print("\n".join(f"failed: {w}" for w in failed) or "every command the docs show runs")
        return 1 if stale or failed else 0
    print(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main())
