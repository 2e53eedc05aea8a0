"""Undo and the rulings read plainly (issue 13): the undo names its step and every screen is
told, its line sits in order, the phone's log numbers match the tablet's, rule codes link to
their explanation, and Reformation's Embezzle and empty Reserve read as they are."""

from __future__ import annotations

import re

from flask import Flask
from tablekit import Table, started_table
from whokit import HANDS


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


def test_the_undo_question_quotes_the_step_in_its_own_sentence(started: Table):
    t = started
    t.step(do="income", by="Ann")
    html = t.page()
    t.step(do="steal", by="Bob", target="Ann")
    t.step(do="pass")  # a step that said nothing: it is described, with no full stop inside
    html = t.page()
    assert re.search(r"Undo the last step \(“[^”.]+”\)\? Every screen will be told\.", html)
    assert "” Every screen" not in html


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
