"""The rule corners, bot slips and replay gaps a second outside audit found (issue 38), each as a
scenario that failed before its fix."""

import numpy as np
import pytest

from deal_harness import Table as DealTable
from test_deal_rules import _two_sets


# ---- Deal: a stranded any-colour wild moves at once, and the bots see where it goes -------------

def _stranding_forced_deal(t: DealTable) -> None:
    """Seat 1 holds two complete sets, an orange beside an any-colour wild, and one green.
    Seat 0 holds two oranges and a green, and a Forced Deal: taking the orange completes its
    oranges, and the card it gives costs it least. Taking seat 1's last orange strands the wild,
    which moves at once to seat 1's colour nearest completion: green, holding two once seat 0's
    green arrives, so the wild makes it complete."""
    _two_sets(t, 1)
    t.prop(1, "orange", "orange", "wild_any")
    t.prop(1, "green", "green")
    t.prop(0, "orange", "orange", "orange")
    t.prop(0, "green", "green")
    t.hand(0, "forced_deal")


def test_a_stranded_wild_moves_at_once_and_the_move_is_logged():
    t = DealTable(["set_builder", "set_builder"], log_rows=64)
    _stranding_forced_deal(t)
    assert t.play(0, "forced_deal", "action", ("orange", "prop", 1), ("green", "prop", 0), 1)
    assert t.group(1, "green") == ["green", "green", "wild_any"] and t.group(1, "orange") == []
    assert t.complete_sets(1) == 3 and t.winner == 1  # won on seat 0's turn (win_on_any_turn)
    assert "seat 1 moves wild any to green" in t.events()
    assert t.invariants() == "ok"


@pytest.mark.parametrize("bot", ["smart", "set_builder", "aggressive"])
def test_the_bots_never_hand_a_set_through_a_stranded_wild(bot):
    t = DealTable([bot, "set_builder"])
    _stranding_forced_deal(t)
    t.empty_draw_pile()
    t.turn(0)
    assert t.complete_sets(1) == 2 and t.winner != 1
    assert t.invariants() == "ok"


# ---- the card game: going out and scoring agree on every small hand, however many Chance cards ---

def _small_hands(max_cards: int):
    """Every hand of up to max_cards property cards (kind counts over the colour groups)."""
    from itertools import combinations_with_replacement

    from sim.cardgame import layout as CL

    for k in range(1, max_cards + 1):
        for groups in combinations_with_replacement(range(CL.NC), k):
            A = np.zeros(CL.NK, np.int32)
            for c in groups:
                A[c] += 1
            yield A


@pytest.mark.parametrize("edition", ["wiki", "video"])
@pytest.mark.parametrize("any_group", [False, True])
def test_going_out_and_scoring_agree_on_every_small_hand(edition, any_group):
    """For every hand of up to four properties and up to four Chance cards: a hand that may go
    out scores every group it holds as complete; with up to two Chance cards the search for many
    cards finds what the two-card search finds; and a Chance card more never scores less."""
    from sim.cardgame import layout as CL
    from sim.cardgame.board import best_placement, can_go_out, full_value, hand_score, need_of, score_with_many_wilds
    from sim.cardgame.game import GAME as CARDGAME
    from sim.cardgame.rules import pack as card_pack

    rules = CARDGAME.rules_from([f"edition={edition}", "deck.chance=4", f"wild_completes_any_group={any_group}"])
    RB = card_pack(rules, 4)
    P, Q = np.zeros(4, np.int64), np.zeros(4, np.int64)
    complete_hands = 0
    for A in _small_hands(4):
        for w in range(3):
            assert score_with_many_wilds(A, 0, RB, True, w, P) == best_placement(A, 0, RB, True, w, Q), (A, w)
            assert list(P) == list(Q)
        before = -1
        for w in range(5):
            A[CL.K_WILD] = w
            score = hand_score(A, 0, RB, True, P)
            assert score >= before, (A, w)
            before = score
            if can_go_out(A, 0, RB):
                complete_hands += 1
                held = [c for c in range(CL.NC) if A[c] > 0]
                assert P[0] >= sum(full_value(RB, c, max(int(A[c]), need_of(RB, c))) for c in held), (A, w, P)
        A[CL.K_WILD] = 0
    assert complete_hands > 1000


