"""A person at the table: `monosim <game> play --seat human ...` (docs/decisions.md).

The human seats are played from the terminal through the step API (sim/core/play.py); the
other seats by their bots. At each of its decisions a human seat is shown the events since its
last one, what it may see, and the numbered legal actions, and types a number (or `?` for its
bot's choice). A decision with one legal action is taken for it. At the end it is shown the
result and the command that plays the same game again, its answers included.
"""

from __future__ import annotations

import shlex
import sys
from collections.abc import Callable

from sim.core.game import get
from sim.core.play import new_game
from sim.core.runner import UsageError

HUMAN = "human"


def parse_answers(text: str | None) -> list[int]:
    """--answers "3,0,12": earlier answers of the human seats, played first."""
    if not text:
        return []
    try:
        return [int(a) for a in text.split(",")]
    except ValueError:
        raise UsageError(f"--answers must be whole numbers separated by commas (got {text!r})") from None


def format_observation(obs: dict) -> str:
    lines = []
    for key, value in obs.items():
        if isinstance(value, list) and value and isinstance(value[0], dict):
            lines.append(f"  {key}:")
            lines += [f"    {i}: {item}" for i, item in enumerate(value)]
        else:
            lines.append(f"  {key}: {value}")
    return "\n".join(lines)


def start(game_name: str, seats: list[str], players: int | None, rules, seed: int, game_index: int,
          answers: list[int], **options):
    """(the game at the first decision of a `human` seat after `answers`, the human seats): the
    game `play` plays and `advise` advises at. A human seat's bot (what `?` takes) is the
    default table's."""
    outside = [s for s, spec in enumerate(seats) if spec == HUMAN]
    if not outside:
        raise UsageError("give --seat human for at least one seat (`replay` shows a game between bots)")
    game = get(game_name)
    n = players or (len(seats) if len(seats) >= 2 else game.rules.default_players)
    bots = [game.bots.default_table[s] if s < len(seats) and seats[s] == HUMAN else
            (seats[s] if s < len(seats) else game.bots.default_table[s]) for s in range(n)]
    state = new_game(game_name, seats=bots, players=n, rules=rules, seed=seed, game_index=game_index, outside=outside,
                     **options)
    apply_answers(state, answers)
    return state, outside


def apply_answers(state, answers: list[int]) -> None:
    """Give the --answers to the state's decisions in turn (UsageError for one that does not fit)."""
    for k, a in enumerate(answers):
        if state.is_terminal():
            raise UsageError(f"--answers: the game is over after {k} answers, {len(answers)} were given")
        if a not in state.legal_actions():
            raise UsageError(f"--answers: answer {k + 1} ({a}) is not legal there; legal: {state.legal_actions()}")
        state.apply(a)


def play(game_name: str, seats: list[str], players: int | None, rules, seed: int, game_index: int,
         answers: list[int], command: list[str], read: Callable[[str], str] = input,
         write: Callable[[str], None] = print) -> list[float]:
    """Play one game with the `human` seats answered through read/write; returns the seats'
    shares of the win. `command` is the command line without --answers (for the replay line)."""
    state, outside = start(game_name, seats, players, rules, seed, game_index, answers)
    try:
        return _play_on(state, outside, command, read, write)
    except KeyboardInterrupt:
        if state.answers:
            write("\nGo on later with:\n  " + _command_line(command, state.answers))
        raise


def _command_line(command: list[str], answers) -> str:
    return " ".join(shlex.quote(w) for w in command + ["--answers", ",".join(map(str, answers))])


def _play_on(state, outside: list[int], command: list[str], read, write) -> list[float]:
    shown = 0
    while not state.is_terminal():
        seat = state.current_player
        for text in state.seen_events(seat, shown):
            write(f"  {text}")
        shown = state.n_events
        legal = state.legal_actions()
        write(f"\nSeat {seat} (you), decide: {state.decision}: {state.question}")
        if len({state.action_name(a) for a in legal}) == 1:
            write(f"  only one choice: {state.action_name(legal[0])}")
            state.apply(legal[0])
            continue
        write("You see:\n" + format_observation(state.observation(seat)))
        bot = state.bot_action()
        # Two copies of a card are two actions with the same effect: one line for both.
        by_name = {}
        for a in legal:
            by_name.setdefault(state.action_name(a), a)
        if bot is not None:  # the bot's own card stands for its name, so that ? is its exact play
            by_name[state.action_name(bot)] = bot
        shown_actions = list(by_name.values())
        for i, a in enumerate(shown_actions, 1):
            write(f"  {i:>3}. {state.action_name(a)}" + ("   (your bot's choice)" if a == bot else ""))
        pick = ask(read, write, len(shown_actions), None if bot is None else shown_actions.index(bot))
        state.apply(shown_actions[pick])
    for text in state.seen_events(outside[0], shown):
        write(f"  {text}")
    returns = state.returns()
    winners = [s for s, r in enumerate(returns) if r > 0]
    write("\nThe game is over: " + (f"seat {winners[0]} wins" if len(winners) == 1 else
                                     f"seats {', '.join(map(str, winners))} share the win" if winners else "nobody wins")
          + (" (you)" if set(winners) & set(outside) else "") + ".")
    write("Play it again with:\n  " + _command_line(command, state.answers))
    return returns


def ask(read: Callable[[str], str], write: Callable[[str], None], n: int, bot: int | None) -> int:
    """The index of the chosen action: a number 1 .. n, or `?` for the bot's choice; anything
    else asks again. The end of the input ends the game as Ctrl-C does."""
    while True:
        try:
            text = read(f"Your choice (1-{n}{', ? for your bot' if bot is not None else ''}): ").strip()
        except EOFError:
            raise KeyboardInterrupt from None
        if text == "?" and bot is not None:
            return bot
        if text.isdigit() and 1 <= int(text) <= n:
            return int(text) - 1
        write(f"  please type a number from 1 to {n}")


def stdin_reader(prompt: str) -> str:
    """input(), with the prompt on stdout even when stdin is not a terminal."""
    sys.stdout.write(prompt)
    sys.stdout.flush()
    line = sys.stdin.readline()
    if not line:
        raise EOFError
    return line


def advice_text(state, table, precision: float, seed: int) -> str:
    """`monosim <game> advise`'s report: the decision, then each action's chance to win and its
    difference to the best (search.advise's table)."""
    seat = state.current_player
    n = int(table["rollouts"].iloc[0])
    lines = [f"Seat {seat} decides {state.decision}: {state.question}",
             f"{n:,} playouts an action (seed {seed}): what seat {seat} cannot see dealt afresh each time, the same "
             f"deals for every action; every seat then plays on by its bot. Target: each difference to the best "
             f"within ±{precision:g} points (95%).", "",
             "| action | chance to win | vs the best |", "|---|---:|---:|"]
    for i, r in enumerate(table.itertuples()):
        versus = "best" if i == 0 else f"{r.vs_best:+.1f} ± {r.vs_best_pm:.1f}"
        lines.append(f"| {r.name}{' (your bot)' if r.bot else ''} | {r.win:.1f}% ± {r.win_pm:.1f} | {versus} |")
    return "\n".join(lines) + "\n"
