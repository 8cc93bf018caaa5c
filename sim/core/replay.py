"""Replays: any game of any run, turn by turn, as its kernel played it.

A replay plays one game again through the run's ``play_logged`` (sim/core/game.py): the
game's kernel plays it with an event log after the state (sim/core/event_log.py). Game g of a run is
seeded from (seed, g) alone, so the replay is exactly the game the run counted, and its
per-game row is returned beside the events so that anyone can check.

Each game describes its event kinds in an ``EventBook`` (sim/<game>/events.py): a name, a
sentence and what the card and target numbers name. The events become a tidy table (one row
per event) and the play-by-play text.
"""

from __future__ import annotations

import ast
import io
import tokenize
from collections.abc import Callable
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np
import pandas as pd

from sim.core.event_log import EV_GAME_END, EV_ROUND, EV_SEAT_STATE, EV_TURN, EVENT_WIDTH, LOG_HEAD
from sim.core.game import api_errors
from sim.core.runner import UsageError

__all__ = ["EventBook", "Kind", "Replay", "replay", "replay_run"]  # the public API

FIRST_LOG_ROWS = 4096  # rows of the first try; a longer game is played again with room for all
# card is the number the game logged (a card, a square, a count: docs/replays.md lists each
# kind's meaning), card_name the card or square it names, in words, where it names one.
EVENT_COLUMNS = ("game", "round", "turn", "seat", "kind", "card", "card_name", "amount", "target", "text")


class Context(NamedTuple):
    """What namers read: the game's rules object, its packed rules block (RB) and the run's
    deck edits (seat -> {card: change}); memo is where a namer may keep what it works out once."""

    rules: object
    rb: np.ndarray
    deck_edits: dict
    memo: dict


def seat_name(ctx: Context, seat: int, code: int) -> str:
    return f"seat {code}" if code >= 0 else "nobody"


@dataclass(frozen=True)
class Kind:
    """One kind of event: its name in the tables, its sentence, and what names its numbers.

    `text` is a str.format template over seat (already "seat 2"), card and target (as named by
    the `card` and `target` namers of the game's EventBook, or the bare number without one),
    amount, and pct (amount in tenths of a percent, shown as "12.5%")."""

    name: str
    text: str | Callable[[dict], str]  # a template, or a function of the same fields
    card: str | None = None
    target: str | None = None


@dataclass(frozen=True)
class EventBook:
    """A game's event kinds (code -> Kind), the namers its kinds refer to ((Context, seat,
    code) -> str; "seat" names a seat in every game), and the reasons a game ends (EV_GAME_END's
    amount)."""

    kinds: dict[int, Kind]
    namers: dict[str, Callable[[Context, int, int], str]]
    end_reasons: tuple[str, ...]
    # The field of a `standing` event (card, amount or target) that measures how a seat stands,
    # and its label: what a replay's standings table and plot show.
    standing: tuple[str, str] = ("amount", "standing")
    # standing event field -> the per-seat column of the game's row that the last standing of
    # each seat equals (the replay tests check a replay against its run's row with it)
    final_columns: dict = None

    def namer(self, name: str | None):
        if name is None:
            return lambda ctx, seat, code: str(code)
        return seat_name if name == "seat" else self.namers[name]

    def sentence(self, ctx: Context, kind: int, seat: int, card: int, amount: int, target: int,
                 card_name: str | None = None) -> str:
        """The event in words; `card_name` in place of its card's name (a card hidden from the
        reader)."""
        k = self.kinds[kind]
        card_name = self.namer(k.card)(ctx, seat, card) if card_name is None else card_name
        fields = dict(seat=seat_name(ctx, seat, seat), amount=amount, pct=f"{amount / 10:.1f}%",
                      card=card_name, target=self.namer(k.target)(ctx, seat, target),
                      reason=self.end_reasons[amount] if kind == EV_GAME_END else "")
        return k.text(fields) if callable(k.text) else k.text.format(**fields)


def common_kinds(state_text: str, round_word: str = "round") -> dict[int, Kind]:
    """The kinds every game logs; state_text is the game's sentence for a seat's standing, and
    round_word what the game calls a round (the card game's are hands)."""
    return {
        EV_TURN: Kind("turn", "{seat}'s turn"),
        EV_ROUND: Kind("round", round_word + " {amount}"),
        EV_SEAT_STATE: Kind("standing", state_text),
        EV_GAME_END: Kind("game_end", "game over: {seat} wins ({reason})"),
    }


