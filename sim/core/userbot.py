"""Bots that users write in plain Python (docs/bots.md), compiled on their own and asked by a game's kernel.

A bot file holds one or more bot classes. A class names its fallback (a built-in policy spec),
declares its parameters with ranges, and defines one function per decision it takes over, each
reading the game through a view and the accessors of sim/<game>/bots.py::

    class Behind:
        fallback = "smart"
        params = {"risk": (0.25, 0.0, 1.0, "the bust chance it accepts")}

        def flip(view, params):
            if my_skyline(view) < leader_skyline(view):
                return bust_chance(view) < params.risk
            return FALLBACK  # level or ahead: the fallback decides

A seat plays it as ``path/to/file.py:Behind risk=0.3`` wherever a policy spec is accepted. The
seat's policy kind is the fallback's, so every decision the bot leaves out is the fallback's;
its parameter row is the fallback's, then the bot columns of sim/core/botcall.py (its number at
the table, its own parameters, the decisions it takes and their address).

How it runs at compiled speed: the game's kernel is compiled once for every table, and asks a
bot seat's decisions through the address of a C function that this module has numba compile
from the bot file (sim/core/botcall.py): per bot class, one function that makes the view and the
params, calls the bot's own function for the decision and passes its answers back. The kernel's
decision entry points (sim/<game>/bots.py) check the answer, hand a FALLBACK to the built-in
decision, and end the game on a refused move with a status naming the bot and the decision; the
run stops with that message (exit code 2). The generated module lies under the numba cache
folder, named by digests of the compiled sources and of the bot files' texts, and numba caches
its compiled functions: an edit to a bot file compiles that file's bots again (about a second),
never the kernel.

With NUMBA_DISABLE_JIT=1 (``monosim --plain ...``) the same module runs as plain Python, so that
a bot can be stepped through in a debugger, with the same games.
"""

from __future__ import annotations

import ast
import contextlib
import functools
import hashlib
import importlib
import importlib.util
import inspect
import os
import re
import sys
import time
import traceback
import types
from dataclasses import dataclass
from pathlib import Path

import numba
import numpy as np

from sim.core.botcall import BOT_COLUMNS, MAX_ARGS, MAX_DECISIONS, MAX_PARAMS, PLAIN_BOTS, REFUSED
from sim.core.runner import UsageError, read_input


class BotError(UsageError):
    """A bot file that cannot be played: one line naming the file, the line and the decision."""


@dataclass(frozen=True)
class Decision:
    """One decision a bot may take over, as the bot's function sees it: `args` its arguments
    (the view, the params, then numbers whose kinds `kinds` gives, one letter each: i an
    integer, f a float, b a bool), `answers` the names of the numbers it returns (one name: a
    single number), `answer` what they must be and `doc` when it is asked, for docs and
    messages. The game's decision entry points (sim/<game>/bots.py) ask it by its place in
    the API's list, check the answer and hand a FALLBACK to the built-in bot."""

    name: str
    args: tuple[str, ...]
    kinds: str
    answers: tuple[str, ...]
    answer: str
    doc: str

    @property
    def hand_back(self) -> str:
        """The answer that hands this decision to the fallback, as a bot's code writes it."""
        return ", ".join(["FALLBACK"] + ["0"] * (len(self.answers) - 1))


@dataclass(frozen=True)
class BotApi:
    """What a game offers bot writers (sim/<game>/bots.py)."""

    game: str
    decisions: tuple[Decision, ...]
    slot: int  # the column of a bot seat's number in its parameter row (sim/core/botcall.py)
    view: str  # how a bot's view is made from the state S, the rules block RB and the seat p
    fallback: str  # a bot's fallback when it names none

    def decision(self, name: str) -> Decision | None:
        return next((d for d in self.decisions if d.name == name), None)


@functools.lru_cache(maxsize=None)
def api(game: str) -> BotApi:
    return importlib.import_module(f"sim.{game}.bots").API


# ---------------------------------------------------------------------------------------------
# Reading a bot file


