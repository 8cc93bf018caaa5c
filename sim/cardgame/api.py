"""Monopoly: The Card Game from Python: simulate matches, summarize them, and the game's own
analyses (card values and the Chance card's risk, seat advantage by player count, the effect
of each edition difference and house rule)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from sim.cardgame import kernel
from sim.cardgame.layout import (
    H_MONEY,
    H_SCORE,
    MAX_HAND_ROWS,
    MAX_PLAYERS,
    N_HAND_COLS,
    N_SEAT_COLS,
    NK,
    SC_WIN,
    SEAT_COLS,
)
from sim.cardgame.rules import (
    HOUSE_CHOICES,
    KIND_NAMES,
    RULES_VERSION,
    CardGameRules,
    describe,
    kind_of,
    pack,
)
from sim.core import summary as core
from sim.core import table
from sim.core.runner import DEFAULT_CHUNK, UsageError, check_run_args, run_chunks
from sim.core.stats import mean_ci, wilson
from strategies.cardgame import CATALOG

DEFAULT_TABLE = ("smart", "trader", "cautious", "greedy", "random", "smart")
MIN_PLAYERS = 2  # any edition (video: 2-4, wiki: 3-6)
HAND_COLS = ("hand", "dealer", "went_out", "turns", "stalled", "jackpot", "jackpot_to")
MONEY_COLS = ("group_money", "impr_money", "bonus_money", "doubled_money", "jackpot_money")


def make_table(players: int, seats: list[str] | None = None,
               rules: CardGameRules | None = None) -> tuple[list[str], np.ndarray, np.ndarray]:
    """Parse one policy spec per seat. Missing seats are filled from DEFAULT_TABLE. The player
    counts allowed depend on the edition (without rules: any count some edition allows)."""
    if rules is None:
        lo, hi = MIN_PLAYERS, MAX_PLAYERS
        title = "Monopoly: The Card Game"
    else:
        lo, hi = rules.players_allowed()
        title = f"the {rules.edition} edition of Monopoly: The Card Game"
    return table.make_table(title, CATALOG, DEFAULT_TABLE, players, seats, lo, hi)


def _play(games, players, seats, rules, seed, threads, chunk_size, check, progress, record, first_game=0,
          deck_edits=None):
    rules = rules or CardGameRules()
    check_run_args(games, seed, chunk_size, threads)
    specs, kinds, params = make_table(players, seats, rules)
    try:
        packed = pack(rules, players, deck_edits)
    except ValueError as e:
        raise UsageError(str(e)) from None

    game_out = np.zeros((kernel.N_GAME_COLS, games), np.int64)
    seat_out = np.zeros((players, N_SEAT_COLS, games), np.int64)
    rows = games if record else 1
    hand_out = np.zeros((rows, MAX_HAND_ROWS, N_HAND_COLS), np.int64)
    kind_out = np.zeros((rows, NK, 4), np.int64)

    def play_chunk(first: int, n: int) -> None:
        kernel.play_batch(packed, kinds, params, np.uint64(seed), first_game + first, n, check, game_out, seat_out,
                          hand_out, kind_out, record, first)

    run_chunks(play_chunk, games, chunk_size, threads, progress)
    df = _to_frame(game_out, seat_out, specs, seed, rules, first_game, deck_edits)
    return df, {"hand": hand_out, "kind": kind_out}


def simulate(
    games: int = 10_000,
    players: int = 4,
    seats: list[str] | None = None,
    rules: CardGameRules | None = None,
    seed: int = 0,
    threads: int | None = None,
    chunk_size: int = DEFAULT_CHUNK,
    check: bool = False,
    progress: bool = False,
    first_game: int = 0,
    deck_edits: dict[int, dict[str, int]] | None = None,
) -> pd.DataFrame:
    """Play `games` complete matches (numbers first_game, first_game + 1, ...) and return one
    row per match. ``deck_edits`` maps seat -> {card name: copies}: extra cards dealt into that
    seat's hand at the start of every hand (card-value studies).

    Columns: game, winner (-1 on a tie for the most money), hands, turns, stalled_hands (hands
    nobody went out of), hit_hand_limit (a money-target match stopped at max_hands), tie, and
    for each seat s the columns ``<stat>_<s>`` for every stat in ``SEAT_COLS`` plus
    ``policy_<s>``; ``win_<s>`` is the seat's share of the win (1/k on a k-way tie).
    """
    return _play(games, players, seats, rules, seed, threads, chunk_size, check, progress, False, first_game,
                 deck_edits)[0]


def simulate_hands(
    games: int = 10_000,
    players: int = 4,
    seats: list[str] | None = None,
    rules: CardGameRules | None = None,
    seed: int = 0,
    threads: int | None = None,
    chunk_size: int = DEFAULT_CHUNK,
    check: bool = False,
    progress: bool = False,
    deck_edits: dict[int, dict[str, int]] | None = None,
) -> tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame]:
    """As ``simulate``, plus one row per hand (game, hand, dealer, went_out (-1: nobody),
    turns, stalled, jackpot (the pot paid, or left waiting), jackpot_to (-1: nobody),
    score_<s>, money_<s> after the hand) and the per-kind table ``kind_values`` reads."""
    df, out = _play(games, players, seats, rules, seed, threads, chunk_size, check, progress, True,
                    deck_edits=deck_edits)
    hands = out["hand"]
    n_hands = np.minimum(df["hands"].to_numpy(), MAX_HAND_ROWS)
    mask = np.arange(MAX_HAND_ROWS)[None, :] < n_hands[:, None]
    rows = hands[mask]
    cols = {"game": np.repeat(df["game"].to_numpy(), n_hands)}
    for j, name in enumerate(HAND_COLS):
        cols[name] = rows[:, j]
    for s in range(players):
        cols[f"score_{s}"] = rows[:, H_SCORE + s]
    for s in range(players):
        cols[f"money_{s}"] = rows[:, H_MONEY + s]
    hand_df = pd.DataFrame(cols)
    hand_df.attrs.update(df.attrs)
    kinds = pd.DataFrame(out["kind"].sum(axis=0), columns=["goer_held", "goer_score", "other_held", "other_score"])
    kinds.insert(0, "kind", KIND_NAMES)
    kinds.attrs["hands"] = int((hand_df["went_out"] >= 0).sum())
    kinds.attrs["players"] = players
    return df, hand_df, kinds


def _to_frame(game_out, seat_out, specs, seed, rules, first_game=0, deck_edits=None) -> pd.DataFrame:
    return table.games_frame(
        kernel, game_out, seat_out, SEAT_COLS, SC_WIN, specs, seed, first_game,
        game="cardgame", edition=rules.edition, rules=describe(rules), rules_version=RULES_VERSION,
        deck_edits={str(k): v for k, v in (deck_edits or {}).items()},
    )


def seat_table(games: pd.DataFrame) -> pd.DataFrame:
    """The per-match table in long form: one row per (game, seat)."""
    return core.seat_table(games, SEAT_COLS)


def summarize(games: pd.DataFrame) -> dict[str, pd.DataFrame]:
    """Win rates with 95% intervals by seat and by policy, match length, how matches ended, and
    where each seat's money came from."""
    seats = seat_table(games)
    n = len(games)
    players = core.n_seats(games)
    by_seat = core.win_rate_by_seat(seats, n, means=("money", "outs", "zeroed", "jackpots", "trades", "draws"))
    by_policy = core.win_rate_by_policy(seats, players)
    length = core.length_stats(games, ("hands", "turns"))
    ended = pd.DataFrame(
        {"share": [float((games["tie"] == 1).mean()), float((games["hit_hand_limit"] == 1).mean()),
                   float(games["stalled_hands"].sum() / max(games["hands"].sum(), 1))]},
        index=["tie", "hit_hand_limit", "stalled_hand_share"],
    )
    money = seats.groupby(["seat", "policy"], sort=True)[list(MONEY_COLS) + ["zero_lost"]].mean().reset_index()
    return {"by_seat": by_seat, "by_policy": by_policy, "length": length, "ended": ended, "money": money}


