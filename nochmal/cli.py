"""Command line: ``nochmal legal-moves | play | bench | ...`` (``nochmal --help``)."""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
from pathlib import Path

from .errors import NochmalError


def _cmd_legal_moves(args) -> int:
    from .queries import legal_cell_sets

    for line in sys.stdin:
        if not line.strip():
            continue
        try:
            query = json.loads(line)
        except json.JSONDecodeError as err:
            out = {"error": f"invalid JSON: {err.msg} at column {err.colno}"}
        else:
            try:
                out = {"moves": legal_cell_sets(query)}
            except NochmalError as err:
                out = {"error": str(err)}
        sys.stdout.write(json.dumps(out) + "\n")
        sys.stdout.flush()
    return 0


def _make_game(args):
    from .simulate import make_game

    if args.mode == "solo" and args.players not in (None, 1):
        raise NochmalError("solo mode has exactly 1 player (R-SOLO-DICE)")
    if args.players is not None and args.players < 1:
        raise NochmalError(f"--players must be at least 1, got {args.players}")
    if args.mode == "base" and args.sheets and len(args.sheets) != (args.players or 2):
        raise NochmalError(f"--sheets names {len(args.sheets)} sheets for {args.players or 2} players")
    return make_game(args.mode, args.players, args.mission, args.sheets, args.tableau)


def _policy(name: str):
    from .policies import get_policy

    return get_policy(name)


def _cmd_play(args) -> int:
    from .game import play

    game = _make_game(args)
    rng = random.Random(args.seed)
    state = play(game.new_state(), _policy(args.policy), rng)
    out = state.outcome().to_json()
    out["seed"] = args.seed
    if args.save:
        from .session import GameSession
        from .store import GameStore

        ses = GameSession.create(GameStore(args.db), game, title=f"{game.mode} game, seed {args.seed}",
                                 kind="digital", seed=args.seed, bots=[args.policy] * game.n_seats)
        for a in state.history:
            ses.record(a, by=args.policy)
        out["game_id"] = ses.game_id
    out["policy"] = args.policy
    if args.json:
        print(json.dumps(out))
    else:
        print(f"{out['mode']} game, seed {args.seed}: {out['reason']} after {out['rolls']} rolls")
        for s in out.get("scores", []):
            print(f"  seat {s['seat'] + 1}: total {s['total']:>4}  (colours {s['colours']}, columns {s['columns']}, "
                  f"\"!\" {s['jokers']}, stars {s['stars']})")
        if out.get("winners") is not None:
            print("  winner(s): " + ", ".join(f"seat {w + 1}" for w in out["winners"]))
    return 0


def _cmd_bench(args) -> int:
    from .bench import run_bench

    res = run_bench(quick=args.quick)
    if args.json:
        print(json.dumps(res))
    else:
        for k, v in res.items():
            print(f"{k:28} {v}")
    return 0


def _store(args):
    from .store import GameStore

    return GameStore(args.db)


def _cmd_games(args) -> int:
    from .events import describe
    from .session import GameSession, import_game, read_export_file

    store = _store(args)
    if args.action == "list":
        games = store.list_games()
        if args.json:
            print(json.dumps([{"game_id": g.game_id, "title": g.title, "updated_at": g.updated_at,
                               "events": g.n_events, "mode": g.meta.get("config", {}).get("mode")} for g in games]))
        elif not games:
            print(f"no saved games in {store.path}")
        for g in ([] if args.json else games):
            cfg = g.meta.get("config", {})
            print(f"{g.game_id}  {g.updated_at}  {cfg.get('mode', '?'):5}  {len(cfg.get('sheets', []))} seats  "
                  f"{g.n_events:4} events  {g.title}")
        return 0
    if args.action == "import":
        if not args.target:
            raise NochmalError("games import needs a FILE")
        ses = import_game(store, read_export_file(args.target), source=args.target)
        print(ses.game_id)
        return 0
    if not args.target:
        raise NochmalError(f"games {args.action} needs a GAME_ID")
    if args.action == "delete":
        store.delete_game(args.target)
        print(f"deleted {args.target}")
        return 0
    ses = GameSession.load(store, args.target)
    if args.action == "export":
        text = json.dumps(ses.export(), indent=2)
        if args.out:
            Path(args.out).write_text(text + "\n", encoding="utf-8")
        else:
            print(text)
        return 0
    # show
    st = ses.state
    if args.json:
        print(json.dumps({"game_id": ses.game_id, "title": ses.title, "meta": ses.meta, "state": st.to_json(),
                          "outcome": st.outcome().to_json() if st.is_terminal() else None}))
        return 0
    print(f"{ses.game_id}: {ses.title} ({st.game.mode}, {st.game.n_seats} seats), {ses.n_events} events")
    for ev in ses.events:
        print(f"  {ev.seq:4}  {describe(ev, ses.seat_names)}")
    print("  " + (st.outcome().reason if st.is_terminal() else f"now: {st.summary()}"))
    return 0


