"""The contract every registered game keeps (sim/core/game.py), tested once for all of them:
golden tables, determinism across threads and chunks, the default table, invariants under
random house-rule combinations, and the README's Python example. The builds (bounds-checked,
plain Python, plain numba) are in test_contract_builds.py, the CLI in test_contract_cli.py.
Rule scenarios stay with each game (test_<game>_rules.py)."""

import random
from pathlib import Path

import numba
import numpy as np
import pandas as pd
import pytest

import golden
from sim.core import rule_changes
from sim.core.game import GAME_NAMES, get
from sim.core.summary import Tally

ROOT = Path(__file__).resolve().parent.parent
EXPECTED = golden.load()
# Each game, the card game once per edition: (id, game, rule changes)
VARIANTS = [(name, name, []) for name in GAME_NAMES if not get(name).rules.presets] + [
    (f"{name}-{p}", name, [f"edition={p}"]) for name in GAME_NAMES for p in get(name).rules.presets]
IDS = [v[0] for v in VARIANTS]
THREADS = min(2, numba.config.NUMBA_NUM_THREADS)


@pytest.mark.parametrize("case", golden.CASES, ids=[c[0] for c in golden.CASES])
def test_golden_tables_are_unchanged(case):
    assert golden.differences(EXPECTED[case[0]], golden.compute(case)) == []


@pytest.mark.parametrize("variant, name, changes", VARIANTS, ids=IDS)
def test_thread_count_and_chunk_size_change_nothing(variant, name, changes):
    game = get(name)
    rules = game.rules_from(changes)
    detail = game.report.detail_tables is not None
    base = game.simulate(600, 4, None, rules, seed=11, threads=1, chunk_size=600, check=True, detail=detail)
    other = game.simulate(600, 4, None, rules, seed=11, threads=THREADS, chunk_size=97, check=True, detail=detail)
    if detail:
        (base, base_detail), (other, other_detail) = base, other
        assert base_detail.keys() == other_detail.keys()
        for key in base_detail:
            a, b = base_detail[key], other_detail[key]
            if isinstance(a, pd.DataFrame):
                pd.testing.assert_frame_equal(a, b)
            else:
                np.testing.assert_array_equal(a, b)
    pd.testing.assert_frame_equal(base, other)


@pytest.mark.parametrize("variant, name, changes", VARIANTS, ids=IDS)
def test_summaries_are_byte_identical_across_chunk_sizes_and_threads(variant, name, changes, monosim, tmp_path):
    """Every summary file and the JSON summary, to the last bit: the sums are exact, so the
    order in which chunks add up cannot show (a float sum per chunk once did)."""
    rules = [w for c in changes for w in ("--rule", c)]
    outputs = []
    for chunk, threads in ((3000, 1), (311, THREADS)):
        out = tmp_path / f"run-{chunk}"
        args = [name, "simulate", "-n", "3000", "--players", "4", *rules, "--chunk-size", str(chunk), "--threads",
                str(threads), "--no-progress"]
        assert monosim(*args, "--out", str(out)).returncode == 0
        files = {p.name: p.read_bytes() for p in sorted(out.iterdir()) if p.suffix in (".csv", ".md")}
        outputs.append((files, monosim(*args, "--json").stdout))
    assert len(outputs[0][0]) >= 3 and outputs[0] == outputs[1]


def test_a_tally_is_exact_whatever_the_chunks():
    """Win shares of 1/3 do not add up exactly in floating point: the same games cut into chunks
    differently gave sums that differed in the last bit. The tally's sums are exact."""
    rng = np.random.default_rng(5)
    n = 20_000
    ties = rng.integers(1, 4, n)  # a k-way shared win, k = 1..3
    games = pd.DataFrame({"game": np.arange(n), **{f"win_{s}": np.where(s < ties, 1.0 / ties, 0.0) for s in range(3)},
                          **{f"policy_{s}": "p" for s in range(3)}, "turns": rng.integers(1, 50, n)})
    games.attrs.update(players=3, policies=["p", "p", "q"])
    tallies = []
    for cuts in ([n], [7, 1000, n], list(range(333, n, 333)) + [n]):
        t, start = Tally(), 0
        for end in cuts:
            t.add(games.iloc[start:end], ("turns",))
            start = end
        tallies.append((t.sums, {k: v.tolist() for k, v in t.policy_shares.items()}))
    assert tallies[0] == tallies[1] == tallies[2]
    from fractions import Fraction

    exact = sum(Fraction(1, int(k)) for k in ties)
    assert tallies[0][0]["win_0"] == float(exact)


