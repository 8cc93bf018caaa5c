"""Bots for tests/test_userbot.py: every decision handed to the fallback, and a bot that makes
an illegal move."""

from sim.cardgame.bots import *


class Fallback:
    fallback = "smart"

    def move(view, params, big):
        return (FALLBACK, 0, 0, 0)

    def discard(view, params):
        return FALLBACK

    def go_out(view, params):
        return FALLBACK


class Illegal:
    """Trades with its own pile."""

    fallback = "smart"

    def move(view, params, big):
        return (TRADE, my_seat(view), 1, 0)