@dataclass
class Replay:
    """One replayed game: the row the run wrote for it, its events, and its play-by-play."""

    game_name: str
    game_index: int
    row: pd.DataFrame  # the per-game table row, as a run writes it
    events: pd.DataFrame  # one row per event (EVENT_COLUMNS)
    header: str
    searched: pd.DataFrame | None = None  # what its search seats found (State.searched), if any

    def standings(self) -> pd.DataFrame:
        """How each seat stood at the end of every round (the game's headline measure: Chance
        skylines, Deal complete sets, classic net worth, the card game's running score): one
        row per round, one column per seat."""
        from sim.core.game import get

        field, _ = get(self.game_name).kernel.events.standing
        s = self.events[self.events["kind"] == "standing"]
        table = s.pivot_table(index="round", columns="seat", values=field, aggfunc="last")
        table.columns.name = "seat"
        return table

    def plot(self, path=None):
        """Each seat's standing round by round (standings()): a matplotlib Figure, written to
        `path` when given."""
        from sim.core.game import get
        from sim.core.summary import figure

        _, label = get(self.game_name).kernel.events.standing
        table = self.standings()
        fig = figure(figsize=(7, 4))
        ax = fig.subplots()
        for seat in table.columns:
            ax.plot(table.index, table[seat], marker="o" if len(table) < 30 else None, label=f"seat {seat}")
        ax.set_xlabel(get(self.game_name).kernel.events.kinds[EV_ROUND].text.split()[0])  # the card game's are hands
        ax.set_ylabel(label)
        ax.set_title(self.header.splitlines()[0].lstrip("# ").split(" players (")[0] + " players", fontsize=10)
        ax.legend(fontsize=8)
        if path is not None:
            fig.savefig(path, dpi=120, bbox_inches="tight")
        return fig

    def text(self) -> str:
        lines = [self.header]
        found = self.searched_lines()
        for i, e in enumerate(self.events.itertuples(index=False)):
            lines += found.get(i, [])
            if e.kind == "turn":
                lines.append(f"turn {e.turn}: {e.text}")
            elif e.kind == "round":
                lines.append(f"\n== {e.text}")
            else:
                lines.append(f"  {e.text}")
        return "\n".join(lines) + "\n"


    def searched_lines(self, shown: int = 3) -> dict[int, list[str]]:
        """Event number -> a line for each search decided before that event: the action taken,
        then the `shown` first actions (the taken one, then those played out most, best first)
        with their estimated shares of the win and playouts, the base bot's marked."""
        out: dict[int, list[str]] = {}
        if self.searched is None:
            return out
        for (_, event, seat, decision), found in self.searched.groupby(["answer", "event", "seat", "decision"]):
            values = ", ".join(f"{v.name}{' (its bot)' if v.bot else ''} {v.value:.0%} of {v.rollouts}"
                               for v in found.head(shown).itertuples())
            more = f", {len(found) - shown} more" if len(found) > shown else ""
            taken = found[found.taken].name.iloc[0]
            out.setdefault(event, []).append(f"  [seat {seat} searched {decision}, took {taken}: {values}{more}]")
        return out


def read_log(log: np.ndarray) -> np.ndarray:
    """The event rows of a log tail: [events, EVENT_WIDTH]."""
    n = int(log[0])
    return log[LOG_HEAD:LOG_HEAD + n * EVENT_WIDTH].reshape(n, EVENT_WIDTH)


def logged_sentences(book: EventBook, rules, rb: np.ndarray, log: np.ndarray) -> list[str]:
    """The sentences of a log tail (a scripted test's table; sim.core.event_log.with_log)."""
    return list(events_table(book, Context(rules, rb, {}, {}), 0, read_log(log))["text"])