# ---- Chance: a bust that cannot happen has chance 0, and no bot stops with nothing at stake ----

def test_bust_chances_are_exact_and_impossible_busts_are_zero():
    from fractions import Fraction
    from math import comb

    from strategies.chance import p_bust_within

    assert p_bust_within(2, 8, 3, 2) == 0.0  # the audit's case: two flips, two Lucky Breaks held
    for pile in range(0, 13):
        for bankrupt in range(0, pile + 1):
            for lucky in range(0, 4):
                for flips in range(0, 5):
                    n = min(flips, pile)
                    exact = sum((Fraction(comb(bankrupt, k) * comb(pile - bankrupt, n - k), comb(pile, n))
                                 for k in range(lucky + 1, n + 1)), Fraction(0))
                    got = p_bust_within(flips, pile, bankrupt, lucky)
                    if exact == 0:
                        assert got == 0.0, (flips, pile, bankrupt, lucky)
                    else:
                        assert abs(got - float(exact)) < 1e-12, (flips, pile, bankrupt, lucky)


@pytest.mark.parametrize("kind", ["bust_threshold p=0.2", "stop_after n=0", "cash_target v=0", "random p_stop=1"])
def test_no_bot_cashes_out_with_nothing_at_stake(kind):
    """Two Bankrupts in three cards: every kind that would stop there flips once with nothing in
    front (flipping cannot lose), then stops or goes on by its own rule."""
    from chance_harness import Table as ChanceTable
    from test_chance_rules import pol, rules

    t = ChanceTable([pol(kind.split()[0], **dict(w.split("=") for w in kind.split()[1:])), pol()], rules(die=(3,)))
    t.deal(0, draw=["cash9", "bankrupt", "bankrupt"])
    t.deal(1)
    t.turn(0)
    assert t.stat(0, "flips") >= 1
    assert t.invariants() == "ok"


@pytest.mark.parametrize("round_ending", [True, False])
def test_a_saved_token_is_at_stake_when_a_bust_keeps_it_off_the_board_for_good(round_ending):
    """With a saved Token (and token_after_bankrupt off) a bust keeps the Token off the board this
    turn. On the round's last turns that loses it, so bust_threshold stops before flipping; before
    them a bust only puts the Token off to a later turn, so nothing is at stake and it flips.
    (Before, a bot keeping its Token for the round's end cashed out before its first flip every
    turn, and its pile never ran out: rounds went on to the 400-turn limit.)"""
    from chance_harness import Table as ChanceTable
    from test_chance_rules import pol, rules

    from sim.chance import layout as L

    t = ChanceTable([pol("bust_threshold", p=0.2), pol()], rules(die=(3,)))
    t.deal(0, draw=["cash9", "bankrupt", "bankrupt"], held=["token"])
    t.deal(1)
    t.S[L.G_TRIGGERED] = int(round_ending)
    t.turn(0)
    assert (t.stat(0, "flips") == 0) == round_ending
    assert t.invariants() == "ok"


@pytest.mark.parametrize("others_can_flip", [True, False])
def test_a_token_waits_for_the_rounds_end_only_while_a_player_can_flip(others_can_flip):
    """Once no player can flip, only Tokens and Chance cards can cover what is left, and a round
    that changes nothing is closed: a Token kept for the round's end (the default tactic) is
    played then. While seat 1 can still flip, seat 0 keeps it."""
    from chance_harness import Table as ChanceTable
    from test_chance_rules import pol, rules

    default_token = "max_flip fortify=0 flip2_stake=200 nope_stake=200 nope_length=20"
    t = ChanceTable([default_token, pol()], rules(die=(3,)))
    t.deal(0, held=["token"])  # every other card in the discard pile
    t.deal(1, draw=["lucky_break"] if others_can_flip else [])
    t.turn(0)
    assert t.where(0, "token") == ("held" if others_can_flip else "corner")
    assert t.corner("just_visiting") == (-1 if others_can_flip else 0)
    assert t.invariants() == "ok"