@pytest.mark.parametrize("variant, name, changes", VARIANTS, ids=IDS)
def test_a_slice_of_games_is_the_same_games_in_a_longer_run(variant, name, changes):
    game = get(name)
    rules = game.rules_from(changes)
    long = game.simulate(500, 4, ["random"], rules, seed=3, chunk_size=100)
    middle = game.simulate(200, 4, ["random"], rules, seed=3, first_game=150)
    pd.testing.assert_frame_equal(middle, long.iloc[150:350].reset_index(drop=True))
    other_seed = game.simulate(200, 4, ["random"], rules, seed=4, first_game=150)
    assert not other_seed["turns"].equals(middle["turns"])


@pytest.mark.parametrize("name", GAME_NAMES)
def test_the_default_table_fills_every_seat(name):
    game = get(name)
    assert len(game.bots.default_table) >= game.rules.max_players
    for spec in game.bots.default_table:
        assert game.check_policy(spec) == spec


def random_house_rules(game, rng: random.Random) -> list[str]:
    """A random combination of the game's house rules: every true/false switch and every rule
    with named choices (but the edition, which the variant fixes)."""
    changes = []
    for key, parse in sorted(game.rules.parsers.items()):
        if parse is rule_changes.parse_bool:
            changes.append(f"{key}={str(rng.random() < 0.5).lower()}")
        elif hasattr(parse, "options") and key not in ("edition",):
            changes.append(f"{key}={rng.choice(parse.options)}")
    return changes


@pytest.mark.parametrize("variant, name, changes", VARIANTS, ids=IDS)
def test_invariants_hold_under_random_house_rule_combinations(variant, name, changes, long_run):
    game = get(name)
    rng = random.Random(variant)
    played = 0
    for k in range(24 if long_run else 6):
        combination = changes + random_house_rules(game, rng)
        rules = game.rules_from(combination)
        lo, hi, _ = game.player_range(rules)
        players = rng.randint(lo, min(hi, 5))
        try:  # some combinations cannot be played (the rules say why); they are not the point here
            specs, kinds, params = game.make_table(players, ["random"], rules)
            game.inputs(rules, players, kinds, params, {})
        except ValueError:
            continue
        df = game.simulate(200, players, ["random"], rules, seed=k, threads=THREADS, check=True)
        assert len(df) == 200
        wins = sum(df[f"win_{s}"] for s in range(players))
        assert ((wins == 0) | np.isclose(wins, 1.0)).all()  # each game's win shared out once, or nobody won
        played += 1
    assert played >= 3


def test_the_readme_python_example_runs():
    text = (ROOT / "README.md").read_text()
    code = text.split("\n## Python\n", 1)[1].split("```python\n", 1)[1].split("```", 1)[0].replace("100_000", "2_000")
    namespace: dict = {}
    exec(compile(code, "README.md", "exec"), namespace)
    assert len(namespace["games"]) == 2_000 and namespace["games"].attrs["rules"]["finish_mark"] == 20


@pytest.mark.parametrize("variant, name, changes", VARIANTS, ids=IDS)
def test_a_summary_streamed_chunk_by_chunk_equals_the_whole_tables(variant, name, changes):
    """`stream` plays the games of `simulate` chunk by chunk; a summary added up from the chunks'
    tallies is the summary of the whole table (to the last bits of floating-point sums)."""
    game = get(name)
    rules = game.rules_from(changes)
    whole = game.simulate(700, 4, ["random"], rules, seed=8)
    tally, chunks = Tally(), []

    def consume(df, detail):
        chunks.append(df)
        game.tally(df, tally)

    game.stream(consume, 700, 4, ["random"], rules, seed=8, chunk_size=150)
    pd.testing.assert_frame_equal(pd.concat(chunks, ignore_index=True), whole)
    streamed, direct = game.report.summary(tally), game.summarize(whole)
    assert streamed.keys() == direct.keys()
    for key in direct:
        if isinstance(direct[key], pd.Series):
            pd.testing.assert_series_equal(streamed[key], direct[key], rtol=1e-12)
        else:
            pd.testing.assert_frame_equal(streamed[key], direct[key], rtol=1e-12)
    assert game.report.render(tally, streamed) == game.summarize(whole).report()
    # and the tally's figures are the table's, computed by pandas
    for s in range(4):
        assert direct["by_seat"]["win_rate"][s] == pytest.approx(whole[f"win_{s}"].mean(), rel=1e-12)
    for col in game.experiment.length_cols:
        row = direct["length"].loc[col]
        assert (row["median"], row["p10"], row["p90"]) == tuple(whole[col].quantile([0.5, 0.1, 0.9]))
        assert row["mean"] == pytest.approx(whole[col].mean(), rel=1e-12)
        assert row["sd"] == pytest.approx(whole[col].std(), rel=1e-9)


