"""`monosim chance advise`: flip or cash out, in a few lines a player can use at the table.

Two kinds of evidence:

* Exact, for the turn: the chance the next flip busts, the expected Cash after exactly one
  more flip (then cashing out) against the Cash in hand, and the turn-optimal decision (the
  Bellman recursion of sim/chance/optimal.py) for the chosen objective.
* Simulated, for the game: two arms of full games under common random numbers. Seat 0 plays
  the given policy (default: the turn-optimal rule) against the default table; every time
  seat 0 is about to decide in a situation that matches the question, arm "flip" forces one
  more flip and arm "stop" forces a cash-out; everything else is equal. Games are seeded from
  (seed, g), so game g is identical in both arms until the situation first arises; the win
  difference is therefore measured game by game (a paired difference) over the games where it
  arose, with a 95% interval.

The situation is matched on what the player told us: the number and the sum of the Cash flipped
this turn, the flips left and the Lucky Breaks in front always; the Bankrupts left in the pile
only when --bankrupt was given. (A game rarely meets one exact pile; the matched situations
have the same stake, the same flips left and the same protection.)
"""

from __future__ import annotations

import numpy as np

from sim.chance import api
from sim.chance.game import GAME
from sim.chance.exact_odds import Situation, describe_situation, p_bust_next
from sim.chance.optimal import OBJECTIVES, TurnModel
from sim.core.stats import paired_diff, wilson
from strategies.chance import situation_key

DEFAULT_GAMES = 20_000
MIN_GAMES_FOR_VERDICT = 200  # as in the study's stop/flip maps


def advise(
    sit: Situation,
    objective: str = "value",
    beat: int = 0,
    games: int = DEFAULT_GAMES,
    players: int = 4,
    policy: str = "optimal",
    seed: int = 0,
    match_bankrupt: bool = False,
    rules=None,
    threads: int | None = None,
) -> dict:
    obj = OBJECTIVES.index(objective)
    model = TurnModel.from_situation(sit, obj, beat)
    stop = float(model.state(model.start)["s"])
    can_flip = sit.flips > 0 and sit.pile_n > 0
    flip_opt = model.flip_value() if can_flip else float("nan")
    once = model.one_flip_value() if can_flip else float("nan")
    decision = "flip" if can_flip and model.should_flip() else "cash out"
    out = {
        "situation": describe_situation(sit),
        "objective": objective,
        "decision": decision,
        "p_bust_next": p_bust_next(sit),
        "in_hand": stop,
        "one_more_flip": once,
        "one_more_flip_gain": once - stop,
        "flip_then_optimal": flip_opt,
        "flip_then_optimal_gain": flip_opt - stop,
    }
    if games > 0 and can_flip:
        out["simulation"] = simulate_evidence(sit, games, players, policy, seed, match_bankrupt, rules, threads)
    return out


def simulate_evidence(sit, games, players, policy, seed, match_bankrupt, rules, threads) -> dict:
    s = sit.cash_sum
    if s > 254 or len(sit.flipped) > 62 or sit.flips > 62 or sit.held_lucky > 14:
        raise ValueError("situation too large to match in games")
    key = situation_key(
        cash_lo=s, cash_hi=s, cash_n=len(sit.flipped), left=sit.flips, lucky=sit.held_lucky,
        bankrupt=sit.bankrupt if match_bankrupt else None,
    )
    seats = [policy] + list(api.DEFAULT_TABLE[: players - 1])
    arms = {
        action: GAME.simulate(games, players, seats, rules, seed, threads, force=(0, action, key))
        for action in ("flip", "stop")
    }
    hit = (arms["flip"]["situations_0"] > 0).to_numpy()
    n = int(hit.sum())
    res = {"games_per_arm": games, "players": players, "seats": seats, "seed": seed,
           "games_with_situation": n, "match": {"cash_n": len(sit.flipped), "cash_sum": s,
           "flips_left": sit.flips, "held_lucky": sit.held_lucky,
           "bankrupt_left": sit.bankrupt if match_bankrupt else "any"}}
    if n < 2:
        return res
    w_flip = arms["flip"]["win_0"].to_numpy()[hit]
    w_stop = arms["stop"]["win_0"].to_numpy()[hit]
    for name, w in (("flip", w_flip), ("stop", w_stop)):
        lo, hi = wilson(w.sum(), n)
        res[f"win_rate_{name}"] = float(w.mean())
        res[f"win_rate_{name}_low"], res[f"win_rate_{name}_high"] = float(lo), float(hi)
    d, half = paired_diff(w_flip, w_stop)
    res["win_diff_flip_minus_stop"] = d
    res["win_diff_flip_minus_stop_low"], res["win_diff_flip_minus_stop_high"] = d - half, d + half
    return res