@dataclass(frozen=True, eq=False)  # one object per file text and class (read_bot is cached)
class Bot:
    """One bot class of a bot file, checked."""

    game: str
    path: Path  # absolute
    name: str  # the class
    digest: str  # of the file's text
    fallback: str  # a built-in policy spec
    params: dict  # name -> (default, low, high, doc), in declared order
    functions: dict  # decision name -> the function
    lines: dict  # decision name -> line of its def

    @property
    def key(self) -> str:
        return f"{self.path}:{self.name}"

    def where(self, decision: str | None = None) -> str:
        line = self.lines.get(decision) if decision else None
        return f"{self.path}:{line}" if line else str(self.path)


def is_bot_spec(spec: str) -> bool:
    """Whether a policy spec names a bot file (``file.py`` or ``file.py:NAME``, then k=v)."""
    first = spec.split()[0] if spec.split() else ""
    return first.endswith(".py") or ".py:" in first


def split_spec(first: str) -> tuple[str, str]:
    path, _, name = first.rpartition(".py:")
    return (path + ".py", name) if path else (first, "")


def module_name(path: Path, digest: str) -> str:
    return f"monosim_bot_{re.sub(r'[^0-9A-Za-z_]', '_', path.stem)}_{digest[:12]}"


def load_module(path: str, digest: str) -> types.ModuleType:
    """The bot file as a module (one per file and text, kept in sys.modules). The generated
    module of the bots' decisions loads it through here, so a run and its compiled bots share it."""
    name = module_name(Path(path), digest)
    if name in sys.modules:
        return sys.modules[name]
    text = Path(path).read_bytes()
    module = types.ModuleType(name)
    module.__file__ = str(path)
    sys.modules[name] = module
    try:
        exec(compile(text, str(path), "exec"), module.__dict__)
    except BaseException:
        del sys.modules[name]
        raise
    from sim.core.jit import compile_bot_function

    for key, value in list(vars(module).items()):  # the file's helpers, compiled with the bot
        if inspect.isfunction(value) and value.__module__ == name:
            setattr(module, key, compile_bot_function(value))
    return module


def decision_function(cls: type, name: str):
    """A bot class's decision function (a plain function or a staticmethod)."""
    value = vars(cls)[name]
    return value.__func__ if isinstance(value, staticmethod) else value


def _bot_classes(module: types.ModuleType) -> dict[str, type]:
    """The classes a bot file defines (not those it imports): each is a bot."""
    return {name: c for name, c in vars(module).items()
            if isinstance(c, type) and c.__module__ == module.__name__}


def read_bot(game: str, first: str) -> Bot:
    """The bot `file.py[:NAME]` of `game`, checked (BotError naming the file and line)."""
    raw_path, name = split_spec(first)
    bots = read_file(game, raw_path)
    if not name:
        if len(bots) != 1:
            raise BotError(f"{raw_path}: name the bot as {Path(raw_path).name}:NAME, one of: {', '.join(bots)}")
        name = next(iter(bots))
    if name not in bots:
        raise BotError(f"{raw_path}: no bot class {name!r}; the file defines: {', '.join(bots)}")
    return bots[name]


def file_digest(raw_path: str) -> tuple[Path, str]:
    """A bot file's absolute path and the digest of its text: read, not run."""
    path = Path(raw_path).expanduser().resolve()
    try:
        return path, hashlib.sha256(read_input(path, "bot file")).hexdigest()
    except UsageError as e:
        raise BotError(str(e)) from None


def bot_files(specs) -> dict[str, str]:
    """Bot file path -> digest of its text, for every bot file among policy specs (read, not run)."""
    found = {}
    for spec in specs:
        if is_bot_spec(spec):
            path, digest = file_digest(split_spec(spec.split()[0])[0])
            found[str(path)] = digest
    return found


def check_unchanged(recorded: dict[str, str], where: str) -> None:
    """Refuse to run a bot file whose text is not the text `where` (a run) recorded, naming it:
    a bot file is code, and a run must not mix two versions of a bot (nor run a file put in
    its place)."""
    for path, digest in sorted(recorded.items()):
        if file_digest(path)[1] != digest:
            raise BotError(f"bot file {path} has changed since {where} was made; a bot file runs as code, so "
                           "monosim runs only the version the run recorded: put that version back, or start a "
                           "new run")


