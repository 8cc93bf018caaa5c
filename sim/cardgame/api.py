"""Monopoly: The Card Game from Python: summaries, the report, and the game's own analyses
(card values and the Chance card's risk, seat advantage by player count, the effect of each
edition difference and house rule). Playing goes through the registry:
sim.core.game.simulate("cardgame", ...)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from sim.cardgame.layout import SEAT_COLS
from sim.cardgame.rules import CardGameRules, kind_of
from sim.core import summary as core

DEFAULT_TABLE = ("smart", "trader", "cautious", "greedy", "random", "smart")
LENGTH_COLS = ("hands", "turns")
MONEY_COLS = ("group_money", "impr_money", "bonus_money", "doubled_money", "jackpot_money")


def summarize(t: core.Tally) -> dict[str, pd.DataFrame]:
    """Win rates with 95% intervals by seat and by policy, match length, how matches ended, and
    where each seat's money came from."""
    by_seat = core.win_rate_by_seat(t, means=("money", "outs", "zeroed", "jackpots", "trades", "draws"))
    ended = pd.DataFrame(
        {"share": [t.mean("tie"), t.mean("hit_hand_limit"), t.sums["stalled_hands"] / max(t.sums["hands"], 1)]},
        index=["tie", "hit_hand_limit", "stalled_hand_share"],
    )
    return {"by_seat": by_seat, "by_policy": core.win_rate_by_policy(t), "length": core.length_stats(t, LENGTH_COLS),
            "ended": ended, "money": core.seat_means(t, MONEY_COLS + ("zero_lost",))}


def render_report(t: core.Tally, s: dict[str, pd.DataFrame]) -> str:
    """A readable plain-text (Markdown-compatible) report of a simulation."""
    a = t.attrs
    lines = [
        (f"# Monopoly: The Card Game ({a.get('edition')} edition): {t.n:,} matches, {a.get('players')} players, "
        f"seed {a.get('seed')}"),
        *core.rules_lines(t),
        "",
        "## Win rate by seat (95% interval)",
        "",
        "| seat | policy | win rate | 95% CI | money | hands out | zeroed by a Chance | jackpots | trades | draws |",
        "|---:|---|---:|---|---:|---:|---:|---:|---:|---:|",
    ]
    for r in s["by_seat"].itertuples():
        lines.append(
            f"| {r.seat} | {r.policy} | {r.win_rate:.1%} | {r.ci_low:.1%} - {r.ci_high:.1%} | {r.money:,.0f} "
            f"| {r.outs:.2f} | {r.zeroed:.2f} | {r.jackpots:.2f} | {r.trades:.1f} | {r.draws:.1f} |"
        )
    lines += core.policy_and_length_lines(s, "Match length")
    e = s["ended"]["share"]
    lines += [
        "",
        (f"Ties for the most money: {e['tie']:.2%}; matches stopped at max_hands: {e['hit_hand_limit']:.2%}; "
        f"hands nobody went out of: {e['stalled_hand_share']:.2%}."),
        "",
        "## Where the money came from (per match)",
        "",
        "| seat | policy | groups | improvements | bonus cards | doubling | jackpot | lost to a Chance |",
        "|---:|---|---:|---:|---:|---:|---:|---:|",
    ]
    for r in s["money"].itertuples(index=False):
        lines.append(
            f"| {r.seat} | {r.policy} | {r.group_money:,.0f} | {r.impr_money:,.0f} | {r.bonus_money:,.0f} "
            f"| {r.doubled_money:,.0f} | {r.jackpot_money:,.0f} | {r.zero_lost:,.0f} |"
        )
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------------------------------------
# Card values


def kind_values(games: pd.DataFrame, kinds: pd.DataFrame) -> pd.DataFrame:
    """Per card kind, over every scored hand: how often whoever went out held it and their mean
    score then, the same for the other seats, against the mean score of all such hands. Kinds
    absent from the deck are left out."""
    n_hands = kinds.attrs["hands"]
    players = kinds.attrs["players"]
    rows = []
    deck = games.attrs["rules"]["deck"]
    present = {kind_of(name) for name, c in deck.items() if c > 0}
    for k, r in kinds.iterrows():
        if k not in present:
            continue
        name = r["kind"]
        if name == "house1" and not games.attrs["rules"]["house"]["houses_numbered"]:
            name = "house"
        rows.append({
            "kind": name,
            "goer_holds": r["goer_held"] / max(n_hands, 1),
            "goer_score_if_held": r["goer_score"] / r["goer_held"] if r["goer_held"] else float("nan"),
            "other_holds": r["other_held"] / max(n_hands * (players - 1), 1),
            "other_score_if_held": r["other_score"] / r["other_held"] if r["other_held"] else float("nan"),
        })
    # Most valuable first: by the score of the hand that went out holding it (none held: last).
    return pd.DataFrame(rows).sort_values("goer_score_if_held", ascending=False, kind="stable", na_position="last",
                                          ignore_index=True)


