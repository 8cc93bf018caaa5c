"""Scripted scenarios, one rule at a time, for the Monopoly Chance engine.

Each test sets up an exact situation with tests/chance_harness.py (a fixed die, stacked draw
piles, cards on the board), runs one rule function of the kernel and checks the exact outcome.
Rule quotes are from /work/shared/rules/monopoly-chance.txt; "FAQ" marks the answers at the end
of that text, which the house rules switch.

Bot decisions are forced through policy tactics: ``pol()`` is a bot that flips to the number
rolled and never plays Flip 2, Nope! or a Token, nor fortifies its own properties, unless a
test turns one of those on (flip2_stake=0: always Flip 2 when a bust is possible;
nope_stake=0 / nope_length=0: always Nope!; token_gain=0: use a Token whenever it gains).
Token tests with four players fill three corners with the other seats' Tokens, so the one
corner under test is the only place the Token can go.
"""

import numpy as np
import pytest
from chance_harness import (
    BALTIC,
    BOARDWALK,
    ILLINOIS,
    MARVIN,
    ORIENTAL,
    PENNSYLVANIA,
    ST_CHARLES,
    Table,
)

from sim.chance import kernel
from sim.chance.game import GAME
from sim.chance import layout as L
from sim.chance.rules import ChanceRules, Property, pack
from sim.core.rng import seed_state, shuffle

ALL_CASH = [f"cash{v}" for v in range(2, 13)]


def pol(kind="max_flip", **tactics):
    """A policy spec: `kind` plus tactics; by default no Flip 2, Nope!, Token or fortifying."""
    t = {"fortify": 0, "token_gain": 20, "flip2_stake": 200, "nope_stake": 200, "nope_length": 20}
    t.update(tactics)
    return " ".join([kind] + [f"{k}={v}" for k, v in t.items()])


def rules(**changes):
    return ChanceRules().replace(**changes)


def board(*lengths, value=1, buildings=3):
    """A small board of properties with these building lengths, all printed `value`."""
    return tuple(Property(f"P{i}", f"colour{i}", value, buildings, n) for i, n in enumerate(lengths))


def only_free_corner(t, corner):
    """Fill the other three corners with the Tokens of seats 1, 2 and 3."""
    others = [c for c in ("go", "free_parking", "just_visiting", "go_to_jail") if c != corner]
    for seat, c in zip((1, 2, 3), others):
        t.put_corner(c, seat)


# ---------------------------------------------------------------------------------------------
# Rolling the die


def test_number_rolled_is_the_most_cards_flipped():
    """'When you roll a number, it determines the maximum number of cards that you can draw.'"""
    t = Table([pol(), pol()], rules(die=(3,)))
    t.deal(0, draw=["cash2", "cash3", "cash4", "cash5", "cash6"])
    t.turn(0)
    assert t.stat(0, "flips") == 3
    assert t.pile(0) == ["cash5", "cash6"]
    assert t.invariants() == "ok"


def test_question_mark_draws_a_chance_card_then_rolls_again():
    """'If you roll the ? side ... draw a Chance card ... You will then roll the die again.'
    Rolls '?' then 3; the Chance card is Extra Flips (+2), so five cards are flipped."""
    t = Table([pol(), pol()], rules(die=(0, 3)))
    t.script_rolls(0, 3)
    t.chance_next("extra_flips")
    t.deal(0, draw=["cash2", "cash3", "cash4", "cash5", "cash6", "cash7", "cash8"])
    t.turn(0)
    assert t.stat(0, "chance_cards") == 1
    assert t.S[L.G_CHANCE_POS] == 1
    assert t.stat(0, "flips") == 5
    assert t.pile(0) == ["cash7", "cash8"]
    assert t.invariants() == "ok"


def test_each_question_mark_draws_one_more_chance_card():
    """Two '?' in a row draw two Chance cards before the number: 3 + 1 + 1 flips."""
    r = rules(die=(0, 3), chance_cards=(("extra_flips", 1), ("extra_flips", 1), ("lose_building", 0)))
    t = Table([pol(), pol()], r)
    t.script_rolls(0, 0, 3)
    t.deal(0, draw=ALL_CASH)
    t.turn(0)
    assert t.stat(0, "chance_cards") == 2
    assert t.stat(0, "flips") == 5
    assert t.invariants() == "ok"


def test_empty_draw_pile_still_rolls_and_takes_chance_cards():
    """FAQ: a player with no cards left 'rolls the die on their turn. If they roll the ? they
    take a Chance card. Otherwise their turn ends immediately.'"""
    t = Table([pol(), pol()], rules(die=(0, 3)))
    t.script_rolls(0, 3)
    t.chance_next("lose_building")
    t.deal(0, draw=[])
    t.give_building(0, BALTIC)
    t.turn(0)
    assert t.stat(0, "chance_cards") == 1
    assert t.stat(0, "flips") == 0
    assert t.n_buildings(0) == 0 and t.left(BALTIC) == 5
    assert t.invariants() == "ok"


# ---------------------------------------------------------------------------------------------
# Flipping: cash out, Bankrupt, Lucky Break


def test_cashing_out_early_keeps_the_flipped_cards():
    """'You can also choose to stop earlier and keep the cards that you already flipped over.'"""
    t = Table([pol("stop_after n=2"), pol()], rules(die=(5,)))
    t.deal(0, draw=["cash9", "cash10", "bankrupt", "cash11"])
    t.turn(0)
    assert t.stat(0, "flips") == 2
    assert t.pile(0) == ["bankrupt", "cash11"]
    assert t.at(0, "board") == ["cash10", "cash9"]
    assert t.stat(0, "busts") == 0
    assert t.invariants() == "ok"


def test_cash_out_decisions_see_the_pile_as_it_is_after_each_flip():
    """A bot that cashes out when the next flip busts with chance above 0.45: 2 Bankrupts in 5
    cards (0.4) flip, 2 in 4 (0.5) stop. The kernel updates what the bot sees after every flip."""
    t = Table([pol("bust_threshold p=0.45"), pol()], rules(die=(5,)))
    t.deal(0, draw=["cash9", "bankrupt", "bankrupt", "cash10", "cash11"])
    t.turn(0)
    assert t.stat(0, "flips") == 1
    assert t.at(0, "board") == ["cash9"]


def test_cash_out_decisions_count_the_lucky_break_in_front_of_the_player():
    """Same bot: with a Lucky Break in front of it nothing can bust it, so it flips on; once the
    Lucky Break is used up by a Bankrupt, 1 Bankrupt in 2 cards (0.5) makes it stop."""
    t = Table([pol("bust_threshold p=0.45"), pol()], rules(die=(6,)))
    t.deal(0, draw=["lucky_break", "cash9", "bankrupt", "bankrupt", "cash10"])
    t.turn(0)
    assert t.stat(0, "flips") == 3
    assert t.stat(0, "lucky_saves") == 1
    assert t.at(0, "board") == ["cash9"]
    assert t.pile(0) == ["bankrupt", "cash10"]


def test_bankrupt_ends_the_turn_and_discards_everything_flipped():
    """'If you draw a Bankrupt card, your turn ends immediately ... and you discard all of the
    cards you already flipped over this turn' (a Token flipped this turn included)."""
    t = Table([pol(token_gain=0), pol()], rules(die=(5,)))
    t.deal(0, draw=["cash9", "token", "cash10", "bankrupt", "cash11"])
    t.turn(0)
    assert t.stat(0, "flips") == 4
    assert t.stat(0, "busts") == 1
    assert t.pile(0) == ["cash11"]
    assert t.at(0, "board") == []
    assert t.at(0, "held") == []
    assert {"cash9", "cash10", "token", "bankrupt"} <= set(t.at(0, "discard"))
    assert all(t.corner(c) == -1 for c in ("go", "free_parking", "just_visiting", "go_to_jail"))
    assert t.invariants() == "ok"