def test_quantiles_from_a_histogram_are_pandas_quantiles():
    from sim.core.summary import quantile_of_counts

    rng = np.random.default_rng(3)
    for n in (1, 2, 3, 10, 101, 1000):
        values = pd.Series(rng.integers(0, 40, n))
        counts = np.bincount(values)
        for q in (0.1, 0.25, 0.5, 0.9, 1.0, 0.0):
            assert quantile_of_counts(counts, q) == values.quantile(q)


@pytest.mark.parametrize("variant, name, changes", VARIANTS, ids=IDS)
def test_the_progress_bar_slices_change_nothing(variant, name, changes, monkeypatch):
    """With a progress bar, games are played in slices of about a quarter second (so the bar
    moves several times a second); the games are the same."""
    from sim.core import runner

    game = get(name)
    rules = game.rules_from(changes)
    detail = game.report.detail_tables is not None
    quiet = game.simulate(900, rules=rules, seed=8, chunk_size=500, detail=detail)
    monkeypatch.setattr(runner, "PROGRESS_SECONDS", 1e-6)  # slices of the smallest size
    calls = []
    real = game.kernel.module.play_batch
    monkeypatch.setattr(game.kernel.module, "play_batch", lambda *a: calls.append(a[7]) or real(*a))
    shown = game.simulate(900, rules=rules, seed=8, chunk_size=500, detail=detail, progress=True)
    assert len(calls) > 2 and max(calls) <= 500
    pd.testing.assert_frame_equal(quiet[0] if detail else quiet, shown[0] if detail else shown)
    for key in quiet[1] if detail else []:
        np.testing.assert_array_equal(np.asarray(quiet[1][key]), np.asarray(shown[1][key]))


def test_a_runs_metadata_survives_concatenating_its_chunks():
    game = get("deal")
    rules = game.rules_from(["win_on_any_turn=false"])
    whole = game.simulate(400, rules=rules, seed=3)
    parts = []
    game.stream(lambda df, detail: parts.append(df), 400, rules=rules, seed=3, chunk_size=150)
    joined = pd.concat(parts, ignore_index=True)
    assert joined.attrs == whole.attrs and joined.attrs["rules"]["house"]["win_on_any_turn"] is False
    assert game.summarize(joined).report() == game.summarize(whole).report()


@pytest.mark.parametrize("name", GAME_NAMES)
def test_every_registered_game_keeps_the_contract_and_has_golden_cases(name):
    from sim.core.game import check_game

    game = get(name)
    assert check_game(game) == []
    editions = game.rules.presets or (None,)
    for edition in editions:  # each edition of a game with rule presets has cases of its own
        assert any(c[1] == name and (edition is None or f"edition={edition}" in c[4]) for c in golden.CASES), \
            f"tests/golden.py has no case of {name} {edition or ''}: add one, then run python tests/golden.py"


def test_check_game_says_what_a_broken_game_lacks():
    import dataclasses
    import types

    from sim.core.game import check_game

    deal = get("deal")
    kernel = dataclasses.replace(deal.kernel, module=types.SimpleNamespace(), layout=types.SimpleNamespace(),
                                 win_col=deal.kernel.win_col + 1, bench_runs={}, decisions=types.SimpleNamespace())
    broken = dataclasses.replace(deal, kernel=kernel, bots=dataclasses.replace(deal.bots, default_table=("nobody",)))
    problems = "\n".join(check_game(broken))
    for part in ("play_batch", "GAME_COLS", "STATUS_NAMES", "seat_cols[win_col]", "bench_runs",
                 "default table names a policy", "lacks play_steps", "decisions do not name",
                 "declares no RULES and STATE layouts"):
        assert part in problems, (part, problems)