def render_advice(a: dict) -> str:
    obj = {"value": "total Cash value kept", "count": "Cash cards kept",
           "board": "Cash that beats the board"}[a["objective"]]
    lines = [a["situation"], ""]
    lines.append(f"Advice: {a['decision'].upper()}  (turn-optimal for {obj})")
    lines.append(f"Chance the next flip busts: {a['p_bust_next']:.1%}")
    if not np.isnan(a["one_more_flip"]):
        g = a["one_more_flip_gain"]
        lines.append(
            f"One more flip, then cash out: expected {a['one_more_flip']:.2f} against {a['in_hand']:.0f} "
            f"in hand ({'gain' if g > 0 else 'loss'} {abs(g):.2f})"
        )
        g = a["flip_then_optimal_gain"]
        lines.append(
            f"Flip, then play on optimally: expected {a['flip_then_optimal']:.2f} ({'+' if g >= 0 else '-'}{abs(g):.2f})"
        )
    sim_ = a.get("simulation")
    if sim_:
        m = sim_["match"]
        lines += [
            "",
            f"Full games ({sim_['games_per_arm']:,} per arm, {sim_['players']} players, you: {sim_['seats'][0]}; "
            f"opponents: {', '.join(sim_['seats'][1:])}; seed {sim_['seed']}):",
            f"  the situation ({m['cash_n']} Cash worth {m['cash_sum']} in front, {m['flips_left']} flips left, "
            f"{m['held_lucky']} Lucky Break held, Bankrupts left: {m['bankrupt_left']}) arose in "
            f"{sim_['games_with_situation']:,} games",
        ]
        if "win_rate_flip" in sim_:
            lo, hi = sim_["win_rate_flip_low"], sim_["win_rate_flip_high"]
            lines.append(f"  always flip there:     win rate {sim_['win_rate_flip']:.1%} ({lo:.1%} - {hi:.1%})")
            lo, hi = sim_["win_rate_stop_low"], sim_["win_rate_stop_high"]
            lines.append(f"  always cash out there: win rate {sim_['win_rate_stop']:.1%} ({lo:.1%} - {hi:.1%})")
            lo, hi = sim_["win_diff_flip_minus_stop_low"], sim_["win_diff_flip_minus_stop_high"]
            d = sim_["win_diff_flip_minus_stop"]
            verdict = "flipping wins more" if lo > 0 else "cashing out wins more" if hi < 0 else "no clear difference"
            if sim_["games_with_situation"] < MIN_GAMES_FOR_VERDICT:
                verdict = (f"too few games for a verdict (under {MIN_GAMES_FOR_VERDICT}): raise --games"
                           + (" or leave out --bankrupt" if m["bankrupt_left"] != "any" else ""))
            lines.append(
                f"  flip - cash out: {d * 100:+.1f} points ({lo * 100:+.1f} to {hi * 100:+.1f}, paired 95% CI): {verdict}"
            )
        else:
            lines.append("  too rare to compare: raise --games")
    return "\n".join(lines) + "\n"
