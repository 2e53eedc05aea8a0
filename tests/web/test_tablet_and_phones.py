"""The tablet and phones through the Flask test client: set up, seat, play, undo, rematch.
Who may see and do what is tested in tests/security."""

from __future__ import annotations

from tablekit import HTMX, Table, csrf_of, seated_table, version_of
from werkzeug.datastructures import MultiDict


def test_a_new_table_shows_a_code_per_seat_and_no_cards(table: Table):
    html = table.page()
    assert html.count("<svg") == 3
    assert "Seat the players" in html
    assert table.tablet.get(table.url + "/view?since=0").status_code == 200


def test_the_tablet_shows_which_seats_have_entered_a_hand(table: Table):
    assert table.enter_hand("Ann", ["duke", "captain"]).status_code == 200
    html = table.page()
    assert html.count("hand entered") == 1
    assert "duke" not in html.lower().replace("card-duke", "")


def test_an_impossible_hand_is_refused_with_the_reason(table: Table):
    response = table.enter_hand("Ann", ["duke", "inquisitor"])
    assert response.status_code == 422
    assert "Choose the two cards you were dealt." in response.text


def test_the_game_starts_only_when_every_hand_is_in(table: Table):
    table.enter_hand("Ann", ["duke", "captain"])
    response = table.post("/start", {})
    assert response.status_code == 422
    assert "Still waiting for the hands of: Bob, Cy." in response.text


def test_too_many_copies_across_hands_are_refused_without_naming_anyone(table: Table):
    table.enter_hand("Ann", ["duke", "duke"])
    table.enter_hand("Bob", ["duke", "duke"])
    table.enter_hand("Cy", ["captain", "captain"])
    response = table.post("/start", {})
    assert response.status_code == 422
    assert "more copies of a card than the deck" in response.text


def test_a_seat_without_a_phone_is_untracked(app):
    t = seated_table(app, ["Ann", "Bob", "Cy"])
    html = t.page()
    forms = html.split('/seat/2/tracked')
    assert len(forms) > 1
    response = t.post("/seat/2/tracked", {"tracked": "0"})
    assert response.status_code == 200 and "No phone: untracked" in response.text
    t.enter_hand("Ann", ["duke", "captain"])
    t.enter_hand("Bob", ["contessa", "assassin"])
    assert t.post("/start", {}).status_code == 200
    assert "Ann’s turn" in t.page()


def test_a_challenged_tax_played_on_tablet_and_phones(started: Table):
    t = started
    assert "Ann’s turn" in t.page()
    assert t.step(do="tax", by="Ann").status_code == 200
    assert "Does anyone challenge Ann’s Duke?" in t.page()
    assert t.step(do="challenge", by="Bob").status_code == 200
    phone = t.phone_page("Ann")
    assert "Bob challenges your Duke." in phone and "You hold the Duke." in phone
    assert "You hold" not in t.phone_page("Bob")
    assert t.phone_step("Ann", do="prove").status_code == 200
    assert t.phone_step("Ann", do="draw", cards="contessa").status_code == 200
    assert t.phone_step("Bob", do="lose", card="assassin").status_code == 200
    html = t.page()
    assert "Bob’s turn" in html
    assert "Ann shows the Duke, so Bob loses an influence." in html




def test_a_stale_form_gets_the_fresh_view_and_changes_nothing(started: Table):
    t = started
    old = t.version()
    assert t.step(do="income", by="Ann").status_code == 200
    response = t.post("/step", {"do": "income", "by": "Bob"}, version=old)
    assert response.status_code == 409
    assert "The table moved on before your tap" in response.text
    assert "Bob’s turn" in t.page()


def test_a_double_tap_is_applied_once(started: Table):
    t = started
    v = t.version()
    first = t.post("/step", {"do": "income", "by": "Ann"}, version=v)
    second = t.post("/step", {"do": "income", "by": "Ann"}, version=v)
    assert (first.status_code, second.status_code) == (200, 409)
    assert t.steps() == [{"do": "income", "by": "Ann"}]