def test_lucky_break_shields_one_bankrupt_and_flipping_goes_on():
    """'If you flip over a Bankrupt card, you will discard the Lucky Break card and the
    Bankrupt card. You can either continue flipping cards ... or cash out.'"""
    t = Table([pol(), pol()], rules(die=(5,)))
    t.deal(0, draw=["lucky_break", "cash9", "bankrupt", "cash10", "cash11"])
    t.turn(0)
    assert t.stat(0, "flips") == 5
    assert t.stat(0, "busts") == 0
    assert t.stat(0, "lucky_saves") == 1
    assert t.at(0, "board") == ["cash10", "cash11", "cash9"]
    assert t.where(0, "lucky_break") == "discard" and t.where(0, "bankrupt") == "discard"
    assert t.invariants() == "ok"


def test_second_bankrupt_without_a_second_lucky_break_loses_everything():
    """'Each Lucky Break card only protects against one Bankrupt card. Should you draw a second
    Bankrupt card ... you will lose your turn and all of the cards that you have flipped over.'"""
    t = Table([pol(), pol()], rules(die=(6,)))
    t.deal(0, draw=["lucky_break", "cash9", "bankrupt", "cash10", "bankrupt", "cash11"])
    t.turn(0)
    assert t.stat(0, "flips") == 5
    assert t.stat(0, "lucky_saves") == 1
    assert t.stat(0, "busts") == 1
    assert t.at(0, "board") == []
    assert t.pile(0) == ["cash11"]
    assert t.invariants() == "ok"


def test_two_lucky_breaks_shield_two_bankrupts():
    t = Table([pol(), pol()], rules(die=(5,)))
    t.deal(0, draw=["lucky_break", "bankrupt", "lucky_break", "bankrupt", "cash9"])
    t.turn(0)
    assert t.stat(0, "lucky_saves") == 2
    assert t.stat(0, "busts") == 0
    assert t.at(0, "board") == ["cash9"]
    assert t.invariants() == "ok"


def test_unused_lucky_break_is_discarded_and_does_not_protect_next_turn():
    """'Should you not need to use a Lucky Break card on your turn, you will still discard it.
    You can only use the Lucky Break card on the turn that you flip it over.'"""
    t = Table([pol(), pol()], rules(die=(2,)))
    t.deal(0, draw=["lucky_break", "cash9", "bankrupt", "cash10"])
    t.turn(0)
    assert t.at(0, "board") == ["cash9"]
    assert t.where(0, "lucky_break") == "discard"
    t.turn(0)  # a later turn: the Bankrupt is not shielded any more
    assert t.stat(0, "busts") == 1
    assert t.stat(0, "lucky_saves") == 0
    assert t.at(0, "board") == ["cash9"]
    assert t.invariants() == "ok"


# ---------------------------------------------------------------------------------------------
# Placing Cash cards (one-property boards where the choice of property is not in question)

PENN_ONLY = (Property("Pennsylvania Avenue", "green", 7, 2, 4),)


def test_cash_must_beat_the_printed_value_of_an_empty_property():
    """'If no cards are on the space, the Cash card must be higher than the number printed.'
    Pennsylvania Avenue is 7: a 7 cannot go there, an 8 can."""
    t = Table([pol(), pol()], rules(die=(3,), properties=PENN_ONLY))
    t.deal(0, draw=["cash7", "cash6", "cash8"])
    t.turn(0)
    assert t.stack(0) == [(0, "cash8")]
    assert t.where(0, "cash7") == "discard" and t.where(0, "cash6") == "discard"
    assert t.invariants() == "ok"


def test_unplayable_cash_is_discarded_at_the_end_of_the_turn():
    """'Any Cash cards you can't or choose not to play, are discarded at the end of your turn.'"""
    t = Table([pol(), pol()], rules(die=(2,), properties=PENN_ONLY))
    t.deal(0, draw=["cash7", "cash6"])
    t.turn(0)
    assert t.stack(0) == []
    assert t.where(0, "cash7") == "discard" and t.where(0, "cash6") == "discard"
    assert t.at(0, "held") == []
    assert t.invariants() == "ok"


def test_cash_must_beat_the_last_card_played_on_an_occupied_property():
    """'If a card is already on the space, you must play a Cash card higher than the last
    played card.' A 9 does not beat a 9; a 10 does."""
    t = Table([pol(), pol()], rules(die=(2,), properties=PENN_ONLY))
    t.deal(0, draw=["cash9", "cash10"])
    t.deal(1)
    t.place(0, 1, "cash9")
    t.turn(0)
    assert t.stack(0) == [(1, "cash9"), (0, "cash10")]
    assert t.top(0) == (0, 10)
    assert t.where(0, "cash9") == "discard"
    assert t.invariants() == "ok"


def test_cash_cards_cannot_be_combined_to_beat_a_higher_card():
    """'You are not allowed to combine multiple Cash cards together in order to create a higher
    value.' 5 + 8 + 11 > 12, but no single card beats the 12."""
    t = Table([pol(), pol()], rules(die=(3,), properties=PENN_ONLY))
    t.deal(0, draw=["cash5", "cash8", "cash11"])
    t.deal(1)
    t.place(0, 1, "cash12")
    t.turn(0)
    assert t.stack(0) == [(1, "cash12")]
    assert t.at(0, "board") == []
    assert t.invariants() == "ok"


@pytest.mark.parametrize("fortify", [1, 0])
def test_playing_on_top_of_your_own_card_is_allowed(fortify):
    """FAQ: 'you may also play a card on top of your own to increase the value of that
    property'. A bot that fortifies does; one that does not discards the card."""
    t = Table([pol(fortify=fortify), pol()], rules(die=(1,), properties=PENN_ONLY))
    t.deal(0, draw=["cash11"])
    t.place(0, 0, "cash8")
    t.turn(0)
    if fortify:
        assert t.stack(0) == [(0, "cash8"), (0, "cash11")]
    else:
        assert t.stack(0) == [(0, "cash8")]
        assert t.where(0, "cash11") == "discard"
    assert t.invariants() == "ok"


def test_each_card_goes_to_its_own_property_one_at_a_time():
    """'You may only play one Cash card to a property at a time': three flipped cards take three
    properties, each beating what it covers (default board, greedy bot)."""
    t = Table([pol(), pol()], rules(die=(3,)))
    t.deal(0, draw=["cash9", "cash10", "cash2"])
    t.turn(0)
    assert t.stack(PENNSYLVANIA) == [(0, "cash9")]
    assert t.stack(BOARDWALK) == [(0, "cash10")]
    assert t.stack(BALTIC) == [(0, "cash2")]
    assert t.stat(0, "cash_played") == 3
    assert t.invariants() == "ok"


# ---------------------------------------------------------------------------------------------
# Token and the corners


def test_token_can_be_kept_for_a_later_turn_of_the_round():
    """'The Token card can either be used on the turn you flip it over, or it can be kept for a
    future turn ... after you have rolled the die and flipped cards.'"""
    t = Table([pol(), pol(), pol(), pol()], rules(die=(2,)))
    only_free_corner(t, "just_visiting")
    t.deal(0, draw=["token", "lucky_break", "lucky_break"])
    t.turn(0)  # token_gain=20: keep it
    assert t.where(0, "token") == "held"
    assert t.corner("just_visiting") == -1
    t.set_param(0, "token_gain", 0)
    t.turn(0)  # a later turn: play it
    assert t.where(0, "token") == "corner"
    assert t.corner("just_visiting") == 0
    assert t.stack(PENNSYLVANIA) == [(0, "cash8")]
    assert t.invariants() == "ok"


