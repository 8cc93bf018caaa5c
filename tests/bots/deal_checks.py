"""Bots for tests/test_userbot.py: every decision handed to the fallback, and a bot that makes
an illegal move."""

from sim.deal.bots import *


class Fallback:
    fallback = "smart"

    def play(view, params):
        return (FALLBACK, 0, 0, 0, 0)

    def pay(view, params, owed, creditor, n_candidates):
        return FALLBACK

    def discard(view, params):
        return FALLBACK

    def just_say_no(view, params, actor, victim, action, stake, defending):
        return FALLBACK

    def received_colour(view, params, card):
        return FALLBACK


class Illegal:
    """Banks its first card, whatever it is (a property may not go to the bank)."""

    fallback = "smart"

    def play(view, params):
        if card_type(view, hand_card(view, 0)) == PROPERTY:
            return (0, BANK, 0, 0, 0)
        return (FALLBACK, 0, 0, 0, 0)
