"""Randomized Monopoly Deal games under every house-rule combination, checked for invariants.

Every game runs with the kernel's invariant check on (``check=True``): after every play and
every turn all cards must be accounted for (each in exactly one list, its recorded place
matching), bank and group totals and the complete-set cache must be right, wilds and
buildings must stand where they may, and the value paid must equal the value collected; a
broken invariant makes ``simulate`` raise. On top of that these tests check finished
games from outside the kernel:

- per game (API table): the winner holds the sets needed and an unwon game stalled or hit the
  turn limit; seat turns add up; money paid equals money collected; plays fit the turns;
- per game (final state, recounted in Python): every card of the game sits in exactly one
  place, banks and collections hold only what they may.

All 2^7 combinations of the yes/no house rules times the 2 x 3 choices are played; hypothesis
adds random tables, numbers (plays, hand limit, sets to win, ...), shared-deck changes and
per-seat extra cards.
"""

import itertools

import numpy as np
import pytest
from deal_harness import Table
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sim.deal import kernel
from sim.deal.game import GAME
from sim.deal import layout as L
from sim.deal.rules import (
    BROKEN_CHOICES,
    EXCESS_CHOICES,
    HOUSE_CHOICES,
    HOUSE_RULE_DOC,
    PROPERTY,
    WILD,
    WILD_ANY,
    DealRules,
)

BOOL_RULES = tuple(k for k in HOUSE_RULE_DOC if k not in HOUSE_CHOICES)
assert len(BOOL_RULES) == 7
POLICIES = (
    "random",
    "random p_stop=0",
    "random p_stop=0.5",
    "smart",
    "smart jsn_stake=0 threat=3",
    "banker",
    "set_builder",
    "set_builder jsn_stake=0 pay_keep=0",
    "aggressive",
    "aggressive min_charge=0 double_min=0 jsn_stake=0",
)


def check_table(df, rules: DealRules, players: int):
    """Game-level properties of an API result table."""
    seat = lambda name: np.stack([df[f"{name}_{s}"].to_numpy() for s in range(players)], axis=1)  # noqa: E731
    winner = df["winner"].to_numpy()
    win = seat("win")
    assert ((winner >= -1) & (winner < players)).all()
    np.testing.assert_array_equal(win, (winner[:, None] == np.arange(players)).astype(float))
    sets = seat("sets")
    won = winner >= 0
    assert (sets[won, winner[won]] >= rules.sets_to_win).all()
    stalled = df["stalled"].to_numpy() == 1
    capped = df["hit_turn_limit"].to_numpy() == 1
    assert (won ^ (stalled | capped)).all() and not (stalled & capped).any()
    turns = df["turns"].to_numpy()
    assert (seat("turns").sum(axis=1) == turns).all()
    assert (turns <= rules.max_turns).all() and (turns[capped] == rules.max_turns).all()
    if not rules.house.win_on_any_turn:
        assert (df["won_on_own_turn"].to_numpy()[won] == 1).all()
    assert (df["won_on_own_turn"].to_numpy()[~won] == 0).all()
    # No money created or lost: every payment is counted once on each side.
    assert (seat("paid").sum(axis=1) == seat("collected").sum(axis=1)).all()
    assert (seat("rent_paid").sum(axis=1) == seat("rent_collected").sum(axis=1)).all()
    assert (seat("rent_paid") <= seat("paid")).all() and (seat("rent_collected") <= seat("collected")).all()
    assert (seat("plays") <= rules.plays_per_turn * seat("turns")).all()
    assert (seat("double_rent_played") <= rules.max_doubles * seat("rent_played")).all()
    assert (seat("sets") <= seat("sets_made")).all()
    assert (seat("sets") <= L.NC).all()


