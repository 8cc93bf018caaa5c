"""One description per game, and the registry that every shared part reads.

A game is a folder sim/<name>/ (rules, layout, kernel, api and game.py) and a bot module
strategies/<name>.py. Its game.py describes it once as a ``Game``, in groups: its rules (and
player range), its kernel (module, layout, output columns, events, decision points), its report,
its bots (catalog, default table) and the experiment layer's needs; then its position files and
the CLI verbs of its own. ``GAME_NAMES`` below is the one list of games: the CLI, experiments,
tune, bench, profiling and the tests all read it through ``get`` and ``games``.

Every game's kernel has the same batch entry, so one runner plays them all:

    play_batch(RB, S0, pk, pp, pt, seed, first, n_games, check, detail,
               game_out, seat_out, detail_out, row0)

RB, the rules block (rules.pack); S0, a start position (empty: the standard start); pk and pp,
each seat's policy kind and parameters; pt, lookup tables the bots read (float64, may be
empty); games first .. first + n_games - 1 go into columns row0 .. of game_out[column, row]
and seat_out[seat, stat, row], and with `detail` into the game's detail arrays (a tuple,
empty for a game without them). A game ignores the inputs it has no use for.
"""

from __future__ import annotations

import dataclasses
import functools
import importlib
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from types import ModuleType
from typing import NamedTuple

import numpy as np
import pandas as pd

from sim.core import rule_changes
from sim.core import summary as core_summary
from sim.core import search, table, userbot
from sim.core.decisions import MAX_KINDS
from sim.core.layout import Layout
from sim.core.summary import Tally
from sim.core.runner import (
    DEFAULT_CHUNK,
    MAX_GAMES,
    UsageError,
    check_in_memory,
    check_run_args,
    play_in_slices,
    run_chunks,
)
from strategies.catalog import Catalog, PolicyError

# The registry: each name is a folder sim/<name>/ whose game.py defines GAME.
__all__ = ["GAME_NAMES", "Game", "PreparedRun", "Summary", "games", "get", "register", "seat_table",  # the public API
           "simulate"]

GAME_NAMES = ("chance", "deal", "classic", "cardgame")

NO_START = np.zeros(0, np.int32)
NO_TABLES = np.zeros(0)


class KernelInputs(NamedTuple):
    """What a game's batch entry reads besides the seats' policy kinds."""

    rules: np.ndarray  # RB
    params: np.ndarray  # pp
    start: np.ndarray = NO_START  # S0
    tables: np.ndarray = NO_TABLES  # pt


# The Python names of the flags whose name differs in the API.
API_NAMES = {"--seat policies": "seats", "--seat": "seats", "--rule": "rules", "--game": "game_index"}


def api_errors(function: Callable) -> Callable:
    """`function` with its UsageErrors worded for a Python caller: the parameter's name where
    the command line's message names a flag ("games must be ...", not "--games must be ...")."""

    def flag_to_name(match) -> str:
        return API_NAMES.get(match.group(0), match.group(0)[2:].replace("-", "_"))

    @functools.wraps(function)
    def call(*args, **kwargs):
        try:
            return function(*args, **kwargs)
        except UsageError as e:
            raise type(e)(re.sub(r"--seat policies|--[a-z][a-z-]*\b", flag_to_name, str(e))) from None

    return call


@dataclass(frozen=True)
class GameRules:
    """A game's rules: their class, how `--rule` changes and packs them, and the tables they allow."""

    cls: Callable[[], object]  # () -> the default rules
    parsers: dict  # rule key -> parser of its --rule value
    version: str
    describe: Callable[[object], dict]  # rules -> plain data (`rules --json`, manifests)
    text: Callable[[object], str]  # rules -> the `rules` listing
    pack: Callable[[object, int, dict], np.ndarray]  # (rules, players, deck edits) -> RB; ValueError
    min_players: int
    max_players: int
    default_players: int = 4
    # rules -> (lowest, highest, title): for a game whose player range depends on the rules (the
    # card game's editions); default min_players, max_players, the game's title
    players_for: Callable[[object], tuple[int, int, str]] | None = None
    presets: tuple[str, ...] = ()  # values of the `edition` rule, offered as --edition
    deck_edits: bool = True  # whether seats can be dealt extra cards (deck edits)
    # `house-rules` tries every house rule flipped (sim/core/house_rules.py) and these: label ->
    # rule changes, for rules that are numbers or go together.
    house_variants: Callable[[object], dict[str, list[str]]] = lambda rules: {}


