"""Scripted scenarios, one rule at a time, for the Monopoly Deal engine.

Each test sets up an exact table with tests/deal_harness.py (cards placed by name), runs one
rule function of the kernel and checks the exact outcome, then that every invariant still
holds. Rule quotes are from /work/shared/rules/monopoly-deal.txt.

Bot decisions are forced through policy parameters: ``NO_JSN`` never answers with Just Say
No, ``JSN`` always does when it holds one; payments use the heuristic payer unless a test
says otherwise.
"""

import collections

import numpy as np
import pytest
from deal_harness import Table, colour

from sim.deal import board, kernel
from sim.deal import layout as L
from sim.deal.rules import CATALOGUE, COLOURS, TYPE_NAMES, DealRules, card_spec, pack

NO_JSN = "set_builder jsn_stake=100"
JSN = "set_builder jsn_stake=0"


def rules(**changes):
    return DealRules().replace(**changes)


def ok(t):
    assert t.invariants() == "ok"
    assert t.status() == "ok"


# ---------------------------------------------------------------------------------------------
# The deck


def test_the_deck_is_the_106_cards_of_the_issue_table():
    r = DealRules()
    cards = [card_spec(n) for n, _ in r.deck_cards()]
    assert len(cards) == 106
    kinds = collections.Counter(TYPE_NAMES[t] for t, *_ in cards)
    assert kinds == {
        "property": 28, "wild": 9, "wild_any": 2, "rent": 10, "rent_any": 3, "money": 20,
        "deal_breaker": 2, "just_say_no": 3, "sly_deal": 3, "forced_deal": 3, "debt_collector": 3,
        "birthday": 3, "pass_go": 10, "double_rent": 2, "house": 3, "hotel": 2,
    }
    money = sorted(v for t, v, *_ in cards if TYPE_NAMES[t] == "money")
    assert money == [1] * 6 + [2] * 5 + [3] * 3 + [4] * 3 + [5] * 2 + [10]
    table = {c.name: (r.deck[c.name], c.value, c.rents) for c in COLOURS}
    assert table == {
        "brown": (2, 1, (1, 2)), "light_blue": (3, 1, (1, 2, 3)), "pink": (3, 2, (1, 2, 4)),
        "orange": (3, 2, (1, 3, 5)), "red": (3, 3, (2, 3, 6)), "yellow": (3, 3, (2, 4, 6)),
        "green": (3, 4, (2, 4, 7)), "dark_blue": (2, 4, (3, 8)), "railroad": (4, 2, (1, 2, 3, 4)),
        "utility": (2, 2, (1, 2)),
    }
    assert [c.name for c in COLOURS if not c.buildable] == ["railroad", "utility"]
    wilds = {n: (r.deck[n], CATALOGUE[n][1]) for n in r.deck if n.startswith("wild")}
    assert wilds == {
        "wild_dark_blue_green": (1, 4), "wild_green_railroad": (1, 4), "wild_light_blue_railroad": (1, 4),
        "wild_railroad_utility": (1, 2), "wild_light_blue_brown": (1, 1), "wild_pink_orange": (2, 2),
        "wild_red_yellow": (2, 3), "wild_any": (2, 0),
    }
    values = {n: CATALOGUE[n][1] for n in ("deal_breaker", "just_say_no", "sly_deal", "forced_deal",
                                            "debt_collector", "birthday", "pass_go", "double_rent",
                                            "house", "hotel", "rent_any", "rent_red_yellow")}
    assert values == {"deal_breaker": 5, "just_say_no": 4, "sly_deal": 3, "forced_deal": 3, "debt_collector": 3,
                      "birthday": 2, "pass_go": 1, "double_rent": 1, "house": 3, "hotel": 4, "rent_any": 3,
                      "rent_red_yellow": 1}
    assert sum(r.deck[n] for n in r.deck if n.startswith("rent_") and n != "rent_any") == 10


