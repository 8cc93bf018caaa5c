"""Golden tables: what every game does, pinned.

Each case plays a few hundred games of one game (both card-game editions) and stores a hash of
every column of the tables it produces in tests/golden/tables.json. `test_contract.py`
replays every case and compares the hashes exactly, so a change that moves any game's outcome
by a single card fails there, naming the case and the columns.

A change meant to change outcomes regenerates the file in a commit of its own that says why:

    .venv/bin/python tests/golden.py            # rewrite tests/golden/tables.json
    .venv/bin/python tests/golden.py --check    # compare only; exit 1 on any difference
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

import numpy as np
import pandas as pd

GOLDEN = Path(__file__).resolve().parent / "golden" / "tables.json"
GAMES, SEED = 300, 20261126

# (case id, game, players, seats, rule changes, detail tables): per game the default table, a
# mixed table with random bots, and two non-default rule sets.
CASES = [
    ("chance-default", "chance", 4, [], [], False),
    ("chance-mixed", "chance", 3, ["random", "optimal objective=board", "max_flip"], [], False),
    ("chance-rules-a", "chance", 4, [], ["finish_mark=18", "reshuffle_empty_pile=true", "deck.lucky_break=3"], False),
    ("chance-rules-b", "chance", 2, ["smart", "random"], ["multiple_flip2_per_turn=true", "keep_held_cards=true",
                                                         "deck.bankrupt=6"], False),
    ("deal-default", "deal", 4, [], [], False),
    ("deal-mixed", "deal", 5, ["random", "smart", "random", "banker", "aggressive"], [], False),
    ("deal-rules-a", "deal", 4, [], ["win_on_any_turn=false", "hotel_replaces_house=true", "deck.just_say_no=5"],
     False),
    ("deal-rules-b", "deal", 3, [], ["broken_set_buildings=bank", "pay_with_buildings=true"], False),
    ("classic-default", "classic", 4, [], [], True),
    ("classic-mixed", "classic", 3, ["random", "strong", "random"], [], False),
    ("classic-rules-a", "classic", 4, [], ["free_parking_jackpot=true", "free_parking_seed=500", "auctions=false"],
     False),
    ("classic-rules-b", "classic", 5, [], ["trading=false", "even_building=false", "double_go_salary=true"], False),
    ("cardgame-wiki-default", "cardgame", 4, [], ["edition=wiki"], True),
    ("cardgame-wiki-mixed", "cardgame", 5, ["random", "smart", "random", "greedy", "trader"], ["edition=wiki"], False),
    ("cardgame-wiki-rules-a", "cardgame", 4, [], ["edition=wiki", "chance_zeroes_others=false",
                                                  "empty_draw_pile=end_hand"], False),
    ("cardgame-wiki-rules-b", "cardgame", 3, [], ["edition=wiki", "three_players=imaginary_pile",
                                                  "wild_completes_any_group=true"], False),
    ("cardgame-video-default", "cardgame", 4, [], ["edition=video"], True),
    ("cardgame-video-mixed", "cardgame", 2, ["random", "smart"], ["edition=video"], False),
    ("cardgame-video-rules-a", "cardgame", 4, [], ["edition=video", "free_parking_jackpot=false",
                                                   "token_needs_group=true"], False),
    ("cardgame-video-rules-b", "cardgame", 3, [], ["edition=video", "go_out_when=next_turn",
                                                   "mr_monopoly_ties_pay=true"], False),
]


def play(game: str, players: int, seats: list[str], rules: list[str], detail: bool) -> dict[str, pd.DataFrame]:
    """The tables of one case: the per-game table, and with `detail` the game's detail tables."""
    from sim.core.game import get

    g = get(game)
    out = g.simulate(GAMES, players, seats, g.rules_from(rules), SEED, detail=detail)
    if not detail:
        return {"games": out}
    df, tables = out
    return {"games": df, **{name: as_frame(t) for name, t in tables.items()}}


def as_frame(t) -> pd.DataFrame:
    """A detail table as a frame (classic keeps its colour groups as one array)."""
    return t if isinstance(t, pd.DataFrame) else pd.DataFrame(t.reshape(len(t), -1)).rename(columns=str)


def column_hash(values) -> str:
    a = np.asarray(values)
    if a.dtype == object or isinstance(values.dtype, pd.CategoricalDtype):
        data = "\x1f".join(map(str, values)).encode()
    else:  # by value, not by width: a column stored in a smaller integer type hashes the same
        a = a.astype(np.float64 if a.dtype.kind == "f" else np.int64)
        data = np.ascontiguousarray(a).tobytes() + a.dtype.kind.encode()
    return hashlib.sha256(data).hexdigest()[:16]


def fingerprint(tables: dict[str, pd.DataFrame]) -> dict:
    return {name: {"rows": len(t), "columns": {c: column_hash(t[c]) for c in t.columns}}
            for name, t in tables.items()}


def load() -> dict:
    return json.loads(GOLDEN.read_text())


def compute(case) -> dict:
    case_id, game, players, seats, rules, detail = case
    return fingerprint(play(game, players, seats, rules, detail))


def differences(expected: dict, got: dict) -> list[str]:
    """Readable differences between two fingerprints: tables and columns that changed."""
    out = []
    for name in sorted(set(expected) | set(got)):
        e, g = expected.get(name), got.get(name)
        if e is None or g is None:
            out.append(f"table {name}: {'new' if e is None else 'missing'}")
            continue
        if e["rows"] != g["rows"]:
            out.append(f"table {name}: {g['rows']} rows, expected {e['rows']}")
        cols = sorted(set(e["columns"]) | set(g["columns"]))
        changed = [c for c in cols if e["columns"].get(c) != g["columns"].get(c)]
        if changed:
            out.append(f"table {name}: columns {', '.join(changed)} differ")
    return out


def main(argv: list[str]) -> int:
    got = {case[0]: compute(case) for case in CASES}
    if "--check" in argv:
        expected = load()
        bad = {k: differences(expected.get(k, {}), v) for k, v in got.items()}
        bad = {k: v for k, v in bad.items() if v}
        for k, v in bad.items():
            print(f"{k}: {'; '.join(v)}")
        print("golden tables: " + ("differ" if bad else f"all {len(got)} cases equal"))
        return 1 if bad else 0
    GOLDEN.parent.mkdir(exist_ok=True)
    GOLDEN.write_text(json.dumps(got, indent=1, sort_keys=True) + "\n")
    print(f"wrote {GOLDEN} ({len(got)} cases)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
