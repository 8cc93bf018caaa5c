"""monosim: Monte Carlo strategy simulator for the Monopoly family of games."""

__version__ = "0.1.0"
