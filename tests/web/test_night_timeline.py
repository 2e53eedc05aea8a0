"""Game night's timeline of a finished game (issue 14.1) through the test client: refused
mid-game on every screen, opened (and the game closed) by the tablet or a phone, drawn lane by
lane; a TV on it follows the table."""

from __future__ import annotations

import re

from tablekit import (
    Table,
    csrf_of,
    finished_game,
    seated_table,
    snapshot,
    started_table,
    version_of,
    watch_link,
)

# -- the timeline -----------------------------------------------------------------------------


def test_timeline_is_refused_until_the_game_is_over(app):
    t = started_table(app, {"Ann": ["duke", "captain"], "Bob": ["contessa", "assassin"]})
    assert t.post("/step", {"do": "tax", "by": "Ann"}).status_code == 200
    before = snapshot(app)
    for client, path in ((t.tablet, t.url), (t.phone("Ann"), t.link("Ann")),
                         (app.test_client(), watch_link(t))):
        response = client.get(path + "/timeline")
        assert response.status_code == 409
        assert "opens once the game is over" in response.text
        assert "captain" not in response.text.lower()
    html = t.page()
    refused = t.tablet.post(t.url + "/timeline", data={"csrf": csrf_of(html),
                                                       "version": version_of(html)})
    assert refused.status_code == 409
    assert t.phone_post("Bob", "/timeline", {}).status_code == 409
    assert snapshot(app) == before  # nothing was closed or written
    assert "Who bluffed when" not in t.page()


def buttons(html: str) -> list[str]:
    return re.findall(r'<a class="button[^"]*" href="([^"]+)"', html)


def test_refusal_pages_lead_each_device_back_to_its_own_screen(app):
    """Issue 14 (outside tester): the mid-game timeline refusal leads the phone to its seat and
    the TV to its board, never to the start page (the referee's New table form); the tablet's
    leads to the tablet."""
    t = started_table(app, {"Ann": ["duke", "captain"], "Bob": ["contessa", "assassin"]})
    tv = watch_link(t)
    for client, path in ((t.tablet, t.url), (t.phone("Ann"), t.link("Ann")),
                         (app.test_client(), tv)):
        page = client.get(path + "/timeline").text
        assert buttons(page) == [path], page
        assert "Start page" not in page and "New table" not in page
    assert buttons(t.phone_post("Bob", "/timeline", {}).text) == [t.link("Bob")]


def test_the_old_phone_of_a_no_phone_seat_is_led_to_its_seat_only(app):
    """Its refused tap offers to look at the seat again (it may come back to a phone), not the
    start page; its screen has no form at all (the language form was a dead end)."""
    t = seated_table(app, ["Ann", "Dan"])
    dan, link = t.phones["Dan"], t.link("Dan")
    csrf = csrf_of(dan.get(link).text)
    assert t.post("/seat/1/tracked", {"tracked": "0"}).status_code == 200
    screen = dan.get(link).text
    assert "played on the tablet" in screen and "<form" not in screen
    refused = dan.post(link + "/language", data={"language": "ru", "csrf": csrf})
    assert refused.status_code == 403
    assert buttons(refused.text) == [link] and "Check again" in refused.text
    assert "Start page" not in refused.text
    stranger = app.test_client().get(link)  # another device: nothing to offer, no start page
    assert stranger.status_code == 403 and buttons(stranger.text) == []