_READ_ONLY = [False]  # while set (without_running), bot files are read, not run


@contextlib.contextmanager
def without_running():
    """Bot files met in this block are read but not run: their classes, decisions, fallback and
    parameters come from the text (the values must be literals there), and nothing compiles.
    For checks that should not run anyone's code (tune --check)."""
    _READ_ONLY[0] = True
    try:
        yield
    finally:
        _READ_ONLY[0] = False


def running_bots() -> bool:
    """Whether bot files may run now (not inside without_running)."""
    return not _READ_ONLY[0]


def read_file(game: str, raw_path: str) -> dict[str, Bot]:
    """Every bot class of a bot file, checked, by name (BotError naming the file and line).
    They are compiled together, into one module."""
    path, digest = file_digest(raw_path)
    return _read_file(game, str(path), digest) if running_bots() else _read_text(game, str(path), digest)


def _parse(path: Path) -> ast.Module:
    """A bot file's syntax tree; what cannot be read or parsed is one BotError line."""
    try:
        return ast.parse(read_input(path, "bot file").decode("utf-8"), filename=str(path))
    except UnicodeDecodeError:
        raise BotError(f"{path}: not UTF-8 text") from None
    except SyntaxError as e:
        raise BotError(f"{path}:{e.lineno}: syntax error: {e.msg}") from None
    except (RecursionError, MemoryError):
        raise BotError(f"{path}: nested too deeply to read") from None


@functools.lru_cache(maxsize=None)
def _read_text(game: str, path_text: str, digest: str) -> dict[str, Bot]:
    """read_file without running the file: its bot classes as the text declares them."""
    path = Path(path_text)
    tree = _parse(path)
    game_api, bots = api(game), {}
    for node in (n for n in tree.body if isinstance(n, ast.ClassDef)):
        values = {}
        for item in node.body:
            if isinstance(item, ast.Assign) and len(item.targets) == 1 and isinstance(item.targets[0], ast.Name):
                try:
                    values[item.targets[0].id] = ast.literal_eval(item.value)
                except ValueError:
                    raise BotError(f"{path}:{item.lineno}: bot {node.name}: {item.targets[0].id} must be written as "
                                   "a literal for it to be checked without running the file") from None
        defs = [(f.name, f.lineno, [a.arg for a in f.args.args], None) for f in node.body
                if isinstance(f, ast.FunctionDef) and not f.name.startswith("_")]
        bots[node.name] = _make_bot(game, path, node.name, node.lineno, digest,
                                    values.get("fallback", game_api.fallback), values.get("params", {}), defs)
    if not bots:
        raise BotError(f"{path}: defines no bot class (see docs/bots.md)")
    return bots


@functools.lru_cache(maxsize=None)
def _read_file(game: str, path_text: str, digest: str) -> dict[str, Bot]:
    path = Path(path_text)
    _parse(path)  # its syntax errors as one line, before anything runs
    try:
        module = load_module(path_text, digest)
    except Exception as e:
        tb = [f for f in traceback.extract_tb(e.__traceback__) if f.filename == path_text]
        line = f":{tb[-1].lineno}" if tb else ""
        raise BotError(f"{path}{line}: loading the bot file failed: {type(e).__name__}: {e}") from None
    classes = _bot_classes(module)
    if not classes:
        raise BotError(f"{path}: defines no bot class (see docs/bots.md)")
    return {name: _check_class(game, path, name, cls, digest) for name, cls in classes.items()}


def _check_class(game: str, path: Path, name: str, cls: type, digest: str) -> Bot:
    defs = []
    for attr in vars(cls):
        value = decision_function(cls, attr)
        if inspect.isfunction(value) and not attr.startswith("_"):
            defs.append((attr, value.__code__.co_firstlineno, list(inspect.signature(value).parameters), value))
    return _make_bot(game, path, name, inspect.getsourcelines(cls)[1], digest,
                     getattr(cls, "fallback", api(game).fallback), getattr(cls, "params", {}), defs)


