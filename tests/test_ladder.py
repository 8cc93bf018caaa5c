"""Ladders (sim/core/ladder.py): every bot of a game rated against the others. The ordering that
matters holds in every game: the strongest bot above the simple heuristics, those above random
(each comparison by 95% intervals that do not overlap)."""

import pytest

from sim.core.game import get
from sim.core.ladder import bots, play_ladder, tables

# game (and rules), players (None: the game's usual table), the strongest bot, simple heuristics it must beat
ORDER = [
    ("chance", [], None, "smart", ["stop_after", "max_flip"]),
    ("deal", [], None, "smart", ["banker"]),
    ("classic", [], None, "strong", ["buy_all", "three_houses"]),
    # heads-up, where trading bots once lost to random (they proposed trades that only paid at four players)
    ("classic", [], 2, "strong", ["buy_all", "three_houses", "jail_stayer", "trader"]),
    ("cardgame", [], None, "smart", ["greedy", "cautious"]),
    ("cardgame", ["edition=video"], None, "smart", ["greedy", "cautious"]),
]


def test_tables_seat_every_choice_of_bots_in_every_rotation():
    assert tables(["a", "b", "c"], 2) == [("a", "b"), ("a", "c"), ("b", "c"), ("b", "a"), ("c", "a"), ("c", "b")]
    three = tables(["a", "b", "c", "d"], 3)
    assert len(three) == 4 * 3 and ("b", "c", "a") in three and len(set(three)) == 12


@pytest.mark.parametrize("name, changes, players, strongest, heuristics", ORDER,
                         ids=["chance", "deal", "classic", "classic-2", "cardgame-wiki", "cardgame-video"])
def test_the_strongest_bot_beats_the_heuristics_which_beat_random(name, changes, players, strongest, heuristics):
    game = get(name)
    ladder = play_ladder(game, players=players, games=300, seed=7, rules=game.rules_from(changes))
    r = ladder.ranking.set_index("policy")
    assert set(r.index) == set(bots(game))
    for h in heuristics:
        assert r.loc[strongest, "strength_low"] > r.loc[h, "strength_high"], (strongest, h)
        assert r.loc[h, "strength_low"] > r.loc["random", "strength_high"], (h, "random")
    assert r.loc["random", "rank"] == len(r)
    h2h = ladder.head_to_head
    assert ((h2h + h2h.T).stack().dropna().round(9) == 1).all()  # each pair's results shared out once
