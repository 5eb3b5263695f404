"""Command line: ``nochmal legal-moves | play | bench | ...`` (``nochmal --help``).

Every argument is checked before any work starts: by its argparse ``type`` (numbers and their
ranges, files that must exist, folders that must be writable, a Dask scheduler that must
answer) and then, for what depends on several arguments (players per mode, sheets per
player, a tableau's player count), by the command's ``check``. A wrong argument gives exit
code 2 and one line ``nochmal: error: ...`` naming it; nothing is written. Text from files,
the store or the user is printed through :func:`nochmal.cli.terminal.printable`."""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
from pathlib import Path

from nochmal.cli import args as at
from nochmal.engine.errors import InvalidInputError, NochmalError
from nochmal.cli.terminal import printable

#: Most games one ``simulate`` run (or one sweep cell) plays: a typo like ``--games 10**9``
#: would otherwise fill the memory with the list of jobs before the first game.
MAX_GAMES = 1_000_000
#: Most worker processes ``--workers`` / ``--dask-local`` may start.
MAX_WORKERS = 256
#: Players per mode (``--players``).
PLAYERS = {"base": (2, 6), "solo": (1, 1), "coop": (1, 6)}


class UsageError(NochmalError):
    """A wrong combination of arguments, found after parsing and before any work."""


def _say(text: str, *, file=None) -> None:
    """Print one line of text that may hold anything a file, the store or a user supplied."""
    print(printable(text), file=file or sys.stdout)


# --------------------------------------------------------------------------- legal-moves
def _cmd_legal_moves(args) -> int:
    from nochmal.engine.queries import answer_line, read_lines

    out = sys.stdout
    for n, raw in enumerate(read_lines(sys.stdin.buffer), start=1):
        answer = answer_line(raw)
        if "error" in answer:
            answer = {"error": f"line {n}: {answer['error']}"}
        out.write(json.dumps(answer) + "\n")  # ensure_ascii: control characters come out escaped
        out.flush()
    return 0


# --------------------------------------------------------------------------- play / simulate
def _make_game(args):
    from nochmal.analytics.simulate import make_game

    return make_game(args.mode, args.players, args.mission, args.sheets, args.tableau)


def _check_game_args(args) -> None:
    """--players per mode, --sheets per player, --mission/--tableau only in co-op; then build
    the game once (a bad tableau file or a sheet that does not fit the mission is refused)."""
    lo, hi = PLAYERS[args.mode]
    if args.players is not None and not lo <= args.players <= hi:
        if args.mode == "solo":
            raise UsageError(f"--players must be 1 for --mode solo (solo mode has exactly 1 player, R-SOLO-DICE), "
                             f"got {args.players}")
        raise UsageError(f"--players must be {lo}-{hi} for --mode {args.mode}, got {args.players}")
    if args.mode != "coop":
        for flag, value in (("--mission", args.mission), ("--tableau", args.tableau)):
            if value is not None:
                raise UsageError(f"{flag} is only for --mode coop, not --mode {args.mode}")
    if args.sheets is not None:
        default = {"base": 2, "solo": 1, "coop": 3}[args.mode]
        n = args.players if args.players is not None else default
        if len(args.sheets) != n:
            raise UsageError(f"--sheets names {len(args.sheets)} sheet(s) for {n} player(s) (--mode {args.mode}"
                             f"{'' if args.players is not None else ', the default player count'}): one per seat")
    if args.mission is None:
        args.mission = 1  # the default (part of every simulated game's seed, as before)
    game = _make_game(args)
    from nochmal.bots.policies import LIMIT_POLICIES

    if args.policy in LIMIT_POLICIES:
        from nochmal.bots.bound import bound_plays  # numpy and the compiled bots: only for the bound

        if not bound_plays(game):
            raise UsageError(f"--policy {args.policy} (the perfect-dice bound) is for --mode coop and --mode solo, "
                             f"where a team or one player plays against the dice; in --mode {args.mode} the players "
                             f"play against each other")