def test_setup_deals_five_each_and_a_seat_edit_adds_cards_to_its_hand():
    t = Table(["smart"] * 3, deck_edits={1: {"just_say_no": 2}})
    kernel.setup_game(t.S, t.rng)
    assert [len(t.hand_of(p)) for p in range(3)] == [5, 7, 5]
    assert t.hand_of(1).count("just_say_no") >= 2
    assert t.draw_n() == 106 - 15
    ok(t)
    with pytest.raises(ValueError, match="add cards to its opening hand"):
        pack(DealRules(), 3, {0: {"money1": -1}})


# ---------------------------------------------------------------------------------------------
# Drawing, playing, the hand limit


def test_a_turn_draws_two_or_five_on_an_empty_hand():
    t = Table(["banker p_stop=0", NO_JSN])
    t.hand(0, "money1")
    t.stack_draw("money2", "money3", "money4")
    t.set_param(0, "bank_weight", 0)  # plays nothing: every play scores zero
    t.pp[0, :] = 0
    t.turn(0)
    assert t.hand_of(0) == ["money1", "money2", "money3"]
    t2 = Table([NO_JSN, NO_JSN])
    t2.pp[0, :] = 0
    t2.stack_draw("money1", "money2", "money3", "money4", "money5", "money10")
    t2.turn(0)
    assert t2.hand_of(0) == ["money1", "money2", "money3", "money4", "money5"]
    ok(t2)


def test_at_most_three_plays_and_the_hand_limit_of_seven():
    t = Table(["banker", NO_JSN])
    t.hand(0, *(["money1"] * 6 + ["money2"] * 4))
    t.stack_draw("money3", "money4")
    t.turn(0)  # 12 cards: banks 3, discards down to 7
    assert len(t.bank_of(0)) == 3
    assert len(t.hand_of(0)) == 7
    assert len(t.discards()) == 2
    assert t.stat(0, "discarded") == 2 and t.stat(0, "plays") == 3
    ok(t)


def test_excess_discards_can_go_under_the_draw_pile():
    t = Table(["banker", NO_JSN], rules(excess_discards="draw_bottom"))
    t.hand(0, *(["money1"] * 6 + ["money2"] * 4))
    t.stack_draw("money3", "money4")
    before = t.draw_n()
    t.turn(0)
    assert t.discards() == []
    assert t.draw_n() == before - 2 + 2
    assert t.draw_bottom().startswith("money")
    ok(t)


def test_an_empty_draw_pile_is_rebuilt_from_the_discards():
    t = Table([NO_JSN, NO_JSN])
    t.pp[0, :] = 0
    t.hand(0, "money1")
    t.empty_draw_pile()
    n_disc = len(t.discards())
    t.turn(0)
    assert len(t.hand_of(0)) == 3
    assert t.draw_n() == n_disc - 2 and t.discards() == []
    assert t.S[L.G_RESHUFFLES] == 1
    ok(t)
    t = Table([NO_JSN, NO_JSN], rules(reshuffle_discards=False))
    t.pp[0, :] = 0
    t.hand(0, "money1")
    t.empty_draw_pile()
    t.turn(0)
    assert t.hand_of(0) == ["money1"]
    ok(t)


def test_bank_and_collection_plays():
    t = Table([NO_JSN, NO_JSN])
    t.hand(0, "money5", "sly_deal", "red", "wild_red_yellow", "wild_any", "just_say_no")
    assert t.play(0, "money5", "bank")
    assert t.play(0, "sly_deal", "bank")  # an action card for its value
    assert t.bank_value(0) == 8
    assert not t.play(0, "red", "bank")  # property cards never go to the bank
    assert not t.play(0, "wild_any", "place", "red")  # needs an ordinary red property first
    assert not t.play(0, "just_say_no", "action")  # no action of its own
    assert not t.play(0, "red", "place", "yellow")
    t.S[L.G_PLAYS_LEFT] = 3
    assert t.play(0, "red", "place", "red")
    assert t.play(0, "wild_any", "place", "red")
    assert t.play(0, "wild_red_yellow", "place", "red")
    assert t.group(0, "red") == ["red", "wild_any", "wild_red_yellow"]
    assert t.complete_sets(0) == 1
    assert t.stat(0, "sets_made") == 1
    ok(t)


