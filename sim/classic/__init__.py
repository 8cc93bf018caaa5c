"""Classic Monopoly (US edition): the full official rules, house rules as switches."""
