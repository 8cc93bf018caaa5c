"""Monopoly Chance."""


def odds(*args, **kwargs):
    """Exact odds of a turn: see sim.chance.exact_odds.odds."""
    from sim.chance.exact_odds import odds as _odds

    return _odds(*args, **kwargs)
