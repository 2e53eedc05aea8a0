"""The table always knows who must act (issue 13): the seats the table waits for are marked,
the phone asked says "It's you" in the second person, a targeted player is told who aims at
them and what they may do, an undo is named and every screen told, rule codes link to their
explanation, and players may answer on their own phones where the table allows it."""

from __future__ import annotations

import re

from flask import Flask
from tablekit import Table, alert, csrf_of, started_table

HANDS = {"Ann": ["duke", "captain"], "Bob": ["contessa", "assassin"],
         "Cy": ["ambassador", "captain"]}


def seat_classes(html: str, name: str) -> str:
    found = re.search(r'<li class="seat ([^"]*)">\s*<h2>' + name + r"\b", html)
    assert found, name
    return found.group(1)


def test_the_seats_the_table_waits_for_are_marked(started: Table):
    t = started
    html = t.page()
    assert "acting" in seat_classes(html, "Ann") and "acting" not in seat_classes(html, "Bob")
    t.step(do="steal", by="Ann", target="Bob")
    html = t.page()
    # Anyone may challenge the Captain: Bob and Cy, not Ann.
    assert "acting" not in seat_classes(html, "Ann")
    assert "acting" in seat_classes(html, "Bob") and "acting" in seat_classes(html, "Cy")
    assert html.count("Waiting for them") == 2
    # The waiting line comes first in the prompt region, above the claim.
    prompt = html[html.index('<section id="prompt"'):]
    assert prompt.index('class="waiting"') < prompt.index('class="claim"')


def test_the_targeted_phone_says_who_aims_at_them_and_what_they_may_do(started: Table):
    t = started
    t.step(do="steal", by="Ann", target="Bob")
    bob = alert(t.phone_page("Bob"))
    assert "It’s you" in bob and "data-buzz" in bob
    assert "Ann targets you with the Steal." in bob
    assert "You may challenge Ann’s Captain." in bob
    cy = alert(t.phone_page("Cy"))
    assert "It’s you" not in cy and "data-buzz" not in cy and "targets you" not in cy
    assert "You may challenge Ann’s Captain." in cy
    t.step(do="pass")  # nobody challenges: Bob may block
    bob = alert(t.phone_page("Bob"))
    assert "You may block it by claiming the Captain / Ambassador." in bob
    assert "It’s you" in bob


def test_the_phone_whose_turn_it_is_is_told(started: Table):
    ann = alert(started.phone_page("Ann"))
    assert "It’s you" in ann and "Your turn: choose your action." in ann
    assert "hidden" in alert(started.phone_page("Bob")).split(">")[0]


def test_a_private_step_alerts_its_phone(started: Table):
    t = started
    t.step(do="tax", by="Ann")
    t.step(do="challenge", by="Bob")
    ann = alert(t.phone_page("Ann"))
    assert "It’s you" in ann and "data-buzz" in ann


def test_the_undo_names_its_step_and_every_phone_is_told(started: Table):
    t = started
    t.step(do="income", by="Ann")
    question = "Undo the last step (“Ann takes 1 coin (Income)”)? Every screen will be told."
    assert question in t.page()
    t.post("/undo", {})
    for name in ("Ann", "Bob", "Cy"):
        assert "The referee undid: Ann: Income" in t.phone_page(name)
    t.step(do="tax", by="Ann")
    t.step(do="pass")
    assert "The referee undid" not in t.phone_page("Bob")


def test_the_undo_line_sits_in_order_among_the_rulings(started: Table):
    t = started
    t.step(do="income", by="Ann")
    t.post("/undo", {})
    t.step(do="tax", by="Ann")
    t.step(do="pass")
    html = t.page()
    log = html[html.index('<section id="log"'):]
    undone = log.index("Undone by the referee: Ann: Income")
    newer = log.index("Nobody challenges.")
    assert newer < undone  # newest first: the later ruling is above the undo


def test_the_phone_log_numbers_rulings_as_the_tablet_does(started: Table):
    t = started
    for _ in range(3):
        for name in ("Ann", "Bob", "Cy"):
            t.step(do="income", by=name)
    tablet = re.findall(r'<span class="n">(\d+)\.</span>', t.page())
    phone = re.findall(r'<span class="n">(\d+)\.</span>', t.phone_page("Bob"))
    assert phone and phone == tablet[:len(phone)]