@dataclass(frozen=True)
class GameKernel:
    """A game's compiled kernel and what it reads and writes (check_game names the module's duties)."""

    # play_batch, play_steps, play_rollouts, STATE_SIZE, RNG_SIZE, GAME_COLS, N_GAME_COLS, G_STATUS_OUT, OK,
    # STATUS_NAMES (check_game)
    module: ModuleType
    layout: ModuleType  # RULES and STATE: the declared layouts (sim/core/layout.py) of the rules block and the state
    seat_cols: tuple[str, ...]  # per-seat stats, in seat_out's order
    win_col: int  # index in seat_cols of the win count
    # (rules, players, kinds, params, deck edits, **options) -> KernelInputs; default: the
    # packed rules alone. Options are a game's own simulate arguments (Chance's force,
    # classic's start position).
    inputs: Callable[..., KernelInputs] | None = None
    chunk_size: int = DEFAULT_CHUNK
    # the detail tables' arrays (e.g. the card game's per-hand rows): (games, players, on) -> the
    # kernel's detail_out tuple
    detail_outputs: Callable[[int, int, bool], tuple] = lambda games, players, on: ()
    events: object = None  # the EventBook of its replays (sim/core/replay.py, sim/<game>/events.py)
    # its decision points, for the step API and `play` (sim/core/play.py, sim/<game>/decisions.py)
    decisions: object = None
    # About how long it takes to compile from nothing on the 2-core development machine, for the
    # line that says so before it starts (announce_compile).
    compile_seconds: int = 40
    # `monosim bench`: label -> (rules table as in a spec, games a run, target games/s)
    bench_runs: dict = field(default_factory=dict)


@dataclass(frozen=True)
class GameReport:
    """How a game's tables become its summary and report."""

    summary: Callable[[Tally], dict]  # a tally of games -> named summary tables
    render: Callable[[Tally, dict], str]  # (tally, summary) -> the report
    # per-game table -> the 0/1 columns its summary counts beyond the table's own
    derived: Callable[[pd.DataFrame], dict] = lambda games: {}
    # (per-game table, the kernel's detail_out) -> {name: detail table}
    detail_tables: Callable[[pd.DataFrame, tuple], dict] | None = None
    out_detail: tuple[str, ...] = ()  # detail tables `simulate --out` writes as NAME.parquet
    seat_tables: tuple[str, ...] = ()  # further summary tables `--out` writes as NAME_by_seat.csv
    frame_attrs: Callable[[object], dict] = lambda rules: {}  # extra df.attrs (the edition)


@dataclass(frozen=True)
class GameExperiment:
    """What the experiment layer (sim/core/experiment.py, analysis.py, tune.py) reads of a game."""

    card_edits: Callable[[dict, int], list[str]] = lambda cell, seat: []  # a card-value study's edits
    usage_cols: tuple[str, ...] = ()  # per-seat counters reported as card usage
    length_cols: tuple[str, ...] = ("turns",)  # game-length columns (reports, tune); whole numbers
    unfinished_cols: tuple[str, ...] = ()  # 0/1 flags of a game that never ended properly
    minutes: Callable[[pd.DataFrame], pd.Series] | None = None  # estimated minutes at a real table
    midgame_last_col: str | None = None  # per-seat stem: 1 for the seat(s) last at mid-game
    edit_meaning: str = "the seat's own cards"  # what a deck edit changes, for reports


@dataclass(frozen=True)
class GameBots:
    """A game's built-in bots and the table they fill by default."""

    catalog: Catalog
    default_table: tuple[str, ...]  # seat i's policy when not given; seat 0's is the strongest