# ---- classic replays: interest, a sale short of houses, repairs with nothing built ---------------

CLASSIC_PASSIVE = "three_houses reserve=5000 bid=0 unmortgage=0 trade_share=0"


def _classic(**house):
    from classic_harness import Table as ClassicTable
    from sim.classic.rules import ClassicRules

    return ClassicTable([CLASSIC_PASSIVE, CLASSIC_PASSIVE], ClassicRules().replace(**house), log_rows=64)


def test_the_interest_on_a_received_mortgaged_deed_is_logged():
    t = _classic()
    t.own(1, "Baltic Avenue", mortgaged=True)
    t.set_cash(1, 10)
    assert not t.pay(1, 500, 0)  # seat 1 is bankrupt to seat 0, who receives the mortgaged deed
    assert t.owner("Baltic Avenue") == 0
    assert "seat 0 owes $3 interest on the mortgaged Baltic Avenue" in t.events()
    t.check()


@pytest.mark.parametrize("even", [True, False])
def test_a_hotel_sold_short_of_houses_logs_the_levels_it_comes_down_to(even):
    from sim.classic import layout as CLL

    t = _classic(even_building=even)
    t.own(0, "Park Place", "Boardwalk")
    t.build("Park Place", 5)
    t.build("Boardwalk", 5)
    t.set_supply(houses=3)
    t.set_cash(0, 0)
    assert t.pay(0, 100, CLL.BANK)
    events = [e for e in t.events() if "comes down" in e or "sells" in e]
    assert events[0].startswith("seat 0 sells a hotel on ") and events[0].endswith("back to the bank for $" + str(
        t.cash(0) + 100))
    down = {e.split(" comes down to ")[0]: e.split(" comes down to ")[1].split(",")[0] for e in events[1:]}
    assert down == ({"Park Place": "house 1", "Boardwalk": "house 1"} if even else {"Park Place": "house 3"})
    t.check()


def test_repairs_on_an_estate_with_nothing_built_owe_nothing_and_say_nothing_of_it():
    t = _classic()
    t.own(0, "Baltic Avenue")
    t.stack("chance", "Make general repairs")
    t.draw(0, "chance")
    events = t.events()
    assert any("Make general repairs" in e for e in events)
    assert not any("owes $0" in e for e in events)
    t.check()


def test_a_deal_rent_names_the_rent_card_it_used():
    t = DealTable(["set_builder", "set_builder"], log_rows=16)
    t.prop(0, "green", "green")
    t.bank(1, "money5")
    t.hand(0, "rent_green_dark_blue")
    assert t.play(0, "rent_green_dark_blue", "action", "green")
    events = t.events()
    assert events[:2] == ["seat 0 plays rent green dark blue", "seat 0 charges 2M rent on green from everyone"]


# ---- replays, advice and intervals ---------------------------------------------------------------

def test_a_game_of_a_simulate_out_folder_replays(monosim, tmp_path):
    import json

    args = ["--games", "300", "--edition", "video", "--rule", "go_out_when=next_turn", "--seed", "4"]
    r = monosim("cardgame", "simulate", *args, "--out", str(tmp_path / "run"), "--no-progress")
    assert r.returncode == 0, r.stderr
    stored = monosim("replay", str(tmp_path / "run"), "--longest", "--json")
    direct = monosim("cardgame", "replay", "--games", "300", "--edition", "video", "--rule", "go_out_when=next_turn",
                     "--seed", "4", "--longest", "--json")
    assert stored.returncode == direct.returncode == 0, stored.stderr + direct.stderr
    assert json.loads(stored.stdout)["results"] == json.loads(direct.stdout)["results"]
    r = monosim("cardgame", "simulate", "--games", "30", "--keep", "none", "--out", str(tmp_path / "bare"),
                "--no-progress")
    assert monosim("replay", str(tmp_path / "bare"), "--game", "7").returncode == 0
    refused = monosim("replay", str(tmp_path / "bare"), "--longest")
    assert refused.returncode == 2 and "kept no games table" in refused.stderr


