"""Where a game kernel's time goes, by compiled function or source line: a developer's tool
over Linux `perf`.

    python -m sim.core.profiling deal --games 300000
    python -m sim.core.profiling cardgame --edition video --out-of-line
    python -m sim.core.profiling chance --lines

perf cannot name numba's JIT code by itself, and three traps cost earlier profiles their
first attempt: a kernel loaded from the cache keeps no object code in the process, so the
game is compiled into an empty cache directory; the same helper is linked into many
libraries, so each library's load address is taken from its own `cfunc.` symbol; and compile
samples crowd the profile, so only the samples in JIT code are counted. The child process
writes /tmp/perf-<pid>.map from the symbol tables of its object code, where `perf report`
looks for JIT symbols, then plays the games on one thread.

LLVM inlines most of a game into a few functions. `--out-of-line` keeps each of the
project's functions out of line in the batch loop's module, so that each gets its own row;
the kernel then runs a little slower and the shares shift a little. `--lines` compiles with
debug information (`NUMBA_DEBUGINFO=1`) and also counts the samples by source line, through
`addr2line` on the object code; check that its shares by function match a normal build's.
"""

from __future__ import annotations

import argparse
import gc
import os
import re
import shutil
import subprocess
import sys
import tempfile
from bisect import bisect_right

from sim.core.game import GAME_NAMES
from sim.core.jit import _OWN_FUNCTIONS  # the mangled-name prefixes of the project's functions

_LENGTH = re.compile(r"\d+")


def readable_name(symbol: str) -> str:
    """`_ZN10strategies4deal11choose_playB4v110...` -> `strategies.deal.choose_play`; other
    symbols as they are."""
    if "__numba_parfor_gufunc" in symbol:
        return "the batch loop (numba's parallel gufunc)"
    m = re.match(r"(?:cfunc\.)?_ZN", symbol)
    if not m:
        return symbol
    parts, i = [], m.end()
    while length := _LENGTH.match(symbol, i):  # each name part is spelled <length><text>
        i = length.end() + int(length[0])
        parts.append(symbol[length.end():i])
    return ".".join(parts) if parts else symbol


def object_code(libraries) -> list[tuple[int, bytes, list[tuple[int, int, str]]]]:
    """(load address, object code, its functions as (offset, size, symbol)) of each of these
    numba code libraries that kept its object code (compiled in this process)."""
    found = []
    for lib in libraries:
        try:
            obj = lib._get_compiled_object()  # private: numba keeps it for its cache
        except Exception:
            continue  # loaded from the cache, or not compiled
        with tempfile.NamedTemporaryFile(suffix=".o") as f:
            f.write(obj)
            f.flush()
            listing = subprocess.run(["nm", "-S", "--defined-only", f.name], capture_output=True, text=True).stdout
        symbols = []
        for line in listing.splitlines():
            fields = line.split()
            if len(fields) == 4 and fields[2] in "tTW":
                symbols.append((int(fields[0], 16), int(fields[1], 16), fields[3]))
        for offset, _, name in symbols:
            if name.startswith("cfunc."):  # defined in this library only
                found.append((lib.get_pointer_to_function(name) - offset, obj, symbols))
                break
    return found


def perf_map_lines(code) -> list[tuple[int, int, str]]:
    """(address, size, symbol) of every function in `object_code`'s list, for a perf map."""
    return sorted({(base + offset, size, name) for base, _, symbols in code for offset, size, name in symbols})


def _compiled_libraries():
    from numba.core.dispatcher import Dispatcher

    libraries = set()
    for obj in gc.get_objects():
        if isinstance(obj, Dispatcher):
            for cres in obj.overloads.values():
                libraries.add(cres.library)
                # the batch loop's own library (the parallel gufunc) hangs only off its caller's
                libraries.update(getattr(cres.library, "_linking_libraries", ()))
    return libraries


