"""The docs are tested: every monosim command README.md and docs/*.md show runs, and every
output they show is what the command prints now (tests/docs_commands.py; regenerate with
`python tests/docs_commands.py --write`)."""

import pytest

import docs_commands as docs

SHOWN = docs.all_shown()
WITH_OUTPUT = [s for s in SHOWN if s.output is not None]
RUN_ONLY = [s for s in SHOWN if s.output is None]


@pytest.fixture(scope="module")
def scratch(tmp_path_factory) -> docs.Scratch:
    return docs.Scratch(tmp_path_factory.mktemp("docs"))


def test_the_docs_show_commands_and_outputs():
    assert len(SHOWN) > 40 and len(WITH_OUTPUT) >= 8
    assert {s.doc.name for s in SHOWN} >= {"README.md", "classic.md", "experiments.md", "replays.md", "tuning.md"}


@pytest.mark.parametrize("s", WITH_OUTPUT, ids=[s.where for s in WITH_OUTPUT])
def test_an_output_the_docs_show_is_what_the_command_prints(s):
    assert docs.current(s) == s.output, f"{s.where} is stale: python tests/docs_commands.py --write"


@pytest.mark.parametrize("s", RUN_ONLY, ids=[s.where for s in RUN_ONLY])
def test_a_command_the_docs_show_runs(s, scratch):
    if docs.not_run(s):
        assert docs.not_run(s) in docs.NOT_RUN.values()  # named, with the reason, in docs_commands.NOT_RUN
        return
    done = docs.monosim(docs.scaled(s, scratch), scratch.path)
    assert done.returncode == docs.expected_exit(s), (s.command, done.stdout[-2000:], done.stderr[-2000:])
    if done.returncode == 2:
        assert done.stderr.count("\n") == 1


def test_how_to_add_a_game_names_every_file_a_game_has():
    """docs/architecture.md's "A game" list against the four games: each file it names exists
    for every game (but those it calls optional: "where", "if"), and every file the four game
    folders share is named."""
    import glob
    import re
    from pathlib import Path

    from sim.core.game import GAME_NAMES

    root = Path(__file__).resolve().parent.parent
    text = (root / "docs" / "architecture.md").read_text()
    bullet = text[text.index("- **A game**"):text.index("- **A bot**")]
    named = re.findall(r"^  - `([^`]+)`:?(.*)$", bullet, re.M)
    assert len(named) >= 15
    for path, what in named:
        optional = re.search(r"\b(where|if)\b", what)
        for game in GAME_NAMES:
            found = glob.glob(str(root / path.replace("<game>", game).replace("NAME", "*")))
            assert found or optional, f"docs/architecture.md names {path}, but {game} has none"
    shared = set.intersection(*({p.name for p in (root / "sim" / g).glob("*.py")} for g in GAME_NAMES))
    listed = {Path(path).name for path, _ in named if path.startswith("sim/<game>/")}
    assert shared <= listed, f"docs/architecture.md's 'A game' list misses {sorted(shared - listed)}"