def test_pass_go_draws_two():
    t = Table([NO_JSN, NO_JSN])
    t.hand(0, "pass_go")
    t.stack_draw("money1", "money2")
    assert t.play(0, "pass_go", "action")
    assert t.hand_of(0) == ["money1", "money2"]
    assert t.discards() == ["pass_go"]
    ok(t)


# ---------------------------------------------------------------------------------------------
# Rent, Double the Rent, buildings


def test_two_colour_rent_charges_every_opponent():
    t = Table([NO_JSN, NO_JSN, NO_JSN])
    t.prop(0, "red", "red", "red")
    t.hand(0, "rent_red_yellow")
    t.bank(1, "money3")
    t.bank(2, "money1", "money2", "money4")
    assert t.play(0, "rent_red_yellow", "action", "red")
    assert t.bank_value(0) == 6  # 3 from each: two red properties rent 3
    assert t.bank_of(1) == [] and t.bank_of(2) == ["money4"]
    assert t.stat(0, "rent_collected") == 6 and t.stat(2, "rent_paid") == 3
    ok(t)


def test_rent_needs_a_property_of_the_colour_charged():
    t = Table([NO_JSN, NO_JSN])
    t.hand(0, "rent_red_yellow", "rent_any")
    t.prop(0, "green", "green")
    assert not t.play(0, "rent_red_yellow", "action", "red")
    assert not t.play(0, "rent_red_yellow", "action", "green")  # not a colour of the card
    assert not t.play(0, "rent_any", "action", "green", 0, 0)  # cannot charge yourself
    assert t.play(0, "rent_any", "action", "green", 0, 1)
    ok(t)


@pytest.mark.parametrize("doubles, expected", [(0, 3), (1, 6), (2, 12)])
def test_double_the_rent_doubles_and_counts_as_a_play(doubles, expected):
    t = Table([NO_JSN, NO_JSN, NO_JSN])
    t.prop(0, "red", "red", "red")
    t.hand(0, "rent_any", "double_rent", "double_rent")
    t.bank(1, "money4")
    t.bank(2, "money10", "money5")
    assert t.play(0, "rent_any", "action", "red", doubles, 2)
    assert t.stat(2, "rent_paid") >= expected and t.stat(1, "rent_paid") == 0
    assert t.stat(2, "rent_paid") == {3: 5, 6: 10, 12: 15}[expected]  # no change given
    assert t.plays_left == 3 - 1 - doubles
    assert t.discards().count("double_rent") == doubles
    ok(t)


def test_double_the_rent_needs_a_play_left():
    t = Table([NO_JSN, NO_JSN])
    t.prop(0, "red", "red")
    t.hand(0, "rent_any", "double_rent")
    t.S[L.G_PLAYS_LEFT] = 1
    assert not t.play(0, "rent_any", "action", "red", 1, 1)


@pytest.mark.parametrize("replaces, expected", [(False, 7 + 3 + 4), (True, 7 + 4)])
def test_house_and_hotel_rent_by_edition(replaces, expected):
    t = Table([NO_JSN, NO_JSN], rules(hotel_replaces_house=replaces))
    t.prop(0, "green", "green", "green", "green")
    t.hand(0, "house", "hotel")
    assert board.rent_of(t.S, 0, colour("green")) == 7
    assert not t.play(0, "hotel", "action", "green")  # a Hotel needs a House
    assert t.play(0, "house", "action", "green")
    assert board.rent_of(t.S, 0, colour("green")) == 10
    assert t.play(0, "hotel", "action", "green")
    assert board.rent_of(t.S, 0, colour("green")) == expected
    ok(t)


def test_no_houses_on_railroads_utilities_or_incomplete_sets():
    t = Table([NO_JSN, NO_JSN])
    t.prop(0, "railroad", *["railroad"] * 4)
    t.prop(0, "red", "red", "red")
    t.hand(0, "house", "house")
    assert t.complete_sets(0) == 1
    assert not t.play(0, "house", "action", "railroad")
    assert not t.play(0, "house", "action", "red")
    t.prop(0, "red", "red")
    assert t.play(0, "house", "action", "red")
    assert not t.play(0, "house", "action", "red")  # one House per set
    ok(t)