def events_table(book: EventBook, ctx: Context, game_index: int, rows: np.ndarray) -> pd.DataFrame:
    """The tidy events table of one game's log rows."""
    kind, seat, card, amount, target = rows.T  # the log's columns (event_log.EVENT_FIELDS)
    turn = np.cumsum(kind == EV_TURN)
    rnd = np.cumsum(kind == EV_ROUND)
    names = {code: k.name for code, k in book.kinds.items()}
    return pd.DataFrame({
        "game": np.full(len(rows), game_index, np.int64),
        "round": rnd.astype(np.int64),
        "turn": turn.astype(np.int64),
        "seat": seat.astype(np.int64),
        "kind": [names[k] for k in kind],
        "card": card.astype(np.int64),
        "card_name": [book.namer(book.kinds[k].card)(ctx, s, c) if book.kinds[k].card else ""
                      for k, s, c in zip(kind, seat, card)],
        "amount": amount.astype(np.int64),
        "target": target.astype(np.int64),
        "text": [book.sentence(ctx, *r) for r in rows.tolist()],
    }, columns=list(EVENT_COLUMNS))


@api_errors
def replay(game: str, game_index: int, seed: int = 0, players: int | None = None, seats: list[str] | None = None,
           rules=None, deck_edits: dict | None = None, check: bool = True, **options) -> Replay:
    """Game `game_index` of a run of `game` with these settings (those of ``simulate``), played
    again with its events logged: ``replay("chance", 7, seed=1).events``, or ``.text()``."""
    from sim.core.game import get

    run = get(game).prepare(1, players, seats, rules, seed, None, None, deck_edits, **options)
    return replay_run(run, game_index, check)


def replay_run(run, game_index: int, check: bool = True) -> Replay:
    """Game `game_index` of a prepared run (sim/core/game.py PreparedRun), played again with its
    events logged; with `check`, invariants are checked after every turn, as in a checked run."""
    g = run.game
    if not 0 <= game_index < 2**62:
        raise UsageError(f"--game must be a game number, 0 or more (got {game_index})")
    k = run.inputs
    searched = None
    if run.search:  # its search seats search again, as in the run (the same game: the same choices)
        from sim.core.play import State

        state = State(run, game_index, 0, check)
        row, events, searched = state.row(), state.events(), state.searched
    else:
        rows = FIRST_LOG_ROWS
        while True:
            outputs = g.outputs(1, run.players, True)
            log = run.play_logged(game_index, check, True, outputs, rows)
            if log[0] <= rows:
                break
            rows = int(log[0])
        row = run.frame(outputs, game_index)
        context = Context(run.rules, k.rules, run.deck_edits, {})
        events = events_table(g.kernel.events, context, game_index, read_log(log))
    from sim.core.json_output import rules_sentence

    policies = ", ".join(f"seat {s}: {p}" for s, p in enumerate(run.specs))
    edition = g.report.frame_attrs(run.rules).get("edition")
    title = f"{g.title} ({edition} edition)" if edition else g.title
    header = (f"# {title}: game {game_index} of seed {run.seed}, {run.players} players ({policies})\n"
              f"{rules_sentence(g, g.rules.describe(run.rules))}")
    return Replay(g.name, game_index, row, events, header, searched)


# ---- choosing games to watch, and showing them ----------------------------------------------


class GamePicker:
    """Chooses the game to replay from a run's per-game tables, fed one chunk at a time: --game
    as given (it must be one of them; game 0 when nothing is asked); or among the games matching
    the condition --where (query) (all games without one), the --longest or --shortest by length_col,
    else the first (the first of equals). `row` is the chosen game's row of the table fed."""

    def __init__(self, game: int | None, where: str | None, longest: bool, shortest: bool, length_col: str):
        if game is not None and (where is not None or longest or shortest):
            raise UsageError("--game names one game: give it without --where, --longest or --shortest")
        if longest and shortest:
            raise UsageError("give one of --longest, --shortest, not both")
        self.choosing = where is not None or longest or shortest
        self.game = game if game is not None or self.choosing else 0
        self.where, self.longest, self.shortest, self.length_col = where, longest, shortest, length_col
        self.found = False  # the choice is final: the tables still to come cannot change it
        self.row: pd.DataFrame | None = None  # the chosen game's row (the best so far while not found)
        self.best_length = None

    def check(self, empty_table: pd.DataFrame) -> None:
        """Refuse, before any game is played, a --where the games table (here its columns only)
        cannot answer."""
        if self.where is not None:
            query(empty_table, self.where)

    def add(self, df: pd.DataFrame) -> None:
        if self.found or not len(df):
            return
        if self.game is not None:
            hit = df[df["game"] == self.game]
            if len(hit):
                self.row, self.found = hit, True
            return
        if self.where is not None:
            df = query(df, self.where)
            if not len(df):
                return
        if not (self.longest or self.shortest):
            self.row, self.found = df.iloc[[0]], True
            return
        lengths = df[self.length_col].to_numpy()
        i = int(lengths.argmax() if self.longest else lengths.argmin())
        if self.best_length is None or (lengths[i] > self.best_length if self.longest else lengths[i] < self.best_length):
            self.best_length, self.row = lengths[i], df.iloc[[i]]

    def result(self) -> int:
        if self.row is not None:
            return int(self.row["game"].iloc[0])
        if self.game is not None:
            raise UsageError(f"--game {self.game} is not one of the games played")
        raise UsageError(f"--where: no game matches {self.where!r}" if self.where is not None
                         else "no games to choose from")