@dataclass(frozen=True)
class Game:
    """A game, described once in sim/<game>/game.py, in groups: its rules, its kernel, its
    report, what experiments read, its bots; then its position files and CLI verbs."""

    name: str  # the CLI group and a spec's `game`
    title: str
    cli_help: str
    rules: GameRules
    kernel: GameKernel
    report: GameReport
    bots: GameBots
    experiment: GameExperiment = GameExperiment()
    # its position files, for `advise --position`: path -> (rules, the seats' policies, new_game's
    # options that start there, the seat to move)
    position: Callable[[object], tuple] | None = None
    verbs: str | None = None  # the module whose register(typer app) adds the game's own verbs

    # ---- rules and seats ----

    def default_rules(self):
        return self.rules.cls()

    def rules_from(self, changes: list[str] | None = None):
        """The default rules with `--rule KEY=VALUE` changes applied (UsageError on a mistake)."""
        return rule_changes.apply_rule_changes(self.default_rules(), list(changes or []), self.rules.parsers)

    def rules_of(self, cell_rules: dict):
        """The rules of a spec's [rules] table (TOML values)."""
        return self.rules_from(rule_strings(cell_rules, self.rules.parsers))

    def make_table(self, players: int, seats: list[str] | None = None,
                   rules=None) -> tuple[list[str], np.ndarray, np.ndarray]:
        """One policy spec per seat -> (canonical specs, kinds, parameters); missing seats come
        from the default table. Without rules, any player count some rule set allows."""
        lo, hi, title = self.player_range(rules)
        # A search seat (sim/core/search.py) plays its base bot in the kernel.
        searches = {s: self.search_settings(spec) for s, spec in enumerate(seats or []) if search.is_search_spec(spec)}
        bases = self.kernel_seats(seats or [])
        bots = self.bots
        specs, kinds, params = table.make_table(title, bots.catalog, bots.default_table, players, bases or seats, lo,
                                                hi)
        for s, settings in searches.items():
            specs[s] = dataclasses.replace(settings, base=specs[s]).spec
        return specs, kinds, params

    def player_range(self, rules=None) -> tuple[int, int, str]:
        """(fewest, most players, the title to name them by) under these rules; without rules,
        any player count some rule set allows."""
        if rules is not None and self.rules.players_for is not None:
            return self.rules.players_for(rules)
        return self.rules.min_players, self.rules.max_players, self.title

    def kernel_seats(self, specs: list[str]) -> list[str]:
        """The policy the kernel plays at each seat: a search seat's base bot, else the seat's."""
        return [self.search_settings(spec).base if search.is_search_spec(spec) else spec for spec in specs]

    def seat_table(self, games: pd.DataFrame) -> pd.DataFrame:
        """The per-game table in long form: one row per (game, seat)."""
        return core_summary.seat_table(games, self.kernel.seat_cols)

    # ---- summaries: from a Tally, which adds up chunk by chunk ----

    def tally(self, games: pd.DataFrame, into: Tally | None = None) -> Tally:
        """`into` (a new tally if None) with these games added."""
        return (into or Tally()).add(games, self.experiment.length_cols, self.report.derived(games))

    def summarize(self, games: pd.DataFrame) -> "Summary":
        """The summary of a per-game table: its tables by name (win rates by seat and policy,
        length, ...), shown as the report in Jupyter, with to_frame() and to_json()."""
        t = self.tally(games)
        return Summary(self, t, self.report.summary(t))

    def plot_win_rates(self, t: Tally, summary: dict, path=None):
        """Bar chart of win rate by seat with 95% error bars and the fair-share line: a
        matplotlib Figure (written to `path` when given; the backend is left alone)."""
        return core_summary.plot_win_rates(summary["by_seat"], f"{self.title}: win rate by seat ({t.n:,} games, 95% CI)",
                                           path)

    # ---- playing ----

    def inputs(self, rules, players: int, kinds, params, deck_edits: dict, **options) -> KernelInputs:
        self.check_deck_edits(deck_edits)
        if self.kernel.inputs is not None:
            return as_usage_error(lambda: self.kernel.inputs(rules, players, kinds, params, deck_edits, **options))
        if options:
            raise UsageError(f"{self.title} takes no option {', '.join(options)}")
        return KernelInputs(as_usage_error(lambda: self.rules.pack(rules, players, deck_edits)), params)

    def check_deck_edits(self, deck_edits: dict) -> None:
        if deck_edits and not self.rules.deck_edits:
            raise UsageError(f"{self.title} has no per-seat cards to edit (drop the deck axis)")

    def check_in_memory(self, games: int, players: int) -> None:
        """Refuse a table of `games` games (simulate's) that would not fit in half the memory."""
        check_in_memory(games, 8 * (self.kernel.module.N_GAME_COLS + players * len(self.kernel.seat_cols)))

    def simulate(self, games: int = 10_000, players: int | None = None, seats: list[str] | None = None,
                 rules=None, seed: int = 0, threads: int | None = None, chunk_size: int | None = None,
                 check: bool = False, progress: bool = False, deck_edits: dict | None = None, first_game: int = 0,
                 detail: bool = False, **options):
        """Play games first_game .. first_game + games - 1 and return one row per game (see
        ``simulate``). The kernels write straight into arrays allocated once for the whole run,
        whose columns the table then uses without a copy: fast, and memory grows with the games
        (``stream`` plays any number in the memory of a chunk)."""
        run = self.prepare(games, players, seats, rules, seed, threads, chunk_size, deck_edits, **options)
        if not 0 <= first_game <= MAX_GAMES - games:
            raise UsageError(f"first_game must be 0 to 2**62 - games (got {first_game})")
        self.check_in_memory(games, run.players)
        outputs = self.outputs(games, run.players, detail)
        def play_chunk(first: int, n: int, advance) -> None:
            play_in_slices(lambda o, k: run.play(first_game + first + o, k, check, detail, outputs, first + o), n,
                           advance)

        run_chunks(play_chunk, games, run.chunk_size, threads, progress)
        df = run.frame(outputs, first_game)
        return (df, self.report.detail_tables(df, outputs[2])) if detail else df

    def stream(self, consume: Callable[[pd.DataFrame, dict], None], games: int, players: int | None = None,
               seats: list[str] | None = None, rules=None, seed: int = 0, threads: int | None = None,
               chunk_size: int | None = None, check: bool = False, progress: bool = False,
               deck_edits: dict | None = None, detail: bool = False, **options) -> None:
        """Play games 0 .. games - 1 chunk by chunk and hand each chunk's table (and with
        `detail` its detail tables, else {}) to consume(table, detail): the memory of one chunk,
        whatever the number of games. The tables are those of ``simulate``, cut into chunks."""
        self.prepare(games, players, seats, rules, seed, threads, chunk_size, deck_edits, **options).stream(
            consume, check, progress, detail)

    def rules_given(self, rules):
        """The rules a caller gave: None (the defaults), a rules object, a list of "KEY=VALUE"
        changes (as --rule takes them) or a dict {key: value} (as a spec's [rules] table)."""
        if rules is None:
            return self.default_rules()
        if isinstance(rules, self.rules.cls):
            return rules
        if isinstance(rules, (list, tuple)) and all(isinstance(r, str) for r in rules):
            return self.rules_from(list(rules))
        if isinstance(rules, dict):
            return self.rules_of(rules)
        raise UsageError(f"rules: give a list of \"KEY=VALUE\" changes, a dict {{key: value}} or a "
                         f"{self.rules.cls.__name__} (got {type(rules).__name__})")

    def prepare(self, games: int, players: int | None, seats, rules, seed: int, threads: int | None,
                chunk_size: int | None, deck_edits: dict | None, **options) -> "PreparedRun":
        """Check a run's settings (UsageError on a mistake) and build the kernel's inputs. Rules
        are taken in any form rules_given accepts."""
        rules = self.rules_given(rules)
        players = players or self.rules.default_players
        if chunk_size is not None and chunk_size > games >= 1:
            raise UsageError(f"--chunk-size {chunk_size:,} is more than the {games:,} games; a chunk is at most the "
                             "whole run")
        chunk_size = self.kernel.chunk_size if chunk_size is None else chunk_size
        check_run_args(games, seed, chunk_size, threads)
        specs, kinds, params = self.make_table(players, seats, rules)
        deck_edits = deck_edits or {}
        bots = userbot.table_bots_compiled(self.name, self.kernel_seats(specs))  # compiled now, before any work
        if bots is not None:
            params = bots.with_addresses(params)
        inputs = self.inputs(rules, players, kinds, params, deck_edits, **options)
        return PreparedRun(self, games, rules, players, specs, kinds, inputs, seed, threads, chunk_size, deck_edits,
                           bots)

    def outputs(self, games: int, players: int, detail: bool) -> tuple:
        """Zeroed kernel outputs for `games` games: game_out, seat_out, detail_out."""
        return (np.zeros((self.kernel.module.N_GAME_COLS, games), np.int64),
                np.zeros((players, len(self.kernel.seat_cols), games), np.int64),
                self.kernel.detail_outputs(games, players, detail))

    # ---- the experiment layer: cells are plain dicts (players, seats, rules, deck_edits) ----

    def table(self, players: int, seats: list[str]) -> list[str]:
        """The full canonical lineup of a cell (missing seats from the default table)."""
        return self.make_table(players, seats)[0]

    def check_policy(self, spec: str) -> str:
        """A seat's spec (a bot, or a search player over one) in its canonical form."""
        if search.is_search_spec(spec):
            settings = self.search_settings(spec)
            return dataclasses.replace(settings, base=self.check_policy(settings.base)).spec
        try:
            return self.bots.catalog.parse(spec)[0]
        except PolicyError as e:
            raise UsageError(str(e)) from None

    def search_settings(self, spec: str) -> search.Search:
        """A search seat's settings (sim/core/search.py); its base defaults to the default
        table's first bot, each game's strongest."""
        kinds = None if self.kernel.decisions is None else [k.name for k in self.kernel.decisions.kinds.values()]
        return search.parse(spec, self.bots.default_table[0], kinds)

    def check_rules(self, cell_rules: dict):
        return self.rules_of(cell_rules)

    def check_cell(self, cell: dict) -> None:
        """UsageError for a cell that cannot be played (rules, player count, deck edits, a bot
        that does not compile)."""
        deck_edits = deck_edits_of(cell)
        self.check_deck_edits(deck_edits)
        rules = self.rules_of(cell["rules"])
        as_usage_error(lambda: self.rules.pack(rules, cell["players"], deck_edits))
        if any(userbot.is_bot_spec(s) for s in cell["seats"]) and userbot.running_bots():
            self.prepare(1, cell["players"], cell["seats"], rules, 0, None, None, deck_edits)  # compiles them now

    def play(self, cell: dict, seed: int, first: int, n: int, threads: int | None) -> pd.DataFrame:
        """Games first .. first + n - 1 of a cell."""
        return self.simulate(n, cell["players"], cell["seats"], self.rules_of(cell["rules"]), seed, threads,
                             chunk_size=n, first_game=first, deck_edits=deck_edits_of(cell))


