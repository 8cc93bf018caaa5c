"""The notebooks run, from any folder, in the test suite: each game's quickstart and the replay
notebook (the cash-out notebook runs in test_chance_cashout.py on a small study)."""

from pathlib import Path

import pytest

from sim.core.game import GAME_NAMES

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = [f"quickstart_{name}.ipynb" for name in GAME_NAMES] + ["replay.ipynb"]


@pytest.mark.parametrize("name", NOTEBOOKS)
def test_the_notebook_runs_from_any_folder(tmp_path, name):
    import nbformat
    from nbclient import NotebookClient

    nb = nbformat.read(ROOT / "notebooks" / name, as_version=4)
    NotebookClient(nb, timeout=600, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}}).execute()
    outputs = [o for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", [])]
    assert not any(o.get("output_type") == "error" for o in outputs)
    images = sum("image/png" in o.get("data", {}) for o in outputs)
    assert images == (2 if name == "replay.ipynb" else 1)
    if name.startswith("quickstart"):
        shown = "".join(o.get("data", {}).get("text/markdown", "") for o in outputs)
        assert "## Win rate by seat (95% interval)" in shown  # the summary shows as the report