def test_advice_has_one_key_for_the_advice_and_names_the_kind_apart(monosim):
    import json

    plain = json.loads(monosim("chance", "advise", "--flipped", "7,11", "--flips-left", "2", "--games", "0",
                               "--json").stdout)["results"]
    assert plain["advice"] == "cash out" and "decision" not in plain
    at = json.loads(monosim("chance", "advise", "--position", "experiments/chance-position.toml", "--precision", "5",
                            "--json").stdout)["results"]
    assert at["decision_kind"] == "flip" and at["advice"] in ("flip", "cash out")
    assert "decision" not in at and "best" not in at and at["turn"]["advice"] == "cash out"


def test_a_tie_for_best_is_named_with_what_the_others_lose():
    from sim.chance.advise import advice_verdict

    def choice(name, d, half):
        return {"choice": name, "minus_best": d, "minus_best_low": d - half, "minus_best_high": d + half}

    tie = [choice("flip", 0.0, 0.0), choice("cash out", -0.002, 0.01), choice("pass", -0.2, 0.01)]
    assert advice_verdict(tie, "flip") == ("FLIP or CASH OUT: no clear difference between them (flip leads by 0.2 "
                                           "points, within the noise); pass is clearly worse, by 19.0 points at least")
    clear = [choice("flip", 0.0, 0.0), choice("cash out", -0.05, 0.01)]
    assert advice_verdict(clear, "flip") == "FLIP: it wins 5.0 points more than the next best choice"
    even = [choice("flip", 0.0, 0.0), choice("cash out", 0.0, 0.01)]
    assert "leads by 0.0 points" in advice_verdict(even, "flip")


def test_wilson_bounds_stay_within_0_and_1():
    from sim.core.stats import wilson

    for n in (1, 7, 100, 10**6):
        low, high = wilson(0, n)
        assert low == 0.0 and 0 < high < 1
        low, high = wilson(n, n)
        assert high == 1.0 and 0 < low < 1
    lows, highs = wilson(np.arange(11), 10)
    assert (lows >= 0).all() and (highs <= 1).all()


# ---- the Python API ------------------------------------------------------------------------------

def test_the_api_takes_rules_as_changes_a_dict_or_an_object():
    from sim.core.game import get, simulate

    chance = get("chance")
    by_object = simulate("chance", 200, rules=chance.rules_from(["finish_mark=20"]), seed=3)
    for rules in (["finish_mark=20"], {"finish_mark": 20}):
        same = simulate("chance", 200, rules=rules, seed=3)
        assert same.attrs["rules"]["finish_mark"] == 20 and same.equals(by_object)


@pytest.mark.parametrize("call, message", [
    (dict(games=0), "games must be at least 1 (got 0)"),
    (dict(players=9), "players must be 2 to 4"),
    (dict(players=2, seats=["smart"] * 3), "3 seats given for 2 players"),
    (dict(chunk_size=0), "chunk_size must be at least 1"),
    (dict(rules=7), "rules: give a list of \"KEY=VALUE\" changes"),
    (dict(rules=["no_such=1"]), "unknown rule 'no_such'"),
])
def test_api_errors_name_the_parameter_not_a_flag(call, message):
    from sim.core.game import simulate
    from sim.core.runner import UsageError

    with pytest.raises(UsageError) as e:
        simulate("chance", **({"games": 10} | call))
    assert message in str(e.value) and "--" not in str(e.value)


