"""The search player (sim/core/search.py): its playouts are the games the bots would play, it
never sees what its seat cannot see, it plays the same whatever the threads and chunks, and it
finds better moves than a weak base bot."""

import numpy as np
import pytest

from sim.core import search
from sim.core.game import games, get
from sim.core.play import new_game, playouts
from sim.core.stats import paired_diff

# (game, table, rules): a 2-player table of each game's strongest bot (3 in the wiki edition)
TABLES = [
    ("chance", ["optimal", "optimal"], None),
    ("deal", ["smart", "smart"], None),
    ("classic", ["strong", "trader", "three_houses"], None),
    ("cardgame", ["smart", "smart"], {"edition": "video"}),
    ("cardgame", ["smart", "smart", "smart"], {"edition": "wiki"}),
]


def test_every_game_is_covered():
    assert {game for game, _, _ in TABLES} == {g.name for g in games()}


def mid_game(game, table, rules, game_index, steps):
    """Game `game_index` with seat 0 outside, its bot's answers for `steps` decisions."""
    state = new_game(game, seats=table, players=len(table), rules=rules, seed=3, game_index=game_index, outside=[0])
    for _ in range(steps):
        assert not state.is_terminal()
        state.apply(state.bot_action() if state.bot_action() is not None else state.legal_actions()[-1])
    return state


@pytest.mark.parametrize("game, table, rules", TABLES)
def test_a_playout_is_the_stepped_game_answered_by_the_bots(game, table, rules):
    for game_index in range(3):
        state = mid_game(game, table, rules, game_index, 4 + 2 * game_index)
        actions = state.legal_actions()
        shares = playouts([(state, a) for a in actions])
        for a, share in zip(actions, shares):
            stepped = state.child(a)
            while not stepped.is_terminal():
                bot = stepped.bot_action()
                assert bot is not None, "a bot answered outside its legal actions"
                stepped.apply(bot)
            assert stepped.returns() == share.tolist()


@pytest.mark.parametrize("method", search.METHODS)
@pytest.mark.parametrize("game, table, rules", TABLES)
def test_the_search_never_sees_what_its_seat_cannot_see(game, table, rules, method):
    """The same search on two games that differ only in what seat 0 cannot see (the other hands,
    the order of the piles, the future dice) finds the same values, playout for playout."""
    for game_index in range(2):
        state = mid_game(game, table, rules, game_index, 5 + 3 * game_index)
        shuffled = state.resample(0, np.random.default_rng(99))
        assert shuffled.observation(0) == state.observation(0)
        here = search.evaluate(state, 48, 2.0, np.random.default_rng(5), method)
        there = search.evaluate(shuffled, 48, 2.0, np.random.default_rng(5), method)
        assert here == there and here[0] >= 0


def test_the_tree_spends_its_budget_tries_every_action_and_grows_past_the_decision():
    """ismcts: every playout of the budget is counted once, under the root action it went
    through; every action is tried; and the tree holds later decisions of the seat (in Deal a
    turn has up to three plays)."""
    state = mid_game("deal", ["smart", "smart"], None, 0, 7)
    names = {a: state.action_name(a) for a in search.distinct_actions(state)}
    made = []

    class Counted(search._Node):
        def __init__(self):
            super().__init__()
            made.append(self)

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(search, "_Node", Counted)
        shares = search.tree_race(state, names, 200, np.random.default_rng(1))
    assert set(shares) == set(names) and sum(map(len, shares.values())) == 200
    assert all(shares.values()) and all(0 <= x <= 1 for xs in shares.values() for x in xs)
    root = made[0]
    assert sorted(root.visits) == sorted(names.values()) and sum(root.visits.values()) == 200
    assert root.children and any(node.children for node in made[1:])
    for node in made:  # each node's wins are its playouts' shares, at most one a visit
        assert all(0 <= node.wins[n] <= node.visits[n] for n in node.visits)


def test_search_games_are_the_same_whatever_the_threads_and_chunks():
    g = get("deal")
    seats = ["search rollouts=16", "search rollouts=16 method=ismcts"]
    one = g.simulate(6, 2, seats, None, seed=4, threads=1, chunk_size=2)
    two = g.simulate(6, 2, seats, None, seed=4, threads=2, chunk_size=6)
    assert one.equals(two)
    assert list(one.attrs["policies"]) == ["search rollouts=16 z=2 base=smart",
                                           "search rollouts=16 z=2 base=smart method=ismcts"]


def test_kinds_limits_what_is_searched():
    state = new_game("deal", seats=["search rollouts=8 kinds=pay,discard", "aggressive"], players=2, seed=1,
                     outside=[])
    found = state.searched
    assert state.is_terminal() and set(found.decision) <= {"pay", "discard"}
    # Only the decisions with two or more distinct actions are searched, each with its values.
    assert (found.groupby("answer").taken.sum() == 1).all()