class Summary(dict):
    """A game's summary tables by name (a dict: summary["by_seat"] is a DataFrame), which a
    notebook shows as the report's tables; to_frame() gives one table, to_json() the JSON that
    `simulate --json` prints."""

    def __init__(self, game: Game, tally: Tally, tables: dict):
        super().__init__(tables)
        self.game, self.tally = game, tally

    def report(self) -> str:
        return self.game.report.render(self.tally, self)

    def _repr_markdown_(self) -> str:
        return self.report()

    def __repr__(self) -> str:
        return self.report()

    def plot(self, path=None):
        """The win rate of each seat with its 95% interval and the fair share: a matplotlib
        Figure (written to `path` when given), the plot `simulate --out` writes."""
        return self.game.plot_win_rates(self.tally, self, path)

    def to_frame(self, name: str = "by_seat") -> pd.DataFrame:
        """One summary table (default: win rates by seat), a copy."""
        return self[name].copy()

    def to_json(self) -> str:
        """The summary as `monosim <game> simulate --json` prints it: {meta, results}."""
        import json

        from sim.core.json_output import document, rules_changed

        a = self.tally.attrs
        meta = {"game": self.game.name, "rules_changed": rules_changed(self.game, a["rules"]) if "rules" in a else {},
                "games": self.tally.n, "seed": a.get("seed"), "players": a.get("players"),
                "policies": list(a.get("policies", []))}
        return json.dumps(document(f"{self.game.name} summarize", meta, summary_json(self)), indent=2,
                          allow_nan=False)


