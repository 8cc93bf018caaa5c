"""Declared layouts (sim/core/layout.py): offsets handed out in order, refusals, decode, and
every game's state read back by name through the step API."""

import numpy as np
import pytest

from sim.core.game import GAME_NAMES, get
from sim.core.layout import Layout
from sim.core.play import new_game


def test_fields_are_laid_out_in_order_and_decode_as_views():
    block = Layout("test", start=3)
    a = block.field("A")
    b = block.field("B", 2, 3)
    c = block.field("C", at=20)
    d = block.field("D", 2, align=4)
    assert (a, b, c, d, block.end) == (3, 4, 20, 24, 26)
    S = np.arange(30, dtype=np.int32)
    f = block.decode(S)
    assert f["A"] == 3 and f["C"] == 20 and f["B"].shape == (2, 3) and f["B"][1, 0] == 7
    f["B"][1, 0] = -1
    assert S[7] == -1  # a view: writing to it writes to the array
    block.check({"A": 3, "B": 4, "C": 20, "D": 24})
    with pytest.raises(AssertionError, match="B"):
        block.check({"A": 3, "B": 5, "C": 20, "D": 24})


def test_a_field_declared_twice_or_overlapping_is_refused():
    block = Layout("test")
    block.field("A", 4)
    with pytest.raises(ValueError, match="declared twice"):
        block.field("A")
    with pytest.raises(ValueError, match="overlaps"):
        block.field("B", at=2)


@pytest.mark.parametrize("name", GAME_NAMES)
def test_a_stepped_game_reads_back_by_name(name):
    game = get(name)
    state = new_game(name, seed=3)
    fields = state.fields()
    assert set(game.kernel.layout.RULES.fields) | set(game.kernel.layout.STATE.fields) == set(fields)
    assert fields["R_PLAYERS"] == state.players and fields["G_STATUS"] == game.kernel.module.OK
    assert fields["STATS"].shape == (game.kernel.layout.MAX_PLAYERS, len(game.kernel.seat_cols))
    fields["STATS"][:] = -5
    assert (state.fields()["STATS"] != -5).all()  # a copy: writing to it changes nothing in the game