def test_by_default_a_token_is_kept_for_the_rounds_last_turns():
    """The default Token tactic (token_gain 8, more than a Token gains on the standard board):
    the Token that would put a Cash 8 on Pennsylvania Avenue is kept on an ordinary turn and
    played once the round's end has come (every turn is then the player's last of the round)."""
    default_token = "max_flip fortify=0 flip2_stake=200 nope_stake=200 nope_length=20"
    t = Table([default_token, pol(), pol(), pol()], rules(die=(2,)))
    only_free_corner(t, "just_visiting")
    t.deal(0, draw=["token", "lucky_break", "lucky_break"])
    t.turn(0)
    assert t.where(0, "token") == "held"
    t.S[L.G_TRIGGERED] = 1  # another seat covered the board's last property
    t.turn(0)
    assert t.corner("just_visiting") == 0
    assert t.stack(PENNSYLVANIA) == [(0, "cash8")]
    assert t.invariants() == "ok"


@pytest.mark.parametrize("go_taken", [True, False])
def test_a_corner_holds_one_token(go_taken):
    """'play it to one of the corner spaces that doesn't already have a card on it'. Seat 1's
    Token could only gain on GO; with seat 0's Token there it stays in hand."""
    t = Table([pol(), pol(token_gain=0)], rules(die=(1,)))
    if go_taken:
        t.put_corner("go", 0)
    t.deal(1, draw=["lucky_break"] + ALL_CASH, held=["token"])
    t.turn(1)
    if go_taken:
        assert t.corner("go") == 0
        assert t.where(1, "token") == "held"
        assert t.at(1, "board") == []
    else:
        assert t.corner("go") == 1
        assert t.where(1, "token") == "corner"
        assert t.at(1, "board") == ["cash8"]
    assert t.invariants() == "ok"


def test_go_corner_plays_a_cash_card_chosen_from_the_draw_pile_then_shuffles_it():
    """GO: 'look through your draw pile ... choose one Cash card and play it immediately to any
    property space (following normal placement rules). You will then shuffle your draw pile.'"""
    t = Table([pol(token_gain=0), pol(), pol(), pol()], rules(die=(1,)), seed=5)
    only_free_corner(t, "go")
    order = ["cash12", "cash2", "cash11", "cash3", "cash10", "cash4", "cash9", "cash5", "cash8", "cash6", "cash7"]
    t.deal(0, draw=["lucky_break"] + order, held=["token"])
    t.turn(0)
    assert t.corner("go") == 0
    assert t.stack(PENNSYLVANIA) == [(0, "cash8")]  # the cheapest card that takes the best property
    rest = [c for c in order if c != "cash8"]
    assert sorted(t.pile(0)) == sorted(rest)
    assert t.pile(0) != rest  # shuffled
    assert t.invariants() == "ok"


def test_free_parking_lets_one_flipped_cash_card_ignore_the_placement_rule():
    """Free Parking: 'ignore the normal Cash card rules when you place one of the Cash cards you
    flipped over this turn'. The 2 goes on top of an 11; the 3 must follow the rules."""
    t = Table([pol(token_gain=0), pol(), pol(), pol()], rules(die=(2,)))
    only_free_corner(t, "free_parking")
    t.deal(0, draw=["cash2", "cash3"], held=["token"])
    t.place(PENNSYLVANIA, 1, "cash11")
    t.place(BOARDWALK, 1, "cash12")
    t.turn(0)
    assert t.corner("free_parking") == 0
    assert t.stack(PENNSYLVANIA) == [(1, "cash11"), (0, "cash2")]
    assert t.via_free_parking(PENNSYLVANIA) == [0, 1]
    assert t.top(PENNSYLVANIA) == (0, 2)
    assert t.stack(BOARDWALK) == [(1, "cash12")]
    assert t.stack(BALTIC) == [(0, "cash3")]
    assert t.invariants() == "ok"


def test_just_visiting_plays_a_cash_card_from_the_discard_pile():
    """Just Visiting: 'look through your discard pile for a Cash card. You will immediately play
    the Cash card you chose to one of the properties (following the rules).'"""
    t = Table([pol(token_gain=0), pol(), pol(), pol()], rules(die=(1,)))
    only_free_corner(t, "just_visiting")
    t.deal(0, draw=["lucky_break"], held=["token"])
    assert "cash8" in t.at(0, "discard")
    t.turn(0)
    assert t.corner("just_visiting") == 0
    assert t.stack(PENNSYLVANIA) == [(0, "cash8")]
    assert "cash8" not in t.at(0, "discard")
    assert t.invariants() == "ok"


def test_go_to_jail_returns_an_opponents_top_card_and_uncovers_the_one_below():
    """Go to Jail: 'choose one Cash card played to a property by another player ... return it to
    the corresponding player's discard pile.' A Token flipped this turn is used at once."""
    t = Table([pol(token_gain=0), pol(), pol(), pol()], rules(die=(1,)))
    only_free_corner(t, "go_to_jail")
    t.deal(0, draw=["token"])
    t.place(BOARDWALK, 0, "cash9")
    t.place(BOARDWALK, 1, "cash11")
    t.turn(0)
    assert t.corner("go_to_jail") == 0
    assert t.stack(BOARDWALK) == [(0, "cash9")]
    assert t.top(BOARDWALK) == (0, 9)
    assert t.where(1, "cash11") == "discard"
    assert t.invariants() == "ok"


def test_go_to_jail_without_an_opponent_card_on_the_board_is_not_played():
    t = Table([pol(token_gain=0), pol(), pol(), pol()], rules(die=(1,)))
    only_free_corner(t, "go_to_jail")
    t.deal(0, draw=["lucky_break"], held=["token"])
    t.place(BOARDWALK, 0, "cash9")
    t.turn(0)
    assert t.where(0, "token") == "held"
    assert t.stack(BOARDWALK) == [(0, "cash9")]
    assert t.invariants() == "ok"


@pytest.mark.parametrize("token_after_bankrupt", [False, True])
def test_saved_token_on_a_bankrupt_turn(token_after_bankrupt):
    """FAQ (default): a saved Token cannot be played on a turn that went bankrupt; it is kept.
    House rule token_after_bankrupt=True: it can."""
    t = Table([pol(token_gain=0), pol(), pol(), pol()], rules(die=(1,), token_after_bankrupt=token_after_bankrupt))
    only_free_corner(t, "go_to_jail")
    t.deal(0, draw=["bankrupt"], held=["token"])
    t.place(BOARDWALK, 1, "cash11")
    t.turn(0)
    assert t.stat(0, "busts") == 1
    if token_after_bankrupt:
        assert t.corner("go_to_jail") == 0
        assert t.stack(BOARDWALK) == []
        assert t.where(1, "cash11") == "discard"
    else:
        assert t.where(0, "token") == "held"
        assert t.corner("go_to_jail") == -1
        assert t.stack(BOARDWALK) == [(1, "cash11")]
    assert t.invariants() == "ok"


@pytest.mark.parametrize("token_after_bankrupt", [False, True])
def test_token_flipped_on_a_bankrupt_turn_is_discarded(token_after_bankrupt):
    """A Token flipped on the turn that goes bankrupt is one of the flipped cards the Bankrupt
    discards, under either setting of token_after_bankrupt."""
    t = Table([pol(token_gain=0), pol(), pol(), pol()], rules(die=(2,), token_after_bankrupt=token_after_bankrupt))
    only_free_corner(t, "go_to_jail")
    t.deal(0, draw=["token", "bankrupt"])
    t.place(BOARDWALK, 1, "cash11")
    t.turn(0)
    assert t.where(0, "token") == "discard"
    assert t.corner("go_to_jail") == -1
    assert t.stack(BOARDWALK) == [(1, "cash11")]
    assert t.invariants() == "ok"


