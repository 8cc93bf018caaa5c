"""The monosim command line: one sub-command group per game, plus bench."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, Optional

import typer

from sim.core.runner import DEFAULT_CHUNK, UsageError

app = typer.Typer(
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
    help="Monte Carlo strategy simulator for the Monopoly family of games.",
)
chance_app = typer.Typer(no_args_is_help=True, help="Monopoly Chance: simulate, inspect the rules.")
app.add_typer(chance_app, name="chance")
deal_app = typer.Typer(no_args_is_help=True, help="Monopoly Deal: simulate, inspect the rules and bots.")
app.add_typer(deal_app, name="deal")
cardgame_app = typer.Typer(
    no_args_is_help=True,
    help="Monopoly: The Card Game (wiki and video editions): simulate, rules, policies, card values, seats, house rules.",
)
app.add_typer(cardgame_app, name="cardgame")
classic_app = typer.Typer(
    no_args_is_help=True,
    help="Classic Monopoly: simulate, rules, policies, landing odds, positions, property values, house rules.",
)
app.add_typer(classic_app, name="classic")

Games = Annotated[int, typer.Option("--games", "-n", help="Number of complete games to play.")]
Seed = Annotated[int, typer.Option(help="Master seed; game g is seeded from (seed, g).")]
Threads = Annotated[Optional[int], typer.Option(help="Threads to use (default: all cores).")]
ChunkSize = Annotated[int, typer.Option(help="Games per chunk (progress and memory only).")]
Progress = Annotated[bool, typer.Option(help="Progress bar on stderr.")]
OutDir = Annotated[Optional[Path], typer.Option(help="Write tables, manifest, report and plot here.")]
SummaryJson = Annotated[bool, typer.Option("--json", help="Print the summary as JSON.")]


def _finish_simulation(api, df, games, out, as_json, to_json, extra_tables=(), extra_files=None) -> None:
    """The common end of every `<game> simulate`: summarize, write the run folder when --out is
    given (tables, report, plot, manifest), then print the report or the JSON summary.
    `extra_tables` names further summary tables written as <name>_by_seat.csv; `extra_files`
    maps further file names to their writers."""
    from sim.core import results

    summary = api.summarize(df)
    report = api.render_report(df, summary)
    if out is not None:
        files = {
            "games.parquet": df.to_parquet,
            "seats.parquet": api.seat_table(df).to_parquet,
            "summary_by_seat.csv": lambda p: summary["by_seat"].to_csv(p, index=False),
            "summary_by_policy.csv": lambda p: summary["by_policy"].to_csv(p, index=False),
        }
        for name in extra_tables:
            files[f"{name}_by_seat.csv"] = lambda p, name=name: summary[name].to_csv(p, index=False)
        files.update(extra_files or {})
        files.update(
            {
                "report.md": results.write_text(report),
                "win_rate_by_seat.png": lambda p: api.plot_win_rates(df, p, summary),
                "manifest.json": results.write_json(results.manifest(games=games, **df.attrs)),
            }
        )
        results.write_dir(out, files)
    if as_json:
        print(json.dumps(to_json(summary), indent=2))
    else:
        print(report, end="")
        if out is not None:
            print(f"\nWrote {out}/ (games.parquet, report.md, win_rate_by_seat.png, manifest.json)")


def _print_house_rules(house, doc: dict[str, str], heading: str = "House rules (name = default):") -> None:
    """The `<game> rules` listing of house rules: name = value: meaning."""
    print(heading)
    for name, text in doc.items():
        value = getattr(house, name)
        print(f"  {name} = {str(value).lower() if isinstance(value, bool) else value}: {text}")


@chance_app.command("simulate")
def chance_simulate(
    games: Games = 100_000,
    players: Annotated[int, typer.Option(help="Players at the table, 2 to 4.")] = 4,
    seat: Annotated[
        Optional[list[str]],
        typer.Option(help="Policy of the next seat, e.g. 'bust_threshold p=0.3'. Repeat per seat."),
    ] = None,
    rule: Annotated[
        Optional[list[str]],
        typer.Option(help="Rule change KEY=VALUE, e.g. finish_mark=18 or reshuffle_empty_pile=true."),
    ] = None,
    seed: Seed = 0,
    out: OutDir = None,
    threads: Threads = None,
    chunk_size: ChunkSize = DEFAULT_CHUNK,
    check: Annotated[bool, typer.Option(help="Check invariants after every turn (slower).")] = False,
    as_json: SummaryJson = False,
    progress: Progress = True,
) -> None:
    """Play many games between bots and print win rates with 95% intervals."""
    from sim.chance import api
    from sim.chance.rules import ChanceRules, apply_rule_changes
    from sim.core import results

    rules = apply_rule_changes(ChanceRules(), rule or [])
    if out is not None:
        results.check_new_dir(out)
    df = api.simulate(
        games, players, seat, rules, seed, threads, chunk_size, check, progress=progress and not as_json
    )
    _finish_simulation(api, df, games, out, as_json, _summary_json)


def _summary_json(summary) -> dict:
    return {
        "by_seat": summary["by_seat"].to_dict(orient="records"),
        "by_policy": summary["by_policy"].to_dict(orient="records"),
        "length": summary["length"].to_dict(orient="index"),
        "flags": summary["flags"]["share"].to_dict(),
    }


@chance_app.command("rules")
def chance_rules(as_json: Annotated[bool, typer.Option("--json")] = False) -> None:
    """Show the components and house rules, with their defaults."""
    from sim.chance.rules import CHANCE_EFFECTS_DOC, HOUSE_RULE_DOC, ChanceRules, describe

    rules = ChanceRules()
    if as_json:
        print(json.dumps(describe(rules), indent=2))
        return
    print("Properties (printed value, buildings, building length):")
    for p in rules.properties:
        print(f"  {p.name:<20} {p.colour:<10} value {p.value:>2}  buildings {p.buildings}  length {p.building_length}")
    print(f"Gray buildings: {rules.gray_buildings} of length {rules.gray_length}")
    print(f"Finish mark: {rules.finish_mark}   Die: {', '.join('?' if f == 0 else str(f) for f in rules.die)}")
    print("Token deck: " + ", ".join(f"{n} x{c}" for n, c in rules.deck.items()))
    print("Chance cards:")
    for effect, param in rules.chance_cards:
        print(f"  {effect} ({param}): {CHANCE_EFFECTS_DOC[effect]}")
    _print_house_rules(rules.house, HOUSE_RULE_DOC)


@chance_app.command("policies")
def chance_policies() -> None:
    """List the bot policies and their parameters."""
    from strategies.chance import CATALOG

    print("\n".join(CATALOG.listing()))


@app.command("run")
def run(
    spec: Annotated[Path, typer.Argument(help="Experiment spec (TOML), or a run folder to complete with --resume.")],
    resume: Annotated[
        bool, typer.Option(help="Complete the latest unfinished run of this spec (or the run folder given).")
    ] = False,
    out_root: Annotated[Path, typer.Option(help="Runs go to OUT_ROOT/NAME/RUN-ID/.")] = Path("results"),
    workers: Annotated[Optional[int], typer.Option(help="Start a local Dask cluster with this many workers.")] = None,
    scheduler: Annotated[
        Optional[str], typer.Option(help="Send chunks to a running Dask scheduler, e.g. tcp://host:8786.")
    ] = None,
    threads: Threads = None,
    progress: Progress = True,
) -> None:
    """Run an experiment spec: every cell of its sweep, under common random numbers."""
    from sim.core import analysis, runs
    from sim.core.runner import check_run_args

    if workers is not None and scheduler is not None:
        raise UsageError("give --workers or --scheduler, not both")
    if workers is not None and workers < 1:
        raise UsageError(f"--workers must be at least 1 (got {workers})")
    check_run_args(1, 0, 1, threads)
    plan, run_dir = runs.plan_for(spec, resume, out_root)
    # Everything is checked and the cluster reached before the run folder is created.
    pool = runs.DaskPool(workers, scheduler) if workers or scheduler else runs.LocalPool()
    try:
        if run_dir is None:
            run_dir = runs.create(plan, out_root)
        else:
            runs.remove_stray_temp_files(run_dir)
            m = run_dir.manifest()
            m["resumed"] = m.get("resumed", []) + [runs.utc_now()]
            run_dir.write_manifest(m)
        print(f"{plan.name}: {len(plan.cells)} cells, {pool.description}; writing {run_dir.path}/", file=sys.stderr)
        try:
            # A Dask worker runs one chunk per thread, so its chunks take one numba thread each.
            chunk_threads = threads if isinstance(pool, runs.LocalPool) else (threads or 1)
            runs.execute(plan, run_dir, pool, chunk_threads, progress)
        except KeyboardInterrupt:
            print(
                f"monosim: interrupted; finished chunks are kept in {run_dir.path}; "
                f"complete the run with: monosim run {spec} --resume",
                file=sys.stderr,
            )
            sys.exit(130)
        except Exception as e:
            if isinstance(pool, runs.LocalPool):
                raise  # a bug in process: keep the traceback
            # A worker or scheduler failed (often a different monosim on the cluster).
            print(
                f"monosim: error: a chunk failed on the cluster: {str(e).splitlines()[0]}; finished chunks "
                f"are kept in {run_dir.path}; complete the run with: monosim run {spec} --resume",
                file=sys.stderr,
            )
            sys.exit(1)
    finally:
        pool.close()
    report = analysis.finish(plan, run_dir)
    print(report, end="")
    print(f"\nWrote {run_dir.path}/ (report.md, summary.csv, games/, manifest.json)")


@app.command("tune")
def tune(
    spec: Annotated[Path, typer.Argument(help="Tune spec (TOML): game, table, [search], [goals], [race].")],
    out: Annotated[
        Optional[Path], typer.Option(help="Output folder (must not exist); default OUT_ROOT/NAME/tune-STAMP.")
    ] = None,
    out_root: Annotated[Path, typer.Option(help="Default outputs go to OUT_ROOT/NAME/tune-STAMP/.")] = Path("results"),
    resume: Annotated[
        bool, typer.Option(help="Finish an interrupted tune (the given --out, or the latest of this spec).")
    ] = False,
    save_preset: Annotated[
        bool, typer.Option(help="Bot tuning: add the tuned policy to the game's preset file under the spec's preset name.")
    ] = False,
    workers: Annotated[Optional[int], typer.Option(help="Start a local Dask cluster with this many workers.")] = None,
    threads: Threads = None,
    progress: Annotated[bool, typer.Option(help="Progress on stderr.")] = True,
    check: Annotated[bool, typer.Option(help="Check the spec and list the candidates and rungs; play nothing.")] = False,
) -> None:
    """Search house-rule or policy parameters for the values that meet a table's goals."""
    from sim.core import results, runs
    from sim.core import tune as tuner
    from sim.core.runner import check_run_args

    check_run_args(1, 0, 1, threads)
    if workers is not None and workers < 1:
        raise UsageError(f"--workers must be at least 1 (got {workers})")
    plan = tuner.load(spec)
    if check:
        print(tuner.describe_plan(plan), end="")
        return
    if save_preset and not plan.spec["preset"]:
        raise UsageError(f"--save-preset: {spec.name} names no preset (add preset = \"NAME\" to a bot tuning spec)")
    if resume:
        out = out if out is not None else tuner.find_partial(plan, out_root)
        if not (tuner.work_dir(out) / "tune.json").is_file():
            raise UsageError(f"--resume: {tuner.work_dir(out)} is not an unfinished tune")
    else:
        out = out if out is not None else tuner.default_out(plan, out_root)
        results.check_new_dir(out)
        results.check_new_dir(tuner.work_dir(out))
    log = tuner.stderr_log  # rung lines always; --no-progress hides only the bar
    log(f"{plan.spec['name']}: {len(plan.candidates)} candidates; working in {tuner.work_dir(out)}/")
    pool = runs.DaskPool(workers, None) if workers else runs.LocalPool()
    try:
        report = tuner.tune(plan, out, pool, threads if workers is None else (threads or 1), progress, resume,
                            save_preset, log)
    except KeyboardInterrupt:
        print(f"monosim: interrupted; finished games are kept in {tuner.work_dir(out)}; "
              f"finish with: monosim tune {spec} --out {out} --resume", file=sys.stderr)
        sys.exit(130)
    finally:
        pool.close()
    print(report, end="")
    print(f"\nWrote {out}/ (report.md, candidates.csv, tradeoff.png, games/, manifest.json)")


