"""twenty one in the app (issue 44, items 4, 5 and 8): the Start page creates a twenty one game
from the registry's words, seats and bots; the Table page plays it (digital dice, the second
attempt, the seats' entries and cross-outs, bots) to the end with the totals and the winner; a
refused entry shows the rule in words (its id only in the "why" detail) and changes nothing; a
fresh app on the same store shows the same position; History lists the game's events in words;
German labels in the game's own words. Each test has its own SQLite store (``env``); AppTest
drives the real app by widget key."""

from __future__ import annotations

from apptools import HISTORY, TABLE, app, env, no_exception, texts  # noqa: F401 (env: the fixture)
from nochmal.data import i18n
from nochmal.engine.twentyone import KEEP, Lot, TwentyOneGame
from nochmal.engine.twentyone.game import CHOOSE, ENTER
from nochmal.store.session import GameSession
from nochmal.ui.twentyone.sheet import sheet_html
from pagegames import load


def host(ses, page=TABLE):
    at = app({"game": ses.game_id, "code": ses.meta["host_code"]})
    at.switch_page(page).run()
    no_exception(at)
    return at


def html_of(at) -> str:
    """The game's HTML on the page: the sheets and the dice."""
    return "".join(h.proto.body for h in at.get("html") if "t21-" in h.proto.body)


def new(env, players=2, bots=None, kind="digital", seed=5) -> GameSession:
    return GameSession.create(env, TwentyOneGame.create(players), kind=kind, seed=seed,
                              seat_names=[f"P{i + 1}" for i in range(players)], bots=bots)


def test_start_offers_the_games_of_the_registry_and_creates_a_twentyone_game_with_bots(env):
    at = app()
    no_exception(at)
    game = at.radio(key="new-game")
    assert list(game.options) == ["Noch mal!", "twenty one"]
    game.set_value("twentyone").run()
    no_exception(at)
    assert at.selectbox(key="t21-players").value == 3
    assert [at.selectbox(key=f"t21-sheet-{i}").value for i in range(3)] == ["A", "B", "C"]
    assert "stand-in" in at.selectbox(key="t21-sheet-0").format_func("A")
    at.selectbox(key="t21-bot-1").set_value("greedy")
    at.selectbox(key="t21-bot-2").set_value("race")
    at.text_input(key="t21-seed").set_value("11")
    at.button(key="t21-create").click().run()
    no_exception(at)
    ses = load(env, at.query_params["game"])
    assert ses.meta["game"] == "twentyone" and ses.meta["kind"] == "digital" and ses.meta["seed"] == 11
    assert ses.meta["bots"] == [None, "greedy", "race"]
    assert [s.id for s in ses.game.sheets] == ["A", "B", "C"]
    assert ses.title == "twenty one, 3 players"
    # the Table page opened: the host's screen with every sheet
    assert at.button(key="t21-lot-btn") is not None
    assert html_of(at).count('class="t21-sheet"') == 3


def test_start_refuses_two_seats_on_one_sheet_and_stores_nothing(env):
    at = app()
    at.radio(key="new-game").set_value("twentyone").run()
    at.selectbox(key="t21-sheet-1").set_value("A").run()
    at.button(key="t21-create").click().run()
    no_exception(at)
    assert any("different sheet" in e for e in texts(at, "error")), texts(at, "error")
    assert env.list_games() == []


def play_human_seat(at, ses, seat=0, limit=200):
    """Play seat ``seat`` through the page (roll, keep, enter the first fitting die or cross out);
    the bots play by themselves. Returns the page at the end."""
    for _ in range(limit):
        ses.refresh()
        gs = ses.state
        if gs.is_terminal():
            return at
        if gs.is_chance_node():
            btn = "t21-lot-btn" if gs.phase == "lot" else "t21-roll-btn"
            at.button(key=btn).click().run()
        elif gs.phase == CHOOSE:
            at.button(key="t21-keep").click().run()
        elif gs.phase == ENTER:
            fits = gs.fits(seat)
            seen = f"{gs.round_index}|{gs.phase}|{gs.first}|{gs.dice}"
            if fits:
                at.pills(key=f"t21-pick-{seat}-{seen}").set_value([fits[0].colour]).run()
                at.button(key=f"t21-enter-{seat}").click().run()
            else:
                at.button(key=f"t21-cross-{seat}").click().run()
        no_exception(at)
    raise AssertionError("the game did not end")


