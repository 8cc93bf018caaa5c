"""The bot mistakes and rule corners an outside audit found (issue 30), each as a scripted
scenario that failed before its fix."""

import pytest

from classic_harness import Table
from sim.classic.rules import ClassicRules


# ---- classic: strong lifts the mortgage on a street of its own complete group ----------------

@pytest.mark.parametrize("other_group_short", [False, True])
def test_strong_lifts_a_mortgage_on_its_own_complete_group(other_group_short):
    """A complete group with a mortgaged street can take no house: lifting that mortgage is what
    lets the group build, whether or not another of the bot's groups is still below build_to."""
    t = Table(["strong", "strong"])
    t.own(0, "Park Place", "Boardwalk")
    t.own(0, "Boardwalk", mortgaged=True)
    if other_group_short:
        t.own(0, "Mediterranean Avenue", "Baltic Avenue")
    t.set_cash(0, 2000)
    t.manage(0)
    assert not t.mortgaged("Boardwalk")
    t.check()


# ---- Chance: no Token on Free Parking once the Cash is placed ---------------------------------

def test_a_token_played_after_the_placement_that_ends_the_round_is_not_wasted_on_free_parking():
    """The 5 takes the empty P1 and triggers the round end; the 3 left over can take nothing.
    The held Token is offered again (the turn is the player's last of the round), but Free
    Parking only helps a card being placed, and placing is over: Just Visiting, which plays the
    12 from the discards onto P0, is the useful corner."""
    from chance_harness import Table as ChanceTable
    from test_chance_rules import board, pol, rules

    t = ChanceTable([pol(), pol()], rules(properties=board(2, 2), die=(2,)))
    t.deal(1)
    t.place(0, 1, "cash11")
    t.deal(0, draw=["cash5", "cash3"], held=["token"])
    t.turn(0)
    assert t.triggered
    assert t.corner("free_parking") == -1
    assert t.corner("just_visiting") == 0 and t.top(0) == (0, 12)
    assert t.invariants() == "ok"


# ---- Deal: no Forced Deal that hands the victim a set -----------------------------------------

@pytest.mark.parametrize("bot", ["smart", "set_builder", "aggressive"])
def test_a_forced_deal_never_hands_the_victim_a_set(bot):
    """Seat 1 holds two complete sets and two reds; seat 0's cheapest card to give is its one
    red, and seat 1's green would complete seat 0's greens. Giving the red completes seat 1's
    third set and loses the game at once: the bot keeps its Forced Deal for a better moment."""
    from deal_harness import Table as DealTable
    from test_deal_rules import _two_sets

    t = DealTable([bot, "set_builder"])
    _two_sets(t, 1)
    t.prop(1, "red", "red", "red")  # colour, then the cards: two reds
    t.prop(1, "green", "green")
    t.prop(0, "green", "green", "green")
    t.prop(0, "red", "red")
    t.hand(0, "forced_deal")
    t.empty_draw_pile()
    t.turn(0)
    assert t.complete_sets(1) == 2 and t.winner != 1
    assert t.invariants() == "ok"


# ---- the card game: every Chance card fills a gap, in scoring as in going out ------------------

@pytest.mark.parametrize("edition", ["wiki", "video"])
def test_a_complete_hand_with_three_chance_cards_scores_as_complete(edition):
    """Three Chance cards fill one brown gap and two light-blue gaps: `can_go_out` says the hand
    is complete, and whoever goes out scores it as the same hand with the real cards."""
    import numpy as np

    from sim.cardgame import layout as CL
    from sim.cardgame.board import can_go_out, hand_score
    from sim.cardgame.game import GAME as CARDGAME
    from sim.cardgame.rules import kind_of, pack as card_pack

    rules = CARDGAME.rules_from([f"edition={edition}", "deck.chance=3"])
    RB = card_pack(rules, 4)
    brown, light_blue = kind_of("brown"), kind_of("light_blue")
    need = {c: int(RB[CL.R_SIZE + c]) for c in (brown, light_blue)}
    with_chance = np.zeros(CL.NK, np.int32)
    with_chance[brown], with_chance[light_blue], with_chance[CL.K_WILD] = 1, 1, need[brown] + need[light_blue] - 2
    assert with_chance[CL.K_WILD] == 3 and can_go_out(with_chance, 0, RB)
    real = np.zeros(CL.NK, np.int32)
    real[brown], real[light_blue] = need[brown], need[light_blue]
    P, Q = np.zeros(4, np.int64), np.zeros(4, np.int64)
    assert hand_score(with_chance, 0, RB, True, P) == hand_score(real, 0, RB, True, Q) > 0
    assert with_chance[brown] == 1 and with_chance[light_blue] == 1  # the hand is left as it was