def check_final_state(t: Table):
    """Recount the final state of a game in Python."""
    S, RB = t.S, t.RB
    n_cards = len(t.names)
    places = []
    places += [int(S[L.DRAW_PILE + k]) for k in range(S[L.DRAW_N])]
    places += [int(S[L.DISC_PILE + k]) for k in range(S[L.DISC_N])]
    for p in range(t.n):
        places += [int(S[L.HAND_ + p * L.MAX_HAND + k]) for k in range(S[L.HAND_N + p])]
        bank = [int(S[L.BANK_ + p * L.MAX_CARDS + k]) for k in range(S[L.BANK_N + p])]
        assert all(RB[L.R_CARD_TYPE + c] not in (PROPERTY, WILD, WILD_ANY) for c in bank)
        assert sum(int(RB[L.R_CARD_VALUE + c]) for c in bank) == S[L.BANK_VAL + p]
        places += bank
        for g in range(L.NG):
            gidx = p * L.NG + g
            cards = [int(S[L.GRP + gidx * L.MAX_GROUP + k]) for k in range(S[L.GRP_N + gidx])]
            assert all(RB[L.R_CARD_TYPE + c] in (PROPERTY, WILD, WILD_ANY) for c in cards)
            places += cards
        for c in range(L.NC):
            for slot in (L.HOUSE, L.HOTEL):
                if S[slot + p * L.NC + c] >= 0:
                    places.append(int(S[slot + p * L.NC + c]))
    assert sorted(places) == list(range(n_cards)), "a card is lost or duplicated"


# ---------------------------------------------------------------------------------------------
# Every combination of the house rules

CHOICE_COMBOS = list(itertools.product(EXCESS_CHOICES, BROKEN_CHOICES))
BOOL_COMBOS = list(itertools.product([False, True], repeat=len(BOOL_RULES)))


@pytest.mark.parametrize("excess, broken", CHOICE_COMBOS)
def test_every_house_rule_combination_plays_clean_games(excess, broken):
    totals = {}
    for index, combo in enumerate(BOOL_COMBOS):
        players = 2 + index % 4
        seats = [POLICIES[(index + 3 * s) % len(POLICIES)] for s in range(players)]
        rules = DealRules().replace(excess_discards=excess, broken_set_buildings=broken, **dict(zip(BOOL_RULES, combo)))
        df = GAME.simulate(8, players, seats, rules, seed=index, check=True)
        check_table(df, rules, players)
        for col in L.SEAT_COLS:
            totals[col] = totals.get(col, 0) + sum(int(df[f"{col}_{s}"].sum()) for s in range(players))
        totals["won_on_another_turn"] = totals.get("won_on_another_turn", 0) + int(
            ((df["winner"] >= 0) & (df["won_on_own_turn"] == 0)).sum()
        )
        totals["reshuffles"] = totals.get("reshuffles", 0) + int(df["reshuffles"].sum())
    # The checked games went through every kind of event.
    for col in L.SEAT_COLS + ("won_on_another_turn", "reshuffles"):
        if col != "win":
            assert totals[col] > 0, col
    # And a few whole games recounted from their final state.
    t = Table(list(POLICIES[:4]), DealRules().replace(excess_discards=excess, broken_set_buildings=broken))
    for game in range(4):
        out = t.play_game(seed=7, game=game)
        assert out["status"] == kernel.OK
        check_final_state(t)


# ---------------------------------------------------------------------------------------------
# Random tables, numbers and decks

DECK_CHANGES = ("just_say_no", "deal_breaker", "wild_any", "house", "hotel", "double_rent", "money10", "pass_go", "red", "rent_any")
EXTRA_CARDS = ("just_say_no", "deal_breaker", "sly_deal", "wild_any", "wild_red_yellow", "money1", "money5", "house", "green")


@st.composite
def configs(draw):
    players = draw(st.integers(2, 5))
    seats = draw(st.lists(st.sampled_from(POLICIES), min_size=players, max_size=players))
    house = {k: draw(st.booleans()) for k in BOOL_RULES}
    house["excess_discards"] = draw(st.sampled_from(EXCESS_CHOICES))
    house["broken_set_buildings"] = draw(st.sampled_from(BROKEN_CHOICES))
    deck = dict(DealRules().deck)
    for name in draw(st.lists(st.sampled_from(DECK_CHANGES), max_size=3)):
        deck[name] = draw(st.integers(0, 5))
    numbers = dict(
        plays_per_turn=draw(st.integers(1, 4)),
        hand_limit=draw(st.integers(3, 10)),
        sets_to_win=draw(st.integers(1, 4)),
        start_hand=draw(st.integers(2, 7)),
        draw=draw(st.integers(0, 3)),
        max_doubles=draw(st.integers(0, 2)),
        max_turns=draw(st.sampled_from([5, 60, 1000])),
    )
    rules = DealRules().replace(deck=deck, **numbers, **house)
    edits = draw(
        st.dictionaries(
            st.integers(0, players - 1),
            st.dictionaries(st.sampled_from(EXTRA_CARDS), st.integers(1, 2), max_size=2),
            max_size=players,
        )
    )
    return players, seats, rules, edits, draw(st.integers(0, 2**31))


