"""Bradley-Terry ranking (sim/core/ranking.py) and the tournament report that uses it."""

import numpy as np
import pandas as pd

from sim.core.ranking import bradley_terry


def synthetic(strengths: dict, h: float, games: int, rng) -> pd.DataFrame:
    rows = []
    for a, sa in strengths.items():
        for b, sb in strengths.items():
            p = 1 / (1 + np.exp(-(sa - sb + h)))
            rows.append({"first": a, "second": b, "wins": rng.binomial(games, p), "games": games})
    return pd.DataFrame(rows)


def test_bradley_terry_recovers_known_strengths_within_their_intervals():
    truth = {"a": 1.0, "b": 0.3, "c": -0.2, "d": -1.1}  # centred: they sum to 0
    rng = np.random.default_rng(5)
    ranking, edge = bradley_terry(synthetic(truth, 0.15, 4000, rng))
    assert list(ranking["policy"]) == ["a", "b", "c", "d"] and list(ranking["rank"]) == [1, 2, 3, 4]
    got = ranking.set_index("policy")
    covered = sum(got.loc[p, "strength_low"] <= s <= got.loc[p, "strength_high"] for p, s in truth.items())
    assert covered >= 3  # 95% intervals: all four inside is the likely case, three the least to expect
    assert abs(got["strength"].sum()) < 1e-9
    assert edge["h_low"] < 0.15 < edge["h_high"]
    half = (got["strength_high"] - got["strength_low"]) / 2
    assert (half < 0.05).all() and (half > 0.005).all()  # 48,000 games: a few hundredths


def test_a_tournament_report_ranks_the_policies_and_draws_the_heatmap(tmp_path):
    from sim.cli import main

    spec = tmp_path / "t.toml"
    spec.write_text('name = "t"\ngame = "chance"\nseed = 4\nplayers = 2\n[sweep]\n'
                    '"seat.0" = ["smart", "random"]\n"seat.1" = ["smart", "random"]\n'
                    '[run]\ngames = 400\nchunk_size = 400\n')
    main(["run", str(spec), "--out-root", str(tmp_path / "r"), "--no-progress"])
    run = next((tmp_path / "r" / "t").iterdir())
    report = (run / "report.md").read_text()
    assert "## Ranking (Bradley-Terry, 95% intervals)" in report and "tournament_heatmap.png" in report
    ranking = pd.read_csv(run / "ranking.csv")
    assert list(ranking["policy"]) == ["smart", "random"]
    assert ranking["strength_low"].iloc[0] > ranking["strength_high"].iloc[1]
    assert (run / "tournament_heatmap.png").read_bytes()[:4] == b"\x89PNG"