def _saved_events(game, history: list, by: str) -> list[dict]:
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
    from nochmal.bots.policies import get_policy

    game = _make_game(args)
    rng = random.Random(args.seed)
    state = play(game.new_state(), get_policy(args.policy), rng)
    out = state.outcome().to_json()
    out["seed"] = args.seed
    if args.save:
        from nochmal.store.session import GameSession
        from nochmal.store.db import GameStore

        # the game and all its events in one transaction: a killed run leaves all or nothing
        events = _saved_events(game, state.history, args.policy)
        with GameStore(args.db) as store:
            ses = GameSession.create(store, game, title=f"{game.mode} game, seed {args.seed}", kind="digital",
                                     seed=args.seed, bots=[args.policy] * game.n_seats, events=events)
        out["game_id"] = ses.game_id
    out["policy"] = args.policy
    if args.json:
        print(json.dumps(out))
    else:
        _say(f"{out['mode']} game, seed {args.seed}: {out['reason']} after {out['rolls']} rolls")
        for s in out.get("scores", []):
            _say(f"  seat {s['seat'] + 1}: total {s['total']:>4}  (colours {s['colours']}, columns {s['columns']}, "
                 f"\"!\" {s['jokers']}, stars {s['stars']})")
        if out.get("winners") is not None:
            _say("  winner(s): " + ", ".join(f"seat {w + 1}" for w in out["winners"]))
        if out.get("game_id"):
            _say(f"  saved as {out['game_id']}")
    return 0


def _check_play(args) -> None:
    from nochmal.bots.policies import POLICY_NAMES

    _check_game_args(args)
    if args.save:
        from nochmal.store.session import SEED_MAX

        if args.policy not in POLICY_NAMES:
            raise UsageError(f"--save keeps games of the bots a seat can be played by ({', '.join(POLICY_NAMES)}); "
                             f"--policy {args.policy} reads the dice before they are rolled, so its games are not kept")
        if not 0 <= args.seed <= SEED_MAX:
            raise UsageError(f"--seed must be 0-{SEED_MAX} for --save (the seed a saved game keeps), got {args.seed}")
    if args.db is not None and not args.save:
        raise UsageError("--db is only used with --save (add --save to keep the game)")


#: games a worker plays in one go (the compiled co-op game plays a batch in one call); the planner one by one
SIMULATE_BATCH = 50


def _play_batch(job: tuple) -> list[dict]:
    from nochmal.analytics.simulate import play_games

    return play_games(*job)


def _cmd_simulate(args) -> int:
    from nochmal.analytics.simulate import game_seed, progress, summarize

    seeds = [game_seed(args.seed, args.mode, args.players, args.mission, args.policy, i) for i in range(args.games)]
    size = 1 if args.policy == "planner" else SIMULATE_BATCH
    jobs = [(args.mode, args.policy, seeds[i:i + size], args.players, args.mission, args.sheets, args.tableau)
            for i in range(0, len(seeds), size)]
    workers = min(args.workers or os.cpu_count() or 1, len(jobs))
    bar = f"{args.mode}/{args.policy}"
    rows: list[dict] = []
    if workers == 1:
        batches = map(_play_batch, jobs)
    else:  # the same rows in the same order whatever the number of processes (a game's seed is its own)
        from concurrent.futures import ProcessPoolExecutor

        pool = ProcessPoolExecutor(max_workers=workers)
        batches = pool.map(_play_batch, jobs)
    try:
        for row in progress((r for batch in batches for r in batch), args.games, bar, not args.quiet):
            rows.append(row)
    finally:
        if workers > 1:
            pool.shutdown()
    out = summarize(rows)
    out.update({"mode": args.mode, "policy": args.policy, "seed": args.seed})
    if args.mode == "coop":
        out.update({"players": rows[0]["players"], "mission": rows[0]["mission"]})
    _print_table(out, args.json, width=12)
    return 0


# --------------------------------------------------------------------------- sweep / calibrate
def _check_sweep(args) -> None:
    if args.parts is None:  # the default OUT.parts folder
        parts = Path(args.out).with_name(Path(args.out).name + ".parts")
        if parts.exists() and not parts.is_dir():
            raise UsageError(f"--out {args.out}: {parts} (its parts folder) is a file; remove it or give --parts")
    if args.tableau is not None:
        from nochmal.analytics.sweep import _tableau_players

        n = _tableau_players(args.tableau)
        if n not in args.players:
            raise UsageError(f"--tableau {args.tableau} is a tableau for {n} players, but --players lists only "
                             f"{','.join(map(str, args.players))}: the sweep would play no game")