@dataclass(frozen=True)
class PreparedRun:
    """A checked run of one game: its rules, seats and kernel inputs."""

    game: Game
    games: int
    rules: object
    players: int
    specs: list[str]
    kinds: np.ndarray
    inputs: KernelInputs
    seed: int
    threads: int | None
    chunk_size: int
    deck_edits: dict
    bots: userbot.TableBots | None = None  # the compiled decisions of the table's own bots, if any

    def kernel_call(self, entry: str, *args):
        """The game's kernel entry point (play_batch, play_steps) on these arguments. A first
        compile is announced before it starts."""
        announce_compile(self.game, entry)
        fn = getattr(self.game.kernel.module, entry)
        return fn(*args) if self.bots is None else self.bots.call(fn, *args)

    def stream(self, consume: Callable[[pd.DataFrame, dict], None], check: bool = False, progress: bool = False,
               detail: bool = False) -> None:
        """Game.stream for this run."""
        g = self.game

        def play_chunk(first: int, n: int, advance) -> None:
            outputs = g.outputs(n, self.players, detail)
            play_in_slices(lambda o, k: self.play(first + o, k, check, detail, outputs, o), n, advance)
            df = self.frame(outputs, first)
            consume(df, g.report.detail_tables(df, outputs[2]) if detail else {})

        run_chunks(play_chunk, self.games, self.chunk_size, self.threads, progress)

    def play_logged(self, game_index: int, check: bool, detail: bool, outputs: tuple, log_rows: int) -> np.ndarray:
        """Game `game_index` as play_batch plays it, into column 0 of the outputs, with room for
        `log_rows` of its events (sim/core/event_log.py): the log. The kernel's play_steps plays
        it, in a state array with the log after the state."""
        from sim.core.event_log import EVENT_WIDTH, LOG_HEAD

        k, kernel = self.inputs, self.game.kernel.module
        S = np.zeros(kernel.STATE_SIZE + LOG_HEAD + log_rows * EVENT_WIDTH, np.int32)
        S[kernel.STATE_SIZE + 1] = log_rows
        self.kernel_call("play_steps", k.rules, k.start, self.kinds, k.params, k.tables, np.uint64(self.seed),
                         game_index, check, detail, *outputs, S, np.zeros(kernel.RNG_SIZE, np.uint64), 0)
        return S[kernel.STATE_SIZE:]

    @functools.cached_property
    def search(self) -> dict[int, search.Search]:
        """The search seats by seat number (sim/core/search.py), with their settings."""
        return {s: self.game.search_settings(spec) for s, spec in enumerate(self.specs) if search.is_search_spec(spec)}

    def play(self, first_game: int, n: int, check: bool, detail: bool, outputs: tuple, row0: int) -> None:
        """Games first_game .. first_game + n - 1 into columns row0 .. of the outputs."""
        if self.search:
            from sim.core.play import play_searched  # the step API, which imports this module

            if detail:
                raise UsageError("the detail tables are not kept for a table with a search player")
            play_searched(self, first_game, n, check, outputs, row0)
            return
        k = self.inputs
        self.kernel_call("play_batch", k.rules, k.start, self.kinds, k.params, k.tables, np.uint64(self.seed),
                         first_game, n, check, detail, *outputs, row0)

    @functools.cached_property
    def attrs(self) -> dict:
        """What every chunk's table carries in df.attrs beside the seed and policies (described
        once a run, not once a chunk)."""
        g = self.game
        return {"game": g.name, **g.report.frame_attrs(self.rules), "rules": g.rules.describe(self.rules),
                "rules_version": g.rules.version, "deck_edits": {str(s): e for s, e in self.deck_edits.items()}}

    def explain_refusal(self, status: int, game_index: int) -> None:
        """Raise the BotError of a game that ended on a bot's refused move, with the move: the
        game is played again with its events logged, which the refusal writes into."""
        from sim.core.event_log import EV_REFUSED
        from sim.core.replay import Context, read_log

        k, g = self.inputs, self.game
        log = self.play_logged(game_index, False, False, g.outputs(1, self.players, False), 10**6)
        rows = read_log(log)
        values = rows[rows[:, 0] == EV_REFUSED][:, 2:].ravel().tolist()  # the head (count, card, 0), the answer
        answer, card = values[3:3 + values[0]] if values else [], values[1] if values else -1
        card_name = None
        if card >= 0 and "card" in g.kernel.events.namers:
            card_name = g.kernel.events.namer("card")(Context(self.rules, k.rules, self.deck_edits, {}), -1, card)
        raise userbot.BotError(f"{self.bots.refusal(status, answer, card_name)} in game {game_index} of seed "
                               f"{self.seed}")

    def frame(self, outputs: tuple, first_game: int) -> pd.DataFrame:
        """The per-game table of games first_game .. held in the outputs."""
        g = self.game
        status = outputs[0][g.kernel.module.G_STATUS_OUT]
        if self.bots is not None and (i := self.bots.first_refusal(status)) is not None:
            self.explain_refusal(int(status[i]), first_game + i)
        k = g.kernel
        return table.games_frame(k.module, outputs[0], outputs[1], k.seat_cols, k.win_col, self.specs, self.seed,
                                 first_game, **self.attrs)


