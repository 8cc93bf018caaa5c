"""The command-line shell every game shares: the option types, and the `simulate`, `rules` and
`policies` commands made once from a game's registry entry (sim/core/game.py). A game's own
verbs live in sim/<game>/cli.py and use the same option types."""

import contextlib
import importlib
import inspect
from pathlib import Path
from typing import Annotated, Optional

import typer

from sim.core import userbot
from sim.core.game import Game, PreparedRun, summary_json
from sim.core.json_output import emit, game_meta, run_meta
from sim.core.summary import Tally
from sim.core.runner import UsageError, check_run_args, keeping

Games = Annotated[int, typer.Option("--games", "-n", help="Number of complete games to play.")]
Seed = Annotated[int, typer.Option(help="Master seed; game g is seeded from (seed, g).")]
Threads = Annotated[Optional[int], typer.Option(help="Threads to use (default: all cores).")]
ChunkSize = Annotated[Optional[int], typer.Option(help="Games per chunk (progress and memory only).")]
Progress = Annotated[bool, typer.Option(help="Progress bar on stderr.")]
OutDir = Annotated[Optional[Path], typer.Option(help="Write tables, manifest, report and plot here.")]
SummaryJson = Annotated[bool, typer.Option("--json", help="Print the summary as JSON.")]
AsJson = Annotated[bool, typer.Option("--json", help="Print the result as JSON.")]
Seats = Annotated[
    Optional[list[str]],
    typer.Option("--seat", help="Policy of the next seat: 'smart', a policy with parameters ('smart risk=0.8') or "
                                "your own bot ('bots/mine.py:NAME k=v', docs/bots.md). Repeat per seat."),
]
Rules = Annotated[
    Optional[list[str]], typer.Option("--rule", help="Rule change KEY=VALUE (deck.NAME=COUNT changes the deck).")
]
# The options of every replay command.
GameIndex = Annotated[Optional[int], typer.Option("--game", help="The game to replay: its number in the run (0 on).")]
Where = Annotated[Optional[str], typer.Option(
    help="Replay the first game whose row meets this condition, e.g. \"winner == 2 and turns > 100\" "
         "(comparisons, and / or / not, arithmetic, numbers, strings and the games table's columns).")]
Longest = Annotated[bool, typer.Option("--longest", help="Replay the longest game (by turns; of those --where matches).")]
Shortest = Annotated[bool, typer.Option("--shortest", help="Replay the shortest game (by turns; of those --where matches).")]
EventsOut = Annotated[Optional[Path], typer.Option(help="Also write the events, one row each, to this .parquet file.")]
CheckReplay = Annotated[bool, typer.Option(help="Check invariants after every turn of the replay.")]


def rule_args(game: Game, preset: str | None, changes: list[str] | None) -> list[str]:
    """--edition (a preset the other changes modify) and --rule as one list of rule changes."""
    if preset is not None and preset not in game.rules.presets:
        raise UsageError(f"--edition must be one of {', '.join(game.rules.presets)} (got {preset!r})")
    return ([f"edition={preset}"] if preset else []) + list(changes or [])


def rules_with_preset(game: Game, preset: str | None, changes: list[str] | None):
    """The game's rules after --edition and --rule."""
    return game.rules_from(rule_args(game, preset, changes))


def preset_option(game: Game):
    """The --edition option of a game with rule presets (the card game), for its commands."""
    return Annotated[str, typer.Option(help=f"Rules preset: {' or '.join(game.rules.presets)}.")]


def _with_preset_option(game: Game, command):
    """`command` (which takes **preset) with an --edition option for a game with rule presets
    (the card game), without one for the others."""
    signature = inspect.signature(command, eval_str=True)
    params = [p for p in signature.parameters.values() if p.kind != inspect.Parameter.VAR_KEYWORD]
    if game.rules.presets:
        params.append(inspect.Parameter("edition", inspect.Parameter.KEYWORD_ONLY, default=game.rules.presets[0],
                                        annotation=preset_option(game)))
    command.__signature__ = signature.replace(parameters=params)
    return command


KEEP = ("none", "games", "seats")
# Up to this many games `simulate --out` keeps the per-seat table too by default. It restates the
# games table one row per seat, and writing it costs a tenth of a Chance run's time.
KEEP_SEATS_UP_TO = 100_000