def test_rule_codes_link_to_their_explanation(started: Table):
    t = started
    for name in ("Ann", "Bob", "Cy"):
        t.step(do="income", by=name)
    t.step(do="assassinate", by="Ann", target="Bob")  # Bob's challenge risks two cards (E-1)
    html = t.phone_page("Bob")
    codes = re.findall(r'<a class="rule" href="([^"]+)#(E-\d+)">\2</a>', html)
    assert codes
    for href, code in codes:
        page = (t.phones["Bob"] if "/s/" in href else t.tablet).get(href)
        assert page.status_code == 200 and f'id="{code}"' in page.text
    assert '<span class="rule">' not in t.page()


def test_an_embezzle_claims_no_duke_on_every_screen(app: Flask):
    t = started_table(app, HANDS, reformation="true")
    html = t.page()
    assert "no Duke" in html  # the declare button's note
    assert re.search(r"Embezzle\s*<small>\s*Duke", html) is None
    t.step(do="embezzle", by="Ann")
    html = t.page()
    assert "Ann: Embezzle (no Duke)" in html
    assert "(Duke)" not in html


def test_phones_show_every_players_side_in_reformation(app: Flask):
    t = started_table(app, HANDS, reformation="true")
    phone = t.phone_page("Ann")
    others = phone[phone.index('class="others"'):]
    assert others.count("faction faction-") == 2


def test_a_phone_answers_for_its_own_seat_when_the_table_allows(started: Table):
    t = started
    ann = t.phone_page("Ann")
    assert 'name="do" value="income"' in ann  # Ann declares from her phone
    assert t.phone_step("Ann", do="steal", target="Bob").status_code == 200
    assert 'name="do" value="challenge"' in t.phone_page("Cy")
    assert t.phone_step("Cy", do="pass").status_code == 200  # Cy lets it stand for himself
    assert t.phone_step("Bob", do="pass").status_code == 200  # the last one: no challenge
    bob = t.phone_page("Bob")
    assert 'name="do" value="block"' in bob
    assert t.phone_step("Bob", do="block", **{"as": "captain"}).status_code == 200
    assert t.steps()[-1] == {"do": "block", "by": "Bob", "as": "captain"}


def test_two_answers_to_one_question_apply_once(started: Table):
    t = started
    t.step(do="tax", by="Ann")
    v = t.version()
    bob = t.phone_step("Bob", version=v, do="challenge")
    tablet = t.post("/step", {"do": "pass"}, version=v)
    assert (bob.status_code, tablet.status_code) == (200, 409)
    assert t.steps()[-1] == {"do": "challenge", "by": "Bob"}


def test_a_phone_cannot_answer_for_another_seat_or_out_of_turn(started: Table):
    t = started
    for data in ({"do": "income"}, {"do": "pass"}, {"do": "challenge"},
                 {"do": "block", "as": "duke"}):
        response = t.phone_step("Bob", **data)
        assert response.status_code == 422, data
    assert t.steps() == []


def test_a_tablet_only_table_keeps_the_phones_to_their_private_steps(app: Flask):
    t = started_table(app, HANDS, answers="tablet")
    ann = t.phone_page("Ann")
    assert 'name="do" value="income"' not in ann
    assert "Say it at the table" in ann
    assert t.phone_step("Ann", do="income").status_code == 422
    assert t.step(do="income", by="Ann").status_code == 200


def test_an_unknown_answers_choice_is_refused(client):
    home = client.get("/").text
    response = client.post("/tables", data={"csrf": csrf_of(home), "players": "A\nB",
                                            "answers": "everyone"})
    assert response.status_code == 422
    assert "Unknown choice of who answers." in response.text


def test_the_exchange_of_one_card_is_a_single_choice(app: Flask):
    t = started_table(app, {"Ann": ["ambassador", "duke"], "Bob": ["contessa", "assassin"],
                            "Cy": ["captain", "captain"]})
    t.step(do="exchange", by="Ann")
    t.step(do="pass")
    t.phone_step("Ann", do="draw", cards=["duke", "contessa"])
    html = t.phone_page("Ann")
    assert 'type="checkbox" name="cards"' in html  # two cards kept: tick each
    assert 'data-keep="keep-' in html


def test_a_disabled_give_back_says_why(app: Flask):
    t = started_table(app, {"Ann": ["inquisitor", "duke"], "Bob": ["contessa", "assassin"],
                            "Cy": ["captain", "captain"]},
                      exchanger="inquisitor", examine_swap="mandatory")
    t.step(do="examine", by="Ann", target="Bob")
    t.step(do="pass")
    t.phone_step("Bob", do="show", card="contessa")
    html = t.phone_page("Ann")
    assert "a card shown is always replaced, never given back" in html