# --where: a condition on the games table, parsed here and computed column by column. Input is
# data, never code: nothing reaches eval, pandas' query (which resolves @names) or a shell.
_COMPARE = {ast.Eq: np.equal, ast.NotEq: np.not_equal, ast.Lt: np.less, ast.LtE: np.less_equal,
            ast.Gt: np.greater, ast.GtE: np.greater_equal}
_ARITHMETIC = {ast.Add: np.add, ast.Sub: np.subtract, ast.Mult: np.multiply, ast.Div: np.true_divide,
               ast.FloorDiv: np.floor_divide, ast.Mod: np.mod, ast.Pow: np.power}
_ALLOWED = "comparisons, and / or / not, arithmetic, numbers, strings and the table's columns"
MAX_WHERE = 1000  # characters


def _shown(where: str) -> str:
    return repr(where if len(where) <= 60 else where[:57] + "...")


def _where_value(node, df: pd.DataFrame, where: str):
    def fail(what: str):
        raise UsageError(f"--where {_shown(where)}: {what} is not allowed; use {_ALLOWED}")

    def value(n):
        if isinstance(n, ast.Constant):
            if isinstance(n.value, (bool, int, float, str)):
                return n.value
            fail(f"the constant {n.value!r}")
        if isinstance(n, ast.Name):
            if n.id not in df.columns:
                raise UsageError(f"--where {_shown(where)}: the games table has no column {n.id!r}; its columns: "
                                 f"{', '.join(map(str, df.columns[:12]))}, ...")
            return df[n.id].to_numpy()
        if isinstance(n, ast.BoolOp):
            parts = [condition(v) for v in n.values]
            join = np.logical_and if isinstance(n.op, ast.And) else np.logical_or
            out = parts[0]
            for p in parts[1:]:
                out = join(out, p)
            return out
        if isinstance(n, ast.UnaryOp):
            if isinstance(n.op, ast.Not):
                return np.logical_not(condition(n.operand))
            if isinstance(n.op, (ast.USub, ast.UAdd)):
                x = number(n.operand)
                return -x if isinstance(n.op, ast.USub) else x
            fail("the operator ~")
        if isinstance(n, ast.BinOp):
            if type(n.op) not in _ARITHMETIC:
                fail(f"the operator {type(n.op).__name__}")
            with np.errstate(all="ignore"):
                return _ARITHMETIC[type(n.op)](number(n.left), number(n.right))
        if isinstance(n, ast.Compare):
            out, left = None, value(n.left)
            for op, right_node in zip(n.ops, n.comparators):
                if isinstance(op, (ast.In, ast.NotIn)):
                    if not isinstance(right_node, (ast.List, ast.Tuple)):
                        fail("`in` without a list of values")
                    choices = [value(e) for e in right_node.elts]
                    if any(not np.isscalar(c) for c in choices):
                        fail("a column inside an `in` list")
                    step = np.isin(left, choices, invert=isinstance(op, ast.NotIn))
                    right = None
                elif type(op) in _COMPARE:
                    right = value(right_node)
                    step = _COMPARE[type(op)](left, right)
                else:
                    fail(f"the comparison {type(op).__name__}")
                out = step if out is None else np.logical_and(out, step)
                left = right
            return out
        if isinstance(n, ast.Attribute):
            fail("an attribute")
        if isinstance(n, ast.Call):
            fail("a call")
        if isinstance(n, ast.Subscript):
            fail("a subscript")
        fail(f"{type(n).__name__.lower()}")

    def number(n):
        x = value(n)
        if isinstance(x, str) or (isinstance(x, np.ndarray) and x.dtype.kind not in "biuf"):
            raise UsageError(f"--where {_shown(where)}: arithmetic needs numbers, not text")
        return x

    def condition(n):
        x = value(n)
        if not (isinstance(x, (bool, np.bool_)) or (isinstance(x, np.ndarray) and x.dtype == bool)):
            raise UsageError(f"--where {_shown(where)}: {ast.unparse(n)!r} is not a condition (true or false for each "
                             "game); compare it, e.g. \"winner == 2\"")
        return x

    return condition(node)


