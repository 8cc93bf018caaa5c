"""Policy specs, shared by every game.

A policy is a kind (an integer the kernel branches on) plus a float64 parameter vector. Users
write it as ``"name key=value ..."``; each game's strategies module declares its kinds and
parameters once, as a ``Catalog``, which parses specs, lists defaults and ranges for
``monosim <game> policies``, and tells the tuner what it may search.

Presets are named specs: ``strategies/presets/<game>.toml`` (shipped with the code, written by
``monosim tune --save-preset``) and, when the environment variable ``MONOSIM_PRESETS`` names a
folder, ``$MONOSIM_PRESETS/<game>.toml`` (a user's own; it wins on a name clash). Each table is
one preset::

    [tuned]
    spec = "smart risk=0.6 flip2_stake=4"
    doc = "what it is and how it was made"

``"tuned"`` then parses as its spec, and ``"tuned risk=0.8"`` as the spec with risk replaced.
A preset's spec must start with a kind, not another preset. A spec that names a bot file,
``"path/to/file.py:NAME k=v ..."``, is a user's bot (sim/core/userbot.py, docs/bots.md).
"""

from __future__ import annotations

import os
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from sim.core.userbot import is_bot_spec
from sim.core.userbot import parse as parse_bot

PRESET_DIR = Path(__file__).resolve().parent / "presets"
PRESET_ENV = "MONOSIM_PRESETS"


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
    # Too slow to enter every ladder (Chance's rollout player): it joins one through --seat.
    slow: bool = False


class Catalog:
    """The policy kinds and parameters of one game."""

    def __init__(self, n_params: int, params: dict[str, Param], kinds: dict[str, Kind], game: str = "",
                 note: str = ""):
        for name, kind in kinds.items():
            unknown = set(kind.defaults) - set(params)
            assert not unknown, f"kind {name} has undeclared parameters {unknown}"
        self.n_params, self.params, self.kinds = n_params, params, kinds
        self.game = game  # names the preset files; "" for no presets
        self.note = note  # true of every kind; listed after them
        self._preset_cache: dict = {}

    def preset_files(self) -> list[Path]:
        """The preset files of this game, shipped first, then the user's (later ones win)."""
        if not self.game:
            return []
        files = [PRESET_DIR / f"{self.game}.toml"]
        if os.environ.get(PRESET_ENV):
            files.append(Path(os.environ[PRESET_ENV]) / f"{self.game}.toml")
        return files

    def presets(self) -> dict[str, dict]:
        """Preset name -> {"spec", "doc", "file"}; files are re-read only when they change."""
        found: dict[str, dict] = {}
        for path in self.preset_files():
            try:
                stamp = path.stat().st_mtime_ns
            except OSError:
                continue
            key = str(path)
            if self._preset_cache.get(key, (None,))[0] != stamp:
                self._preset_cache[key] = (stamp, self._read_presets(path))
            found.update(self._preset_cache[key][1])
        return found

    def _read_presets(self, path: Path) -> dict[str, dict]:
        try:
            raw = tomllib.loads(path.read_text())
        except (OSError, tomllib.TOMLDecodeError) as e:
            raise PolicyError(f"preset file {path}: {e}") from None
        out = {}
        for name, table in raw.items():
            where = f"preset file {path}: [{name}]"
            if not isinstance(table, dict) or not isinstance(table.get("spec"), str):
                raise PolicyError(f"{where}: expected a table with spec = \"KIND key=value ...\"")
            if set(table) - {"spec", "doc"}:
                raise PolicyError(f"{where}: unknown key(s) {', '.join(sorted(set(table) - {'spec', 'doc'}))}")
            if name in self.kinds:
                raise PolicyError(f"{where}: the name is a policy kind; choose another")
            if not table["spec"].split() or table["spec"].split()[0] not in self.kinds:
                raise PolicyError(f"{where}: spec must start with a policy kind ({', '.join(self.kinds)})")
            try:
                self._parse_words(table["spec"].split())
            except PolicyError as e:
                raise PolicyError(f"{where}: {e}") from None
            out[name] = {"spec": table["spec"], "doc": table.get("doc", ""), "file": str(path)}
        return out

    def parse(self, spec: str) -> tuple[str, int, np.ndarray]:
        """'name k=v ...' -> (canonical spec, kind code, parameter vector). `name` is a kind or
        a preset; parameters written after a preset override the preset's own."""
        words = spec.split()
        if not words:
            raise PolicyError("empty policy; use one of: " + ", ".join(self.kinds))
        given = [w.partition("=")[0] for w in words[1:]]
        if len(set(given)) < len(given):
            twice = sorted({k for k in given if given.count(k) > 1})
            raise PolicyError(f"policy {words[0]}: {', '.join(twice)} given more than once")
        if self.game and is_bot_spec(spec):
            return parse_bot(self, spec)
        if words[0] not in self.kinds:
            presets = self.presets()
            if words[0] not in presets:
                known = ", ".join([*self.kinds, *presets])
                raise PolicyError(f"unknown policy {words[0]!r}; use one of: {known}")
            # Later words override earlier ones, so the user's parameters beat the preset's.
            _, code, values = self._parse_words(presets[words[0]]["spec"].split() + words[1:])
            return " ".join(words), code, values
        return self._parse_words(words)

    def _parse_words(self, words: list[str]) -> tuple[str, int, np.ndarray]:
        name = words[0]
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
        if self.note:
            lines.append(f"Every kind: {self.note}")
        lines.append("Parameters (default for every kind if one; range): meaning")
        for key, param in self.params.items():
            default = f"={param.show(common[key])}" if key in common else ""
            lines.append(f"  {key}{default} ({param.range_text()}): {param.doc}")
        presets = self.presets()
        if presets:
            lines.append("Presets (name = spec: how it was made)")
            lines += [f"  {name} = {p['spec']}: {p['doc']}".rstrip(": ") for name, p in presets.items()]
        if self.game:
            lines.append("Your own bots, written in Python: --seat FILE.py:NAME k=v (docs/bots.md)")
        return lines


def _toml_string(text: str) -> str:
    """A TOML basic string (JSON's escaping is valid TOML for these characters)."""
    import json

    return json.dumps(text, ensure_ascii=False)


def save_preset(catalog: Catalog, name: str, spec: str, doc: str) -> Path:
    """Add or replace preset `name` in the user's preset file when MONOSIM_PRESETS is set, else
    in the shipped one; returns the file. The spec is checked first, and the file is rewritten
    atomically, so a bad preset never leaves a file that breaks every later parse."""
    if not name.isidentifier() or name in catalog.kinds:
        raise PolicyError(f"preset name {name!r}: use letters, digits and _ (not a policy kind)")
    if not spec.split() or spec.split()[0] not in catalog.kinds:
        raise PolicyError(f"preset {name}: spec must start with a policy kind, got {spec!r}")
    catalog._parse_words(spec.split())
    path = catalog.preset_files()[-1]
    entries = tomllib.loads(path.read_text()) if path.exists() else {}
    entries[name] = {"spec": spec, "doc": doc}
    header = [ln for ln in (path.read_text().splitlines() if path.exists() else []) if ln.startswith("#")]
    header = header[:2] or [f"# Named policy presets for {catalog.game} (see strategies/catalog.py and docs/tuning.md)."]
    lines = header + [""]
    for key, table in entries.items():
        lines += [f"[{key}]", f"spec = {_toml_string(table['spec'])}", f"doc = {_toml_string(table.get('doc', ''))}", ""]
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_text("\n".join(lines))
    os.replace(tmp, path)
    return path
