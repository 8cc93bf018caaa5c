"""Classic Monopoly from Python: summaries, the report, and the analyses (property values,
house-rule effects, win odds from a position). Playing goes through the registry:
sim.core.game.simulate("classic", ...)."""

from __future__ import annotations

import functools

import numpy as np
import pandas as pd

from sim.classic import layout as L
from sim.classic.rules import GROUP_NAMES, ClassicRules
from sim.core import summary as core
from sim.core.stats import wilson

LENGTH_COLS = ("rounds", "turns")
DEFAULT_TABLE = ("strong", "trader", "three_houses", "buy_all", "jail_stayer", "trader", "three_houses", "buy_all")


def landing_weights(rules: ClassicRules) -> np.ndarray:
    """Long-run landing frequency of each square (exact chain, leaving jail at once): the
    table the strong bot reads (``pt``). Cached on the rules the chain depends on."""
    return _landing_weights(rules.board, rules.chance, rules.chest, rules.jail_turns, rules.house.speeding)


@functools.lru_cache(maxsize=16)
def _landing_weights(board, chance, chest, jail_turns, speeding) -> np.ndarray:
    from sim.classic.landing import exact_frequencies

    rules = ClassicRules(board=board, chance=chance, chest=chest, jail_turns=jail_turns).replace(speeding=speeding)
    return exact_frequencies(rules, "short")


def derived(games: pd.DataFrame) -> dict[str, pd.Series]:
    """The 0/1 columns the summary counts beyond the table's own."""
    survived = {f"survived_{s}": games[f"out_turn_{s}"] == 0 for s in range(games.attrs["players"])}
    return {"shared_win": games["winner"] < 0, "with_trades": games["trades"] > 0,
            "with_shortage_auction": games["shortage_auctions"] > 0, **survived}


def summarize(t: core.Tally) -> dict[str, pd.DataFrame]:
    """Win rates with 95% intervals by seat and by policy, game length, and flags."""
    by_seat = core.win_rate_by_seat(
        t, ("survived", "net_worth", "rent_received", "bought", "houses_built", "trades", "jail_turns"))
    lo, hi = wilson(t.sums["hit_turn_limit"], t.n)
    flags = pd.DataFrame(
        {"share": [t.mean("hit_turn_limit"), t.mean("shared_win"), t.mean("with_trades"),
                   t.mean("with_shortage_auction")],
         "ci_low": [lo, np.nan, np.nan, np.nan], "ci_high": [hi, np.nan, np.nan, np.nan]},
        index=["hit_turn_limit", "shared_wins", "games_with_trades", "games_with_shortage_auction"],
    )
    per_game = pd.Series({c: t.mean(c) for c in ("auctions", "trades", "shortage_auctions", "bankruptcies")})
    return {"by_seat": by_seat, "by_policy": core.win_rate_by_policy(t), "length": core.length_stats(t, LENGTH_COLS),
            "flags": flags, "per_game": per_game}