def run_simulation(run: PreparedRun, out: Path | None, keep: str, as_json: bool, check: bool, progress: bool,
                   rule_changes: list[str] = ()) -> None:
    """Every `<game> simulate`: play the games chunk by chunk, adding each chunk to the summary's
    tally and, with --out, appending it to the kept tables (games.parquet; with keep=seats
    seats.parquet too; and the game's detail tables), so memory is bounded by the chunk. Then
    write the summary tables, report, plot and manifest, and print the report or the JSON. The
    manifest keeps the rule changes as given, so that `monosim replay` can play a game again."""
    from sim.core import results

    game, tally = run.game, Tally()
    if out is not None:
        keeping(f"nothing was kept: {out} is written only once every game is played")
    with contextlib.ExitStack() as stack:
        folder = stack.enter_context(results.new_dir(out)) if out is not None else None
        names = [] if folder is None or keep == "none" else [
            "games", *(["seats"] if keep == "seats" else []), *game.report.out_detail]
        tables = {name: results.ParquetAppender(folder / f"{name}.parquet") for name in names}
        stack.callback(lambda: [t.close() for t in tables.values()])  # before the folder moves

        def consume(df, detail: dict) -> None:
            game.tally(df, tally)
            for name, appender in tables.items():
                appender.append(df if name == "games" else game.seat_table(df) if name == "seats" else detail[name])

        run.stream(consume, check, progress, detail=any(name in tables for name in game.report.out_detail))
        summary = game.report.summary(tally)
        report = game.report.render(tally, summary)
        if folder is not None:
            summary["by_seat"].to_csv(folder / "summary_by_seat.csv", index=False)
            summary["by_policy"].to_csv(folder / "summary_by_policy.csv", index=False)
            for name in game.report.seat_tables:
                summary[name].to_csv(folder / f"{name}_by_seat.csv", index=False)
            (folder / "report.md").write_text(report)
            game.plot_win_rates(tally, summary, folder / "win_rate_by_seat.png")
            results.write_json(results.manifest(games=run.games, keep=keep, rule_changes=list(rule_changes),
                                                bot_files=userbot.bot_files(run.specs), **tally.attrs))(
                folder / "manifest.json")
    if as_json:
        emit(f"{game.name} simulate", run_meta(run), summary_json(summary))
    else:
        print(report, end="")
        if out is not None:
            print(f"\nWrote {out}/ ({', '.join(f'{n}.parquet' for n in names)}{', ' if names else ''}report.md, "
                  "win_rate_by_seat.png, manifest.json)")


def replay_game(run: PreparedRun, picker, feed, as_json: bool, out: Path | None, check: bool, meta: dict) -> None:
    """Every replay command: choose the game (feed(picker) hands the picker the run's per-game
    tables; None: there is no table to read, and the game is the one asked for), play it again
    with its events logged, and show it. The replay must equal the chosen game's row."""
    from sim.core import replay

    replay.check_events_out(out)
    if feed is None:
        index = picker.game
    else:
        feed(picker)
        index = picker.result()
    r = replay.replay_run(run, index, check)
    stored = picker.row
    if stored is not None:
        mismatch = [c for c in stored.columns if c in r.row.columns and str(stored[c].iloc[0]) != str(r.row[c].iloc[0])]
        if mismatch:
            raise UsageError(f"the replay of game {index} differs from the stored row in {', '.join(mismatch[:5])}: "
                             "the run was made by another version of monosim")
    replay.show(r, as_json, out, f"{run.game.name} replay", {**meta, "game_index": index})


def note_default_seats(given: list[str] | None, run: PreparedRun) -> None:
    """Say on stderr which seats the default table filled, when --seat gave some but not all."""
    import sys

    if given and len(given) < run.players:
        filled = ", ".join(f"seat {s}: {run.specs[s]}" for s in range(len(given), run.players))
        print(f"monosim: the seats not given take the default table's bots ({filled})", file=sys.stderr)


def simulate_folder_run(folder: Path) -> tuple[PreparedRun, Path | None]:
    """The run a `<game> simulate --out` folder holds, prepared to play one game again, and its
    games table (None when the run kept none). UsageError when the folder is not such a run or
    its rules cannot be rebuilt."""
    import json

    from sim.core.game import GAME_NAMES, get

    path = folder / "manifest.json"
    try:
        manifest = json.loads(path.read_text())
    except (OSError, ValueError):
        manifest = None
    if not isinstance(manifest, dict) or manifest.get("game") not in GAME_NAMES or "policies" not in manifest:
        raise UsageError(f"{folder} is not a run folder (no resolved.json / manifest.json) nor a simulate --out "
                         "folder")
    game = get(manifest["game"])
    recorded = manifest.get("bot_files", {})
    userbot.check_unchanged(recorded if isinstance(recorded, dict) else {}, f"the run {folder}")
    try:
        rules = game.rules_from(manifest.get("rule_changes", []))
        if json.loads(json.dumps(game.rules.describe(rules), default=str)) != manifest.get("rules"):
            raise UsageError("its rules")
        deck_edits = {int(s): e for s, e in manifest.get("deck_edits", {}).items()}
        run = game.prepare(1, int(manifest["players"]), list(manifest["policies"]), rules, int(manifest["seed"]),
                           None, None, deck_edits)
    except (UsageError, KeyError, TypeError, ValueError):
        raise UsageError(f"{path}: cannot rebuild the run from it (written by another version of monosim?)") from None
    games = folder / "games.parquet"
    return run, games if games.is_file() else None