# ---------------------------------------------------------------------------------------------
# Paying


def test_no_change_is_given():
    t = Table([NO_JSN, NO_JSN])
    t.bank(1, "money10")
    t.hand(0, "debt_collector")
    assert t.play(0, "debt_collector", "action", 0, 0, 1)
    assert t.bank_of(0) == ["money10"] and t.bank_of(1) == []
    assert t.stat(1, "paid") == 10 and t.stat(0, "collected") == 10
    ok(t)


def test_properties_paid_go_to_the_receivers_collection():
    t = Table(["smart", "smart"])
    t.bank(1, "money1")
    t.prop(1, "red", "red")
    t.prop(0, "yellow", "yellow", "yellow")
    t.prop(1, "red", "wild_red_yellow")
    t.collect(1, 0, 7)  # 1 + 3 + 3 = 7: everything
    assert t.group(0, "red") == ["red"]
    assert sorted(t.group(0, "yellow")) == ["wild_red_yellow", "yellow", "yellow"]  # the bot's choice
    assert t.bank_of(0) == ["money1"]
    assert t.group(1, "red") == [] and t.bank_of(1) == []
    ok(t)


def test_a_player_who_cannot_pay_gives_everything_and_the_any_colour_wild_stays():
    t = Table([NO_JSN, NO_JSN])
    t.bank(1, "money1")
    t.prop(1, "brown", "brown", "wild_any")
    t.hand(1, "money10")  # cards in hand never pay
    t.collect(1, 0, 5)
    assert t.bank_of(0) == ["money1"] and t.group(0, "brown") == ["brown"]
    assert t.group(1, "loose") == ["wild_any"]  # no value: cannot pay; no ordinary property left
    assert t.hand_of(1) == ["money10"]
    assert t.stat(1, "short_payments") == 1 and t.stat(1, "paid") == 2
    ok(t)


def test_the_heuristic_payer_keeps_sets_and_overpays_least():
    t = Table(["smart", "smart"])
    t.bank(1, "money1", "money3")
    t.prop(1, "dark_blue", "dark_blue", "dark_blue")
    t.prop(1, "brown", "brown")
    t.collect(1, 0, 3)
    assert t.bank_of(0) == ["money3"]
    assert t.bank_of(1) == ["money1"] and t.complete_sets(1) == 1 and t.group(1, "brown") == ["brown"]
    # Short of money: a lone property goes before a complete set.
    t.collect(1, 0, 2)
    assert t.group(1, "dark_blue") == ["dark_blue", "dark_blue"] and t.group(1, "brown") == []
    assert t.group(0, "brown") == ["brown"]
    ok(t)


def test_the_random_payer_covers_the_debt():
    for seed in range(20):
        t = Table(["random", "random"], seed=seed)
        t.bank(1, "money1", "money2", "money3", "money5")
        t.prop(1, "green", "green", "green")
        t.collect(1, 0, 6)
        assert t.stat(1, "paid") >= 6
        ok(t)


def test_birthday_charges_every_opponent_two():
    t = Table([NO_JSN] * 4)
    t.hand(0, "birthday")
    t.bank(1, "money2")
    t.bank(2, "money1")
    t.bank(3, "money5")
    assert t.play(0, "birthday", "action")
    assert sorted(t.bank_of(0)) == ["money1", "money2", "money5"]
    assert t.stat(2, "short_payments") == 1
    ok(t)


# ---------------------------------------------------------------------------------------------
# Just Say No


def test_just_say_no_cancels_an_action_aimed_at_you():
    t = Table([NO_JSN, JSN])
    t.hand(0, "debt_collector")
    t.hand(1, "just_say_no")
    t.bank(1, "money5")
    assert t.play(0, "debt_collector", "action", 0, 0, 1)
    assert t.bank_of(1) == ["money5"] and t.bank_of(0) == []
    assert sorted(t.discards()) == ["debt_collector", "just_say_no"]
    assert t.stat(1, "just_say_no_played") == 1 and t.stat(0, "actions_blocked") == 1
    ok(t)


