"""What the position files that show a seat's view share (sim/deal/position.py,
sim/cardgame/position.py): reading the file, the top level and each player's table, the hand
of the seat to move against the others' hand sizes, and handing out card numbers by name. Every
mistake is a UsageError of one line naming the field."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from sim.core.runner import UsageError, read_document


def for_advice(path: str | Path, parse: Callable[[dict], tuple]) -> tuple:
    """A position file parsed as `advise --position` takes it (Game.position); a mistake names
    the file."""
    data = read_document(path, "position file")
    try:
        return parse(data)
    except UsageError as e:
        raise UsageError(f"position file {path}: {e}") from None


def whole_number(value, what: str, lo: int, hi: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise UsageError(f"{what} must be a whole number (got {value!r})")
    if not lo <= value <= hi:
        raise UsageError(f"{what} must be between {lo} and {hi} (got {value})")
    return value


def document(data, top_keys: set[str], game) -> tuple[object, list]:
    """The document's rules (its [rules] table, from the game's defaults) and its players."""
    if not isinstance(data, dict):
        raise UsageError("the top level must be a table / object")
    unknown = set(data) - top_keys
    if unknown:
        raise UsageError(f"unknown key {sorted(unknown)[0]!r}; known: {', '.join(sorted(top_keys))}")
    rule_table = data.get("rules", {})
    if not isinstance(rule_table, dict):
        raise UsageError("[rules] must be a table of KEY = VALUE")
    players = data.get("player", data.get("players"))
    if not isinstance(players, list) or not players:
        raise UsageError("give the players as a list: [[player]] tables in TOML, \"player\": [...] in JSON")
    return game.rules_of(rule_table), players


def seat_to_move(data: dict, players: int) -> int:
    if "seat" not in data:
        raise UsageError("seat: give the seat to move (0 to the players less one)")
    return whole_number(data["seat"], "seat", 0, players - 1)


def player_table(pl, what: str, keys: set[str]) -> dict:
    if not isinstance(pl, dict):
        raise UsageError(f"{what} must be a table / object")
    bad = set(pl) - keys
    if bad:
        raise UsageError(f"{what}: unknown key {sorted(bad)[0]!r}; known: {', '.join(sorted(keys))}")
    return pl


def hand_size(pl: dict, what: str, to_move: bool, listed: int, limit: int) -> int:
    """How many cards the seat holds: the seat to move lists its whole hand, another seat gives
    a hand_size (the cards it does not list are dealt from the unseen ones)."""
    if to_move and "hand_size" in pl and pl["hand_size"] != listed:
        raise UsageError(f"{what}: the seat to move lists its whole hand; leave out hand_size")
    if not to_move and "hand_size" not in pl:
        raise UsageError(f"{what}.hand_size: give how many cards this seat holds (its cards are dealt "
                         "from those the seat to move cannot see)")
    return whole_number(pl.get("hand_size", listed), f"{what}.hand_size", listed, limit)


class Cards:
    """The card numbers of a game's deck, handed out by name, each copy once; the ones never
    handed out are those the seat to move cannot see."""

    def __init__(self, keys: list, key_of: Callable[[object, str], object], rules_command: str):
        """keys: each card number's key (its name or kind); key_of(name, what): a name's key
        (as the file may spell it); rules_command: the command that lists the deck."""
        self.free: dict = {}
        for c, key in enumerate(keys):
            self.free.setdefault(key, []).append(c)
        self.counts = {key: len(cards) for key, cards in self.free.items()}
        self.key_of, self.rules_command = key_of, rules_command

    def take(self, name, what: str) -> tuple[int, object]:
        """A card number of this name, and its key."""
        key = self.key_of(name, what)
        if key not in self.counts:
            raise UsageError(f"{what}: unknown card {name!r}; `{self.rules_command}` lists the deck")
        if not self.free[key]:
            raise UsageError(f"{what}: one {name!r} too many: the deck has {self.counts[key]}")
        return self.free[key].pop(0), key

    def unseen(self) -> int:
        return sum(len(cards) for cards in self.free.values())

    def check_room(self, dealt: int) -> None:
        """The other hands' unlisted cards must fit in the unseen ones."""
        if dealt > self.unseen():
            raise UsageError(f"the hands' sizes need {dealt} unseen cards, and the deck has {self.unseen()} left")