@app.command("report")
def report(results_dir: Annotated[Path, typer.Argument(help="A run folder, results/NAME/RUN-ID.")]) -> None:
    """Re-render report.md, the summary tables and the plots of a run from its stored games."""
    from sim.core import analysis, runs

    if not runs.is_run_dir(results_dir):
        raise UsageError(f"{results_dir} is not a run folder (no resolved.json / manifest.json)")
    run_dir = runs.RunDir(results_dir)
    if run_dir.manifest().get("status") != "complete":
        raise UsageError(f"{results_dir} is not complete; finish it with `monosim run {results_dir} --resume`")
    print(analysis.write_outputs(run_dir.plan(), run_dir), end="")


@app.command("compare")
def compare(
    a: Annotated[Path, typer.Argument(help="Run folder A.")],
    b: Annotated[Path, typer.Argument(help="Run folder B.")],
    as_json: Annotated[bool, typer.Option("--json", help="Print the comparison as JSON.")] = False,
) -> None:
    """Two runs side by side: matching cells and B - A differences with 95% intervals."""
    from sim.core import analysis

    text, table = analysis.compare(a, b)
    if as_json:
        print(table.to_json(orient="records", indent=2))
    else:
        print(text, end="")
def _values(flag: str, raw: Optional[str]) -> Optional[list[int]]:
    """'7,11' -> [7, 11]; '' -> []; None stays None."""
    if raw is None:
        return None
    out = []
    for part in raw.split(","):
        part = part.strip()
        if not part:
            continue
        try:
            out.append(int(part))
        except ValueError:
            raise UsageError(f"{flag} takes comma-separated whole numbers such as 7,11 (got {raw!r})") from None
    return out