def _cmd_sweep(args) -> int:
    from nochmal.analytics.sweep import SweepSpec, run_sweep, write_rows

    out = Path(args.out)
    before = []
    if args.add:  # checked before any game is played
        before = _rows_to_add_to(out, args.policy)
    spec = SweepSpec(missions=args.missions, players=args.players, policies=args.policy, games=args.games,
                     seed=args.seed, tableaus=[args.tableau] if args.tableau else [None], chunk=args.chunk,
                     cells=not args.no_cells)
    state = {"bar": None}

    def on_progress(done, total):
        if args.quiet:
            return
        if state["bar"] is None:
            from tqdm import tqdm

            state["bar"] = tqdm(total=total, initial=done, desc="sweep", unit="game", file=sys.stderr)
        else:
            state["bar"].update(done - state["bar"].n)

    parts = Path(args.parts) if args.parts else out.with_name(out.name + ".parts")
    rows = run_sweep(spec, parts, workers=args.workers, dask_local=args.dask_local, scheduler=args.scheduler,
                     on_progress=on_progress)
    if state["bar"] is not None:
        state["bar"].close()
    write_rows(before + rows, out)
    print(json.dumps({"games": len(rows), "out": str(out), "parts": str(parts), "rows_in_out": len(before) + len(rows)}))
    return 0


def _rows_to_add_to(out: Path, policies: list[str]) -> list[dict]:
    """The rows of the results file ``out`` that ``sweep --add`` keeps: refused (naming the
    file and why) if it is missing, not a sweep's results, or already holds one of ``policies``."""
    from nochmal.analytics.sweep import read_rows

    if not out.is_file():
        raise InvalidInputError(f"--add: {out} does not exist yet (run the first sweep without --add)")
    df = read_rows(out)
    if "policy" not in df.columns:
        raise InvalidInputError(f"--add: {out} is not the results of nochmal sweep (no column 'policy')")
    clash = sorted(set(policies) & set(df["policy"].astype(str)))
    if clash:
        raise InvalidInputError(f"--add: {out} already holds games of {', '.join(clash)}: "
                                "add other policies, or sweep without --add to replace the file")
    return df.to_dict(orient="records")


def _say_replay(mission: int, players: int, key: str, counts) -> None:
    print(f"calibrate: playing M{mission} with {players} player(s) again with {key} = "
          f"{counts.start}..{counts.stop - 1} (until the rate falls to the ladder's)", file=sys.stderr, flush=True)


def _cmd_calibrate(args) -> int:
    from nochmal.analytics.calibrate import calibration_report

    try:
        rep = calibration_report(args.results, ladder=args.ladder, on_replay=_say_replay)
    except KeyError as err:  # a table that is not a sweep's results
        raise NochmalError(f"{args.results}: not the results of nochmal sweep (no column {err})") from None
    if args.json:
        print(json.dumps(rep))
    else:
        for line in rep["text"].splitlines():
            _say(line)
    return 0


# --------------------------------------------------------------------------- solo tables
def _cmd_fit_solo_values(args) -> int:
    """Fit the solo planner's completion tables (:mod:`nochmal.bots.solo_values`) for each sheet."""
    from tqdm import tqdm

    from nochmal.analytics.simulate import make_game
    from nochmal.bots import solo_values as sv
    from nochmal.bots.compiled import solo_sim
    from nochmal.engine.sheet import shipped_sheet_ids

    ids = args.sheets or shipped_sheet_ids()
    out_dir = Path(args.out) if args.out else sv.VALUES_DIR
    for sheet_id in ids:
        game = make_game("solo", sheets=[sheet_id])
        bar = tqdm(total=args.rounds, desc=f"solo tables {sheet_id}", unit="round", file=sys.stderr,
                   disable=args.quiet, dynamic_ncols=True)
        vt, rep = sv.fit(solo_sim(game), games=args.games, rounds=args.rounds, seed=args.seed,
                         progress=lambda k, n, r: (bar.update(1), bar.set_postfix(held_out=r["held_out_mean"])))
        bar.close()
        path = out_dir / f"{sheet_id}.npz"
        sv.save(path, vt, rep)
        _say(f"{sheet_id}: the table policy averages {rep['held_out_mean']} on {rep['held_out']:,} other games "
             f"(round {rep['kept_round'] + 1} of {rep['rounds']}, {rep['seconds']} s) -> {path}")
    return 0


