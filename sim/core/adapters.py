"""Build a game's experiment adapter (sim/core/experiment.py GameAdapter) from the pieces every
game has: its rules class and rule parsers, its policy catalog, its api's simulate/make_table
and its rules packer. Each game's adapter.py then only says what is particular to it."""

from __future__ import annotations

from collections.abc import Callable

from sim.core import rule_changes
from sim.core.experiment import GameAdapter
from sim.core.runner import UsageError
from strategies.catalog import Catalog, PolicyError


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


def build_adapter(
    *,
    name: str,
    title: str,
    rules_version: str,
    default_rules: Callable[[], object],
    parsers: dict,
    catalog: Catalog,
    api,
    pack: Callable[[object, int, dict], object],
    card_edits: Callable[[dict, int], list[str]],
    usage_cols: tuple[str, ...] = (),
    length_cols: tuple[str, ...] = ("turns",),
    deck_edits: bool = True,
    default_players: int = 4,
    unfinished_cols: tuple[str, ...] = (),
    minutes: Callable | None = None,
    midgame_last_col: str | None = None,
    edit_meaning: str = "the seat's own cards",
) -> GameAdapter:
    """`pack(rules, players, deck_edits)` raises ValueError for a cell that cannot be played;
    `deck_edits` says whether the game's simulate() takes per-seat deck edits."""

    def rules_of(cell_rules: dict):
        return rule_changes.apply_rule_changes(default_rules(), rule_strings(cell_rules, parsers), parsers)

    def check_policy(spec: str) -> str:
        try:
            return catalog.parse(spec)[0]
        except PolicyError as e:
            raise UsageError(str(e)) from None

    def check_cell(cell: dict) -> None:
        try:
            pack(rules_of(cell["rules"]), cell["players"], deck_edits_of(cell))
        except ValueError as e:
            if isinstance(e, UsageError):
                raise
            raise UsageError(str(e)) from None

    def play(cell: dict, seed: int, first: int, n: int, threads: int | None):
        extra = {"deck_edits": deck_edits_of(cell) or None} if deck_edits else {}
        return api.simulate(
            n, cell["players"], cell["seats"], rules_of(cell["rules"]), seed, threads,
            chunk_size=n, first_game=first, **extra,
        )

    return GameAdapter(
        name=name,
        title=title,
        default_players=default_players,
        rules_version=rules_version,
        table=lambda players, seats: api.make_table(players, seats)[0],
        check_policy=check_policy,
        check_rules=rules_of,
        check_cell=check_cell,
        play=play,
        card_edits=card_edits,
        summarize=api.summarize,
        usage_cols=usage_cols,
        length_cols=length_cols,
        rules_of=rules_of,
        unfinished_cols=unfinished_cols,
        minutes=minutes,
        midgame_last_col=midgame_last_col,
        edit_meaning=edit_meaning,
    )