def _make_bot(game: str, path: Path, name: str, line: int, digest: str, fallback, params, defs) -> Bot:
    """A checked Bot from what a class declares: its fallback, its params and its functions, as
    (name, line of the def, argument names, the function: None when the file was only read)."""
    game_api = api(game)
    where = f"{path}:{line}: bot {name}"
    if not isinstance(fallback, str) or is_bot_spec(fallback):
        raise BotError(f"{where}: fallback must be a built-in policy spec such as {game_api.fallback!r}")
    params = _check_params(where, params)
    functions, lines = {}, {}
    for attr, at, got, value in defs:
        decision = game_api.decision(attr)
        if decision is None:
            known = ", ".join(d.name for d in game_api.decisions)
            raise BotError(f"{path}:{at}: bot {name}: {attr!r} is not a decision of this game; decisions: {known} "
                           "(helpers go outside the class)")
        if len(got) != len(decision.args):
            raise BotError(f"{path}:{at}: bot {name}: {attr}({', '.join(got)}) must take {len(decision.args)} "
                           f"arguments: {attr}({', '.join(decision.args)})")
        functions[attr], lines[attr] = value, at
    if not functions:
        raise BotError(f"{where}: defines none of the decisions ({', '.join(d.name for d in game_api.decisions)})")
    return Bot(game, path, name, digest, fallback, params, functions, lines)


def _check_params(where: str, params) -> dict:
    if not isinstance(params, dict):
        raise BotError(f"{where}: params must be a dict, name -> (default, low, high, doc)")
    if len(params) > MAX_PARAMS:
        raise BotError(f"{where}: at most {MAX_PARAMS} parameters (got {len(params)})")
    out = {}
    for key, spec in params.items():
        ok = (isinstance(key, str) and key.isidentifier() and not key.startswith("_") and isinstance(spec, tuple)
              and len(spec) in (3, 4) and all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in spec[:3])
              and (len(spec) == 3 or isinstance(spec[3], str)))
        if not ok:
            raise BotError(f"{where}: params[{key!r}] must be (default, low, high) or (default, low, high, doc), "
                           "numbers, under a name that is an identifier")
        default, low, high = (float(x) for x in spec[:3])
        if not low <= default <= high:
            raise BotError(f"{where}: params[{key!r}]: default {default:g} is outside [{low:g}, {high:g}]")
        out[key] = (default, low, high, spec[3] if len(spec) == 4 else "")
    return out


# ---------------------------------------------------------------------------------------------
# A bot as a policy spec


def parse(catalog, spec: str) -> tuple[str, int, np.ndarray]:
    """``file.py[:NAME] k=v ...`` -> (canonical spec, the fallback's kind, parameter row): the
    fallback's parameters, a 0 where the table puts the bot's number, the bot's parameters."""
    from strategies.catalog import Catalog, Kind, Param, PolicyError

    words = spec.split()
    try:
        bot = read_bot(catalog.game, words[0])
    except BotError as e:
        raise PolicyError(str(e)) from None
    try:
        _, kind, base = catalog.parse(bot.fallback)
    except PolicyError as e:
        raise PolicyError(f"{bot.where()}: bot {bot.name}: fallback {bot.fallback!r}: {e}") from None
    # The bot's own parameters parse as a one-kind catalog of them would.
    declared = {k: Param(j, low, high, doc) for j, (k, (_, low, high, doc)) in enumerate(bot.params.items())}
    own = Catalog(MAX_PARAMS, declared, {bot.name: Kind(0, "", {k: p[0] for k, p in bot.params.items()})})
    _, _, values = own._parse_words([bot.name, *words[1:]])
    return " ".join(words), kind, np.concatenate([base, [0.0], values])


