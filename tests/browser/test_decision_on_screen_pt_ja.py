"""The tablet's decision stays on screen in Brazilian Portuguese and Japanese, whose sentences
run longer than the English: at the tablets' sizes and with four to six seats, the prompt's
headline, whom the table waits for and every button are in the viewport without scrolling, for
a declared action open to challenge, a block of a Steal, an Assassination and Foreign Aid open
to challenge, an exchange and a player choosing the card to lose. Screenshots are saved in
tests/artifacts/decision-<lang>-<seats>-<moment>-<size>.png.

The first seat plays with a phone; the others have none, so the tablet itself asks for their
exchange and their lost card. Taps go by the forms' values only, so in any language.
"""

from __future__ import annotations

import pytest

# Skip (not crash) at collection where playwright is missing; conftest.py explains the reason.
pytest.importorskip("playwright.sync_api", reason="the playwright package is not installed")
from nightkit import Night, settle, step_button, watch  # noqa: E402
from playwright.sync_api import Page, expect  # noqa: E402
from screenkit import SIZES, NewPhone, phone_with_hand, viewport_shot  # noqa: E402

# Names as long as a table of each language writes them.
NAMES = {"pt-BR": ["Fernanda", "Gabriel", "Leonardo", "Rafaela", "Beatriz", "Vinícius"],
         "ja": ["さくら", "けんた", "はるか", "ゆうすけ", "みさき", "たくみ"]}
EDITION = {"pt-BR": "bga_pt", "ja": "ja"}
FIRST_HAND = ["duke", "captain"]

# Every part of the decision that is drawn (the waiting line, the claim, the headlines, the
# buttons), each with whatever of it lies outside the viewport.
OFF_SCREEN = """() => Array.from(document.querySelectorAll(
        '#prompt .waiting, #prompt .claim, #prompt h3, #prompt button, #prompt summary'))
    .filter(e => e.getClientRects().length)
    .map(e => [e.tagName + ' ' + e.textContent.trim().slice(0, 50), e.getBoundingClientRect()])
    .filter(([, r]) => r.top < 0 || r.bottom > innerHeight || r.left < 0
                       || r.right > innerWidth)
    .map(([what]) => what)"""


class Table:
    """A table of the language's names: the first on a phone, the rest without one."""

    def __init__(self, tablet: Page, new_phone: NewPhone, language: str, seats: int) -> None:
        self.tablet, self.language, self.seats = tablet, language, seats
        self.names = NAMES[language][:seats]
        self.night = Night(tablet)
        self.new_phone = new_phone
        self.off: list[tuple[str, str, list[str]]] = []

    def open(self, new_context, playwright) -> None:
        tablet = self.tablet
        watch(tablet)
        tablet.goto("/")
        tablet.fill('textarea[name="players"]', "\n".join(self.names))
        tablet.select_option('select[name="language"]', self.language)
        tablet.select_option('select[name="edition"]', EDITION[self.language])
        tablet.locator("form.new-table button[type=submit]").click()
        expect(tablet.locator("ol.lobby")).to_be_visible()
        settle(tablet)  # as a person waits for the screen, and the kit's create_table does
        for name in self.names[1:]:
            no_phone = tablet.locator("li.seat-card", has=tablet.locator("h2", has_text=name))
            no_phone.locator('form:has(input[name="tracked"][value="0"]) button').click()
            expect(tablet.locator("li.seat-card.untracked", has_text=name)).to_be_visible()
        link = tablet.locator("li.seat-card:not(.untracked) .link small").inner_text()
        first = self.names[0]
        self.night.phones[first] = phone_with_hand(new_context, playwright, link.strip(),
                                                   FIRST_HAND, locale=self.language)
        expect(tablet.locator("li.seat-card.ready")).to_have_count(1)
        tablet.locator("form.start button").click()
        expect(step_button(tablet, "income", by=first)).to_be_visible()

    def tap(self, do: str, **fields: str) -> None:
        self.night.sync()
        if "target" in fields:
            self.tablet.locator(f'#prompt details.targets:has(input[name="do"][value="{do}"])'
                                ':has(input[name="by"][value="' + fields["by"] + '"]) '
                                "summary").click()
        step_button(self.tablet, do, **fields).click()

    def wait_for(self, do: str, **fields: str) -> None:
        expect(step_button(self.tablet, do, **fields).first).to_be_visible()
        self.night.sync()

    def look_at_the_phone(self, moment: str) -> None:
        """Screenshots of the first player's phone, as a Pixel 7 and a small phone show it."""
        phone = self.night.phones[self.names[0]]
        expect(phone.locator("#answer button").first).to_be_visible()
        for size in ({"width": 412, "height": 839}, {"width": 390, "height": 664}):
            phone.set_viewport_size(size)
            viewport_shot(phone, f"decision-{self.language}-{self.seats}-phone-{moment}-"
                                 f"{size['width']}x{size['height']}")

    def look(self, moment: str) -> None:
        """At each tablet size, what of the decision lies outside the viewport as the page
        shows (kept, so that one run lists every moment's)."""
        tablet = self.tablet
        for size, (width, height) in SIZES.items():
            tablet.set_viewport_size({"width": width, "height": height})
            tablet.evaluate("() => window.scrollTo(0, 0)")
            viewport_shot(tablet, f"decision-{self.language}-{self.seats}-{moment}-{size}")
            off = tablet.evaluate(OFF_SCREEN)
            if off:
                self.off.append((moment, size, off))
        tablet.set_viewport_size({"width": 1280, "height": 800})