def test_summaries_and_replays_plot_themselves():
    from sim.core.game import get, simulate
    from sim.core.replay import replay

    summary = get("deal").summarize(simulate("deal", 300, seed=2))
    assert len(summary.plot().axes[0].patches) == 4  # a bar a seat
    r = replay("classic", 3, seed=2, players=3)
    table = r.standings()
    assert list(table.columns) == [0, 1, 2] and table.index.max() >= r.row["rounds"].iloc[0]
    assert len(r.plot().axes[0].lines) == 3


def test_the_public_api_is_declared():
    import sim.core.game
    import sim.core.replay
    import sim.core.stats

    for module in (sim.core.game, sim.core.replay, sim.core.stats):
        assert module.__all__ and all(hasattr(module, name) for name in module.__all__)


# ---- text replays --------------------------------------------------------------------------------

def test_a_text_replay_names_its_rules_and_edition_and_each_game_speaks_its_own_words():
    from sim.core.replay import replay

    card = replay("cardgame", 2, rules=["edition=video", "go_out_when=next_turn"])
    header = card.text().splitlines()[:2]
    assert header[0].startswith("# Monopoly: The Card Game (video edition): game 2 of seed 0")
    assert header[1].startswith("Rules changed from the defaults:") and "go_out_when" in header[1]
    assert "\n== hand 1\n" in card.text() and "== round" not in card.text()
    out = card.events[card.events["kind"] == "go_out"]
    assert len(out) and card.events.loc[out.index[0] + 1, "kind"] == "hand"
    shown = card.events[(card.events["kind"] == "hand") & (card.events["round"] == out["round"].iloc[0])]
    assert shown["amount"].sum() >= 4  # the goer's whole hand, kind by kind
    chance = replay("chance", 3)
    assert chance.text().splitlines()[1] == "Rules: the defaults."
    rounds = int(chance.row["rounds"].iloc[0])
    ends = chance.events[chance.events["kind"] == "round_end"]
    assert list(ends["amount"]) == list(range(1, rounds + 1))


# ---- a new user's friction -------------------------------------------------------------------

def test_house_rules_write_nothing_to_stderr_outside_a_terminal(monosim):
    r = monosim("deal", "house-rules", "-n", "30")
    assert r.returncode == 0 and r.stderr == ""
    assert "| baseline |" in r.stdout and "| reshuffle_discards=false |" in r.stdout


def test_a_ladder_shows_its_progress_on_a_terminal(monkeypatch):
    import io
    import sys

    from sim.core.game import get
    from sim.core.ladder import play_ladder

    class Terminal(io.StringIO):
        def isatty(self):
            return True

    screen = Terminal()
    monkeypatch.setattr(sys, "stderr", screen)
    play_ladder(get("deal"), 2, games=30, progress=True)
    assert "tables" in screen.getvalue()


def test_value_tables_come_most_valuable_first(monosim):
    import json

    deal = json.loads(monosim("deal", "values", "-n", "60", "--players", "2", "--json").stdout)["results"]
    diffs = [c["diff"] for c in deal["cards"]]
    assert len(diffs) > 20 and diffs == sorted(diffs, reverse=True)
    card = json.loads(monosim("cardgame", "values", "-n", "60", "--json").stdout)["results"]["kinds"]
    scores = [k["goer_score_if_held"] for k in card if k["goer_score_if_held"] is not None]
    assert scores == sorted(scores, reverse=True)


def test_version_and_the_seats_the_default_table_fills(monosim):
    from sim import __version__

    r = monosim("--version")
    assert r.returncode == 0 and r.stdout.startswith(f"monosim {__version__}")
    r = monosim("deal", "simulate", "-n", "20", "--seat", "smart", "--seat", "aggressive", "--no-progress")
    assert r.returncode == 0
    assert "seats not given take the default table's bots (seat 2: aggressive, seat 3: banker)" in r.stderr
    r = monosim("deal", "simulate", "-n", "20", "--players", "2", "--seat", "smart", "--seat", "aggressive",
                "--no-progress")
    assert "default table" not in r.stderr