def add_game(app: typer.Typer, game: Game) -> typer.Typer:
    """The game's command group: simulate, rules and policies, then the game's own verbs."""
    group = typer.Typer(no_args_is_help=True, help=game.cli_help)
    app.add_typer(group, name=game.name)
    players_help = f"Players at the table, {game.rules.min_players} to {game.rules.max_players}"
    if game.rules.players_for is not None:
        players_help += " (the range depends on the rules)"

    def simulate(
        games: Games = 100_000,
        players: Annotated[int, typer.Option(help=players_help + ".")] = game.rules.default_players,
        seat: Seats = None,
        rule: Rules = None,
        seed: Seed = 0,
        out: OutDir = None,
        threads: Threads = None,
        chunk_size: ChunkSize = None,
        check: Annotated[bool, typer.Option(help="Check invariants after every turn (slower).")] = False,
        as_json: SummaryJson = False,
        progress: Progress = True,
        keep: Annotated[Optional[str], typer.Option(
            help="Per-game tables written with --out: none, games (games.parquet"
                 + ", ".join(["", *(f"{d}.parquet" for d in game.report.out_detail)]) + ") or seats (those and "
                 f"seats.parquet, one row per game and seat). Default: seats up to {KEEP_SEATS_UP_TO:,} "
                 "games, games above.")] = None,
        **preset,
    ) -> None:
        """Play many games between bots and print win rates with 95% intervals. Games are played,
        summarized and written chunk by chunk: memory does not grow with --games."""
        from sim.core import results

        keep = ("seats" if games <= KEEP_SEATS_UP_TO else "games") if keep is None else keep
        if keep not in KEEP:
            raise UsageError(f"--keep must be one of {', '.join(KEEP)} (got {keep!r})")
        changes = rule_args(game, preset.get("edition"), rule)
        run = game.prepare(games, players, seat, game.rules_from(changes), seed, threads, chunk_size, None)
        if out is not None:  # bad input fails before anything is played or written
            results.check_new_dir(out)
        note_default_seats(seat, run)
        run_simulation(run, out, keep, as_json, check, progress and not as_json, changes)

    def rules(as_json: Annotated[bool, typer.Option("--json")] = False, **preset) -> None:
        """Show the components and house rules, with their defaults."""
        current = rules_with_preset(game, preset.get("edition"), [])
        if as_json:
            emit(f"{game.name} rules", game_meta(game, current), game.rules.describe(current))
        else:
            print(game.rules.text(current), end="")

    def replay(
        game_index: GameIndex = None,
        seed: Seed = 0,
        players: Annotated[int, typer.Option(help=players_help + ".")] = game.rules.default_players,
        seat: Seats = None,
        rule: Rules = None,
        where: Where = None,
        longest: Longest = False,
        shortest: Shortest = False,
        games: Annotated[int, typer.Option(
            "--games", "-n", help="With --where, --longest or --shortest: choose among games 0 .. N-1.")] = 1000,
        as_json: AsJson = False,
        out: EventsOut = None,
        check: CheckReplay = True,
        **preset,
    ) -> None:
        """Replay one game turn by turn, as a run with these settings plays it: dice, cards,
        each decision (with the number the bot based it on where there is one), payments and
        the standings after each round. Game G of seed S is the same game in every run."""
        from sim.core.replay import GamePicker

        rules = rules_with_preset(game, preset.get("edition"), rule)
        picker = GamePicker(game_index, where, longest, shortest, "turns")
        if picker.choosing and games < 1:
            raise UsageError(f"--games must be at least 1 (got {games})")
        run = game.prepare(games if picker.choosing else 1, players, seat, rules, seed, None, None, None)
        picker.check(run.frame(game.outputs(0, run.players, False), 0))
        note_default_seats(seat, run)

        def feed(p) -> None:  # games 0 .. N - 1, chunk by chunk: the picker keeps only the row it chooses
            run.stream(lambda df, detail: p.add(df))

        replay_game(run, picker, feed if picker.choosing else None, as_json, out, check, run_meta(run))

    def ladder(
        players: Annotated[Optional[int], typer.Option(help="Players a table (default: the game's usual table).")] = None,
        games: Annotated[int, typer.Option("--games", "-n", help="Games at each table.")] = 2000,
        rule: Rules = None,
        seed: Seed = 0,
        out: OutDir = None,
        as_json: AsJson = False,
        threads: Threads = None,
        seat: Annotated[Optional[list[str]], typer.Option(
            "--seat", help="Add a bot to the ladder: a policy spec or your own, FILE.py:NAME k=v (repeatable).")]
            = None,
        progress: Progress = True,
        **preset,
    ) -> None:
        """Rate every built-in bot and preset (and the bots you add) against all the others:
        every table of different bots in every seat rotation, on the same seeds; Bradley-Terry
        ratings with 95% intervals and the head-to-head table (docs/ladders.md)."""
        from sim.core import results
        from sim.core.ladder import play_ladder

        check_run_args(games, seed, 1, threads)
        rules = rules_with_preset(game, preset.get("edition"), rule)
        if out is not None:
            results.check_new_dir(out)
        result = play_ladder(game, players, games, seed, rules, threads, progress and not as_json, entrants=seat)
        report = result.report(game.title)
        if out is not None:
            with results.new_dir(out) as folder:
                result.ranking.to_csv(folder / "ladder.csv", index=False)
                result.head_to_head.to_csv(folder / "head_to_head.csv")
                (folder / "report.md").write_text(report + "\n![head to head](head_to_head.png)\n")
                result.plot(game.title).savefig(folder / "head_to_head.png", dpi=120)
        if as_json:
            emit(f"{game.name} ladder", game_meta(game, rules, seed=seed, players=result.players,
                                                  games_per_table=games, tables=result.tables),
                 {"ranking": result.ranking, "head_to_head": result.head_to_head.reset_index(names="bot"),
                  "earlier_seat": result.seat_edge})
        else:
            print(report, end="")
            if out is not None:
                print(f"\nWrote {out}/ (report.md, ladder.csv, head_to_head.csv, head_to_head.png)")

    def house_rules(
        games: Annotated[int, typer.Option("--games", "-n", help="Games a rule set.")] = 10_000,
        players: Annotated[int, typer.Option(help=players_help + ".")] = game.rules.default_players,
        seat: Annotated[Optional[list[str]], typer.Option(
            "--seat", help=f"The bots at the table (default: {game.bots.default_table[0]} in every seat); repeatable.")]
            = None,
        rule: Annotated[Optional[list[str]], typer.Option(
            "--rule", help="The baseline's rule changes, KEY=VALUE (repeatable): the variants change it.")] = None,
        seed: Seed = 0,
        threads: Threads = None,
        as_json: AsJson = False,
        progress: Progress = True,
        **preset,
    ) -> None:
        """What each house rule does, switched alone from the baseline: game length (mean and
        median), unfinished games and the first seat's edge, each with its paired difference to
        the baseline (the same games in every row)."""
        from sim.core import house_rules
        from sim.core.json_output import rules_sentence

        changes = rule_args(game, preset.get("edition"), rule)
        base = game.rules_from(changes)
        seats = game.make_table(players, list(seat or []) or [game.bots.default_table[0]] * players, base)[0]
        check_run_args(games, seed, 1, threads)
        t = house_rules.effects(game, games, players, seats, changes, seed, threads, progress and not as_json)
        if as_json:
            emit(f"{game.name} house-rules", game_meta(game, base, games=games, seed=seed, players=players,
                                                       policies=seats), t)
        else:
            print(house_rules.render(game, t, games, players, seats,
                                     rules_sentence(game, game.rules.describe(base), "Baseline")), end="")

    def policies() -> None:
        """List the bot policies and their parameters."""
        print("\n".join(game.bots.catalog.listing()))
        if game.kernel.decisions is not None:
            from sim.core.search import search_listing

            kinds = [k.name for k in game.kernel.decisions.kinds.values()]
            print("\n".join(search_listing(game.bots.default_table[0], kinds)))

    def play(
        seat: Annotated[Optional[list[str]], typer.Option(
            "--seat", help="'human' for a seat you play, or a bot's policy, as in simulate. Repeat per seat.")] = None,
        players: Annotated[Optional[int], typer.Option(help=players_help + " (default: the seats given, at least "
                                                       f"{game.rules.default_players}).")] = None,
        rule: Rules = None,
        seed: Seed = 0,
        game_index: Annotated[int, typer.Option("--game", help="Which game of the seed to play (0 on).")] = 0,
        answers: Annotated[Optional[str], typer.Option(
            help="Answers the human seats gave before, comma-separated (the end of a game prints them).")] = None,
        **preset,
    ) -> None:
        """Play a game yourself against the bots, in the terminal: at each of your decisions you
        see the events since your last one, what your seat may see and the numbered legal
        actions, and type a number (? takes your bot's choice). Ctrl-C ends it."""
        from sim.core import human

        rules = rules_with_preset(game, preset.get("edition"), rule)
        changes = {r.split("=", 1)[0]: r for r in rule_args(game, preset.get("edition"), rule)}  # the last of a key
        command = ["monosim", game.name, "play", *[w for s in seat or [] for w in ("--seat", s)],
                   *([f"--players={players}"] if players else []), *[w for r in changes.values() for w in ("--rule", r)],
                   f"--seed={seed}", f"--game={game_index}"]
        human.play(game.name, list(seat or []), players, rules, seed, game_index, human.parse_answers(answers),
                   command, read=human.stdin_reader)

    def advise(
        seat: Annotated[Optional[list[str]], typer.Option(
            "--seat", help="'human' for the seat advised, the others' bots as in simulate. Repeat per seat.")] = None,
        players: Annotated[Optional[int], typer.Option(help=players_help + " (default: the seats given, at least "
                                                       f"{game.rules.default_players}).")] = None,
        rule: Rules = None,
        seed: Seed = 0,
        game_index: Annotated[int, typer.Option("--game", help="Which game of the seed (0 on).")] = 0,
        answers: Annotated[Optional[str], typer.Option(
            help="Answers the human seats gave before, comma-separated, as `play` prints them: the advice is "
                 "for the next decision of a human seat.")] = None,
        position: Annotated[Optional[Path], typer.Option(
            help="A position file (.toml or .json) to advise from instead: the decision is the first of the seat "
                 "to move (after --answers, that seat's).")] = None,
        precision: Annotated[float, typer.Option(
            help="Playouts are added until each action's difference to the best is known to within this many "
                 "points (95%).")] = 1.0,
        games: Annotated[int, typer.Option("--games", "-n", help="The most playouts an action.")] = 20_000,
        as_json: Annotated[bool, typer.Option("--json", help="Print the advice as JSON.")] = False,
        **preset,
    ) -> None:
        """Which action is best at a decision: each legal action's chance to win, by playing the
        game out many times from it, with what the seat cannot see dealt afresh each time."""
        from sim.core import human, search
        from sim.core.play import new_game

        if not 0.05 <= precision <= 50:
            raise UsageError(f"--precision must be 0.05 to 50 points (got {precision:g})")
        if not 100 <= games <= 1_000_000:
            raise UsageError(f"--games (playouts an action) must be 100 to 1,000,000 (got {games:,})")
        given = human.parse_answers(answers)
        if position is not None:
            if game.position is None:
                raise UsageError(f"{game.title} has no position files yet: give the game with --seat and --answers")
            if seat or players or rule:
                raise UsageError("--position gives the seats, players and rules: leave out --seat, --players and --rule")
            rules, policies, options, turn = game.position(position)
            state = new_game(game.name, seats=policies, players=len(policies), rules=rules, seed=seed,
                             game_index=game_index, outside=[turn], **options)
            human.apply_answers(state, given)
        else:
            rules = rules_with_preset(game, preset.get("edition"), rule)
            state, _ = human.start(game.name, list(seat or []), players, rules, seed, game_index, given)
        if state.is_terminal():
            raise UsageError("the game is over there: no decision to advise")
        table = search.advise(state, precision, games, seed)
        if as_json:
            emit(f"{game.name} advise", game_meta(game, rules, seed=seed, seat=state.current_player,
                                                   decision=state.decision, precision=precision), table)
        else:
            print(human.advice_text(state, table, precision, seed), end="")

    group.command("simulate")(_with_preset_option(game, simulate))
    if game.kernel.decisions is not None:
        group.command("play")(_with_preset_option(game, play))
        group.command("advise")(_with_preset_option(game, advise))  # a game's own verbs may replace it
    group.command("rules")(_with_preset_option(game, rules))
    group.command("policies")(policies)
    group.command("replay")(_with_preset_option(game, replay))
    group.command("ladder")(_with_preset_option(game, ladder))
    group.command("house-rules")(_with_preset_option(game, house_rules))
    if game.verbs is not None:
        importlib.import_module(game.verbs).register(group)
    return group