@pytest.mark.parametrize("jsn0, jsn1, blocked", [(0, 1, True), (1, 1, False), (1, 2, True), (2, 2, False), (0, 0, False)])
def test_just_say_no_chains(jsn0, jsn1, blocked):
    t = Table([JSN, JSN], rules(deck={**DealRules().deck, "just_say_no": 4}))
    t.hand(0, "debt_collector", *["just_say_no"] * jsn0)
    t.hand(1, *["just_say_no"] * jsn1)
    t.bank(1, "money5")
    assert t.play(0, "debt_collector", "action", 0, 0, 1)
    assert (t.bank_value(0) == 0) == blocked
    played = t.stat(0, "just_say_no_played") + t.stat(1, "just_say_no_played")
    assert played == (min(jsn0, jsn1) * 2 + (1 if jsn1 > jsn0 else 0))
    assert t.plays_left == 2  # countering on your own turn uses no play (default)
    ok(t)


def test_a_counter_just_say_no_can_be_made_to_use_a_play():
    t = Table([JSN, JSN], rules(counter_uses_play=True))
    t.hand(0, "debt_collector", "just_say_no")
    t.hand(1, "just_say_no")
    t.bank(1, "money5")
    t.S[L.G_PLAYS_LEFT] = 1
    assert t.play(0, "debt_collector", "action", 0, 0, 1)
    assert t.bank_value(0) == 0 and t.hand_of(0) == ["just_say_no"]  # no play left to counter
    t = Table([JSN, JSN], rules(counter_uses_play=True))
    t.hand(0, "debt_collector", "just_say_no")
    t.hand(1, "just_say_no")
    t.bank(1, "money5")
    assert t.play(0, "debt_collector", "action", 0, 0, 1)
    assert t.bank_value(0) == 5 and t.plays_left == 1


def test_just_say_no_on_rent_protects_only_its_player_and_blocks_the_double_too():
    t = Table([NO_JSN, JSN, JSN])
    t.prop(0, "red", "red", "red")
    t.hand(0, "rent_red_yellow", "double_rent")
    t.hand(1, "just_say_no")
    t.bank(1, "money10")
    t.bank(2, "money2", "money4")
    assert t.play(0, "rent_red_yellow", "action", "red", 1)
    assert t.bank_value(1) == 10  # blocked rent and double
    assert t.bank_value(2) == 0 and t.bank_value(0) == 6  # 3 doubled
    ok(t)


# ---------------------------------------------------------------------------------------------
# Sly Deal, Forced Deal, Deal Breaker


def test_sly_deal_takes_a_property_but_never_from_a_complete_set():
    t = Table([NO_JSN, NO_JSN])
    t.prop(1, "red", "red")
    t.prop(1, "dark_blue", "dark_blue", "dark_blue")
    t.hand(0, "sly_deal", "sly_deal")
    assert not t.play(0, "sly_deal", "action", ("dark_blue", "prop", 1), 0, 1)
    assert t.play(0, "sly_deal", "action", ("red", "prop", 1), 0, 1)
    assert t.group(0, "red") == ["red"] and t.group(1, "red") == []
    assert t.stat(1, "properties_lost") == 1
    ok(t)


def test_forced_deal_swaps_and_respects_complete_sets():
    t = Table([NO_JSN, NO_JSN])
    t.prop(0, "brown", "brown")
    t.prop(0, "dark_blue", "dark_blue", "dark_blue")
    t.prop(1, "red", "red")
    t.hand(0, "forced_deal", "forced_deal")
    assert not t.play(0, "forced_deal", "action", ("red", "prop", 1), ("dark_blue", "prop", 0), 1)
    assert t.play(0, "forced_deal", "action", ("red", "prop", 1), ("brown", "prop", 0), 1)
    assert t.group(0, "red") == ["red"] and t.group(1, "brown") == ["brown"]
    ok(t)
    t = Table([NO_JSN, NO_JSN], rules(forced_deal_from_own_set=True))
    t.prop(0, "dark_blue", "dark_blue", "dark_blue")
    t.prop(1, "red", "red")
    t.hand(0, "forced_deal")
    assert t.play(0, "forced_deal", "action", ("red", "prop", 1), ("dark_blue", "prop", 0), 1)
    assert t.group(1, "dark_blue") == ["dark_blue"] and t.complete_sets(0) == 0
    ok(t)


