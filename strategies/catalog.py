"""Policy specs, shared by every game.

A policy is a kind (an integer the kernel branches on) plus a float64 parameter vector. Users
write it as ``"name key=value ..."``; each game's strategies module declares its kinds and
parameters once, as a ``Catalog``, which parses specs, lists defaults and ranges for
``monosim <game> policies``, and tells the tuner what it may search.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np


class PolicyError(ValueError):
    """A policy spec that names an unknown kind or parameter, or a value out of range."""


@dataclass(frozen=True)
class Param:
    slot: int
    low: float
    high: float
    doc: str
    # A parameter written as a name: the value stored is the name's index.
    names: tuple[str, ...] = ()

    def show(self, value: float) -> str:
        return self.names[int(value)] if self.names else f"{value:g}"

    def range_text(self) -> str:
        return f"one of {', '.join(self.names)}" if self.names else f"in [{self.low:g}, {self.high:g}]"


@dataclass(frozen=True)
class Kind:
    code: int
    doc: str
    # Every parameter the kind accepts, with its default.
    defaults: dict[str, float] = field(default_factory=dict)


class Catalog:
    """The policy kinds and parameters of one game."""

    def __init__(self, n_params: int, params: dict[str, Param], kinds: dict[str, Kind]):
        for name, kind in kinds.items():
            unknown = set(kind.defaults) - set(params)
            assert not unknown, f"kind {name} has undeclared parameters {unknown}"
        self.n_params, self.params, self.kinds = n_params, params, kinds

    def parse(self, spec: str) -> tuple[str, int, np.ndarray]:
        """'name k=v ...' -> (canonical spec, kind code, parameter vector)."""
        words = spec.split()
        if not words:
            raise PolicyError("empty policy; use one of: " + ", ".join(self.kinds))
        name = words[0]
        if name not in self.kinds:
            raise PolicyError(f"unknown policy {name!r}; use one of: {', '.join(self.kinds)}")
        kind = self.kinds[name]
        values = np.zeros(self.n_params)
        for key, default in kind.defaults.items():
            values[self.params[key].slot] = default
        for word in words[1:]:
            key, eq, raw = word.partition("=")
            if not eq:
                raise PolicyError(f"policy {name}: expected key=value, got {word!r}")
            if key not in kind.defaults:
                raise PolicyError(f"policy {name}: unknown parameter {key!r}; known: {', '.join(kind.defaults)}")
            param = self.params[key]
            if param.names:
                if raw not in param.names:
                    raise PolicyError(f"policy {name}: {key}={raw!r}; use one of: {', '.join(param.names)}")
                value = float(param.names.index(raw))
            else:
                try:
                    value = float(raw)
                except ValueError:
                    raise PolicyError(f"policy {name}: {key}={raw!r} is not a number") from None
            if not param.low <= value <= param.high:
                raise PolicyError(f"policy {name}: {key}={raw} is outside [{param.low:g}, {param.high:g}]")
            values[param.slot] = value
        return " ".join(words), kind.code, values

    def defaults(self, name: str) -> dict[str, float]:
        """The parameters kind `name` accepts, with their default values."""
        return dict(self.kinds[name].defaults)

    def listing(self) -> list[str]:
        """Lines for ``monosim <game> policies``: each kind with the defaults that set it apart,
        then every parameter with its range."""
        common = {
            key: values.pop()
            for key in self.params
            if len(values := {k.defaults.get(key) for k in self.kinds.values()}) == 1 and None not in values
        }
        lines = []
        for name, kind in self.kinds.items():
            own = " ".join(
                f"{k}={self.params[k].show(v)}" for k, v in kind.defaults.items() if k not in common
            )
            lines += [f"{name} {own}".rstrip(), f"    {kind.doc}"]
        lines.append("Parameters (default for every kind if one; range): meaning")
        for key, param in self.params.items():
            default = f"={param.show(common[key])}" if key in common else ""
            lines.append(f"  {key}{default} ({param.range_text()}): {param.doc}")
        return lines