# ---------------------------------------------------------------------------------------------
# Flip 2 and Nope!

ATTACKER = pol("bust_threshold", flip2_stake=0)


@pytest.mark.parametrize("victim, die", [(pol("stop_after n=1"), 5), (pol("max_flip"), 1)])
def test_flip2_after_a_player_stops_forces_two_flips_and_can_bust(victim, die):
    """Flip 2: 'After they have flipped their maximum number of cards or chosen to cash out, you
    can play the Flip 2 card on them ... force them to draw two more cards.'"""
    t = Table([victim, ATTACKER], rules(die=(die,)))
    t.deal(0, draw=["cash9", "cash10", "bankrupt", "cash11"])
    t.deal(1, held=["flip2"])
    t.turn(0)
    assert t.stat(0, "flips") == 3
    assert t.stat(0, "busts") == 1
    assert t.stat(0, "flip2_forced") == 1
    assert t.stat(1, "flip2_played") == 1
    assert t.pile(0) == ["cash11"]
    assert t.at(0, "board") == []
    assert t.where(1, "flip2") == "discard"  # 'After you use the card, you will add it to your discard pile.'
    assert t.invariants() == "ok"


def test_cards_flipped_under_flip2_are_played_when_no_bankrupt_comes():
    t = Table([pol("stop_after n=1"), ATTACKER], rules(die=(5,)))
    t.deal(0, draw=["cash9", "cash10", "cash11", "bankrupt"])
    t.deal(1, held=["flip2"])
    t.turn(0)
    assert t.stat(0, "flips") == 3
    assert t.stat(0, "busts") == 0
    assert t.at(0, "board") == ["cash10", "cash11", "cash9"]
    assert t.pile(0) == ["bankrupt"]
    assert t.where(1, "flip2") == "discard"
    assert t.invariants() == "ok"


@pytest.mark.parametrize("multiple", [True, False])
def test_several_flip2_cards_on_one_turn(multiple):
    """FAQ (default): several Flip 2 cards may be played on one player in one turn, one at a
    time. House rule multiple_flip2_per_turn=False: at most one per turn."""
    t = Table([pol("stop_after n=1"), ATTACKER, ATTACKER], rules(die=(5,), multiple_flip2_per_turn=multiple))
    t.deal(0, draw=["cash9", "cash10", "cash11", "bankrupt", "cash12"])
    t.deal(1, held=["flip2"])
    t.deal(2, held=["flip2"])
    t.turn(0)
    assert t.where(1, "flip2") == "discard"
    if multiple:
        assert t.where(2, "flip2") == "discard"
        assert t.stat(0, "flip2_forced") == 2
        assert t.stat(0, "busts") == 1
        assert t.pile(0) == ["cash12"]
        assert t.at(0, "board") == []
    else:
        assert t.where(2, "flip2") == "held"
        assert t.stat(0, "flip2_forced") == 1
        assert t.stat(0, "busts") == 0
        assert t.pile(0) == ["bankrupt", "cash12"]
        assert t.at(0, "board") == ["cash10", "cash11", "cash9"]
    assert t.invariants() == "ok"


@pytest.mark.parametrize("multiple", [True, False])
def test_a_second_flip2_is_not_wasted_on_a_player_already_bankrupt(multiple):
    """FAQ: 'one Flip 2 card should be played and see what the outcome is': after the first
    Flip 2 busts the player, the second stays in its owner's hand."""
    t = Table([pol("stop_after n=1"), ATTACKER, ATTACKER], rules(die=(5,), multiple_flip2_per_turn=multiple))
    t.deal(0, draw=["cash9", "bankrupt", "cash10", "cash11"])
    t.deal(1, held=["flip2"])
    t.deal(2, held=["flip2"])
    t.turn(0)
    assert t.stat(0, "busts") == 1
    assert t.where(1, "flip2") == "discard"
    assert t.where(2, "flip2") == "held"
    assert t.pile(0) == ["cash10", "cash11"]
    assert t.invariants() == "ok"


def test_one_player_may_play_two_flip2_cards_on_one_turn():
    """FAQ: 'Can multiple Flip 2 cards be played on the same player in the same turn (either by
    one other player or multiple)?' - 'multiple Flip 2 cards can be played against the same
    player', one at a time. A deck edited to hold two Flip 2 cards: both are played."""
    t = Table([pol("stop_after n=1"), ATTACKER], rules(die=(5,)), deck_edits={1: {"flip2": 1}})
    t.deal(0, draw=["cash9", "cash10", "cash11", "bankrupt", "cash12"])
    t.deal(1, held=["flip2", "flip2"])
    t.turn(0)
    assert t.stat(1, "flip2_played") == 2
    assert t.at(1, "discard").count("flip2") == 2
    assert t.stat(0, "busts") == 1
    assert t.pile(0) == ["cash12"]
    assert t.invariants() == "ok"


@pytest.mark.parametrize("nope_from", ["held", "flipped this turn"])
def test_nope_cancels_a_flip2_which_stays_with_its_owner(nope_from):
    """Nope!: 'When you play a Nope! card for this action, you do not have to flip two more
    cards. The other player does get to keep their Flip 2 card though.'"""
    victim = pol("stop_after n=1" if nope_from == "held" else "stop_after n=2", nope_stake=0)
    t = Table([victim, ATTACKER], rules(die=(5,)))
    if nope_from == "held":
        t.deal(0, draw=["cash9", "bankrupt", "bankrupt"], held=["nope"])
    else:
        t.deal(0, draw=["nope", "cash9", "bankrupt", "bankrupt"])
    t.deal(1, held=["flip2"])
    t.turn(0)
    assert t.where(0, "nope") == "discard"
    assert t.stat(0, "nope_played") == 1
    assert t.where(1, "flip2") == "held"
    assert t.stat(0, "flip2_forced") == 0
    assert t.stat(0, "busts") == 0
    assert t.pile(0) == ["bankrupt", "bankrupt"]
    assert t.at(0, "board") == ["cash9"]
    assert t.invariants() == "ok"


def test_nope_blocks_a_cash_card_and_closes_the_property_for_the_rest_of_the_turn():
    """Nope!: 'prevent them from playing the card to the property. This will block that player
    from playing cards to that property for the rest of their turn. The Cash card ... can be
    played to a different property.' On the next turn the property is open again."""
    t = Table([pol(), pol(nope_length=0)], rules(die=(2,)))
    t.deal(0, draw=["cash9", "cash10", "cash11"])
    t.deal(1, held=["nope"])
    t.place(PENNSYLVANIA, 1, "cash8")
    t.turn(0)
    assert t.where(1, "nope") == "discard"
    assert t.stat(1, "nope_played") == 1
    assert t.stack(PENNSYLVANIA) == [(1, "cash8")]  # even the 10 may not go there now
    assert t.stack(BOARDWALK) == [(0, "cash9")]  # the blocked card went elsewhere
    assert t.stack(ILLINOIS) == [(0, "cash10")]
    t.turn(0)
    assert t.stack(PENNSYLVANIA) == [(1, "cash8"), (0, "cash11")]
    assert t.invariants() == "ok"


def test_nope_is_only_for_a_property_you_control():
    """'When another player plays a Cash card on a property that you currently control': a card
    played on an empty property cannot be blocked."""
    t = Table([pol(), pol(nope_length=0)], rules(die=(1,)))
    t.deal(0, draw=["cash9"])
    t.deal(1, held=["nope"])
    t.turn(0)
    assert t.stack(PENNSYLVANIA) == [(0, "cash9")]
    assert t.where(1, "nope") == "held"
    assert t.invariants() == "ok"


# ---------------------------------------------------------------------------------------------
# End of the round