@settings(max_examples=60, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(configs())
def test_random_tables_and_rule_variants_play_clean_games(config):
    players, seats, rules, edits, seed = config
    df = GAME.simulate(20, players, seats, rules, seed=seed, check=True, deck_edits=edits)
    check_table(df, rules, players)
    t = Table(seats, rules, deck_edits=edits)
    out = t.play_game(seed=seed, game=0)
    assert out["status"] == kernel.OK
    check_final_state(t)


# ---------------------------------------------------------------------------------------------
# Statistical checks (fixed seeds)


def test_the_strong_bots_beat_random_play():
    df = GAME.simulate(400, 4, ["smart", "random", "random", "random"], seed=3, check=True)
    assert df["win_0"].mean() > 0.6


def test_extra_just_say_no_cards_help_their_seat():
    """Two extra Just Say No cards in seat 0's opening hand must raise its win rate: the same
    game seeds with and without the edit, compared with 3 standard errors of the paired
    difference."""
    seats = ["smart", "smart", "smart"]
    n = 1500
    base = GAME.simulate(n, 3, seats, seed=21)["win_0"].to_numpy()
    more = GAME.simulate(n, 3, seats, seed=21, deck_edits={0: {"just_say_no": 2}})["win_0"].to_numpy()
    diff = more - base
    assert diff.mean() > 3 * diff.std(ddof=1) / np.sqrt(n)


def test_playing_the_hand_out_pays(long_run):
    # empty_hand (6 by default) makes a heuristic bot bank a card it would keep, rather than end
    # its turn, when every card left can still be played: a turn that starts with an empty hand
    # draws 5 instead of 2. Default smart against smart with the option off, in seat 0 of the
    # default table, the same games: +1.0 +- 0.2 points at 40,000 games (seed 5), +0.9 +- 0.4 at
    # this test's 8,000. The paired 95% interval must lie above zero; it is zero if the default is 0.
    n = 40000 if long_run else 8000
    seats = ["set_builder", "aggressive", "banker"]
    on = GAME.simulate(n, 4, ["smart", *seats], seed=7, threads=1)["win_0"].to_numpy(float)
    off = GAME.simulate(n, 4, ["smart empty_hand=0", *seats], seed=7, threads=1)["win_0"].to_numpy(float)
    d = on - off
    assert d.mean() - 1.96 * d.std(ddof=1) / np.sqrt(n) > 0


@pytest.mark.parametrize(
    "house",
    [{}, {"broken_set_buildings": "any_turn", "pay_with_buildings": True, "complete_needs_property": False}],
)
def test_skipped_work_would_change_nothing(house):
    # The kernel skips planning a seat's wilds, and repairing its collection, while the seat's
    # collection is unchanged since a pass that changed nothing; the bots remember what placing
    # each card name would gain while its placing_key is unchanged. At every turn's end, a
    # fresh pass for each seat so marked must indeed change nothing, and every remembered gain
    # must equal a fresh best_colour. Placing an ordinary property of a colour none of the seat's
    # planned wilds may stand in keeps the plan marked as moving nothing: every placement of an
    # ordinary property from a hand is made on a copy, and when so marked, planned and
    # repaired anyway. A remembered Sly / Forced Deal option must equal a fresh one. A card
    # joining a collection keeps it marked as repaired (kernel.keep_repaired) unless an
    # any-colour wild waits in LOOSE, and so does one leaving (kernel.keep_repaired_leaving)
    # unless a wild or a building may now stand where it may not: the games rarely or never
    # reach the cases that need a repair, so those are played last.
    from strategies.deal import (
        M_PLACE,
        best_colour,
        find_steal,
        placing_key,
        plan_arrangement,
        steal_key,
    )

    def plan_moves_nothing(S, p):
        n = plan_arrangement(t.pp, p, S, t.rng)
        return all(S[L.GROUP + S[L.SCRATCH2 + k]] == S[L.SCRATCH3 + k] for k in range(n))

    rules = DealRules().replace(**house)
    checked = 0
    remembered = 0
    placed = 0
    steals = 0
    for seed in range(12):
        t = Table(["smart", "set_builder", "aggressive", "banker"], rules=rules, seed=seed)
        S, RB = t.S, t.RB
        kernel.setup_game(S, t.rng)
        for turn in range(400):
            t.turn(turn % t.n)
            assert t.status() == "ok"
            for p in range(t.n):
                if S[L.ARRANGED_VER + p] == S[L.COLL_VER + p]:
                    assert plan_moves_nothing(S, p)
                    checked += 1
                    for k in range(S[L.HAND_N + p]):
                        card = S[L.HAND_ + p * L.MAX_HAND + k]
                        if RB[L.R_CARD_TYPE + card] != PROPERTY:
                            continue
                        after = S.copy()
                        assert kernel.play_card(after, t.pp, t.rng, p, k, M_PLACE, RB[L.R_CARD_C1 + card], 0, 0)
                        if after[L.ARRANGED_VER + p] != after[L.COLL_VER + p]:
                            continue  # the placement may change the plan
                        assert plan_moves_nothing(after, p)
                        ver = after[L.COLL_VER + p]
                        after[L.REPAIRED_VER + p] = -1
                        kernel.repair(after, p, True)
                        assert after[L.COLL_VER + p] == ver  # every card move counts
                        placed += 1
                if S[L.REPAIRED_VER + p] == S[L.COLL_VER + p]:
                    before = S.copy()
                    S[L.REPAIRED_VER + p] = -1
                    kernel.repair(S, p, turn % t.n == p)
                    np.testing.assert_array_equal(S, before)
                    checked += 1
                gains = S.view(np.float64)
                for card in range(len(t.names)):
                    i = p * L.MEMO_KINDS + RB[L.R_CARD_KIND + card]
                    if RB[L.R_CARD_TYPE + card] in (PROPERTY, WILD, WILD_ANY) and S[L.PLACE_MEMO_VER + i] == placing_key(S, p, card) + 1:
                        c, g = best_colour(S, t.pp, p, card)
                        assert (S[L.PLACE_MEMO_COLOUR + i], gains[L.PLACE_MEMO_GAIN // 2 + i]) == (c, g)
                        remembered += 1
                for forced in (0, 1):
                    m = L.STEAL_MEMO + (2 * p + forced) * L.STEAL_MEMO_SIZE
                    if S[m] == steal_key(S) + 1:
                        best = find_steal(S.copy(), t.pp, p, bool(forced))  # a copy: it fills the placing memo
                        assert (L.load_float(S, m + 1), S[m + 3], S[m + 4], S[m + 5]) == best
                        steals += 1
            if t.winner >= 0:
                break
    assert checked > 500 and remembered > 500 and placed > 200 and steals > 10

    # Seat 1's any-colour wild waits in LOOSE (no ordinary property to stand with) and its
    # collection is marked as repaired; seat 0 pays it with an ordinary brown property, so the
    # repair after the payment must bring the wild home.
    t = Table(["smart", "smart"], rules=rules)
    t.prop(1, "loose", "wild_any")
    kernel.repair(t.S, 1, False)
    assert t.S[L.REPAIRED_VER + 1] == t.S[L.COLL_VER + 1]
    t.prop(0, "brown", "brown")
    t.collect(0, 1, 1)
    assert t.group(1, "brown") == ["brown", "wild_any"] and t.group(1, "loose") == []
    # Cards put where the kernel never puts them (an any-colour wild without an ordinary
    # property, in LOOSE while a colour has one; a House on an incomplete set, a Hotel without
    # a House) after a repair that found nothing: the next repair must still move them.
    cases = (("red", "wild_any", 1), ("loose", "wild_any", 1), ("brown", "house", 1), ("brown", "hotel", 2))
    for col, name, browns in cases:
        t = Table(["smart", "smart"], rules=rules)
        t.prop(1, "brown", *["brown"] * browns)
        kernel.repair(t.S, 1, False)
        assert t.S[L.REPAIRED_VER + 1] == t.S[L.COLL_VER + 1]
        if name in ("house", "hotel"):
            t.build(1, col, name)
        else:
            t.prop(1, col, name)
        kernel.repair(t.S, 1, False)
        if name == "house":
            moved = not t.house(1, col)
        elif name == "hotel":
            moved = not t.hotel(1, col)
        else:
            moved = name not in t.group(1, col)
        assert moved and t.invariants() == "ok", (col, name)