def test_opening_the_timeline_closes_the_game_then_shows_every_lane(app):
    t = finished_game(app)
    assert "Who bluffed when" in t.page()
    first = t.tablet.get(t.url + "/timeline")
    assert first.status_code == 200 and "closes this game for good" in first.text
    assert not t.live().closed
    html = t.page()
    opened = t.tablet.post(t.url + "/timeline", data={"csrf": csrf_of(html),
                                                      "version": version_of(html)})
    assert opened.status_code == 303
    assert t.live().closed  # no undo can reopen a game whose hands were shown
    page = t.tablet.get(t.url + "/timeline").text
    bands = page.count('<table class="lanes">')  # eight turns a band (issue 14.1)
    assert bands == 2 and page.count('<tr class="lane') == 2 * bands
    assert "Ann won this game." in page
    assert 'class="chip claim held"' in page  # Ann's taxes: she held the Duke
    assert "✝" in page  # Bob's lost influence
    undo = t.post("/undo", {})
    assert undo.status_code == 422 and "timeline of this game was opened" in undo.text
    # Issue 14 (outside tester): the greyed Undo says why, and so does the winner's screen
    button = re.search(r"<button[^>]*disabled>Undo(.*?)</button>", t.page(), re.S)
    assert button and "the timeline closed the game" in button.group(1)
    assert "The timeline was opened: this game is closed" in t.page()
    assert "record was downloaded" not in t.page()
    # the phones and the spectators see it too, now
    assert t.phone("Bob").get(t.link("Bob") + "/timeline").status_code == 200
    assert app.test_client().get(watch_link(t) + "/timeline").status_code == 200


def test_the_timeline_s_words_say_what_happened(app):
    """Issue 14.7: "0 of 1 claim" (a plural), a challenge's own marks (not the bluff's ✗), a
    concession counted as "challenged and not shown" rather than "bluffs caught", and the
    mid-game refusal leads back to the game."""
    t = started_table(app, {"Ann": ["duke", "captain"], "Bob": ["contessa", "assassin"]})
    mid = t.tablet.get(t.url + "/timeline")
    assert mid.status_code == 409
    assert f'href="{t.url}"' in mid.text and "Back to the game" in mid.text
    phone = t.phone("Bob").get(t.link("Bob") + "/timeline").text
    assert f'href="{t.link("Bob")}"' in phone and "Back to the game" in phone
    assert t.post("/step", {"do": "tax", "by": "Ann"}).status_code == 200
    assert t.post("/step", {"do": "challenge", "by": "Bob"}).status_code == 200
    assert t.phone_step("Ann", do="concede").status_code == 200  # she held the Duke
    assert t.phone_step("Ann", do="lose", card="captain").status_code == 200
    play_out(t)
    assert t.live().game.over
    assert t.phone_post("Bob", "/timeline", {}).status_code == 303
    page = t.tablet.get(t.url + "/timeline").text
    assert "0 of 1 claim<" in page and "of 1 claims" not in page
    assert "Challenged and not shown" in page and "Bluffs caught" not in page
    # a mark and what it marks never part: a no-break space between them
    assert '<span class="chip challenge right">⚔\u00a0▲ Ann</span>' in page
    for wrong in ("⚔ ✗", "⚔ ✓", "⚔\u00a0✗", "⚔\u00a0✓"):
        assert wrong not in page


def play_out(t: Table) -> None:
    """Income, or a coup on the other player at 7 coins, until the game is over."""
    from app.engine import pending

    for _step in range(100):
        game = t.live().game
        assert game is not None
        if game.over:
            return
        prompt = pending(game)[0]
        me = game.player(prompt.player)
        if prompt.kind == "declare":
            other = next(p.name for p in game.players if p.name != me.name and not p.out)
            step = {"do": "coup", "by": me.name, "target": other} if me.coins >= 7 else \
                {"do": "income", "by": me.name}
            assert t.post("/step", step).status_code == 200
        else:
            assert me.hand is not None, prompt
            assert t.phone_step(me.name, do=prompt.kind, card=me.hand[0]).status_code == 200