def render_report(t: core.Tally, s: dict) -> str:
    """A readable plain-text (Markdown-compatible) report of a simulation."""
    a = t.attrs
    max_rounds = a.get("rules", {}).get("max_rounds", "?")
    lines = [
        f"# Classic Monopoly: {t.n:,} games, {a.get('players')} players, seed {a.get('seed')}",
        *core.rules_lines(t),
        "",
        "## Win rate by seat (95% interval)",
        "",
        "| seat | policy | win rate | 95% CI | survived | net worth | rent received | deeds bought | houses built | trades | jail turns |",
        "|---:|---|---:|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in s["by_seat"].itertuples():
        lines.append(
            f"| {r.seat} | {r.policy} | {r.win_rate:.1%} | {r.ci_low:.1%} - {r.ci_high:.1%} | {r.survived:.1%} "
            f"| {r.net_worth:,.0f} | {r.rent_received:,.0f} | {r.bought:.1f} | {r.houses_built:.1f} "
            f"| {r.trades:.2f} | {r.jail_turns:.1f} |"
        )
    lines += core.policy_and_length_lines(s)
    f = s["flags"]
    m = s["per_game"]
    lines += [
        "",
        f"Games stopped at the turn limit ({max_rounds} rounds; winner by net worth): "
        f"{f.loc['hit_turn_limit', 'share']:.2%} (95% CI {f.loc['hit_turn_limit', 'ci_low']:.2%} - "
        f"{f.loc['hit_turn_limit', 'ci_high']:.2%}); shared wins: {f.loc['shared_wins', 'share']:.2%}.",
        f"Per game: {m['auctions']:.2f} auctions, {m['trades']:.2f} trades, {m['shortage_auctions']:.2f} "
        f"building-shortage auctions, {m['bankruptcies']:.2f} bankruptcies; games with a trade: "
        f"{f.loc['games_with_trades', 'share']:.1%}.",
    ]
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------------------------------------
# Property values


def property_values(games: pd.DataFrame, g: np.ndarray) -> pd.DataFrame:
    """For each colour group and the railroad and utility sets, from a ``detail=True`` run's
    games and its "groups" detail (game, seat, group, stat):
    win rate of a seat that held the whole set while every player was still in (before the
    first bankruptcy, so sets collected from bankrupt players do not count) vs one that did
    not (with 95% intervals), the rent the set earned its holders per game, and the payback
    time (money put into the set divided by its rent per turn held). Most valuable first (by the
    win rate of a seat that held it)."""
    n, players = g.shape[:2]
    wins = np.stack([games[f"win_{s}"].to_numpy() for s in range(players)], axis=1)
    out = np.stack([games[f"out_turn_{s}"].to_numpy() for s in range(players)], axis=1)
    first_out = np.where(out > 0, out, np.iinfo(np.int64).max).min(axis=1, keepdims=True)
    rows = []
    for k, name in enumerate(GROUP_NAMES):
        first_full = g[:, :, k, 2]  # turn + 1, 0 never
        held = (first_full > 0) & (first_full < first_out)
        rent = g[:, :, k, 0]
        invested = g[:, :, k, 1]
        full_turns = g[:, :, k, 3]
        n_held = int(held.sum())
        w_held = wins[held].sum()
        w_not = wins[~held].sum()
        lo, hi = wilson(w_held, max(n_held, 1))
        lo2, hi2 = wilson(w_not, max((~held).sum(), 1))
        rent_per_turn = rent[held].sum() / max(full_turns[held].sum(), 1)
        rows.append({
            "set": name,
            "players": players,
            "share_of_games_held": float(held.any(axis=1).mean()),
            "win_rate_if_held": w_held / max(n_held, 1),
            "ci_low": float(lo), "ci_high": float(hi),
            "win_rate_if_not": w_not / max((~held).sum(), 1),
            "ci_low_not": float(lo2), "ci_high_not": float(hi2),
            "rent_per_game": float(rent.sum() / n),
            "rent_per_turn_held": float(rent_per_turn),
            "invested_when_held": float(invested[held].mean()) if n_held else float("nan"),
            "payback_turns": float(invested[held].mean() / rent_per_turn) if n_held and rent_per_turn > 0 else float("nan"),
        })
    return pd.DataFrame(rows).sort_values("win_rate_if_held", ascending=False, kind="stable", ignore_index=True)


def render_property_values(tables_by_players: dict[int, pd.DataFrame]) -> str:
    lines = ["# Property value report", "",
             "Win rate of a seat that held the whole set while every player was still in vs one that did not; rent the set earned "
             "per game; payback = money put into the set (deeds and buildings) / its rent per turn held (the "
             "holder's turns).", ""]
    for players, t in sorted(tables_by_players.items()):
        lines += [f"## {players} players", "",
                  "| set | games held | win if held | 95% CI | win if not | rent/game | rent/turn held | invested | payback (turns) |",
                  "|---|---:|---:|---|---:|---:|---:|---:|---:|"]
        for r in t.itertuples():
            lines.append(
                f"| {r.set} | {r.share_of_games_held:.1%} | {r.win_rate_if_held:.1%} | {r.ci_low:.1%} - {r.ci_high:.1%} "
                f"| {r.win_rate_if_not:.1%} | {r.rent_per_game:,.0f} | {r.rent_per_turn_held:,.1f} "
                f"| {r.invested_when_held:,.0f} | {r.payback_turns:,.1f} |"
            )
        lines.append("")
    return "\n".join(lines)


# ---------------------------------------------------------------------------------------------
# Win odds from a position


def position_odds(games: pd.DataFrame, pos) -> pd.DataFrame:
    """Each player's share of wins from a position, with 95% Wilson intervals."""
    n = len(games)
    rows = []
    for s in range(pos.players):
        w = games[f"win_{s}"].to_numpy()
        lo, hi = wilson(w.sum(), n)
        rows.append({
            "seat": s,
            "policy": pos.policies[s],
            "bankrupt_already": bool(pos.S0[L.ALIVE + s] == 0),
            "cash": int(pos.S0[L.CASH + s]),
            "win_chance": float(w.mean()),
            "ci_low": 0.0 if w.sum() == 0 else float(lo),
            "ci_high": 1.0 if w.sum() == n else (0.0 if pos.S0[L.ALIVE + s] == 0 else float(hi)),
            "survives": float((games[f"out_turn_{s}"] == 0).mean()) if pos.S0[L.ALIVE + s] else 0.0,
        })
    return pd.DataFrame(rows)


def render_position(t: pd.DataFrame, games: pd.DataFrame, path) -> str:
    lines = [f"# Win chances from {path}: {len(games):,} playouts, seed {games.attrs.get('seed')}", "",
             "| seat | policy | cash | win chance | 95% CI | survives |", "|---:|---|---:|---:|---|---:|"]
    for r in t.itertuples():
        if r.bankrupt_already:
            lines.append(f"| {r.seat} | {r.policy} | - | bankrupt | | |")
            continue
        lines.append(f"| {r.seat} | {r.policy} | {r.cash:,} | {r.win_chance:.1%} | {r.ci_low:.1%} - {r.ci_high:.1%} "
                     f"| {r.survives:.1%} |")
    capped = games["hit_turn_limit"].mean()
    lines += ["", f"Turns to the end: mean {games['turns'].mean():.0f}, median {games['turns'].median():.0f}; "
              f"playouts stopped at the turn limit (winner by net worth): {capped:.2%}."]
    return "\n".join(lines) + "\n"
