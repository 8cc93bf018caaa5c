"""Bots written by users, checked against the built-in bots (tests/bots/*_checks.py): a bot
that hands every decision to its fallback, or copies a built-in bot, plays the built-in bot's
games exactly, through every decision's entry point; a bot is asked every decision it defines;
an illegal move is refused and reported."""

import json

import pytest

from sim.core.game import get
from sim.core.userbot import BotError, api
from tests.bot_harness import EXAMPLES, FALLBACKS, checks, table


@pytest.mark.parametrize("game", list(EXAMPLES))
def test_a_bot_that_hands_every_decision_to_its_fallback_plays_its_games(game):
    """Every decision of the game goes through the bot's wrapper and back to the built-in bot."""
    g = get(game)
    other = "trader" if game == "classic" else "random"
    bot = checks(game, "Fallback")
    builtin = g.simulate(300, 4, [FALLBACKS[game], other, FALLBACKS[game]], seed=8, check=True)
    mine = g.simulate(300, 4, [bot, other, bot], seed=8, check=True)
    assert table(mine).equals(table(builtin))
    assert mine.attrs["policies"][0] == bot


@pytest.mark.parametrize("bot, builtin", [("StopAfter", "stop_after n=2"), ("StopAfter n=4", "stop_after n=4"),
                                          ("CashTarget v=15", "cash_target v=15")])
def test_a_bot_that_copies_a_built_in_bot_plays_its_games(bot, builtin):
    g = get("chance")
    seats = [checks("chance", bot), "smart", checks("chance", bot)]
    mine = g.simulate(2000, 3, seats, seed=2, threads=2, chunk_size=300)
    theirs = g.simulate(2000, 3, [builtin, "smart", builtin], seed=2)
    assert table(mine).equals(table(theirs))


def test_a_copied_bot_gives_the_same_replay_and_advice(monosim):
    copy, builtin = checks("chance", "StopAfter"), "stop_after n=2"
    replays = [monosim("chance", "replay", "--game", "5", "--seat", seat, "--json") for seat in (copy, builtin)]
    events = [json.loads(r.stdout)["results"]["events"] for r in replays]
    assert events[0] == events[1] and len(events[0]) > 10
    advice = [json.loads(monosim("chance", "advise", "--cash", "5", "--flipped", "7", "--games", "400",
                                 "--policy", seat, "--json").stdout)["results"] for seat in (copy, builtin)]
    for a in advice:
        a["simulation"].pop("seats")
    assert advice[0] == advice[1]


@pytest.mark.parametrize("game", list(EXAMPLES))
def test_an_illegal_move_is_refused_and_reported(game, monosim, tmp_path):
    out = tmp_path / "out"
    r = monosim(game, "simulate", "--games", "50", "--seat", checks(game, "Illegal"), "--no-progress",
                "--out", str(out))
    errors = [line for line in r.stderr.splitlines() if line.startswith("monosim: error")]
    assert r.returncode == 2 and len(errors) == 1, r.stderr
    assert f"{game}_checks.py:" in r.stderr and "bot Illegal" in r.stderr and "illegal move refused" in r.stderr
    assert not out.exists()
    if game == "deal":  # the refused play, with its numbers and card (a property sent to the bank)
        shown = r.stderr.split("illegal move refused: (k, mode, a, b, t) = (0, 0, 0, 0, 0), card ")[1]
        assert shown.split(" (must be")[0] in {"brown", "light blue", "pink", "orange", "red", "yellow", "green",
                                               "dark blue", "railroad", "utility"}


PLAYERS = {"chance": 4, "deal": 5, "classic": 4, "cardgame": 4}  # where each decision comes up within 400 games


@pytest.mark.parametrize("game", list(EXAMPLES))
def test_a_bot_is_asked_every_decision_it_takes(game, tmp_path):
    """Nothing reaches a decision past the bot: for each decision of the game, a bot that raises
    when asked it (and hands every other decision to its fallback) ends a game on it."""
    decisions = api(game).decisions
    text = f"from sim.{game}.bots import *\n"
    for d in decisions:
        text += (f"\n\nclass Ask_{d.name}:\n    fallback = {FALLBACKS[game]!r}\n\n"
                 f"    def {d.name}({', '.join(d.args)}):\n        if my_seat(view) >= 0:\n"
                 f"            raise ValueError('asked')\n        return ({d.hand_back})\n")
    path = tmp_path / f"{game}_asks.py"
    path.write_text(text)
    players = PLAYERS[game]
    for d in decisions:
        with pytest.raises(BotError, match=f"bot Ask_{d.name}, decision {d.name} raised an exception"):
            get(game).simulate(400, players, [f"{path}:Ask_{d.name}"] * players, seed=1)