def cover_all_but_baltic(t, p=1):
    """Seat p covers every default property except Baltic Avenue with legal cards."""
    t.deal(p)
    for i, card in zip(range(ORIENTAL, BOARDWALK + 1), ("cash3", "cash4", "cash5", "cash6", "cash7", "cash8", "cash9")):
        t.place(i, p, card)


def test_round_end_is_triggered_when_the_last_property_is_covered():
    """'Once all of the properties on the board (that still have buildings on them) have at
    least one Cash card played on them, the end of the round is triggered.'"""
    t = Table([pol(), pol()], rules(die=(1,)))
    cover_all_but_baltic(t)
    t.deal(0, draw=["cash2"])
    assert not t.triggered
    t.turn(0)
    assert t.stack(BALTIC) == [(0, "cash2")]
    assert t.triggered
    assert t.invariants() == "ok"


def test_round_end_trigger_stays_when_a_card_is_later_removed():
    """'This applies even if a Cash card is removed from the board leaving a property uncovered.'"""
    t = Table([pol(), pol()], rules(die=(1,)))
    cover_all_but_baltic(t)
    t.deal(0, draw=["cash2"])
    t.turn(0)
    assert t.triggered
    t.chance_next("go_to_jail")
    t.draw_chance(1)  # seat 1 sends seat 0's only card on the board home
    assert t.stack(BALTIC) == []
    assert not kernel.all_covered(t.S, t.RB)
    assert t.triggered
    assert t.invariants() == "ok"


def test_player_who_covers_the_last_property_completes_the_turn():
    """'The player who covered the last property gets to complete their turn': after the 2
    covers Baltic Avenue, the 3 is still played (on top of the 2)."""
    t = Table([pol(fortify=1), pol()], rules(die=(2,)))
    cover_all_but_baltic(t)
    t.deal(0, draw=["cash2", "cash3"])
    t.turn(0)
    assert t.triggered
    assert t.stack(BALTIC) == [(0, "cash2"), (0, "cash3")]
    assert t.invariants() == "ok"


@pytest.mark.parametrize("exhausted_count", [False, True])
def test_exhausted_properties_and_the_round_end(exhausted_count):
    """FAQ (default): 'If all of the buildings have been taken from a property, that property is
    ignored when determining the end of the round.' House rule exhausted_properties_count=True:
    it must be covered too."""
    t = Table([pol(), pol()], rules(die=(1,), exhausted_properties_count=exhausted_count))
    t.give_building(1, BALTIC, 5)  # Baltic Avenue has no buildings left
    t.deal(1)
    for i, card in zip(range(ST_CHARLES, BOARDWALK + 1), ("cash4", "cash5", "cash6", "cash7", "cash8", "cash9")):
        t.place(i, 1, card)
    t.deal(0, draw=["cash3"])
    t.turn(0)
    assert t.stack(ORIENTAL) == [(0, "cash3")]
    assert t.stack(BALTIC) == []
    assert t.triggered == (not exhausted_count)
    if exhausted_count:
        t.place(BALTIC, 0, "cash2")
        assert kernel.all_covered(t.S, t.RB)
    assert t.invariants() == "ok"


def test_after_the_trigger_each_other_player_gets_exactly_one_more_turn():
    """'The player who covered the last property gets to complete their turn. The rest of the
    players then get one more turn. The round then ends.' Three players, three properties, one
    Cash card each: seat 2 covers the last property on turn 3; seats 0 and 1 play once more."""
    r = rules(
        properties=board(1, 1, 1, buildings=1),
        deck={"cash5": 1, "lucky_break": 2},
        die=(3,),
        reshuffle_empty_pile=True,  # the last turns are real turns, not a stalled round
        finish_mark=1,
    )
    t = Table([pol(), pol(), pol()], r)
    out = t.play_game()
    assert out["status"] == kernel.OK
    assert out["rounds"] == 1
    assert out["turns"] == 5
    assert out["stalled_rounds"] == 0
    assert [t.stat(p, "turns") for p in range(3)] == [2, 2, 1]
    assert [t.sky(p) for p in range(3)] == [1, 1, 1]


def test_next_round_continues_with_the_player_to_the_left():
    """'If none of the players have won the game, another round is played. Play continues with
    the player to the left.' Round 1 is seats 0, 1, 2 (trigger), 0, 1; round 2 starts with
    seat 2: 2, 0, 1 (trigger), 2, 0. Each seat then holds a pair and a gray (1 + 1 + 2)."""
    r = rules(
        properties=board(1, 1, 1, buildings=2),
        deck={"cash5": 1, "lucky_break": 2},
        die=(3,),
        reshuffle_empty_pile=True,
        finish_mark=2,
    )
    t = Table([pol(), pol(), pol()], r)
    out = t.play_game()
    assert out["status"] == kernel.OK
    assert out["rounds"] == 2 and out["turns"] == 10
    assert out["seat"]["turns"] == [2 + 2, 2 + 1, 1 + 2]
    assert out["seat"]["skyline"] == [4, 4, 4]


# ---------------------------------------------------------------------------------------------
# Acquiring buildings


def test_each_covered_property_awards_a_building_to_its_top_card_owner():
    """'The player that played the top card on each property at the end of a round takes a
    corresponding colored building.' Uncovered properties award nothing."""
    t = Table([pol(), pol()])
    t.place(BALTIC, 0, "cash2")
    t.place(BOARDWALK, 0, "cash9")
    t.place(BOARDWALK, 1, "cash10")
    t.end_round(0)
    assert t.buildings(0, BALTIC) == 1 and t.buildings(1, BALTIC) == 0
    assert t.buildings(1, BOARDWALK) == 1 and t.buildings(0, BOARDWALK) == 0
    assert t.left(BALTIC) == 4 and t.left(BOARDWALK) == 1 and t.left(PENNSYLVANIA) == 2
    assert (t.sky(0), t.sky(1)) == (1, 4)
    assert (t.stat(0, "cash_won"), t.stat(1, "cash_won")) == (1, 1)
    assert t.invariants() == "ok"


def test_an_exhausted_property_awards_nothing():
    t = Table([pol(), pol()])
    t.give_building(1, PENNSYLVANIA, 2)
    t.place(PENNSYLVANIA, 0, "cash9")
    t.end_round(0)
    assert t.buildings(0, PENNSYLVANIA) == 0
    assert t.left(PENNSYLVANIA) == 0
    assert t.invariants() == "ok"


def test_two_buildings_of_one_colour_earn_a_gray_building():
    """'Should you ever collect two buildings of the same color ... take one of the gray
    buildings from the center of the board.'"""
    t = Table([pol(), pol()])
    t.give_building(0, BALTIC)
    t.place(BALTIC, 0, "cash2")
    t.end_round(0)
    assert t.buildings(0, BALTIC) == 2
    assert t.buildings(0, t.gray) == 1
    assert t.sky(0) == 1 + 1 + 2
    assert t.gray_left() == 3
    assert t.stat(0, "grays") == 1
    assert t.invariants() == "ok"


@pytest.mark.parametrize("per_pair", [True, False])
def test_gray_buildings_per_pair_or_per_colour(per_pair):
    """House rule gray_per_pair (default True): a gray for every two buildings of a colour, so
    four browns earn two grays; False: at most one gray per colour. A third brown earns none."""
    t = Table([pol(), pol()], rules(gray_per_pair=per_pair))
    t.give_building(0, BALTIC)
    t.place(BALTIC, 0, "cash2")
    grays = []
    for _ in range(3):  # three round ends with seat 0 on Baltic Avenue
        t.end_round(0)
        grays.append(t.buildings(0, t.gray))
    assert t.buildings(0, BALTIC) == 4
    assert grays == ([1, 1, 2] if per_pair else [1, 1, 1])
    assert t.invariants() == "ok"


