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
from nochmal.bots.registry import get_policy


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
    """The bot ``policy`` names in simulations: :func:`nochmal.bots.registry.get_policy`'s, but the
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
    game plays as the engine does (:func:`nochmal.bots.kernel.drivers.kernel_plays`: the random and
    the greedy bot, the planner) is played there, all seeds in one call; the rest game by game."""
    game = make_game(mode, players, mission, sheets, tableau)
    if (game.has_mission and policy in ("random", "greedy", "planner") and seeds
            and all(0 <= s < 2**63 for s in seeds)):
        from nochmal.bots.kernel import drivers
        from nochmal.bots.settings import ANALYTICS_COOP

        if drivers.kernel_plays(game, policy):
            rows, ends = drivers.play_many(game, seeds, policy, ends=True, cfg=ANALYTICS_COOP)
            return kernel_rows(mode, policy, seeds, game, rows, ends, cells)
    return [play_one(mode, policy, s, players, mission, sheets, tableau, cells) for s in seeds]


class _EndSeat:
    """What mission progress reads of a seat at the end of a kernel game."""

    __slots__ = ("sheet", "crossed", "colours")

    def __init__(self, sheet, crossed: int, colours: list[int]) -> None:
        self.sheet, self.crossed, self.colours = sheet, crossed, colours


def kernel_rows(mode: str, policy: str, seeds: list[int], game, rows, ends, cells: bool = False) -> list[dict]:
    """:func:`game_row` of each co-op game the compiled game played (``rows`` and ``ends`` of
    :func:`nochmal.bots.kernel.drivers.play_many` with ``ends``), read from its arrays for all games at
    once instead of through an engine position per game: the seats' scores as
    :meth:`~nochmal.engine.game.Game.seat_score` counts them (R-SCORE with the variant's values),
    the mission's progress by the engine's :func:`~nochmal.engine.missions.mission_progress`. The
    same rows as ``game_row(..., end_state(...))`` (tests/test_coop_kernel.py)."""
    import numpy as np

    from nochmal.bots.kernel import layout, results
    from nochmal.engine.cells import N_CELLS, N_COLS
    from nochmal.engine.missions import mission_progress

    n = game.n_seats
    sheets = game.sheets
    cols = ends[:, :, N_CELLS:N_CELLS + N_COLS]
    marks = ends != 0
    done = marks[:, :, N_CELLS + N_COLS:N_CELLS + N_COLS + 5]
    crossed = marks[:, :, :N_CELLS]
    jokers = rows[:, layout.R_JOKERS:layout.R_JOKERS + n]
    failed = rows[:, layout.R_FAILED:layout.R_FAILED + n]
    stars = np.array([[sh.star_mask >> i & 1 for i in range(N_CELLS)] for sh in sheets], bool)
    col_points = np.where(cols >= 0, cols, 0).sum(axis=2)
    totals = (done.sum(axis=2) * game.colour_bonus[0] + col_points + jokers * game.joker_value
              - game.star_penalty * (stars & ~crossed).sum(axis=2))
    masks = results.crossed_masks(marks)
    texts = results.crossed_texts(marks) if cells else None
    sheet_ids = ",".join(sh.id for sh in sheets)
    provenance = game.tableau.provenance_summary()
    points_end = col_points.sum(axis=1).tolist()  # C-POINTS: the team's column points
    labels = sheets[0].spec.row_labels  # as CoopGame.progress names the rows
    seq = results.sequence_columns(game)
    out = []
    for g, (row, total, done_g, failed_g, jokers_g) in enumerate(zip(
            rows.tolist(), totals.tolist(), done.tolist(), failed.tolist(), jokers.tolist())):
        seats = [_EndSeat(sh, masks[g][p], [c for c in range(5) if done_g[p][c]]) for p, sh in enumerate(sheets)]
        prog = mission_progress(game.mission, game.tableau, seats, results.sequence_state(seq, row), labels)
        points = [row[r] if row[r] >= 0 else None for r in (layout.R_PTS10, layout.R_PTS19, layout.R_PTS27)]
        r = {"mode": mode, "players": n, "policy": policy, "seed": seeds[g], "sheets": sheet_ids,
             "reason": layout.REASONS[row[layout.R_REASON]], "rolls": row[layout.R_TURNS], "score_seat1": total[0],
             "best_score": max(total), "rules_version": game.rules_version,
             "mission": game.mission.id, "won": bool(row[layout.R_WON]), "turns": row[layout.R_TURNS],
             "tableau": game.tableau.id, "tableau_provenance": provenance,
             "points_10": points[0], "points_19": points[1], "points_27": points[2],
             "points_end": points_end[g], "failed_rolls": sum(failed_g), "max_failed": max(failed_g),
             "jokers_left": sum(jokers_g),
             "removed_die": results.removed_die(row) or "",
             "mission_fraction": round(prog.share, 4),
             "mission_done": ";".join(f"{q.kind}:{','.join(q.done)}" for q in prog.requirements)}
        if cells:
            r["crossed"] = texts[g]
        out.append(r)
    return out


def game_row(mode: str, policy: str, seed: int, game, st, cells: bool = False) -> dict:
    """The flat row of the finished game ``st`` (of ``game``, played by ``policy`` from ``seed``).
    :func:`kernel_rows` makes the same rows for the compiled co-op games: a field added here is
    added there (a test compares the two, field for field and in order)."""
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
        row["crossed"] = ";".join(" ".join(names(s.crossed)) for s in st.seats)
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