def table_bots(game: str, specs: list[str]) -> list[Bot]:
    """Every bot of the bot files at a table, in a fixed order (bot number i + 1 is the i-th):
    the bots of a set of files are compiled together, whichever of them are seated."""
    files = sorted({str(read_bot(game, s.split()[0]).path) for s in specs if is_bot_spec(s)})
    return [bot for f in files for _, bot in sorted(read_file(game, f).items())]


def stack_rows(game: str, specs: list[str], rows: list[np.ndarray]) -> np.ndarray:
    """The parameter matrix of a table: each seat's row, then the bot columns of
    sim/core/botcall.py (zero on a built-in seat): a bot seat's number (its place in table_bots,
    from 1), its own parameters and the decisions it takes. The address of its compiled
    decisions is filled in when it runs (TableBots.with_addresses)."""
    base = max(len(r) - (BOT_COLUMNS - 2 if is_bot_spec(s) else 0) for s, r in zip(specs, rows))
    params = np.zeros((len(rows), base + BOT_COLUMNS))
    bots = table_bots(game, specs)
    for p, (spec, row) in enumerate(zip(specs, rows)):
        params[p, :len(row)] = row
        if is_bot_spec(spec):
            bot = read_bot(game, spec.split()[0])
            params[p, base] = bots.index(bot) + 1
            params[p, base + 1 + MAX_PARAMS] = sum(1 << i for i, d in enumerate(api(game).decisions)
                                                  if d.name in bot.functions)
    return params


# ---------------------------------------------------------------------------------------------
# The bots' compiled decisions


def _kind(kind: str, x: str) -> str:
    return {"i": f"int({x})", "f": x, "b": f"{x} != 0"}[kind]


def _bots_source(game: str, bots: list[Bot]) -> str:
    """The module that compiles these bots' decisions: per bot class, a function per decision
    it takes (the view and params made, the numbers passed as their kinds, the answers written
    out), one function choosing among them by the decision's number, and (compiled) that one as
    the C function the kernel calls (sim/core/botcall.py)."""
    game_api = api(game)
    compiled = not numba.config.DISABLE_JIT
    lines = [
        f'"""Generated by monosim (sim/core/userbot.py): the decisions of {", ".join(b.key for b in bots)}."""',
        "# ruff: noqa",
        "from collections import namedtuple",
        "from numba import carray",
        "from sim.core.botcall import ANSWERED, MAX_ANSWERS, RAISED, compile_bot",
        "from sim.core.jit import compile_bot_function",
        "from sim.core.userbot import decision_function, load_module",
        f"from sim.{game} import bots as api",
        "globals().update({k: v for k, v in vars(api).items() if not k.startswith('__')})  # View, the accessors",
        "",
    ]
    xs = ", ".join(f"x{k}" for k in range(MAX_ARGS))
    for i, bot in enumerate(bots, 1):
        lines.append(f"bot{i} = vars(load_module({str(bot.path)!r}, {bot.digest!r}))[{bot.name!r}]")
        params = "()"
        if bot.params:
            lines.append(f"Params{i} = namedtuple('Params{i}', [{', '.join(repr(k) for k in bot.params)}])")
            params = f"Params{i}({', '.join(f'row[{game_api.slot + 1 + j}]' for j in range(len(bot.params)))})"
        taken = [(d_index, d) for d_index, d in enumerate(game_api.decisions) if d.name in bot.functions]
        for _, d in taken:
            numbers = [_kind(kind, f"x{k}") for k, kind in enumerate(d.kinds)]
            call = f"bot{i}_{d.name}({', '.join([game_api.view, params] + numbers)})"
            lines += [f"bot{i}_{d.name} = compile_bot_function(decision_function(bot{i}, {d.name!r}))", "",
                      "@compile_bot_function", f"def bot{i}__{d.name}(S, RB, p, row, {xs}, out):",
                      f"    {', '.join(d.answers)} = {call}"]
            lines += [f"    out[{k}] = int({name})" for k, name in enumerate(d.answers)]
            lines.append("")
        lines += ["", "@compile_bot_function", f"def decide{i}(d, S, RB, p, row, {xs}, out):"]
        for d_index, d in taken:
            lines += [f"    if d == {d_index}:", f"        bot{i}__{d.name}(S, RB, p, row, {xs}, out)"]
        lines += ["    return ANSWERED", ""]
        if compiled:  # the C function; an exception ends the game with a status naming the bot and decision
            lines += ["", "@compile_bot",
                      f"def c_decide{i}(d, S_at, n_S, RB_at, n_RB, p, row_at, n_row, {xs}, out_at):",
                      "    try:",
                      f"        return decide{i}(d, carray(S_at, n_S), carray(RB_at, n_RB), p, carray(row_at, n_row), "
                      f"{xs}, carray(out_at, MAX_ANSWERS))",
                      "    except Exception:",
                      "        return RAISED", ""]
    return "\n".join(lines) + "\n"


