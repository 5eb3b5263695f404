"""The in-game advisor: for the current roll, the best few moves of one seat, each with an
estimate from Monte-Carlo rollouts and a short reason in words. Pure engine code (no
streamlit); the Table page shows it, tests and the CLI may call it too.

* Candidates come from the bots' heuristic (:func:`nochmal.bots.greedy.ranked_moves`), plus the move
  the greedy bot would really make (for the co-op active seat that is the team's choice, which
  weighs the dice left for the others) and, when nothing else is legal, the pass.
* Each candidate is applied to a copy of the position and played to the end by greedy bots for
  every seat (so the others' best replies to the active seat's choice are part of the
  estimate). Every candidate sees the same dice in its ``j``-th rollout (common random
  numbers), so differences between candidates are not dice luck.
* Co-op: the estimate is the share of rollouts the team won (``win_chance``). Base game and
  solo: the seat's mean final score (``est_score``), labelled as an estimate.
* The number of rollouts is deterministic (a budget of simulated decisions, not of seconds),
  so the same position and ``rng_seed`` always give the same suggestions. Co-op spends a second
  stage of rollouts only on the moves the first cannot tell apart from the best one.
* Moves the paired rollouts cannot tell apart share a ``group``: the app says "three equally good
  moves" instead of ranking them. Each suggestion also says, as data (:class:`Gist`), what the move
  does in game terms (``why``: a colour, column, row, star or number field it completes or brings
  closer, what it costs in "!", whom it leaves without a move), for the app's one line.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from nochmal.bots.kernel.results import gc_paused
from nochmal.bots.kernel.solo_driver import solo_sim
from nochmal.bots.coop_weights import plan_of
from nochmal.bots.greedy import greedy_policy, ranked_moves
from nochmal.bots.planner import rollout
from nochmal.bots.rollout_stats import contenders, ranked_groups, wilson
from nochmal.bots.settings import WORK_BUDGET
from nochmal.engine.cells import COLOURS, COLUMNS, N_COLS, ROW_MASKS, indices, names, neighbours
from nochmal.engine.dice import COLOUR_JOKER, NUMBER_JOKER, Roll, colour_face_name, number_face_name, remove_faces
from nochmal.engine.errors import InvalidInputError
from nochmal.engine.game import ACTIVE, PASSIVE
from nochmal.engine.moves import PASS, Cross, Pass, legal_moves

MAX_ROLLOUTS = 64  # per candidate
MIN_ROLLOUTS = 2  # per candidate, whatever the budget
MAX_PHRASES = 3  # reason: at most this many phrases (plus the "!" spent)


@dataclass(frozen=True)
class Suggestion:
    """One suggested move of ``seat`` for the current roll."""

    seat: int
    action: Cross | Pass
    cells: tuple[str, ...]  # cell names, sorted; () for a pass
    dice: str  # the dice it uses, as text ("blue + 3", "X as red + ? as 2"); "" for a pass
    win_chance: float | None  # co-op: share of rollouts the team won after this move
    est_score: float | None  # base/solo: the seat's mean final score in the rollouts
    rollouts: int  # rollouts behind the estimate
    reason: str  # short words: what the move does
    heuristic: float = 0.0  # the bots' one-move-ahead value
    rollout_value: float = 0.0  # mean rollout value (the bots' planner value; co-op: 1.x for a win)
    mission_share: float | None = None  # co-op: mean share of the mission done at the rollouts' end
    phrases: tuple[str, ...] = field(default=(), repr=False)
    win_low: float | None = None  # co-op: the win chance's 95 % interval (Wilson), from the rollouts
    win_high: float | None = None
    as_good_as_next: bool = False  # not told apart from the next suggestion by the paired rollouts
    group: int = 0  # suggestions of one group: the paired rollouts do not tell them from the group's first
    why: tuple[Gist, ...] = ()  # the one line: what the move does above all, then at most one caveat
    gists: tuple[Gist, ...] = field(default=(), repr=False)  # everything it does, as data

    @property
    def estimate(self) -> float:
        """What the suggestions are sorted by: the win chance, or the estimated score."""
        return self.win_chance if self.win_chance is not None else (self.est_score or 0.0)

    @property
    def is_pass(self) -> bool:
        return isinstance(self.action, Pass)

    @property
    def estimate_text(self) -> str:
        n = f"{self.rollouts} rollout{'s' * (self.rollouts != 1)}"
        if self.win_chance is not None:
            share = ""
            if self.mission_share is not None and self.win_chance < 1:
                share = f" · mission {round(100 * self.mission_share)}% done on average"
            return f"win chance {round(100 * self.win_chance)}%{share} ({n})"
        return f"estimated final score {self.est_score:.1f} ({n})"

    @property
    def move_text(self) -> str:
        if self.is_pass:
            return "failed roll" if self.win_chance is not None else "pass"
        return f"{COLOURS[self.action.colour]} {'-'.join(self.cells)} with {self.dice}"

    def to_json(self) -> dict:
        return {"seat": self.seat, "action": self.action.to_json(), "cells": list(self.cells), "dice": self.dice,
                "win_chance": self.win_chance, "est_score": self.est_score, "rollouts": self.rollouts,
                "reason": self.reason, "heuristic": self.heuristic, "rollout_value": self.rollout_value,
                "mission_share": self.mission_share, "win_low": self.win_low, "win_high": self.win_high,
                "group": self.group, "why": [g.to_json() for g in self.why]}


# --------------------------------------------------------------------------- suggestions
def deciding(state, seat: int) -> bool:
    """Whether ``seat`` still decides in the current roll."""
    return (state.phase == ACTIVE and seat == state.active) or (state.phase == PASSIVE and seat in state.pending)


def dice_text(action) -> str:
    if not isinstance(action, Cross):
        return ""
    c = colour_face_name(action.colour_die)
    if action.colour_die == COLOUR_JOKER:
        c += f" as {COLOURS[action.colour]}"
    n = number_face_name(action.number_die)
    if action.number_die == NUMBER_JOKER:
        n += f" as {action.count}"
    return f"{c} + {n}"


def candidates(state, seat: int, n: int) -> list:
    """The moves worth simulating, in the order that breaks ties: for the active seat the greedy
    bot's own choice first (in co-op the team's choice, which weighs the dice left for the
    others), then the heuristic's best ``n`` (distinct cells unless the dice matter to the
    others); the pass when nothing else is legal."""
    active_for_team = (state.phase == ACTIVE and seat == state.active and state.game.sets_aside(state)
                       and state.game.n_seats > 1)
    out: list = []
    seen: set = set()
    if state.phase == ACTIVE and seat == state.active:
        own = greedy_policy(state, random.Random(0))  # co-op: the team's choice for the active seat
        out.append(own)
        seen.add(own if active_for_team or not isinstance(own, Cross) else (own.colour, own.cells))
        n += 1
    for a, _ in ranked_moves(state, seat):
        key = a if active_for_team or not isinstance(a, Cross) else (a.colour, a.cells)
        if key in seen:
            continue
        seen.add(key)
        out.append(a)
        if len(out) >= n:
            break
    return out or [PASS]


def _mission_share(st) -> float:
    """Co-op: the share of the mission done (each requirement counts equally; 1 when won)."""
    return 1.0 if st.extra.get("won") else st.game.progress(st).share


def _play_out(st, rng: random.Random, seat: int) -> tuple[bool, float, float, int]:
    """Play greedy to the end: (team won, value, mission share, decisions simulated, the move
    ``st`` starts from included). The value is the bots' rollout value: the seat's final score
    (base/solo) or the co-op rollout value."""
    value = rollout(st, rng, seat)
    decisions = sum(1 for a in st.history if not isinstance(a, Roll))
    if st.game.has_mission:
        return bool(st.extra.get("won")), value, _mission_share(st), decisions
    return False, value, 0.0, decisions


def suggestions(state, seat: int, k: int = 3, rng_seed: int = 0, rollouts: int | None = None,
                budget: float = 1.0, n_candidates: int | None = None) -> list[Suggestion]:
    """The best ``k`` moves of ``seat`` (the active seat, or a seat in ``state.pending``) for
    the current roll, best estimate first; moves the paired rollouts cannot tell apart from the
    best share its ``group`` 0 (:func:`ranked_groups`).

    ``rollouts``: rollouts per candidate; None = as many as the work budget allows (scaled by
    ``budget``; a budget of simulated decisions, not of seconds, so the result never depends on
    the machine's speed; co-op: two stages, :func:`_compiled_suggestions`). ``n_candidates``: moves
    simulated (default ``k + 1``, plus the greedy bot's own choice). Deterministic for a given
    ``rng_seed``: candidate ``i``'s ``j``-th rollout uses the dice of seed ``(rng_seed, j)``."""
    if state.phase not in (ACTIVE, PASSIVE):
        raise InvalidInputError(f"no seat decides now (phase {state.phase})", rule="R-ORDER")
    if not deciding(state, seat):
        raise InvalidInputError(f"seat {seat + 1} does not decide in this roll now", rule="R-ORDER")
    if rollouts is not None and rollouts < 1:
        raise InvalidInputError(f"rollouts must be at least 1, got {rollouts}")
    game = state.game
    coop = game.has_mission  # the estimate: the chance to win the mission, else the seat's score
    cands = candidates(state, seat, n_candidates or k + 1)
    heur = {a: v for a, v in ranked_moves(state, seat)}
    if coop:
        compiled = _compiled_suggestions(state, seat, cands, heur, k, rng_seed, rollouts, budget)
        if compiled is not None:
            return compiled
    values: list[list[float]] = [[] for _ in cands]  # per candidate, per rollout
    wins = [0] * len(cands)
    shares = [0.0] * len(cands)
    work = 0
    limit = WORK_BUDGET[game.mode] * budget
    sim = solo_sim(game)
    if sim is not None:
        boards, jokers, rolls = sim.candidate_starts(state, seat, cands)
    n = 0
    while True:
        rr = random.Random(f"nochmal-advice-{rng_seed}-{n}").getrandbits(64)
        if sim is not None:  # solo: the same play, compiled (nochmal.bots.kernel.solo); every candidate, one call
            scores = sim.play(boards, jokers, sim.draw(random.Random(rr), rolls))
            for i, v in enumerate(scores.tolist()):
                values[i].append(v)
            work += (rolls + 1) * len(cands)
        else:
            for i, a in enumerate(cands):
                st = state.clone()
                st.history = []
                st.apply(a, seat)
                won, value, share, d = _play_out(st, random.Random(rr), seat)
                wins[i] += won
                values[i].append(value)
                shares[i] += share
                work += d
        n += 1
        if rollouts is not None:
            if n >= rollouts:
                break
        elif n >= MAX_ROLLOUTS or (n >= MIN_ROLLOUTS and work >= limit):
            break
    if coop:  # the estimate is the win chance (ties: the larger share of the mission, then the heuristic's order)
        ranked = ranked_groups(values, key=lambda i: (-wins[i], -shares[i], i))
    else:
        ranked = ranked_groups(values)
    return _assemble(state, seat, cands, heur, ranked[:k], values, wins, shares, coop)


def _assemble(state, seat: int, cands: list, heur: dict, ranked: list[tuple[int, int]], values: list[list[float]],
              wins: list[int], shares: list[float], coop: bool) -> list[Suggestion]:
    """The suggestions ``ranked`` ((index into ``cands``, group), best first) with their estimates and words."""
    top = [i for i, _ in ranked]
    groups = [g for _, g in ranked]
    spends = [isinstance(cands[i], Cross) and cands[i].joker_cost > 0 for i in top]
    out = []
    for rank, i in enumerate(top):
        a = cands[i]
        n = len(values[i])
        phrases, found = _found(state, seat, a)
        low, high = wilson(wins[i], n) if coop else (None, None)
        keeps = isinstance(a, Cross) and not spends[rank] and any(spends)
        out.append(Suggestion(
            seat=seat, action=a, cells=tuple(names(a.cells)) if isinstance(a, Cross) else (), dice=dice_text(a),
            win_chance=wins[i] / n if coop else None, est_score=None if coop else sum(values[i]) / n, rollouts=n,
            reason="; ".join(phrases), heuristic=round(heur.get(a, 0.0), 3), rollout_value=sum(values[i]) / n,
            mission_share=shares[i] / n if coop else None, phrases=phrases, win_low=low, win_high=high,
            as_good_as_next=rank + 1 < len(top) and groups[rank + 1] == groups[rank], group=groups[rank],
            why=why(found, keeps_jokers=keeps), gists=found))
    return out


#: co-op rollouts in compiled code (nochmal.bots.kernel), budgets of seat-turns played (times ``budget``;
#: deterministic, never seconds; a rollout of a 6-seat game from turn 9 takes ~1.3 ms): STAGE1_WORK for every
#: candidate together (at least COMPILED_MIN rollouts each), then up to STAGE2_WORK more only for the moves not
#: yet told apart from the best one where more rollouts could tell them apart (:func:`contenders`), at most
#: COMPILED_MAX rollouts a move. About 0.3-1.2 s a position on this 2-core machine (``nochmal bench``: advisor_s).
STAGE1_WORK = 40_000
STAGE2_WORK = 160_000
COMPILED_MIN = 32
COMPILED_MAX = 2_000
@gc_paused()  # thousands of finished rollouts and their mission progress, no cycles among them
def _compiled_suggestions(state, seat: int, cands: list, heur: dict, k: int, rng_seed: int, rollouts: int | None,
                          budget: float) -> list[Suggestion] | None:
    """Co-op suggestions from rollouts in compiled code (:func:`nochmal.bots.planner.compiled_rollout_ends`),
    each with its win chance, the 95 % interval and the mission share. Stage one plays every candidate
    the same rollouts; stage two spends more only on the best move and those it cannot yet tell apart
    from it (paired by dice, on the rollout value) where more rollouts could tell them apart (a move with
    the same results as the best, or the same on average, gets none): their rollouts double while the
    budget lasts and until the best is told apart from them. None where the kernel does not play the game."""
    from nochmal.bots.coop_weights import coop_rollout_value
    from nochmal.bots.planner import compiled_rollout_ends

    def seeds(lo: int, hi: int) -> list[int]:
        return [random.Random(f"nochmal-advice-{rng_seed}-{j}").getrandbits(63) for j in range(lo, hi)]

    per_rollout = max(1, state.game.n_turns - state.roll_index) * state.game.n_seats
    n = max(COMPILED_MIN, min(COMPILED_MAX, int(STAGE1_WORK * budget / (per_rollout * len(cands)))))
    if rollouts is not None:
        n = rollouts
    ends = compiled_rollout_ends(state, cands, seat, seeds(0, n))
    if ends is None:
        return None
    values = [[coop_rollout_value(st) for st in sts] for sts in ends]
    spare = 0 if rollouts is not None else STAGE2_WORK * budget  # seat-turns left for stage two
    alive = list(range(len(cands)))
    while True:
        reach = min(COMPILED_MAX, n + int(spare / (2 * per_rollout)))  # rollouts a pair could still reach
        best, rest = contenders(values, alive, reach)
        alive = [best, *rest]
        more = min(COMPILED_MAX, 2 * n, n + int(spare / (per_rollout * len(alive))))
        if not rest or more - n < COMPILED_MIN // 2:
            break
        extra = compiled_rollout_ends(state, [cands[i] for i in alive], seat, seeds(n, more))
        for i, sts in zip(alive, extra):
            ends[i] += sts
            values[i] += [coop_rollout_value(st) for st in sts]
        spare -= (more - n) * per_rollout * len(alive)
        n = more
    wins = [sum(bool(st.extra.get("won")) for st in sts) for sts in ends]
    shares = [sum(_mission_share(st) for st in sts) for sts in ends]
    return _assemble(state, seat, cands, heur, ranked_groups(values)[:k], values, wins, shares, True)


# --------------------------------------------------------------------------- reasons
def _seat_list(seats: list[int]) -> str:
    labels = [str(s + 1) for s in seats]
    return ("seat " if len(labels) == 1 else "seats ") + (
        labels[0] if len(labels) == 1 else ", ".join(labels[:-1]) + " and " + labels[-1])


def _plan_for(game, seat: int) -> dict:
    return plan_of(game)["seats"][seat]


def _open_requirements(state) -> dict:
    if not state.game.has_mission:
        return {}
    return {r.kind: r for r in state.game.progress(state).requirements if not r.complete}


@dataclass(frozen=True)
class Gist:
    """One thing a move does, in game terms, as data (the app words it: the advisor's one line).
    ``kind`` says what (:data:`GIST_KINDS`), the other fields what it is about; unused ones stay empty."""

    kind: str
    colour: int = -1  # 0..4
    column: str = ""  # a column letter, or several ("H, I") for stars
    row: str = ""  # a row's label as the sheet prints it
    number: int = 0  # a number field
    sequence: str = ""  # M5: the columns in order, "N-O-C-H-M-A-L"
    count: int = 0  # how many: cells, stars, colours done, failed rolls, "!" spent
    total: int = 0  # out of how many
    left: int = 0  # still to cross after the move (cells), or "!" left
    points: int = 0
    seats: tuple[int, ...] = ()  # 0-based

    def to_json(self) -> dict:
        out = {k: v for k, v in self.__dict__.items() if v not in ("", -1, 0, ())}
        out["kind"] = self.kind
        if "seats" in out:
            out["seats"] = list(self.seats)
        return out


#: what a move does, most telling first within a priority (a move's gists are sorted by the
#: priority of what they say, as its reason's phrases):
#: a mission item done (mission_colour, mission_row, mission_star, mission_field, sequence_done),
#: a column or colour complete (column_first, column_done, colour_first, colour_points, colour_done),
#: progress (sequence_step, plan_colour, mission_colour_step, plan_row, plan_field, column_step,
#: colour_step, stars), the others (leaves_moves), the way on (reach, opens, keeps_block), small_step;
#: a pass: no_move, saves_dice, no_cross_worth, nothing_worth.
#: The caveats (CAVEATS) say what it costs or risks: blocks, too_early, ends_game, spends, keeps_jokers,
#: failed_box, team_loses, free_pass.
GIST_KINDS = ("mission_colour", "mission_row", "mission_star", "mission_field", "sequence_done", "column_first",
              "column_done", "colour_first", "colour_points", "colour_done", "sequence_step", "plan_colour",
              "mission_colour_step", "plan_row", "plan_field", "column_step", "colour_step", "stars", "leaves_moves",
              "reach", "opens", "keeps_block", "small_step", "no_move", "saves_dice", "no_cross_worth",
              "nothing_worth", "blocks", "too_early", "ends_game", "spends", "keeps_jokers", "failed_box",
              "team_loses", "free_pass")
CAVEATS = frozenset({"blocks", "too_early", "ends_game", "spends", "keeps_jokers", "failed_box", "team_loses",
                     "free_pass"})


def reason_phrases(state, seat: int, action) -> list[str]:
    """What ``action`` of ``seat`` does now, as short phrases, most important first."""
    return list(_found(state, seat, action)[0])


def gists(state, seat: int, action) -> tuple[Gist, ...]:
    """What ``action`` of ``seat`` does now, as data, most important first: the things its
    reason says, and (a cross) the cells it crosses as a last resort (``small_step``)."""
    return _found(state, seat, action)[1]


def why(found: tuple[Gist, ...], keeps_jokers: bool = False) -> tuple[Gist, ...]:
    """The advisor's one line: the main thing a move does (the first gist that is no caveat; "leaves
    every other seat a move" or a small step only when it does nothing else), then what it risks (the
    first other caveat) and what it costs in "!" (``spends``; ``keeps_jokers`` when asked: it spends
    none where another suggestion does)."""
    main = [g for g in found if g.kind not in CAVEATS]
    main.sort(key=lambda g: g.kind in ("leaves_moves", "small_step"))  # stable: the rest keeps its order
    risk = next((g for g in found if g.kind in CAVEATS and g.kind != "spends"), None)
    jokers = next((g for g in found if g.kind == "spends"), None) or (Gist("keeps_jokers") if keeps_jokers else None)
    return tuple(main[:1]) + tuple(g for g in (risk, jokers) if g is not None)


def explain(state, seat: int, action) -> str:
    """:func:`reason_phrases` as one line."""
    return "; ".join(reason_phrases(state, seat, action))


def _found(state, seat: int, action) -> tuple[tuple[str, ...], tuple[Gist, ...]]:
    if isinstance(action, Cross):
        return _cross_phrases(state, seat, action)
    return _pass_phrases(state, seat)


def _pass_phrases(state, seat: int) -> tuple[tuple[str, ...], tuple[Gist, ...]]:
    game = state.game
    s = state.seats[seat]
    coop = game.cooperative
    crosses = state.legal_actions(seat).crosses()
    out, found = [], []
    if not crosses:
        out.append("no move with these dice")
        found.append(Gist("no_move"))
    elif coop and state.phase == ACTIVE and seat == state.active and game.sets_aside(state) and game.n_seats > 1:
        out.append("saves the dice for the others: they pick from all dice")
        found.append(Gist("saves_dice"))
    elif coop:
        out.append("no cross worth a die")
        found.append(Gist("no_cross_worth"))
    else:
        out.append("nothing worth crossing")
        found.append(Gist("nothing_worth"))
    if game.has_failed_rolls:
        boxes = game.failed_roll_boxes(s)
        after = s.failed + 1
        out.append(f"marks a failed roll ({after}/{boxes})" + (": the team loses" if after >= boxes else ""))
        found.append(Gist("team_loses" if after >= boxes else "failed_box", count=after, total=boxes))
    else:
        out.append("a pass costs nothing")
        found.append(Gist("free_pass"))
    return tuple(out), tuple(found)


def _cross_phrases(state, seat: int, mv: Cross) -> tuple[tuple[str, ...], tuple[Gist, ...]]:
    game = state.game
    s = state.seats[seat]
    sh = s.sheet
    coop = game.cooperative
    before, cells = s.crossed, mv.cells
    after = before | cells
    colour = COLOURS[mv.colour]
    reqs = _open_requirements(state)
    mine = _plan_for(game, seat) if game.has_mission else {}
    found: list[tuple[int, str, Gist]] = []  # (priority, phrase, the same as data)

    def add(prio: int, text: str, gist: Gist) -> None:
        found.append((prio, text, gist))

    # columns: completed (first or later points), the M5 sequence, progress
    seq = reqs.get("sequence")
    seq_text = "-".join(_seq_columns(game)) if seq is not None else ""
    best_col = None
    for c, cm in sh.column_masks_touched(cells):
        letter = COLUMNS[c]
        n_after = (after & cm).bit_count()
        if n_after == cm.bit_count() and c not in s.columns and c not in s.new_columns:
            first = not state.claimed_columns >> c & 1
            pts = sh.first_points[c] if first else sh.later_points[c]
            if seq is not None and seq.next == letter:
                add(0, f"completes column {letter}, the next of {seq_text}",
                    Gist("sequence_done", column=letter, sequence=seq_text))
            elif seq is not None and letter in seq.missing:
                add(4, f"column {letter} comes too early for {seq_text} (next: {seq.next})",
                    Gist("too_early", column=letter, sequence=seq_text))
            add(1, f"completes column {letter} {'first' if first else '(not first)'} (+{pts})",
                Gist("column_first" if first else "column_done", column=letter, points=pts))
        elif seq is not None and seq.next == letter:
            add(2, f"column {letter} (next of {seq_text}) to {n_after}/7",
                Gist("sequence_step", column=letter, sequence=seq_text, count=n_after, total=cm.bit_count(),
                     left=cm.bit_count() - n_after))
        elif best_col is None or n_after > best_col[1]:
            best_col = (letter, n_after, cm.bit_count())
    if best_col and best_col[1] >= 4:
        add(3, f"column {best_col[0]} to {best_col[1]}/7",
            Gist("column_step", column=best_col[0], count=best_col[1], total=best_col[2],
                 left=best_col[2] - best_col[1]))

    # the colour: completed (mission, bonus), progress towards the plan
    cm = sh.colour_masks[mv.colour]
    total, n_after = cm.bit_count(), (after & cm).bit_count()
    completes_colour = n_after == total and mv.colour not in s.colours and mv.colour not in s.new_colours
    col_req = reqs.get("colours")
    if completes_colour:
        done_by_other = any(mv.colour in o.new_colours for i, o in enumerate(state.seats) if i != seat)
        if col_req is not None and colour in col_req.missing and not done_by_other:
            have = min(len(col_req.done) + 1, col_req.needed)
            add(0, f"completes {colour} for the mission ({have}/{col_req.needed} colours)",
                Gist("mission_colour", colour=mv.colour, count=have, total=col_req.needed))
        elif coop:
            add(3, f"completes {colour}", Gist("colour_done", colour=mv.colour))
        else:
            first = not state.claimed_colours >> mv.colour & 1
            bonus = game.colour_bonus[0 if first else 1]
            add(1, f"completes {colour} {'first' if first else '(not first)'} (+{bonus})",
                Gist("colour_first" if first else "colour_points", colour=mv.colour, points=bonus))
            if game.ends_on_second_colour and len(s.colours) + len(s.new_colours) >= 1:
                add(1, "a second colour: the game ends after this roll", Gist("ends_game"))
    elif (col_req is not None and colour in col_req.missing
          and (colour in mine.get("colours", ()) or n_after >= total - 6)):
        plan = colour in mine.get("colours", ())
        add(2, f"{colour} to {n_after}/{total}" + (" (your plan colour)" if plan else ""),
            Gist("plan_colour" if plan else "mission_colour_step", colour=mv.colour, count=n_after, total=total,
                 left=total - n_after))
    elif not coop and n_after >= total // 2:
        add(3, f"{colour} to {n_after}/{total}",
            Gist("colour_step", colour=mv.colour, count=n_after, total=total, left=total - n_after))

    # rows (M2/M4)
    row_req = reqs.get("rows")
    if row_req is not None:
        labels = sh.spec.row_labels
        for r, rm in enumerate(ROW_MASKS):
            if not cells & rm:
                continue
            label, k = labels[r], (after & rm).bit_count()
            if k == N_COLS and before & rm != rm and label in row_req.missing:
                add(0, f"fills row {label} for the mission", Gist("mission_row", row=label))
            elif label in row_req.missing and label in mine.get("rows", ()):
                add(2, f"row {label} (your plan row) to {k}/{N_COLS}",
                    Gist("plan_row", row=label, count=k, total=N_COLS, left=N_COLS - k))

    # stars: M3 star columns, base-game minus points
    stars = cells & sh.star_mask
    star_req = reqs.get("star_columns")
    if stars:
        star_cols = sorted({i % N_COLS for i in indices(stars)})
        needed = [COLUMNS[c] for c in star_cols if star_req is not None and COLUMNS[c] in star_req.missing]
        if needed:
            add(0, f"a star in column {', '.join(needed)} for the mission",
                Gist("mission_star", column=", ".join(needed)))
        elif game.star_penalty:
            k = stars.bit_count()
            add(3, f"crosses {'a star' if k == 1 else f'{k} stars'} (saves {k * game.star_penalty} points)",
                Gist("stars", count=k, points=k * game.star_penalty))

    # number fields (M4)
    nf_req = reqs.get("number_fields")
    for num, sq in sh.number_fields:
        if not cells & sq or before & sq == sq:
            continue
        k = (after & sq).bit_count()
        if nf_req is not None and str(num) in nf_req.missing:
            if k == 4:
                add(0, f"fills number field {num} for the mission", Gist("mission_field", number=num))
            elif num in mine.get("number_fields", ()):
                add(2, f"number field {num} (your plan) to {k}/4",
                    Gist("plan_field", number=num, count=k, total=4, left=4 - k))

    # co-op, the active seat: what is left for the others
    if coop and state.phase == ACTIVE and seat == state.active and game.sets_aside(state) and game.n_seats > 1:
        cf, nf = state.dice_for(seat)
        left = (remove_faces(cf, mv.colour_die), remove_faces(nf, mv.number_die))
        stuck = []
        for o in range(game.n_seats):
            if o == seat:
                continue
            os_ = state.seats[o]
            if not legal_moves(os_.sheet, os_.crossed, os_.jokers_left, *left, os_.table()).crosses():
                stuck.append(o)
        if stuck:
            add(1, f"leaves {_seat_list(stuck)} no move (a failed roll)",
                Gist("blocks", seats=tuple(stuck), total=game.n_seats - 1))
        else:
            add(3, "leaves every other seat a move", Gist("leaves_moves"))

    # the frontier: which blocks become reachable
    reach_before = (neighbours(before) | sh.start_mask) & ~before
    reach_after = (neighbours(after) | sh.start_mask) & ~after
    wanted = set(mine.get("colours", ())) | (set(col_req.missing) if col_req is not None and not mine.get("colours")
                                              else set())
    new_blocks = [b for b in sh.blocks if b.mask & reach_after and not b.mask & reach_before and not b.mask & after]
    new_wanted = [b for b in new_blocks if COLOURS[b.colour] in wanted]
    gained = (reach_after & ~reach_before).bit_count()
    if new_wanted:
        b = max(new_wanted, key=lambda b: (b.mask & ~after).bit_count())
        size = (b.mask & ~after).bit_count()
        what = "cell" if size == 1 else "pair" if size == 2 else f"block ({size} cells)"
        add(3, f"makes the {COLOURS[b.colour]} {what} reachable", Gist("reach", colour=b.colour, count=size))
    if gained >= 3:
        add(4, f"opens {gained} new cells", Gist("opens", count=gained))
    elif not new_wanted:
        own_block = sh.block_of[(cells & -cells).bit_length() - 1]
        rest = own_block.mask & ~after
        if rest and colour in wanted:
            add(5, f"keeps the {colour} block reachable ({rest.bit_count()} left)",
                Gist("keeps_block", colour=mv.colour, left=rest.bit_count()))

    found.sort(key=lambda t: t[0])
    out = [t for _, t, _ in found[:MAX_PHRASES]]
    small = Gist("small_step", colour=mv.colour, count=mv.count)
    if not out:
        out.append(f"{mv.count} {colour} cell{'s' * (mv.count != 1)}, a small step")
    data = [g for _, _, g in found] + [small]
    if mv.joker_cost:
        left = s.jokers_left - mv.joker_cost
        out.append(f"spends {mv.joker_cost} \"!\" ({left} left)")
        data.append(Gist("spends", count=mv.joker_cost, left=left))
    return tuple(out), tuple(data)


def _seq_columns(game) -> list[str]:
    for r in game.mission.requirements:
        if r.kind == "sequence":
            return list(r.columns)
    return []
