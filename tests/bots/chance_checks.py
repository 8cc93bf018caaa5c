"""Bots for tests/test_userbot.py: every decision handed to the fallback, built-in bots written
as bot files, and a bot that makes an illegal move."""

from sim.chance.bots import *


class Fallback:
    fallback = "smart"

    def flip(view, params):
        return FALLBACK

    def place_cash(view, params, n_cash, free_parking, blocked):
        return (FALLBACK, 0)

    def take_cash(view, params, n_cash):
        return FALLBACK

    def flip2(view, params, stake, bust_chance, target_skyline):
        return FALLBACK

    def nope_flip2(view, params, stake, bust_chance):
        return FALLBACK

    def nope_cash(view, params, length_at_stake):
        return FALLBACK

    def token(view, params, n_flipped, n_draw, n_discard, last_chance):
        return FALLBACK

    def jail_target(view, params):
        return FALLBACK

    def victim(view, params):
        return FALLBACK


class StopAfter:
    """stop_after: max_flip's tactics, cashing out after n flips."""

    fallback = "max_flip"
    params = {"n": (2.0, 0.0, 20.0)}

    def flip(view, params):
        return flips_taken(view) < params.n


class CashTarget:
    """cash_target: cash out once the Cash flipped this turn reaches v."""

    fallback = "max_flip"
    params = {"v": (12.0, 0.0, 200.0)}

    def flip(view, params):
        return cash_flipped(view) < params.v


class Illegal:
    """Puts its first Cash card on a property that does not exist."""

    fallback = "smart"

    def place_cash(view, params, n_cash, free_parking, blocked):
        return (0, 99)


class Forever:
    """A decision that never returns (tests/test_signals.py): Ctrl-C must still end the run."""

    fallback = "smart"

    def flip(view, params):
        n = 1
        while n > 0:
            n = (n * 3) % 1000003 + 1
        return True


class Raises:
    """A decision that raises (tests/test_signals.py)."""

    fallback = "smart"

    def flip(view, params):
        if my_skyline(view) >= 0:
            raise ValueError("never")
        return True
