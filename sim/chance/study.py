"""The cash-out study: which stopping rule wins Monopoly Chance games, and where the
turn-optimal rule and the game-winning rule disagree.

Two parts, both under common random numbers (every cell plays the same game seeds):

1. Tournament. A *focal* player uses one stopping rule (stop after n flips, stop when the next
   flip busts with chance above p, stop at Cash v, the turn-optimal rule for each objective,
   the `smart` bot) against a table of opponents: the mixed default table, or a field of
   turn-optimal players; 2, 3 and 4 players. The focal player sits in every seat in turn (games
   are split evenly over the seats), so seat advantage cancels. Every cell reports the focal
   win rate with a Wilson 95% interval, and its paired difference against the turn-optimal
   rule at the same table (same games, same seats) with a 95% interval.

2. Stop/flip map. The focal player plays the turn-optimal (value) rule, except in one
   situation: arm "flip" always flips there, arm "stop" always cashes out (simulate
   force=...). The paired win difference over the games where the situation arose says which
   decision wins games. Situations are cells of a grid: Cash in hand by flips left, flips
   taken, Bankrupts left in the pile, and distance to the finish mark. For the same decisions
   the engine counts how often the turn-optimal rule itself would have flipped, so the two
   maps compare like with like.

3. A position-aware player. `rollout` plays the turn-optimal rule, except at a close call
   (the Cash in hand within `margin` of the rule's threshold), where it plays the rest of the
   game out from the position as it sees it, flipping and cashing out, and overrules the turn
   rule where one choice clearly won more. It sits in every seat in turn against the mixed table, on the same seeds as
   the turn-optimal rule and `smart`, so its gain over each is a paired difference. Its close
   calls are kept (the kernel's "rollout_decisions" detail table) and grouped by kind of
   position: where the rollouts overrule the turn rule, the turn rule is wrong for this game.

``run_study(StudyConfig(...), out)`` writes CSV tables, plots and report.md; the notebook
notebooks/cash_out.ipynb reads them. `monosim chance study` runs it from the command line.
"""

from __future__ import annotations

import dataclasses
import json
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from sim.chance.game import GAME
from sim.core.stats import paired_diff, wilson
from strategies.chance import situation_key

BASELINE = "optimal"
CANDIDATES = (
    "stop_after n=1", "stop_after n=2", "stop_after n=3", "stop_after n=4", "stop_after n=5",
    "bust_threshold p=0.15", "bust_threshold p=0.2", "bust_threshold p=0.25",
    "bust_threshold p=0.3", "bust_threshold p=0.35", "bust_threshold p=0.4", "bust_threshold p=0.45",
    "bust_threshold p=0.5",
    "cash_target v=10", "cash_target v=13", "cash_target v=16", "cash_target v=19", "cash_target v=22",
    "cash_target v=26",
    "optimal", "optimal objective=count", "optimal objective=board", "smart",
)
OPPONENTS = {
    "mixed": ("smart", "bust_threshold p=0.25", "cash_target v=15"),
    "optimal_field": ("optimal", "optimal", "optimal"),
}
CASH_BUCKETS = ((0, 4), (5, 9), (10, 14), (15, 19), (20, 24), (25, 34), (35, 254))
MAPS = {
    # name: (axis, values, fixed fields)
    "flips_left": ("left", (1, 2, 3, 4), dict(lucky=0)),
    "flips_taken": ("taken", (1, 2, 3, 4), dict(lucky=0)),
    "bankrupts_left": ("bankrupt", (1, 2, 3, 4), dict(lucky=0)),
    "finish_distance": ("dist", (0, 1, 2, 3, 4, 5), dict(lucky=0)),
    "lucky_held": ("lucky", (0, 1), dict()),
}
DIST_LABELS = {0: "0-3", 1: "4-7", 2: "8-11", 3: "12-15", 4: "16-19", 5: "20-23"}


@dataclass
class StudyConfig:
    games: int = 24_000  # per tournament cell, split evenly over the focal seat
    map_games: int = 8_000  # per arm of each map cell
    players: tuple[int, ...] = (2, 3, 4)
    map_players: int = 4
    candidates: tuple[str, ...] = CANDIDATES
    opponents: tuple[str, ...] = tuple(OPPONENTS)
    maps: tuple[str, ...] = tuple(MAPS)
    cash_buckets: tuple[tuple[int, int], ...] = CASH_BUCKETS
    rollout_games: int = 12_000  # per player count, for part 3 (0: no part 3)
    rollout_player: str = "rollout"
    seed: int = 2026
    threads: int | None = None

    def describe(self) -> dict:
        return dataclasses.asdict(self)