# --------------------------------------------------------------------------- games
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
    if args.db is not None and args.action != "import" and not Path(args.db).exists():
        raise UsageError(f"--db {args.db}: no game store there (nothing to {args.action})")


def _cmd_games(args) -> int:
    from nochmal.store.session import read_export_file

    # an import reads its file first: a bad one is refused before the store is even opened
    data = read_export_file(args.target) if args.action == "import" else None
    with _store(args) as store:
        return _games(args, store, data)


def _games(args, store, data) -> int:
    from nochmal.store.events import describe
    from nochmal.store.session import GameSession, import_game

    if args.action == "import":
        ses = import_game(store, data, source=args.target)
        if args.json:  # for a script: the new game, its host code and the app path that opens it as host
            print(json.dumps({"id": ses.game_id, "host_code": ses.meta["host_code"],
                              "host_url_path": ses.host_url_path()}))
        else:
            _say(ses.game_id)
        return 0
    if args.action == "list":
        games = store.list_games()
        config = (lambda g: g.meta["config"] if isinstance(g.meta.get("config"), dict) else {})
        if args.json:
            print(json.dumps([{"game_id": g.game_id, "title": g.title, "updated_at": g.updated_at,
                               "events": g.n_events, "mode": config(g).get("mode")} for g in games]))
            return 0
        if not games:
            _say(f"no saved games in {store.path}")
        for g in games:
            cfg = config(g)
            sheets = cfg.get("sheets", [])
            _say(f"{g.game_id}  {g.updated_at}  {str(cfg.get('mode', '?')):5}  "
                 f"{len(sheets) if isinstance(sheets, list) else '?'} seats  {g.n_events:4} events  {g.title}")
        return 0
    if args.action == "delete":
        store.delete_game(args.target)
        _say(f"deleted {args.target}")
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
    _say(f"{ses.game_id}: {ses.title} ({st.game.mode}, {st.game.n_seats} seats), {ses.n_events} events")
    for ev in ses.events:
        _say(f"  {ev.seq:4}  {describe(ev, ses.seat_names)}")
    _say("  " + (st.outcome().reason if st.is_terminal() else f"now: {st.summary()}"))
    return 0


def _cmd_bench(args) -> int:
    from nochmal.analytics.bench import run_bench

    res = run_bench(quick=args.quick)
    _print_table(res, args.json, width=28)
    return 0


def _print_table(values: dict, as_json: bool, width: int) -> None:
    """A flat result: one JSON line, or one ``name  value`` line per entry."""
    if as_json:
        print(json.dumps(values))
    else:
        for k, v in values.items():
            _say(f"{k:{width}} {v}")