def check_game(game: Game) -> list[str]:
    """What a game description lacks to keep the contract every other part relies on, one short
    sentence each (an empty list: nothing). The contract tests run it over the registry."""
    import json

    problems = []
    k = game.kernel.module
    for name, role in (("play_batch", "the batch entry"), ("play_steps", "the replay and step entry"),
                       ("play_rollouts", "the search player's entry")):
        if not callable(getattr(k, name, None)):
            problems.append(f"its kernel lacks {name} ({role})")
    if not all(isinstance(getattr(k, n, None), int) for n in ("STATE_SIZE", "RNG_SIZE")):
        problems.append("its kernel lacks STATE_SIZE and RNG_SIZE (what a replay or a stepped game allocates)")
    cols = getattr(k, "GAME_COLS", None)
    if not isinstance(cols, tuple) or getattr(k, "N_GAME_COLS", None) != len(cols or ()):
        problems.append("its kernel's GAME_COLS is not a tuple of N_GAME_COLS names")
    elif cols[-1:] != ("status",) or getattr(k, "G_STATUS_OUT", None) != len(cols) - 1:
        problems.append("its kernel's status is not the last game column (GAME_COLS, G_STATUS_OUT)")
    rules_layout, state_layout = getattr(game.kernel.layout, "RULES", None), getattr(game.kernel.layout, "STATE", None)
    if not isinstance(rules_layout, Layout) or not isinstance(state_layout, Layout):
        problems.append("its layout module declares no RULES and STATE layouts (sim/core/layout.py)")
    elif state_layout.end != getattr(k, "STATE_SIZE", None) or "G_STATUS" not in state_layout.fields:
        problems.append("its STATE layout does not end at the kernel's STATE_SIZE or lacks G_STATUS")
    names = getattr(k, "STATUS_NAMES", None)
    if getattr(k, "OK", None) != 0 or not isinstance(names, tuple) or not names:
        problems.append("its kernel lacks OK = 0 and STATUS_NAMES")
    if not 0 <= game.kernel.win_col < len(game.kernel.seat_cols) or game.kernel.seat_cols[game.kernel.win_col] != "win":
        problems.append("seat_cols[win_col] is not 'win'")
    for col in (*game.experiment.length_cols, *game.experiment.unfinished_cols):
        if isinstance(cols, tuple) and col not in cols:
            problems.append(f"{col!r} (a length or unfinished column) is not one of its kernel's GAME_COLS")
    events = game.kernel.events
    if events is None or not getattr(events, "kinds", None):
        problems.append("it has no EventBook of replay events (events)")
    elif events.standing[0] not in ("card", "amount", "target"):
        problems.append("its EventBook's standing field is not card, amount or target")
    elif not events.final_columns or not set(events.final_columns.values()) <= set(game.kernel.seat_cols):
        problems.append("its EventBook's final_columns do not name per-seat columns (seat_cols)")
    try:
        rules = game.default_rules()
        lowest = game.player_range(rules)[0]
        packed = game.rules.pack(rules, lowest, {})
        if not isinstance(packed, np.ndarray) or packed.dtype != np.int32:
            problems.append("pack() does not return an int32 array")
        json.dumps(game.rules.describe(rules))
    except Exception as e:  # a description that breaks is what this check is for
        problems.append(f"its default rules do not pack and describe: {type(e).__name__}: {e}")
    for spec in game.bots.default_table:
        try:
            game.bots.catalog.parse(spec)
        except PolicyError as e:
            problems.append(f"its default table names a policy its catalog refuses: {e}")
    if not 1 <= game.rules.min_players <= game.rules.default_players <= game.rules.max_players:
        problems.append("its player range does not hold its default")
    if not game.kernel.bench_runs:
        problems.append("it has no bench_runs (monosim bench)")
    decisions = game.kernel.decisions
    if decisions is not None:
        if getattr(k, "PAUSED", None) is None:
            problems.append("it has decision points but its kernel lacks PAUSED (sim/core/decisions.py)")
        if not getattr(decisions, "kinds", None) or not callable(getattr(decisions, "observe", None)):
            problems.append("its decisions do not name their kinds and what a seat sees (sim/core/play.py Decisions)")
        elif not all(0 <= code < MAX_KINDS for code in decisions.kinds):
            problems.append(f"its decision kinds are not numbered 0 to {MAX_KINDS - 1} (sim/core/decisions.py)")
    try:
        if game.bots.catalog.game:  # a catalog without a name takes no bot files (nor presets)
            importlib.import_module(f"sim.{game.name}.bots").API
    except (ImportError, AttributeError):
        problems.append(f"sim/{game.name}/bots.py declares no bot API (API)")
    if game.verbs is not None and not callable(getattr(importlib.import_module(game.verbs), "register", None)):
        problems.append(f"{game.verbs} has no register(app)")
    return problems


