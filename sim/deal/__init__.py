"""Monopoly Deal: rules, layout, kernel and API."""
