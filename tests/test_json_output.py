"""Every command's --json has one shape (sim/core/json_output.py), described by
sim/core/output.schema.json: a meta block saying what was run, and the results; intervals as
{low, high}; no NaN."""

import json
from pathlib import Path

import jsonschema
import pytest

from sim.core.json_output import changed_rules, fold_intervals, plain, schema

ROOT = Path(__file__).resolve().parent.parent
SCHEMA = schema()

TINY_SPEC = ('name = "tiny"\ngame = "deal"\nseed = 3\nplayers = 3\n[sweep]\n"rule.win_on_any_turn" = [true, false]\n'
             '[run]\ngames = 40\nchunk_size = 20\n[outputs]\nplots = false\n')

COMMANDS = {
    "chance simulate": ["chance", "simulate", "-n", "30", "--rule", "finish_mark=18", "--no-progress"],
    "chance simulate, one game": ["chance", "simulate", "-n", "1", "--no-progress"],
    "deal simulate": ["deal", "simulate", "-n", "30", "--players", "3", "--no-progress"],
    "classic simulate": ["classic", "simulate", "-n", "20", "--no-progress"],
    "cardgame simulate": ["cardgame", "simulate", "-n", "20", "--edition", "video", "--no-progress"],
    "chance rules": ["chance", "rules"],
    "deal rules": ["deal", "rules"],
    "classic rules": ["classic", "rules"],
    "cardgame rules": ["cardgame", "rules", "--edition", "video"],
    "chance replay": ["chance", "replay", "--game", "3"],
    "deal replay": ["deal", "replay", "--shortest", "--games", "20"],
    "classic replay": ["classic", "replay", "--game", "1", "--players", "2"],
    "cardgame replay": ["cardgame", "replay", "--game", "0"],
    "chance odds": ["chance", "odds"],
    "chance advise, no games": ["chance", "advise", "--games", "0"],
    "chance advise": ["chance", "advise", "--games", "300", "--flipped", "5,7"],
    "chance position": ["chance", "position", "experiments/chance-position.toml", "-n", "200"],
    "chance advise, a position": ["chance", "advise", "--position", "experiments/chance-position.toml",
                                  "--precision", "5"],
    "classic landing": ["classic", "landing", "--rolls", "1000"],
    "classic position": ["classic", "position", "experiments/classic-position.toml", "-n", "100", "--no-progress"],
    "classic values": ["classic", "values", "-n", "100", "--players", "2", "--no-progress"],
    "classic house-rules": ["classic", "house-rules", "-n", "50", "--players", "2", "--no-progress"],
    "cardgame values": ["cardgame", "values", "-n", "100", "--no-progress"],
    "cardgame seats": ["cardgame", "seats", "-n", "50", "--players", "3", "--no-progress"],
    "cardgame house-rules": ["cardgame", "house-rules", "-n", "20", "--no-progress"],
    "deal house-rules": ["deal", "house-rules", "-n", "20", "--no-progress"],
    "chance house-rules": ["chance", "house-rules", "-n", "20", "--players", "2", "--no-progress"],
    "deal values": ["deal", "values", "-n", "20", "--players", "3", "--no-progress"],
    "bench": ["bench", "-n", "200", "--game", "deal"],
    "deal ladder": ["deal", "ladder", "--games", "40", "--players", "2"],
}


def strict_load(text: str):
    def refuse(token):
        raise ValueError(f"{token} is not JSON")
    return json.loads(text, parse_constant=refuse)


def check(stdout: str, command: str) -> dict:
    doc = strict_load(stdout)
    jsonschema.validate(doc, SCHEMA)
    assert doc["meta"]["command"] == command
    return doc


@pytest.mark.parametrize("name", list(COMMANDS))
def test_every_command_json_validates_against_the_schema(name, monosim):
    done = monosim(*COMMANDS[name], "--json")
    assert done.returncode == 0, done.stderr
    command = " ".join(a for a in COMMANDS[name][:2] if not a.startswith("-"))
    doc = check(done.stdout, command if COMMANDS[name][0] != "bench" else "bench")
    meta = doc["meta"]
    if "game" in meta:
        assert meta["rules_changed"] == ({"finish_mark": 18} if name == "chance simulate" else
                                         {"edition": "video"} if "--edition" in COMMANDS[name] else
                                         meta["rules_changed"])


def test_compare_json_validates_against_the_schema(tmp_path, monosim):
    spec = tmp_path / "tiny.toml"
    spec.write_text(TINY_SPEC)
    for _ in range(2):
        assert monosim("run", str(spec), "--out-root", str(tmp_path / "r"), "--no-progress").returncode == 0
    a, b = sorted((tmp_path / "r" / "tiny").iterdir())
    done = monosim("compare", str(a), str(b), "--json")
    assert done.returncode == 0, done.stderr
    doc = check(done.stdout, "compare")
    assert doc["results"] and all("ci_low" not in r for r in doc["results"])


def test_simulate_json_says_what_was_run_and_has_no_nan(monosim):
    done = monosim("chance", "simulate", "-n", "1", "--seed", "4", "--players", "3", "--seat", "random",
                   "--rule", "gray_per_pair=false", "--json", "--no-progress")
    doc = check(done.stdout, "chance simulate")
    meta = doc["meta"]
    assert (meta["game"], meta["games"], meta["seed"], meta["players"]) == ("chance", 1, 4, 3)
    assert meta["policies"][0] == "random" and len(meta["policies"]) == 3
    assert meta["rules_changed"] == {"house.gray_per_pair": False}
    assert meta["monosim"] and "git_commit" in meta
    seat = doc["results"]["by_seat"][0]
    assert set(seat["ci"]) == {"low", "high"} and 0 <= seat["ci"]["low"] <= seat["ci"]["high"] <= 1
    length = doc["results"]["length"]["turns"]
    assert length["mean"] > 0 and length["ci"] == {"low": None, "high": None}  # one game: no interval, not NaN
    more = strict_load(monosim("chance", "simulate", "-n", "50", "--json", "--no-progress").stdout)
    length = more["results"]["length"]["turns"]
    assert length["ci"]["low"] < length["mean"] < length["ci"]["high"]


def test_plain_folds_intervals_and_drops_what_json_cannot_hold():
    import numpy as np
    import pandas as pd

    df = pd.DataFrame({"x": [1.0, np.nan], "ci_low": [0.1, 0.2], "ci_high": [0.3, np.inf], "diff_low": [1, 2],
                       "diff_high": [3, 4], "n": np.array([5, 6], np.int64)})
    assert plain(df) == [{"x": 1.0, "ci": {"low": 0.1, "high": 0.3}, "diff": {"low": 1, "high": 3}, "n": 5},
                         {"x": None, "ci": {"low": 0.2, "high": None}, "diff": {"low": 2, "high": 4}, "n": 6}]
    assert fold_intervals({"a_low": 1}) == {"a_low": 1}  # no partner: left alone
    assert changed_rules({"a": 1, "h": {"b": 2, "c": 3}}, {"a": 1, "h": {"b": 2, "c": 4}}) == {"h.c": 3}


def test_the_schema_refuses_the_old_shapes():
    bad = [
        {"meta": {"command": "x", "monosim": "0", "git_commit": None}, "results": [{"ci_low": 0.1, "ci_high": 0.2}]},
        {"meta": {"command": "x", "monosim": "0", "git_commit": None}, "results": {"ci": 0.1}},
        {"results": {}},
        [1, 2],
    ]
    for doc in bad:
        with pytest.raises(jsonschema.ValidationError):
            jsonschema.validate(doc, SCHEMA)