@pytest.mark.parametrize("method, rollouts", [("flat", 32), ("ismcts", 64)])
def test_the_search_beats_its_base_where_the_base_is_weak(long_run, method, rollouts):
    """Over a random base, against random bots: the search seat's paired gain over the base bot
    (same games) is above 0 at 95%: 10 games in each seat order (200 under --long), +35 ± 26
    points (flat) and ± 21 (tree). The tree gets 64 playouts: at 32 its race tries each of about
    ten actions once or twice (+12.5 ± 16 points over 20 games, against the flat race's +32.5)."""
    g = get("deal")
    games = 200 if long_run else 10
    gains = []
    for seat in range(2):
        table = ["random", "random"]
        base = g.simulate(games, 2, table, None, seed=8)[f"win_{seat}"].to_numpy()
        table[seat] = f"search rollouts={rollouts} z=1 base=random method={method}"
        searched = g.simulate(games, 2, table, None, seed=8)[f"win_{seat}"].to_numpy()
        gains += list(searched - base)
    gain, half_width = paired_diff(gains, np.zeros(len(gains)))
    assert gain - half_width > 0, (gain, half_width)


def test_a_replay_of_a_search_table_is_the_runs_game_with_what_the_search_found():
    from sim.core.replay import replay

    seats = ["search rollouts=16", "smart"]
    run = get("deal").simulate(3, 2, seats, None, seed=4)
    again = replay("deal", 2, seed=4, players=2, seats=seats)
    cols = ["turns", "win_0", "win_1", "sets_0", "sets_1"]
    assert again.row[cols].to_numpy().tolist() == run.iloc[[2]][cols].to_numpy().tolist()
    assert "[seat 0 searched play, took " in again.text()
    assert set(again.searched.columns) >= {"decision", "name", "value", "rollouts", "taken", "bot"}


def test_answers_given_play_the_same_game_again_beside_a_search_seat():
    """A person's answers (State.answers) leave the search seat's out: the search finds its own
    again, so the answers replay the game (as `monosim <game> play` prints them)."""
    def game():
        return new_game("deal", seats=["search rollouts=8", "aggressive"], players=2, seed=6, outside=[1])

    first = game()
    while not first.is_terminal():
        first.apply(first.legal_actions()[-1])
    again = game()
    for a in first.answers:
        again.apply(a)
    assert again.is_terminal() and again.returns() == first.returns()
    assert not first.searched.empty  # the search seat searched too


def test_advice_meets_its_precision_and_is_the_same_for_a_seed():
    state = new_game("cardgame", seats=["smart", "smart", "smart"], players=3, rules={"edition": "video"}, seed=2,
                     outside=[0])
    table = search.advise(state, precision=4.0, max_rollouts=5_000, seed=1)
    assert set(table["name"]) == {state.action_name(a) for a in state.legal_actions()}
    assert table["vs_best"].iloc[0] == 0 and (table["vs_best"] <= 0).all()
    assert (table["vs_best_pm"].iloc[1:] <= 4.0).all() or table["rollouts"].iloc[0] == 5_000
    assert table["bot"].sum() == 1
    assert table.equals(search.advise(state, precision=4.0, max_rollouts=5_000, seed=1))


def test_advise_from_the_command_line():
    from inprocess import monosim

    done = monosim("classic", "advise", "--position", "experiments/classic-position.toml", "--precision", "5",
                   "--answers", "0")
    assert done.returncode == 0, done.stderr
    assert "Seat 1 decides fund" in done.stdout and "| action | chance to win | vs the best |" in done.stdout
    for args, message in [
        (["cardgame", "advise", "--position", "experiments/classic-position.toml"],
         "position file experiments/classic-position.toml: unknown key"),
        (["deal", "advise", "--seat", "human", "--precision", "0"], "--precision must be"),
        (["classic", "advise", "--position", "experiments/classic-position.toml", "--seat", "strong"],
         "leave out --seat"),
        (["deal", "advise", "--seat", "smart"], "give --seat human"),
    ]:
        done = monosim(*args)
        assert done.returncode == 2 and message in done.stderr, (args, done.stderr)


def test_bench_measures_the_search_player():
    from inprocess import monosim

    done = monosim("bench", "--search", "1", "--rollouts", "4", "--game", "cardgame", "--threads", "1")
    assert done.returncode == 0, done.stderr
    rows = [line for line in done.stdout.splitlines() if line.startswith("| cardgame/")]
    assert len(rows) == 2 and "search over" in done.stdout  # both editions, each seat once
    assert "most frequent overrules" in done.stdout
    assert monosim("bench", "--search", "0").returncode == 2


def test_bench_lists_the_overrules_that_make_up_each_kinds_count():
    from sim.core.bench import bench_search

    (result,) = bench_search("chance", 3, 64, threads=1).values()
    assert result["overruled"] > 0
    for kind, (searched, overruled) in result["by_kind"].items():
        pairs = result["overrules"].get(kind, [])
        assert sum(n for *_, n in pairs) == overruled <= searched, kind
        assert all(bot != taken for bot, taken, _ in pairs)
        assert [n for *_, n in pairs] == sorted((n for *_, n in pairs), reverse=True)


def test_the_search_leaves_decisions_its_worlds_would_leak_to_its_base():
    """In Chance a resample keeps the order of a pile shuffled this turn (a Cash card taken at
    GO), which no seat knows: the search does not search there."""
    def leaking(game_index):
        state = new_game("chance", seats=["smart", "smart"], players=2, seed=2028, game_index=game_index, outside=[0])
        while not state.is_terminal():
            if state.resample_leaks():
                return state
            state.apply(state.default_action())

    state = next(s for s in map(leaking, range(20)) if s is not None)
    bot = state.bot_action()
    assert search.choose(state, search.Search("smart", 64), np.random.default_rng(0)) == (bot, [])
    assert not new_game("deal", players=2, seed=1, outside=[0]).resample_leaks()
