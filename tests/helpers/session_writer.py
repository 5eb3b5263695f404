"""Crash-safety helper for tests/test_session_store.py: play a digital co-op game through
:class:`nochmal.store.session.GameSession`, acknowledging every recorded event.

Usage: python session_writer.py DB_PATH SEED PLAYERS MISSION [--retry-conflicts]

Opens the store, takes its (only) game or creates one, and plays it to the end with the random
policy. The choice for the event with sequence number ``n`` is a function of (SEED, n) only, so
a writer that was killed and restarted -- or two writers racing on one game -- produce exactly
the events of :func:`expected_actions`. After each ``record`` has *returned* (the event is
committed), prints the session's number of events on its own line and flushes stdout. Prints
``game GAME_ID`` once the game exists and ``done`` when the game is over.

With ``--retry-conflicts`` a ConflictError (another writer got there first) is answered with
``refresh()`` and a new try; a ``conflict`` line is printed.
"""

from __future__ import annotations

import pathlib
import random
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


def choose(state, seed: int, n_events: int):
    """The deterministic choice for event number ``n_events`` (random policy, seeded)."""
    from nochmal.bots.policies import random_policy

    return random_policy(state, random.Random(f"writer-{seed}-{n_events}"))


def make_game(players: int, mission: int):
    from nochmal.engine.coop import CoopGame

    return CoopGame.create(players, mission)


def expected_actions(seed: int, players: int, mission: int, game_seed: int) -> list[dict]:
    """Every action (JSON) the writer records for this game, computed without a store."""
    from nochmal.engine.game import action_to_json
    from nochmal.store.session import digital_roll

    game = make_game(players, mission)
    st = game.new_state()
    out = []
    while not st.is_terminal():
        if st.is_chance_node():
            nc, nn = game.dice_in_play(st)
            action = digital_roll(game_seed, st.roll_index, nc, nn)
        else:
            action = choose(st, seed, len(out))
        st.apply(action)
        out.append(action_to_json(action))
    return out


def say(text: str) -> None:
    sys.stdout.write(text + "\n")
    sys.stdout.flush()


def main(argv: list[str]) -> int:
    from nochmal.store.session import GameSession
    from nochmal.store.db import ConflictError, GameStore

    db_path, seed, players, mission = argv[1], int(argv[2]), int(argv[3]), int(argv[4])
    retry = "--retry-conflicts" in argv[5:]
    store = GameStore(db_path)
    games = store.list_games()
    if games:
        ses = GameSession.load(store, games[0].game_id)
    else:
        ses = GameSession.create(store, make_game(players, mission), title="crash test", kind="digital",
                                 seed=seed, bots=["random"] * players)
    say(f"game {ses.game_id}")
    while not ses.state.is_terminal():
        try:
            if ses.state.is_chance_node():
                ses.roll_digital(by="writer")
            else:
                ses.record(choose(ses.state, seed, ses.n_events), by="writer")
        except ConflictError:
            if not retry:
                raise
            say("conflict")
            ses.refresh()
            continue
        say(str(ses.n_events))
    say("done")
    store.close()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
