"""``--rule KEY=VALUE`` changes, shared by every game.

Each game names the keys it accepts and how to read each value (a dict key -> parser); a rules
object with a ``deck`` dict also takes ``deck.CARD=COUNT``. The rules object's ``replace``
applies and validates the changes.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

from sim.core.runner import UsageError


LARGEST_VALUE = 2**31 - 1  # the kernels hold rules as int32
MAX_CARD_COUNT = 1000  # copies of one card (each game then checks its own deck size)


def parse_bool(raw) -> bool:
    if isinstance(raw, bool):
        return raw
    low = str(raw).lower()
    if low in ("1", "true", "yes", "on"):
        return True
    if low in ("0", "false", "no", "off"):
        return False
    raise ValueError(raw)


def choice(options: tuple[str, ...]) -> Callable[[str], str]:
    """A parser that accepts one of `options`."""

    def parse(raw: str) -> str:
        if raw not in options:
            raise UsageError(f"{raw!r} is not one of {', '.join(options)}")
        return raw

    parse.options = options  # for whoever lists or draws the choices (the contract tests)
    return parse


def _in_range(value) -> bool:
    """Every whole number in a parsed rule value (a list's items too) fits the kernels' int32."""
    if isinstance(value, (list, tuple)):
        return all(_in_range(v) for v in value)
    return not isinstance(value, int) or isinstance(value, bool) or -LARGEST_VALUE <= value <= LARGEST_VALUE


def apply_rule_changes(rules, changes: list[str], parsers: dict[str, Callable[[str], object]]):
    """A copy of `rules` with each 'KEY=VALUE' in `changes` applied. Raises UsageError naming
    the key on any mistake."""
    fields: dict = {}
    deck = dict(rules.deck) if hasattr(rules, "deck") else None
    for change in changes:
        key, eq, raw = change.partition("=")
        key, raw = key.strip(), raw.strip()
        if not eq or not key:
            raise UsageError(f"rule change {change!r}: write KEY=VALUE")
        is_card = deck is not None and key.startswith("deck.")
        if not is_card and key not in parsers:
            known = ", ".join(list(parsers) + (["deck.CARD"] if deck is not None else []))
            raise UsageError(f"unknown rule {key!r}; known: {known}")
        try:
            if is_card:
                deck[key[5:]] = int(raw)
                if not 0 <= deck[key[5:]] <= MAX_CARD_COUNT:
                    raise UsageError(f"a count must be 0 to {MAX_CARD_COUNT} (got {raw})")
            else:
                fields[key] = parsers[key](raw)
                if not _in_range(fields[key]):
                    raise UsageError(f"{raw} is out of range (at most {LARGEST_VALUE:,} either way)")
        except UsageError as e:
            raise UsageError(f"rule {key}: {e}") from None
        except ValueError:
            raise UsageError(f"rule {key}: bad value {raw!r}") from None
    if deck is not None and deck != rules.deck:
        fields["deck"] = deck
    try:
        return rules.replace(**fields)
    except ValueError as e:
        raise UsageError(str(e)) from None


class RulesMixin:
    """For a game's frozen rules dataclass whose ``house`` field holds its house rules."""

    def replace(self, **changes):
        """A checked copy with top-level fields or house rules (by name) changed."""
        names = {f.name for f in dataclasses.fields(self.house)}
        house = {k: changes.pop(k) for k in list(changes) if k in names}
        rules = dataclasses.replace(self, **changes)
        if house:
            rules = dataclasses.replace(rules, house=dataclasses.replace(rules.house, **house))
        rules.validate()
        return rules


def extra_cards(deck_edits: dict[int, dict[str, int]] | None, check_name: Callable[[str], object],
                hand: str) -> list[tuple[str, int]]:
    """(name, seat) of each seat's extra cards (deck edits: seat -> {card name: copies}), seats
    and names in sorted order. `check_name` raises ValueError on an unknown card; a negative
    count is refused, as a seat's edits only add cards to its `hand`."""
    extras = []
    for seat in sorted(deck_edits or {}):
        for name, count in sorted(deck_edits[seat].items()):
            check_name(name)
            if count < 0:
                raise ValueError(
                    f"deck edit for seat {seat}: {name} {count:+d}; a seat's edits add cards to its {hand} "
                    "(remove cards from everyone with --rule deck.NAME=COUNT)"
                )
            extras += [(name, seat)] * count
    return extras


def house_rules_text(house, doc: dict[str, str], heading: str = "House rules (name = default):") -> str:
    """The `rules` listing of house rules: name = value: meaning."""
    lines = [heading]
    for name, text in doc.items():
        value = getattr(house, name)
        lines.append(f"  {name} = {str(value).lower() if isinstance(value, bool) else value}: {text}")
    return "\n".join(lines) + "\n"