def test_a_steps_form_is_read_by_its_first_value_of_each_field_and_nothing_else(started: Table):
    """A field sent twice counts once (its first value); a field the step has no use for, or
    one it leaves out, changes nothing (the tablet's step() reads the form in one pass)."""
    t = started
    html = t.page()
    form = [("csrf", csrf_of(html)), ("version", version_of(html)), ("do", "steal"),
            ("by", "Ann"), ("target", "Bob"), ("target", "Cy"), ("do", "income"),
            ("card", ""), ("colour", "red")]
    answer = t.tablet.post(t.url + "/step", data=MultiDict(form), headers=HTMX)
    assert answer.status_code == 200
    assert t.steps() == [{"do": "steal", "by": "Ann", "target": "Bob"}]
    wrong = t.tablet.post(t.url + "/step", headers=HTMX, data=MultiDict(
        [("csrf", csrf_of(answer.text)), ("version", version_of(answer.text)), ("by", "Bob")]))
    assert wrong.status_code == 400 and len(t.steps()) == 1  # no step named: not understood


def test_an_illegal_declaration_says_why(started: Table):
    response = started.step(do="coup", by="Ann", target="Bob")
    assert response.status_code == 422
    assert "Ann can’t declare the Coup: it costs 7 coins and Ann has 2 (E-15)." in response.text


def test_illegal_actions_are_shown_disabled_with_the_reason(started: Table):
    html = started.page()
    assert "needs 7 coins" in html and "disabled" in html


def test_undo_takes_back_the_last_step(started: Table):
    t = started
    t.step(do="income", by="Ann")
    assert "Bob’s turn" in t.page()
    assert t.post("/undo", {}).status_code == 200
    html = t.page()
    assert "Ann’s turn" in html
    assert "Undone by the referee: Ann: Income" in html
    assert t.steps() == []
    assert t.post("/undo", {}).status_code == 422


def test_undo_goes_back_more_than_one_step(started: Table):
    t = started
    t.step(do="income", by="Ann")
    t.step(do="tax", by="Bob")
    assert t.post("/undo", {}).status_code == 200
    assert t.post("/undo", {}).status_code == 200
    html = t.page()
    assert "Ann’s turn" in html and "Bob: Tax" in html and "Ann: Income" in html
    assert 'hx-confirm="Undo the last step?"' in html



def test_the_downloaded_record_of_a_finished_game_replays(app, tmp_path):
    from app.records import load, replay

    t = seated_table(app, ["Ann", "Bob"])
    t.enter_hand("Ann", ["duke", "captain"])
    t.enter_hand("Bob", ["contessa", "assassin"])
    t.post("/start", {})
    t.step(do="tax", by="Ann")
    t.step(do="challenge", by="Bob")
    t.phone_step("Ann", do="concede")
    t.phone_step("Ann", do="lose", card="captain")
    for _ in range(5):
        t.step(do="income", by="Bob")
        t.step(do="income", by="Ann")
    t.step(do="coup", by="Bob", target="Ann")
    assert "Bob wins!" in t.page()
    path = tmp_path / "game.json"
    path.write_bytes(t.download().data)
    outcome = replay(load(path))
    assert outcome.failure is None and outcome.game.winner == "Bob"


def test_a_double_assassination(started: Table):
    t = started
    for by in ("Ann", "Bob", "Cy"):
        t.step(do="income", by=by)
    t.step(do="assassinate", by="Ann", target="Bob")  # Ann bluffs an Assassin with 3 coins
    assert t.step(do="pass").status_code == 200
    assert "Bob blocks with the Contessa" in t.page()
    t.step(do="block", by="Bob", **{"as": "contessa"})
    t.step(do="challenge", by="Ann")
    assert t.phone_step("Bob", do="prove").status_code == 200
    t.phone_step("Bob", do="draw", cards="duke")
    t.phone_step("Ann", do="lose", card="captain")
    html = t.page()
    assert "The Assassinate is blocked; the 3 coins paid stay spent." in html