def test_a_person_and_two_bots_play_to_the_end_with_the_totals_and_the_winner(env):
    ses = new(env, players=3, bots=[None, "greedy", "optimum"])
    at = host(ses)
    at = play_human_seat(at, ses)
    ses.refresh()
    assert ses.state.is_terminal()
    out = ses.state.outcome()
    shown = " ".join(texts(at, "markdown"))
    assert "The game is over." in shown
    for r in out.seats:
        assert f"**{r.total}** points" in shown
    assert ("wins!" in shown) == (len(out.winners) == 1)
    page = html_of(at)
    assert page.count('class="t21-sheet"') == 3 and "= " in page  # the scored rows' points
    again = host(ses)  # reload: the same end
    assert " ".join(texts(again, "markdown")) == shown


def refuse_an_unfit_die(env, lang: str):
    """A practice game played from the host page (in ``lang``) until a roll has a die that does not
    fit; that die is tapped and entered. Returns the page, the position and the die."""
    ses = new(env, players=1)
    at = app({"game": ses.game_id, "code": ses.meta["host_code"], "lang": lang})
    at.switch_page(TABLE).run()
    no_exception(at)
    while True:
        ses.refresh()
        gs = ses.state
        if gs.phase == CHOOSE:
            at.button(key="t21-keep").click().run()
            continue
        if gs.is_chance_node():
            at.button(key="t21-roll-btn").click().run()
            continue
        unfit = [c for c in range(6) if c not in {f.colour for f in gs.fits(0)}]
        if unfit:
            break
        at.button(key="t21-cross-0").click().run()  # a roll where every die fits: next round
    before = ses.n_events
    seen = f"{gs.round_index}|{gs.phase}|{gs.first}|{gs.dice}"
    at.pills(key=f"t21-pick-0-{seen}").set_value([unfit[0]]).run()
    at.button(key="t21-enter-0").click().run()
    no_exception(at)
    assert load(env, ses.game_id).n_events == before  # nothing stored
    return at, gs, unfit[0]


def test_a_refused_entry_shows_the_rule_in_words_and_changes_nothing(env):
    at, gs, die = refuse_an_unfit_die(env, "en")
    errors = texts(at, "error")
    from nochmal.ui.twentyone.words import die_colour
    said = f"Not allowed: {die_colour(die)} {gs.dice.faces[die]}: higher than the"
    assert any(e.startswith(said) and "T-" not in e for e in errors), errors
    why = " ".join(c.value for c in at.caption)  # the "Why?" detail: the rule's words and its id
    assert "(rule T-ENTER)" in why and "at most the printed number" in why


def test_a_refused_entry_in_german_is_german_also_in_the_why_detail(env):
    at, gs, die = refuse_an_unfit_die(env, "de")
    errors = texts(at, "error")
    with i18n.using("de"):
        from nochmal.ui.twentyone.words import die_colour
        colour = die_colour(die)
    said = f"Nicht erlaubt: {colour} {gs.dice.faces[die]}: höher als die"
    assert any(e.startswith(said) and "T-" not in e for e in errors), errors
    assert [x.label for x in at.expander if x.label == "Warum?"], [x.label for x in at.expander]
    why = " ".join(c.value for c in at.caption)
    assert "(Regel T-ENTER)" in why and "höchstens die aufgedruckte Zahl" in why, why
    # the engine's English reason is nowhere on the page
    shown = " ".join(errors + [c.value for c in at.caption])
    assert "higher than" not in shown and "printed in its field" not in shown and "engine" not in shown, shown


def test_reload_shows_the_same_position_mid_game(env):
    ses = new(env, players=2, bots=[None, "greedy"])
    at = host(ses)
    at.button(key="t21-lot-btn").click().run()
    for _ in range(4):
        ses.refresh()
        if ses.state.is_chance_node():
            at.button(key="t21-roll-btn").click().run()
        elif ses.state.phase == CHOOSE:
            at.button(key="t21-keep").click().run()
        else:
            at.button(key="t21-cross-0").click().run()
    ses.refresh()
    assert ses.n_events > 3
    first = html_of(at)
    again = host(load(env, ses.game_id))
    assert html_of(again) == first
    assert texts(again, "markdown")[:3] == texts(at, "markdown")[:3]


def test_history_lists_the_game_s_events_in_words(env):
    ses = new(env, players=2)
    ses.roll_digital()
    ses.roll_digital()
    ses.record(KEEP)
    at = host(ses, HISTORY)
    shown = " ".join(texts(at, "markdown"))
    assert "drew the first turn" in shown and "digital dice: white" in shown and "keeps the first attempt" in shown
    active = ses.state.active
    assert at.button(key="hist-undo").label == f"Undo: {active + 1}. P{active + 1} keeps the first attempt"
    rules = at.get("table")[0].proto.arrow_data  # the rules in words: twenty one's, not Noch mal!'s
    assert b"T-ENTER" in rules.data and b"T-ONE-ROW" in rules.data and b"R-ADJ" not in rules.data
    at.button(key="hist-undo").click().run()
    no_exception(at)
    assert load(env, ses.game_id).state.phase == CHOOSE  # the keep is taken back