CashFlag = Annotated[Optional[str], typer.Option("--cash", help="Cash values left in the draw pile, e.g. 2,3,5,12 ('' for none). Default: the fresh deck minus --flipped.")]
BankruptFlag = Annotated[Optional[int], typer.Option("--bankrupt", help="Bankrupts left in the pile (default: all of the deck's).")]
LuckyFlag = Annotated[Optional[int], typer.Option("--lucky", help="Lucky Breaks left in the pile (default: the deck's minus --held-lucky).")]
OtherFlag = Annotated[Optional[int], typer.Option("--other", help="Token / Flip 2 / Nope! cards left in the pile (default: all).")]
HeldLuckyFlag = Annotated[int, typer.Option("--held-lucky", help="Unused Lucky Breaks in front of you this turn.")]
FlippedFlag = Annotated[Optional[str], typer.Option("--flipped", help="Cash already flipped this turn, e.g. 7,11.")]
RuleFlag = Annotated[Optional[list[str]], typer.Option("--rule", help="Rule change KEY=VALUE (deck.* changes the deck).")]


def _situation(cash, bankrupt, lucky, other, held_lucky, flipped, flips, rule):
    from sim.chance.exact_odds import make_situation
    from sim.chance.rules import ChanceRules, apply_rule_changes

    rules = apply_rule_changes(ChanceRules(), rule or [])
    sit = make_situation(
        cash=_values("--cash", cash), bankrupt=bankrupt, lucky=lucky, other=other,
        held_lucky=held_lucky, flipped=_values("--flipped", flipped), flips=flips, rules=rules,
    )
    return sit, rules