KERNEL_THREAD = "monosim-bot-kernel"


def interruptible(fn, *args):
    """fn(*args), a kernel entry with bots at the table, run so that Ctrl-C ends it at once:
    compiled code cannot look for an interrupt, and a bot's decision may loop for ever. The
    kernel runs in a daemon thread with the GIL released (its entries are nogil) and numba's
    thread count passed on, while this thread waits, where KeyboardInterrupt reaches it;
    sim.cli.main then exits at once. As plain Python (--plain), or off the main thread, it runs
    here: the interrupt reaches it."""
    import threading

    if numba.config.DISABLE_JIT or threading.current_thread() is not threading.main_thread():
        return fn(*args)
    threads, outcome = numba.get_num_threads(), {}

    def work() -> None:
        numba.set_num_threads(threads)
        try:
            outcome["result"] = fn(*args)
        except BaseException as e:  # handed to the caller below
            outcome["error"] = e

    worker = threading.Thread(target=work, name=KERNEL_THREAD, daemon=True)
    worker.start()
    while worker.is_alive():
        worker.join(0.05)
    if "error" in outcome:
        raise outcome["error"]
    return outcome["result"]


@dataclass
class TableBots:
    """The compiled decisions of a table's bots (table_bots' order): what the kernel calls for
    their seats, and what each refused-move status means."""

    bots: list[Bot]
    functions: list  # per bot: its compiled C function; as plain Python, its place in PLAIN_BOTS + 1
    folder: Path  # of the generated module (generated_dir)

    def address(self, number: int) -> int:
        f = self.functions[number - 1]
        return f if isinstance(f, int) else f.address

    def with_addresses(self, params: np.ndarray) -> np.ndarray:
        """The table's parameter matrix (stack_rows) with each bot seat's address filled in:
        valid in this process only, so filled in just before the kernel runs."""
        params = params.copy()
        base = params.shape[1] - BOT_COLUMNS
        for p in range(params.shape[0]):
            if params[p, base] > 0:
                address = self.address(int(params[p, base]))
                if address >= 2**53:  # a float64 holds it exactly below this
                    raise BotError(f"the compiled bot {self.bots[int(params[p, base]) - 1].key} lies at an address "
                                   "too high to pass to the kernel; run it with monosim --plain")
                params[p, base + 2 + MAX_PARAMS] = address
        return params

    def first_refusal(self, statuses: np.ndarray) -> int | None:
        """The first of these games that ended on a bot's refused move or exception, if any."""
        refused = np.flatnonzero(statuses >= REFUSED)
        return int(refused[0]) if len(refused) else None

    def refusal(self, status: int, answer: list[int], card_name: str | None) -> str:
        """The message of a game that ended on a bot's move: a refused answer (with its numbers
        and card, if known) or an exception in its decision."""
        bot_index, rest = divmod(status - REFUSED, 2 * MAX_DECISIONS)
        raised, d_index = divmod(rest, MAX_DECISIONS)
        bot = self.bots[bot_index]
        d = api(bot.game).decisions[d_index]
        if raised:
            return (f"{bot.where(d.name)}: bot {bot.name}, decision {d.name} raised an exception (compiled code "
                    "does not say which: run the command with monosim --plain to see it and its line)")
        shown = ""
        if answer:
            values = ", ".join(map(str, answer[:len(d.answers)]))
            names = ", ".join(d.answers)
            shown = f": ({names}) = ({values})" if len(d.answers) > 1 else f": {names} = {values}"
        card = f", card {card_name}" if card_name else ""
        return (f"{bot.where(d.name)}: bot {bot.name}, decision {d.name}: illegal move refused{shown}{card} "
                f"(must be {d.answer})")

    def raised_in_bot(self, error: Exception) -> str | None:
        """As plain Python, an exception raised in a bot's code: its file, line and decision and
        the exception in one line (None if no bot's code raised it)."""
        files = {str(b.path) for b in self.bots}
        frames = [f for f in traceback.extract_tb(error.__traceback__) if f.filename in files]
        if not frames:
            return None
        frame = frames[-1]
        # The decision the line is in: of that name, the last one defined above the line.
        found = [(line, bot) for bot in self.bots if str(bot.path) == frame.filename
                 for name, line in bot.lines.items() if name == frame.name and line <= frame.lineno]
        where = f"bot {max(found, key=lambda x: x[0])[1].name}, decision {frame.name}" if found else frame.name
        detail = (str(error).splitlines() or [""])[0]
        return f"{frame.filename}:{frame.lineno}: {where}: {type(error).__name__}" + (f": {detail}" if detail else "")

    def call(self, fn, *args):
        """A kernel entry with these bots at the table: Ctrl-C ends it at once (interruptible),
        and as plain Python an exception in a bot's code is one line naming it."""
        try:
            return interruptible(fn, *args)
        except UsageError:
            raise
        except Exception as e:
            raised = self.raised_in_bot(e)
            if raised is None:
                raise
            raise BotError(raised) from None


