"""The one registry of games: *Noch mal!* (its modes base, solo and co-op come from
:mod:`nochmal.data.modes`) and *twenty one* are entries of one list, :data:`GAMES`. The store, the
command line (``play``, ``legal-moves``, ``games``, ``simulate``), the app and the analytics read a
game's entry instead of asking which game it is: its words (marked ``N_``), seat range, how a new
game is made and rebuilt from its config, its stored events (:class:`~nochmal.store.events.EventCodec`),
its meta, its legal actions, an action in words, its bots and its digital dice.

No module outside this one and the game's own packages compares a game's name or keys a table by
it (``tests/test_architecture.py`` checks it). A stored game records its game in its meta
(``"game"``); a game stored before there were two has none and is *Noch mal!*.

Here (in the store's wing, not the engine's) because an entry names the store's event and meta
models of its game; the engine stays pure and knows nothing of it."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Callable

from nochmal.data.i18n import N_
from nochmal.data.modes import MODES, Mode
from nochmal.engine.dice import Roll
from nochmal.engine.errors import InvalidInputError
from nochmal.bots.registry import ANALYTICS_POLICY_NAMES as NOCHMAL_ANALYTICS_POLICY_NAMES
from nochmal.bots.registry import POLICY_NAMES as NOCHMAL_POLICY_NAMES
from nochmal.engine.game import Game, game_from_config
from nochmal.engine.game import play as play_nochmal
from nochmal.engine.twentyone.game import play as play_twentyone
from nochmal.engine.game import parse_action as parse_nochmal_action
from nochmal.engine.twentyone.actions import parse_action as parse_twentyone_action
from nochmal.engine.twentyone.game import TwentyOneGame
from nochmal.engine.twentyone.version import RULES_VERSION as TWENTYONE_RULES_VERSION
from nochmal.engine.twentyone.version import SUPPORTED_RULES_VERSIONS as TWENTYONE_RULES_VERSIONS
from nochmal.engine.version import RULES_VERSION as NOCHMAL_RULES_VERSION
from nochmal.engine.version import SUPPORTED_RULES_VERSIONS as NOCHMAL_RULES_VERSIONS
from nochmal.store.events import NOCHMAL_EVENTS, EventCodec
from nochmal.store.meta import GameMeta, _GameMeta
from nochmal.store.twentyone import POLICY_NAMES as TWENTYONE_POLICY_NAMES
from nochmal.store.twentyone import TWENTYONE_EVENTS, TwentyOneMeta


@dataclass(frozen=True)
class GameKind:
    """One game of the registry: everything a client asks of a game before it has a state."""

    #: the game's name (``--game``, a stored game's ``meta["game"]``, the engine's ``game_name``)
    name: str
    #: what players call it (translated where shown)
    word: str
    #: its modes (the registry of modes' entries); a game without variants has none
    modes: tuple[Mode, ...]
    min_seats: int
    max_seats: int
    default_players: int
    #: a saved game's config -> the game (InvalidInputError for a bad one)
    from_config: Callable[[Any], Any]
    #: ``new_game(players, mode, options)``: a new game from the CLI's or the app's choice
    new_game: Callable[..., Any]
    #: an action's JSON form -> the action
    parse_action: Callable[[Any], Any]
    #: the rules version new games are played under, and the versions this program replays
    rules_version: int
    rules_versions: tuple[int, ...]
    #: its stored events
    events: EventCodec
    #: its meta model (:func:`nochmal.store.meta.meta_model`)
    meta: type[_GameMeta]
    #: the bots a seat may be played by, by name
    policy_names: tuple[str, ...]
    #: and every policy by name (the analytics' limits too): ``policy(state, rng)`` for the
    #: player to move; an unknown name raises InvalidInputError naming the choices
    get_policy: Callable[[str], Callable]
    all_policy_names: tuple[str, ...]
    #: ``play(state, policy, rng)``: play to the end, chance from ``rng``
    play: Callable[..., Any]
    #: ``sample_chance(state, rng)``: the chance action due, drawn from ``rng``
    sample_chance: Callable[[Any, random.Random], Any]
    #: one ``legal-moves`` input line (bytes) -> its answer (a dict; never raises)
    answer_query: Callable[[bytes], dict]
    #: what ``legal-moves`` reads on each line, for ``--help``
    query_help: str
    #: ``digital_chance(state, seed)``: the chance action due, the same every time for one seed
    #: and position (undoing a roll and rolling again gives the same faces)
    digital_chance: Callable[[Any, int], Any]
    #: a new game's title when its creator gives none ("coop game")
    default_title: Callable[[Any], str]
    #: ``outcome_lines(outcome, seed)``: the lines of an outcome (``state.outcome().to_json()``) for a terminal
    outcome_lines: Callable[[dict, int], list[str]]
    #: ``position_text(state, seat)``: the position in one line, for a person at a terminal
    position_text: Callable[[Any, int], str]
    #: ``simulate(players, policy, games, seed, sheets, on_progress)``: seeded games of one bot in
    #: every seat, one row per game and seat (a DataFrame; ``nochmal simulate``); None where the
    #: game's modes choose it (*Noch mal!*: :mod:`nochmal.analytics.simulate`, by mode and mission)
    simulate: Callable[..., Any] | None = None

    def policy(self, name: str) -> Callable:
        """The bot ``name`` of this game, as ``policy(state, rng)``."""
        return self.get_policy(name)

    def describe_action(self, action) -> str:
        """An action in words, for logs (``enter white red``, ``H4-H5 blue``)."""
        return str(action)

    def legal_actions(self, state, seat: int | None = None) -> list:
        """The legal actions of the player to move (or of ``seat``, where the game lets seats act
        in any order), sorted."""
        return state.legal_actions() if seat is None else state.legal_actions(seat)

    def players_help(self) -> str:
        if self.modes:
            return ", ".join(f"{m.name} {m.min_seats}-{m.max_seats}" for m in self.modes if m.min_seats != m.max_seats)
        return f"{self.min_seats}-{self.max_seats}"


# --------------------------------------------------------------------------- Noch mal!
def _nochmal_policy(name: str) -> Callable:
    from nochmal.bots.registry import get_policy

    return get_policy(name)


def _nochmal_query(raw: bytes) -> dict:
    from nochmal.engine.queries import answer_line

    return answer_line(raw)


def _nochmal_new_game(players: int | None, mode: str | None = None, **options):
    from nochmal.analytics.simulate import make_game

    return make_game(mode or Game.mode, players, options.get("mission"), options.get("sheets"), options.get("tableau"))


def digital_roll(seed: int, roll_index: int, n_colour: int, n_number: int) -> Roll:
    """The digital dice of roll ``roll_index`` in a *Noch mal!* game with ``seed``: the same roll
    every time (a game can be replayed; undoing a roll and rolling again gives the same faces)."""
    return Roll.sample(random.Random(f"nochmal-dice-{seed}-{roll_index}"), n_colour, n_number)


def _nochmal_chance(state, seed: int):
    nc, nn = state.game.dice_in_play(state)
    return digital_roll(seed, state.roll_index, nc, nn)


def _nochmal_outcome(out: dict, seed: int) -> list[str]:
    lines = [f"{out['mode']} game, seed {seed}: {out['reason']} after {out['rolls']} rolls"]
    for s in out.get("scores", []):
        lines.append(f"  seat {s['seat'] + 1}: total {s['total']:>4}  (colours {s['colours']}, columns "
                     f"{s['columns']}, \"!\" {s['jokers']}, stars {s['stars']})")
    if out.get("winners") is not None:
        lines.append("  winner(s): " + ", ".join(f"seat {w + 1}" for w in out["winners"]))
    return lines


NOCHMAL = GameKind(
    name=Game.game_name, word=N_("Noch mal!"), modes=tuple(MODES.values()),
    min_seats=min(m.min_seats for m in MODES.values()), max_seats=max(m.max_seats for m in MODES.values()),
    default_players=Game.default_players,
    from_config=game_from_config, new_game=_nochmal_new_game, parse_action=parse_nochmal_action,
    rules_version=NOCHMAL_RULES_VERSION, rules_versions=tuple(NOCHMAL_RULES_VERSIONS), events=NOCHMAL_EVENTS, meta=GameMeta,
    policy_names=NOCHMAL_POLICY_NAMES, get_policy=_nochmal_policy, all_policy_names=NOCHMAL_ANALYTICS_POLICY_NAMES,
    play=play_nochmal, sample_chance=lambda state, rng: state.sample_roll(rng), answer_query=_nochmal_query,
    query_help='{"sheet": "standard", "crossed": [], "colour": "blue", "count": 1}',
    digital_chance=_nochmal_chance, outcome_lines=_nochmal_outcome,
    position_text=lambda state, seat: f"{state.summary()} seat{seat + 1} crossed: "
                                      f"{' '.join(state.seats[seat].to_json()['crossed']) or '-'}", default_title=lambda game: f"{game.mode} game",
)


# --------------------------------------------------------------------------- twenty one
def _twentyone_policy(name: str) -> Callable:
    from nochmal.bots.twentyone_policies import twentyone_policy

    return twentyone_policy(name)


def _twentyone_simulate(players, policy, games, seed, sheets, on_progress):
    from nochmal.analytics.twentyone import simulate

    return simulate(players, [policy], games, seed, sheets, on_progress=on_progress)


def _twentyone_query(raw: bytes) -> dict:
    from nochmal.engine.twentyone.queries import answer_line

    return answer_line(raw)


def _twentyone_new_game(players: int | None, mode: str | None = None, **options):
    if mode is not None:
        raise InvalidInputError(f"twenty one has no modes, got --mode {mode}")
    sheets = options.get("sheets")
    n = players if players is not None else (len(sheets) if sheets else TwentyOneGame.min_seats)
    return TwentyOneGame.create(n, sheets=sheets)


def _twentyone_chance(state, seed: int):
    return state.sample_chance(random.Random(f"twentyone-dice-{seed}-{len(state.history)}"))


def _twentyone_outcome(out: dict, seed: int) -> list[str]:
    lines = [f"twenty one, seed {seed}: {out['reason']} after {out['rounds']} rounds"]
    for s in out["seats"]:
        rows = " ".join(f"{r['total']}{'' if r['full'] else '*'}" for r in s["rows"])
        lines.append(f"  seat {s['seat'] + 1} (sheet {s['sheet']}): total {s['total']:>4}  (rows {rows})")
    lines.append("  winner(s): " + ", ".join(f"seat {w + 1}" for w in out["winners"]))
    return lines


TWENTYONE = GameKind(
    name=TwentyOneGame.game_name, word=N_("twenty one"), modes=(),
    min_seats=TwentyOneGame.min_seats, max_seats=TwentyOneGame.max_seats, default_players=TwentyOneGame.min_seats,
    from_config=TwentyOneGame.from_config, new_game=_twentyone_new_game, parse_action=parse_twentyone_action,
    rules_version=TWENTYONE_RULES_VERSION, rules_versions=tuple(TWENTYONE_RULES_VERSIONS), events=TWENTYONE_EVENTS, meta=TwentyOneMeta,
    policy_names=TWENTYONE_POLICY_NAMES, get_policy=_twentyone_policy, all_policy_names=TWENTYONE_POLICY_NAMES,
    play=play_twentyone, sample_chance=lambda state, rng: state.sample_chance(rng), answer_query=_twentyone_query,
    query_help='{"sheets": ["A", "B"], "history": [{"type": "lot", "seat": 0}], "seat": null}',
    digital_chance=_twentyone_chance, outcome_lines=_twentyone_outcome,
    position_text=lambda state, seat: state.summary(seat),
    default_title=lambda game: f"{game.title} game", simulate=_twentyone_simulate,
)

#: Every game, the default first (the CLI's ``--game`` choices, the app's order).
GAMES: dict[str, GameKind] = {g.name: g for g in (NOCHMAL, TWENTYONE)}
#: The game a caller gets when it names none, and every stored game that names none.
DEFAULT_GAME = NOCHMAL.name


def game_kind(name: object) -> GameKind:
    """The registry's entry of the game ``name``; an unknown name raises InvalidInputError."""
    if not isinstance(name, str) or name not in GAMES:
        shown = repr(name)[:40]
        raise InvalidInputError(f"unknown game {shown}: {', '.join(GAMES)}")
    return GAMES[name]


def kind_of_game(game) -> GameKind:
    """The entry of an engine game (its ``game_name``)."""
    return game_kind(getattr(type(game), "game_name", None))


def kind_of_meta(meta: object) -> GameKind:
    """The entry of a stored or imported game's meta: its ``game`` field; none is *Noch mal!*
    (every game stored before there were two)."""
    name = meta.get("game") if isinstance(meta, dict) else None
    return GAMES[DEFAULT_GAME] if name is None else game_kind(name)
