"""The step API and the decision points (sim/core/play.py, sim/core/decisions.py), for every
registered game that has them: a stepped game answered by each seat's own bot is the batch
game, event for event; random legal answers break no invariant; an observation shows nothing
its seat cannot see; bad answers are refused."""

import random

import numpy as np
import pytest
from test_contract import VARIANTS, random_house_rules

from sim.cardgame import layout as CL
from sim.chance import layout as HL
from sim.classic import layout as KL
from sim.core.game import get
from sim.core.play import TERMINAL, new_game, random_answers
from sim.core.replay import replay
from sim.core.runner import UsageError
from sim.deal import layout as DL

STEPPED = [v for v in VARIANTS if get(v[1]).kernel.decisions is not None]
IDS = [v[0] for v in STEPPED]


def playable(game, changes: list[str], rng: random.Random, seats: list[str]):
    """Rules, players and seats for a random playable table under these rule changes."""
    for _ in range(50):
        rules = game.rules_from(changes + random_house_rules(game, rng))
        lo, hi, _ = game.player_range(rules)
        players = rng.randint(lo, hi)
        table = [rng.choice(seats) for _ in range(players)]
        try:
            specs, kinds, params = game.make_table(players, table, rules)
            game.inputs(rules, players, kinds, params, {})
        except ValueError:
            continue
        return rules, players, table
    raise AssertionError("no playable rule combination found")


@pytest.mark.parametrize("variant, name, changes", STEPPED, ids=IDS)
def test_a_game_stepped_with_each_bots_own_answers_is_the_batch_game(variant, name, changes):
    game = get(name)
    rng = random.Random(variant)
    # Every built-in bot but the slow ones: a rollout player answers a seat played from
    # outside by its turn rule, not by its rollouts (docs/decisions.md).
    seats = [name for name, kind in game.bots.catalog.kinds.items() if not kind.slow]
    for k in range(4):
        rules, players, table = playable(game, changes, rng, seats)
        outside = sorted(rng.sample(range(players), rng.randint(1, players)))
        s = new_game(name, seats=table, players=players, rules=rules, seed=k, game_index=k, outside=outside)
        asked = 0
        while not s.is_terminal():
            assert s.current_player in outside
            legal = s.legal_actions()
            assert legal == sorted(set(legal)) and legal
            a = s.bot_action()
            assert a is not None, f"the bot's answer at {s} is not among the legal actions"
            assert s.default_action() == a
            s.apply(a)
            asked += 1
        batch = game.simulate(1, players, table, rules, seed=k, first_game=k)
        assert s.row().reset_index(drop=True).equals(batch.reset_index(drop=True))
        assert s.events().equals(replay(name, k, seed=k, players=players, seats=table, rules=rules).events)
        assert asked > 0 and s.current_player == TERMINAL and s.legal_actions() == []
        assert sum(s.returns()) == pytest.approx(1.0) or sum(s.returns()) == 0