def test_gray_buildings_go_from_boardwalk_down_to_baltic_when_they_run_short():
    """'Starting with the player that created a set with the most valuable property/color
    (Boardwalk) and proceeding to the least valuable (Baltic Avenue), each player takes one gray
    building. Once all of the gray buildings are gone, the remaining players do not receive a
    gray building.' Two grays left, three new sets."""
    t = Table([pol(), pol(), pol()], rules(gray_buildings=2))
    for p, i, card in ((0, BALTIC, "cash2"), (1, MARVIN, "cash7"), (2, BOARDWALK, "cash9")):
        t.give_building(p, i)
        t.place(i, p, card)
    t.end_round(0)
    assert [t.buildings(p, t.gray) for p in range(3)] == [0, 1, 1]
    assert t.gray_left() == 0
    assert t.invariants() == "ok"


def test_a_set_passed_over_for_want_of_grays_stays_passed():
    """The engine's reading: a set that found no gray does not earn one later when a gray comes
    back to the supply (here through the Lose a Building Chance card)."""
    t = Table([pol(), pol()], rules(gray_buildings=1))
    for p, i, card in ((0, BALTIC, "cash2"), (1, BOARDWALK, "cash9")):
        t.give_building(p, i)
        t.place(i, p, card)
    t.end_round(0)
    assert (t.buildings(0, t.gray), t.buildings(1, t.gray)) == (0, 1)
    t.chance_next("lose_building")
    t.draw_chance(1)  # seat 1's shortest building is the gray: back to the supply
    assert t.gray_left() == 1
    t.clear_board()  # a round in which nobody covers anything
    t.end_round(1)
    assert t.buildings(0, t.gray) == 0
    assert t.gray_left() == 1
    assert t.invariants() == "ok"


# ---------------------------------------------------------------------------------------------
# Between rounds


@pytest.mark.parametrize("keep_held", [False, True])
def test_all_cards_are_reshuffled_between_rounds_unless_held_cards_are_kept(keep_held):
    """'Each player then removes all of their cards from the board. You will shuffle all of your
    cards together including the cards you discarded and those you played to the board.' House
    rule keep_held_cards=True: held Flip 2 / Nope! stay in hand. Each deck is a 9, a Flip 2 and a
    Nope! (neither ever worth playing here); a 3 on the die flips the whole pile. Round 1: three
    flips each, Flip 2 and Nope! held. Round 2: three flips again, or only the 9 when kept."""
    r = rules(
        properties=board(1, value=1, buildings=5),
        deck={"cash9": 1, "flip2": 1, "nope": 1},
        die=(3,),
        finish_mark=100,
        max_rounds=2,
        keep_held_cards=keep_held,
    )
    t = Table([pol(), pol()], r)
    out = t.play_game()
    assert out["status"] == kernel.OK
    assert out["rounds"] == 2 and out["hit_round_limit"] == 1
    assert out["seat"]["flips"] == ([4, 4] if keep_held else [6, 6])
    # seat 0's 9 came back from the board and won again: two buildings and a gray for the pair
    assert out["seat"]["buildings"] == [3, 0]
    assert out["seat"]["skyline"] == [1 + 1 + 2, 0]


@pytest.mark.parametrize("keep_held", [False, True])
def test_a_held_token_never_outlives_its_round(keep_held):
    """'You can only use the Token card in the current round': at the round-end shuffle a held
    Token goes back into the deck even when keep_held_cards keeps Flip 2 and Nope!."""
    t = Table([pol(), pol()], rules(keep_held_cards=keep_held))
    t.deal(0, draw=["cash2"], held=["token", "flip2", "nope"])
    kernel.rebuild_pile(t.S, t.RB, t.rng, 0, True, True, not keep_held)  # as a new round does
    assert t.where(0, "token") == "draw"
    expected = "held" if keep_held else "draw"
    assert (t.where(0, "flip2"), t.where(0, "nope")) == (expected, expected)
    assert t.invariants() == "ok"


def test_chance_deck_is_not_reshuffled_between_rounds():
    """'You will not shuffle the Chance cards between rounds.' The deck is shuffled once when the
    game starts and again only when it runs out: after D draws in the whole game the next card
    is at position ((D - 1) mod 8) + 1, and while D <= 8 the order is the opening shuffle."""
    r = ChanceRules()
    t = Table(["smart", "random", "max_flip"], r)
    n = len(r.chance_cards)
    checked_later_rounds = 0
    for game in range(40):
        out = t.play_game(seed=7, game=game)
        assert out["status"] == kernel.OK
        draws = sum(out["seat"]["chance_cards"])
        pos = int(t.S[L.G_CHANCE_POS])
        assert pos == (0 if draws == 0 else (draws - 1) % n + 1)
        if draws <= n:
            rng = np.zeros(L.RNG_SIZE, np.uint64)
            seed_state(rng, L.RNG_TABLE, np.uint64(7), game, 0)
            opening = np.arange(n, dtype=np.int32)
            shuffle(rng, L.RNG_TABLE, opening, 0, n)
            assert list(t.S[L.CHANCE_ORDER : L.CHANCE_ORDER + n]) == list(opening)
        checked_later_rounds += out["rounds"] >= 2 and draws > 0
    assert checked_later_rounds >= 10  # the check saw games that drew Chance cards over several rounds


# ---------------------------------------------------------------------------------------------
# Empty draw pile


@pytest.mark.parametrize("reshuffle", [False, True])
def test_empty_draw_pile(reshuffle):
    """FAQ (default): a player who runs out of cards 'does not get to draw any more cards for
    the rest of the round'. House rule reshuffle_empty_pile=True: the discards become a new
    draw pile when a flip is needed."""
    r = rules(die=(3,), deck={"cash9": 1, "cash10": 1, "cash11": 1}, reshuffle_empty_pile=reshuffle)
    t = Table([pol(), pol()], r)
    t.deal(0, draw=["cash9"])
    assert t.at(0, "discard") == ["cash10", "cash11"]
    t.turn(0)
    if reshuffle:
        assert t.stat(0, "flips") == 3
        assert t.at(0, "board") == ["cash10", "cash11", "cash9"]
    else:
        assert t.stat(0, "flips") == 1
        assert t.at(0, "board") == ["cash9"]
        assert t.at(0, "discard") == ["cash10", "cash11"]
    assert t.pile(0) == []
    assert t.invariants() == "ok"


@pytest.mark.parametrize("reshuffle", [False, True])
def test_round_is_stalled_only_when_nobody_can_flip(reshuffle):
    """With every draw pile empty and no reshuffling, nobody can flip again this round."""
    t = Table([pol(), pol()], rules(reshuffle_empty_pile=reshuffle))
    t.deal(0)
    t.deal(1)
    assert kernel.stalled(t.S, t.RB) == (not reshuffle)
    t.deal(1, draw=["cash2"])
    assert not kernel.stalled(t.S, t.RB)


def test_a_player_with_an_empty_pile_still_draws_chance_cards():
    """FAQ: a player out of cards still rolls; a '?' still draws a Chance card, and Just
    Visiting can put a Cash card from the discard pile on the board."""
    t = Table([pol(), pol()])
    t.deal(0)
    t.deal(1)
    t.chance_next("just_visiting")
    t.script_rolls(0, 3)
    t.turn(0)
    assert t.stat(0, "chance_cards") == 1
    # the bot takes the cheapest card that wins the best property: an 8 for Pennsylvania (7)
    assert t.at(0, "board") == ["cash8"] and t.top(6) == (0, 8)
    assert t.invariants() == "ok"