def test_german_start_form_for_twentyone(env):
    at = app({"lang": "de"})
    at.radio(key="new-game").set_value("twentyone").run()
    no_exception(at)
    assert at.radio(key="t21-kind").options[0].startswith("Digital — die App würfelt")
    assert at.selectbox(key="t21-sheet-0").format_func("A").startswith("Zettel A — ")
    assert at.selectbox(key="t21-bot-0").format_func("human") == "Mensch"
    assert at.button(key="t21-create").label == "Spiel anlegen"


def test_german_labels_in_the_game_s_own_words(env):
    ses = new(env, players=2)
    ses.roll_digital()
    ses.roll_digital()
    at = app({"game": ses.game_id, "code": ses.meta["host_code"], "lang": "de"})
    at.switch_page(TABLE).run()
    no_exception(at)
    labels = {b.key: b.label for b in at.button if b.key}
    assert labels.get("t21-keep") == "Behalten" and labels.get("t21-again") == "Zweiter Versuch", labels
    with i18n.using("de"):
        assert "Zettel A" in sheet_html(ses.state, 0, "P1")
    ses.record(KEEP)
    at = app({"game": ses.game_id, "code": ses.meta["host_code"], "lang": "de"})
    at.switch_page(TABLE).run()
    labels = {b.key: b.label for b in at.button if b.key}
    assert any(v.startswith("Feld") and "streichen" in v for k, v in labels.items() if k.startswith("t21-cross")), labels


def seen_key(gs) -> str:
    return f"{gs.round_index}|{gs.phase}|{gs.first}|{gs.dice}"


def enter_faces(at, gs, faces) -> None:
    for c, f in enumerate(faces):
        w = at.button_group(key=f"t21-face-{c}-{seen_key(gs)}")
        if not w.disabled:
            w.set_value(f)
    at.button(key="t21-roll-btn").click().run()
    no_exception(at)


def test_a_phone_claims_a_seat_and_sees_only_its_own_controls_at_a_real_table(env):
    ses = new(env, players=3, kind="companion", seed=None)
    gid = ses.game_id
    phone = app()
    phone.text_input(key="open-id").set_value(gid)
    phone.text_input(key="open-code").set_value(ses.meta["join_code"])
    [b for b in phone.button if b.label == "Open game"][0].click().run()
    phone.radio(key="claim-seat").set_value(0)
    phone.button(key="claim-seat-btn").click().run()
    no_exception(phone)
    assert phone.query_params.get("seat") == "1" and load(env, gid).meta["claims"]["0"]

    at = host(ses)
    at.selectbox(key="t21-lot-seat").set_value(1)
    at.button(key="t21-lot-btn").click().run()
    ses.refresh()
    assert ses.state.active == 1
    gs = ses.state
    # a physical roll with a face missing is refused in words and stores nothing
    at.button_group(key=f"t21-face-0-{seen_key(gs)}").set_value(1)
    at.button(key="t21-roll-btn").click().run()
    assert any("Enter the face of the black die" in e for e in texts(at, "error")), texts(at, "error")
    assert load(env, gid).n_events == 1
    enter_faces(at, gs, [1, 4, 6, 3, 2, 5])
    ses.refresh()
    assert ses.state.phase == CHOOSE and ses.state.dice.faces == (1, 4, 6, 3, 2, 5)
    at.button(key="t21-again").click().run()
    ses.refresh()
    gs = ses.state
    assert gs.phase == "second"
    assert at.button_group(key=f"t21-face-0-{seen_key(gs)}").disabled  # the 1 stays
    enter_faces(at, gs, [1, 2, 3, 3, 1, 6])
    ses.refresh()
    gs = ses.state
    assert gs.phase == ENTER and gs.dice.faces == (1, 2, 3, 3, 1, 6)
    # the host enters for the seats without a phone; the phone's seat decides on its phone
    assert at.button(key="t21-enter-1") and at.button(key="t21-enter-2")
    assert "t21-enter-0" not in {b.key for b in at.button}
    assert any("enters on their phone" in c.value for c in at.caption)
    assert any("Still to enter" in t for t in texts(at, "markdown"))
    phone.run()
    no_exception(phone)
    assert {b.key for b in phone.button if (b.key or "").startswith("t21-enter")} == {"t21-enter-0"}
    fit = gs.fits(0)[0]
    phone.pills(key=f"t21-pick-0-{seen_key(gs)}").set_value([fit.colour]).run()
    phone.button(key="t21-enter-0").click().run()
    no_exception(phone)
    ses = load(env, gid)
    assert ses.state.seats[0].marks[0][fit.field] == fit.face and 0 not in ses.state.pending
    assert ses.events[-1].by == "seat1"
    assert any("You have entered this round" in c.value for c in phone.caption)
    # the host's screen sees the entry (a reload of the same store)
    again = host(ses)
    assert f'data-mark="{fit.face}"' in html_of(again)


