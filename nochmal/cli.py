"""Command line: ``nochmal legal-moves | play | bench | ...`` (``nochmal --help``)."""

from __future__ import annotations

import argparse
import json
import random
import sys

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
    from .game import BaseGame, SoloGame

    if args.mode == "solo":
        if args.players not in (None, 1):
            raise NochmalError("solo mode has exactly 1 player (R-SOLO-DICE)")
        sheets = args.sheets or ["standard"]
        return SoloGame(sheets)
    if args.mode == "base":
        n = args.players or 2
        sheets = args.sheets or ["standard"] * n
        if len(sheets) != n:
            raise NochmalError(f"--sheets names {len(sheets)} sheets for {n} players")
        return BaseGame(sheets)
    from .coop import CoopGame

    return CoopGame.create(players=args.players or 3, mission=args.mission, sheets=args.sheets, tableau=args.tableau)


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


def _sheet_list(text: str) -> list[str]:
    return [s.strip() for s in text.split(",") if s.strip()]


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="nochmal", description="Noch mal! rules engine, co-op mission leader and analytics")
    sub = p.add_subparsers(dest="command", required=True, metavar="COMMAND")

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
    pl.set_defaults(func=_cmd_play)

    be = sub.add_parser("bench", help="measure engine speed")
    be.add_argument("--json", action="store_true")
    be.add_argument("--quick", action="store_true", help="fewer samples (for smoke tests)")
    be.set_defaults(func=_cmd_bench)
    return p


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return args.func(args)
    except NochmalError as err:
        print(f"nochmal: error: {err}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # pragma: no cover - e.g. piping into head
        return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
