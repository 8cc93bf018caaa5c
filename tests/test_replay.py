"""Replays (sim/core/replay.py): a replayed game is the game the run counted, in every game,
and the replay commands take bad input as one line and exit code 2."""

import json
import random
from pathlib import Path

import pandas as pd
import pytest

from sim.core import replay as replay_module
from sim.core.game import get
from sim.core.replay import replay, replay_run
from test_contract import IDS, VARIANTS, random_house_rules

ROOT = Path(__file__).resolve().parent.parent

def playable(game, rules, players: int) -> bool:
    try:
        _, kinds, params = game.make_table(players, ["random"], rules)
        game.inputs(rules, players, kinds, params, {})
        return True
    except ValueError:
        return False


def check_replay_is_the_run(game, run_row: pd.Series, r) -> None:
    """The replay's row equals the run's, and its log agrees with the row."""
    assert r.row.iloc[0].to_dict() == run_row.to_dict()
    events = r.events
    assert (events["kind"] == "turn").sum() == run_row["turns"]
    end = events.iloc[-1]
    assert end["kind"] == "game_end" and end["seat"] == run_row["winner"]
    standings = events[events["kind"] == "standing"].groupby("seat").last()
    for s in range(len([c for c in run_row.index if c.startswith("policy_")])):
        for field, column in game.kernel.events.final_columns.items():  # each game's own declaration
            assert standings.loc[s, field] == run_row[f"{column}_{s}"], (s, field)
    assert (events["text"].str.len() > 0).all()


@pytest.mark.parametrize("variant, name, changes", VARIANTS, ids=IDS)
def test_a_replayed_game_is_the_game_the_run_counted(variant, name, changes, long_run):
    """Random (seed, game) pairs under random house rules and tables: each replay equals the row
    of a run played on one thread and on two, and its turns, winner and final standings agree."""
    game = get(name)
    rng = random.Random(f"replay-{variant}")
    checked = 0
    for k in range(12 if long_run else 4):
        rules = game.rules_from(changes + (random_house_rules(game, rng) if k % 2 else []))
        lo, hi, _ = game.player_range(rules)
        players = rng.randint(lo, min(hi, 5))
        if not playable(game, rules, players):
            continue
        seats = [rng.choice(sorted(game.bots.catalog.kinds)) for _ in range(players)]
        seed, n = rng.randrange(2**32), 40
        one = game.simulate(n, players, seats, rules, seed=seed, threads=1)
        two = game.simulate(n, players, seats, rules, seed=seed, threads=2, chunk_size=7)
        pd.testing.assert_frame_equal(one, two)
        run = game.prepare(1, players, seats, rules, seed, None, None, None)
        for g in rng.sample(range(n), 3):
            check_replay_is_the_run(game, one.iloc[g], replay_run(run, g))
            checked += 1
    assert checked >= 6


@pytest.mark.parametrize("name", ["chance", "classic"])
def test_a_log_too_small_for_the_game_is_grown_not_cut(name, monkeypatch):
    whole = replay(name, 2, seed=11)
    monkeypatch.setattr(replay_module, "FIRST_LOG_ROWS", 5)
    again = replay(name, 2, seed=11)
    assert len(whole.events) > 5
    pd.testing.assert_frame_equal(whole.events, again.events)


def test_events_name_every_seat_and_card_in_words():
    r = replay("chance", 7)
    flips = r.events[r.events["kind"] == "flip"]
    assert len(flips) and flips["card_name"].str.match(r"^(Cash \d+|Bankrupt|Lucky Break|Token|Flip 2|Nope!)$").all()
    assert flips["text"].str.contains(r"^seat \d flips \(bust chance \d+\.\d%\)").all()
    assert ((flips["amount"] >= 0) & (flips["amount"] <= 1000)).all()
    text = r.text()
    assert text.startswith("# Monopoly Chance: game 7 of seed 0") and "== round 1" in text and "game over" in text


# ---- the commands ----------------------------------------------------------------------------


def test_replay_from_a_seed_prints_the_game_and_writes_its_events(tmp_path, monosim):
    out = tmp_path / "events.parquet"
    done = monosim("deal", "replay", "--game", "4", "--seed", "9", "--players", "3", "--out", str(out))
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("# Monopoly Deal: game 4 of seed 9, 3 players")
    events = pd.read_parquet(out)
    assert list(events.columns) == list(replay_module.EVENT_COLUMNS)
    assert (events["game"] == 4).all() and events["turn"].is_monotonic_increasing
    row = get("deal").simulate(5, 3, seed=9).iloc[4]
    assert events["text"].iloc[-1].startswith("game over") and events["seat"].iloc[-1] == row["winner"]
    again = monosim("deal", "replay", "--game", "4", "--seed", "9", "--players", "3", "--out", str(out))
    assert again.returncode == 2 and "already exists" in again.stderr
    pd.testing.assert_frame_equal(pd.read_parquet(out), events)  # nothing lost