def explain(bots: list[Bot], generated: str, error: Exception) -> str:
    """One line for a numba error in compiling bots: the bot's file, line and decision when the
    error is in a bot's code, else the decision whose answer has the wrong kind."""
    text = str(error)
    places = [(os.path.abspath(f), int(n)) for f, n in re.findall(r'File "(.+?)", line (\d+)', text)]
    for bot in bots:
        lines = [n for f, n in places if f == str(bot.path)]
        if lines:
            line = lines[0]  # the innermost: numba lists the failing line first
            decision = max((d for d, ln in bot.lines.items() if ln <= line), key=lambda d: bot.lines[d], default=None)
            source = bot.path.read_text().splitlines()[line - 1].strip()
            what = f"decision {decision}" if decision else "a helper"
            return f"{bot.path}:{line}: bot {bot.name}, {what}: numba cannot compile `{source}`: {_numba_reason(text)}"
    lines = [n for f, n in places if f == generated]
    if lines:  # the generated function of one bot's decision: def bot<i>__<decision>
        before = Path(generated).read_text().splitlines()[:lines[0]]
        found = next((re.match(r"def bot(\d+)__(\w+)\(", ln) for ln in reversed(before) if ln.startswith("def ")), None)
        if found:
            bot, name = bots[int(found[1]) - 1], found[2]
            reason = _numba_reason(text)
            unknown = re.search(r"name '(\w+)'", reason)
            if unknown:  # numba names no line for an unknown name: the first line using it
                source = bot.path.read_text().splitlines()
                line = next((i + 1 for i in range(bot.lines[name] - 1, len(source))
                             if re.search(rf"\b{unknown[1]}\b", source[i])), bot.lines[name])
                return f"{bot.path}:{line}: bot {bot.name}, decision {name}: {reason}"
            d = api(bot.game).decision(name)
            return f"{bot.where(name)}: bot {bot.name}, decision {name}: the answer must be {d.answer} ({reason})"
    return f"the bots {', '.join(b.key for b in bots)} cannot be compiled: {_numba_reason(text)}"


def _is_numba_error(e: Exception) -> bool:
    return type(e).__module__.startswith("numba")


# The first line of a numba error that starts so says what went wrong, most telling first.
_REASONS = ("NameError", "Untyped global name", "Unknown attribute", "Cannot unify", "failed to unpack",
            "Cannot determine Numba type", "Use of unsupported opcode", "Unsupported", "No implementation of function",
            "Invalid use of")