def test_the_host_leaves_the_roll_to_the_active_seat_s_phone_unless_asked(env):
    ses = new(env, players=2, kind="companion", seed=None)
    ses.claim_seat(0, "phone-of-p1")
    ses.record(Lot(0))
    at = host(ses)
    assert "t21-roll-btn" not in {b.key for b in at.button}
    assert any("Waiting for 1. P1 to roll" in i.value for i in at.info), texts(at, "info")
    at.toggle(key="t21-enter-phones").set_value(True).run()
    no_exception(at)
    assert at.button(key="t21-roll-btn").label == "Enter the roll"


def test_a_seat_s_focus_ignores_the_other_seats_entries_of_the_round(env):
    """A phone whose player is tapping dice is not run again by another seat's entry (the
    follower's version is the seat's focus while it decides); its own entry changes it."""
    from nochmal.ui.focus import seat_focus

    ses = new(env, players=3)
    ses.roll_digital()
    ses.roll_digital()
    a = ses.state.active
    assert seat_focus(ses.state, a) is not None and seat_focus(ses.state, (a + 1) % 3) is None  # keep or again
    ses.record(KEEP)
    seats = list(ses.state.pending)
    before = seat_focus(ses.state, seats[2])
    ses.record(ses.state.legal_actions(seats[0])[-1], seat=seats[0])  # another seat crosses out
    assert before is not None and seat_focus(ses.state, seats[2]) == before
    assert seat_focus(ses.state, seats[0]) is None  # done this round
    ses.record(ses.state.legal_actions(seats[2])[-1], seat=seats[2])
    assert seat_focus(ses.state, seats[2]) is None


def test_start_refuses_a_bad_starting_number_and_shows_the_open_game_box_after_creation(env):
    at = app()
    at.radio(key="new-game").set_value("twentyone").run()
    at.text_input(key="t21-seed").set_value("12abc")
    at.button(key="t21-create").click().run()
    no_exception(at)
    assert any("whole number" in e and "12abc" in e for e in texts(at, "error")), texts(at, "error")
    assert env.list_games() == []
    at.text_input(key="t21-seed").set_value("")
    at.button(key="t21-create").click().run()
    no_exception(at)
    gid = at.query_params["game"]
    at.switch_page("nochmal/ui/pages/start.py").run()  # the Start page with the twenty one game open
    no_exception(at)
    assert any("Open game:" in t and "twenty one, 3 players" in t for t in texts(at, "markdown"))
    assert load(env, gid).meta["game"] == "twentyone"
    at.button(key="close-game").click().run()  # closed: listed to resume on this device
    no_exception(at)
    assert any("twenty one, 3 players" in t for t in texts(at, "markdown"))
    at.button(key=f"top-resume-{gid}").click().run()
    no_exception(at)
    assert at.query_params["game"] == gid and at.button(key="t21-lot-btn")


def test_a_game_of_bots_only_plays_itself_to_the_end_on_the_host_screen(env):
    ses = new(env, players=4, bots=["random", "greedy", "race", "optimum"])
    at = host(ses)
    ses.refresh()
    assert ses.state.is_terminal()
    assert {e.by for e in ses.events} >= {"dice", "bot:random", "bot:greedy", "bot:race", "bot:optimum"}
    assert "The game is over." in " ".join(texts(at, "markdown"))


def test_the_active_seat_s_phone_enters_the_physical_roll_and_keeps_it(env):
    ses = new(env, players=2, kind="companion", seed=None)
    code = ses.claim_seat(0, "phone-of-p1")
    ses.record(Lot(0))
    phone = app({"game": ses.game_id, "code": code, "seat": "1"})
    phone.switch_page(TABLE).run()
    no_exception(phone)
    gs = ses.state
    enter_faces(phone, gs, [6, 5, 4, 3, 2, 1])
    ses.refresh()
    assert ses.state.phase == CHOOSE and ses.events[-1].by == "seat1" and ses.events[-1].source == "entered"
    phone.button(key="t21-keep").click().run()
    no_exception(phone)
    ses.refresh()
    assert ses.state.phase == ENTER and ses.events[-1].type == "keep"
    assert {b.key for b in phone.button if (b.key or "").startswith("t21-enter")} == {"t21-enter-0"}
