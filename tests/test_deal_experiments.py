"""The Monopoly Deal specs in experiments/ resolve to the cells their docs describe."""

from pathlib import Path

import pytest

from sim.core.experiment import load_spec

SPECS = Path(__file__).resolve().parent.parent / "experiments"


@pytest.mark.parametrize(
    "name, cells",
    [("deal-seat_advantage", 4), ("deal-rotation", 4), ("deal-just_say_no", 10), ("deal-house_rules", 22), ("deal-card_values", 31)],
)
def test_each_deal_spec_resolves(name, cells):
    plan = load_spec(SPECS / f"{name}.toml")
    assert plan.spec["game"] == "deal" and plan.name == name
    assert len(plan.cells) == cells


def test_the_card_values_spec_tries_every_wild_rent_action_and_money_card():
    # The card-value report: each action card, each wild, one more money card.
    from sim.deal.rules import PROPERTY, DealRules, card_spec

    plan = load_spec(SPECS / "deal-card_values.toml")
    edits = {c["labels"].get("deck") for c in plan.cells}
    wanted = {f"{name}+1" for name in DealRules().deck if card_spec(name)[0] != PROPERTY}
    assert wanted <= edits and len(wanted) == 30
