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
import pandas as pd

from sim.chance import api
from sim.chance import layout as L
from sim.chance.game import GAME
from sim.chance.exact_odds import Situation, describe_situation, p_bust_next
from sim.chance.optimal import OBJECTIVES, TurnModel
from sim.chance.rules import BANKRUPT, CASH, LUCKY_BREAK
from sim.core.runner import UsageError
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
    out = {
        "situation": describe_situation(sit),
        "objective": objective,
        "advice": "flip" if can_flip and model.should_flip() else "cash out",
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
    lines.append(f"Advice: {a['advice'].upper()}  (turn-optimal for {obj})")
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


# ---------------------------------------------------------------------------------------------
# Advice from a whole game position (sim/chance/position.py)

DEFAULT_PRECISION = 0.01  # half-width of the paired difference's 95% interval, as a share
FIRST_ROLLOUTS = 2_000
MAX_ROLLOUTS = 200_000


def _rollouts(pos, option, games, seed, threads, first_game=0) -> pd.DataFrame:
    from sim.chance.position import start_array

    return GAME.simulate(games, pos.players, pos.policies, pos.rules, seed, threads, first_game=first_game,
                         start=start_array(pos, option))


def position_odds(pos, rollouts: int = 20_000, seed: int = 0, threads: int | None = None) -> dict:
    """Each player's chance to win from the position, by `rollouts` playouts (the unseen dealt
    afresh each time)."""
    df = _rollouts(pos, None, rollouts, seed, threads)
    seats = []
    for s in range(pos.players):
        w = df[f"win_{s}"].to_numpy()
        lo, hi = wilson(w.sum(), len(w))
        seats.append({"seat": s, "policy": pos.policies[s], "skyline": int(pos.S0[L.SKY_LEN + s]),
                      "win_chance": float(w.mean()), "ci_low": float(lo), "ci_high": float(hi)})
    return {"rollouts": rollouts, "seed": seed, "to_move": pos.turn, "stage": pos.stage, "seats": seats,
            "rounds_to_go_mean": float((df["rounds"] - (pos.S0[L.G_N_ROUNDS] - 1)).mean()),
            "shared_wins": float((df["winner"] < 0).mean())}


def turn_situation(pos) -> Situation | None:
    """The player to move's turn as the exact turn model sees it (None when its draw pile's
    cards are unknown)."""
    S, RB, p = pos.S0, GAME.rules.pack(pos.rules, pos.players, {}), pos.turn
    if S[L.P_DRAW_COUNT + p] >= 0:
        return None
    kinds = [(int(RB[L.R_DECK_KIND + p * L.MAX_DECK + c]), int(RB[L.R_DECK_VALUE + p * L.MAX_DECK + c]))
             for c in S[L.DRAW_PILE + p * L.MAX_DECK : L.DRAW_PILE + p * L.MAX_DECK + S[L.DRAW_N + p]]]
    flipped = [int(RB[L.R_DECK_VALUE + p * L.MAX_DECK + c]) for c in S[L.TURN_CARDS : L.TURN_CARDS + S[L.T_N]]
               if RB[L.R_DECK_KIND + p * L.MAX_DECK + c] == CASH]
    return Situation(cash=tuple(sorted(v for k, v in kinds if k == CASH)),
                     bankrupt=sum(k == BANKRUPT for k, _ in kinds), lucky=sum(k == LUCKY_BREAK for k, _ in kinds),
                     other=sum(k not in (CASH, BANKRUPT, LUCKY_BREAK) for k, _ in kinds),
                     held_lucky=int(S[L.T_LUCKY]), flipped=tuple(flipped), flips=int(S[L.T_LIMIT] - S[L.T_FLIPS]))


def advise_position(pos, precision: float = DEFAULT_PRECISION, max_rollouts: int = MAX_ROLLOUTS, seed: int = 0,
                    threads: int | None = None) -> dict:
    """The deciding player's chance to win after each choice the position offers, from paired
    rollouts (rollout g of every choice has the same seeds: common random numbers). Rollouts
    are added until the 95% interval of every choice's difference to the best is within
    ±precision, or max_rollouts per choice are played."""
    if not pos.options:
        raise UsageError(f"nothing to decide at this position ({NO_CHOICE[pos.decision]})")
    seat = pos.decider
    wins = [np.zeros(0) for _ in pos.options]
    n, target = 0, min(FIRST_ROLLOUTS, max_rollouts)
    while True:
        for k in range(len(pos.options)):
            w = _rollouts(pos, k, target - n, seed, threads, first_game=n)[f"win_{seat}"].to_numpy()
            wins[k] = np.concatenate([wins[k], w])
        n = target
        means = [float(w.mean()) for w in wins]
        best = int(np.argmax(means))
        diffs = [paired_diff(w, wins[best]) for w in wins]
        widest = max(half for k, (_, half) in enumerate(diffs) if k != best)
        if widest <= precision or n >= max_rollouts:
            break
        # The half-width falls as one over the square root of the rollouts.
        target = min(max_rollouts, max(2 * n, int(n * (widest / precision) ** 2 * 1.1)))
    choices = []
    for k, (label, _) in enumerate(pos.options):
        lo, hi = wilson(wins[k].sum(), n)
        d, half = diffs[k]
        choices.append({"choice": label, "win_chance": means[k], "ci_low": float(lo), "ci_high": float(hi),
                        "minus_best": d, "minus_best_low": d - half, "minus_best_high": d + half})
    runner_up = max((c for k, c in enumerate(choices) if k != best), key=lambda c: c["win_chance"])
    out = {"decision_kind": pos.decision, "decider": seat, "decider_policy": pos.policies[seat], "stage": pos.stage,
           "rollouts_per_choice": n, "seed": seed, "precision": precision, "choices": choices,
           "advice": choices[best]["choice"], "clear": runner_up["minus_best_high"] < 0}
    sit = turn_situation(pos) if pos.decision == "flip" else None
    if sit is not None:
        out["turn"] = advise(sit, games=0, rules=pos.rules)
    return out


NO_CHOICE = {
    "flip": "no flips left, or no card to flip",
    "flip2": "give [turn] asker (the player who may play Flip 2) or flip2_by (who played it)",
    "nope_flip2": "the player to move holds no Nope!",
    "token": "the player to move holds no Token, or every corner is taken",
    "place": "no Cash card in front of the player can go anywhere",
    "nope_cash": "the player on top of that property holds no Nope!",
}
QUESTION = {
    "flip": "flip or cash out",
    "flip2": "play Flip 2 on the player to move, or pass",
    "nope_flip2": "answer the Flip 2 with Nope!, or take the two flips",
    "token": "where to play the Token",
    "place": "where to play a Cash card",
    "nope_cash": "block the Cash card with Nope!, or let it in",
}


def describe_position(pos, path) -> str:
    S = pos.S0
    t = pos.doc["turn"]
    what = f"{', '.join(t['flipped']) or 'nothing'} in front"
    if pos.stage == "flipping":
        what += f", {t['flips_left']} flip{'s' if t['flips_left'] != 1 else ''} left"
    if "turns_left" in pos.doc:
        n = pos.doc["turns_left"]
        what += f"; the round ends after {'this turn' if n == 1 else f'{n} turns, this one included'}"
    return (f"Position {path}: {pos.players} players, round {int(S[L.G_N_ROUNDS])}, player {pos.turn} "
            f"({pos.policies[pos.turn]}) to move, {pos.stage}: {what}")


def advice_verdict(choices: list[dict], best: str) -> str:
    """The advice in words: the best choice when every other is clearly worse; else the choices
    the evidence cannot tell from the best (a tie named as such), and how much the rest lose."""
    others = [c for c in choices if c["choice"] != best]
    tied = [c for c in others if c["minus_best_high"] >= 0]
    worse = [c for c in others if c["minus_best_high"] < 0]
    gap = -max(c["minus_best"] for c in others) * 100 + 0.0  # + 0.0: never "-0.0"
    if not tied:
        return f"{best.upper()}: it wins {gap:.1f} points more than the next best choice"
    names = " or ".join([best.upper(), *(c["choice"].upper() for c in tied)])
    verdict = (f"{names}: no clear difference between them ({best} leads by {gap:.1f} points, within the "
               "noise)")
    if worse:
        least = -max(c["minus_best_high"] for c in worse) * 100
        verdict += (f"; {', '.join(c['choice'] for c in worse)} {'is' if len(worse) == 1 else 'are'} clearly worse, "
                    f"by {least:.1f} points at least")
    return verdict


def render_position_odds(r: dict, pos, path) -> str:
    lines = [describe_position(pos, path), "",
             f"Win chances from here ({r['rollouts']:,} rollouts, seed {r['seed']}; unseen cards dealt afresh each time):",
             "", "| player | policy | skyline | win chance | 95% CI |", "|---:|---|---:|---:|---|"]
    for s in r["seats"]:
        lines.append(f"| {s['seat']} | {s['policy']} | {s['skyline']} | {s['win_chance']:.1%} | "
                     f"{s['ci_low']:.1%} - {s['ci_high']:.1%} |")
    lines += ["", f"Rounds to go, this one included: {r['rounds_to_go_mean']:.2f} on average; shared wins: "
              f"{r['shared_wins']:.1%}."]
    return "\n".join(lines) + "\n"


def render_position_advice(a: dict, pos, path) -> str:
    lines = [describe_position(pos, path), ""]
    turn = a.get("turn")
    if turn is not None:
        lines += [f"The turn alone (exact): the next flip busts with chance {turn['p_bust_next']:.1%}; one more flip "
                  f"then cash out keeps {turn['one_more_flip']:.2f} in Cash on average against {turn['in_hand']:.0f} in "
                  f"hand; the turn-optimal rule says {turn['advice'].upper()}.", ""]
    lines += [f"Player {a['decider']} ({a['decider_policy']}) decides: {QUESTION[a['decision_kind']]}. "
              f"{a['rollouts_per_choice']:,} paired rollouts per choice, seed {a['seed']}; target "
              f"±{a['precision'] * 100:.1f} points:", "",
              "| choice | win chance | 95% CI | minus the best (95% CI) |", "|---|---:|---|---|"]
    for c in a["choices"]:
        diff = ("best" if c["choice"] == a["advice"] else
                f"{c['minus_best'] * 100:+.1f} points ({c['minus_best_low'] * 100:+.1f} to {c['minus_best_high'] * 100:+.1f})")
        lines.append(f"| {c['choice']} | {c['win_chance']:.1%} | {c['ci_low']:.1%} - {c['ci_high']:.1%} | {diff} |")
    verdict = advice_verdict(a["choices"], a["advice"])
    lines += ["", f"Advice: {verdict}."]
    return "\n".join(lines) + "\n"