def test_a_saved_hand_is_not_shown_ticked_in_the_lobby(table: Table):
    table.enter_hand("Ann", ["duke", "captain"])
    html = table.phone_page("Ann")
    assert "checked" not in html


def bobs_tax_challenged(app: Flask) -> Table:
    """Ann takes Income, Bob claims the Duke for Tax, Ann challenges: Bob (who holds it) is
    asked to prove or concede."""
    t = started_table(app, {"Ann": ["ambassador", "captain"], "Bob": ["duke", "contessa"],
                            "Cy": ["assassin", "assassin"]})
    t.step(do="income", by="Ann")
    t.step(do="tax", by="Bob")
    t.step(do="challenge", by="Ann")
    return t


def test_the_exchange_of_a_last_card_is_a_single_choice(app: Flask):
    t = bobs_tax_challenged(app)
    assert t.phone_step("Bob", do="prove").status_code == 200
    assert t.phone_step("Bob", do="draw", cards="duke").status_code == 200
    assert t.phone_step("Ann", do="lose", card="captain").status_code == 200
    t.step(do="income", by="Cy")
    t.step(do="exchange", by="Ann")
    t.step(do="pass")
    assert t.phone_step("Ann", do="draw", cards=["contessa", "captain"]).status_code == 200
    html = t.phone_page("Ann")
    assert html.count('type="radio" name="cards"') == 3 and 'type="checkbox"' not in html


def test_a_phone_hears_its_own_mistakes_in_the_second_person(app: Flask):
    t = started_table(app, {"Ann": ["ambassador", "duke"], "Bob": ["contessa", "assassin"],
                            "Cy": ["captain", "captain"]})
    t.step(do="exchange", by="Ann")
    t.step(do="pass")
    response = t.phone_step("Ann", do="draw", cards=["duke"])
    assert response.status_code == 422
    assert "Enter 2 cards drawn, not 1." in response.text
    t.phone_step("Ann", do="draw", cards=["duke", "contessa"])
    response = t.phone_step("Ann", do="keep", cards=["duke"])
    assert "Keep 2 cards, not 1." in response.text and "Ann keeps" not in response.text
    response = t.phone_step("Ann", do="keep", cards=["captain", "duke"])
    assert "You can only keep cards from your hand and the cards drawn." in response.text
    # The tablet still says whose cards (it speaks for everyone).
    t.step(do="income", by="Ann")  # refused: the exchange is under way
    assert t.steps()[-1] == {"do": "draw", "by": "Ann", "cards": ["duke", "contessa"]}


def waiting_line(html: str) -> str:
    found = re.search(r'<p class="waiting">(.*?)</p>', html, re.S)
    assert found
    return found.group(1)


def test_the_waiting_line_speaks_to_the_phone_it_waits_for(started: Table):
    """On its own phone the waiting line says "you", never the owner's name; the others' phones
    and the tablet keep the names."""
    t = started
    assert waiting_line(t.phone_page("Ann")) == "Your turn: declare an action."
    assert waiting_line(t.phone_page("Bob")) == "Waiting for Ann to declare an action."
    t.step(do="steal", by="Ann", target="Bob")
    to_challenge = "to challenge or let it stand."
    assert waiting_line(t.phone_page("Bob")) == f"Waiting for you and Cy {to_challenge}"
    assert waiting_line(t.phone_page("Cy")) == f"Waiting for you and Bob {to_challenge}"
    assert waiting_line(t.phone_page("Ann")) == "Waiting for Bob, Cy to challenge or let it stand."
    t.step(do="pass")
    assert waiting_line(t.phone_page("Bob")) == "You may block or let it stand."
    assert "Waiting for Bob to block or let it stand." in t.page()


def test_with_several_others_you_come_first_in_the_list(app: Flask):
    t = started_table(app, {"Ann": ["duke", "captain"], "Bob": ["contessa", "assassin"],
                            "Cid": ["ambassador", "duke"], "Dee": ["captain", "contessa"]})
    t.step(do="tax", by="Ann")
    assert (waiting_line(t.phone_page("Bob"))
            == "Waiting for you, Cid, Dee to challenge or let it stand.")
    assert "Waiting for Bob, Cid, Dee to challenge or let it stand." in t.page()