# ---- Deal: a rent played with Double the Rent is two plays -------------------------------------

def test_deal_plays_count_every_card_played_a_double_the_rent_too():
    """The per-seat `plays` equals the cards each seat played on its own turns, read from the
    replay's events: a rent doubled counts its Double the Rent as a play of its own."""
    from sim.core.replay import replay

    played = {"bank", "place", "rent", "double_rent", "charge", "pass_go", "sly_deal", "forced_deal",
              "deal_breaker", "build"}
    doubles = 0
    for g in range(60):
        r = replay("deal", g, seed=12, check=False)
        own = r.events[r.events["seat"] == r.events.groupby("turn")["seat"].transform("first")]
        counts = own[own["kind"].isin(played)].groupby("seat").size()
        doubles += int((r.events["kind"] == "double_rent").sum())
        for s in range(4):
            assert r.row.iloc[0][f"plays_{s}"] == counts.get(s, 0), (g, s)
    assert doubles > 0


# ---- classic rule corners ---------------------------------------------------------------------

def test_with_no_minimum_bid_a_deed_nobody_bids_on_stays_with_the_bank():
    """auction_min_bid=0: players who will pay nothing have not bid; the deed is not given away."""
    from test_classic_rules import PASSIVE

    t = Table([PASSIVE, PASSIVE], ClassicRules(auction_min_bid=0))
    t.land(0, "Boardwalk")
    assert t.owner("Boardwalk") == -1 and t.cash(0) == t.cash(1) == 1500
    t.check()


def test_with_no_minimum_bid_a_lone_bidder_pays_one_dollar():
    from test_classic_rules import PASSIVE

    t = Table(["three_houses reserve=1300 bid=0.9", PASSIVE], ClassicRules(auction_min_bid=0))
    t.land(0, "Boardwalk")
    assert t.owner("Boardwalk") == 0 and t.cash(0) == 1500 - 1
    t.check()


@pytest.mark.parametrize("name", ["Just Visiting", "just visiting", "Jail / Just Visiting", "10"])
def test_position_files_take_the_names_the_landing_table_prints(name):
    from sim.classic.rules import JAIL_SQUARE, square_index

    assert square_index(ClassicRules(), name) == JAIL_SQUARE


def test_a_building_shortage_is_auctioned_when_the_players_together_want_more_than_the_bank_has():
    """Three houses left; seat 0 can pay for two on its browns, seat 1 wants more for its light
    blues. Seat 0 alone does not exhaust the bank, but together they want more than it has: the
    houses go by auction, one at a time, from seat 0's window on."""
    from sim.classic import layout as CL
    from test_classic_rules import BUYER

    t = Table([BUYER, BUYER])
    t.own(0, "Mediterranean Avenue", "Baltic Avenue")
    t.own(1, "Oriental Avenue", "Vermont Avenue", "Connecticut Avenue")
    t.set_supply(houses=3)
    t.set_cash(0, 100)
    before = t.total_money()
    t.manage(0)
    assert t.S[CL.G_SHORTAGE_AUCTIONS] > 0
    assert t.total_money() == before
    t.check()


# ---- Deal: a card beyond a full set is not part of it, for Sly Deal as for Deal Breaker -------

def test_a_card_beyond_a_full_set_can_be_taken_by_sly_deal_as_deal_breaker_leaves_it():
    """Seat 1's reds hold three red cards and a red-yellow wild: a complete set and one card
    beyond it. Deal Breaker takes the three reds and leaves the wild, so the wild is not part of
    the set: Sly Deal may take it (and the set stays complete), but not a card of the set."""
    from deal_harness import Table as DealTable
    from test_deal_rules import NO_JSN

    t = DealTable([NO_JSN, NO_JSN])
    t.prop(1, "red", "red", "red", "red", "wild_red_yellow")
    t.hand(0, "sly_deal", "sly_deal")
    assert not t.play(0, "sly_deal", "action", ("red", "prop", 1), 0, 1)
    assert t.play(0, "sly_deal", "action", ("wild_red_yellow", "prop", 1), 0, 1)
    assert t.complete_sets(1) == 1 and "wild_red_yellow" in t.group(0, "yellow") + t.group(0, "red")
    assert t.invariants() == "ok"
    t2 = DealTable([NO_JSN, NO_JSN])
    t2.prop(1, "red", "red", "red", "red", "wild_red_yellow")
    t2.hand(0, "deal_breaker")
    assert t2.play(0, "deal_breaker", "action", "red", 0, 1)
    assert t2.group(1, "red") == ["wild_red_yellow"] and t2.complete_sets(0) == 1