_OWN_DEFINE = re.compile(
    r'^(define [^\n]*@"?(?:' + "|".join(map(re.escape, _OWN_FUNCTIONS)) + r')[^\n]*\))( [^\n{]*)?\{', re.M
)


def noinline_own_functions(ir: str) -> str:
    """LLVM IR text with the project's function definitions marked `noinline` (those numba
    must inline, `alwaysinline`, left alone). Textual: llvmlite cannot add an attribute. The
    attribute goes after the others and before any metadata (`!dbg` in a debug build)."""

    def mark(m):
        trailer = m[2] or ""
        if "alwaysinline" in trailer:
            return m[0]
        attributes, bang, metadata = trailer.partition(" !")
        return f"{m[1]}{attributes.rstrip()} noinline{bang}{metadata.rstrip()} {{"

    return _OWN_DEFINE.sub(mark, ir)


def _keep_own_functions_out_of_line() -> None:
    """Mark the project's functions `noinline` in the batch loop's module before LLVM
    optimizes it."""
    import llvmlite.binding as ll
    from numba.core import codegen

    optimize = codegen.CPUCodeLibrary._optimize_final_module

    def patched(self):
        if self.name.startswith("__numba_parfor_gufunc"):
            self._final_module = ll.parse_assembly(noinline_own_functions(str(self._final_module)))
        optimize(self)

    codegen.CPUCodeLibrary._optimize_final_module = patched


def _child(game: str, games: int, edition: str | None, out_of_line: bool, objects: str | None) -> None:
    """Compile, write the perf map (and the object code into `objects`), play `games` games on
    one thread."""
    import time

    from sim.core.game import get

    if out_of_line:
        _keep_own_functions_out_of_line()
    played = get(game)
    rules = played.rules_from([f"edition={edition}"] if edition else [])
    played.simulate(8, 4, rules=rules, seed=1)
    code = object_code(_compiled_libraries())
    with open(f"/tmp/perf-{os.getpid()}.map", "w") as f:
        f.writelines(f"{a:x} {s:x} {name}\n" for a, s, name in perf_map_lines(code))
    if objects:
        write_objects(code, objects)
    t0 = time.perf_counter()
    played.simulate(games, 4, rules=rules, seed=1, threads=1)
    print(f"pid {os.getpid()}: {games:,} games in {time.perf_counter() - t0:.1f} s, one thread", flush=True)


def write_objects(code, directory: str) -> None:
    """`object_code`'s objects into `directory`, with an index of where each was loaded, for
    `source_lines`."""
    with open(os.path.join(directory, "objects.txt"), "w") as index:
        for i, (base, obj, symbols) in enumerate(code):
            with open(os.path.join(directory, f"{i}.o"), "wb") as f:
                f.write(obj)
            index.write(f"{base:x} {max(o + s for o, s, _ in symbols):x} {i}.o\n")


def source_lines(ips: list[int], objects: str) -> dict[str, int]:
    """Samples per source line ("path:line"; "(no line)" where the debug information names
    none) for these instruction addresses, from the objects `_child` wrote into `objects`."""
    from sim import ROOT

    loaded = []
    with open(os.path.join(objects, "objects.txt")) as index:
        for line in index:
            base, size, name = line.split()
            loaded.append((int(base, 16), int(size, 16), os.path.join(objects, name)))
    loaded.sort()
    bases = [base for base, _, _ in loaded]
    offsets: dict[str, list[int]] = {}
    for ip in ips:
        k = bisect_right(bases, ip) - 1  # the object loaded last below ip (objects do not overlap)
        if k >= 0 and ip < bases[k] + loaded[k][1]:
            offsets.setdefault(loaded[k][2], []).append(ip - bases[k])
    counts: dict[str, int] = {}
    for path, offs in offsets.items():
        where = subprocess.run(["addr2line", "-e", path], input="\n".join(f"{o:x}" for o in offs),
                               capture_output=True, text=True).stdout.split("\n")
        for place in where[: len(offs)]:
            file, _, line = place.rpartition(":")
            if not line.isdigit() or line == "0":
                place = "(no line)"
            elif file.startswith(str(ROOT)):
                place = f"{os.path.relpath(file, ROOT)}:{line}"
            counts[place] = counts.get(place, 0) + 1
    return counts