def test_a_stalled_round_ends_after_two_quiet_circuits():
    """With every pile empty the round goes on while Chance cards or Tokens could still move
    cards, and is closed as stalled after two full circuits of turns that changed nothing.
    One property in reach of the 2s (Baltic, printed 1): seat 0 takes it on turn 1, seat 1's 2
    cannot beat it on turn 2; from then on nobody can flip, so turns 2-5 are quiet."""
    r = rules(deck={"cash2": 1}, die=(1,), max_rounds=1, finish_mark=100)
    out = Table([pol(), pol()], r).play_game()
    assert out["status"] == kernel.OK
    assert out["stalled_rounds"] == 1
    assert out["turns"] == 1 + 2 * 2
    assert out["seat"]["buildings"] == [1, 0]


def test_the_player_who_triggers_the_round_end_may_still_play_a_token():
    """Once the round end is triggered the player's turn is their last of the round, so a held
    Token is played after the flipped Cash rather than lost in the reshuffle. The bot keeps
    Tokens unless they gain 20 (never here) or it is the last chance."""
    t = Table([pol(), pol()], rules(properties=board(2, 2), die=(1,)))
    t.deal(1)
    t.place(0, 1, "cash11")
    t.deal(0, draw=["cash5", "cash12"], held=["token"])
    t.turn(0)  # the 5 takes the empty P1 and triggers the round end; GO brings the 12 to P0
    assert t.triggered
    assert t.corner("go") == 0
    assert t.top(0) == (0, 12) and t.top(1) == (0, 5)
    assert t.invariants() == "ok"


@pytest.mark.parametrize("must_cover", [False, True])
def test_bots_cover_exhausted_properties_only_when_the_round_end_needs_it(must_cover):
    """House rule exhausted_properties_count=True: properties with no buildings left must be
    covered too, so a spare Cash card goes there (otherwise such rounds never end); by default
    it is worth nothing and the spare card is discarded."""
    t = Table([pol(), pol()], rules(properties=board(2, 2), die=(2,), exhausted_properties_count=must_cover))
    t.give_building(1, 0, 3)  # P0 has no buildings left
    t.deal(1)
    t.deal(0, draw=["cash5", "cash6"])
    t.turn(0)
    assert t.top(1) == (0, 5)
    assert t.top(0) == ((0, 6) if must_cover else (-1, 0))
    assert t.triggered
    assert t.invariants() == "ok"


# ---------------------------------------------------------------------------------------------
# End of the game


def two_seat_game(lengths, finish_mark, max_rounds=40):
    """Seat 0 has one 5, seat 1 two 5s; three properties printed 1. Seat 0 takes the first
    (the longest building), seat 1 the other two, in one round."""
    r = rules(
        properties=board(*lengths, buildings=3),
        deck={"cash5": 1, "lucky_break": 2},
        die=(4,),
        reshuffle_empty_pile=True,
        finish_mark=finish_mark,
        max_rounds=max_rounds,
    )
    return Table([pol(), pol()], r, deck_edits={1: {"cash5": 1}}).play_game()


def test_game_ends_at_the_finish_mark_and_the_tie_goes_to_fewer_buildings():
    """'If two or more players are tied for the longest skyline, the tied player with the fewest
    buildings in their skyline wins the game.' Both skylines are 2 long: one building vs two."""
    out = two_seat_game((2, 1, 1), finish_mark=2)
    assert out["status"] == kernel.OK
    assert out["rounds"] == 1 and out["hit_round_limit"] == 0
    assert out["seat"]["skyline"] == [2, 2]
    assert out["seat"]["buildings"] == [1, 2]
    assert out["winner"] == 0
    assert out["seat"]["win"] == [1, 0]


def test_longest_skyline_wins():
    """'The player with the longest skyline wins the game' (here with more buildings)."""
    out = two_seat_game((2, 2, 2), finish_mark=2)
    assert out["seat"]["skyline"] == [2, 4]
    assert out["winner"] == 1
    assert out["seat"]["win"] == [0, 1]


def test_game_goes_on_while_nobody_reaches_the_finish_mark():
    """'If at the end of a round at least one player reaches the finish mark, the game ends':
    with the mark at 3 after a round of skylines 2 and 2, round 1 does not end the game (here
    the round limit of 1 stops it, and is reported)."""
    out = two_seat_game((2, 1, 1), finish_mark=3, max_rounds=1)
    assert out["rounds"] == 1
    assert out["hit_round_limit"] == 1
    out = two_seat_game((2, 1, 1), finish_mark=3)
    assert out["rounds"] >= 2
    assert max(out["seat"]["skyline"]) >= 3
    assert out["hit_round_limit"] == 0


def test_a_full_tie_is_shared():
    """Equal skylines and equal building counts: no single winner (winner -1), and the API
    gives each tied seat a 1/k share of the win."""
    r = rules(properties=board(1, 1, 1, buildings=1), deck={"cash5": 1, "lucky_break": 2}, die=(3,),
              reshuffle_empty_pile=True, finish_mark=1)
    t = Table([pol(), pol(), pol()], r)
    out = t.play_game()
    assert out["winner"] == -1
    assert out["seat"]["win"] == [1, 1, 1]
    df = GAME.simulate(1, 3, [pol(), pol(), pol()], r, seed=0, check=True)
    assert df["winner"].tolist() == [-1]
    assert [df[f"win_{s}"].iloc[0] for s in range(3)] == pytest.approx([1 / 3] * 3)


# ---------------------------------------------------------------------------------------------
# The eight default Chance cards (rules.CHANCE_EFFECTS_DOC)


@pytest.mark.parametrize("face, stolen", [(5, True), (4, True), (3, False)])
def test_chance_steal_building_on_a_roll_of_4_to_6(face, stolen):
    """The printed card: 'roll the die. If they roll a 4, 5 or 6 they can take the smallest
    building from any players' skyline.' The bot robs the leader of its shortest building."""
    t = Table([pol(), pol(), pol()], rules(die=(face,)))
    t.give_building(1, BALTIC)
    t.give_building(1, PENNSYLVANIA)
    t.give_building(2, ILLINOIS)
    t.chance_next("steal_building")
    assert t.draw_chance(0) == 0
    if stolen:
        assert t.buildings(0, BALTIC) == 1 and t.buildings(1, BALTIC) == 0
        assert (t.sky(0), t.sky(1), t.sky(2)) == (1, 4, 3)
    else:
        assert (t.sky(0), t.sky(1), t.sky(2)) == (0, 5, 3)
    assert t.stat(0, "chance_cards") == 1
    assert t.invariants() == "ok"


def test_chance_extra_and_fewer_flips_change_the_limit():
    t = Table([pol(), pol()])
    t.chance_next("extra_flips")
    assert t.draw_chance(0) == 2
    t.chance_next("fewer_flips")
    assert t.draw_chance(0) == -2


@pytest.mark.parametrize("number, flips", [(3, 1), (2, 1)])
def test_chance_fewer_flips_leaves_at_least_one_flip(number, flips):
    t = Table([pol(), pol()], rules(die=(0, number)))
    t.script_rolls(0, number)
    t.chance_next("fewer_flips")
    t.deal(0, draw=ALL_CASH)
    t.turn(0)
    assert t.stat(0, "flips") == flips


def test_chance_take_lucky_break_from_the_draw_pile():
    """Take a Lucky Break from the draw pile into play: the Bankrupt flipped later is shielded."""
    t = Table([pol(), pol()], rules(die=(0, 2)))
    t.script_rolls(0, 2)
    t.chance_next("take_lucky_break")
    t.deal(0, draw=["bankrupt", "lucky_break", "cash9"])
    t.turn(0)
    assert t.stat(0, "flips") == 2
    assert t.stat(0, "lucky_saves") == 1
    assert t.stat(0, "busts") == 0
    assert t.at(0, "board") == ["cash9"]
    assert t.where(0, "lucky_break") == "discard"
    assert t.pile(0) == []
    assert t.invariants() == "ok"