def render_report(games: pd.DataFrame, summary: dict[str, pd.DataFrame] | None = None) -> str:
    """A readable plain-text (Markdown-compatible) report of a simulation."""
    s = summary or summarize(games)
    a = games.attrs
    lines = [
        (f"# Monopoly: The Card Game ({a.get('edition')} edition): {len(games):,} matches, {a.get('players')} players, "
        f"seed {a.get('seed')}"),
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


def plot_win_rates(games: pd.DataFrame, path, summary: dict[str, pd.DataFrame] | None = None) -> None:
    """Bar chart of win rate by seat with 95% error bars and the fair-share line."""
    s = (summary or summarize(games))["by_seat"]
    core.plot_win_rates(s, path, f"Monopoly: The Card Game: win rate by seat ({len(games):,} matches, 95% CI)")


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
    return pd.DataFrame(rows)


def chance_risk(games: pd.DataFrame) -> dict[str, float]:
    """The Chance card's risk and reward, per seat-hand: how often a hand ended holding one,
    how often that hand went out (the reward) or was zeroed (the risk), and the money lost."""
    seats = seat_table(games)
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
    df, hands, kinds = simulate_hands(games, players, seats, rules, seed, threads, progress=progress)
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
    rows = []
    for n in players_list:
        df = simulate(games, n, [policy] * n, rules, seed, threads, progress=progress)
        by_seat = summarize(df)["by_seat"]
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


# ---------------------------------------------------------------------------------------------
# Edition differences and house rules


def default_variants(edition: str) -> dict[str, dict]:
    """One change at a time from the edition's defaults: each house rule flipped, and (for the
    wiki edition) each of the video edition's differences."""
    base = CardGameRules.preset(edition)
    out = {}
    for name, value in vars(base.house).items():
        if isinstance(value, bool):
            out[f"{name}={str(not value).lower()}"] = {name: not value}
    for name, choices in HOUSE_CHOICES.items():
        for choice in choices:
            if choice != getattr(base.house, name):
                out[f"{name}={choice}"] = {name: choice}
    if edition == "wiki":
        out["max_trade=2"] = {"max_trade": 2}
        out["reward_cards=0"] = {"reward_cards": 0}
        out["face_up=2"] = {"face_up": 2}
        out["railroad_min=2"] = {"railroad_min": 2}
    else:
        out["max_trade=10"] = {"max_trade": 10}
        out["reward_cards=5"] = {"reward_cards": 5}
    return out


def house_rule_effects(games: int, players: int, seats, edition: str, seed: int, threads, progress=False,
                       variants: dict[str, dict] | None = None) -> pd.DataFrame:
    """Each variant against the edition's defaults on the same match seeds (common random
    numbers): match length in hands and turns, seat 0's win rate (the first player's
    advantage with the same bot everywhere), ties and hands nobody went out of."""
    base = CardGameRules.preset(edition)
    variants = variants if variants is not None else default_variants(edition)
    seats = list(seats or []) or ["smart"] * players
    rows = []
    for label, change in {"defaults": {}, **variants}.items():
        rules = base.replace(**change)
        df = simulate(games, players, seats, rules, seed, threads, progress=progress)
        hands, hands_ci = mean_ci(df["hands"])
        turns, turns_ci = mean_ci(df["turns"])
        s0, s0_ci = mean_ci(df["win_0"])
        ties = df["tie"].to_numpy()
        lo, hi = wilson(ties.sum(), len(df))
        rows.append({"rules": label, "hands": hands, "hands_ci": hands_ci, "turns": turns, "turns_ci": turns_ci,
                     "seat0_win": s0, "seat0_ci": s0_ci, "tie": float(ties.mean()), "tie_low": float(lo),
                     "tie_high": float(hi),
                     "stalled_hands": float(df["stalled_hands"].sum() / max(df["hands"].sum(), 1))})
    return pd.DataFrame(rows)


def render_house_rules(t: pd.DataFrame, games: int, players: int, edition: str) -> str:
    lines = [(f"# Edition differences and house rules: {edition} edition, {games:,} matches each, {players} players, "
             "same seeds in every row"), "",
             f"Seat 0 plays first in the first hand; with the same bot in every seat a fair share is {1 / players:.1%}.", "",
             "| rules | hands | 95% CI | turns | 95% CI | seat 0 win | 95% CI | ties | hands nobody went out |",
             "|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for r in t.itertuples():
        lines.append(f"| {r.rules} | {r.hands:.2f} | +-{r.hands_ci:.2f} | {r.turns:.1f} | +-{r.turns_ci:.1f} "
                     f"| {r.seat0_win:.1%} | +-{r.seat0_ci:.1%} | {r.tie:.2%} | {r.stalled_hands:.2%} |")
    return "\n".join(lines) + "\n"


assert MAX_PLAYERS >= len(DEFAULT_TABLE)
