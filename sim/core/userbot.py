"""Bots that users write in plain Python (docs/bots.md), compiled into a game's kernel.

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
its parameter row is the fallback's, then the bot's number at the table, then the bot's own
parameters.

How it runs at compiled speed: for the bot files at a table, a package is generated under the
numba cache folder: ``policy.py`` wraps each decision entry point of strategies/<game>.py the
bots take over (the bot's function, the check that its answer is a legal move, else the
built-in decision), and ``kernel.py`` defines again the kernel's functions that call those
decisions (the rest is the game's own, compiled and cached with it). numba compiles that package
once and caches it, like the game's own kernel; the folder's name is a digest of the game's
kernel sources and the bots' files, so an edit to either compiles afresh. A refused move ends the game at once with a status naming the bot and
the decision, and the run stops with that message (exit code 2).

With NUMBA_DISABLE_JIT=1 (``monosim --plain ...``) the same package runs as plain Python, so
that a bot can be stepped through in a debugger, with the same games.
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
from dataclasses import dataclass, field
from pathlib import Path

import numba
import numpy as np

from sim.core.runner import UsageError, read_input

MAX_PARAMS = 16  # a bot's own parameters
# A decision's answer (or its first number) that hands this one decision to the bot's fallback.
FALLBACK = -2
# A kernel status at or above REFUSED ends a game on a bot's move: REFUSED + 2 * MAX_DECISIONS * (bot
# number - 1) + the decision's index, plus MAX_DECISIONS when the decision raised an exception.
REFUSED = 100
MAX_DECISIONS = 64


class BotError(UsageError):
    """A bot file that cannot be played: one line naming the file, the line and the decision."""


@dataclass(frozen=True)
class Decision:
    """One decision a bot may take over.

    `entry` is the decision entry point of strategies/<game>.py that the kernel calls, `seat`
    its argument naming the deciding seat and `args` the bot function's arguments. `body` is
    the wrapper's code for a seat of this bot: `{bot}` is the bot's function, `{params}` its
    parameters, `{refuse}` the code that marks a refused move (it sets the game's status) and
    `{builtin}` the built-in entry point's call, whose answer stands in for a refused move.
    `answer` says what the function returns, for docs and messages."""

    name: str
    entry: str
    seat: str
    args: tuple[str, ...]
    body: str
    answer: str
    doc: str


def yes_no(call: str) -> str:
    """The wrapper body of a yes-or-no decision whose bot function takes `call`."""
    return f"answer = {{bot}}({call})\nif answer == FALLBACK:\n    return {{builtin}}\nreturn bool(answer)\n"


def checked(answer: str, call: str, legal: str, card: str = "") -> str:
    """The wrapper body of a decision whose bot function takes `call` and returns `answer` (its
    names: "k" or "k, i"), legal when `legal` holds: the bot's answer, the built-in one after
    FALLBACK (in the answer's first place), or a refused move and the built-in answer. A refused
    answer is logged (EV_REFUSED rows, read when its game is replayed for the message), with the
    card it plays where `card` says which (an expression, -1 for none)."""
    first = answer.split(",")[0]
    values = [f"int({v.strip()})" for v in answer.split(",")]
    values = [str(len(values)), f"int({card})" if card else "-1", "0"] + values  # a head row: count, card
    values += ["0"] * (-len(values) % 3)
    log = "".join(f"log_event(S, STATE_SIZE, EV_REFUSED, -1, {', '.join(values[i:i + 3])})\n"
                  for i in range(0, len(values), 3))
    return (f"{answer} = {{bot}}({call})\nif {first} == FALLBACK:\n    return {{builtin}}\n"
            f"if {legal}:\n    return {answer}\n{{refuse}}\n{log}return {{builtin}}\n")


@dataclass(frozen=True)
class BotApi:
    """What a game offers bot writers (sim/<game>/bots.py)."""

    game: str
    decisions: tuple[Decision, ...]
    slot: int  # column of the bot's number in the parameter rows the decision entry points read
    status: int  # the state offset of the game's status, S[status]
    fallback: str  # a bot's fallback when it names none
    row: bool = False  # the entry points get the deciding seat's row of parameters, not the matrix
    # Entry points wrapped for a bot that defines the decision of the same name, beside the
    # decision's own: a built-in bot's shortcuts that must not hold for a bot's own rule.
    also: tuple[Decision, ...] = ()

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
    policy module loads it through here, so a run and its compiled kernel share it."""
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
    They are compiled together: a table with any of them runs the same kernel."""
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
    a kernel is compiled for a set of files, whichever of their bots are seated."""
    files = sorted({str(read_bot(game, s.split()[0]).path) for s in specs if is_bot_spec(s)})
    return [bot for f in files for _, bot in sorted(read_file(game, f).items())]


def stack_rows(game: str, specs: list[str], rows: list[np.ndarray]) -> np.ndarray:
    """The parameter matrix of a table: its rows, padded to one width, with each bot seat's
    number (its place in table_bots, from 1) after the fallback's parameters."""
    width = max(len(r) for r in rows)
    params = np.zeros((len(rows), width))
    for p, row in enumerate(rows):
        params[p, :len(row)] = row
    bots = table_bots(game, specs)
    for p, spec in enumerate(specs):
        if is_bot_spec(spec):
            bot = read_bot(game, spec.split()[0])
            params[p, width - 1 - MAX_PARAMS] = bots.index(bot) + 1
    return params


# ---------------------------------------------------------------------------------------------
# The generated kernel


def _policy_source(game: str, bots: list[Bot]) -> str:
    game_api = api(game)
    builtin = importlib.import_module(f"strategies.{game}")
    lines = [
        f'"""Generated by monosim (sim/core/userbot.py): the decisions of {", ".join(b.key for b in bots)}."""',
        "# ruff: noqa",
        "from collections import namedtuple",
        f"from strategies.{game} import *",
        f"import strategies.{game} as builtin",
        "from sim.core.jit import compile_bot_function, compile_decision",
        "from sim.core.event_log import EV_REFUSED, log_event",
        f"from sim.{game}.layout import STATE_SIZE",
        "from sim.core.userbot import FALLBACK, decision_function, load_module",
        f"from sim.{game} import bots as api",
        "globals().update({k: v for k, v in vars(api).items() if not k.startswith('__')})  # the wrappers' names",
        "",
    ]
    for i, bot in enumerate(bots, 1):
        lines.append(f"bot{i} = vars(load_module({str(bot.path)!r}, {bot.digest!r}))[{bot.name!r}]")
        for name in bot.functions:
            lines.append(f"bot{i}_{name} = compile_bot_function(decision_function(bot{i}, {name!r}))")
        if bot.params:
            fields = ", ".join(repr(k) for k in bot.params)
            lines.append(f"Params{i} = namedtuple('Params{i}', [{fields}])")
        lines.append("")
    slot = game_api.slot
    for d_index, d in enumerate(game_api.decisions + game_api.also):
        users = [(i, bot) for i, bot in enumerate(bots, 1) if d.name in bot.functions]
        if not users:
            continue
        entry = getattr(builtin, d.entry)
        args = ", ".join(inspect.signature(getattr(entry, "py_func", entry)).parameters)
        column = "pp[{}]" if game_api.row else f"pp[{d.seat}, {{}}]"
        lines += ["", "@compile_decision", f"def {d.entry}({args}):", f"    bot_number = {column.format(slot)}"]
        for i, bot in users:
            if bot.params:
                values = ", ".join(column.format(slot + 1 + j) for j in range(len(bot.params)))
                params = f"Params{i}({values})"
            else:
                params = "()"
            status = REFUSED + 2 * MAX_DECISIONS * (i - 1) + d_index
            builtin_call = f"builtin.{d.entry}({args})"
            body = d.body.format(bot=f"bot{i}_{d.name}", params=params, refuse=f"S[{game_api.status}] = {status}",
                                 builtin=builtin_call)
            lines.append(f"    if bot_number == {float(i)}:")
            if numba.config.DISABLE_JIT:  # as Python, an exception keeps its traceback (BotKernel.call)
                lines += ["        " + ln if ln.strip() else "" for ln in body.strip("\n").splitlines()]
            else:  # compiled, it ends the game with a status naming the bot and the decision
                lines += ["        try:"] + ["            " + ln if ln.strip() else "" for ln in body.strip("\n").splitlines()]
                lines += ["        except Exception:", f"            S[{game_api.status}] = {status + MAX_DECISIONS}",
                          f"            return {builtin_call}"]
        lines.append(f"    return builtin.{d.entry}({args})")
    return "\n".join(lines) + "\n"


def wrapped_entries(game: str, bots: list[Bot]) -> list[str]:
    """The decision entry points the bots' policy module wraps."""
    game_api = api(game)
    return [d.entry for d in game_api.decisions + game_api.also if any(d.name in b.functions for b in bots)]


def _kernel_source(game: str, package: str, wrapped: list[str]) -> str:
    """The bots' kernel: the game's kernel, with the functions that call a wrapped decision
    (directly or through another such function) defined again, so that they call the wrappers.
    Every other function is the game's own, compiled once and cached with the game: a bot
    compiles only what its decisions change."""
    from sim import ROOT

    text = (ROOT / "sim" / game / "kernel.py").read_text()
    lines = text.splitlines()
    functions = {n.name: n for n in ast.parse(text).body if isinstance(n, ast.FunctionDef)}
    uses = {name: {x.id for x in ast.walk(node) if isinstance(x, ast.Name)} for name, node in functions.items()}
    again = set()
    while new := {f for f in functions if f not in again and uses[f] & (set(wrapped) | again)}:
        again |= new
    out = [f'"""Generated by monosim (sim/core/userbot.py): sim/{game}/kernel.py calling the bots\' decisions."""',
           "# ruff: noqa",
           f"import sim.{game}.kernel as game_kernel",
           "",
           "globals().update({k: v for k, v in vars(game_kernel).items() if not k.startswith('__')})",
           f"from {package}.policy import {', '.join(wrapped)}"]
    for name, node in functions.items():  # in the kernel's order
        if name in again:
            first = min([d.lineno for d in node.decorator_list] + [node.lineno])
            out += ["", ""] + lines[first - 1:node.end_lineno]
    return "\n".join(out) + "\n"


KERNEL_THREAD = "monosim-bot-kernel"


def interruptible(fn, *args):
    """fn(*args), a bot kernel's entry, run so that Ctrl-C ends it at once: compiled code cannot
    look for an interrupt, and a bot's decision may loop for ever. The kernel runs in a daemon
    thread with the GIL released (its entries are nogil) and numba's thread count passed on,
    while this thread waits, where KeyboardInterrupt reaches it; sim.cli.main then exits at once.
    As plain Python (--plain), or off the main thread, it runs here: the interrupt reaches it."""
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
class BotKernel:
    """The generated kernel of a table's bots: its module (play_batch, play_steps, the status
    names) and what each refused-move status means."""

    module: types.ModuleType
    bots: list[Bot]
    compiled: set = field(default_factory=set)  # the entry points compiled (or loaded) so far

    def first_refusal(self, statuses: np.ndarray) -> int | None:
        """The first of these games that ended on a bot's refused move or exception, if any."""
        refused = np.flatnonzero(statuses >= REFUSED)
        return int(refused[0]) if len(refused) else None

    def refusal(self, status: int, answer: list[int], card_name: str | None) -> str:
        """The message of a game that ended on a bot's move: a refused answer (with its numbers
        and card, if known) or an exception in its decision."""
        bot_index, rest = divmod(status - REFUSED, 2 * MAX_DECISIONS)
        raised, d_index = divmod(rest, MAX_DECISIONS)
        bot, game_api = self.bots[bot_index], api(self.bots[bot_index].game)
        d = (game_api.decisions + game_api.also)[d_index]
        if raised:
            return (f"{bot.where(d.name)}: bot {bot.name}, decision {d.name} raised an exception (compiled code "
                    "does not say which: run the command with monosim --plain to see it and its line)")
        call = re.search(r"([\w, ]+) = \{bot\}\(", d.body)
        names = [n.strip() for n in call.group(1).split(",")] if call else []
        shown = ""
        if answer and names:
            values = ", ".join(map(str, answer[:len(names)]))
            shown = f": ({', '.join(names)}) = ({values})" if len(names) > 1 else f": {names[0]} = {values}"
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

    def call(self, entry: str, *args):
        """The kernel's `entry` on these arguments: compiled on first use, with the compile time
        reported and numba's errors in the bot's code turned into one line."""
        fn = getattr(self.module, entry)
        first = entry not in self.compiled
        marker = Path(self.module.__file__).with_name(f".compiled-{entry}")
        if first and not marker.exists() and not numba.config.DISABLE_JIT:
            names = ", ".join(sorted({b.path.name for b in self.bots}))
            print(f"monosim: compiling the bots of {names} into the {self.bots[0].game} kernel ({entry}), once: "
                  "about 10 to 50 s", file=sys.stderr, flush=True)
        start = time.perf_counter()
        try:
            result = interruptible(fn, *args)
        except UsageError:
            raise
        except Exception as e:
            raised = self.raised_in_bot(e)
            if raised is not None:
                raise BotError(raised) from None
            if not first or not _is_numba_error(e):
                raise
            raise BotError(self.explain(e)) from None
        if first:
            self.compiled.add(entry)
            marker.touch()
            stats = getattr(fn, "stats", None)
            if stats is not None and stats.cache_misses:
                names = ", ".join(sorted({b.path.name for b in self.bots}))
                print(f"monosim: compiled the bots of {names} into the {self.bots[0].game} kernel ({entry}) in "
                      f"{time.perf_counter() - start:.1f} s; later runs load it from the cache", file=sys.stderr)
        return result

    def explain(self, error: Exception) -> str:
        """One line for a numba error: the bot's file, line and decision when the error is in a
        bot's code, else the decision whose answer has the wrong type."""
        text = str(error)
        places = [(os.path.abspath(f), int(n)) for f, n in re.findall(r'File "(.+?)", line (\d+)', text)]
        for bot in self.bots:
            lines = [n for f, n in places if f == str(bot.path)]
            if lines:
                line = lines[0]  # the innermost: numba lists the failing line first
                decision = max((d for d, ln in bot.lines.items() if ln <= line), key=lambda d: bot.lines[d],
                               default=None)
                source = bot.path.read_text().splitlines()[line - 1].strip()
                what = f"decision {decision}" if decision else "a helper"
                return (f"{bot.path}:{line}: bot {bot.name}, {what}: numba cannot compile `{source}`: "
                        f"{_numba_reason(text)}")
        policy = sys.modules[self.module.__name__.rpartition(".")[0] + ".policy"].__file__
        lines = [n for f, n in places if f == policy]
        if lines:
            before = Path(policy).read_text().splitlines()[:lines[0]]
            entry = next((ln[4:].split("(")[0] for ln in reversed(before) if ln.startswith("def ")), "")
            reason = _numba_reason(text)
            for d in api(self.bots[0].game).decisions:
                for bot in self.bots:
                    if d.entry == entry and d.name in bot.functions:
                        name = re.search(r"name '(\w+)'", reason)
                        if name:  # numba names no line for an unknown name: the first line using it
                            source = bot.path.read_text().splitlines()
                            line = next((i + 1 for i in range(bot.lines[d.name] - 1, len(source))
                                         if re.search(rf"\b{name[1]}\b", source[i])), bot.lines[d.name])
                            return f"{bot.path}:{line}: bot {bot.name}, decision {d.name}: {reason}"
                        return (f"{bot.where(d.name)}: bot {bot.name}, decision {d.name}: the answer must be "
                                f"{d.answer} ({reason})")
        return f"the bots {', '.join(b.key for b in self.bots)} cannot be compiled: {_numba_reason(text)}"


def _is_numba_error(e: Exception) -> bool:
    return type(e).__module__.startswith("numba")


# The first line of a numba error that starts so says what went wrong, most telling first.
_REASONS = ("NameError", "Untyped global name", "Unknown attribute", "Cannot unify", "failed to unpack",
            "Cannot determine Numba type", "Use of unsupported opcode", "Unsupported", "No implementation of function",
            "Invalid use of")


def _numba_reason(text: str) -> str:
    """What a numba error message says went wrong, in one short line."""
    if "Only accept returning of array" in text or "NRT required but not enabled" in text:
        return "a bot may not create arrays, lists, dicts or strings: keep numbers in variables"
    lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
    for start in _REASONS:
        for i, ln in enumerate(lines):
            if ln.startswith(start):
                if start == "No implementation of function" and i + 1 < len(lines) and lines[i + 1].startswith(">>>"):
                    return f"no implementation of {lines[i + 1][4:]}"
                return ln
    return lines[-1] if lines else "(no message)"


def generated_dir(game: str, policy_text: str) -> tuple[str, Path]:
    """The package name and folder of a bots' kernel: named by a digest of the game's kernel
    sources and the bots' policy module (which names each bot file with a digest of its text)."""
    from sim import ROOT, cache_base, kernel_sources_digest

    digest = hashlib.sha256((kernel_sources_digest(ROOT, game) + policy_text).encode()).hexdigest()[:16]
    package = f"sim._bots_{game}_{digest}"
    return package, Path(cache_base()) / "bots" / f"{game}_{digest}"


@functools.lru_cache(maxsize=None)
def _bot_kernel(game: str, bots: tuple[Bot, ...]) -> BotKernel:
    policy = _policy_source(game, list(bots))
    package, folder = generated_dir(game, policy)
    kernel = _kernel_source(game, package, wrapped_entries(game, list(bots)))
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in (("__init__.py", ""), ("policy.py", policy), ("kernel.py", kernel)):
        target = folder / name
        if not target.exists() or target.read_text() != text:  # numba keys its cache on the file's time
            tmp = folder / f".{name}.{os.getpid()}.tmp"
            tmp.write_text(text)
            os.replace(tmp, target)
    if package not in sys.modules:
        pkg = types.ModuleType(package)
        pkg.__path__ = [str(folder)]
        pkg.__file__ = str(folder / "__init__.py")
        sys.modules[package] = pkg
    return BotKernel(importlib.import_module(f"{package}.kernel"), list(bots))


def bot_kernel(game: str, specs: list[str]) -> BotKernel | None:
    """The generated kernel for the bots among a table's policy specs; None without bots (and
    inside without_running, where nothing is compiled)."""
    bots = table_bots(game, specs)
    return _bot_kernel(game, tuple(bots)) if bots and running_bots() else None