def test_chance_go_plays_a_cash_card_from_the_draw_pile_without_a_token():
    t = Table([pol(), pol()])
    t.deal(0, draw=ALL_CASH)
    t.chance_next("go")
    t.draw_chance(0)
    assert t.stack(PENNSYLVANIA) == [(0, "cash8")]
    assert sorted(t.pile(0)) == sorted(c for c in ALL_CASH if c != "cash8")
    assert t.corner("go") == -1 and t.where(0, "token") == "discard"
    assert t.invariants() == "ok"


def test_chance_just_visiting_plays_a_cash_card_from_the_discard_pile():
    t = Table([pol(), pol()])
    t.deal(0)
    t.chance_next("just_visiting")
    t.draw_chance(0)
    assert t.stack(PENNSYLVANIA) == [(0, "cash8")]
    assert "cash8" not in t.at(0, "discard")
    assert t.corner("just_visiting") == -1
    assert t.invariants() == "ok"


def test_chance_go_to_jail_sends_an_opponents_top_card_home():
    t = Table([pol(), pol()])
    t.place(BOARDWALK, 0, "cash9")
    t.place(BOARDWALK, 1, "cash11")
    t.place(BALTIC, 0, "cash2")
    t.chance_next("go_to_jail")
    t.draw_chance(0)
    assert t.stack(BOARDWALK) == [(0, "cash9")]
    assert t.where(1, "cash11") == "discard"
    assert t.stack(BALTIC) == [(0, "cash2")]  # never one's own card
    assert t.corner("go_to_jail") == -1
    assert t.invariants() == "ok"


def test_chance_lose_building_returns_your_shortest_building_to_the_supply():
    """Lose a Building: your shortest building goes back to its property (brown, length 1,
    before green, length 4)."""
    t = Table([pol(), pol()])
    t.give_building(0, BALTIC)
    t.give_building(0, PENNSYLVANIA)
    t.chance_next("lose_building")
    t.draw_chance(0)
    assert (t.buildings(0, BALTIC), t.buildings(0, PENNSYLVANIA)) == (0, 1)
    assert t.left(BALTIC) == 5
    assert t.sky(0) == 4
    assert t.invariants() == "ok"


def test_chance_lose_building_can_return_a_gray_building():
    """A gray (length 2) is shorter than a red building (length 3), so the gray goes back."""
    t = Table([pol(), pol()])
    t.give_building(0, ILLINOIS)
    t.give_building(0, t.gray)
    t.chance_next("lose_building")
    t.draw_chance(0)
    assert (t.buildings(0, ILLINOIS), t.buildings(0, t.gray)) == (1, 0)
    assert t.gray_left() == 4
    assert t.invariants() == "ok"


def test_chance_lose_building_without_buildings_does_nothing():
    t = Table([pol(), pol()])
    t.chance_next("lose_building")
    t.draw_chance(0)
    assert t.n_buildings(0) == 0 and t.sky(0) == 0
    assert [t.left(i) for i in range(8)] == [5, 5, 4, 4, 3, 3, 2, 2]
    assert t.invariants() == "ok"


def test_chance_deck_is_reshuffled_when_it_runs_out():
    """'Should the draw pile run out of Chance cards, you will shuffle the discard pile to form a
    new draw pile.'"""
    t = Table([pol(), pol()])
    n = len(t.rules.chance_cards)
    t.S[L.G_CHANCE_POS] = n
    t.draw_chance(0)
    assert t.S[L.G_CHANCE_POS] == 1
    assert sorted(t.S[L.CHANCE_ORDER : L.CHANCE_ORDER + n]) == list(range(n))
    assert list(t.S[L.CHANCE_ORDER : L.CHANCE_ORDER + n]) != list(range(n))


# ---------------------------------------------------------------------------------------------
# The invariant check itself, and rules validation


def test_invariant_check_catches_broken_states():
    t = Table([pol(), pol()])
    t.deal(0, draw=["cash9"])
    assert t.invariants() == "ok"
    t.S[L.DRAW_N + 0] = 2  # a card counted twice in the pile
    t.S[L.DRAW_PILE + 1] = t.S[L.DRAW_PILE + 0]
    assert t.invariants() == kernel.STATUS_NAMES[kernel.ERR_DECK]

    t = Table([pol(), pol()])
    t.place(PENNSYLVANIA, 0, "cash7")  # a 7 does not beat the printed 7
    assert t.invariants() == kernel.STATUS_NAMES[kernel.ERR_BOARD]
    t = Table([pol(), pol()])
    t.place(PENNSYLVANIA, 0, "cash7", free_parking=True)  # unless it went down via Free Parking
    assert t.invariants() == "ok"

    t = Table([pol(), pol()])
    t.S[L.SKY_LEN + 1] = 3  # a skyline that its buildings do not add up to
    assert t.invariants() == kernel.STATUS_NAMES[kernel.ERR_BUILDINGS]


@pytest.mark.parametrize(
    "changes, message",
    [
        ({"deck": {"cash": 1}}, "bad cash card"),
        ({"deck": {"cash0": 1}}, "bad cash card"),
        ({"deck": {"joker": 1}}, "unknown card 'joker'"),
        ({"deck": {"cash5": -1}}, "negative"),
        ({"deck": {"cash5": 65}}, "at most 64 cards"),
        ({"die": (0,)}, "number face"),
        ({"die": ()}, "number face"),
        ({"die": (0, -2, 3)}, "number face"),
        ({"chance_cards": (("free_money", 1),)}, "unknown Chance effect"),
        ({"chance_cards": ()}, "at least one card"),
        ({"properties": ()}, "at least one property"),
        ({"finish_mark": 0}, "finish_mark"),
        ({"max_rounds": 0}, "max_rounds"),
    ],
)
def test_rules_validation_rejects_bad_components(changes, message):
    with pytest.raises(ValueError, match=message):
        ChanceRules().replace(**changes)


@pytest.mark.parametrize("players", [1, 5])
def test_pack_rejects_player_counts_outside_2_to_4(players):
    with pytest.raises(ValueError, match="2 to 4 players"):
        pack(ChanceRules(), players)


def test_deck_edit_below_zero_copies_is_rejected():
    with pytest.raises(ValueError, match="negative"):
        pack(ChanceRules(), 2, {1: {"nope": -2}})


def test_default_deck_is_the_published_deck_in_sorted_order():
    """Components: one Cash card of each value 2..12, 4 Bankrupt, 2 Lucky Break, 1 Token,
    1 Flip 2, 1 Nope! (the harness and these tests rely on the sorted order)."""
    t = Table([pol(), pol()])
    assert t.names[0] == ALL_CASH + ["bankrupt"] * 4 + ["lucky_break"] * 2 + ["token", "flip2", "nope"]
    assert t.names[1] == t.names[0]


def test_last_at_half_marks_the_shortest_skylines_when_the_leader_reaches_half_the_mark():
    """With a finish mark of 2, half the mark is reached at the end of the round that ends the
    game, so the mark must be the final standing: the shortest skylines, none when all are
    level, and a marked seat never wins."""
    df = GAME.simulate(2000, 3, rules=ChanceRules(finish_mark=2), seed=8, threads=1)
    assert (df["rounds"] == 1).all()
    sky = df[[f"skyline_{s}" for s in range(3)]].to_numpy()
    last = df[[f"last_at_half_{s}" for s in range(3)]].to_numpy()
    low, lead = sky.min(axis=1, keepdims=True), sky.max(axis=1, keepdims=True)
    expected = (sky == low) & (low < lead)
    assert expected.any() and not expected.all(axis=1).any()
    np.testing.assert_array_equal(last, expected)
    wins = df[[f"win_{s}" for s in range(3)]].to_numpy()
    assert (wins * last).sum() == 0
