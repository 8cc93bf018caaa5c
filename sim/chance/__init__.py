"""Monopoly Chance."""
