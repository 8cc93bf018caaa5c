"""Monopoly: The Card Game (both editions): rules, kernel, bots, analyses."""