def _source_text(place: str) -> str:
    from sim import ROOT

    file, _, line = place.rpartition(":")
    try:
        return (ROOT / file).read_text().splitlines()[int(line) - 1].strip()
    except (OSError, ValueError, IndexError):
        return ""


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m sim.core.profiling", description=__doc__.split("\n\n")[0])
    parser.add_argument("game", choices=GAME_NAMES)
    parser.add_argument("--games", type=int, default=100_000, help="games played under perf (default 100,000)")
    parser.add_argument("--edition", choices=("wiki", "video"), help="card game edition (default wiki)")
    parser.add_argument("--out-of-line", action="store_true", help="one row per project function")
    parser.add_argument("--lines", action="store_true", help="also by source line (a build with debug information)")
    parser.add_argument("--rows", type=int, default=25, help="rows listed (default 25)")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--objects", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.edition and args.game != "cardgame":
        parser.error("--edition is for the card game only")
    if args.games < 1:
        parser.error(f"--games must be at least 1 (got {args.games})")
    if not args.child and not all(shutil.which(tool) for tool in ("perf", "nm", "addr2line")):
        parser.error("needs Linux perf and binutils (nm, addr2line) on the PATH")
    if args.child:
        _child(args.game, args.games, args.edition, args.out_of_line, args.objects)
        return
    with tempfile.TemporaryDirectory() as tmp:
        data = os.path.join(tmp, "perf.data")
        child = [sys.executable, "-m", "sim.core.profiling", "--child", args.game, "--games", str(args.games)]
        child += ["--edition", args.edition] * bool(args.edition) + ["--out-of-line"] * args.out_of_line
        env = dict(os.environ, NUMBA_CACHE_DIR=os.path.join(tmp, "cache"))
        if args.lines:
            child += ["--objects", tmp]
            env["NUMBA_DEBUGINFO"] = "1"
        run = subprocess.run(["perf", "record", "-F", "2000", "-o", data, "--", *child], env=env,
                             capture_output=True, text=True)
        pid = re.search(r"pid (\d+): (.*)", run.stdout)
        if run.returncode != 0 or not pid:
            sys.exit(f"profiling: the run under perf failed:\n{run.stderr[-2000:]}")
        print(f"{args.game}: {pid[2]}" + (" (a build with debug information)" if args.lines else ""))
        jit = ["-i", data, "--dsos", f"[JIT] tid {pid[1]}"]
        report = subprocess.run(
            ["perf", "report", *jit, "--no-children", "--sort", "symbol", "--stdio", "-g", "none",
             "--percentage", "relative"],
            capture_output=True, text=True,
        ).stdout
        if args.lines:
            script = subprocess.run(["perf", "script", *jit, "-F", "ip"], capture_output=True, text=True).stdout
            lines = source_lines([int(x, 16) for x in script.split()], tmp)
    os.remove(f"/tmp/perf-{pid[1]}.map")
    shares: dict[str, float] = {}
    for line in report.splitlines():
        m = re.match(r"\s*([\d.]+)%\s+\[\.\]\s+(\S+)", line)
        if m:
            name = readable_name(m[2])
            shares[name] = shares.get(name, 0.0) + float(m[1])
    print("share of the kernel's samples, by compiled function:")
    for name, share in sorted(shares.items(), key=lambda kv: -kv[1])[: args.rows]:
        print(f"{share:6.1f}%  {name}")
    if args.lines:
        total = sum(lines.values()) or 1
        print("by source line:")
        for place, n in sorted(lines.items(), key=lambda kv: -kv[1])[: args.rows]:
            print(f"{100 * n / total:6.1f}%  {place}  {_source_text(place)}")


if __name__ == "__main__":
    main()
