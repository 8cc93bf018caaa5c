"""Declared memory layouts: the one place a game's flat int32 arrays (its rules block, its
state, a position's start array) say what lives where.

Each game's layout.py declares its fields in order, and each declaration hands back the
field's offset as a plain int, a module constant the kernels read as a compile-time constant:

    STATE = Layout("state", start=RULES_SIZE)
    WHERE = STATE.field("WHERE", MAX_CARDS)  # [card]
    G_CURRENT = STATE.field("G_CURRENT")
    STATE_SIZE = STATE.end

The declaration then gives what used to be written by hand around it: the fields' names and
shapes, and `decode(S)`, a state as a dict of named numpy views that the test harnesses, the
step API's `State.fields()` and a debugging session share.
"""

import math

import numpy as np


class Layout:
    """The fields of one block of a flat int32 array, declared in order from `start`."""

    def __init__(self, name: str, start: int = 0):
        self.name = name
        self.end = start  # one past the last field declared so far
        self.fields: dict[str, tuple[int, tuple[int, ...]]] = {}  # name -> (offset, shape)

    def field(self, name: str, *shape: int, at: int | None = None, align: int = 1) -> int:
        """Declare the next field: a scalar, or an array of this shape (row-major, so
        ``[p * N + k]`` is shape ``(P, N)``). ``at``: a fixed offset at or after the end so far
        (the room before it stays unused); ``align``: round the offset up to a multiple (a
        float64 kept in two int32 slots)."""
        if name in self.fields:
            raise ValueError(f"{self.name} layout: {name} is declared twice")
        offset = self.end if at is None else at
        if offset < self.end:
            raise ValueError(f"{self.name} layout: {name} at {offset} overlaps the field before it")
        offset = -(-offset // align) * align
        self.fields[name] = (offset, tuple(shape))
        self.end = offset + math.prod(shape)
        return offset

    def check(self, namespace: dict) -> None:
        """Assert that the module declaring the fields binds each name to its offset (a field
        declared under one name and assigned to another would decode wrongly)."""
        wrong = [name for name, (offset, _) in self.fields.items() if namespace.get(name) != offset]
        if wrong:
            raise AssertionError(f"{self.name} layout: not bound to their offsets: {', '.join(wrong)}")

    def decode(self, S: np.ndarray) -> dict:
        """Every field of `S` by name: a scalar as an int, an array as a view of its shape
        (writing to it writes to `S`)."""
        out = {}
        for name, (offset, shape) in self.fields.items():
            out[name] = int(S[offset]) if not shape else S[offset:offset + math.prod(shape)].reshape(shape)
        return out