class _Parser(argparse.ArgumentParser):
    """argparse, but a wrong argument gives one line (no usage block): nochmal: error: ..."""

    def error(self, message: str):  # noqa: D401
        head, sep, rest = message.partition(": ")
        if head.startswith("argument ") and sep and rest.startswith(tuple(head[len("argument "):].split("/"))):
            message = rest  # our messages name their option already
        self.exit(2, f"nochmal: error: {printable(message)} (see {self.prog} --help)\n")


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(prog="nochmal", description="Noch mal! rules engine, co-op mission leader and analytics")
    sub = p.add_subparsers(dest="command", required=True, metavar="COMMAND", parser_class=_Parser)

    lm = sub.add_parser("legal-moves", help="answer JSON Lines queries on stdin with the legal cell sets",
                        description="Answers every line of stdin with one JSON line: {\"moves\": [...]} or "
                                    "{\"error\": \"line N: ...\"}, and goes on.")
    lm.set_defaults(func=_cmd_legal_moves)

    def game_options(sp, mode_default: str, players_help: str) -> None:
        sp.add_argument("--mode", choices=["base", "solo", "coop"], default=mode_default)
        sp.add_argument("--players", type=at.int_in("--players", 1), default=None, help=players_help)
        sp.add_argument("--mission", type=at.int_in("--mission", 1, 5), default=None, metavar="1-5",
                        help="co-op mission (default 1)")
        sp.add_argument("--sheets", type=at.sheet_list, default=None, help="comma-separated sheet ids, one per seat")
        sp.add_argument("--tableau", type=at.existing_file("--tableau"), default=None, help="co-op tableau file (TOML)")

    pl = sub.add_parser("play", help="play one whole game with a policy and print its outcome")
    game_options(pl, "base", "number of players (base 2-6, coop 1-6)")
    pl.add_argument("--policy", type=at.policy, default="random",
                    help="random, greedy or planner; or bound (the perfect-dice bound, co-op and solo)")
    pl.add_argument("--seed", type=at.int_in("--seed", -(2**63)), default=0)
    pl.add_argument("--json", action="store_true", help="print the outcome as one JSON line")
    pl.add_argument("--save", action="store_true", help="also save the game in the store (all or nothing)")
    pl.add_argument("--db", type=at.output_file("--db", regular=False), default=None,
                    help="the SQLite store for --save")
    pl.set_defaults(func=_cmd_play, check=_check_play)

    si = sub.add_parser("simulate", help="play many seeded games with a policy and summarise them")
    game_options(si, "solo", "number of players (base 2-6, coop 1-6)")
    si.add_argument("--policy", type=at.policy, default="greedy",
                    help="random, greedy or planner; or bound (the perfect-dice bound, co-op and solo)")
    si.add_argument("--games", type=at.int_in("--games", 1, MAX_GAMES), default=100)
    si.add_argument("--seed", type=at.int_in("--seed", -(2**63)), default=0)
    si.add_argument("--json", action="store_true")
    si.add_argument("--quiet", action="store_true", help="no progress bar")
    si.add_argument("--workers", type=at.int_in("--workers", 1, MAX_WORKERS), default=None,
                    help="processes to play in (default: one per CPU)")
    si.set_defaults(func=_cmd_simulate, check=_check_game_args)

    sw = sub.add_parser("sweep", help="simulate many co-op games per mission and player count, write CSV/Parquet")
    sw.add_argument("--missions", type=at.int_ranges("--missions", 1, 5), default="1-5", help="e.g. 1-5 or 1,3")
    sw.add_argument("--players", type=at.int_ranges("--players", 1, 6), default="1-6", help="e.g. 1-6 or 2,4")
    sw.add_argument("--policy", type=at.policy_list, default="greedy", help="one policy or several, comma-separated")
    sw.add_argument("--games", type=at.int_in("--games", 1, MAX_GAMES), default=100,
                    help="games per mission x player count x policy")
    sw.add_argument("--seed", type=at.int_in("--seed", -(2**63)), default=0)
    sw.add_argument("--tableau", type=at.existing_file("--tableau"), default=None,
                    help="a tableau file (used for its player count only)")
    sw.add_argument("--out", type=at.output_file("--out", (".csv", ".parquet")), required=True,
                    help="results file: .csv or .parquet")
    sw.add_argument("--parts", type=at.output_folder("--parts"), default=None,
                    help="folder for finished chunks (resume); default OUT.parts")
    sw.add_argument("--chunk", type=at.int_in("--chunk", 1), default=25, help="games per chunk")
    sw.add_argument("--workers", type=at.int_in("--workers", 1, MAX_WORKERS), default=None,
                    help="local process pool size (default: all cores)")
    grp = sw.add_mutually_exclusive_group()
    grp.add_argument("--dask-local", type=at.int_in("--dask-local", 1, MAX_WORKERS), default=None, metavar="K",
                     help="run on a Dask LocalCluster with K workers")
    grp.add_argument("--scheduler", type=at.scheduler_address, default=None, metavar="ADDR",
                     help=f"run on an existing Dask cluster, tcp://host:port (must answer within "
                          f"{at.SCHEDULER_TIMEOUT_S:g} s)")
    sw.add_argument("--no-cells", action="store_true", help="leave out the crossed cells of every game")
    sw.add_argument("--add", action="store_true",
                    help="add the rows to the results already in --out (other policies only, e.g. the bound with "
                         "fewer games beside the greedy)")
    sw.add_argument("--quiet", action="store_true")
    sw.set_defaults(func=_cmd_sweep, check=_check_sweep)

    ca = sub.add_parser("calibrate", help="calibration report for the tableaus from a sweep's results")
    ca.add_argument("results", type=at.existing_file("results", (".csv", ".parquet")),
                    help="a results file written by nochmal sweep")
    ca.add_argument("--ladder", type=at.ladder, default="0.8,0.65,0.5,0.35,0.2",
                    help="wanted win rates for missions 1..5 (comma-separated)")
    ca.add_argument("--json", action="store_true")
    ca.set_defaults(func=_cmd_calibrate)

    ga = sub.add_parser("games", help="saved games: list, show, export, import, delete")
    ga.add_argument("action", choices=["list", "show", "export", "import", "delete"])
    ga.add_argument("target", nargs="?", help="GAME_ID (show/export/delete) or FILE (import)")
    ga.add_argument("--db", type=at.output_file("--db", regular=False), default=None,
                    help="the SQLite store (default: $NOCHMAL_DB or the user data folder)")
    ga.add_argument("--out", type=at.output_file("--out"), default=None,
                    help="export: write to this file instead of stdout")
    ga.add_argument("--json", action="store_true")
    ga.set_defaults(func=_cmd_games, check=_check_games)

    from nochmal.data.boardgen import add_cli as add_boards_cli

    add_boards_cli(sub)

    from nochmal.cli.serve import add_cli as add_serve_cli  # nochmal serve: the app with a fresh owner code

    add_serve_cli(sub)

    fs = sub.add_parser("fit-solo-values", help="fit the solo planner's rollout tables for sheets",
                        description="Fits the completion tables of the solo planner's rollout policy by "
                                    "self-play (about 40 s a sheet) and writes SHEET.npz into the folder.")
    fs.add_argument("--sheets", type=at.sheet_list, default=None,
                    help="comma-separated sheet ids (default: every shipped sheet)")
    fs.add_argument("--games", type=at.int_in("--games", 100, MAX_GAMES), default=40_000, help="games a round")
    fs.add_argument("--rounds", type=at.int_in("--rounds", 1, 100), default=12)
    fs.add_argument("--seed", type=at.int_in("--seed", 0, 2**63 - 1), default=1)
    fs.add_argument("--out", type=at.output_folder("--out"), default=None,
                    help="folder for the tables (default: boards/solo-values, where the planner looks)")
    fs.add_argument("--quiet", action="store_true", help="no progress bar")
    fs.set_defaults(func=_cmd_fit_solo_values)

    be = sub.add_parser("bench", help="measure engine speed")
    be.add_argument("--json", action="store_true")
    be.add_argument("--quick", action="store_true", help="fewer samples (for smoke tests)")
    be.set_defaults(func=_cmd_bench)
    return p