def play_the_decisions(t: Table) -> None:
    one, two, three, four, *others = t.names
    t.tap("steal", by=one, target=two)
    t.wait_for("challenge", by=two)
    t.look("steal-claimed")  # a declared action open to challenge
    t.tap("pass")
    t.wait_for("block", by=two, **{"as": "captain"})
    t.tap("block", by=two, **{"as": "captain"})
    t.wait_for("challenge", by=one)
    t.look("steal-block-claimed")  # a block of a Steal open to challenge
    t.look_at_the_phone("steal-block-claimed")  # the first player may challenge the block
    t.tap("pass")
    t.wait_for("foreign_aid", by=two)
    t.tap("foreign_aid", by=two)
    t.wait_for("block", by=three, **{"as": "duke"})
    t.tap("block", by=three, **{"as": "duke"})
    t.wait_for("challenge", by=four)
    t.look("aid-block-claimed")  # a block of Foreign Aid open to challenge
    t.tap("challenge", by=four)
    t.wait_for("concede", by=three)
    t.look("aid-block-challenged")
    t.tap("concede", by=three)
    t.wait_for("lose", by=three, card="duke")
    t.look("lose")  # a player choosing the card to lose
    t.tap("lose", by=three, card="duke")
    t.wait_for("exchange", by=three)
    t.tap("exchange", by=three)
    t.wait_for("challenge", by=four)
    t.tap("pass")
    t.wait_for("draw", by=three)
    t.look("exchange-draw")  # an exchange
    t.tap("draw", by=three)
    t.wait_for("keep", by=three)
    t.look("exchange-keep")
    t.tap("keep", by=three)
    for name in [four, *others]:
        t.wait_for("income", by=name)
        t.tap("income", by=name)
    t.wait_for("income", by=one)
    t.tap("income", by=one)
    t.wait_for("income", by=two)  # Foreign Aid brought them to 4 coins: enough to assassinate
    t.tap("assassinate", by=two, target=four)
    t.wait_for("challenge", by=four)
    t.tap("pass")
    t.wait_for("block", by=four, **{"as": "contessa"})
    t.tap("block", by=four, **{"as": "contessa"})
    t.wait_for("challenge", by=two)
    t.look("assassinate-block-claimed")  # a block of an Assassination open to challenge


@pytest.mark.parametrize("seats", [4, 6])
@pytest.mark.parametrize("language", ["pt-BR", "ja"])
def test_the_decision_is_on_the_tablet_without_scrolling(
        new_context, playwright, new_phone: NewPhone, language: str, seats: int) -> None:
    tablet = new_context(locale=language, viewport={"width": 1280, "height": 800},
                         device_scale_factor=1, has_touch=True).new_page()
    table = Table(tablet, new_phone, language, seats)
    table.open(new_context, playwright)
    play_the_decisions(table)
    assert table.off == [], table.off
