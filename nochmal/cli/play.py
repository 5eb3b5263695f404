"""``nochmal play``: play one whole game and print its outcome (``--save``: keep it). Any game of
the registry (``--game``, :mod:`nochmal.store.games`); every seat played by ``--policy``, or each
seat by its own player (``--seats human,greedy``: a person at this terminal chooses from the
numbered legal actions, the second attempt of twenty one included). The dice are digital, drawn
from ``--seed``."""

from __future__ import annotations

import argparse
import json
import random
import sys

from nochmal.cli import args as at
from nochmal.cli.args import UsageError
from nochmal.cli.game_options import HUMAN, add_game_options, check_game_args, make_game
from nochmal.cli.terminal import say
from nochmal.store.games import game_kind, kind_of_game


def saved_events(game, history: list, by, codec=None) -> list[dict]:
    """The events of a game played in memory, as :meth:`GameSession.record` would have written
    them one by one: each with the seat the live game had for it (a decision of the team and
    a chance action: none). ``by`` is who entered each: one name, or ``by(seat)``."""
    codec = codec or kind_of_game(game).events
    who = by if callable(by) else (lambda seat: by)
    state = game.new_state()
    events = []
    for seq, action in enumerate(history):
        seat = None
        if not state.is_chance_node():
            cp = state.current_player()
            seat = cp if cp >= 0 else None
        events.append(codec.event_for(action, seq, seat, by=who(seat), rules_version=game.rules_version)
                      .model_dump(mode="json"))
        state.apply(action)
    return events


#: wrong answers a person may give to one question before ``play`` gives up
MAX_WRONG_ANSWERS = 20


def human_policy(kind, names: list[str], stdin=None):
    """``policy(state, rng)`` for a person at the terminal: the position, the numbered legal
    actions, and a number read from ``stdin`` (asked again, naming what was wrong, if it is not
    one of them). The only legal action is taken without asking."""
    def ask(state, rng=None):
        stream = stdin or sys.stdin
        cp = state.current_player()
        seat = cp if cp >= 0 else 0  # a decision of the team: the first seat's player answers
        actions = kind.legal_actions(state)
        say(f"{names[seat]} to choose. {kind.position_text(state, seat)}")
        if len(actions) == 1:
            say(f"  the only legal action: {kind.describe_action(actions[0])}")
            return actions[0]
        for i, action in enumerate(actions, 1):
            say(f"  {i:3}: {kind.describe_action(action)}")
        for _ in range(MAX_WRONG_ANSWERS):
            say(f"{names[seat]}, your choice (1-{len(actions)}): ")
            line = stream.readline()
            if not line:
                raise UsageError(f"the input ended while {names[seat]} was to choose (one number per line)")
            text = line.strip()
            if text.isdigit() and 1 <= int(text) <= len(actions):
                return actions[int(text) - 1]
            say(f"  {text[:20]!r} is not one of 1-{len(actions)}: type the number of an action")
        raise UsageError(f"{MAX_WRONG_ANSWERS} answers in a row were not one of 1-{len(actions)}")

    return ask


def _players(args, kind, n: int) -> list[str]:
    """Who plays each seat: ``--seats`` (one per seat), else ``--policy`` everywhere."""
    return list(args.seats) if args.seats else [args.policy] * n


