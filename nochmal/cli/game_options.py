"""The options that choose one game for ``nochmal play`` and ``nochmal simulate`` (``--mode``,
``--players``, ``--mission``, ``--sheets``, ``--tableau``) and their check against the mode,
read from the registry of modes (:mod:`nochmal.data.modes`)."""

from __future__ import annotations

import argparse

from nochmal.cli import args as at
from nochmal.cli.args import UsageError
from nochmal.data.modes import MODES, mode, players_help
from nochmal.engine.errors import NochmalError
from nochmal.store.games import DEFAULT_GAME, GAMES, game_kind


#: a seat played by a person at the terminal (``play --seats human,greedy``)
HUMAN = "human"


def add_game_options(sp: argparse.ArgumentParser, mode_default: str, *, games: bool = False) -> None:
    """The options that choose a game; with ``games`` also ``--game`` (any game of the registry,
    :mod:`nochmal.store.games`; ``--mode`` and the co-op options are *Noch mal!*'s)."""
    if games:
        sp.add_argument("--game", choices=list(GAMES), default=DEFAULT_GAME,
                        help=f"which game (default {DEFAULT_GAME})")
    sp.add_argument("--mode", choices=list(MODES), default=None, help=f"Noch mal!'s variant (default {mode_default})")
    sp.add_argument("--players", type=at.int_in("--players", 1), default=None,
                    help=f"number of players ({players_help()}" + (
                        "".join(f"; {g.name} {g.players_help()}" for g in GAMES.values() if not g.modes)
                        if games else "") + ")")
    sp.add_argument("--mission", type=at.int_in("--mission", 1, 5), default=None, metavar="1-5",
                    help="co-op mission (default 1)")
    sp.add_argument("--sheets", type=at.id_list("--sheets"), default=None,
                    help="comma-separated sheet ids, one per seat")
    sp.add_argument("--tableau", type=at.existing_file("--tableau"), default=None, help="co-op tableau file (TOML)")
    sp.set_defaults(mode_default=mode_default)


def make_game(args):
    if game_kind(getattr(args, "game", DEFAULT_GAME)).modes:
        from nochmal.analytics.simulate import make_game

        return make_game(args.mode, args.players, args.mission, args.sheets, args.tableau)
    return game_kind(args.game).new_game(args.players, sheets=args.sheets)


def _check_other_game(args) -> None:
    """A game without modes (twenty one): no --mode, --mission or --tableau; its own seats and sheets."""
    kind = game_kind(args.game)
    for flag, value in (("--mode", args.mode), ("--mission", args.mission), ("--tableau", args.tableau)):
        if value is not None:
            raise UsageError(f"{flag} is only for --game {DEFAULT_GAME}, not --game {args.game}")
    if args.players is not None and not kind.min_seats <= args.players <= kind.max_seats:
        raise UsageError(f"--players must be {kind.min_seats}-{kind.max_seats} for --game {args.game}, "
                         f"got {args.players}")
    if args.sheets is not None and args.players is not None and len(args.sheets) != args.players:
        raise UsageError(f"--sheets names {len(args.sheets)} sheet(s) for {args.players} player(s): one per seat")
    try:
        kind.get_policy(args.policy)
    except NochmalError as err:
        raise UsageError(f"--policy: {err}") from None
    try:
        make_game(args)
    except NochmalError as err:
        raise UsageError(f"--sheets: {err}" if args.sheets else str(err)) from None


def _argument(parse, text: str):
    """An argparse type's check, after parsing: its message as a usage error."""
    try:
        return parse(text)
    except argparse.ArgumentTypeError as err:
        raise UsageError(str(err)) from None


def check_game_args(args) -> None:
    """--players per mode, --sheets per player, --mission/--tableau only where the mode has a
    mission; then build the game once (a bad tableau file or a sheet that does not fit the
    mission is refused). A game without modes checks its own (:func:`_check_other_game`)."""
    if not game_kind(getattr(args, "game", DEFAULT_GAME)).modes:
        _check_other_game(args)
        return
    if args.mode is None:
        args.mode = args.mode_default
    if args.sheets is not None:
        _argument(at.sheet_list, ",".join(args.sheets))  # Noch mal!'s sheet ids
    _argument(at.policy, args.policy)
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