@pytest.mark.parametrize("variant, name, changes", STEPPED, ids=IDS)
def test_random_legal_answers_break_no_invariant(variant, name, changes, long_run):
    """Every listed action is one the game can play: games where every seat answers at random
    among the legal actions (inside the kernel), invariants checked after every turn; a broken
    one raises. 10,000 games under --long."""
    game = get(name)
    rng = random.Random(variant)
    n, tables = (10_000, 20) if long_run else (400, 4)
    for k in range(tables):
        rules, players, table = playable(game, changes, rng, list(dict.fromkeys(game.bots.default_table)))
        df = random_answers(name, n // tables, seats=table, players=players, rules=rules, seed=k)
        assert len(df) == n // tables
        wins = sum(df[f"win_{s}"] for s in range(players))
        assert ((wins == 0) | (wins >= 1)).all()


@pytest.mark.parametrize("name", sorted({v[1] for v in STEPPED}))
def test_every_decision_kind_is_asked_of_a_seat_played_from_outside(name):
    """Nothing bypasses the decision points: in games answered at random from outside (each
    edition at its smallest and largest table), every kind the game lists is asked."""
    game = get(name)
    asked = dict.fromkeys((k.name for k in game.kernel.decisions.kinds.values()), 0)
    for variant, _, changes in (v for v in STEPPED if v[1] == name):
        rules = game.rules_from(changes)
        lo, hi, _ = game.player_range(rules)
        for players in (lo, hi):
            df = random_answers(name, 60, players=players, rules=changes, seed=players)
            for kind, n in df.attrs["decisions_asked"].items():
                asked[kind] += n
    assert all(asked.values()), asked


@pytest.mark.parametrize("variant, name, changes", STEPPED, ids=IDS)
def test_a_python_agent_plays_whole_games_and_clones_are_independent(variant, name, changes):
    rng = random.Random(variant)
    s = new_game(name, rules=changes, seed=3)
    twin = s.clone()
    first = s.legal_actions()
    while not s.is_terminal():
        s.apply(rng.choice(s.legal_actions()))
        assert s.observation(0)["seat"] == 0
    assert twin.legal_actions() == first and not twin.is_terminal() and twin.answers == ()
    assert sum(s.returns()) == pytest.approx(1.0) or sum(s.returns()) == 0
    child = twin.child(first[-1])
    assert child.answers == (first[-1],) and twin.answers == ()


def test_a_bad_answer_is_refused_with_the_legal_actions():
    s = new_game("cardgame", seed=1)
    illegal = max(s.legal_actions()) + 1
    with pytest.raises(UsageError, match="not legal here; the legal actions are"):
        s.apply(illegal)
    with pytest.raises(UsageError, match="outside: seat 7"):
        new_game("cardgame", outside=[7])


def shuffle_cardgame_hidden(S: np.ndarray, rb: np.ndarray, seat: int, rng: np.random.Generator) -> np.ndarray:
    """A copy of a card-game state with the cards `seat` cannot see (the other hands and the
    draw pile) dealt afresh into the same places."""
    S = S.copy()
    players = int(rb[CL.R_PLAYERS])
    slots = [CL.DRAW_PILE + k for k in range(S[CL.DRAW_N])]
    for p in range(players):
        if p != seat:
            slots += [CL.HAND_ + p * CL.MAX_CARDS + k for k in range(S[CL.HAND_N + p])]
    cards = S[slots]
    S[slots] = rng.permutation(cards)
    for p in range(players):
        if p != seat:
            S[CL.KC + p * CL.NK:CL.KC + (p + 1) * CL.NK] = 0
            for k in range(S[CL.HAND_N + p]):
                S[CL.KC + p * CL.NK + rb[CL.R_KIND + S[CL.HAND_ + p * CL.MAX_CARDS + k]]] += 1
    return S


def shuffle_chance_hidden(S: np.ndarray, rb: np.ndarray, seat: int, rng: np.random.Generator) -> np.ndarray:
    """A copy of a Chance state with what nobody sees dealt afresh: the order of every draw
    pile and of the Chance cards not yet drawn."""
    S = S.copy()
    for p in range(int(rb[HL.R_PLAYERS])):
        at = HL.DRAW_PILE + p * HL.MAX_DECK
        S[at:at + S[HL.DRAW_N + p]] = rng.permutation(S[at:at + S[HL.DRAW_N + p]])
    at, end = HL.CHANCE_ORDER + S[HL.G_CHANCE_POS], HL.CHANCE_ORDER + rb[HL.R_CHANCE]
    S[at:end] = rng.permutation(S[at:end])
    return S


def shuffle_deal_hidden(S: np.ndarray, rb: np.ndarray, seat: int, rng: np.random.Generator) -> np.ndarray:
    """A copy of a Deal state with the cards `seat` cannot see (the other hands and the draw
    pile) dealt afresh into the same places."""
    S = S.copy()
    slots = [DL.DRAW_PILE + k for k in range(S[DL.DRAW_N])]
    for p in range(int(S[DL.R_PLAYERS])):
        if p != seat:
            slots += [DL.HAND_ + p * DL.MAX_HAND + k for k in range(S[DL.HAND_N + p])]
    S[slots] = rng.permutation(S[slots])
    return S


def shuffle_classic_hidden(S: np.ndarray, rb: np.ndarray, seat: int, rng: np.random.Generator) -> np.ndarray:
    """A copy of a classic state with the cards not yet drawn from the top of each deck (as many
    as the deck held less the draws so far) in a new order."""
    S = S.copy()
    for d in range(KL.N_DECKS):
        n_d = int(rb[KL.R_DECK_SIZE + d])
        unseen = min(int(S[KL.DECK_N + d]), n_d - int(S[KL.DECK_DRAWS + d]))
        ring = [KL.DECK + d * KL.MAX_CARDS + (int(S[KL.DECK_HEAD + d]) + i) % n_d for i in range(unseen)]
        S[ring] = rng.permutation(S[ring])
    return S


HIDDEN_SHUFFLES = {"classic": shuffle_classic_hidden, "cardgame": shuffle_cardgame_hidden, "chance": shuffle_chance_hidden, "deal": shuffle_deal_hidden}


@pytest.mark.parametrize("variant, name, changes", STEPPED, ids=IDS)
def test_an_observation_is_unchanged_when_what_its_seat_cannot_see_is_shuffled(variant, name, changes):
    game = get(name)
    rng = np.random.default_rng(5)
    s = new_game(name, rules=changes, seed=4)
    seen = 0
    while not s.is_terminal() and seen < 40:
        seat = s.current_player
        state, ctx = s._paused_state(), s._ctx
        before = game.kernel.decisions.observe(ctx, state, seat)
        assert before == s.observation(seat)
        shuffled = HIDDEN_SHUFFLES[name](state, ctx.rb, seat, rng)
        assert not np.array_equal(shuffled, state) or seen > 0  # the shuffle changes something
        assert game.kernel.decisions.observe(ctx, shuffled, seat) == before
        features = game.kernel.decisions.features(ctx, state, seat)  # the numeric observation (PettingZoo's)
        assert features.dtype == np.float32 and features.ndim == 1
        assert np.array_equal(game.kernel.decisions.features(ctx, shuffled, seat), features)
        s.apply(s.bot_action())
        seen += 1


# ---- a person at the table: `monosim <game> play` ---------------------------------------------


def play_cli(monosim, args: list[str], typed: str):
    return monosim(*args, stdin=typed)


@pytest.mark.parametrize("name", sorted({v[1] for v in STEPPED}))
def test_a_person_who_always_takes_the_bots_choice_plays_the_batch_game(name, monosim):
    """Typing `?` at every decision plays the default table's game; the command printed at the
    end plays it again from its answers without asking anything."""
    game = get(name)
    args = [name, "play", "--seat", "human", "--seed", "3"]
    r = play_cli(monosim, args, "?\n" * 5000)
    assert r.returncode == 0, r.stderr
    batch = game.simulate(1, game.rules.default_players, None, None, seed=3)
    winner = int(batch["winner"].iloc[0])
    assert (f"seat {winner} wins" if winner >= 0 else "share the win") in r.stdout
    again = r.stdout.rsplit("Play it again with:\n", 1)[1].split()
    assert again[:3] == ["monosim", name, "play"]
    r2 = play_cli(monosim, again[1:], "")
    assert r2.returncode == 0, r2.stderr
    assert r2.stdout.rsplit("The game is over", 1)[1] == r.stdout.rsplit("The game is over", 1)[1]


def test_bad_input_at_the_prompt_asks_again_and_the_end_of_input_stops_cleanly(monosim):
    r = play_cli(monosim, ["cardgame", "play", "--seat", "human", "--edition", "video"], "x\n0\n99\n1\n")
    assert r.stdout.count("please type a number from 1 to") == 3
    assert r.returncode == 130 and "Go on later with:" in r.stdout and "--answers" in r.stdout
    assert "Traceback" not in r.stderr


@pytest.mark.parametrize("args, message", [
    (["--seat", "smart"], "give --seat human for at least one seat"),
    (["--seat", "human", "--answers", "1,x"], "--answers must be whole numbers"),
    (["--seat", "human", "--answers", "9999"], "--answers: answer 1 (9999) is not legal there"),
])
def test_play_refuses_bad_input_in_one_line(args, message, monosim):
    r = play_cli(monosim, ["cardgame", "play", *args], "")
    assert r.returncode == 2 and message in r.stderr and r.stderr.count("\n") == 1


def test_the_step_api_example_in_the_docs_runs():
    from pathlib import Path

    text = (Path(__file__).resolve().parent.parent / "docs" / "decisions.md").read_text()
    code = text.split("## The step API\n", 1)[1].split("```python\n", 1)[1].split("```", 1)[0]
    namespace: dict = {}
    exec(compile(code, "docs/decisions.md", "exec"), namespace)
    state = namespace["state"]
    assert state.is_terminal() and state.answers and sum(state.returns()) in (0, pytest.approx(1.0))


@pytest.mark.parametrize("variant, name, changes", STEPPED, ids=IDS)
def test_a_resampled_state_is_what_its_seat_knows_with_the_hidden_cards_dealt_afresh(variant, name, changes):
    """resample(seat): the seat sees the same (observation, its view of the turn so far, its
    legal actions when it decides), something hidden differs in some resamples, and the
    resampled game plays on to its end with invariants checked."""
    rng = np.random.default_rng(7)
    pick = random.Random(variant)
    s = new_game(name, rules=changes, seed=11)
    resampled = changed = 0
    for step in range(400):
        if s.is_terminal():
            break
        if step % 23 == 5:
            seat = s.current_player
            for _ in range(3):
                twin = s.resample(seat, rng)
                assert twin.observation(seat) == s.observation(seat)
                assert twin.current_player == seat and twin.legal_actions() == s.legal_actions()
                changed += not np.array_equal(twin._paused_state(), s._paused_state())
                resampled += 1
            while not twin.is_terminal():  # invariants are checked turn by turn (check=True)
                twin.apply(pick.choice(twin.legal_actions()))
        s.apply(s.bot_action())
    assert resampled >= 6 and changed >= resampled // 2


def test_a_resample_rolls_its_own_dice_from_the_decision_on():
    """Even in the current turn: at a classic decision before the seat's roll, the next roll
    of each resampled game is its own (five resamples rolling one pair has odds of 1 in 36**4),
    while the original's is the same every time it is played on."""
    s = new_game("classic", players=2, seed=5)
    while True:
        events = s.events()
        turn_start = events.index[events["kind"] == "turn"][-1]
        if not (events.loc[turn_start:, "kind"] == "roll").any() and len(set(map(s.action_name, s.legal_actions()))) > 1:
            break
        s.apply(s.bot_action())

    def next_roll(state):
        since = state.n_events
        while True:
            state.apply(state.bot_action())
            events = state.events().iloc[since:]
            rolled = events[events["kind"] == "roll"]
            if len(rolled):
                return tuple(rolled[["card", "target"]].iloc[0])

    rng = np.random.default_rng(3)
    assert len({next_roll(s.resample(s.current_player, rng)) for _ in range(5)}) > 1
    assert next_roll(s.clone()) == next_roll(s.clone())


def test_a_resampled_game_rolls_dice_of_its_own():
    """After a resample the rest of the game draws fresh random numbers: in classic, whose
    decks are the only hidden cards, two resamples of one state played on by the bots roll
    other dice, while a clone played on the same way rolls the original's."""
    s = new_game("classic", players=2, seed=5)
    for _ in range(6):
        s.apply(s.bot_action())
    since = s.n_events

    def rolls(state):
        state = state.clone()
        while not state.is_terminal():
            state.apply(state.bot_action())
        events = state.events().iloc[since:]
        return events[events["kind"] == "roll"][["card", "target"]].head(20).to_numpy().tolist()

    rng = np.random.default_rng(1)
    ends = [rolls(s.resample(s.current_player, rng)) for _ in range(3)]
    assert rolls(s) == rolls(s.clone())
    assert ends[0] != ends[1] and ends[1] != ends[2]