def test_deal_breaker_takes_a_complete_set_with_its_buildings():
    t = Table([NO_JSN, NO_JSN])
    t.prop(1, "green", "green", "green", "green")
    t.build(1, "green", "house", "hotel")
    t.prop(1, "red", "red")
    t.hand(0, "deal_breaker", "deal_breaker")
    assert not t.play(0, "deal_breaker", "action", "red", 0, 1)  # not a complete set
    assert t.play(0, "deal_breaker", "action", "green", 0, 1)
    assert t.group(0, "green") == ["green"] * 3 and t.house(0, "green") and t.hotel(0, "green")
    assert t.group(1, "green") == [] and not t.house(1, "green") and not t.hotel(1, "green")
    assert t.complete_sets(0) == 1 and t.stat(1, "properties_lost") == 3
    ok(t)


def test_deal_breaker_leaves_the_extras_and_a_second_house_goes_to_the_bank():
    t = Table([NO_JSN, NO_JSN], rules(deck={**DealRules().deck, "yellow": 7}))
    t.prop(1, "yellow", "yellow", "yellow", "yellow", "yellow")
    t.build(1, "yellow", "house")
    t.prop(0, "yellow", "yellow", "yellow", "yellow")
    t.build(0, "yellow", "house")
    t.hand(0, "deal_breaker")
    assert t.play(0, "deal_breaker", "action", "yellow", 0, 1)
    assert t.group(0, "yellow") == ["yellow"] * 6
    assert t.group(1, "yellow") == ["yellow"]
    assert t.house(0, "yellow") and t.bank_of(0) == ["house"]
    assert t.complete_sets(0) == 1  # two yellow sets still count once
    ok(t)


def test_just_say_no_against_deal_breaker_from_the_smart_bot():
    t = Table([NO_JSN, "smart jsn_stake=100"])
    t.prop(1, "green", "green", "green", "green")
    t.hand(1, "just_say_no")
    t.hand(0, "deal_breaker")
    assert t.play(0, "deal_breaker", "action", "green", 0, 1)
    assert t.complete_sets(1) == 1 and t.group(0, "green") == []


@pytest.mark.parametrize("action", ["sly_deal", "forced_deal"])
def test_the_smart_bot_blocks_any_steal_and_forces_its_own_through(action):
    # A lone brown is worth far less than jsn_stake=100, yet smart answers a steal of it both ways.
    t = Table([NO_JSN, "smart jsn_stake=100"])
    t.prop(0, "red", "red")
    t.prop(1, "brown", "brown")
    t.hand(0, action)
    t.hand(1, "just_say_no")
    mine = ("red", "prop", 0) if action == "forced_deal" else 0
    assert t.play(0, action, "action", ("brown", "prop", 1), mine, 1)
    assert t.group(1, "brown") == ["brown"] and t.stat(1, "just_say_no_played") == 1
    t = Table(["smart jsn_stake=100", JSN])
    t.prop(0, "red", "red")
    t.prop(1, "brown", "brown")
    t.hand(0, action, "just_say_no")
    t.hand(1, "just_say_no")
    assert t.play(0, action, "action", ("brown", "prop", 1), mine, 1)
    assert t.group(0, "brown") == ["brown"] and t.stat(0, "just_say_no_played") == 1
    ok(t)


# ---------------------------------------------------------------------------------------------
# Buildings on a broken set