@chance_app.command("odds")
def chance_odds(
    cash: CashFlag = None,
    bankrupt: BankruptFlag = None,
    lucky: LuckyFlag = None,
    other: OtherFlag = None,
    held_lucky: HeldLuckyFlag = 0,
    flipped: FlippedFlag = None,
    flips: Annotated[Optional[int], typer.Option("--flips", help="Flips left this turn (default: the largest die face).")] = None,
    rule: RuleFlag = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the odds as JSON.")] = False,
) -> None:
    """Exact odds of flipping k more cards (k = 1 .. flips left), and of the next flip busting."""
    from sim.chance.exact_odds import odds, render_odds

    sit, _ = _situation(cash, bankrupt, lucky, other, held_lucky, flipped, flips, rule)
    result = odds(sit)
    if as_json:
        print(json.dumps(result))
    else:
        print(render_odds(sit, result), end="")


@chance_app.command("advise")
def chance_advise(
    flipped: FlippedFlag = None,
    flips_left: Annotated[Optional[int], typer.Option("--flips-left", help="Flips left this turn (default: the largest die face).")] = None,
    held_lucky: HeldLuckyFlag = 0,
    cash: CashFlag = None,
    bankrupt: BankruptFlag = None,
    lucky: LuckyFlag = None,
    other: OtherFlag = None,
    objective: Annotated[str, typer.Option(help="What the turn should maximize: value, count or board.")] = "value",
    beat: Annotated[int, typer.Option(help="Board objective: a card counts only above this value (the cheapest property's requirement).")] = 0,
    games: Annotated[int, typer.Option("--games", "-n", help="Games per arm of the win-rate evidence (0: none).")] = 20_000,
    players: Annotated[int, typer.Option(help="Players at the table, 2 to 4.")] = 4,
    policy: Annotated[str, typer.Option(help="Your policy in the simulated games, outside the situation.")] = "optimal",
    seed: Seed = 0,
    rule: RuleFlag = None,
    threads: Threads = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the advice as JSON.")] = False,
) -> None:
    """Flip or cash out? Exact bust chance and expected gain, plus win-rate evidence from games."""
    from sim.core.runner import check_run_args

    OBJECTIVES = ("value", "count", "board")  # sim.chance.optimal.OBJECTIVES; checked before heavy imports
    if objective not in OBJECTIVES:
        raise UsageError(f"--objective must be one of {', '.join(OBJECTIVES)} (got {objective!r})")
    if games < 0:
        raise UsageError(f"--games must be 0 or more (got {games})")
    if not 2 <= players <= 4:
        raise UsageError(f"--players must be 2 to 4 for Monopoly Chance (got {players})")
    check_run_args(max(games, 1), seed, 1, threads)
    sit, rules = _situation(cash, bankrupt, lucky, other, held_lucky, flipped, flips_left, rule)
    if sit.cash_sum > 254 or len(sit.flipped) > 62 or sit.flips > 62:
        raise UsageError("the situation is too large to look for in games (at most 254 Cash, 62 cards or flips)")
    from strategies.chance import PolicyError, parse_policy

    try:
        parse_policy(policy)
    except PolicyError as e:
        raise UsageError(str(e)) from None
    from sim.chance.advise import advise, render_advice

    result = advise(sit, objective, beat, games, players, policy, seed, bankrupt is not None, rules, threads)
    if as_json:
        print(json.dumps(result))
    else:
        print(render_advice(result), end="")


@chance_app.command("study")
def chance_study(
    out: Annotated[Path, typer.Option(help="Folder for the tables, plots and report.md.")] = Path("results/cash_out"),
    games: Annotated[int, typer.Option(help="Games per tournament cell (split over the focal seats).")] = 24_000,
    map_games: Annotated[int, typer.Option(help="Games per arm of each stop/flip map cell (0: no maps).")] = 8_000,
    players: Annotated[Optional[list[int]], typer.Option(help="Player counts (repeat); default 2, 3 and 4.")] = None,
    seed: Seed = 2026,
    threads: Threads = None,
) -> None:
    """The cash-out study: stopping rules in full games, and the stop/flip map (issue 3)."""
    from sim.chance.study import MAPS, StudyConfig, run_study

    if games < 1 or map_games < 0:
        raise UsageError("--games must be at least 1 and --map-games 0 or more")
    for n in players or []:
        if not 2 <= n <= 4:
            raise UsageError(f"--players must be 2 to 4 for Monopoly Chance (got {n})")
    from sim.core.runner import check_run_args

    check_run_args(games, seed, 1, threads)
    cfg = StudyConfig(games=games, map_games=max(map_games, 1), players=tuple(players or (2, 3, 4)), seed=seed,
                      threads=threads, maps=tuple(MAPS) if map_games > 0 else ())
    res = run_study(cfg, out, progress=lambda msg: print(msg, file=sys.stderr))
    print(f"Wrote {out}/ (report.md, tournament.csv, stop_flip_map.csv, plots) in {res['seconds'] / 60:.1f} min")