def _cmd_play(args) -> int:
    kind = game_kind(args.game)
    game = make_game(args)
    rng = random.Random(args.seed)
    players = _players(args, kind, game.n_seats)
    if not args.seats:
        state = kind.play(game.new_state(), kind.get_policy(args.policy), rng)
    else:
        names = [f"seat {i + 1} ({p})" for i, p in enumerate(players)]
        ask = human_policy(kind, names)
        policies = [ask if p == HUMAN else kind.get_policy(p) for p in players]
        state = game.new_state()
        while not state.is_terminal():
            if state.is_chance_node():
                action = kind.sample_chance(state, rng)
                if HUMAN in players:
                    say(f"dice: {kind.describe_action(action)}")
            else:
                cp = state.current_player()
                action = policies[cp if cp >= 0 else 0](state, rng)
            state.apply(action)
    out = state.outcome().to_json()
    out["seed"] = args.seed
    if args.save:
        from nochmal.store.db import GameStore
        from nochmal.store.session import GameSession

        # the game and all its events in one transaction: a killed run leaves all or nothing
        events = saved_events(game, state.history,
                              lambda seat: players[seat] if seat is not None else args.policy, kind.events)
        with GameStore(args.db) as store:
            ses = GameSession.create(store, game, title=f"{kind.default_title(game)}, seed {args.seed}",
                                     kind="digital", seed=args.seed,
                                     bots=[None if p == HUMAN else p for p in players], events=events)
        out["game_id"] = ses.game_id
    out["policy"] = args.policy
    if args.seats:
        out["players"] = players
    if args.json:
        print(json.dumps(out))
    else:
        for line in kind.outcome_lines(out, args.seed):
            say(line)
        if out.get("game_id"):
            say(f"  saved as {out['game_id']}")
    return 0


def _check_play(args) -> None:
    kind = game_kind(args.game)
    if args.seats and args.players is None:
        args.players = len(args.seats)  # one player per seat named
    check_game_args(args)
    if args.seats:
        game = make_game(args)
        if len(args.seats) != game.n_seats:
            raise UsageError(f"--seats names {len(args.seats)} player(s) for the {game.n_seats} seats of this game: "
                             f"one per seat ({HUMAN} or a bot: {', '.join(kind.policy_names)})")
        for p in args.seats:
            if p != HUMAN and p not in kind.policy_names:
                raise UsageError(f"--seats: {p!r} is not {HUMAN} or a bot a seat can be played by "
                                 f"({', '.join(kind.policy_names)})")
    if args.save:
        from nochmal.store.meta import SEED_MAX

        if not args.seats and args.policy not in kind.policy_names:
            raise UsageError(f"--save keeps games of the bots a seat can be played by ({', '.join(kind.policy_names)}); "
                             f"--policy {args.policy} reads the dice before they are rolled, so its games are not kept")
        if not 0 <= args.seed <= SEED_MAX:
            raise UsageError(f"--seed must be 0-{SEED_MAX} for --save (the seed a saved game keeps), got {args.seed}")
    if args.db is not None and not args.save:
        raise UsageError("--db is only used with --save (add --save to keep the game)")


def _seat_list(text: str) -> list[str]:
    names = [p.strip() for p in text.split(",") if p.strip()]
    if not names:
        raise argparse.ArgumentTypeError(f"--seats must name one player per seat ({HUMAN} or a bot), comma-separated")
    return names


def add_cli(subparsers) -> argparse.ArgumentParser:
    """Add ``nochmal play`` to the command line."""
    pl = subparsers.add_parser("play", help="play one whole game (bots, or people at this terminal) and print "
                                            "its outcome")
    add_game_options(pl, "base", games=True)
    pl.add_argument("--policy", default="random",
                    help="random, greedy or planner; or bound (the perfect-dice bound, co-op and solo); "
                         "twenty one: random, greedy or optimum")
    pl.add_argument("--seats", type=_seat_list, default=None,
                    help=f"who plays each seat, comma-separated: {HUMAN} (asked at this terminal) or a bot, "
                         f"e.g. {HUMAN},greedy")
    pl.add_argument("--seed", type=at.int_in("--seed", -(2**63)), default=0)
    pl.add_argument("--json", action="store_true", help="print the outcome as one JSON line")
    pl.add_argument("--save", action="store_true", help="also save the game in the store (all or nothing)")
    pl.add_argument("--db", type=at.store_location("--db"), default=None,
                    help="the game store for --save: an SQLite file or a postgresql:// URL")
    pl.set_defaults(func=_cmd_play, check=_check_play)
    return pl