def _broken(rule, current, yellow=True):
    t = Table(["smart", "smart"], rules(broken_set_buildings=rule), current=current)
    t.prop(1, "red", "red", "red", "red")
    t.build(1, "red", "house", "hotel")
    if yellow:
        t.prop(1, "yellow", "yellow", "yellow", "yellow")
    return t


@pytest.mark.parametrize("rule, moved", [("own_turn", False), ("bank", False), ("any_turn", True)])
def test_buildings_of_a_set_broken_by_a_payment(rule, moved):
    # Off the debtor's turn the buildings go to its bank, unless the rule lets them move now.
    t = _broken(rule, current=0)
    t.set_param(1, "pay_keep", 0)  # pays in table order: a red card goes first
    t.collect(1, 0, 3)
    assert len(t.group(1, "red")) == 2 and not t.house(1, "red") and not t.hotel(1, "red")
    assert (t.house(1, "yellow") and t.hotel(1, "yellow")) == moved
    assert (sorted(t.bank_of(1)) == ["hotel", "house"]) == (not moved)
    ok(t)


def test_buildings_move_to_another_set_when_the_rule_allows_it_now():
    for rule, current, moved in (("any_turn", 0, True), ("own_turn", 1, True), ("own_turn", 0, False), ("bank", 1, False)):
        t = _broken(rule, current)
        c = t.card("red", "prop", 1)
        kernel.take_out(t.S, c)
        kernel.to_discard(t.S, c)
        kernel.repair(t.S, 1, current == 1)
        assert t.house(1, "yellow") == moved and t.hotel(1, "yellow") == moved, (rule, current)
        assert (sorted(t.bank_of(1)) == ["hotel", "house"]) == (not moved)
        assert not t.house(1, "red")
        ok(t)


def test_paying_with_buildings_is_a_house_rule():
    t = Table(["smart", "smart"], rules(pay_with_buildings=True))
    t.prop(1, "green", "green", "green", "green")
    t.build(1, "green", "house", "hotel")
    t.collect(1, 0, 4)  # the Hotel (4) is cheaper to give than breaking the set
    assert t.bank_of(0) == ["hotel"] and t.house(1, "green") and not t.hotel(1, "green")
    ok(t)


# ---------------------------------------------------------------------------------------------
# Wilds


def test_any_colour_wild_moves_when_its_ordinary_property_leaves():
    t = Table([NO_JSN, NO_JSN])
    t.prop(1, "red", "red")
    t.prop(1, "red", "wild_any")
    t.hand(0, "sly_deal", "sly_deal")
    assert t.play(0, "sly_deal", "action", ("red", "prop", 1), 0, 1)
    assert t.group(1, "loose") == ["wild_any"]
    ok(t)
    t.prop(1, "pink", "pink")
    kernel.repair(t.S, 1, False)
    assert t.group(1, "pink") == ["pink", "wild_any"]
    ok(t)


def test_wild_only_sets_are_not_complete_unless_the_house_rule_says_so():
    deck = {**DealRules().deck, "wild_pink_orange": 3}
    for needs, complete in ((True, 0), (False, 1)):
        t = Table([NO_JSN, NO_JSN], rules(deck=deck, complete_needs_property=needs))
        t.prop(0, "pink", *["wild_pink_orange"] * 3)
        assert t.complete_sets(0) == complete
        ok(t)


def test_the_smart_bot_rearranges_wilds_on_its_own_turn_to_complete_a_set():
    t = Table(["smart", NO_JSN])
    t.prop(0, "yellow", "yellow", "yellow", "wild_red_yellow", "wild_red_yellow")
    t.prop(0, "red", "red", "red")
    assert t.complete_sets(0) == 1
    kernel.apply_arrangement(t.S, t.pp, t.rng, 0)
    assert t.complete_sets(0) == 2
    assert t.group(0, "red") == ["red", "red", "wild_red_yellow"]
    ok(t)


# ---------------------------------------------------------------------------------------------
# Winning


def _two_sets(t, p, a="brown", b="dark_blue"):
    t.prop(p, a, *[a] * COLOURS[colour(a)].set_size)
    t.prop(p, b, *[b] * COLOURS[colour(b)].set_size)