@deal_app.command("simulate")
def deal_simulate(
    games: Games = 100_000,
    players: Annotated[int, typer.Option(help="Players at the table, 2 to 5.")] = 4,
    seat: Annotated[
        Optional[list[str]],
        typer.Option(help="Policy of the next seat, e.g. 'smart jsn_stake=5'. Repeat per seat."),
    ] = None,
    rule: Annotated[
        Optional[list[str]],
        typer.Option(help="Rule change KEY=VALUE, e.g. win_on_any_turn=false or deck.just_say_no=5."),
    ] = None,
    seed: Seed = 0,
    out: OutDir = None,
    threads: Threads = None,
    chunk_size: ChunkSize = DEFAULT_CHUNK,
    check: Annotated[bool, typer.Option(help="Check invariants after every play (slower).")] = False,
    as_json: SummaryJson = False,
    progress: Progress = True,
) -> None:
    """Play many games between bots and print win rates with 95% intervals."""
    from sim.core import results
    from sim.deal import api
    from sim.deal.rules import DealRules, apply_rule_changes

    rules = apply_rule_changes(DealRules(), rule or [])
    api.make_table(players, seat)  # bad seats fail before anything is written
    if out is not None:
        results.check_new_dir(out)
    df = api.simulate(
        games, players, seat, rules, seed, threads, chunk_size, check, progress=progress and not as_json
    )
    _finish_simulation(api, df, games, out, as_json, _deal_summary_json, extra_tables=("actions",))


def _deal_summary_json(summary) -> dict:
    return {
        "by_seat": summary["by_seat"].to_dict(orient="records"),
        "by_policy": summary["by_policy"].to_dict(orient="records"),
        "length": summary["length"].to_dict(orient="index"),
        "ended": summary["ended"]["share"].to_dict(),
        "actions": summary["actions"].to_dict(orient="records"),
    }


@deal_app.command("rules")
def deal_rules(as_json: Annotated[bool, typer.Option("--json")] = False) -> None:
    """Show the deck, the colours, the numbers and the house rules, with their defaults."""
    from sim.deal.rules import HOUSE_RULE_DOC, SCALAR_FIELDS, TYPE_NAMES, DealRules, card_spec, describe

    rules = DealRules()
    if as_json:
        print(json.dumps(describe(rules), indent=2))
        return
    print("Colours (set size; rent by cards owned; value of each property card; buildings):")
    for c in rules.colours:
        rents = ", ".join(str(r) for r in c.rents)
        print(f"  {c.name:<11} {c.set_size}  rent {rents:<11} value {c.value}  {'houses' if c.buildable else 'no houses'}")
    print(f"Deck ({sum(rules.deck.values())} cards; name x copies (type, value)); change with deck.NAME=COUNT:")
    for name, count in rules.deck.items():
        t, v, _, _ = card_spec(name)
        print(f"  {name:<26} x{count:<3} ({TYPE_NAMES[t]}, {v}M)")
    print("Numbers:")
    print("  " + ", ".join(f"{k}={getattr(rules, k)}" for k in SCALAR_FIELDS))
    _print_house_rules(rules.house, HOUSE_RULE_DOC)


@deal_app.command("policies")
def deal_policies() -> None:
    """List the bot policies and their parameters."""
    from strategies.deal import CATALOG

    print("\n".join(CATALOG.listing()))


# ---- Monopoly: The Card Game ------------------------------------------------------------------

CardEdition = Annotated[str, typer.Option(help="Rules preset: wiki (Edition A, the default) or video (Edition B).")]
CardRule = Annotated[
    Optional[list[str]],
    typer.Option("--rule", help="Rule change KEY=VALUE after the edition's preset, e.g. chance_zeroes_others=false."),
]
CardPlayers = Annotated[int, typer.Option(help="Players: 3 to 6 (wiki edition) or 2 to 4 (video).")]
CardJson = Annotated[bool, typer.Option("--json", help="Print the result as JSON.")]
CardSeat = Annotated[
    Optional[list[str]],
    typer.Option("--seat", help="Policy of the next seat, e.g. 'smart wait_min=4'. Repeat per seat."),
]


def _card_rules(edition: str, rule):
    from sim.cardgame.rules import EDITIONS, CardGameRules, apply_rule_changes

    if edition not in EDITIONS:
        raise UsageError(f"--edition must be one of {', '.join(EDITIONS)} (got {edition!r})")
    return apply_rule_changes(CardGameRules.preset(edition), rule or [])


@cardgame_app.command("simulate")
def cardgame_simulate(
    games: Games = 100_000,
    players: CardPlayers = 4,
    edition: CardEdition = "wiki",
    seat: CardSeat = None,
    rule: CardRule = None,
    seed: Seed = 0,
    out: Annotated[Optional[Path], typer.Option(help="Write match and hand tables, manifest, report and plot here.")] = None,
    threads: Threads = None,
    chunk_size: ChunkSize = DEFAULT_CHUNK,
    check: Annotated[bool, typer.Option(help="Check invariants after every turn (slower).")] = False,
    as_json: CardJson = False,
    progress: Progress = True,
) -> None:
    """Play many matches between bots and print win rates with 95% intervals. With --out, the
    per-hand rows (who went out, every seat's hand score, the jackpot) go to hands.parquet."""
    from sim.cardgame import api
    from sim.core import results

    rules = _card_rules(edition, rule)
    api.make_table(players, seat, rules)  # bad seats fail before anything is written
    if out is not None:
        results.check_new_dir(out)
    show = progress and not as_json
    extra = None
    if out is None:
        df = api.simulate(games, players, seat, rules, seed, threads, chunk_size, check, progress=show)
    else:
        df, hands, _ = api.simulate_hands(games, players, seat, rules, seed, threads, chunk_size, check, progress=show)
        extra = {"hands.parquet": hands.to_parquet}
    _finish_simulation(api, df, games, out, as_json, _cardgame_summary_json, extra_tables=("money",), extra_files=extra)