_announced: set = set()


def announce_compile(game: Game, entry: str) -> None:
    """Say on stderr, before it starts, that a kernel entry is about to compile (its cache holds
    no build of it): anything that makes a user wait over a few seconds says so first."""
    import glob
    import os
    import sys

    from sim import kernel_cache_dir

    if (game.name, entry) in _announced:
        return
    _announced.add((game.name, entry))
    if os.environ.get("NUMBA_DISABLE_JIT") == "1":
        return
    if game.name not in GAME_NAMES:  # registered from outside sim/: numba keeps its cache elsewhere
        print(f"monosim: the {game.title} kernel ({entry}) compiles now unless numba's cache holds it (about "
              f"{game.kernel.compile_seconds} s)", file=sys.stderr, flush=True)
    elif not glob.glob(os.path.join(kernel_cache_dir(game.name), "*", f"kernel.{entry}-*.nbi")):
        print(f"monosim: compiling the {game.title} kernel ({entry}), once: about {game.kernel.compile_seconds} s; "
              "later runs load it from the cache", file=sys.stderr, flush=True)


_REGISTERED: dict[str, Game] = {}


def register(game: Game) -> None:
    """Add a game described outside sim/ (the tests' reference game) to what `get` finds: the
    step API, simulate and replays then play it. It stays out of GAME_NAMES, so the CLI and
    whatever covers every game leave it out. ValueError when check_game finds it lacking."""
    problems = check_game(game)
    if problems or game.name in GAME_NAMES:
        raise ValueError(f"game {game.name!r} cannot be registered: {'; '.join(problems) or 'the name is taken'}")
    _REGISTERED[game.name] = game


def get(name: str) -> Game:
    """The registered game called `name` (UsageError naming the known ones otherwise)."""
    if name in _REGISTERED:
        return _REGISTERED[name]
    if name not in GAME_NAMES:
        raise UsageError(f"game: unknown game {name!r}; known: {', '.join(GAME_NAMES)}")
    return importlib.import_module(f"sim.{name}.game").GAME


def games() -> list[Game]:
    return [get(name) for name in GAME_NAMES]