def _error(message: object, code: int = 2) -> int:
    print(f"nochmal: error: {printable(message)}", file=sys.stderr)
    return code


def main(argv: list[str] | None = None) -> int:
    for stream in (sys.stdout, sys.stderr):  # a name the terminal's encoding cannot show: escaped, not a crash
        if hasattr(stream, "reconfigure"):
            stream.reconfigure(errors="backslashreplace")
    parser = build_parser()
    args = parser.parse_args(argv)
    from nochmal.store.db import StoreError

    check = getattr(args, "check", None)
    try:
        if check is not None:
            try:
                check(args)
            except NochmalError as err:
                command = " ".join(x for x in ("nochmal", args.command, getattr(args, "boards_action", None)) if x)
                return _error(f"{err} (see {command} --help)")
        return args.func(args)
    except (NochmalError, StoreError) as err:
        return _error(err)
    except BrokenPipeError:  # e.g. piping into head
        return 0
    except KeyboardInterrupt:
        return _error("interrupted", 130)
    except OSError as err:  # a disk full, a file that vanished, a scheduler that hung up
        where = f"{err.filename}: " if getattr(err, "filename", None) else ""
        return _error(f"{where}{err.strerror or err}", 1)
    except Exception as err:  # noqa: BLE001 - a bug: one line, not a traceback (NOCHMAL_TRACEBACK=1 shows it)
        if os.environ.get("NOCHMAL_TRACEBACK"):
            raise
        return _error(f"unexpected {type(err).__name__}: {err} (a bug: please report it; set NOCHMAL_TRACEBACK=1 "
                      "to see where)", 1)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
