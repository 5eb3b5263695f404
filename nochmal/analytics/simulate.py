"""Simulated games: one function plays one seeded game and returns a flat result row; the
``simulate`` command and the analytics sweep are built on it. A game's seed is derived from
the run's seed and the game's coordinates, so a row is the same whichever process ran it."""

from __future__ import annotations

import hashlib
import random
import statistics
import sys
from typing import Iterable

from nochmal.engine.cells import names
from nochmal.engine.game import play, variant
from nochmal.bots.policies import get_policy


def game_seed(seed: int, *coords) -> int:
    """A 63-bit seed from the run's seed and the game's coordinates (stable across runs,
    processes and machines: no Python hash randomisation)."""
    text = "|".join(str(c) for c in (seed, *coords))
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big") >> 1


def make_game(mode: str, players: int | None = None, mission: int | None = None, sheets=None, tableau=None):
    """A new game of the variant ``mode`` with its defaults (``default_players``: base 2, co-op 3;
    co-op mission 1). ``mission`` and ``tableau`` count only for a variant with a mission,
    ``players`` only for one whose number of seats is not fixed (solo)."""
    cls = variant(mode)
    if not cls.has_mission:
        mission = tableau = None
    if cls.min_seats == cls.max_seats or players is None:
        players = cls.default_players
    return cls.create(players, sheets=sheets, mission=mission, tableau=tableau)


def analytics_policy(game, policy: str):
    """The bot ``policy`` names in simulations: :func:`nochmal.bots.policies.get_policy`'s, but the
    planner with the analytics' settings (:func:`nochmal.bots.planner.analytics_planner`)."""
    if policy == "planner":
        from nochmal.bots.planner import analytics_planner

        return analytics_planner(game)
    return get_policy(policy)


def play_one(mode: str, policy: str, seed: int, players: int | None = None, mission: int | None = None,
             sheets=None, tableau=None, cells: bool = False) -> dict:
    """Play one game; a flat, JSON-friendly row describing it."""
    game = make_game(mode, players, mission, sheets, tableau)
    st = play(game.new_state(), analytics_policy(game, policy), random.Random(seed))
    return game_row(mode, policy, seed, game, st, cells)


def play_games(mode: str, policy: str, seeds: list[int], players: int | None = None, mission: int | None = None,
               sheets=None, tableau=None, cells: bool = False) -> list[dict]:
    """:func:`play_one` for each of ``seeds`` (the same rows): a co-op game that the compiled
    game plays as the engine does (:func:`nochmal.bots.coop_kernel.kernel_plays`: the random and
    the greedy bot, the planner) is played there, all seeds in one call; the rest game by game."""
    game = make_game(mode, players, mission, sheets, tableau)
    if (game.has_mission and policy in ("random", "greedy", "planner") and seeds
            and all(0 <= s < 2**63 for s in seeds)):
        from nochmal.bots import coop_kernel as ck
        from nochmal.bots.planner import ANALYTICS_COOP

        if ck.kernel_plays(game, policy):
            rows, ends = ck.play_many(game, seeds, policy, ends=True, cfg=ANALYTICS_COOP)
            return [game_row(mode, policy, s, game, ck.end_state(game, r, e), cells,
                             crossed=ck.crossed_text(e) if cells else None)
                    for s, r, e in zip(seeds, rows, ends)]
    return [play_one(mode, policy, s, players, mission, sheets, tableau, cells) for s in seeds]


def game_row(mode: str, policy: str, seed: int, game, st, cells: bool = False, crossed: str | None = None) -> dict:
    """The flat row of the finished game ``st`` (of ``game``, played by ``policy`` from ``seed``);
    ``crossed``: its ``crossed`` column if the caller has it already (the compiled game's)."""
    out = st.outcome()
    row = {"mode": mode, "players": game.n_seats, "policy": policy, "seed": seed,
           "sheets": ",".join(s.id for s in game.sheets), "reason": out.reason, "rolls": out.rolls,
           "score_seat1": out.scores[0].total, "best_score": max(s.total for s in out.scores),
           "rules_version": game.rules_version}
    if game.has_mission:
        x = out.extra
        row.update({
            "mission": x["mission_id"], "won": x["won"], "turns": x["turns"],
            "tableau": x["tableau"]["id"], "tableau_provenance": x["tableau"]["provenance"],
            "points_10": x["team_points"].get("10"), "points_19": x["team_points"].get("19"),
            "points_27": x["team_points"].get("27"), "points_end": x["team_points_now"],
            "failed_rolls": sum(x["failed_rolls"]), "max_failed": max(x["failed_rolls"]),
            "jokers_left": sum(x["jokers_left"]), "removed_die": x["removed_die"] or "",
            "mission_fraction": _mission_fraction(x["mission"]),
            "mission_done": ";".join(f"{r['kind']}:{','.join(r['done'])}" for r in x["mission"]["requirements"]),
        })
    if cells:
        row["crossed"] = crossed if crossed is not None else ";".join(" ".join(names(s.crossed)) for s in st.seats)
    return row


def _mission_fraction(m: dict) -> float:
    reqs = m["requirements"]
    return round(sum(min(r["have"], r["needed"]) / r["needed"] if r["needed"] else 1.0 for r in reqs) / len(reqs), 4)


def summarize(rows: list[dict]) -> dict:
    out = {"games": len(rows)}
    if not rows:
        return out
    out["mean_score"] = round(statistics.mean(r["score_seat1"] for r in rows), 3)
    if variant(rows[0]["mode"]).has_mission:
        out["win_rate"] = round(sum(r["won"] for r in rows) / len(rows), 4)
        out["mean_turns"] = round(statistics.mean(r["turns"] for r in rows), 2)
    return out


def progress(iterable: Iterable, total: int, desc: str, enabled: bool = True):
    """A progress bar on stderr (tqdm)."""
    if not enabled:
        return iterable
    from tqdm import tqdm

    return tqdm(iterable, total=total, desc=desc, file=sys.stderr, unit="game", dynamic_ncols=True)
