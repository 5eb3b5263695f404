"""``nochmal play``: play one whole game with a policy and print its outcome (``--save``: keep it)."""

from __future__ import annotations

import argparse
import json
import random

from nochmal.cli import args as at
from nochmal.cli.args import UsageError
from nochmal.cli.game_options import add_game_options, check_game_args, make_game
from nochmal.cli.terminal import say


def saved_events(game, history: list, by: str) -> list[dict]:
    """The events of a game played in memory, as :meth:`GameSession.record` would have written
    them one by one: each with the seat the live game had for it (a decision of the team and
    a roll: none)."""
    from nochmal.engine.dice import Roll
    from nochmal.store.events import event_for

    state = game.new_state()
    events = []
    for seq, action in enumerate(history):
        seat = None
        if not isinstance(action, Roll):
            cp = state.current_player()
            seat = cp if cp >= 0 else None
        events.append(event_for(action, seq, seat, by=by, rules_version=game.rules_version).model_dump(mode="json"))
        state.apply(action)
    return events


def _cmd_play(args) -> int:
    from nochmal.engine.game import play
    from nochmal.bots.registry import get_policy

    game = make_game(args)
    rng = random.Random(args.seed)
    state = play(game.new_state(), get_policy(args.policy), rng)
    out = state.outcome().to_json()
    out["seed"] = args.seed
    if args.save:
        from nochmal.store.session import GameSession
        from nochmal.store.db import GameStore

        # the game and all its events in one transaction: a killed run leaves all or nothing
        events = saved_events(game, state.history, args.policy)
        with GameStore(args.db) as store:
            ses = GameSession.create(store, game, title=f"{game.mode} game, seed {args.seed}", kind="digital",
                                     seed=args.seed, bots=[args.policy] * game.n_seats, events=events)
        out["game_id"] = ses.game_id
    out["policy"] = args.policy
    if args.json:
        print(json.dumps(out))
    else:
        say(f"{out['mode']} game, seed {args.seed}: {out['reason']} after {out['rolls']} rolls")
        for s in out.get("scores", []):
            say(f"  seat {s['seat'] + 1}: total {s['total']:>4}  (colours {s['colours']}, columns {s['columns']}, "
                f"\"!\" {s['jokers']}, stars {s['stars']})")
        if out.get("winners") is not None:
            say("  winner(s): " + ", ".join(f"seat {w + 1}" for w in out["winners"]))
        if out.get("game_id"):
            say(f"  saved as {out['game_id']}")
    return 0


def _check_play(args) -> None:
    from nochmal.bots.registry import POLICY_NAMES

    check_game_args(args)
    if args.save:
        from nochmal.store.meta import SEED_MAX

        if args.policy not in POLICY_NAMES:
            raise UsageError(f"--save keeps games of the bots a seat can be played by ({', '.join(POLICY_NAMES)}); "
                             f"--policy {args.policy} reads the dice before they are rolled, so its games are not kept")
        if not 0 <= args.seed <= SEED_MAX:
            raise UsageError(f"--seed must be 0-{SEED_MAX} for --save (the seed a saved game keeps), got {args.seed}")
    if args.db is not None and not args.save:
        raise UsageError("--db is only used with --save (add --save to keep the game)")


def add_cli(subparsers) -> argparse.ArgumentParser:
    """Add ``nochmal play`` to the command line."""
    pl = subparsers.add_parser("play", help="play one whole game with a policy and print its outcome")
    add_game_options(pl, "base")
    pl.add_argument("--policy", type=at.policy, default="random",
                    help="random, greedy or planner; or bound (the perfect-dice bound, co-op and solo)")
    pl.add_argument("--seed", type=at.int_in("--seed", -(2**63)), default=0)
    pl.add_argument("--json", action="store_true", help="print the outcome as one JSON line")
    pl.add_argument("--save", action="store_true", help="also save the game in the store (all or nothing)")
    pl.add_argument("--db", type=at.output_file("--db", regular=False), default=None,
                    help="the SQLite store for --save")
    pl.set_defaults(func=_cmd_play, check=_check_play)
    return pl
