"""The one shape of every command's --json (described by sim/core/output.schema.json):

    {"meta": {"command": ..., "monosim": version, "git_commit": ..., "game": ..., "games": ...,
              "seed": ..., "players": ..., "policies": [...], "rules_changed": {...}, ...},
     "results": ...}

Tables become lists of records; every interval is {"low": ..., "high": ...} (a pair of
columns X_low / X_high, or ci_low / ci_high, becomes X or ci); numbers that are not finite
become null, so that strict JSON parsers read every output.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pandas as pd

SCHEMA_PATH = Path(__file__).with_name("output.schema.json")


def schema() -> dict:
    """The JSON schema of every command's output, its game names read from the registry."""
    from sim.core.game import GAME_NAMES

    doc = json.loads(SCHEMA_PATH.read_text())
    doc["properties"]["meta"]["properties"]["game"]["enum"] = list(GAME_NAMES)
    return doc


def plain(obj):
    """obj as JSON-ready data: tables as records with intervals folded, numpy scalars as Python
    numbers, NaN and infinities as None, tuples as lists, keys as strings."""
    if isinstance(obj, pd.DataFrame):
        return [plain(fold_intervals(r)) for r in obj.to_dict(orient="records")]
    if isinstance(obj, pd.Series):
        return plain(obj.to_dict())
    if isinstance(obj, dict):
        return {str(k): plain(v) for k, v in fold_intervals(obj).items()}
    if isinstance(obj, (list, tuple)):
        return [plain(v) for v in obj]
    if isinstance(obj, np.ndarray):
        return [plain(v) for v in obj.tolist()]
    if isinstance(obj, (np.bool_, bool)):
        return bool(obj)
    if isinstance(obj, (np.integer, int)):
        return int(obj)
    if isinstance(obj, (np.floating, float)):
        return float(obj) if math.isfinite(obj) else None
    if obj is None or isinstance(obj, str):
        return obj
    if obj is pd.NA or obj is pd.NaT:
        return None
    return str(obj)


def fold_intervals(record: dict) -> dict:
    """{..., "X": x, "X_low": a, "X_high": b} -> {..., "X": x, "X_ci": {"low": a, "high": b}},
    in the place of X_low ("X" when there is no X: ci_low / ci_high -> ci)."""
    if not any(isinstance(k, str) and k.endswith("_low") for k in record):
        return record
    out = {}
    for key, value in record.items():
        if isinstance(key, str) and key.endswith("_low") and key[:-4] + "_high" in record:
            stem = key[:-4]
            out[stem + "_ci" if stem in record else stem] = {"low": value, "high": record[stem + "_high"]}
        elif not (isinstance(key, str) and key.endswith("_high") and key[:-5] + "_low" in record):
            out[key] = value
    return out


def intervals_from_half_widths(df: pd.DataFrame, half_widths: dict[str, str]) -> pd.DataFrame:
    """A table whose columns {H: X} give the half-width H of the interval around X, with each H
    replaced by X_low and X_high (which the JSON shows as X_ci: {low, high})."""
    df = df.copy()
    for h, x in half_widths.items():
        df.insert(df.columns.get_loc(h), f"{x}_low", df[x] - df[h])
        df.insert(df.columns.get_loc(h), f"{x}_high", df[x] + df[h])
        df = df.drop(columns=h)
    return df


def changed_rules(described: dict, defaults: dict, prefix: str = "") -> dict:
    """The entries of a rules description (a game's describe_rules) that differ from the
    default rules' description, flattened to dotted keys."""
    out = {}
    for key in described.keys() | defaults.keys():
        a, b = described.get(key), defaults.get(key)
        name = f"{prefix}{key}"
        if isinstance(a, dict) and isinstance(b, dict):
            out.update(changed_rules(a, b, name + "."))
        elif a != b:
            out[name] = a
    return dict(sorted(out.items()))


def game_meta(game, rules=None, **fields) -> dict:
    """The meta entries of a command about one game: its name and the rules it was given that
    differ from the defaults, then `fields`. A game with presets (the card game's editions)
    says its preset once, and the rules that differ from that preset's."""
    rules = game.default_rules() if rules is None else rules
    return {"game": game.name, "rules_changed": rules_changed(game, game.rules.describe(rules)), **fields}


def rules_changed(game, described: dict) -> dict:
    """The rules of a description (game.rules.describe) that differ from the defaults; for a
    game with presets, the preset (when not the first) and what differs from it."""
    preset = described.get("edition") if game.rules.presets else None
    base = game.rules_from([f"edition={preset}"]) if preset else game.default_rules()
    changed = changed_rules(described, game.rules.describe(base))
    if preset and preset != game.rules.presets[0]:
        changed = {"edition": preset, **changed}
    return changed


def with_rules_line(report: str, game, rules) -> str:
    """A report with the rules line (rules_sentence) under its first line, its title."""
    title, _, rest = report.partition("\n")
    return f"{title}\n\n{rules_sentence(game, game.rules.describe(rules))}\n{rest}"


def rules_sentence(game, described: dict, label: str = "Rules") -> str:
    """`Rules: the defaults.` or `Rules changed from the defaults: key = value; ...`, for reports."""
    changed = rules_changed(game, described)
    if not changed:
        return f"{label}: the defaults."
    shown = "; ".join(f"{k} = {json.dumps(v) if not isinstance(v, str) else v}" for k, v in changed.items())
    return f"{label} changed from the defaults: {shown}."


def run_meta(prepared, **fields) -> dict:
    """The meta entries of a command that plays a prepared run (sim/core/game.py PreparedRun)."""
    return game_meta(prepared.game, prepared.rules, games=prepared.games, seed=prepared.seed,
                     players=prepared.players, policies=list(prepared.specs), **fields)


def document(command: str, meta: dict, results) -> dict:
    from sim import __version__
    from sim.core.results import git_commit

    return plain({"meta": {"command": command, "monosim": __version__, "git_commit": git_commit(), **meta},
                  "results": results})


def emit(command: str, meta: dict, results) -> None:
    """Print the JSON of a command's results."""
    print(json.dumps(document(command, meta, results), indent=2, allow_nan=False))
