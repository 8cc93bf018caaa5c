"""The same spec on a dask.distributed LocalCluster gives the same tables as in process."""

from __future__ import annotations

import pandas as pd

from sim.cli import main

SPEC = """
name = "d"
game = "chance"
seed = 9
players = 3
[sweep]
"seat.1.p" = [0.1, 0.3]
"rule.keep_held_cards" = [false, true]
[run]
games = 3000
chunk_size = 500
"""


def test_dask_local_cluster_equals_local_run(tmp_path):
    spec = tmp_path / "spec.toml"
    spec.write_text(SPEC)
    for how, extra in (("local", []), ("dask", ["--workers", "2"])):
        main(["run", str(spec), "--out-root", str(tmp_path / how), "--no-progress", *extra])
    (local,) = (tmp_path / "local" / "d").iterdir()
    (dask,) = (tmp_path / "dask" / "d").iterdir()
    files = sorted(p.relative_to(local) for p in local.glob("games/*/*.parquet"))
    assert len(files) == 4 * 6
    assert files == sorted(p.relative_to(dask) for p in dask.glob("games/*/*.parquet"))
    for f in files:
        pd.testing.assert_frame_equal(pd.read_parquet(dask / f), pd.read_parquet(local / f), obj=str(f))
    for name in ("summary.csv", "seats.csv", "pairs.csv", "usage.csv"):
        assert (dask / name).read_text() == (local / name).read_text(), name