def test_three_complete_sets_of_different_colours_win():
    t = Table([NO_JSN, NO_JSN])
    _two_sets(t, 0)
    t.prop(0, "red", "red", "red")
    t.hand(0, "red")
    assert t.winner == -1
    assert t.play(0, "red", "place", "red")
    assert t.winner == 0 and t.S[L.G_WIN_OWN_TURN] == 1


def test_a_second_set_of_one_colour_does_not_count():
    t = Table([NO_JSN, NO_JSN], rules(deck={**DealRules().deck, "dark_blue": 4}))
    _two_sets(t, 0)
    t.hand(0, "dark_blue")
    t.prop(0, "dark_blue", "dark_blue")
    assert t.play(0, "dark_blue", "place", "dark_blue")
    assert t.complete_sets(0) == 2 and t.winner == -1


def _forced_win_table(any_turn):
    t = Table([NO_JSN, NO_JSN], rules(win_on_any_turn=any_turn))
    _two_sets(t, 1)
    t.prop(1, "green", "green", "green")
    t.prop(1, "red", "red")
    t.prop(0, "green", "green")
    t.hand(0, "forced_deal")
    return t


def test_a_forced_deal_that_completes_the_victims_third_set_wins_it_at_once():
    t = _forced_win_table(True)
    assert t.play(0, "forced_deal", "action", ("red", "prop", 1), ("green", "prop", 0), 1)
    assert t.winner == 1 and t.S[L.G_WIN_OWN_TURN] == 0


def test_with_own_turn_wins_the_victim_waits_for_its_turn():
    t = _forced_win_table(False)
    assert t.play(0, "forced_deal", "action", ("red", "prop", 1), ("green", "prop", 0), 1)
    assert t.winner == -1 and t.complete_sets(1) == 3
    t.turn(1)
    assert t.winner == 1 and t.S[L.G_WIN_OWN_TURN] == 1


def test_when_both_reach_three_sets_the_player_whose_turn_it_is_wins():
    t = Table([NO_JSN, NO_JSN])
    _two_sets(t, 0)
    _two_sets(t, 1, "light_blue", "utility")
    t.prop(0, "red", "red", "red")
    t.prop(0, "green", "green")
    t.prop(1, "green", "green", "green")
    t.prop(1, "red", "red")
    t.hand(0, "forced_deal")
    assert t.play(0, "forced_deal", "action", ("red", "prop", 1), ("green", "prop", 0), 1)
    assert t.complete_sets(0) == 3 and t.complete_sets(1) == 3
    assert t.winner == 0


# ---------------------------------------------------------------------------------------------
# Whole games


def test_the_turn_limit_stops_a_game_and_is_recorded():
    t = Table(["smart", "smart"], rules(max_turns=3))
    out = t.play_game(seed=1)
    assert out["hit_turn_limit"] == 1 and out["winner"] == -1 and out["turns"] == 3
    assert out["status"] == kernel.OK


def test_a_stalled_table_ends_the_game_with_every_card_on_the_table():
    found = 0
    t = Table(["random"] * 3)
    for game in range(60):
        out = t.play_game(seed=5, game=game)
        assert out["status"] == kernel.OK
        if out["stalled"]:
            found += 1
            assert out["winner"] == -1
            assert t.draw_n() == 0 and t.discards() == [] and all(t.hand_of(p) == [] for p in range(3))
    assert found > 0


def test_rules_validation_messages():
    with pytest.raises(ValueError, match="unknown card"):
        DealRules(deck={"joker": 1}).validate()
    with pytest.raises(ValueError, match="excess_discards"):
        rules(excess_discards="floor")
    with pytest.raises(ValueError, match="2 to 5 players"):
        pack(DealRules(), 6)
    with pytest.raises(ValueError, match="too small"):
        pack(DealRules(deck={"money1": 5}), 2)
    assert np.all(pack(DealRules(), 2)[L.R_CARD_SEAT : L.R_CARD_SEAT + 106] == -1)
