"""Bots for tests/test_userbot.py: every decision handed to the fallback, and a bot that makes
an illegal move."""

from sim.classic.bots import *


class Fallback:
    fallback = "strong"

    def buy(view, params, square):
        return FALLBACK

    def bid(view, params, square):
        return FALLBACK

    def build(view, params):
        return FALLBACK

    def jail(view, params):
        return FALLBACK

    def propose_trade(view, params):
        return (FALLBACK, 0, 0, 0)

    def answer_trade(view, params, proposer):
        return FALLBACK

    def take_counter(view, params, partner, extra):
        return FALLBACK


class Illegal:
    """Builds on GO."""

    fallback = "strong"

    def build(view, params):
        return 0
