"""Experiment specs: load a TOML file, check every key, and expand the sweep into cells.

A spec (docs/experiments.md) names a game, a base table (players, seats' policies, rules) and
the axes to sweep. ``load_spec`` turns it into a ``Plan``: the resolved spec with every default
filled in, and one plain-dict cell configuration per combination of axis values. Every mistake
raises ``UsageError`` naming the key and the problem, before anything runs or is written.

Games plug in through their registry entry (sim/core/game.py: a ``Game``, which says what a
cell of the game needs); this module knows nothing about any one game's rules or policies.
"""

from __future__ import annotations

import copy
import itertools
import json
import re
import tomllib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path


from sim.core.game import Game
from sim.core.game import get as get_game
from sim.core.runner import MAX_GAMES, MAX_SEED, UsageError, check_in_memory, read_input


# ---- the spec's keys ------------------------------------------------------------------------
TOP_KEYS = {
    "name": str,
    "game": str,
    "description": str,
    "seed": int,
    "players": int,
    "seats": list,
    "rules": dict,
    "sweep": dict,
    "run": dict,
    "outputs": dict,
}
RUN_DEFAULTS = {
    "games": 20_000,
    "chunk_size": 5_000,
    "precision": None,
    "key_seat": 0,
    "key_policy": None,
    "baseline_by": [],
}
RUN_TYPES = {"games": int, "chunk_size": int, "precision": (int, float), "key_seat": int, "key_policy": str,
             "baseline_by": list}
OUTPUT_DEFAULTS = {"plots": True, "all_pairs": False, "card_values": False, "usage": True}
NAME_RE = re.compile(r"^(?!.*\.\.)[A-Za-z0-9][A-Za-z0-9_.-]*(?<!\.)$")  # no "..", no "." at the end
MAX_NAME = 100  # characters: the name is a folder name, and file systems allow 255 bytes
DECK_EDIT_RE = re.compile(r"^([a-z][a-z0-9_]*)([+-][0-9]+)$")
NO_EDIT = "none"


@dataclass
class Plan:
    """A checked spec: the resolved spec (JSON-ready) and its cells."""

    spec: dict
    cells: list[dict] = field(default_factory=list)
    source: str = ""  # the spec file's text

    @property
    def name(self) -> str:
        return self.spec["name"]

    @property
    def game(self) -> Game:
        return get_game(self.spec["game"])

    def resolved(self) -> dict:
        """What a run folder stores (resolved.json): the spec, the cells, and the digest of every
        bot file the cells seat, so that the run is resumed and replayed only with those."""
        from sim.core.userbot import bot_files

        return {"spec": self.spec, "cells": self.cells,
                "bot_files": bot_files(s for c in self.cells for s in c["seats"])}


TYPE_NAMES = {str: "a string", int: "an integer", bool: "true or false", list: "a list", dict: "a table"}


def _check_type(key: str, value, t) -> None:
    """isinstance, except that true/false is not an integer or a number (TOML keeps them apart)."""
    types = t if isinstance(t, tuple) else (t,)
    if not isinstance(value, types) or (isinstance(value, bool) and bool not in types):
        name = "a number" if float in types else TYPE_NAMES[types[0]]
        raise UsageError(f"{key}: expected {name}, got {value!r}")


def _check_keys(where: str, table: dict, known) -> None:
    for key in table:
        if key not in known:
            raise UsageError(f"{where}{key}: unknown key; known: {', '.join(known)}")


def apply_overrides(raw: dict, overrides: list[str]) -> dict:
    """The spec's tables with each `--set KEY=VALUE` applied: KEY a dotted path (run.games,
    rules.finish_mark, sweep.players, "sweep.rule.finish_mark" written sweep."rule.finish_mark"
    as in TOML), VALUE a TOML value (a bare word is a string)."""
    for item in overrides:
        key, eq, value = item.partition("=")
        if not eq or not key.strip():
            raise UsageError(f"--set {item!r}: write KEY=VALUE, e.g. run.games=1000")
        try:
            path = list(tomllib.loads(f"{key.strip()} = 0").keys())
            parsed = tomllib.loads(f"{key.strip()} = 0")
            while isinstance(parsed[path[-1]], dict):  # dotted keys nest: walk to the leaf
                parsed = parsed[path[-1]]
                path.append(next(iter(parsed)))
        except tomllib.TOMLDecodeError:
            raise UsageError(f"--set {item!r}: {key.strip()!r} is not a TOML key") from None
        try:
            parsed_value = tomllib.loads(f"v = {value.strip()}")["v"]
        except tomllib.TOMLDecodeError:
            parsed_value = value.strip()
        table = raw
        for part in path[:-1]:
            table = table.setdefault(part, {})
            if not isinstance(table, dict):
                raise UsageError(f"--set {item!r}: {part!r} is not a table in the spec")
        table[path[-1]] = parsed_value
    return raw


