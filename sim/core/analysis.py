"""Tables, report and plots of an experiment run, from its stored per-game tables.

Everything here reads the run folder only (resolved.json, manifest.json, games/), so
`monosim report` can re-render a report at any time and `monosim compare` can set two runs
side by side. Differences between cells are paired: every cell plays the same game indices
with the same seeds, so each difference is taken game by game (``stats.paired_diff``).
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from sim.core import results
from sim.core.experiment import NO_EDIT, Plan
from sim.core.runs import RunDir, check_complete, is_run_dir, key_win, unfinished, utc_now, write_atomic
from sim.core.runner import UsageError
from sim.core.stats import mean_ci, wilson
from sim.core.json_output import rules_sentence
from sim.core.ranking import bradley_terry
from sim.core.summary import Tally, figure, length_stats, mean_ci_of_sums


def paired(a: pd.DataFrame, b: pd.DataFrame, key_a: list[int], key_b: list[int]) -> dict:
    """Key win rate of b minus that of a over the games both played, with its 95% interval."""
    return paired_row(paired_sums(a, b, key_a, key_b))


def paired_sums(a: pd.DataFrame, b: pd.DataFrame, key_a: list[int], key_b: list[int]) -> np.ndarray:
    """[games both played, sum, sum of squares] of b's key win minus a's, game by game."""
    both = pd.DataFrame({"game": a["game"], "a": key_win(a, key_a)}).merge(
        pd.DataFrame({"game": b["game"], "b": key_win(b, key_b)}), on="game"
    )
    d = both["b"].to_numpy() - both["a"].to_numpy()
    return np.array([len(d), d.sum(), (d * d).sum()])


def paired_row(sums: np.ndarray) -> dict:
    n, total, squares = sums
    diff, half = mean_ci_of_sums(total, squares, int(n))
    return {"paired_games": int(n), "diff": diff, "diff_ci_low": diff - half, "diff_ci_high": diff + half}


JOINT = 1 << 32  # a (length in A, length in B) pair as one int64: a * JOINT + b


@dataclass
class LengthPair:
    """Game length and unfinished games of cell b against cell a over the games both played,
    added up chunk by chunk: per length column the paired difference's sums and the joint
    counts of (a, b) lengths (from which the median difference and its bootstrap interval
    come), and the paired difference of the 0/1 "never ended properly" flag."""

    cols: tuple[str, ...]
    unfinished_cols: tuple[str, ...]
    sums: dict = field(default_factory=dict)  # name -> [games, sum of b - a, sum of its squares]
    joint: dict = field(default_factory=dict)  # length column -> {a * JOINT + b: games}

    def add(self, a: pd.DataFrame, b: pd.DataFrame) -> None:
        keep = ["game", *self.cols, *self.unfinished_cols]
        both = a[keep].merge(b[keep], on="game", suffixes=("_a", "_b"))
        diffs = {col: both[f"{col}_b"].to_numpy(np.int64) - both[f"{col}_a"].to_numpy(np.int64) for col in self.cols}
        if self.unfinished_cols:
            flag = {side: unfinished(both, [f"{c}_{side}" for c in self.unfinished_cols]) for side in "ab"}
            diffs["unfinished"] = flag["b"].astype(np.int64) - flag["a"].astype(np.int64)
        for name, d in diffs.items():
            self.sums[name] = self.sums.get(name, np.zeros(3)) + [len(d), d.sum(), (d * d).sum()]
        for col in self.cols:
            codes = both[f"{col}_a"].to_numpy(np.int64) * JOINT + both[f"{col}_b"].to_numpy(np.int64)
            into = self.joint.setdefault(col, {})
            for code, count in zip(*np.unique(codes, return_counts=True)):
                into[int(code)] = into.get(int(code), 0) + int(count)

    def row(self) -> dict:
        """b - a of each length column's mean and median, and of the unfinished share, each with
        its 95% interval (paired; a median's by bootstrap)."""
        from sim.core.stats import paired_median_diff_counts

        out = {}
        for name, (n, total, squares) in self.sums.items():
            diff, half = mean_ci_of_sums(total, squares, int(n))
            out[f"{name}_diff"], out[f"{name}_diff_low"], out[f"{name}_diff_high"] = diff, diff - half, diff + half
        for col, counts in self.joint.items():
            codes = np.fromiter(counts.keys(), np.int64, len(counts))
            weights = np.fromiter(counts.values(), np.int64, len(counts))
            d, lo, hi = paired_median_diff_counts(codes % JOINT, codes // JOINT, weights)
            out[f"{col}_median_diff"], out[f"{col}_median_diff_low"], out[f"{col}_median_diff_high"] = d, lo, hi
        return out


def baseline(plan: Plan, cell: dict) -> int:
    """The cell this cell is compared with (runs written before baseline_by existed: cell 0)."""
    return cell.get("baseline", plan.cells[0]["id"])


def key_description(plan: Plan) -> str:
    run = plan.spec["run"]
    if run["key_policy"] is not None:
        return f"the per-seat win rate of the seats playing {run['key_policy']!r}"
    return f"seat {run['key_seat']}'s win rate"


def reference_cell(plan: Plan, cell: dict) -> dict:
    """For a card-value cell (a deck edit), the cell with the unedited deck and the same other
    settings."""
    others = [a for a in plan.spec["sweep"] if a != "deck"]
    return next(c for c in plan.cells
                if c["labels"]["deck"] == NO_EDIT and all(c["labels"][a] == cell["labels"][a] for a in others))


@dataclass
class CellSums:
    """What a cell's tables are computed from, added up chunk by chunk."""

    tally: Tally = field(default_factory=Tally)
    key: np.ndarray = field(default_factory=lambda: np.zeros(2))  # key win: sum, sum of squares
    usage: dict = field(default_factory=dict)  # counter -> sums per seat, key seats, winner, others
    unfinished: int = 0  # games that never ended properly (the game's unfinished_cols)


def analyze(plan: Plan, run: RunDir) -> dict[str, pd.DataFrame]:
    """summary (one row per cell), seats (per cell and seat), pairs, card_values, usage.

    Read chunk by chunk: chunk k of every cell holds the same games, so it is read once, added
    to each cell's sums and to the paired differences, and let go. Memory is that of one chunk
    per cell, whatever the number of games."""
    check_complete(plan, run)
    game = plan.game
    axes = list(plan.spec["sweep"])
    cells = {c["id"]: c for c in plan.cells}
    ids = list(cells)
    pair_list = [(baseline(plan, c), c["id"]) for c in plan.cells if baseline(plan, c) != c["id"]]
    if plan.spec["outputs"]["all_pairs"]:
        pair_list = [(a, b) for i, a in enumerate(ids) for b in ids[i + 1 :]]
    card_pairs = []
    if "deck" in plan.spec["sweep"]:
        card_pairs = [(reference_cell(plan, c)["id"], c["id"]) for c in plan.cells if c["labels"]["deck"] != NO_EDIT]
    wanted = set(pair_list) | set(card_pairs) | {(baseline(plan, c), c["id"]) for c in plan.cells}
    usage_on = plan.spec["outputs"]["usage"] and bool(game.experiment.usage_cols)

    sums = {i: CellSums() for i in ids}
    pairs = {pair: np.zeros(3) for pair in wanted}
    to_baseline = {(baseline(plan, c), c["id"]) for c in plan.cells if baseline(plan, c) != c["id"]}
    lengths = {pair: LengthPair(tuple(game.experiment.length_cols), tuple(game.experiment.unfinished_cols))
               for pair in to_baseline}
    stored = {i: set(run.stored(i)) for i in ids}
    for k in sorted(set().union(*stored.values())):
        chunk = {i: run.read_chunk(i, k) for i in ids if k in stored[i]}
        for i, df in chunk.items():
            cell, cs = cells[i], sums[i]
            game.tally(df, cs.tally)
            kw = key_win(df, cell["key_seats"])
            cs.key += [kw.sum(), (kw * kw).sum()]
            if game.experiment.unfinished_cols:
                cs.unfinished += int(unfinished(df, game.experiment.unfinished_cols).sum())
            if usage_on:
                add_usage(cs.usage, df, cell, game.experiment.usage_cols)
        for (a, b) in wanted:
            if a in chunk and b in chunk:
                pairs[(a, b)] += paired_sums(chunk[a], chunk[b], cells[a]["key_seats"], cells[b]["key_seats"])
                if (a, b) in lengths:
                    lengths[(a, b)].add(chunk[a], chunk[b])

    rows, seat_rows = [], []
    for cell in plan.cells:
        cs = sums[cell["id"]]
        n = cs.tally.n
        low, high = wilson(cs.key[0], n)
        row = {"cell": cell["id"], **{a: cell["labels"][a] for a in axes}, "players": cell["players"],
               "games": n, "fair_share": 1 / cell["players"], "key_win_rate": cs.key[0] / n,
               "key_ci_low": float(low), "key_ci_high": float(high)}
        # the key seat's edge over its fair share: what a seat or player-count sweep is about
        fair = 1 / cell["players"]
        row.update(edge=row["key_win_rate"] - fair, edge_ci_low=row["key_ci_low"] - fair,
                   edge_ci_high=row["key_ci_high"] - fair)
        length = length_stats(cs.tally, game.experiment.length_cols)
        for col in game.experiment.length_cols:
            row[f"{col}_mean"], row[f"{col}_ci"] = length.loc[col, "mean"], length.loc[col, "ci"]
            row[f"{col}_median"] = length.loc[col, "median"]
        if game.experiment.unfinished_cols:
            row["unfinished"] = cs.unfinished / n
        row["baseline"] = baseline(plan, cell)
        row.update(paired_row(pairs[(row["baseline"], cell["id"])]))
        if (row["baseline"], cell["id"]) in lengths:
            row.update(lengths[(row["baseline"], cell["id"])].row())
        rows.append(row)
        by_seat = game.report.summary(cs.tally)["by_seat"][["seat", "policy", "wins", "win_rate", "ci_low", "ci_high"]]
        seat_rows.append(by_seat.assign(cell=cell["id"], **{a: cell["labels"][a] for a in axes}))
    summary = pd.DataFrame(rows)
    seats = pd.concat(seat_rows, ignore_index=True)
    seats = seats[["cell", *axes, "seat", "policy", "wins", "win_rate", "ci_low", "ci_high"]]
    out = {"summary": summary, "seats": seats, "pairs": pd.DataFrame(
        [{"cell_a": a, "cell_b": b, **paired_row(pairs[(a, b)])} for a, b in pair_list],
        columns=["cell_a", "cell_b", "paired_games", "diff", "diff_ci_low", "diff_ci_high"])}
    if card_pairs:
        out["card_values"] = card_values(plan, summary, pairs)
    if is_tournament(plan):
        out["ranking"], out["first_seat_edge"] = bradley_terry(pd.DataFrame({
            "first": summary["seat.0"], "second": summary["seat.1"],
            "wins": summary["key_win_rate"] * summary["games"], "games": summary["games"]}))
    if usage_on:
        out["usage"] = pd.DataFrame([
            {"cell": cell["id"], "counter": col, **usage_means(sums[cell["id"]].usage[col], sums[cell["id"]].tally.n,
                                                              cell)}
            for cell in plan.cells for col in game.experiment.usage_cols])
    return out


def is_tournament(plan: Plan) -> bool:
    """A two-player round robin: policies swept over seat 0 and seat 1, seat 0's win rate the
    key. Its report ranks the policies (sim/core/ranking.py) and draws the grid as a heatmap."""
    run = plan.spec["run"]
    return (sorted(plan.spec["sweep"]) == ["seat.0", "seat.1"] and all(c["players"] == 2 for c in plan.cells)
            and run["key_policy"] is None and run["key_seat"] == 0 and len(plan.cells) > 1)


def card_values(plan: Plan, summary: pd.DataFrame, pairs: dict) -> pd.DataFrame:
    """Each deck edit against the cell with the unedited deck and the same other settings."""
    others = [a for a in plan.spec["sweep"] if a != "deck"]
    rate = dict(zip(summary["cell"], summary["key_win_rate"]))
    rows = []
    for cell in plan.cells:
        edit = cell["labels"]["deck"]
        if edit == NO_EDIT:
            continue
        ref = reference_cell(plan, cell)
        rows.append({
            "cell": cell["id"], **{a: cell["labels"][a] for a in others}, "edit": edit,
            "seat": cell["key_seats"][0], "reference_cell": ref["id"],
            "reference_win_rate": float(rate[ref["id"]]), "win_rate": float(rate[cell["id"]]),
            **paired_row(pairs[(ref["id"], cell["id"])]),
        })
    if not rows:
        return pd.DataFrame(rows)
    # Grouped by the other axes, each group's most valuable edit first.
    return pd.DataFrame(rows).sort_values([*others, "diff"], ascending=[True] * len(others) + [False], kind="stable",
                                          ignore_index=True)


def add_usage(usage: dict, df: pd.DataFrame, cell: dict, counters) -> None:
    """Add a chunk's usage counters: sums over games of the counter per seat (all seats), at the
    key seats, at the winner (win shares weight a shared win) and at the other players."""
    n = cell["players"]
    win = np.stack([df[f"win_{s}"].to_numpy(float) for s in range(n)], axis=1)
    for col in counters:
        x = np.stack([df[f"{col}_{s}"].to_numpy(float) for s in range(n)], axis=1)
        usage[col] = usage.get(col, np.zeros(4)) + [x.sum(), x[:, cell["key_seats"]].sum(), (win * x).sum(),
                                                    ((1 - win) * x).sum()]


def usage_means(s: np.ndarray, games: int, cell: dict) -> dict:
    """Per game, mean of each usage counter: per seat, for the key seats, for the winner and for
    the other players."""
    n = cell["players"]
    return {"per_seat": s[0] / (games * n), "key_seat": s[1] / (games * len(cell["key_seats"])),
            "winner": s[2] / games, "others": s[3] / games / (n - 1)}


# ---- writing --------------------------------------------------------------------------------


def write_outputs(plan: Plan, run: RunDir) -> str:
    """Summarize the stored tables into CSV/Parquet, plots and report.md; returns the report."""
    tables = analyze(plan, run)
    for name in ("summary", "seats"):
        write_atomic(run.path / f"{name}.csv", lambda p, t=tables[name]: t.to_csv(p, index=False))
        write_atomic(run.path / f"{name}.parquet", lambda p, t=tables[name]: t.to_parquet(p, index=False))
    for name in ("pairs", "card_values", "usage", "ranking"):
        if name in tables:
            write_atomic(run.path / f"{name}.csv", lambda p, t=tables[name]: t.to_csv(p, index=False))
    plots = []
    if plan.spec["outputs"]["plots"]:
        write_atomic(run.path / "key_win_rate.png", lambda p: plot_key(plan, tables["summary"], p))
        plots.append(("Key win rate by cell", "key_win_rate.png"))
        if "ranking" in tables:
            write_atomic(run.path / "tournament_heatmap.png", lambda p: plot_tournament(plan, tables["summary"], p))
            plots.append(("Tournament: seat 0's win rate", "tournament_heatmap.png"))
        if "card_values" in tables and len(tables["card_values"]):
            write_atomic(run.path / "card_values.png", lambda p: plot_card_values(plan, tables["card_values"], p))
            plots.append(("Card values", "card_values.png"))
    report = render(plan, run.manifest(), tables, plots)
    write_atomic(run.path / "report.md", results.write_text(report))
    return report


def finish(plan: Plan, run: RunDir) -> str:
    """Write the tables and report of a run whose games are all played, then mark it complete
    (last, so a run killed while summarizing is still resumable)."""
    m = run.manifest()
    m["finished"] = utc_now()
    run.write_manifest(m)
    report = write_outputs(plan, run)
    run.write_manifest({**m, "status": "complete"})
    return report


def _pct(x: float) -> str:
    return "n/a" if x is None or (isinstance(x, float) and math.isnan(x)) else f"{x:.1%}"


def _signed(x: float) -> str:
    return "n/a" if math.isnan(x) else f"{x * 100:+.2f} pts"


def _label(plan: Plan, cell_id: int) -> str:
    labels = plan.cells[cell_id]["labels"]
    return ", ".join(f"{k}={v}" for k, v in labels.items()) or "base table"


def render(plan: Plan, manifest: dict, tables: dict[str, pd.DataFrame], plots: list) -> str:
    spec, run = plan.spec, plan.spec["run"]
    game = plan.game
    summary = tables["summary"]
    axes = list(spec["sweep"])
    per_cell = (
        f"up to {run['games']:,} games per cell, each stopped once its key win rate's 95% interval "
        f"is narrower than {run['precision']:g} (checked every {run['chunk_size']:,} games)"
        if run["precision"] else f"{run['games']:,} games per cell"
    )
    lines = [f"# {spec['name']}", ""]
    if spec["description"]:
        lines += [spec["description"], ""]
    lines += [
        f"{game.title}; {len(plan.cells)} cells; {per_cell}; master seed {spec['seed']}; "
        f"run {manifest.get('run_id')} ({manifest.get('started')} to {manifest.get('finished') or 'now'}).",
        "",
        *([f"The spec as changed on the command line: --set {' --set '.join(spec['overrides'])}.", ""]
          if spec.get("overrides") else []),
        rules_sentence(game, game.rules.describe(game.rules_of(spec["rules"])), "Base rules")
        + " Each cell's own rules are listed under Cells.",
        "",
        f"Key win rate: {key_description(plan)} (a shared win counts 1/k). Common random numbers: "
        "every cell plays the same game indices with the same seeds (game g is seeded from "
        "(seed, g)), so the differences between cells below are paired, game by game, over the "
        "games both cells played, each with its own 95% interval.",
        "",
        "Baseline: " + (f"for each value of {', '.join(run['baseline_by'])}, the first cell with that value."
                        if run["baseline_by"] else "cell 0; every other cell is compared with it."),
        "",
        "## Cells",
        "",
    ]
    length = [c for c in game.experiment.length_cols]
    head = ["cell", *axes, "games", "fair share", "key win rate", "95% CI", "edge over fair share", "95% CI", *length,
            "vs baseline", "95% CI"]
    lines += ["| " + " | ".join(head) + " |", "|" + "|".join("---:" if h not in axes else "---" for h in head) + "|"]
    for r in summary.to_dict("records"):
        vals = [str(r["cell"]), *[str(r[a]) for a in axes], f"{r['games']:,}", _pct(r["fair_share"]),
                _pct(r["key_win_rate"]),
                f"{_pct(r['key_ci_low'])} - {_pct(r['key_ci_high'])}",
                _signed(r["edge"]), f"{_signed(r['edge_ci_low'])} to {_signed(r['edge_ci_high'])}"]
        vals += [f"{r[f'{c}_mean']:.2f}" for c in length]
        if r["cell"] == r["baseline"]:
            vals += ["baseline", ""]
        else:
            vals += [f"{_signed(r['diff'])} (vs {r['baseline']})",
                     f"{_signed(r['diff_ci_low'])} to {_signed(r['diff_ci_high'])}"]
        lines.append("| " + " | ".join(vals) + " |")

    if any(f"{length[0]}_diff" in r for r in summary.to_dict("records")):
        lines += ["", "## Game length and unfinished games against the baseline", "",
                  "Each cell minus its baseline, game by game over the same games (95% intervals; a median's "
                  "by a bootstrap of the games)" + (f"; unfinished: games stopped before a proper end "
                                                  f"({', '.join(game.experiment.unfinished_cols)})"
                                                  if game.experiment.unfinished_cols else "")
                  + "; the key win rate beside them.", ""]
        head = ["cell", *axes]
        for c in length:
            head += [f"{c} (mean)", "vs baseline", f"{c} (median)", "vs baseline"]
        head += ["unfinished", "vs baseline"] if game.experiment.unfinished_cols else []
        head += ["key win rate", "vs baseline"]
        lines += ["| " + " | ".join(head) + " |", "|" + "|".join("---" if h in axes else "---:" for h in head) + "|"]
        for r in summary.to_dict("records"):
            base = r["cell"] == r["baseline"]

            def vs(name, scale=1.0, digits=2, r=r, base=base):
                if base:
                    return "baseline"
                return (f"{r[f'{name}_diff'] * scale:+.{digits}f} ({r[f'{name}_diff_low'] * scale:+.{digits}f} to "
                        f"{r[f'{name}_diff_high'] * scale:+.{digits}f})")

            vals = [str(r["cell"]), *[str(r[a]) for a in axes]]
            for c in length:
                vals += [f"{r[f'{c}_mean']:.2f}", vs(c), f"{r[f'{c}_median']:g}", vs(f"{c}_median", digits=1)]
            if game.experiment.unfinished_cols:
                vals += [f"{r['unfinished']:.2%}", vs("unfinished", 100) + ("" if base else " pts")]
            vals += [_pct(r["key_win_rate"]), "baseline" if base else f"{_signed(r['diff'])} "
                     f"({_signed(r['diff_ci_low'])} to {_signed(r['diff_ci_high'])})"]
            lines.append("| " + " | ".join(vals) + " |")

    if len(axes) == 2:  # a two-way sweep reads best as a grid
        grid = summary.pivot(index=axes[0], columns=axes[1], values="key_win_rate")
        grid = grid.loc[pd.unique(summary[axes[0]]), pd.unique(summary[axes[1]])]
        lines += ["", f"## Key win rate by {axes[0]} (rows) and {axes[1]} (columns)", "",
                  f"| {axes[0]} | " + " | ".join(map(str, grid.columns)) + " |", "|---|" + "---:|" * len(grid.columns)]
        for label, row in grid.iterrows():
            lines.append(f"| {label} | " + " | ".join(_pct(v) for v in row) + " |")

    if "ranking" in tables:
        edge = tables["first_seat_edge"]
        logistic = lambda x: 1 / (1 + math.exp(-x))  # noqa: E731
        lines += ["", "## Ranking (Bradley-Terry, 95% intervals)", "",
                  "Each policy's strength is its log-odds of beating an average policy of this field, the seats "
                  "shared equally; the model fits every pairing and both seat orders at once, with a first-seat "
                  f"effect: the first seat's edge is {edge['h']:+.3f} ({edge['h_low']:+.3f} to {edge['h_high']:+.3f}) "
                  f"in log-odds, {logistic(edge['h']):.1%} for two equal policies.", "",
                  "| rank | policy | strength | 95% CI | win rate against an average policy | 95% CI |",
                  "|---:|---|---:|---|---:|---|"]
        for r in tables["ranking"].itertuples():
            lines.append(f"| {r.rank} | {r.policy} | {r.strength:+.3f} | {r.strength_low:+.3f} to "
                         f"{r.strength_high:+.3f} | {r.win_vs_average:.1%} | {logistic(r.strength_low):.1%} - "
                         f"{logistic(r.strength_high):.1%} |")

    seats = tables["seats"]
    n_seats = int(seats["seat"].max()) + 1
    lines += ["", "## Win rate by seat (95% interval; edge over the fair share)", ""]
    lines += ["| cell | " + " | ".join(f"seat {s}" for s in range(n_seats)) + " |",
              "|---:|" + "---|" * n_seats]
    for cell_id, grp in seats.groupby("cell", sort=True):
        fair = 1 / len(grp)
        by = {int(r.seat): f"{r.policy}: {_pct(r.win_rate)} ({_pct(r.ci_low)} - {_pct(r.ci_high)}); "
                           f"{_signed(r.win_rate - fair)}"
              for r in grp.itertuples()}
        lines.append(f"| {cell_id} | " + " | ".join(by.get(s, "") for s in range(n_seats)) + " |")

    if spec["outputs"]["all_pairs"] and len(tables["pairs"]):
        lines += ["", "## Paired differences between all cells (key win rate, b - a)", "",
                  "| cell a | cell b | games | b - a | 95% CI |", "|---:|---:|---:|---:|---|"]
        for r in tables["pairs"].itertuples():
            lines.append(f"| {r.cell_a} | {r.cell_b} | {r.paired_games:,} | {_signed(r.diff)} "
                         f"| {_signed(r.diff_ci_low)} to {_signed(r.diff_ci_high)} |")

    cv = tables.get("card_values")
    if cv is not None and len(cv):
        seat = int(cv["seat"].iloc[0])
        lines += ["", f"## Card values (seat {seat}; paired against the unedited deck)", "",
                  f"Each edit changes this seat's cards only (+N: N more copies, -N: N fewer): "
                  f"{game.experiment.edit_meaning}. The change in its win rate is measured game by game against "
                  "the same games unedited.", ""]
        others = [a for a in axes if a != "deck"]
        head = [*others, "edit", "win rate", "unedited", "change", "95% CI"]
        lines += ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
        for r in cv.to_dict("records"):
            lines.append("| " + " | ".join([*[str(r[a]) for a in others], r["edit"], _pct(r["win_rate"]),
                         _pct(r["reference_win_rate"]), _signed(r["diff"]),
                         f"{_signed(r['diff_ci_low'])} to {_signed(r['diff_ci_high'])}"]) + " |")

    use = tables.get("usage")
    if use is not None and len(use):
        ref = plan.cells[0]["id"]
        lines += ["", f"## Card usage (cell {ref}: {_label(plan, ref)}; mean per game)", "",
                  "Counts per player per game: all seats, the key seat(s), the game's winner and the "
                  "other players, for each of the game's per-seat counters (columns of its per-game table).", "",
                  "| counter | per seat | key seat | winner | others |", "|---|---:|---:|---:|---:|"]
        for r in use[use.cell == ref].itertuples():
            lines.append(f"| {r.counter} | {r.per_seat:.2f} | {r.key_seat:.2f} | {r.winner:.2f} | {r.others:.2f} |")
        if len(plan.cells) > 1:
            lines += ["", "Every cell's usage is in usage.csv."]

    if plots:
        lines += ["", "## Plots", ""]
        lines += [f"![{title}]({name})" for title, name in plots]
    lines += ["", "Tables: summary.csv / summary.parquet (one row per cell), seats.csv, pairs.csv"
              + (", ranking.csv" if "ranking" in tables else "")
              + (", card_values.csv" if cv is not None else "") + (", usage.csv" if use is not None else "")
              + "; per-game rows in games/cell=NNN/."]
    return "\n".join(lines) + "\n"


def plot_key(plan: Plan, summary: pd.DataFrame, path: Path) -> None:
    """Key win rate of each cell with its 95% interval, one row per cell."""
    n = len(summary)
    fig = figure(figsize=(8, 1.2 + 0.32 * n))
    ax = fig.subplots()
    y = np.arange(n)[::-1]
    err = np.vstack([summary["key_win_rate"] - summary["key_ci_low"], summary["key_ci_high"] - summary["key_win_rate"]])
    ax.errorbar(summary["key_win_rate"], y, xerr=err, fmt="o", color="#3b7dd8", capsize=4, label="key win rate")
    ax.scatter(summary["fair_share"], y, marker="|", s=150, color="gray", label="fair share (1 / players)")
    ax.legend(fontsize=7, loc="best")
    ax.set_yticks(y, [f"{c}: {_label(plan, c)}" for c in summary["cell"]], fontsize=7)
    ax.set_xlabel(f"key win rate ({key_description(plan)}), 95% CI")
    ax.set_title(f"{plan.name}: key win rate by cell", fontsize=10)
    ax.grid(axis="x", alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=120, format="png")


def plot_tournament(plan: Plan, summary: pd.DataFrame, path: Path) -> None:
    """Seat 0's win rate for every pairing (rows: seat 0's policy), as a heatmap."""
    grid = summary.pivot(index="seat.0", columns="seat.1", values="key_win_rate")
    grid = grid.loc[pd.unique(summary["seat.0"]), pd.unique(summary["seat.1"])]
    fig = figure(figsize=(2.2 + 1.1 * len(grid.columns), 1.6 + 0.6 * len(grid)))
    ax = fig.subplots()
    image = ax.imshow(grid.to_numpy(), cmap="RdBu", vmin=0, vmax=1)
    for (i, j), v in np.ndenumerate(grid.to_numpy()):
        ax.text(j, i, f"{v:.0%}", ha="center", va="center", fontsize=8, color="black" if 0.25 < v < 0.75 else "white")
    ax.set_xticks(range(len(grid.columns)), grid.columns, rotation=30, ha="right", fontsize=8)
    ax.set_yticks(range(len(grid)), grid.index, fontsize=8)
    ax.set_xlabel("seat 1 (second player)")
    ax.set_ylabel("seat 0 (first player)")
    ax.set_title(f"{plan.name}: seat 0's win rate", fontsize=10)
    fig.colorbar(image, ax=ax, fraction=0.04)
    fig.tight_layout()
    fig.savefig(path, dpi=120, format="png")


def plot_card_values(plan: Plan, cv: pd.DataFrame, path: Path | None = None):
    """Each card edit's paired change to the key seat's win rate (a Figure; written to `path`
    when given), in the table's order: most valuable first."""
    n = len(cv)
    fig = figure(figsize=(8, 1.2 + 0.3 * n))
    ax = fig.subplots()
    y = np.arange(n)[::-1]
    err = np.vstack([cv["diff"] - cv["diff_ci_low"], cv["diff_ci_high"] - cv["diff"]]) * 100
    colours = ["#2e8b57" if d > 0 else "#c0392b" for d in cv["diff"]]
    ax.barh(y, cv["diff"] * 100, xerr=err, color=colours, capsize=3)
    others = [a for a in plan.spec["sweep"] if a != "deck"]
    ax.set_yticks(y, [", ".join([*(str(r[a]) for a in others), r["edit"]]) for _, r in cv.iterrows()], fontsize=7)
    ax.axvline(0, color="gray", lw=1)
    ax.set_xlabel(f"change in seat {int(cv['seat'].iloc[0])}'s win rate (points; paired 95% CI)")
    ax.set_title(f"{plan.name}: what each card edit is worth", fontsize=10)
    fig.tight_layout()
    if path is not None:
        fig.savefig(path, dpi=120, format="png")
    return fig


# ---- compare --------------------------------------------------------------------------------


def _setting(cell: dict) -> str:
    """What a cell plays, independent of where it sits in its spec."""
    return json.dumps({k: cell[k] for k in ("players", "seats", "rules", "deck_edits", "key_seats")}, sort_keys=True)


def compare(path_a: Path, path_b: Path) -> tuple[str, pd.DataFrame]:
    """Two complete runs side by side: cells matched by what they play (or by position when
    nothing matches), with B - A differences; paired when both used the same seed and game."""
    runs = []
    for path in (path_a, path_b):
        if not is_run_dir(path):
            raise UsageError(f"{path} is not a run folder (no resolved.json / manifest.json)")
        run = RunDir(path)
        if run.manifest().get("status") != "complete":
            raise UsageError(f"{path} is not complete; finish it with `monosim run {path} --resume`")
        runs.append((run, run.plan()))
    (run_a, plan_a), (run_b, plan_b) = runs
    if plan_a.spec["game"] != plan_b.spec["game"]:
        raise UsageError(f"compare: A plays {plan_a.spec['game']} and B {plan_b.spec['game']}; compare runs of one game")
    common = plan_a.spec["seed"] == plan_b.spec["seed"]
    by_setting = {_setting(c): c for c in plan_b.cells}
    matches = [(c, by_setting[_setting(c)]) for c in plan_a.cells if _setting(c) in by_setting]
    how = "cells matched by their settings (players, seats, rules, deck, key seats)"
    if not matches:
        if len(plan_a.cells) != len(plan_b.cells):
            raise UsageError("compare: no cell of A plays the same settings as a cell of B, and the cell counts differ")
        matches = list(zip(plan_a.cells, plan_b.cells))
        how = "no cell plays the same settings in both runs, so cells are matched by position"
    rows = []
    for ca, cb in matches:
        # only the columns compared: a run's whole table may not fit in memory
        game = plan_a.game
        lengths = [*game.experiment.length_cols, *game.experiment.unfinished_cols]
        ga = run_a.read_cell(ca["id"], ["game", *(f"win_{s}" for s in ca["key_seats"]), *lengths])
        gb = run_b.read_cell(cb["id"], ["game", *(f"win_{s}" for s in cb["key_seats"]), *lengths])
        ka, kb = key_win(ga, ca["key_seats"]), key_win(gb, cb["key_seats"])
        row = {"cell_a": ca["id"], "cell_b": cb["id"], "label_a": _label(plan_a, ca["id"]),
               "label_b": _label(plan_b, cb["id"]), "games_a": len(ga), "games_b": len(gb),
               "key_a": ka.mean(), "key_b": kb.mean()}
        for col in game.experiment.length_cols:
            row[f"{col}_a"], row[f"{col}_b"] = ga[col].mean(), gb[col].mean()
        if common:
            row.update(paired(ga, gb, ca["key_seats"], cb["key_seats"]), paired_ok=True)
            pair = LengthPair(tuple(game.experiment.length_cols), tuple(game.experiment.unfinished_cols))
            pair.add(ga, gb)
            row.update(pair.row())
        else:  # independent samples: the two intervals' half-widths add in quadrature
            for name, xa, xb in [("", ka, kb), *((f"{c}_", ga[c], gb[c]) for c in game.experiment.length_cols)]:
                (ma, ha), (mb, hb) = mean_ci(xa), mean_ci(xb)
                half = math.hypot(ha, hb)
                row.update({f"{name}diff": mb - ma, f"{name}diff_ci_low" if not name else f"{name}diff_low":
                            mb - ma - half, f"{name}diff_ci_high" if not name else f"{name}diff_high": mb - ma + half})
            row.update(paired_games=0, paired_ok=False)
        rows.append(row)
    table = pd.DataFrame(rows)
    ma, mb = run_a.manifest(), run_b.manifest()
    lines = [
        f"# Compare A = {plan_a.name} / {ma.get('run_id')} with B = {plan_b.name} / {mb.get('run_id')}",
        "",
        f"A: seed {plan_a.spec['seed']}, git {ma.get('git_commit')}, monosim {ma['versions'].get('monosim')}. "
        f"B: seed {plan_b.spec['seed']}, git {mb.get('git_commit')}, monosim {mb['versions'].get('monosim')}.",
        "",
        f"{how.capitalize()}. "
        + ("Both runs used the same master seed, so games with the same index are the same deal: "
           "differences are paired over the games both played." if common else
           "The runs used different seeds (or games), so differences are unpaired: the interval "
           "combines the two independent intervals."),
        "",
        "| A cell | B cell | settings (A) | A key win rate | B key win rate | B - A | 95% CI |"
        + "".join(f" {c}: A | B - A (mean) |" for c in plan_a.game.experiment.length_cols),
        "|---:|---:|---|---:|---:|---:|---|" + "---:|---:|" * len(plan_a.game.experiment.length_cols),
    ]
    for r in table.to_dict("records"):
        label = r["label_a"] if r["label_a"] == r["label_b"] else f"{r['label_a']} / B: {r['label_b']}"
        cells = [str(r["cell_a"]), str(r["cell_b"]), label, f"{_pct(r['key_a'])} ({r['games_a']:,})",
                 f"{_pct(r['key_b'])} ({r['games_b']:,})", _signed(r["diff"]),
                 f"{_signed(r['diff_ci_low'])} to {_signed(r['diff_ci_high'])}"]
        for c in plan_a.game.experiment.length_cols:
            cells += [f"{r[f'{c}_a']:.2f}",
                      f"{r[f'{c}_diff']:+.2f} ({r[f'{c}_diff_low']:+.2f} to {r[f'{c}_diff_high']:+.2f})"]
        lines.append("| " + " | ".join(cells) + " |")
    if common:
        lines += ["", "Medians and unfinished games, B - A (paired; a median's interval by a bootstrap of the games):",
                  ""]
        for r in table.to_dict("records"):
            bits = [f"{c} median {r[f'{c}_median_diff']:+.1f} ({r[f'{c}_median_diff_low']:+.1f} to "
                    f"{r[f'{c}_median_diff_high']:+.1f})" for c in plan_a.game.experiment.length_cols]
            if "unfinished_diff" in r:
                bits.append(f"unfinished {_signed(r['unfinished_diff'])} ({_signed(r['unfinished_diff_low'])} to "
                            f"{_signed(r['unfinished_diff_high'])})")
            lines.append(f"- A cell {r['cell_a']} / B cell {r['cell_b']}: " + "; ".join(bits))
    return "\n".join(lines) + "\n", table