@api_errors
def simulate(game: str, games: int = 10_000, players: int | None = None, seats: list[str] | None = None,
             rules=None, seed: int = 0, threads: int | None = None, chunk_size: int | None = None,
             check: bool = False, progress: bool = False, deck_edits: dict | None = None, first_game: int = 0,
             detail: bool = False, **options):
    """Play `games` complete games of `game` ("chance", "deal", "classic", "cardgame") and return
    one row per game.

    Columns: seed, game (game g is seeded from (seed, g) alone, so any thread count or chunk
    size gives the same table), the game's own columns (winner, length, how it ended), then for
    each seat s ``<stat>_<s>`` for every per-seat stat and ``policy_<s>``; ``win_<s>`` is the
    seat's share of the win (1/k on a k-way tie). ``df.attrs`` holds the seed, players,
    policies, rules and deck edits.

    players: default the game's; seats: one policy spec per seat, the rest from the game's
    default table; rules: the defaults if None, else a list of "KEY=VALUE" changes (as --rule
    takes them), a dict {key: value} or the game's rules object; deck_edits: seat ->
    {card: change}; first_game: play games first_game .. (a long run in pieces); with
    `detail`, returns (table, {name: detail table}) for a game that records more (the card
    game's hands, classic's colour groups). Options are a game's own (Chance ``force``,
    classic ``start``)."""
    return get(game).simulate(games, players, seats, rules, seed, threads, chunk_size, check, progress, deck_edits,
                              first_game, detail, **options)


def seat_table(games: pd.DataFrame) -> pd.DataFrame:
    """A per-game table of any game (simulate's) in long form: one row per (game, seat), with
    the game's per-seat columns. The game is read from games.attrs["game"]."""
    if "game" not in games.attrs:
        raise ValueError("seat_table: the table does not say its game (games.attrs['game']); use "
                         "get(name).seat_table(games)")
    return get(games.attrs["game"]).seat_table(games)


def summary_json(summary: dict) -> dict:
    """A game's summary as plain data: a table with a `share` column as {row: share}, the
    length table by row (the mean's interval as {low, high}), other tables as records, a
    Series as a dict."""
    out = {}
    for name, t in summary.items():
        if isinstance(t, pd.Series):
            out[name] = t.to_dict()
        elif "share" in t.columns:
            out[name] = t["share"].to_dict()
        elif name == "length":  # ci there is the half-width of the mean's interval
            out[name] = {row: {**r, "ci": {"low": r["mean"] - r["ci"], "high": r["mean"] + r["ci"]}}
                         for row, r in t.to_dict(orient="index").items()}
        else:
            out[name] = t.to_dict(orient="records")
    return out


def with_start(pack: Callable) -> Callable[..., KernelInputs]:
    """A game's kernel_inputs when its position files give the kernel a start position S0 of
    the game's own layout (Deal and the card game: what a position file places, the rest dealt
    in the kernel): the packed rules, and the position when one is given."""
    def kernel_inputs(rules, players: int, kinds, params, deck_edits: dict, start: np.ndarray | None = None):
        if start is None:
            return KernelInputs(pack(rules, players, deck_edits), params)
        if deck_edits:
            raise UsageError("a position deals no extra cards: drop the deck edits")
        return KernelInputs(pack(rules, players), params, start=start)
    return kernel_inputs


def as_usage_error(call: Callable):
    """call(), with a ValueError from the rules (a cell or table that cannot be played) turned
    into the user's mistake it is, and a number too large for the kernels' int32 too."""
    try:
        return call()
    except ValueError as e:
        if isinstance(e, UsageError):
            raise
        raise UsageError(str(e)) from None
    except OverflowError:
        raise UsageError(f"a number in the rules is out of range (the kernels hold at most "
                         f"{rule_changes.LARGEST_VALUE:,} either way)") from None


def rule_strings(rules: dict, parsers: dict) -> list[str]:
    """A spec's [rules] table as `--rule` strings. TOML types are checked against each rule's
    parser first, so that `finish_mark = true` or `auctions = 1` is an error rather than a
    silent guess. A list becomes comma-separated values (e.g. die faces)."""
    out = []
    for key, value in rules.items():
        parser = int if key.startswith("deck.") else parsers.get(key)
        if parser is rule_changes.parse_bool and not isinstance(value, bool):
            raise UsageError(f"rule {key}: expected true or false, got {value!r}")
        if parser is int and (not isinstance(value, int) or isinstance(value, bool)):
            raise UsageError(f"rule {key}: expected an integer, got {value!r}")
        if isinstance(value, list):
            value = ",".join(str(f) for f in value)
        if isinstance(value, bool):
            value = str(value).lower()
        out.append(f"{key}={value}")
    return out


def deck_edits_of(cell: dict) -> dict[int, dict[str, int]]:
    # JSON turns seat keys into strings; the kernel side wants ints
    return {int(seat): edits for seat, edits in cell.get("deck_edits", {}).items()}