def load_spec(path: Path, overrides: list[str] | None = None) -> Plan:
    """Read and check a spec file; every problem raises UsageError prefixed with the file name."""
    return load_with(path, resolve, overrides)


def load_with(path: Path, resolve_fn: Callable[[dict], object], overrides: list[str] | None = None):
    """Read a TOML spec, apply --set overrides and check it with `resolve_fn` (experiments,
    tuning); the result gets the file's text as `source`, and its spec the overrides. Every
    problem raises UsageError prefixed with the file name."""
    path = Path(path)
    try:
        text = read_input(path, "spec").decode("utf-8")
    except UnicodeDecodeError:
        raise UsageError(f"{path.name}: not UTF-8 text (a spec is a TOML file)") from None
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise UsageError(f"{path.name}: not valid TOML: {e}") from None
    except RecursionError:
        raise UsageError(f"{path.name}: nested too deeply to be a spec") from None
    raw = apply_overrides(raw, list(overrides or []))
    try:
        plan = resolve_fn(raw)
    except UsageError as e:
        raise UsageError(f"{path.name}: {e}") from None
    if overrides:
        plan.spec["overrides"] = list(overrides)
    plan.source = text
    return plan


def check_top(raw: dict, top_keys: dict, required) -> tuple[Game, int]:
    """The top level of a spec (experiments, tuning): known keys of the right types, the
    required ones present, a usable name; returns the game and the seed."""
    _check_keys("", raw, top_keys)
    for key, t in top_keys.items():
        if key in raw:
            _check_type(key, raw[key], t)
    for key in required:
        if key not in raw:
            raise UsageError(f"{key}: missing (required)")
    if len(raw["name"]) > MAX_NAME or not NAME_RE.match(raw["name"]):
        raise UsageError(f"name: {raw['name']!r} must be letters, digits, '-', '_' or '.' (not two dots together, "
                         "nor one at the end: it names a folder)")
    seed = raw.get("seed", 0)
    game = get_game(raw["game"])
    if not 0 <= seed <= MAX_SEED:
        raise UsageError(f"seed: must be between 0 and 2**64 - 1 (got {seed})")
    return game, seed