def chance_risk(games: pd.DataFrame) -> dict[str, float]:
    """The Chance card's risk and reward, per seat-hand: how often a hand ended holding one,
    how often that hand went out (the reward) or was zeroed (the risk), and the money lost."""
    seats = core.seat_table(games, SEAT_COLS)
    held = float(seats["held_wild_end"].sum())
    outs = float(seats["outs"].sum())
    return {
        "hands_ended_holding": held,
        "went_out_holding": float(seats["wild_outs"].sum()),
        "zeroed": float(seats["zeroed"].sum()),
        "share_out_when_held": float(seats["wild_outs"].sum()) / held if held else float("nan"),
        "share_zeroed_when_held": float(seats["zeroed"].sum()) / held if held else float("nan"),
        "share_of_outs_holding": float(seats["wild_outs"].sum()) / outs if outs else float("nan"),
        "money_lost_per_zeroed_hand": float(seats["zero_lost"].sum()) / max(float(seats["zeroed"].sum()), 1.0),
        "wilds_dropped_per_match": float(seats["wilds_dropped"].sum()) / len(games),
    }


def card_values(games: int, players: int, seats, rules, seed, threads, progress=False) -> dict:
    """Card-value report data: per-kind holding table, the Chance card's risk and reward, and
    the mean score of a hand that went out and of one that did not."""
    from sim.cardgame.game import GAME

    df, detail = GAME.simulate(games, players, seats, rules, seed, threads, progress=progress, detail=True)
    hands, kinds = detail["hands"], detail["kinds"]
    scored = hands[hands["went_out"] >= 0]
    scores = np.stack([scored[f"score_{s}"].to_numpy() for s in range(players)], axis=1)
    goer = scores[np.arange(len(scored)), scored["went_out"].to_numpy()]
    total = scores.sum()
    n = len(scored)
    return {
        "kinds": kind_values(df, kinds),
        "chance": chance_risk(df),
        "mean_goer_score": float(goer.mean()) if n else float("nan"),
        "mean_other_score": float((total - goer.sum()) / max(n * (players - 1), 1)),
        "hands": n,
        "games": len(df),
        "players": players,
        "edition": df.attrs["edition"],
    }


def render_card_values(v: dict) -> str:
    c = v["chance"]
    lines = [
        f"# Card values: {v['edition']} edition, {v['games']:,} matches ({v['hands']:,} scored hands), {v['players']} players",
        "",
        f"Mean score of the hand that went out: {v['mean_goer_score']:,.0f}; of the other hands: {v['mean_other_score']:,.0f}.",
        "",
        "Per card kind, over scored hands: how often the player who went out held at least one, and their",
        "mean score then; the same for the other seats (per seat-hand). These are associations, not causes:",
        "a kind that is held by strong hands looks valuable. For what one more copy of a card is worth to a",
        "seat, run `monosim run experiments/cardgame-card_values.toml`.",
        "",
        "| kind | out: held | out: score if held | others: held | others: score if held |",
        "|---|---:|---:|---:|---:|",
    ]
    for r in v["kinds"].itertuples():
        lines.append(f"| {r.kind} | {r.goer_holds:.1%} | {r.goer_score_if_held:,.0f} | {r.other_holds:.1%} "
                     f"| {r.other_score_if_held:,.0f} |")
    lines += [
        "",
        "## The Chance card: risk and reward",
        "",
        (f"Seat-hands that ended holding a Chance: {c['hands_ended_holding']:,.0f}; of those, went out (the reward): "
        f"{c['share_out_when_held']:.1%}; scored 0 because someone else went out (the risk): "
        f"{c['share_zeroed_when_held']:.1%}, losing {c['money_lost_per_zeroed_hand']:,.0f} on average."),
        (f"Share of hands gone out with a Chance in hand: {c['share_of_outs_holding']:.1%}; Chance cards discarded per "
        f"match: {c['wilds_dropped_per_match']:.2f}."),
    ]
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------------------------------------
# Seat advantage by player count


def seat_advantage(games: int, players_list, policy: str, rules: CardGameRules, seed, threads,
                   progress=False) -> pd.DataFrame:
    """Win rate of each seat with the same bot in every seat, for each player count (seat 0
    plays first in the first hand; the first player then rotates with the dealer)."""
    from sim.cardgame.game import GAME

    rows = []
    for n in players_list:
        df = GAME.simulate(games, n, [policy] * n, rules, seed, threads, progress=progress)
        by_seat = GAME.summarize(df)["by_seat"]
        for r in by_seat.itertuples():
            rows.append({"players": n, "seat": r.seat, "win_rate": r.win_rate, "ci_low": r.ci_low,
                         "ci_high": r.ci_high, "fair_share": 1 / n, "hands": float(df["hands"].mean())})
    return pd.DataFrame(rows)


def render_seat_advantage(t: pd.DataFrame, games: int, policy: str, edition: str) -> str:
    lines = [f"# Seat advantage: {edition} edition, {games:,} matches per player count, {policy} in every seat", "",
             "| players | seat | win rate | 95% CI | fair share | hands a match |", "|---:|---:|---:|---|---:|---:|"]
    for r in t.itertuples():
        lines.append(f"| {r.players} | {r.seat} | {r.win_rate:.1%} | {r.ci_low:.1%} - {r.ci_high:.1%} "
                     f"| {r.fair_share:.1%} | {r.hands:.2f} |")
    return "\n".join(lines) + "\n"