def _play_job(job: tuple) -> dict:
    from .simulate import play_one

    return play_one(*job)


def _cmd_simulate(args) -> int:
    from .simulate import game_seed, play_one, progress, summarize

    if args.games < 1:
        raise NochmalError("--games must be at least 1")
    _policy(args.policy)  # fail early on an unknown policy
    if args.workers is not None and args.workers < 1:
        raise NochmalError("--workers must be at least 1")
    jobs = [(args.mode, args.policy, game_seed(args.seed, args.mode, args.players, args.mission, args.policy, i),
             args.players, args.mission, args.sheets, args.tableau) for i in range(args.games)]
    workers = min(args.workers or os.cpu_count() or 1, args.games)
    bar = f"{args.mode}/{args.policy}"
    if workers == 1:
        rows = [play_one(*job) for job in progress(jobs, args.games, bar, not args.quiet)]
    else:  # the same rows in the same order whatever the number of processes (a game's seed is its own)
        from concurrent.futures import ProcessPoolExecutor

        with ProcessPoolExecutor(max_workers=workers) as pool:
            rows = list(progress(pool.map(_play_job, jobs, chunksize=1 if args.policy == "planner" else 8),
                                 args.games, bar, not args.quiet))
    out = summarize(rows)
    out.update({"mode": args.mode, "policy": args.policy, "seed": args.seed})
    if args.mode == "coop":
        out.update({"players": rows[0]["players"], "mission": rows[0]["mission"]})
    print(json.dumps(out) if args.json else "\n".join(f"{k:12} {v}" for k, v in out.items()))
    return 0


def _cmd_sweep(args) -> int:
    from .sweep import SweepSpec, parse_range, run_sweep, write_rows

    missions = parse_range(args.missions, 1, 5, "missions")
    players = parse_range(args.players, 1, 6, "players")
    policies = [p.strip() for p in args.policy.split(",") if p.strip()]
    for p in policies:
        _policy(p)
    if args.games < 1:
        raise NochmalError("--games must be at least 1")
    out = Path(args.out)
    if out.suffix.lower() not in (".csv", ".parquet"):
        raise NochmalError(f"--out: use a .csv or .parquet file name, got {out.name!r}")
    if args.dask_local is not None and args.dask_local < 1:
        raise NochmalError("--dask-local needs at least 1 worker")
    spec = SweepSpec(missions=missions, players=players, policies=policies, games=args.games, seed=args.seed,
                     tableaus=[args.tableau] if args.tableau else [None], chunk=args.chunk, cells=not args.no_cells)
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
    write_rows(rows, out)
    print(json.dumps({"games": len(rows), "out": str(out), "parts": str(parts)}))
    return 0


def _cmd_calibrate(args) -> int:
    from .calibrate import calibration_report

    rep = calibration_report(args.results, ladder=args.ladder)
    print(json.dumps(rep) if args.json else rep["text"])
    return 0


def _sheet_list(text: str) -> list[str]:
    return [s.strip() for s in text.split(",") if s.strip()]