def resolve(raw: dict) -> Plan:
    """Check a parsed spec and expand it into cells (UsageError names the key at fault)."""
    game, seed = check_top(raw, TOP_KEYS, ("name", "game"))
    for i, s in enumerate(raw.get("seats", [])):
        _check_type(f"seats[{i}]", s, str)
        try:
            game.check_policy(s)
        except UsageError as e:
            raise UsageError(f"seats[{i}]: {e}") from None

    run = dict(RUN_DEFAULTS)
    _check_keys("run.", raw.get("run", {}), RUN_DEFAULTS)
    for key, value in raw.get("run", {}).items():
        _check_type(f"run.{key}", value, RUN_TYPES[key])
        run[key] = value
    if not 1 <= run["games"] <= MAX_GAMES:
        raise UsageError(f"run.games: must be 1 to 2**62 (got {run['games']:,})")
    if run["chunk_size"] < 1:
        raise UsageError(f"run.chunk_size: must be at least 1 (got {run['chunk_size']})")
    if "chunk_size" in raw.get("run", {}) and run["chunk_size"] > run["games"]:
        raise UsageError(f"run.chunk_size: {run['chunk_size']:,} is more than run.games ({run['games']:,}); a chunk is "
                         "at most the whole run")
    if run["precision"] is not None and not 0 < run["precision"] < 1:
        raise UsageError(f"run.precision: must be a width between 0 and 1 (got {run['precision']})")
    if "key_policy" in raw.get("run", {}) and "key_seat" in raw.get("run", {}):
        raise UsageError("run.key_policy: give key_seat or key_policy, not both")
    outputs = dict(OUTPUT_DEFAULTS)
    _check_keys("outputs.", raw.get("outputs", {}), OUTPUT_DEFAULTS)
    for key, value in raw.get("outputs", {}).items():
        _check_type(f"outputs.{key}", value, bool)
        outputs[key] = value

    base = {
        "players": raw.get("players", game.rules.default_players),
        "seats": list(raw.get("seats", [])),
        "rules": dict(raw.get("rules", {})),
        "deck_edits": {},
    }
    try:
        game.check_rules(base["rules"])
    except UsageError as e:
        raise UsageError(f"rules: {e}") from None
    try:
        game.table(base["players"], [])
    except UsageError as e:
        raise UsageError(f"players: {e}") from None
    if "players" not in raw.get("sweep", {}):
        # Extra seats are a mistake unless a players sweep uses them in its larger tables.
        try:
            game.table(base["players"], base["seats"])
        except UsageError as e:
            raise UsageError(f"seats: {e}") from None
    axes = _axes(raw.get("sweep", {}), game, base)
    if outputs["card_values"]:
        if run["key_policy"] is not None:
            raise UsageError("outputs.card_values: needs run.key_seat (the seat whose deck is edited), not key_policy")
        if any(key == "deck" for key, _ in axes):
            raise UsageError("outputs.card_values: the sweep already has a deck axis; use one or the other")
        probe = _cell(base, [], game, run)  # the edits are those of the spec's own table
        axes.append(("deck", [NO_EDIT] + game.experiment.card_edits(probe, run["key_seat"])))

    for key in run["baseline_by"]:
        if key not in [k for k, _ in axes]:
            raise UsageError(f"run.baseline_by: {key!r} is not an axis of the sweep")

    spec = {
        "name": raw["name"],
        "game": raw["game"],
        "description": raw.get("description", ""),
        "seed": seed,
        "players": base["players"],
        "seats": base["seats"],
        "rules": base["rules"],
        "sweep": {key: values for key, values in axes},
        "run": run,
        "outputs": outputs,
    }
    cells = []
    for i, combo in enumerate(itertools.product(*[values for _, values in axes])):
        setting = list(zip([key for key, _ in axes], combo))
        try:
            cell = _cell(base, setting, game, run)
        except UsageError as e:
            label = ", ".join(f"{k}={_show(v)}" for k, v in setting) or "the base table"
            raise UsageError(f"cell {i} ({label}): {e}") from None
        cell["id"] = i
        cell["labels"] = {key: _show(value) for key, value in setting}
        # The baseline: the first cell with the same values on the baseline_by axes.
        cell["baseline"] = next(
            (c["id"] for c in cells if all(c["labels"][k] == cell["labels"][k] for k in run["baseline_by"])), i
        )
        cells.append(cell)
    chunk = min(run["chunk_size"], run["games"])  # a chunk's tables are held in memory while it plays
    try:
        most = max(c["players"] for c in cells)
        check_in_memory(chunk, 8 * (game.kernel.module.N_GAME_COLS + most * len(game.kernel.seat_cols)))
    except UsageError:
        raise UsageError(f"run.chunk_size: {chunk:,} games is more than a chunk can hold in memory here") from None
    return Plan(spec=spec, cells=cells)


def _show(value) -> str:
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, list):
        return " / ".join(map(str, value))
    if isinstance(value, dict):
        return ", ".join(f"{k}={_show(v)}" for k, v in value.items()) or "default"
    return str(value)


# Axes are applied in this order whatever their order in the file (seat edits after the
# lineup is known, rotation last), so the result never depends on how the file is written.
def _axis_rank(key: str) -> int:
    for rank, prefix in enumerate(("players", "seats", "seat.", "rules", "rule.", "rotate", "deck")):
        if key == prefix or (prefix.endswith(".") and key.startswith(prefix)):
            return rank
    return 99


def _axes(sweep: dict, game: Game, base: dict) -> list[tuple[str, list]]:
    """Check each axis on its own (so a bad value is blamed on its key) and return them."""
    axes = []
    for key, values in sweep.items():
        where = f'sweep."{key}"' if "." in key else f"sweep.{key}"
        if _axis_rank(key) == 99:
            raise UsageError(
                f"{where}: unknown axis; use players, seats, rotate, deck, \"seat.S\", "
                "\"seat.S.PARAM\", \"seat.all.PARAM\", rules or \"rule.KEY\""
            )
        if not isinstance(values, list) or not values:
            raise UsageError(f"{where}: expected a non-empty list of values, got {values!r}")
        if len(set(map(json.dumps, values))) != len(values):
            raise UsageError(f"{where}: a value is listed twice")
        try:
            for value in values:
                _check_axis_value(key, value, game, base)
        except UsageError as e:
            raise UsageError(f"{where}: {e}") from None
        axes.append((key, values))
    return axes


