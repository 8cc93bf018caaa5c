"""What every game's run does around its kernel (sim/core/game.py): the seats' policy specs ->
the kernel's policy arrays, and the kernel's output arrays -> the per-game DataFrame."""

from __future__ import annotations

import numpy as np
import pandas as pd

from sim.core import userbot
from sim.core.runner import UsageError
from strategies.catalog import Catalog, PolicyError


def make_table(
    title: str, catalog: Catalog, default_table, players: int, seats: list[str] | None, min_players: int, max_players: int
) -> tuple[list[str], np.ndarray, np.ndarray]:
    """One policy spec per seat -> (canonical specs, kinds, parameter matrix). Seats not given
    are filled from `default_table`. Raises UsageError on a bad player count or spec."""
    if not min_players <= players <= max_players:
        raise UsageError(f"--players must be {min_players} to {max_players} for {title} (got {players})")
    seats = list(seats or [])
    if len(seats) > players:
        raise UsageError(f"{len(seats)} --seat policies given for {players} players")
    seats += list(default_table[len(seats) : players])
    try:
        parsed = [catalog.parse(s) for s in seats]
    except PolicyError as e:
        raise UsageError(str(e)) from None
    specs = [p[0] for p in parsed]
    kinds = np.array([p[1] for p in parsed], np.int64)
    return specs, kinds, userbot.stack_rows(catalog.game, specs, [p[2] for p in parsed])


def games_frame(
    kernel, game_out: np.ndarray, seat_out: np.ndarray, seat_cols, win_col: int, specs, seed: int, first_game: int = 0,
    **attrs,
) -> pd.DataFrame:
    """The per-game table from the kernel's column-major outputs game_out[column, game] and
    seat_out[seat, stat, game] (so that each column of the table is a contiguous row): seed,
    game, the kernel's game columns, then ``<stat>_<seat>`` for every seat stat and
    ``policy_<seat>``. ``win_<seat>`` becomes the seat's share of the win (ties split it).
    `kernel` names the game columns (GAME_COLS, status last) and the status codes; a game that
    broke an invariant raises. `attrs` go to ``df.attrs`` with the seed and the policies."""
    bad = game_out[kernel.G_STATUS_OUT] != kernel.OK
    if bad.any():
        i = int(np.argmax(bad))
        code = int(game_out[kernel.G_STATUS_OUT, i])
        raise RuntimeError(
            f"engine invariant broken in game {first_game + i} (seed {seed}): {kernel.STATUS_NAMES[code]}"
        )
    players, _, n = seat_out.shape
    cols = {"seed": np.full(n, seed, np.uint64), "game": np.arange(first_game, first_game + n, dtype=np.int64)}
    for j, name in enumerate(kernel.GAME_COLS[:-1]):  # the status column is always ok here
        cols[name] = game_out[j]
    wins = seat_out[:, win_col].astype(float)
    shares = wins / np.maximum(wins.sum(axis=0), 1)
    for s in range(players):
        for j, name in enumerate(seat_cols):
            cols[f"{name}_{s}"] = shares[s] if j == win_col else seat_out[s, j]
        cols[f"policy_{s}"] = pd.Categorical.from_codes(np.zeros(n, np.int8), [specs[s]], validate=False)
    # The columns are views of the kernel's outputs: no copy into one block (at a million games
    # that copy writes hundreds of MB of fresh memory, a large share of a run's time).
    df = pd.DataFrame(cols, copy=False)
    df.attrs.update(seed=int(seed), players=players, policies=list(specs), **attrs)
    return df