def test_every_timeline_page_follows_the_table_by_itself(app):
    """Issue 14 (outside check): a timeline page listens to the table's stream (versions only)
    and asks for itself again (``drawn``): the waiting page turns into the timeline once it is
    opened, and a timeline drawn at the winner's screen goes back to the live screen when the
    rematch's lobby opens, on the TV, the tablet and a phone alike. No page polls."""
    t = finished_game(app)
    tv = app.test_client()
    link = watch_link(t)
    pages = ((tv, link), (t.tablet, t.url), (t.phone("Bob"), t.link("Bob")))
    waiting = tv.get(link + "/timeline").text
    assert 'data-shows="opening"' in waiting
    assert f'data-again="{link}/timeline?drawn=game"' in waiting
    assert f'data-events="{link}/timeline/events?since={version_of(t.page())}"' in waiting
    assert "http-equiv" not in waiting
    assert t.phone_post("Bob", "/timeline", {}).status_code == 303
    for client, base in pages:
        shown = client.get(base + "/timeline?drawn=game")
        assert shown.status_code == 200
        assert 'data-shows="timeline"' in shown.text and "<table class=\"lanes\">" in shown.text
        assert "http-equiv" not in shown.text
    assert t.post("/rematch", {}).status_code == 200
    for client, base in pages:
        back = client.get(base + "/timeline?drawn=game")  # drawn before the rematch
        assert back.status_code == 303
        assert back.headers["Location"] == base
        opened_now = client.get(base + "/timeline")  # opened in the lobby: it stays
        assert opened_now.status_code == 200
        assert f'data-again="{base}/timeline?drawn=lobby"' in opened_now.text
        assert client.get(base + "/timeline?drawn=lobby").status_code == 200
    for name, hand in (("Ann", ["duke", "captain"]), ("Bob", ["contessa", "assassin"])):
        t.enter_hand(name, hand)
    assert t.post("/start", {}).status_code == 200
    for client, base in pages:
        assert client.get(base + "/timeline?drawn=lobby").headers["Location"] == base
    moved_on = tv.get(link + "/timeline")
    assert moved_on.status_code == 409
    assert f'<meta http-equiv="refresh" content="2;url={link}">' in moved_on.text
    assert "captain" not in moved_on.text.lower()


def test_the_timeline_streams_carry_versions_only_and_only_to_their_own(app):
    t = finished_game(app)
    stranger = app.test_client()
    assert stranger.get(t.url + "/timeline/events").status_code in (403, 404)
    assert stranger.get(t.link("Bob") + "/timeline/events").status_code in (403, 404)
    assert stranger.get(watch_link(t) + "x/timeline/events").status_code == 404


def test_a_phone_may_open_the_timeline_and_others_cannot_post_for_it(app):
    t = finished_game(app)
    assert t.phone_post("Bob", "/timeline", {}).status_code == 303
    assert t.live().closed
    stranger = app.test_client()
    assert stranger.get(t.link("Ann") + "/timeline").status_code == 403
    assert stranger.post(t.url + "/timeline").status_code == 403


def test_a_bluff_is_drawn_as_a_bluff_and_caught(app):
    t = started_table(app, {"Ann": ["duke", "captain"], "Bob": ["contessa", "assassin"]})
    assert t.post("/step", {"do": "steal", "by": "Ann", "target": "Bob"}).status_code == 200
    assert t.post("/step", {"do": "pass"}).status_code == 200
    assert t.post("/step", {"do": "block", "by": "Bob", "as": "captain"}).status_code == 200
    assert t.post("/step", {"do": "challenge", "by": "Ann"}).status_code == 200
    assert t.phone_step("Bob", do="concede").status_code == 200
    assert t.phone_step("Bob", do="lose", card="contessa").status_code == 200
    state = t.live()
    from app.engine.story import story

    told = story(state.game)
    assert told.tallies["Bob"].bluffs == 1 and told.tallies["Bob"].caught == 1
    assert told.tallies["Ann"].challenges_won == 1


def test_a_download_closes_the_game_and_undo_says_so(app):
    """The other way a game closes: its greyed Undo names the download, not the timeline."""
    t = finished_game(app)
    assert t.download().status_code == 200
    page = t.page()
    button = re.search(r"<button[^>]*disabled>Undo(.*?)</button>", page, re.S)
    assert button and "the download closed the game" in button.group(1)
    assert "record was downloaded" in page and "timeline was opened" not in page
    undo = t.post("/undo", {})
    assert undo.status_code == 422 and "record of this game was downloaded" in undo.text