def _check_axis_value(key: str, value, game: Game, base: dict) -> None:
    if key == "players":
        _check_type("value", value, int)
        game.table(value, [])
    elif key == "rotate":
        _check_type("value", value, int)
        if value < 0:
            raise UsageError(f"rotation must be 0 or more (got {value})")
    elif key == "seats":
        _check_type("value", value, list)
        for s in value:
            _check_type("policy", s, str)
            game.check_policy(s)
    elif key == "deck":
        _check_type("value", value, str)
        if value != NO_EDIT and not DECK_EDIT_RE.match(value):
            raise UsageError(f"deck edit {value!r}: write none, CARD+N or CARD-N (e.g. lucky_break+1)")
    elif key == "rules":
        _check_type("value", value, dict)
        game.check_rules({**base["rules"], **value})
    elif key.startswith("rule."):
        game.check_rules({**base["rules"], key[5:]: value})
    else:  # seat.S or seat.S.PARAM or seat.all.PARAM
        parts = key.split(".")
        if len(parts) not in (2, 3) or not (parts[1].isdigit() or (parts[1] == "all" and len(parts) == 3)):
            raise UsageError('write "seat.S", "seat.S.PARAM" or "seat.all.PARAM" with S a seat number')
        if len(parts) == 2:
            _check_type("value", value, str)
            game.check_policy(value)
        else:
            _check_type("value", value, (int, float))
            # Try the parameter on the base lineup, so a bad name or range is blamed on this axis.
            lineup = game.table(base["players"], base["seats"][: base["players"]])
            seats = range(len(lineup)) if parts[1] == "all" else [int(parts[1])]
            for s in seats:
                if s < len(lineup):  # a seat the base table lacks is checked in its cells
                    game.check_policy(set_param(lineup[s], parts[2], value))


def set_param(spec: str, param: str, value) -> str:
    """A policy spec ('name k=v ...') with parameter `param` set to `value`."""
    words = [w for w in spec.split() if not w.startswith(param + "=")]
    return " ".join(words + [f"{param}={value!r}" if isinstance(value, float) else f"{param}={value}"])


def _cell(base: dict, setting: list[tuple[str, object]], game: Game, run: dict) -> dict:
    """The configuration of one cell: the base table with the axis values applied."""
    cell = copy.deepcopy(base)
    setting = sorted(setting, key=lambda kv: _axis_rank(kv[0]))
    for key, value in setting:
        if key == "players":
            cell["players"] = value
        elif key == "seats":
            cell["seats"] = list(value)
    # The full lineup for this player count, before any seat is edited or rotated.
    cell["seats"] = game.table(cell["players"], cell["seats"][: cell["players"]])
    for key, value in setting:
        if key == "rules":
            cell["rules"].update(value)
        elif key.startswith("rule."):
            cell["rules"][key[5:]] = value
        elif key == "rotate":
            n = cell["players"]
            cell["seats"] = [cell["seats"][(s + value) % n] for s in range(n)]
        elif key == "deck":
            if value != NO_EDIT:
                card, change = DECK_EDIT_RE.match(value).groups()
                cell["deck_edits"] = {run["key_seat"]: {card: int(change)}}
        elif key.startswith("seat."):
            parts = key.split(".")
            seats = range(cell["players"]) if parts[1] == "all" else [int(parts[1])]
            for s in seats:
                if s >= cell["players"]:
                    raise UsageError(f"{key}: there is no seat {s} with {cell['players']} players")
                cell["seats"][s] = value if len(parts) == 2 else set_param(cell["seats"][s], parts[2], value)
    cell["seats"] = game.table(cell["players"], cell["seats"])  # canonical specs, parameters checked
    game.check_rules(cell["rules"])
    game.check_cell(cell)
    cell["key_seats"] = _key_seats(cell, run)
    return cell


def _key_seats(cell: dict, run: dict) -> list[int]:
    if run["key_policy"] is None:
        if not 0 <= run["key_seat"] < cell["players"]:
            raise UsageError(f"run.key_seat: there is no seat {run['key_seat']} with {cell['players']} players")
        return [run["key_seat"]]
    want = run["key_policy"]
    seats = [s for s, spec in enumerate(cell["seats"]) if spec == want or spec.split()[0] == want]
    if not seats:
        raise UsageError(f"run.key_policy: no seat plays {want!r} (seats: {', '.join(cell['seats'])})")
    return seats