def _cardgame_summary_json(summary) -> dict:
    return {
        "by_seat": summary["by_seat"].to_dict(orient="records"),
        "by_policy": summary["by_policy"].to_dict(orient="records"),
        "length": summary["length"].to_dict(orient="index"),
        "ended": summary["ended"]["share"].to_dict(),
        "money": summary["money"].to_dict(orient="records"),
    }


@cardgame_app.command("rules")
def cardgame_rules(edition: CardEdition = "wiki", as_json: CardJson = False) -> None:
    """Show an edition's deck, card values, numbers and house rules, with their defaults."""
    from sim.cardgame.rules import COLOUR_NAMES, GROUP_SIZES, HOUSE_RULE_DOC, SCALAR_FIELDS, describe

    rules = _card_rules(edition, [])
    if as_json:
        print(json.dumps(describe(rules), indent=2))
        return
    print(f"Edition: {rules.edition}; players {rules.players_allowed()[0]} to {rules.players_allowed()[1]}")
    print("Groups (cards; complete value; value of each house; value of one card of an incomplete group):")
    for c, name in enumerate(COLOUR_NAMES):
        value = f"{rules.railroad_values[1:]} by railroads held" if name == "railroad" else rules.group_values[c]
        print(f"  {name:<11} {GROUP_SIZES[c]}  value {value}  house {rules.house_values[c]}  card {rules.card_values[c]}")
    print(f"Deck ({sum(rules.deck.values())} cards, name x copies); change with deck.NAME=COUNT:")
    for name, count in rules.deck.items():
        print(f"  {name:<18} x{count}")
    print("Numbers (change with NAME=VALUE; group_values, house_values, card_values, railroad_values take a list a,b,...):")
    print("  " + ", ".join(f"{k}={getattr(rules, k)}" for k in SCALAR_FIELDS))
    _print_house_rules(rules.house, HOUSE_RULE_DOC, "House rules (name = this edition's default):")


@cardgame_app.command("policies")
def cardgame_policies() -> None:
    """List the bot policies and their parameters."""
    from strategies.cardgame import CATALOG

    print("\n".join(CATALOG.listing()))


@cardgame_app.command("values")
def cardgame_values(
    games: Games = 20_000,
    players: CardPlayers = 4,
    edition: CardEdition = "wiki",
    seat: CardSeat = None,
    rule: CardRule = None,
    seed: Seed = 0,
    threads: Threads = None,
    as_json: CardJson = False,
    progress: Progress = True,
) -> None:
    """Card-value report: each card kind in the hands that went out and the others, and the
    Chance card's risk and reward."""
    from sim.cardgame import api

    rules = _card_rules(edition, rule)
    api.make_table(players, seat, rules)
    v = api.card_values(games, players, seat, rules, seed, threads, progress=progress and not as_json)
    if as_json:
        print(json.dumps({**v, "kinds": v["kinds"].to_dict(orient="records")}, indent=2))
    else:
        print(api.render_card_values(v), end="")


@cardgame_app.command("seats")
def cardgame_seats(
    games: Games = 20_000,
    players: Annotated[Optional[list[int]], typer.Option(help="Player counts (repeat); default every count the edition allows.")] = None,
    edition: CardEdition = "wiki",
    policy: Annotated[str, typer.Option(help="The bot in every seat.")] = "smart",
    rule: CardRule = None,
    seed: Seed = 0,
    threads: Threads = None,
    as_json: CardJson = False,
    progress: Progress = True,
) -> None:
    """Seat advantage by player count: the same bot in every seat, win rate of each seat."""
    from sim.cardgame import api

    rules = _card_rules(edition, rule)
    lo, hi = rules.players_allowed()
    counts = players or list(range(lo, hi + 1))
    for n in counts:
        api.make_table(n, [policy] * n, rules)
    t = api.seat_advantage(games, counts, policy, rules, seed, threads, progress=progress and not as_json)
    if as_json:
        print(json.dumps(t.to_dict(orient="records"), indent=2))
    else:
        print(api.render_seat_advantage(t, games, policy, rules.edition), end="")


@cardgame_app.command("house-rules")
def cardgame_house_rules(
    games: Games = 10_000,
    players: CardPlayers = 4,
    edition: CardEdition = "wiki",
    seat: CardSeat = None,
    seed: Seed = 0,
    threads: Threads = None,
    as_json: CardJson = False,
    progress: Progress = True,
) -> None:
    """Effect of each edition difference and house rule, one at a time, on match length and
    balance (same seeds in every row; smart in every seat unless --seat is given)."""
    from sim.cardgame import api

    rules = _card_rules(edition, [])
    api.make_table(players, seat or ["smart"] * players, rules)
    from sim.core.runner import check_run_args

    check_run_args(games, seed, 1, threads)
    t = api.house_rule_effects(games, players, seat, edition, seed, threads, progress=progress and not as_json)
    if as_json:
        print(json.dumps(t.to_dict(orient="records"), indent=2))
    else:
        print(api.render_house_rules(t, games, players, edition), end="")


# ---- classic Monopoly -------------------------------------------------------------------------

