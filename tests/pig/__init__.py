"""Pig, a reference game registered from the tests through the public game contract only
(sim/core/game.py `register`): the smallest game with decision points, whose optimal play is
published (Neller and Presser), so that monosim's machinery can be checked against it."""
