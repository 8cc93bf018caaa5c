"""`monosim <game> house-rules`: what each house rule does, switched alone, in every game.

Each variant changes one house rule (or one small group of rules a game names) from the rules
given, the baseline, and plays the same games (common random numbers: game g of the seed in
every row), so each difference to the baseline is paired game by game. For each of the game's
length columns (rounds and turns; the card game's hands and turns) the table gives the mean and
the median and their paired differences with 95% intervals (a median's by a bootstrap of the
games); then the share of games that never ended properly (the round or turn limit, a stalled
game) and seat 0's win rate, each with its paired difference. The same bot sits in every seat,
so seat 0's win rate against the fair share is the first player's edge.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pandas as pd

from sim.core.runner import progress_bar
from sim.core.runs import unfinished
from sim.core.stats import paired_diff, paired_median_diff, wilson


def variants(game, base) -> dict[str, list[str]]:
    """The variants of a rule set, label -> rule changes: every boolean house rule flipped,
    every other choice of a house rule that has choices, then the game's own (house_variants)."""
    out = {}
    for f in dataclasses.fields(base.house):
        value, parser = getattr(base.house, f.name), game.rules.parsers.get(f.name)
        if isinstance(value, bool):
            out[f"{f.name}={str(not value).lower()}"] = [f"{f.name}={str(not value).lower()}"]
        elif parser is not None and hasattr(parser, "options"):
            out.update({f"{f.name}={o}": [f"{f.name}={o}"] for o in parser.options if o != value})
    for label, changes in game.rules.house_variants(base).items():
        out[label] = list(changes)
    return out


def _outcomes(game, df: pd.DataFrame) -> dict[str, np.ndarray]:
    """What a row reads of a table: the length columns, the unfinished flag, seat 0's win."""
    out = {col: df[col].to_numpy(float) for col in game.experiment.length_cols}
    out["unfinished"] = unfinished(df, game.experiment.unfinished_cols).astype(float)
    out["seat0_win"] = df["win_0"].to_numpy(float)
    return out


def _row(game, label: str, x: dict[str, np.ndarray], base: dict[str, np.ndarray] | None) -> dict:
    row: dict = {"rules": label}
    for col in (*game.experiment.length_cols, "unfinished", "seat0_win"):
        row[col] = float(x[col].mean())
        if col == "seat0_win":
            row["seat0_win_low"], row["seat0_win_high"] = map(float, wilson(x[col].sum(), x[col].size))
        if col in game.experiment.length_cols:
            row[f"{col}_median"] = float(np.median(x[col]))
        diffs = [col] + ([f"{col}_median"] if col in game.experiment.length_cols else [])
        for name in diffs:
            if base is None:
                d, lo, hi = 0.0, float("nan"), float("nan")
            elif name.endswith("_median"):
                d, lo, hi = paired_median_diff(x[col], base[col])
            else:
                d, half = paired_diff(x[col], base[col])
                lo, hi = d - half, d + half
            row[f"{name}_diff"], row[f"{name}_diff_low"], row[f"{name}_diff_high"] = d, lo, hi
    return row


def effects(game, games: int, players: int, seats: list[str], base_changes: list[str], seed: int = 0,
            threads: int | None = None, progress: bool = False, chosen: dict[str, list[str]] | None = None
            ) -> pd.DataFrame:
    """One row for the baseline (the rules after base_changes) and one per variant (`chosen`,
    default: every variant of the baseline), on the same games with `seats` at the table."""
    base_rules = game.rules_from(base_changes)
    chosen = variants(game, base_rules) if chosen is None else chosen
    bar = progress_bar(progress)
    rows = []
    with bar:
        task = bar.add_task(f"{len(chosen) + 1} rule sets", total=(len(chosen) + 1) * games)
        baseline = None
        for label, changes in {"baseline": [], **chosen}.items():
            rules = game.rules_from(base_changes + changes)
            x = _outcomes(game, game.simulate(games, players, seats, rules, seed, threads))
            rows.append(_row(game, label, x, baseline))
            if baseline is None:
                baseline = x
            bar.advance(task, games)
    return pd.DataFrame(rows)


def _diff(value: float, low: float, high: float, scale: float, digits: int) -> str:
    if np.isnan(low):
        return "baseline"
    return f"{value * scale:+.{digits}f} ({low * scale:+.{digits}f} to {high * scale:+.{digits}f})"


def render(game, t: pd.DataFrame, games: int, players: int, seats: list[str], baseline: str) -> str:
    """The house-rules report: the table, with what its columns mean; `baseline` says its rules
    (json_output.rules_sentence, labelled "Baseline")."""
    bots = seats[0] if len(set(seats)) == 1 else ", ".join(seats)
    where = "in every seat" if len(set(seats)) == 1 else "at the table"
    lines = [f"# House rules of {game.title}, each switched alone: {games:,} games a row, {players} players, "
             f"{bots} {where}", "",
             f"{baseline} Every row plays the same games (game g of the seed), so each difference to the "
             "baseline is paired game by game, with its 95% interval (a median's: a bootstrap of the games). "
             f"Unfinished: games stopped before a proper end ({', '.join(game.experiment.unfinished_cols) or 'none'}). "
             f"Seat 0 plays first; a fair share is {1 / players:.1%}.", ""]
    head = ["rules"]
    for col in game.experiment.length_cols:
        head += [col, "vs baseline", f"median {col}", "vs baseline"]
    head += ["unfinished", "vs baseline (points)", "seat 0 wins", "95% CI", "vs baseline (points)"]
    lines += ["| " + " | ".join(head) + " |", "|---|" + "---:|" * (len(head) - 1)]
    for r in t.to_dict(orient="records"):
        cells = [r["rules"]]
        for col in game.experiment.length_cols:
            cells += [f"{r[col]:.2f}", _diff(r[f"{col}_diff"], r[f"{col}_diff_low"], r[f"{col}_diff_high"], 1, 2),
                      f"{r[f'{col}_median']:g}", _diff(r[f"{col}_median_diff"], r[f"{col}_median_diff_low"],
                                                       r[f"{col}_median_diff_high"], 1, 1)]
        cells += [f"{r['unfinished']:.2%}",
                  _diff(r["unfinished_diff"], r["unfinished_diff_low"], r["unfinished_diff_high"], 100, 2),
                  f"{r['seat0_win']:.1%}", f"{r['seat0_win_low']:.1%} - {r['seat0_win_high']:.1%}",
                  _diff(r["seat0_win_diff"], r["seat0_win_diff_low"], r["seat0_win_diff_high"], 100, 1)]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"
