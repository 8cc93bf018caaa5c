"""What the bot tests share: the example bot of each game, its fallback, and the check bots."""

import pandas as pd

EXAMPLES = {
    "chance": "experiments/bots/chance_behind.py:Behind",
    "deal": "experiments/bots/deal_rent_first.py:RentFirst",
    "classic": "experiments/bots/classic_builder.py:Builder",
    "cardgame": "experiments/bots/cardgame_collector.py:Collector",
}
FALLBACKS = {"chance": "smart", "deal": "smart", "classic": "strong", "cardgame": "smart"}


def checks(game: str, name: str) -> str:
    return f"tests/bots/{game}_checks.py:{name}"


def table(df: pd.DataFrame) -> pd.DataFrame:
    """A per-game table without its policy names (which name the bot or the built-in)."""
    return df[[c for c in df.columns if not c.startswith("policy_")]]