ClassicRule = Annotated[
    Optional[list[str]],
    typer.Option("--rule", help="Rule change KEY=VALUE, e.g. free_parking_jackpot=true or starting_cash=2000."),
]
ClassicSeat = Annotated[
    Optional[list[str]],
    typer.Option("--seat", help="Policy of the next seat, e.g. 'trader reserve=100'. Repeat per seat."),
]


@classic_app.command("simulate")
def classic_simulate(
    games: Games = 100_000,
    players: Annotated[int, typer.Option(help="Players at the table, 2 to 8.")] = 4,
    seat: ClassicSeat = None,
    rule: ClassicRule = None,
    seed: Seed = 0,
    out: OutDir = None,
    threads: Threads = None,
    chunk_size: ChunkSize = 20_000,
    check: Annotated[bool, typer.Option(help="Check invariants after every turn (slower).")] = False,
    as_json: SummaryJson = False,
    progress: Progress = True,
) -> None:
    """Play many games between bots and print win rates with 95% intervals."""
    from sim.classic import api
    from sim.classic.rules import ClassicRules, apply_rule_changes
    from sim.core import results

    rules = apply_rule_changes(ClassicRules(), rule or [])
    if out is not None:
        results.check_new_dir(out)
    df = api.simulate(games, players, seat, rules, seed, threads, chunk_size, check,
                      progress=progress and not as_json)
    _finish_simulation(api, df, games, out, as_json, _classic_json)


def _classic_json(summary) -> dict:
    return {
        "by_seat": summary["by_seat"].to_dict(orient="records"),
        "by_policy": summary["by_policy"].to_dict(orient="records"),
        "length": summary["length"].to_dict(orient="index"),
        "flags": summary["flags"]["share"].to_dict(),
        "per_game": summary["means"].to_dict(),
    }


@classic_app.command("rules")
def classic_rules(as_json: Annotated[bool, typer.Option("--json")] = False) -> None:
    """Show the board, the cards and the house rules, with their defaults."""
    from sim.classic.rules import HOUSE_RULE_DOC, SCALAR_FIELDS, ClassicRules, describe

    rules = ClassicRules()
    if as_json:
        print(json.dumps(describe(rules), indent=2))
        return
    print("Board (square, name, price, rents base/1-4 houses/hotel, house cost, mortgage):")
    for i, s in enumerate(rules.board):
        extra = ""
        if s.kind == "street":
            extra = f"  ${s.price}  rent {'/'.join(map(str, s.rents))}  house ${s.house_cost}  mortgage ${s.mortgage}"
        elif s.kind in ("railroad", "utility"):
            extra = f"  ${s.price}  mortgage ${s.mortgage}"
        elif s.kind == "tax":
            extra = f"  pay ${s.price}"
        print(f"  {i:>2} {s.name:<22} {s.group or s.kind:<16}{extra}")
    print(f"Railroad rents by number owned: {', '.join(map(str, rules.railroad_rents))}; "
          f"utilities: {' or '.join(f'{m}x' for m in rules.utility_multipliers)} the dice")
    for title, deck in (("Chance", rules.chance), ("Community Chest", rules.chest)):
        print(f"{title} ({len(deck)} cards):")
        for c in deck:
            print(f"  {c.text}  [{c.effect} {c.a} {c.b}]")
    print("Numbers (name = default):")
    for name in SCALAR_FIELDS:
        print(f"  {name} = {getattr(rules, name)}")
    _print_house_rules(rules.house, HOUSE_RULE_DOC)


@classic_app.command("policies")
def classic_policies() -> None:
    """List the bot policies and their parameters."""
    from strategies.classic import CATALOG

    print("\n".join(CATALOG.listing()))


@classic_app.command("landing")
def classic_landing(
    jail: Annotated[str, typer.Option(help="Jail strategy: short (leave at once) or long (stay while allowed).")] = "short",
    rolls: Annotated[int, typer.Option(help="Rolls to simulate.")] = 10_000_000,
    seed: Seed = 0,
    rule: ClassicRule = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print 41 objects {square, name, simulated, exact}.")] = False,
) -> None:
    """Long-run landing frequency of every square, simulated and exact (Markov chain)."""
    from sim.classic import landing
    from sim.classic.rules import ClassicRules, apply_rule_changes

    if jail not in landing.JAIL_STRATEGIES:
        raise UsageError(f"--jail must be short or long (got {jail!r})")
    if not 1000 <= rolls <= 10**11:
        raise UsageError(f"--rolls must be between 1000 and 10^11 (got {rolls})")
    if not 0 <= seed < 2**64:
        raise UsageError(f"--seed must be between 0 and 2**64 - 1 (got {seed})")
    rules = apply_rule_changes(ClassicRules(), rule or [])
    rows = landing.landing_table(rules, jail, rolls, seed)
    if as_json:
        print(json.dumps([{k: r[k] for k in ("square", "name", "simulated", "exact")} for r in rows], indent=2))
    else:
        print(landing.render_landing(rows, jail, rolls), end="")


