"""Game night's words as an outside tester read them (issue 14): one word for "challenge" per
language on the players' page, the merge form's label, the Japanese timer, claim and legend."""

from __future__ import annotations

import re

from nightwebkit import settings, settle
from tablekit import finished_game, started_table

HANDS = {"Ann": ["duke", "captain"], "Bob": ["contessa", "assassin"]}


def players_page(app, language: str) -> str:
    t = settle(finished_game(app))  # the referee's device: it may rename and merge
    return t.tablet.get("/players", headers={"Accept-Language": language}).text


def test_the_players_page_says_challenge_as_its_columns_do_in_japanese(app):
    page = players_page(app, "ja")
    assert "ダウト的中率" in page  # the column
    assert "チャレンジ" not in page
    assert "ダウト的中率にはダウトが1回以上必要です。" in page


def test_the_players_page_in_portuguese_says_desafio_and_joins_with(app):
    page = players_page(app, "pt-BR")
    assert "Acerto ao desafiar" in page
    assert "o acerto ao desafiar só aparece depois de um desafio." in page
    assert "precisão" not in page and "contestaç" not in page
    assert "<span>Juntar com</span>" in page


def test_the_japanese_timer_speaks_to_its_own_phone_and_reads_naturally(app):
    t = started_table(app, HANDS, language="ja")
    assert settings(t, timer="30") == 200
    own = t.phone_page("Ann")
    running = re.search(r'<p class="running">(.*?)</p>', own, re.S)
    assert running and re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", running.group(1))).strip() \
        .startswith("残り時間 0:")
    up = re.search(r'<p class="up"[^>]*>(.*?)</p>', own, re.S)
    assert up and "あなたの時間切れです。" in up.group(1) and "Ann" not in up.group(1)
    # each sentence its own line: no half-width space after "。" in the text
    assert "。 " not in re.sub(r"\s*</span>\s*<span>", "", up.group(1))
    tablet = t.page()
    # the names as a list of names, the waiting line's way: no 「」 around them
    assert "Annの残り時間" in tablet and "Annの時間切れです。" in tablet
    assert "決断まで" not in tablet + own


def test_a_claim_s_card_is_in_full_width_brackets_in_japanese(app):
    t = started_table(app, HANDS, language="ja")
    assert t.post("/step", {"do": "tax", "by": "Ann"}).status_code == 200
    claim = re.search(r'<p class="claim">(.*?)</p>', t.page(), re.S)
    assert claim, "no claim line"
    said = re.sub(r"\s+", "", re.sub(r"<[^>]+>", "", claim.group(1)))
    assert re.fullmatch(r"Ann：[^()（）]+（[^()（）]+）", said), said
    english = started_table(app, HANDS)
    assert english.post("/step", {"do": "tax", "by": "Ann"}).status_code == 200
    line = re.search(r'<p class="claim">(.*?)</p>', english.page(), re.S)
    assert line and re.fullmatch(r"Ann: Tax \(.+\)", re.sub(r"<[^>]+>", "", line.group(1))
                                 .strip().replace("\n", "")), line.group(1)


def test_the_japanese_timeline_legend_says_coins_at_the_end_of_the_turn(app):
    t = finished_game(app)
    assert t.phone_post("Bob", "/language", {"language": "ja"}).status_code in (200, 303)
    assert t.phone_post("Bob", "/timeline", {}).status_code == 303
    page = t.phone("Bob").get(t.link("Bob") + "/timeline").text
    legend = re.search(r'<span class="tl-coins">3</span>([^<]*)</li>', page)
    assert legend and legend.group(1).strip() == "＝ターン終了時の所持コイン", legend
