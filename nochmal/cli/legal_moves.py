"""``nochmal legal-moves``: answer JSON Lines queries on stdin with the legal cell sets."""

from __future__ import annotations

import argparse
import json
import sys

from nochmal.store.games import DEFAULT_GAME, GAMES, game_kind


def _cmd_legal_moves(args) -> int:
    from nochmal.engine.queries import read_lines

    answer_line = game_kind(args.game).answer_query
    out = sys.stdout
    for n, raw in enumerate(read_lines(sys.stdin.buffer), start=1):
        answer = answer_line(raw)
        if "error" in answer:
            answer = {"error": f"line {n}: {answer['error']}"}
        out.write(json.dumps(answer) + "\n")  # ensure_ascii: control characters come out escaped
        out.flush()
    return 0


def add_cli(subparsers) -> argparse.ArgumentParser:
    """Add ``nochmal legal-moves`` to the command line."""
    lm = subparsers.add_parser("legal-moves", help="answer JSON Lines queries on stdin with the legal moves",
                               description="Answers every line of stdin with one JSON line: {\"moves\": [...]} "
                                           "(twenty one: {\"player\": ..., \"actions\": [...]}) or "
                                           "{\"error\": \"line N: ...\"}, and goes on. A line is, by game: " +
                                           "; ".join(f"{g.name} {g.query_help}" for g in GAMES.values()))
    lm.add_argument("--game", choices=list(GAMES), default=DEFAULT_GAME, help=f"which game (default {DEFAULT_GAME})")
    lm.set_defaults(func=_cmd_legal_moves)
    return lm