def _numba_reason(text: str) -> str:
    """What a numba error message says went wrong, in one short line."""
    lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
    for start in _REASONS:
        for i, ln in enumerate(lines):
            if ln.startswith(start):
                if start == "No implementation of function" and i + 1 < len(lines) and lines[i + 1].startswith(">>>"):
                    return f"no implementation of {lines[i + 1][4:]}"
                return ln
    return lines[-1] if lines else "(no message)"


def generated_dir(game: str, text: str) -> tuple[str, Path]:
    """The module name and folder of the bots' compiled decisions: a folder per digest of the
    compiled sources, as numba keeps the compiled bots (sim.core.jit; `make prune-cache` deletes
    the stale ones), and in it one per digest of the generated text (which names each bot file
    with a digest of its text)."""
    from sim import ROOT, cache_base, kernel_sources_digest

    sources = kernel_sources_digest(ROOT)
    digest = hashlib.sha256(text.encode()).hexdigest()[:16]
    return f"sim._bots_{game}_{sources}_{digest}", Path(cache_base()) / "bots" / sources / f"{game}_{digest}"


@functools.lru_cache(maxsize=None)
def _table_bots(game: str, bots: tuple[Bot, ...]) -> TableBots:
    text = _bots_source(game, list(bots))
    name, folder = generated_dir(game, text)
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "decisions.py"
    if not path.exists() or path.read_text() != text:  # numba keys its cache on the file's time
        tmp = folder / f".decisions.py.{os.getpid()}.tmp"
        tmp.write_text(text)
        os.replace(tmp, path)
    compiled = not numba.config.DISABLE_JIT
    marker = folder / ".compiled"
    names = ", ".join(sorted({b.path.name for b in bots}))
    if compiled and not marker.exists():
        print(f"monosim: compiling the bots of {names} ({game}), once: a few seconds", file=sys.stderr, flush=True)
    start = time.perf_counter()
    try:
        if name not in sys.modules:
            spec = importlib.util.spec_from_file_location(name, path)
            module = importlib.util.module_from_spec(spec)
            sys.modules[name] = module
            try:
                spec.loader.exec_module(module)  # compiles the bots' C functions, or loads them from the cache
            except BaseException:
                del sys.modules[name]
                raise
        module = sys.modules[name]
    except Exception as e:
        if not _is_numba_error(e):
            raise
        raise BotError(explain(list(bots), str(path), e)) from None
    if not compiled:
        functions = []
        for i in range(1, len(bots) + 1):
            PLAIN_BOTS.append(getattr(module, f"decide{i}"))
            functions.append(len(PLAIN_BOTS))
        return TableBots(list(bots), functions, folder)
    if not marker.exists():
        marker.touch()
        print(f"monosim: compiled the bots of {names} in {time.perf_counter() - start:.1f} s; later runs load them "
              "from the cache", file=sys.stderr)
    return TableBots(list(bots), [getattr(module, f"c_decide{i}") for i in range(1, len(bots) + 1)], folder)


def table_bots_compiled(game: str, specs: list[str]) -> TableBots | None:
    """The compiled decisions of the bots among a table's policy specs; None without bots (and
    inside without_running, where nothing is compiled)."""
    bots = table_bots(game, specs)
    return _table_bots(game, tuple(bots)) if bots and running_bots() else None


def hands_back_source(game: str, fallback: str, note: str = "") -> str:
    """A bot file whose one bot, HandsBack, takes every decision of the game and hands each to
    its fallback: its games are the fallback's, through every decision's entry point (monosim
    bench --bots times it). `note` is a comment line, which makes a file of its own."""
    lines = [f"# {note}", f"from sim.{game}.bots import *", "", "", "class HandsBack:", f"    fallback = {fallback!r}"]
    for d in api(game).decisions:
        lines += ["", f"    def {d.name}({', '.join(d.args)}):", f"        return ({d.hand_back})"]
    return "\n".join(lines) + "\n"
