"""``nochmal games``: the saved games: list, show, export, import, delete."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from nochmal.cli import args as at
from nochmal.cli.args import UsageError
from nochmal.cli.terminal import say


def _store(args):
    from nochmal.store.db import GameStore

    return GameStore(args.db)


def _check_games(args) -> None:
    if args.action == "import":
        if not args.target:
            raise UsageError("games import needs a FILE")
        try:
            at.existing_file("FILE")(args.target)
        except argparse.ArgumentTypeError as err:
            raise UsageError(str(err)) from None
    elif args.action == "list":
        if args.target:
            raise UsageError(f"games list takes no GAME_ID or FILE, got {args.target!r}")
    elif not args.target:
        raise UsageError(f"games {args.action} needs a GAME_ID")
    if args.out is not None and args.action != "export":
        raise UsageError(f"--out is only for games export, not games {args.action}")
    from nochmal.store.pgdb import is_server_url

    if (args.db is not None and args.action != "import" and not is_server_url(args.db)
            and not Path(args.db).exists()):
        raise UsageError(f"--db {args.db}: no game store there (nothing to {args.action})")


def _which(meta: dict) -> str | None:
    """The game a stored game is (None for a meta naming no game this program knows)."""
    from nochmal.engine.errors import NochmalError
    from nochmal.store.games import kind_of_meta

    try:
        return kind_of_meta(meta).name
    except NochmalError:
        return None


def _cmd_games(args) -> int:
    from nochmal.store.transfer import read_export_file

    # an import reads its file first: a bad one is refused before the store is even opened
    data = read_export_file(args.target) if args.action == "import" else None
    with _store(args) as store:
        return _games(args, store, data)


def _games(args, store, data) -> int:
    from nochmal.store.session import GameSession
    from nochmal.store.transfer import import_game

    if args.action == "import":
        ses = import_game(store, data, source=args.target)
        if args.json:  # for a script: the new game, its host code and the app path that opens it as host
            print(json.dumps({"id": ses.game_id, "host_code": ses.meta["host_code"],
                              "host_url_path": ses.host_url_path()}))
        else:
            say(ses.game_id)
        return 0
    if args.action == "list":
        games = store.list_games()
        config = (lambda g: g.meta["config"] if isinstance(g.meta.get("config"), dict) else {})
        if args.json:
            print(json.dumps([{"game_id": g.game_id, "title": g.title, "updated_at": g.updated_at,
                               "events": g.n_events, "game": _which(g.meta), "mode": config(g).get("mode")}
                              for g in games]))
            return 0
        if not games:
            say(f"no saved games in {store.path}")
        for g in games:
            cfg = config(g)
            sheets = cfg.get("sheets", [])
            say(f"{g.game_id}  {g.updated_at}  {str(_which(g.meta) or '?'):9}  {str(cfg.get('mode', '-')):5}  "
                f"{len(sheets) if isinstance(sheets, list) else '?'} seats  {g.n_events:4} events  {g.title}")
        return 0
    if args.action == "delete":
        store.delete_game(args.target)
        say(f"deleted {args.target}")
        return 0
    ses = GameSession.load(store, args.target)
    if args.action == "export":
        text = json.dumps(ses.export(), indent=2)
        if args.out:  # a regular file, atomically: never through a link, onto a device or into a FIFO
            from nochmal.data.outfile import write_file

            write_file(args.out, text + "\n", name="--out")
        else:
            print(text)
        return 0
    # show
    st = ses.state
    if args.json:
        print(json.dumps({"game_id": ses.game_id, "title": ses.title, "meta": ses.meta, "state": st.to_json(),
                          "outcome": st.outcome().to_json() if st.is_terminal() else None}))
        return 0
    which = ses.kind.name + "".join(f" {m}" for m in [getattr(st.game, "mode", None)] if m)
    say(f"{ses.game_id}: {ses.title} ({which}, {st.game.n_seats} seats), {ses.n_events} events")
    for ev in ses.events:
        say(f"  {ev.seq:4}  {ses.kind.events.describe(ev, ses.seat_names)}")
    say("  " + (st.outcome().reason if st.is_terminal() else f"now: {st.summary()}"))
    return 0


def add_cli(subparsers) -> argparse.ArgumentParser:
    """Add ``nochmal games`` to the command line."""
    ga = subparsers.add_parser("games", help="saved games: list, show, export, import, delete")
    ga.add_argument("action", choices=["list", "show", "export", "import", "delete"])
    ga.add_argument("target", nargs="?", help="GAME_ID (show/export/delete) or FILE (import)")
    ga.add_argument("--db", type=at.store_location("--db"), default=None,
                    help="the game store: an SQLite file or a postgresql:// URL (default: $NOCHMAL_DB or the user "
                         "data folder)")
    ga.add_argument("--out", type=at.output_file("--out"), default=None,
                    help="export: write to this file instead of stdout")
    ga.add_argument("--json", action="store_true")
    ga.set_defaults(func=_cmd_games, check=_check_games)
    return ga