def test_the_waiting_line_to_you_reads_in_every_language(started: Table):
    t = started
    t.step(do="steal", by="Ann", target="Bob")
    t.step(do="pass")
    for language, line in {"ru": "Вы можете", "uk": "Ви можете", "pt-BR": "Você pode",
                           "ja": "あなた"}.items():
        assert t.phone_post("Bob", "/language", {"language": language}).status_code == 200
        html = t.phone_page("Bob")
        assert line in waiting_line(html) and "Bob" not in waiting_line(html), language


def test_the_examination_folds_are_kept_through_updates(app: Flask):
    """The examined player's "Tap to choose" and the examiner's "Tap to see it" carry a key
    naming the question, so a live update (or a reload) keeps them open."""
    t = started_table(app, {"Ann": ["inquisitor", "duke"], "Bob": ["contessa", "assassin"],
                            "Cy": ["captain", "captain"]}, exchanger="inquisitor")
    t.step(do="examine", by="Ann", target="Bob")
    t.step(do="pass")
    assert re.search(r'<details class="secret" data-keep="show-open-\d+">', t.phone_page("Bob"))
    t.phone_step("Bob", do="show", card="contessa")
    assert re.search(r'<details class="secret" data-keep="seen-open-\d+">', t.phone_page("Ann"))


def test_the_challenged_player_s_options_fold_is_kept_through_updates(app: Flask):
    """Bob's "Tap to see your options" (show the card or concede) stays open through another
    seat's update, as every other fold a phone may hold open does."""
    t = bobs_tax_challenged(app)
    fold = r'<details class="secret" data-keep="prove-open-\d+-duke">'
    assert re.search(fold, t.phone_page("Bob"))


def test_one_card_to_keep_or_enter_is_said_in_the_singular(app: Flask):
    t = bobs_tax_challenged(app)
    assert t.phone_step("Bob", do="prove").status_code == 200
    assert "Enter below the card you drew." in alert(t.phone_page("Bob"))
    assert t.phone_step("Bob", do="draw", cards="duke").status_code == 200
    assert t.phone_step("Ann", do="lose", card="captain").status_code == 200
    t.step(do="income", by="Cy")
    t.step(do="exchange", by="Ann")
    t.step(do="pass")
    assert "Enter below the cards you drew." in alert(t.phone_page("Ann"))
    assert t.phone_step("Ann", do="draw", cards=["contessa", "captain"]).status_code == 200
    html = t.phone_page("Ann")
    assert "Choose below the card you keep." in alert(html)
    assert "Keep this one" in html and "Keep these" not in html


def test_an_empty_reserve_and_a_challenged_embezzle_read_plainly(app: Flask):
    t = started_table(app, HANDS, reformation="true")
    t.step(do="embezzle", by="Ann")
    t.step(do="challenge", by="Bob")
    assert "Ann claims to hold no Duke; Bob challenges." in t.page()

    t = started_table(app, HANDS, reformation="true")
    t.step(do="embezzle", by="Ann")
    t.step(do="pass")  # nobody challenges: Ann takes what lies on the Reserve, nothing
    html = t.page()
    assert "Ann finds the Treasury Reserve empty (Embezzle)." in html
    assert "0 coins on the Treasury Reserve" not in html


def test_the_undo_question_quotes_the_step_in_its_own_sentence(started: Table):
    t = started
    t.step(do="income", by="Ann")
    html = t.page()
    t.step(do="steal", by="Bob", target="Ann")
    t.step(do="pass")  # a step that said nothing: it is described, with no full stop inside
    html = t.page()
    assert re.search(r"Undo the last step \(“[^”.]+”\)\? Every screen will be told\.", html)
    assert "” Every screen" not in html


def test_the_exchange_marks_the_cards_drawn(app: Flask):
    t = started_table(app, {"Ann": ["ambassador", "duke"], "Bob": ["contessa", "assassin"]})
    t.step(do="exchange", by="Ann")
    t.step(do="pass")
    assert t.phone_step("Ann", do="draw", cards=["captain", "contessa"]).status_code == 200
    html = t.phone_page("Ann")
    labels = re.findall(r'<label class="choice">.*?</label>', html, re.S)
    marked = ["drawn</small>" in label for label in labels]
    assert marked == [False, False, True, True]
    assert 'value="captain"' in labels[2] and 'value="contessa"' in labels[3]
