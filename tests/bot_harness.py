"""What the bot tests share: the example bot of each game, its fallback, and the check bots."""

from pathlib import Path

import pandas as pd

from sim.core.game import GAME_NAMES
from sim.core.userbot import read_file, without_running

ROOT = Path(__file__).resolve().parent.parent


def _example(game: str):
    """A game's example bot: the first class of its first file in experiments/bots/ (every
    registered game ships one; a new game without one fails here)."""
    path = sorted((ROOT / "experiments" / "bots").glob(f"{game}_*.py"))[0]
    with without_running():
        bot = next(iter(read_file(game, str(path)).values()))
    return f"experiments/bots/{path.name}:{bot.name}", bot.fallback


EXAMPLES, FALLBACKS = {}, {}
for _game in GAME_NAMES:
    EXAMPLES[_game], FALLBACKS[_game] = _example(_game)


def checks(game: str, name: str) -> str:
    return f"tests/bots/{game}_checks.py:{name}"


def table(df: pd.DataFrame) -> pd.DataFrame:
    """A per-game table without its policy names (which name the bot or the built-in)."""
    return df[[c for c in df.columns if not c.startswith("policy_")]]