def _pandas_and_or(where: str) -> str:
    """`&` and `|` (pandas' query writes and / or so, at their precedence) as `and` and `or`."""
    tokens = []
    for tok in tokenize.generate_tokens(io.StringIO(where).readline):
        if tok.type == tokenize.OP and tok.string in ("&", "|"):
            tok = tok._replace(type=tokenize.NAME, string="and" if tok.string == "&" else "or")
        tokens.append((tok.type, tok.string))
    return tokenize.untokenize(tokens)


def parse_where(where: str) -> ast.Expression:
    """The condition --where as a syntax tree, or one UsageError line when it cannot be read."""
    if len(where) > MAX_WHERE:
        raise UsageError(f"--where: at most {MAX_WHERE} characters (got {len(where):,})")
    try:
        return ast.parse(_pandas_and_or(where.strip()), mode="eval")
    except (SyntaxError, ValueError, tokenize.TokenError) as e:
        raise UsageError(f"--where {_shown(where)}: cannot read it ({e.msg if isinstance(e, SyntaxError) else e}); "
                         f"use {_ALLOWED}") from None
    except (RecursionError, MemoryError):
        raise UsageError("--where: the condition is nested too deeply") from None


def query(df: pd.DataFrame, where: str) -> pd.DataFrame:
    """The rows of the games table where the condition `where` holds: comparisons (chained too,
    and `in [...]`), and / or / not (or pandas' & / |), arithmetic, numbers, strings and the table's
    columns; anything else, or a value that is not true or false for each game, is one
    UsageError line."""
    tree = parse_where(where)
    try:
        keep = np.broadcast_to(np.asarray(_where_value(tree.body, df, where)), (len(df),))
    except UsageError:
        raise
    except (ValueError, TypeError) as e:
        raise UsageError(f"--where {_shown(where)}: cannot read it ({e}); use {_ALLOWED}") from None
    except (RecursionError, MemoryError):
        raise UsageError("--where: the condition is nested too deeply") from None
    return df[keep]


def check_events_out(out) -> None:
    """Refuse, before any game is played, an --out file that exists or cannot be written."""
    from pathlib import Path

    from sim.core import results

    if out is None:
        return
    out = Path(out)
    if out.exists():
        raise UsageError(f"--out: {out} already exists; choose another file")
    if out.suffix != ".parquet":
        raise UsageError(f"--out: write the events to a .parquet file (got {out})")
    results.check_writable(out.absolute().parent, "--out")


def show(r: Replay, as_json: bool, out, command: str, meta: dict) -> None:
    """Print a replay (the play-by-play, or with as_json one JSON object: meta, the game's row
    and its events) and with `out` write the events to a parquet file."""
    from pathlib import Path

    from sim.core.json_output import emit
    from sim.core.runs import write_atomic

    if out is not None:
        out = Path(out)
        out.absolute().parent.mkdir(parents=True, exist_ok=True)
        write_atomic(out, lambda p: r.events.to_parquet(p, index=False))
    if as_json:
        emit(command, meta, {"game": r.row.iloc[0], "events": r.events}
             | ({} if r.searched is None else {"searched": r.searched}))
    else:
        print(r.text(), end="")
        if out is not None:
            print(f"\nWrote {out} ({len(r.events):,} events)")