def test_a_game_to_its_winner_and_a_rematch(app):
    t = seated_table(app, ["Ann", "Bob"])
    t.enter_hand("Ann", ["duke", "captain"])
    t.enter_hand("Bob", ["contessa", "assassin"])
    t.post("/start", {})
    for _round in range(3):
        t.step(do="tax", by="Ann")
        t.step(do="pass")
        t.step(do="income", by="Bob")
    # Ann: 1 + 9 = 10 coins: she must Coup.
    html = t.page()
    assert "10 coins: Coup only" in html
    t.step(do="coup", by="Ann", target="Bob")
    t.phone_step("Bob", do="lose", card="assassin")
    t.step(do="income", by="Bob")
    for _round in range(2):
        t.step(do="tax", by="Ann")
        t.step(do="pass")
        t.step(do="income", by="Bob")
    t.step(do="coup", by="Ann", target="Bob")
    html = t.page()
    assert "Ann wins!" in html
    assert "You win!" in t.phone_page("Ann") and "Ann wins." in t.phone_page("Bob")
    assert t.post("/rematch", {}).status_code == 200
    html = t.page()
    assert "Seat the players" in html
    assert "Enter the two cards you were dealt" in t.phone_page("Bob")
    t.enter_hand("Ann", ["duke", "captain"])
    t.enter_hand("Bob", ["contessa", "assassin"])
    t.post("/start", {})
    assert "Ann’s turn" in t.page()




def test_unknown_tables_and_seats_are_clear_404s(app):
    client = app.test_client()
    assert client.get("/t/nope").status_code == 404
    assert client.get("/s/" + "x" * 32).status_code == 404
    assert client.post("/s/" + "x" * 32 + "/step", data={}).status_code == 404



def test_the_rules_summary_is_one_tap_away(started: Table):
    assert "This game’s rules" in started.tablet.get(started.url + "/rules").text
    phone = started.phone("Ann").get(started.links["Ann"] + "/rules")
    assert phone.status_code == 200 and "Coins in the box" in phone.text


def test_nothing_changed_answers_204(started: Table):
    v = started.version()
    assert started.tablet.get(f"{started.url}/view?since={v}").status_code == 204
    response = started.phone("Ann").get(f"{started.links['Ann']}/view?since={v}")
    assert response.status_code == 204



def test_the_tablet_never_shows_a_hidden_card(started: Table):
    html = started.page()
    for card in ("Duke", "Captain", "Contessa", "Assassin", "Ambassador"):
        assert f"card-{card.lower()}" not in html




def test_two_players_choose_their_hands_from_sets_of_five(app):
    t = seated_table(app, ["Ann", "Bob"], two_player_setup="choose_hand")
    phone = t.phone_page("Ann")
    assert "The card you kept from your own set" in phone
    assert "The card dealt to you from the shared set" in phone
    t.enter_hand("Ann", ["duke", "captain"])       # kept a Duke, dealt a Captain
    t.enter_hand("Bob", ["contessa", "captain"])   # the same dealt card: impossible
    response = t.post("/start", {})
    assert response.status_code == 422 and "must be different characters" in response.text
    t.enter_hand("Bob", ["contessa", "assassin"])
    assert t.post("/start", {}).status_code == 200
    game = t.live().game
    assert game.deck_size == 3 and sorted(game.setup["court_deck"]) == [
        "ambassador", "contessa", "duke"]
    assert (game.player("Ann").coins, game.player("Bob").coins) == (1, 2)


def test_choosing_hands_is_for_two_players_only(app):
    client = app.test_client()
    data = {"csrf": csrf_of(client.get("/").text), "players": "Ann\nBob\nCy",
            "two_player_setup": "choose_hand"}
    response = client.post("/tables", data=data)
    assert response.status_code == 422 and "two players only" in response.text