class _Parser(argparse.ArgumentParser):
    """argparse, but a wrong argument gives one line (no usage block): nochmal: error: ..."""

    def error(self, message: str):  # noqa: D401
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog.split()[0]} --help)\n")


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(prog="nochmal", description="Noch mal! rules engine, co-op mission leader and analytics")
    sub = p.add_subparsers(dest="command", required=True, metavar="COMMAND", parser_class=_Parser)

    lm = sub.add_parser("legal-moves", help="answer JSON Lines queries on stdin with the legal cell sets")
    lm.set_defaults(func=_cmd_legal_moves)

    pl = sub.add_parser("play", help="play one whole game with a policy and print its outcome")
    pl.add_argument("--mode", choices=["base", "solo", "coop"], default="base")
    pl.add_argument("--players", type=int, default=None, help="number of players (base 2-6, coop 1-6)")
    pl.add_argument("--mission", type=int, default=1, choices=range(1, 6), metavar="1-5", help="co-op mission")
    pl.add_argument("--sheets", type=_sheet_list, default=None, help="comma-separated sheet ids, one per seat")
    pl.add_argument("--tableau", default=None, help="co-op tableau file (TOML)")
    pl.add_argument("--policy", default="random")
    pl.add_argument("--seed", type=int, default=0)
    pl.add_argument("--json", action="store_true", help="print the outcome as one JSON line")
    pl.add_argument("--save", action="store_true", help="also save the game in the store")
    pl.add_argument("--db", default=None, help="the SQLite store for --save")
    pl.set_defaults(func=_cmd_play)

    si = sub.add_parser("simulate", help="play many seeded games with a policy and summarise them")
    si.add_argument("--mode", choices=["base", "solo", "coop"], default="solo")
    si.add_argument("--policy", default="greedy", help="random, greedy or planner")
    si.add_argument("--games", type=int, default=100)
    si.add_argument("--seed", type=int, default=0)
    si.add_argument("--players", type=int, default=None)
    si.add_argument("--mission", type=int, default=1, choices=range(1, 6), metavar="1-5")
    si.add_argument("--sheets", type=_sheet_list, default=None)
    si.add_argument("--tableau", default=None)
    si.add_argument("--json", action="store_true")
    si.add_argument("--quiet", action="store_true", help="no progress bar")
    si.add_argument("--workers", type=int, default=None, help="processes to play in (default: one per CPU)")
    si.set_defaults(func=_cmd_simulate)

    sw = sub.add_parser("sweep", help="simulate many co-op games per mission and player count, write CSV/Parquet")
    sw.add_argument("--missions", default="1-5")
    sw.add_argument("--players", default="1-6")
    sw.add_argument("--policy", default="greedy", help="one policy or several, comma-separated")
    sw.add_argument("--games", type=int, default=100, help="games per mission x player count x policy")
    sw.add_argument("--seed", type=int, default=0)
    sw.add_argument("--tableau", default=None, help="a tableau file (used for its player count only)")
    sw.add_argument("--out", required=True, help="results file: .csv or .parquet")
    sw.add_argument("--parts", default=None, help="folder for finished chunks (resume); default OUT.parts")
    sw.add_argument("--chunk", type=int, default=25, help="games per chunk")
    sw.add_argument("--workers", type=int, default=None, help="local process pool size (default: all cores)")
    grp = sw.add_mutually_exclusive_group()
    grp.add_argument("--dask-local", type=int, default=None, metavar="K", help="run on a Dask LocalCluster with K workers")
    grp.add_argument("--scheduler", default=None, metavar="ADDR", help="run on an existing Dask cluster, tcp://host:port")
    sw.add_argument("--no-cells", action="store_true", help="leave out the crossed cells of every game")
    sw.add_argument("--quiet", action="store_true")
    sw.set_defaults(func=_cmd_sweep)

    ca = sub.add_parser("calibrate", help="calibration report for the tableaus from a sweep's results")
    ca.add_argument("results", help="a results file written by nochmal sweep")
    ca.add_argument("--ladder", default="0.8,0.65,0.5,0.35,0.2",
                    help="wanted win rates for missions 1..5 (comma-separated)")
    ca.add_argument("--json", action="store_true")
    ca.set_defaults(func=_cmd_calibrate)

    ga = sub.add_parser("games", help="saved games: list, show, export, import, delete")
    ga.add_argument("action", choices=["list", "show", "export", "import", "delete"])
    ga.add_argument("target", nargs="?", help="GAME_ID (show/export/delete) or FILE (import)")
    ga.add_argument("--db", default=None, help="the SQLite store (default: $NOCHMAL_DB or the user data folder)")
    ga.add_argument("--out", default=None, help="export: write to this file instead of stdout")
    ga.add_argument("--json", action="store_true")
    ga.set_defaults(func=_cmd_games)

    from .boardgen import add_cli as add_boards_cli

    add_boards_cli(sub)

    be = sub.add_parser("bench", help="measure engine speed")
    be.add_argument("--json", action="store_true")
    be.add_argument("--quick", action="store_true", help="fewer samples (for smoke tests)")
    be.set_defaults(func=_cmd_bench)
    return p


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    from .store import StoreError

    try:
        return args.func(args)
    except (NochmalError, StoreError) as err:
        print(f"nochmal: error: {err}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # pragma: no cover - e.g. piping into head
        return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
