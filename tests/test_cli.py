"""Monopoly Chance on the command line: bad input (one line on stderr, exit code 2, nothing
written) and its listings; the run folder and JSON every game writes are tested in
test_contract.py."""

import inprocess
import pytest


def monosim(*args, cwd=None):
    return inprocess.monosim(*args, cwd=cwd)


@pytest.mark.parametrize(
    "args, needle",
    [
        (["--seat", "nonsense"], "unknown policy 'nonsense'"),
        (["--seat", "bust_threshold q=0.2"], "unknown parameter 'q'"),
        (["--seat", "bust_threshold p=2"], "outside [0, 1]"),
        (["--seat", "stop_after n=abc"], "not a number"),
        (["--players", "1"], "--players must be 2 to 4"),
        (["--players", "5"], "--players must be 2 to 4"),
        (["--games", "-5"], "--games must be at least 1"),
        (["--games", "0"], "--games must be at least 1"),
        (["--seed", "-1"], "--seed must be between"),
        (["--rule", "finish_mark=abc"], "rule finish_mark: bad value"),
        (["--rule", "no_such_rule=1"], "unknown rule 'no_such_rule'"),
        (["--rule", "finish_mark"], "write KEY=VALUE"),
        (["--rule", "deck.joker=1"], "unknown card 'joker'"),
        (["--players", "2", "--seat", "smart", "--seat", "smart", "--seat", "smart"], "3 --seat policies given for 2 players"),
        (["--games", "ten"], "Invalid value for '--games'"),
        (["--no-such-flag"], "No such option"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(tmp_path, args, needle):
    out = tmp_path / "run"
    r = monosim("chance", "simulate", "--games", "10", *args, "--out", str(out))
    assert r.returncode == 2, r.stderr
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1, r.stderr
    assert needle in lines[0]
    assert lines[0].startswith("monosim: error:")
    assert not out.exists()
    assert r.stdout == ""


def test_rules_and_policies_listings():
    r = monosim("chance", "rules")
    assert r.returncode == 0 and "Boardwalk" in r.stdout and "reshuffle_empty_pile" in r.stdout
    r = monosim("chance", "policies")
    assert r.returncode == 0 and "bust_threshold p=0.2" in r.stdout