@classic_app.command("position")
def classic_position(
    file: Annotated[Path, typer.Argument(help="Position file (.toml or .json).")],
    games: Games = 20_000,
    seat: ClassicSeat = None,
    seed: Seed = 0,
    threads: Threads = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the estimates as JSON.")] = False,
    progress: Progress = True,
) -> None:
    """Each player's chance to win from a mid-game position, by playing it out many times."""
    from sim.classic import api, position

    pos = position.load(file)
    if seat:
        if len(seat) > pos.players:
            raise UsageError(f"{len(seat)} --seat policies given for {pos.players} players")
        pos.policies[: len(seat)] = seat
    df = api.simulate(games, pos.players, pos.policies, pos.rules, seed, threads, check=False,
                      progress=progress and not as_json, start=pos.S0)
    table = api.position_odds(df, pos)
    if as_json:
        print(json.dumps(table.to_dict(orient="records"), indent=2))
    else:
        print(api.render_position(table, df, file), end="")


@classic_app.command("values")
def classic_values(
    games: Games = 50_000,
    players: Annotated[Optional[list[int]], typer.Option(help="Player counts (repeat); default 2, 3, 4.")] = None,
    seat: ClassicSeat = None,
    rule: ClassicRule = None,
    seed: Seed = 0,
    threads: Threads = None,
    as_json: Annotated[bool, typer.Option("--json")] = False,
    progress: Progress = True,
) -> None:
    """Property value report: each set's effect on win rate, rent per game and payback time."""
    from sim.classic import api
    from sim.classic.rules import ClassicRules, apply_rule_changes

    rules = apply_rule_changes(ClassicRules(), rule or [])
    result = {}
    for n in players or [2, 3, 4]:
        df = api.simulate(games, n, seat, rules, seed, threads, progress=progress and not as_json, detail=True)
        result[n] = api.property_values(df)
    if as_json:
        print(json.dumps({str(n): t.to_dict(orient="records") for n, t in result.items()}, indent=2))
    else:
        print(api.render_property_values(result), end="")


@classic_app.command("house-rules")
def classic_house_rules(
    games: Games = 20_000,
    players: Annotated[int, typer.Option(help="Players at the table, 2 to 8.")] = 4,
    seat: ClassicSeat = None,
    seed: Seed = 0,
    threads: Threads = None,
    as_json: Annotated[bool, typer.Option("--json")] = False,
    progress: Progress = True,
) -> None:
    """Effect of each house rule on game length, seat advantage and never-ending games (same bot
    in every seat unless --seat is given: default strong)."""
    from sim.classic import api

    t = api.house_rule_effects(games, players, seat, seed, threads, progress=progress and not as_json)
    if as_json:
        print(json.dumps(t.to_dict(orient="records"), indent=2))
    else:
        print(api.render_house_rules(t, games, players), end="")


@app.command("bench")
def bench(
    games: Annotated[
        Optional[int], typer.Option("--games", "-n", help="Games a run (default: 1M Chance, 200k Deal and classic, 20k / 100k card game wiki / video).")
    ] = None,
    threads: Threads = None,
    game: Annotated[
        Optional[list[str]], typer.Option(help="Only this game (chance, deal, classic, cardgame); repeatable.")
    ] = None,
    repeat: Annotated[int, typer.Option(help="Timed runs per game; the median run is reported.")] = 1,
    as_json: Annotated[bool, typer.Option("--json", help="Print the measurements as JSON.")] = False,
) -> None:
    """Games per second for each game (the card game in each edition), 4 players, default bots,
    against the game's target; compile time shown apart."""
    from sim.core import bench as benchmarks
    from sim.core.runner import check_run_args

    chosen = game or list(benchmarks.GAMES)
    for name in chosen:
        if name not in benchmarks.GAMES:
            raise UsageError(f"--game {name!r} is not one of {', '.join(benchmarks.GAMES)}")
    check_run_args(games or 1, 0, 1, threads)
    if repeat < 1:
        raise UsageError(f"--repeat must be at least 1 (got {repeat})")
    result = {
        label: benchmarks.bench(name, n, threads, repeat, rules) | {"target_games_per_second": target}
        for name in chosen
        for label, (rules, n, target) in benchmarks.timed_runs(name, games).items()
    }
    if as_json:
        print(json.dumps(result, indent=2))
        return
    for name, r in result.items():
        print(
            f"{name}: {r['games']:,} games of {r['players']} players in {r['seconds']:.2f} s = "
            f"{r['games_per_second']:,.0f} games/s on {r['threads']} threads "
            f"(compile or cache load {r['compile_seconds']:.2f} s; {r['mean_turns']:.0f} turns a game)"
        )
        if repeat > 1:
            speeds = sorted(r["games"] / s for s in r["run_seconds"])
            print(f"  median of {repeat} runs; runs {', '.join(f'{v:,.0f}' for v in speeds)} games/s")
        target = r["target_games_per_second"]
        print(f"  target {target:,} games/s on 2 threads of the 2-core development machine: "
              f"{r['games_per_second'] / target:.0%} of it")


def main(argv: list[str] | None = None) -> None:
    """Entry point: user mistakes become one line on stderr and exit code 2."""
    command = typer.main.get_command(app)
    try:
        command.main(args=argv, prog_name="monosim", standalone_mode=False)
    except typer.Exit as e:
        sys.exit(e.exit_code)
    except typer.Abort:
        print("monosim: interrupted", file=sys.stderr)
        sys.exit(130)
    except typer.TyperException as e:  # typer's parsing errors: bad option, bad value
        print(f"monosim: error: {e.format_message()}", file=sys.stderr)
        sys.exit(2)
    except UsageError as e:
        print(f"monosim: error: {e}", file=sys.stderr)
        sys.exit(2)


if __name__ == "__main__":
    main()
