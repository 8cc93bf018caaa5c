"""The numba cache is keyed on the kernel sources, one folder per game, and only on them."""

import shutil
from pathlib import Path

import numba
import pytest

import sim
from sim import kernel_cache_dir, kernel_group, kernel_sources_digest, prune_kernel_caches
from sim.core.game import GAME_NAMES

ROOT = sim.ROOT
GAMES = GAME_NAMES


def test_each_function_is_cached_under_its_groups_digest():
    from sim.core import rng
    from sim.deal import kernel
    from strategies import cardgame

    assert kernel.play_batch._cache._cache_path.startswith(kernel_cache_dir("deal") + "/")
    assert cardgame.seat_values._cache._cache_path.startswith(kernel_cache_dir("cardgame") + "/")
    assert rng.splitmix64._cache._cache_path.startswith(kernel_cache_dir("core") + "/")
    assert Path(kernel_cache_dir("deal")).name == kernel_sources_digest(ROOT, "deal")
    assert Path(numba.config.CACHE_DIR).name == kernel_sources_digest(ROOT)
    assert Path(numba.config.CACHE_DIR).is_absolute()


@pytest.mark.parametrize(
    ("path", "group"),
    [
        ("sim/deal/kernel.py", "deal"),
        ("sim/core/rng.py", "core"),
        ("strategies/cardgame.py", "cardgame"),
        ("sim/cli.py", None),
        ("tests/test_deal.py", None),
        ("/elsewhere/sim/deal/kernel.py", None),
    ],
)
def test_kernel_group(path, group):
    assert kernel_group(ROOT / path) == group


def test_digests_follow_their_groups_sources_only(tmp_path):
    for package in ("sim", "strategies"):
        shutil.copytree(ROOT / package, tmp_path / package, ignore=shutil.ignore_patterns("__pycache__"))

    def digests():
        return {g: kernel_sources_digest(tmp_path, g) for g in (*GAMES, "core", None)}

    def touch(path):
        (tmp_path / path).write_text((tmp_path / path).read_text() + "\n# a comment\n")
        return digests()

    before = digests()
    assert len(set(before.values())) == len(before)
    assert touch("sim/cli.py") == before
    assert touch("sim/deal/api.py") == before  # no compiled code, no constants kernels read
    after = touch("strategies/chance.py")
    assert [g for g in before if after[g] != before[g]] == ["chance", None]
    before = after
    after = touch("sim/cardgame/rules.py")
    assert [g for g in before if after[g] != before[g]] == ["cardgame", None]
    before = after
    after = touch("sim/core/rng.py")
    assert all(after[g] != before[g] for g in before)


def test_prune_keeps_only_the_current_sources_kernels(tmp_path):
    current = {g: kernel_sources_digest(ROOT, g) for g in (*GAMES, "core")}
    current["all"] = current["bots"] = kernel_sources_digest(ROOT)  # bots: the bot files' compiled decisions
    kept, stale = [], []
    for base in (tmp_path, tmp_path / "boundscheck"):
        for group, digest in current.items():
            kept.append(base / group / digest / "kernel.nbi")
            stale.append(base / group / "0123456789abcdef" / "kernel.nbi")
    kept.append(tmp_path / "deal" / "notes" / "kernel.nbi")  # not a digest folder: left alone
    stale.append(tmp_path / "bots" / "deal_0123456789abcdef" / "decisions.py")  # the bots' old layout
    for f in kept + stale:
        f.parent.mkdir(parents=True, exist_ok=True)
        f.write_text("x")
    removed = prune_kernel_caches(tmp_path)
    assert sorted(removed) == sorted(f.parent for f in stale)
    assert all(f.exists() for f in kept) and not any(f.parent.exists() for f in stale)


def test_a_first_compile_is_announced_before_it_starts(monkeypatch, tmp_path, capsys):
    """A kernel whose cache holds no build says so on stderr first, with about how long it
    takes; a cached one says nothing."""
    import sim
    from sim.core import game as core_game
    from sim.core.game import announce_compile, get

    monkeypatch.setattr(core_game, "_announced", set())
    monkeypatch.setattr(sim, "kernel_cache_dir", lambda group: str(tmp_path / group))
    announce_compile(get("classic"), "play_batch")
    announce_compile(get("classic"), "play_batch")  # once a process
    err = capsys.readouterr().err
    assert err == ("monosim: compiling the classic Monopoly kernel (play_batch), once: about 45 s; later runs load "
                   "it from the cache\n")
    build = tmp_path / "classic" / "classic_0123"
    build.mkdir(parents=True)
    (build / "kernel.play_steps-1503.py311.nbi").write_bytes(b"")
    announce_compile(get("classic"), "play_steps")
    assert capsys.readouterr().err == ""
