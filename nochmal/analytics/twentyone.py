"""Analytics of *twenty one* (issue 44 item 7): pure functions that return pandas DataFrames, for
the page section (figures in :mod:`nochmal.analytics.twentyone_figures`) and the command line.

* :func:`simulate`: seeded games of 1-6 bots, one row per game and seat;
* :func:`optimum_table` and :func:`score_distribution`: per sheet, the optimal expected practice
  score (T-PRACTICE), its exact distribution and what the second attempt is worth;
* :func:`game_length`: how many rounds games last, by player count;
* :func:`sheet_ease`: which sheet is easiest (its optimal practice score and its win share);
* :func:`policy_summary`: each bot's mean score and win share by player count.

Every game's seed is derived from the run's seed and the game's coordinates
(:func:`nochmal.analytics.simulate.game_seed`), so a row is the same whichever run made it.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from pathlib import Path

import pandas as pd

from nochmal.analytics.simulate import game_seed
from nochmal.bots.twentyone_distribution import describe, sheet_distribution
from nochmal.bots.twentyone_optimum import expected_score
from nochmal.bots.twentyone_policies import TWENTYONE_POLICIES, twentyone_policy
from nochmal.engine.twentyone import SHEET_IDS, TwentyOneGame, TwentyOneSheet, get_sheet, play

#: the most games one call simulates (a page or a command that asks for more is refused by name)
MAX_GAMES = 1_000_000

SheetLike = str | TwentyOneSheet


def _sheets(sheets: Sequence[SheetLike] | None) -> list[TwentyOneSheet]:
    if sheets is None:
        return [get_sheet(s) for s in SHEET_IDS]
    if isinstance(sheets, (str, TwentyOneSheet)) or not isinstance(sheets, Sequence) or not sheets:
        raise ValueError(f"sheets must be a non-empty list of sheet ids or sheets, got {sheets!r}")
    out = []
    for s in sheets:
        if isinstance(s, TwentyOneSheet):
            out.append(s)
        elif isinstance(s, str):
            out.append(get_sheet(s))
        else:
            raise ValueError(f"sheets: {s!r} is neither a sheet id nor a sheet")
    ids = [s.id for s in out]
    if len(set(ids)) != len(ids):
        raise ValueError(f"sheets: each sheet once, got {ids}")
    return out


def _check_int(name: str, value: object, low: int, high: int) -> int:
    if type(value) is not int or not low <= value <= high:
        raise ValueError(f"{name} must be a whole number from {low} to {high}, got {value!r}")
    return value


def _seated(policies: list) -> Callable:
    def policy(state, rng):
        return policies[state.current_player()](state, rng)

    return policy


def simulate(players: int, policies: list[str], games: int, seed: int, sheets: Sequence[SheetLike] | None = None,
             on_progress: Callable[[int, int], None] | None = None, directory: Path | None = None) -> pd.DataFrame:
    """``games`` seeded games of ``players`` seats: seat ``i`` plays ``policies[i]`` (one name: every
    seat), on ``players`` different sheets drawn for each game from ``sheets`` (default: the six
    shipped ones); the first active seat is drawn by lot (T-START). One row per game and seat:
    game, seed, players, seat, policy, sheet, score, rows_done (rows filled and scored), rounds,
    winner (T-WIN: a shared win counts for each) and win_share (1/k of a win shared by k).
    ``on_progress(done, total)`` after every game. Bad input raises ValueError naming the field."""
    _check_int("players", players, TwentyOneGame.min_seats, TwentyOneGame.max_seats)
    _check_int("games", games, 1, MAX_GAMES)
    if type(seed) is not int:
        raise ValueError(f"seed must be a whole number, got {seed!r}")
    if isinstance(policies, str) or not isinstance(policies, Sequence) or len(policies) not in (1, players):
        raise ValueError(f"policies must name one bot, or one per seat ({players}), got {policies!r}")
    unknown = [p for p in policies if p not in TWENTYONE_POLICIES]
    if unknown:
        raise ValueError(f"policies: unknown bot {unknown[0]!r}: one of {', '.join(TWENTYONE_POLICIES)}")
    names = list(policies) * players if len(policies) == 1 else list(policies)
    pool = _sheets(sheets)
    if len(pool) < players:
        raise ValueError(f"sheets: {players} players need {players} different sheets, got {len(pool)}")
    bots = {name: twentyone_policy(name, directory) for name in dict.fromkeys(names)}
    seated = _seated([bots[n] for n in names])
    rows = []
    for g in range(games):
        s = game_seed(seed, "twentyone", players, ",".join(names), g)
        rng = random.Random(s)
        chosen = rng.sample(pool, players)
        out = play(TwentyOneGame(chosen).new_state(), seated, rng).outcome()
        for r in out.seats:
            rows.append({"game": g, "seed": s, "players": players, "seat": r.seat, "policy": names[r.seat],
                         "sheet": r.sheet, "score": r.total, "rows_done": sum(x.full for x in r.rows),
                         "rounds": out.rounds, "winner": r.seat in out.winners,
                         "win_share": 1 / len(out.winners) if r.seat in out.winners else 0.0})
        if on_progress:
            on_progress(g + 1, games)
    return pd.DataFrame(rows)


def optimum_table(sheets: Sequence[SheetLike] | None = None, directory: Path | None = None) -> pd.DataFrame:
    """Per sheet: the optimal expected practice score (T-PRACTICE), its standard deviation and
    quantiles (exact, :mod:`nochmal.bots.twentyone_distribution`), the optimum without the second
    attempt and what the second attempt is worth (the difference)."""
    rows, cache = [], {}
    for sheet in _sheets(sheets):
        if sheet.value_at not in cache:
            with_second = describe(sheet_distribution(sheet))
            without = describe(sheet_distribution(sheet, second_attempt=False))
            cache[sheet.value_at] = with_second, without
        with_second, without = cache[sheet.value_at]
        rows.append({"sheet": sheet.id, "provenance": sheet.provenance, "expected": expected_score(sheet, directory),
                     **{k: v for k, v in with_second.items() if k != "mean"},
                     "expected_without_second": without["mean"], "sd_without_second": without["sd"],
                     "second_attempt_worth": with_second["mean"] - without["mean"]})
    return pd.DataFrame(rows)


def score_distribution(sheet: SheetLike) -> pd.DataFrame:
    """The exact distribution of the optimal practice score on ``sheet``, with and without the
    second attempt: columns second_attempt (bool), score, probability, cumulative."""
    (s,) = _sheets([sheet])
    frames = []
    for second in (True, False):
        dist = sheet_distribution(s, second_attempt=second)
        frame = pd.DataFrame({"second_attempt": second, "score": range(len(dist)), "probability": dist})
        frame["cumulative"] = frame["probability"].cumsum()
        frames.append(frame[frame["probability"] > 1e-12])
    return pd.concat(frames, ignore_index=True)


def _games(df: pd.DataFrame) -> pd.DataFrame:
    need = {"game", "seed", "players", "policy", "sheet", "score", "rounds", "win_share"}
    missing = need - set(df.columns)
    if missing:
        raise ValueError(f"these results have no column(s) {', '.join(sorted(missing))}: not twenty one games")
    return df


def game_length(df: pd.DataFrame) -> pd.DataFrame:
    """Rounds per game by player count (each game counted once): games, mean, sd, min, quartiles, max."""
    games = _games(df).drop_duplicates(["players", "seed"])
    g = games.groupby("players")["rounds"]
    out = pd.DataFrame({"games": g.size(), "mean": g.mean(), "sd": g.std(), "min": g.min(),
                        "q25": g.quantile(0.25), "median": g.median(), "q75": g.quantile(0.75), "max": g.max()})
    return out.reset_index()


def sheet_ease(df: pd.DataFrame | None = None, sheets: Sequence[SheetLike] | None = None,
               directory: Path | None = None) -> pd.DataFrame:
    """Which sheet is easiest: per sheet its optimal expected practice score and, from simulated
    games ``df`` (of any player count above one), how often it was played, its mean score and its
    win share against a fair share (1/players). Sorted easiest first (the practice optimum, then
    the win share over the fair share); ``rank`` 1 is the easiest."""
    table = optimum_table(sheets, directory)[["sheet", "provenance", "expected"]]
    if df is not None and len(df):
        d = _games(df)
        d = d[d["players"] > 1]
        d = d.assign(fair=1 / d["players"])
        g = d.groupby("sheet")
        sim = pd.DataFrame({"seated": g.size(), "mean_score": g["score"].mean(), "win_share": g["win_share"].mean(),
                            "fair_share": g["fair"].mean()}).reset_index()
        sim["win_share_over_fair"] = sim["win_share"] - sim["fair_share"]
        table = table.merge(sim, on="sheet", how="left")
    keys = ["expected"] + (["win_share_over_fair"] if "win_share_over_fair" in table else [])
    table = table.sort_values(keys, ascending=False, kind="stable").reset_index(drop=True)
    table["rank"] = range(1, len(table) + 1)
    return table


def policy_summary(df: pd.DataFrame) -> pd.DataFrame:
    """Per player count and bot: seats played, mean score, win share and the fair share (1/players)."""
    d = _games(df)
    g = d.groupby(["players", "policy"])
    out = pd.DataFrame({"seats": g.size(), "mean_score": g["score"].mean(), "win_share": g["win_share"].mean()})
    out = out.reset_index()
    out["fair_share"] = 1 / out["players"]
    return out
