"""The options that choose one game for ``nochmal play`` and ``nochmal simulate`` (``--mode``,
``--players``, ``--mission``, ``--sheets``, ``--tableau``) and their check against the mode,
read from the registry of modes (:mod:`nochmal.data.modes`)."""

from __future__ import annotations

import argparse

from nochmal.cli import args as at
from nochmal.cli.args import UsageError
from nochmal.data.modes import MODES, mode, players_help


def add_game_options(sp: argparse.ArgumentParser, mode_default: str) -> None:
    sp.add_argument("--mode", choices=list(MODES), default=mode_default)
    sp.add_argument("--players", type=at.int_in("--players", 1), default=None,
                    help=f"number of players ({players_help()})")
    sp.add_argument("--mission", type=at.int_in("--mission", 1, 5), default=None, metavar="1-5",
                    help="co-op mission (default 1)")
    sp.add_argument("--sheets", type=at.sheet_list, default=None, help="comma-separated sheet ids, one per seat")
    sp.add_argument("--tableau", type=at.existing_file("--tableau"), default=None, help="co-op tableau file (TOML)")


def make_game(args):
    from nochmal.analytics.simulate import make_game

    return make_game(args.mode, args.players, args.mission, args.sheets, args.tableau)


def check_game_args(args) -> None:
    """--players per mode, --sheets per player, --mission/--tableau only where the mode has a
    mission; then build the game once (a bad tableau file or a sheet that does not fit the
    mission is refused)."""
    chosen = mode(args.mode)
    lo, hi = chosen.min_seats, chosen.max_seats
    if args.players is not None and not lo <= args.players <= hi:
        if chosen.players_note:
            raise UsageError(f"--players must be {lo} for --mode {args.mode} ({chosen.players_note}), "
                             f"got {args.players}")
        raise UsageError(f"--players must be {lo}-{hi} for --mode {args.mode}, got {args.players}")
    if not chosen.rules.has_mission:
        with_missions = " or ".join(f"--mode {m.name}" for m in MODES.values() if m.rules.has_mission)
        for flag, value in (("--mission", args.mission), ("--tableau", args.tableau)):
            if value is not None:
                raise UsageError(f"{flag} is only for {with_missions}, not --mode {args.mode}")
    if args.sheets is not None:
        n = args.players if args.players is not None else chosen.default_players
        if len(args.sheets) != n:
            raise UsageError(f"--sheets names {len(args.sheets)} sheet(s) for {n} player(s) (--mode {args.mode}"
                             f"{'' if args.players is not None else ', the default player count'}): one per seat")
    if args.mission is None:
        args.mission = 1  # the default (part of every simulated game's seed, as before)
    game = make_game(args)
    from nochmal.bots.registry import LIMIT_POLICIES

    if args.policy in LIMIT_POLICIES:
        from nochmal.bots.bound import bound_plays  # numpy and the compiled bots: only for the bound

        if not bound_plays(game):
            raise UsageError(f"--policy {args.policy} (the perfect-dice bound) is for --mode coop and --mode solo, "
                             f"where a team or one player plays against the dice; in --mode {args.mode} the players "
                             f"play against each other")