# ---------------------------------------------------------------------------------------------
# Part 1: tournament


def _lineup(focal: str, opponents: tuple[str, ...], players: int, seat: int) -> list[str]:
    others = list(opponents[: players - 1])
    return others[:seat] + [focal] + others[seat:]


def focal_games(focal: str, opponents, players: int, games: int, seed: int, threads=None, force=None) -> pd.DataFrame:
    """Games with the focal policy in each seat in turn (games // players per seat, seeds
    (seed + seat, g)): columns seat, game, win, flips, busts, turns of the focal player, and
    situations / situations_own_flip when forcing."""
    per = max(1, games // players)
    parts = []
    for seat in range(players):
        f = None if force is None else (seat, force[0], force[1])
        df = GAME.simulate(per, players, _lineup(focal, opponents, players, seat), seed=seed + seat,
                          threads=threads, force=f)
        part = pd.DataFrame({
            "seat": seat, "game": df["game"], "win": df[f"win_{seat}"], "flips": df[f"flips_{seat}"],
            "busts": df[f"busts_{seat}"], "turns": df[f"turns_{seat}"],
        })
        if force is not None:
            part["situations"] = df[f"situations_{seat}"]
            part["own_flip"] = df[f"situations_own_flip_{seat}"]
        parts.append(part)
    return pd.concat(parts, ignore_index=True)


def family(spec: str) -> tuple[str, float | str]:
    words = spec.split()
    if len(words) > 1 and "=" in words[1]:
        k, v = words[1].split("=")
        try:
            return words[0], float(v)
        except ValueError:
            return f"{words[0]} {k}={v}", ""
    return words[0] if words[0] != "optimal" else "optimal objective=value", ""


def run_tournament(cfg: StudyConfig, progress=print) -> pd.DataFrame:
    rows = []
    for players in cfg.players:
        for opp in cfg.opponents:
            opponents = OPPONENTS[opp]
            wins = {}
            stats = {}
            for focal in cfg.candidates:
                df = focal_games(focal, opponents, players, cfg.games, cfg.seed, cfg.threads)
                wins[focal] = df["win"].to_numpy()
                stats[focal] = (df["flips"].sum() / df["turns"].sum(), df["busts"].sum() / df["turns"].sum())
            base = wins.get(BASELINE)
            for focal in cfg.candidates:
                w = wins[focal]
                n = len(w)
                lo, hi = wilson(w.sum(), n)
                fam, param = family(focal)
                row = dict(players=players, opponents=opp, policy=focal, family=fam, param=param, games=n,
                           win_rate=w.mean(), ci_low=float(lo), ci_high=float(hi), fair_share=1 / players,
                           flips_per_turn=stats[focal][0], bust_rate=stats[focal][1])
                if base is not None:
                    d, half = paired_diff(w, base)
                    row.update(diff_vs_optimal=d, diff_low=d - half, diff_high=d + half)
                rows.append(row)
            progress(f"tournament: {players} players vs {opp} done")
    return pd.DataFrame(rows)


# ---------------------------------------------------------------------------------------------
# Part 3: the position-aware player


def run_rollout_player(cfg: StudyConfig, progress=print) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(gains, close calls): the rollout player's paired win-rate difference against the
    turn-optimal rule and `smart` (each in the same seat on the same seeds, against the mixed
    table) for each player count, and every close call it decided (with `players`)."""
    gains, calls = [], []
    opponents = OPPONENTS["mixed"]
    for players in cfg.players:
        per = max(1, cfg.rollout_games // players)
        wins, n_calls = {}, 0
        for focal in (cfg.rollout_player, BASELINE, "smart"):
            w = []
            for seat in range(players):
                lineup = _lineup(focal, opponents, players, seat)
                df, detail = GAME.simulate(per, players, lineup, seed=cfg.seed + seat, threads=cfg.threads,
                                           detail=True)
                w.append(df[f"win_{seat}"].to_numpy())
                if focal == cfg.rollout_player:
                    d = detail["rollout_decisions"]
                    calls.append(d[d["seat"] == seat].assign(players=players))
                    n_calls += len(calls[-1])
            wins[focal] = np.concatenate(w)
        mine = wins[cfg.rollout_player]
        for base in (BASELINE, "smart"):
            d, half = paired_diff(mine, wins[base])
            gains.append(dict(players=players, against=base, games=len(mine), win_rate=mine.mean(),
                              base_win_rate=wins[base].mean(), gain=d, gain_low=d - half, gain_high=d + half,
                              close_calls_per_game=n_calls / len(mine)))
        progress(f"rollout player: {players} players done")
    return pd.DataFrame(gains), (pd.concat(calls, ignore_index=True) if calls else pd.DataFrame())


def kinds_of_close_calls(calls: pd.DataFrame) -> pd.DataFrame:
    """Close calls grouped by the standing of the player (behind, level or ahead of the best
    opponent's skyline) and the point of the round: how often the rollouts overruled the turn
    rule, and in which direction. Sorted by the share overruled."""
    if calls.empty:
        return pd.DataFrame()
    sky, best = calls["skyline"], calls["best_opponent_skyline"]
    c = calls.assign(
        standing=np.select([sky < best, sky == best], ["behind", "level"], "ahead"),
        round_point=np.where(calls["round_ending"] == 1, "the round's last turns", "before them"),
        overruled=calls["flips"] != calls["turn_rule_flips"],
        to_flip=(calls["flips"] == 1) & (calls["turn_rule_flips"] == 0),
        to_stop=(calls["flips"] == 0) & (calls["turn_rule_flips"] == 1),
        margin=(calls["won_flip_minus_stop"].abs() / calls["rollouts"]),
    )
    g = c.groupby(["standing", "round_point"]).agg(
        calls=("overruled", "size"), overruled=("overruled", "mean"), to_flip=("to_flip", "mean"),
        to_stop=("to_stop", "mean"), mean_cash=("cash", "mean"), mean_margin=("margin", "mean"))
    g["share_of_calls"] = g["calls"] / len(c)
    return g.reset_index().sort_values("overruled", ascending=False, ignore_index=True)


# ---------------------------------------------------------------------------------------------
# Part 2: stop/flip maps


def run_maps(cfg: StudyConfig, progress=print) -> pd.DataFrame:
    rows = []
    opponents = OPPONENTS["mixed"]
    for name in cfg.maps:
        axis, values, fixed = MAPS[name]
        for value in values:
            for lo, hi in cfg.cash_buckets:
                key = situation_key(cash_lo=lo, cash_hi=hi, **{axis: value}, **fixed)
                arms = {a: focal_games(BASELINE, opponents, cfg.map_players, cfg.map_games, cfg.seed,
                                       cfg.threads, force=(a, key)) for a in ("flip", "stop")}
                hit = (arms["flip"]["situations"] > 0).to_numpy()
                n = int(hit.sum())
                row = dict(map=name, axis=axis, value=value, cash_lo=lo, cash_hi=hi,
                           cash=f"{lo}-{hi}" if hi < 254 else f"{lo}+", games=len(hit), games_with=n,
                           decisions=int(arms["stop"]["situations"].sum()),
                           dp_flip_share=float(arms["stop"]["own_flip"].sum() / max(1, arms["stop"]["situations"].sum())))
                if n >= 2:
                    wf = arms["flip"]["win"].to_numpy()[hit]
                    ws = arms["stop"]["win"].to_numpy()[hit]
                    d, half = paired_diff(wf, ws)
                    row.update(win_flip=wf.mean(), win_stop=ws.mean(), diff=d, diff_low=d - half, diff_high=d + half)
                rows.append(row)
        progress(f"map {name} done")
    return classify(pd.DataFrame(rows))


MIN_GAMES_FOR_VERDICT = 200  # a map cell met in fewer games gives no verdict (intervals too rough)


def classify(df: pd.DataFrame) -> pd.DataFrame:
    """Verdicts per map cell: what the games say (flip / stop when the 95% interval of the
    paired difference excludes 0, else either; none below MIN_GAMES_FOR_VERDICT games), what the
    turn-optimal rule does in most of those decisions, and whether the two disagree."""
    if "diff" not in df:
        return df
    df = df.copy()
    for arm in ("flip", "stop"):  # Wilson intervals of each arm's win rate over the games with the situation
        n = df["games_with"].clip(lower=1)
        lo, hi = wilson(df[f"win_{arm}"].fillna(0) * n, n)
        df[f"win_{arm}_low"], df[f"win_{arm}_high"] = lo, hi
    enough = df["games_with"] >= MIN_GAMES_FOR_VERDICT
    df["game_says"] = np.where(~enough, "", np.where(df["diff_low"] > 0, "flip",
                                                       np.where(df["diff_high"] < 0, "stop", "either")))
    df["turn_says"] = np.where(df["dp_flip_share"] >= 0.5, "flip", "stop")
    df.loc[df["decisions"] == 0, "turn_says"] = ""
    df["disagree"] = ((df["game_says"] == "flip") & (df["turn_says"] == "stop")) | (
        (df["game_says"] == "stop") & (df["turn_says"] == "flip"))
    return df


# ---------------------------------------------------------------------------------------------
# Report and plots


def _pct(x):
    return f"{x * 100:.1f}%"


def _pts(d, lo, hi):
    return f"{d * 100:+.1f} ({lo * 100:+.1f} to {hi * 100:+.1f})"


def plot_thresholds(t: pd.DataFrame, path) -> None:
    from sim.core.summary import figure

    fams = [("stop_after", "stop after n flips"), ("bust_threshold", "stop when P(next flip busts) > p"),
            ("cash_target", "stop at Cash v")]
    opps = list(dict.fromkeys(t["opponents"]))
    fig = figure(figsize=(14, 3.8 * len(opps)))
    axes = fig.subplots(len(opps), 3, squeeze=False)
    colours = {2: "#1b9e77", 3: "#d95f02", 4: "#7570b3"}
    for i, opp in enumerate(opps):
        for j, (fam, title) in enumerate(fams):
            ax = axes[i][j]
            for players, g in t[(t["opponents"] == opp) & (t["family"] == fam)].groupby("players"):
                g = g.sort_values("param")
                err = np.vstack([g["win_rate"] - g["ci_low"], g["ci_high"] - g["win_rate"]])
                ax.errorbar(g["param"], g["win_rate"], yerr=err, marker="o", capsize=3, color=colours.get(players),
                            label=f"{players} players")
                opt = t[(t["opponents"] == opp) & (t["players"] == players) & (t["policy"] == BASELINE)]
                if len(opt):
                    r = opt.iloc[0]
                    ax.axhspan(r["ci_low"], r["ci_high"], color=colours.get(players), alpha=0.15)
                    ax.axhline(r["win_rate"], color=colours.get(players), ls="--", lw=1)
            ax.set_title(f"{title}\nvs {opp.replace('_', ' ')} (dashed: turn-optimal)", fontsize=9)
            ax.set_ylabel("focal win rate (95% CI)")
            ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(path, dpi=110)


def plot_map(m: pd.DataFrame, name: str, path) -> None:
    from sim.core.summary import figure

    g = m[m["map"] == name]
    if g.empty or "diff" not in g:
        return
    axis = g["axis"].iloc[0]
    values = list(dict.fromkeys(g["value"]))
    cashes = list(dict.fromkeys(g["cash"]))
    diff = np.full((len(values), len(cashes)), np.nan)
    dp = np.full_like(diff, np.nan)
    sig = np.zeros_like(diff, dtype=object)
    for r in g.itertuples():
        i, j = values.index(r.value), cashes.index(r.cash)
        if r.games_with >= MIN_GAMES_FOR_VERDICT and not pd.isna(r.diff):
            diff[i, j] = r.diff * 100
            sig[i, j] = "*" if (r.diff_low > 0 or r.diff_high < 0) else ""
        if r.decisions > 0:
            dp[i, j] = r.dp_flip_share * 100
    labels = [DIST_LABELS.get(v, v) if axis == "dist" else v for v in values]
    fig = figure(figsize=(13, 1.2 + 0.7 * len(values) + 1.5))
    axes = fig.subplots(1, 2)
    lim = np.nanmax(np.abs(diff)) if np.isfinite(diff).any() else 1
    im = axes[0].imshow(diff, cmap="RdBu", vmin=-lim, vmax=lim, aspect="auto")
    for i in range(len(values)):
        for j in range(len(cashes)):
            if np.isfinite(diff[i, j]):
                axes[0].text(j, i, f"{diff[i, j]:+.1f}{sig[i, j]}", ha="center", va="center", fontsize=8)
    axes[0].set_title("games: win-rate points, always flip - always cash out\n(blue: flip wins; * = 95% CI excludes 0; blank: < 200 games)",
                      fontsize=9)
    fig.colorbar(im, ax=axes[0])
    im2 = axes[1].imshow(dp, cmap="PuOr", vmin=0, vmax=100, aspect="auto")
    for i in range(len(values)):
        for j in range(len(cashes)):
            if np.isfinite(dp[i, j]):
                axes[1].text(j, i, f"{dp[i, j]:.0f}%", ha="center", va="center", fontsize=8)
    axes[1].set_title("turn-optimal rule (total Cash): share of these decisions where it flips", fontsize=9)
    fig.colorbar(im2, ax=axes[1])
    ylab = {"left": "flips left", "taken": "flips taken", "bankrupt": "Bankrupts left in pile",
            "dist": "skyline short of finish", "lucky": "Lucky Breaks held"}[axis]
    for ax in axes:
        ax.set_xticks(range(len(cashes)), cashes)
        ax.set_yticks(range(len(values)), labels)
        ax.set_xlabel("Cash in hand this turn")
        ax.set_ylabel(ylab)
    fig.tight_layout()
    fig.savefig(path, dpi=110)


def _headlines(t: pd.DataFrame, m: pd.DataFrame) -> list[str]:
    """Computed headline findings: the best rule at each table, the best rule of each fixed
    family against the turn-optimal rule, and the cells where games and turn disagree."""
    L = ["## Headlines", ""]
    for (players, opp), g in t.groupby(["players", "opponents"], sort=True):
        g = g.sort_values("win_rate", ascending=False)
        best = g.iloc[0]
        parts = []
        for fam in ("stop_after", "bust_threshold", "cash_target"):
            f = g[g["family"] == fam]
            if len(f) and "diff_vs_optimal" in f:
                r = f.iloc[0]
                parts.append(f"{r['policy']} {_pts(r['diff_vs_optimal'], r['diff_low'], r['diff_high'])}")
        vs = ""
        if best["policy"] != BASELINE and "diff_vs_optimal" in best and not pd.isna(best["diff_vs_optimal"]):
            vs = f", {_pts(best['diff_vs_optimal'], best['diff_low'], best['diff_high'])} points against the turn-optimal rule"
        L.append(f"- {players} players vs {opp.replace('_', ' ')}: best **{best['policy']}** {_pct(best['win_rate'])} "
                 f"({_pct(best['ci_low'])} - {_pct(best['ci_high'])}{vs}); best fixed rules against the turn-optimal rule "
                 f"(points): {'; '.join(parts)}.")
    if not m.empty and "disagree" in m:
        dis = m[m["disagree"] == True]  # noqa: E712
        judged = m[m["game_says"].isin(["flip", "stop", "either"])]
        L.append(f"- Stop/flip maps: {len(judged)} cells with at least {MIN_GAMES_FOR_VERDICT} games; games and the "
                 f"turn-optimal rule disagree in {len(dis)} "
                 f"(games say flip where the turn rule mostly cashes out: {int((dis['game_says'] == 'flip').sum())}; "
                 f"the reverse: {int((dis['game_says'] == 'stop').sum())}). With this many cells, about 5% of "
                 f"intervals exclude 0 by chance alone.")
    L.append("")
    return L


def _rollout_section(gains: pd.DataFrame, kinds: pd.DataFrame, cfg: dict) -> list[str]:
    if gains.empty:
        return []
    L = ["## 3. A position-aware player: does looking at the whole game pay?", "",
         f"`{cfg['rollout_player']}` plays the turn-optimal rule except at close calls (the Cash in hand within "
         "`margin` of the rule's threshold), where it plays the rest of the game out from the position as it "
         "sees it (unseen cards dealt afresh), once flipping and once cashing out, `rollouts` times each, and "
         "overrules the turn rule where the rollouts' difference is at least `z` standard errors from 0. "
         f"{cfg['rollout_games']:,} games per player count, the player in each seat in turn against the mixed "
         "table; the turn-optimal rule and `smart` play the same seeds in the same seats, so each gain is a "
         "paired difference (95% interval).", "",
         "| players | against | rollout player | the other | gain (points, 95% CI) | close calls per game |",
         "|---:|---|---:|---:|---|---:|"]
    for r in gains.itertuples():
        L.append(f"| {r.players} | {r.against} | {_pct(r.win_rate)} | {_pct(r.base_win_rate)} | "
                 f"{_pts(r.gain, r.gain_low, r.gain_high)} | {r.close_calls_per_game:.1f} |")
    L.append("")
    if not kinds.empty:
        L += ["### Where the turn rule is most wrong", "",
              "The rollout player's close calls, by its standing against the best opponent and the point of the "
              "round; 'overruled' is the share where the rollouts chose against the turn rule (to flip where "
              "it cashes out, or to cash out where it flips); the margin is the rollouts' win difference "
              "between the two choices, as a share of the rollouts.", "",
              "| standing | round | close calls (share) | overruled | to flip | to cash out | mean Cash in hand "
              "| mean margin |", "|---|---|---:|---:|---:|---:|---:|---:|"]
        for r in kinds.itertuples():
            L.append(f"| {r.standing} | {r.round_point} | {r.calls:,} ({_pct(r.share_of_calls)}) | "
                     f"{_pct(r.overruled)} | {_pct(r.to_flip)} | {_pct(r.to_stop)} | {r.mean_cash:.1f} | "
                     f"{_pct(r.mean_margin)} |")
        L.append("")
    return L


def render_report(t: pd.DataFrame, m: pd.DataFrame, cfg: dict, seconds: float,
                  gains: pd.DataFrame | None = None, kinds: pd.DataFrame | None = None) -> str:
    L = ["# When should I cash out? Monopoly Chance stopping rules in full games", ""]
    L.append(f"Seed {cfg['seed']}; {cfg['games']:,} games per tournament cell (the focal player in each seat in turn); "
             f"{cfg['map_games']:,} games per arm of each map cell ({cfg['map_players']} players). "
             f"Common random numbers throughout; every interval is 95%. Run time {seconds / 60:.1f} min.")
    L += ["", "Reproduce: `monosim chance study --out results/cash_out` (or `monosim run experiments/cash_out.toml` "
          "for the tournament part with the experiment runner).", ""]
    L += _headlines(t, m)
    L += ["## 1. Which rule wins", ""]
    for (players, opp), g in t.groupby(["players", "opponents"], sort=True):
        g = g.sort_values("win_rate", ascending=False)
        best = g.iloc[0]
        L.append(f"### {players} players, opponents: {opp.replace('_', ' ')} ({', '.join(OPPONENTS[opp][: players - 1])})")
        L += ["", f"Best: **{best['policy']}** {_pct(best['win_rate'])} ({_pct(best['ci_low'])} - {_pct(best['ci_high'])}); "
              f"fair share {_pct(1 / players)}.", ""]
        L += ["| policy | win rate | 95% CI | vs turn-optimal (points, 95% CI) | flips/turn | bust rate |",
              "|---|---:|---|---|---:|---:|"]
        for r in g.itertuples():
            diff = _pts(r.diff_vs_optimal, r.diff_low, r.diff_high) if hasattr(r, "diff_vs_optimal") and not pd.isna(r.diff_vs_optimal) else ""
            L.append(f"| {r.policy} | {_pct(r.win_rate)} | {_pct(r.ci_low)} - {_pct(r.ci_high)} | {diff} "
                     f"| {r.flips_per_turn:.2f} | {_pct(r.bust_rate)} |")
        L.append("")
    L += ["![win rate by threshold](win_rate_by_threshold.png)", ""]
    if not m.empty and "diff" in m:
        L += ["## 2. The stop/flip map: which decision wins games, situation by situation", "",
              "Each cell forces the focal player (turn-optimal rule otherwise, 4 players, mixed opponents) to flip, "
              "or to cash out, whenever the situation arises; the number is the paired win-rate difference "
              "(flip - cash out) over the games where it arose. The right panel shows how often the turn-optimal "
              "rule itself flips in those same decisions.", ""]
        for name in dict.fromkeys(m["map"]):
            L += [f"![stop/flip map by {name}](stop_flip_map_{name}.png)", ""]
        dis = m[m.get("disagree", False) == True]  # noqa: E712
        L += ["### Where the turn-optimal rule and the game-winning rule disagree", ""]
        if dis.empty:
            L += ["In no cell does the game-level evidence (95% interval excluding 0) contradict the turn-optimal decision.", ""]
        else:
            L += ["| map | value | Cash in hand | decisions | turn-optimal flips | games say | flip - stop (points, 95% CI) |",
                  "|---|---|---|---:|---:|---|---|"]
            for r in dis.itertuples():
                v = DIST_LABELS.get(r.value, r.value) if r.axis == "dist" else r.value
                L.append(f"| {r.map} | {v} | {r.cash} | {r.decisions:,} | {_pct(r.dp_flip_share)} | {r.game_says} "
                         f"| {_pts(r.diff, r.diff_low, r.diff_high)} |")
            L.append("")
        L += ["### All map cells", "",
              "| map | value | Cash | games with it | always flip: win rate (95% CI) | always cash out: win rate (95% CI) "
              "| flip - cash out (points, 95% CI) | turn-optimal flips |",
              "|---|---|---|---:|---|---|---|---:|"]
        for r in m.itertuples():
            if pd.isna(getattr(r, "diff", np.nan)):
                continue
            v = DIST_LABELS.get(r.value, r.value) if r.axis == "dist" else r.value
            L.append(f"| {r.map} | {v} | {r.cash} | {r.games_with:,} "
                     f"| {_pct(r.win_flip)} ({_pct(r.win_flip_low)} - {_pct(r.win_flip_high)}) "
                     f"| {_pct(r.win_stop)} ({_pct(r.win_stop_low)} - {_pct(r.win_stop_high)}) "
                     f"| {_pts(r.diff, r.diff_low, r.diff_high)} | {_pct(r.dp_flip_share)} |")
        L.append("")
    if gains is not None:
        L += _rollout_section(gains, kinds if kinds is not None else pd.DataFrame(), cfg)
    return "\n".join(L) + "\n"


def run_study(cfg: StudyConfig, out, progress=print) -> dict:
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    t0 = time.time()
    t = run_tournament(cfg, progress)
    m = run_maps(cfg, progress) if cfg.maps else pd.DataFrame()
    gains, calls = run_rollout_player(cfg, progress) if cfg.rollout_games else (pd.DataFrame(), pd.DataFrame())
    kinds = kinds_of_close_calls(calls)
    seconds = time.time() - t0
    t.to_csv(out / "tournament.csv", index=False)
    m.to_csv(out / "stop_flip_map.csv", index=False)
    if cfg.rollout_games:
        gains.to_csv(out / "rollout_player.csv", index=False)
        kinds.to_csv(out / "rollout_close_calls.csv", index=False)
    t = t.assign(param=pd.to_numeric(t["param"], errors="coerce"))
    plot_thresholds(t, out / "win_rate_by_threshold.png")
    for name in cfg.maps:
        plot_map(m, name, out / f"stop_flip_map_{name}.png")
    (out / "report.md").write_text(render_report(t, m, cfg.describe(), seconds, gains, kinds))
    from sim.core import results

    (out / "manifest.json").write_text(json.dumps(results.manifest(study="cash_out", config=cfg.describe(),
                                                                   seconds=seconds), indent=2, default=str))
    return {"tournament": t, "map": m, "rollout_player": gains, "close_calls": calls, "seconds": seconds}


def rerender(out) -> None:
    """Rebuild report.md and the plots of a finished study from its CSV tables."""
    out = Path(out)
    t = pd.read_csv(out / "tournament.csv")
    t["param"] = pd.to_numeric(t["param"], errors="coerce")
    m = pd.read_csv(out / "stop_flip_map.csv") if (out / "stop_flip_map.csv").stat().st_size > 1 else pd.DataFrame()
    m = classify(m)
    m.to_csv(out / "stop_flip_map.csv", index=False)
    manifest = json.loads((out / "manifest.json").read_text())
    cfg = manifest["config"]
    plot_thresholds(t, out / "win_rate_by_threshold.png")
    for name in cfg["maps"]:
        plot_map(m, name, out / f"stop_flip_map_{name}.png")
    gains = pd.read_csv(out / "rollout_player.csv") if (out / "rollout_player.csv").exists() else None
    kinds = pd.read_csv(out / "rollout_close_calls.csv") if gains is not None else None
    (out / "report.md").write_text(render_report(t, m, cfg, manifest["seconds"], gains, kinds))