def test_replay_json_has_meta_the_row_and_the_events(monosim):
    done = monosim("cardgame", "replay", "--edition", "video", "--game", "2", "--seed", "4", "--json")
    assert done.returncode == 0, done.stderr
    shown = json.loads(done.stdout)
    assert shown["meta"]["game"] == "cardgame" and shown["meta"]["game_index"] == 2
    assert shown["meta"]["rules_changed"] == {"edition": "video"} and len(shown["meta"]["policies"]) == 4
    rules = get("cardgame").rules_from(["edition=video"])
    row = get("cardgame").simulate(3, rules=rules, seed=4).iloc[2]
    game, events = shown["results"]["game"], shown["results"]["events"]
    assert game["winner"] == row["winner"] and game["turns"] == row["turns"]
    assert sum(e["kind"] == "turn" for e in events) == row["turns"]


@pytest.mark.parametrize("choice, pick", [
    (["--longest"], lambda df: df["turns"].idxmax()),
    (["--shortest"], lambda df: df["turns"].idxmin()),
    (["--where", "winner == 1 and turns > 40"], lambda df: df.query("winner == 1 and turns > 40").index[0]),
])
def test_replay_picks_games_worth_watching(choice, pick, monosim):
    df = get("chance").simulate(300, seed=2)
    done = monosim("chance", "replay", "--seed", "2", "--games", "300", *choice, "--json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["meta"]["game_index"] == int(pick(df))


def test_replay_of_a_stored_run_uses_its_settings_and_checks_its_row(tmp_path, monosim):
    spec = tmp_path / "tiny.toml"
    spec.write_text('name = "tiny"\ngame = "classic"\nseed = 17\nplayers = 3\n'
                    'seats = ["strong", "trader", "random"]\n[rules]\nfree_parking_jackpot = true\n'
                    '[sweep]\nplayers = [2, 3]\n[run]\ngames = 60\nchunk_size = 25\n'
                    '[outputs]\nplots = false\n')
    done = monosim("run", str(spec), "--out-root", str(tmp_path / "results"), "--no-progress")
    assert done.returncode == 0, done.stderr
    run_dir = next((tmp_path / "results" / "tiny").iterdir())
    stored = pd.concat([pd.read_parquet(p) for p in sorted((run_dir / "games" / "cell=001").glob("*.parquet"))],
                       ignore_index=True)
    shown = monosim("replay", str(run_dir), "--cell", "1", "--game", "37", "--json")
    assert shown.returncode == 0, shown.stderr
    got = json.loads(shown.stdout)
    row = stored[stored["game"] == 37].iloc[0]
    assert got["meta"]["cell"] == 1 and got["meta"]["seed"] == 17 and got["meta"]["players"] == 3
    assert list(got["meta"]["rules_changed"].items()) == [("house.free_parking_jackpot", True)]
    game = got["results"]["game"]
    assert game["turns"] == row["turns"] and game["winner"] == row["winner"]
    longest = monosim("replay", str(run_dir), "--cell", "1", "--longest", "--json")
    assert json.loads(longest.stdout)["meta"]["game_index"] == int(stored.loc[stored["turns"].idxmax(), "game"])
    won = stored[stored["winner"] == 1]
    longest_won = monosim("replay", str(run_dir), "--cell", "1", "--where", "winner == 1", "--longest", "--json")
    assert json.loads(longest_won.stdout)["meta"]["game_index"] == int(won.loc[won["turns"].idxmax(), "game"])
    for args, message in [
        (["--cell", "7"], "--cell must be one of"),
        (["--game", "60"], "--game 60 is not one of the games played"),
        (["--where", "turns >"], "cannot read it"),
        (["--where", "no_such_column == 1"], "has no column 'no_such_column'"),
        (["--where", "turns < 0"], "no game matches"),
        (["--game", "1", "--longest"], "--game names one game"),
        (["--longest", "--shortest"], "give one of --longest, --shortest"),
    ]:
        bad = monosim("replay", str(run_dir), *args)
        assert bad.returncode == 2, (args, bad.stderr)
        assert bad.stderr.count("\n") == 1 and message in bad.stderr, (args, bad.stderr)


@pytest.mark.parametrize("args, message", [
    (["chance", "replay", "--game", "-1"], "--game must be a game number"),
    (["chance", "replay", "--players", "9"], "--players must be"),
    (["chance", "replay", "--seat", "nobody"], "nobody"),
    (["deal", "replay", "--longest", "--games", "0"], "--games must be at least 1"),
    (["classic", "replay", "--where", "winner =="], "cannot read it"),
    (["cardgame", "replay", "--out", "events.csv"], "--out: write the events to a .parquet file"),
    (["replay", "no/such/run"], "is not a run folder"),
])
def test_replay_bad_input_is_one_line_and_exit_2(args, message, monosim):
    done = monosim(*args)
    assert done.returncode == 2, done.stderr
    assert done.stderr.count("\n") == 1 and message in done.stderr and done.stderr.startswith("monosim: error: ")


def test_the_docs_list_every_event_kind_of_every_game():
    from sim.core.event_log import FIRST_GAME_KIND
    from sim.core.game import games

    text = (ROOT / "docs" / "replays.md").read_text()
    for game in games():  # each game's section is headed by its title
        heading = next(h for h in text.split("\n### ")[1:] if h.lower().startswith(game.title.lower()))
        section = heading.split("\n### ")[0]
        for code, kind in game.kernel.events.kinds.items():
            if code >= FIRST_GAME_KIND:
                assert f"\n| {kind.name} |" in section, (game.name, kind.name)
            else:
                assert f"`{kind.name}`" in text, kind.name

