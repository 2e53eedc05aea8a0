"""A required field left empty says so in the page's language, never in the browser's: an
outside tester's Russian phone showed Chromium's own "Please select an item in the list." on
the draw form (after proving a card, which card was drawn). The phones here are English
browsers at a Russian table, as the tester's were; taps are found by the forms' values."""

from __future__ import annotations

import pytest

pytest.importorskip("playwright.sync_api", reason="the playwright package is not installed")
from nightkit import step_button  # noqa: E402
from playwright.sync_api import Page, expect  # noqa: E402
from screenkit import phone_with_hand  # noqa: E402
from test_i18n_screens import HANDS, TABLET, open_table  # noqa: E402

from app.i18n import Voice  # noqa: E402

# The words the browser would show for each field of the page that is not valid now.
SAID = """() => Array.from(document.querySelectorAll('#phone input, #phone select'))
  .filter(f => f.willValidate && !f.validity.valid).map(f => f.validationMessage)"""


def sent_empty(phone: Page, form: str) -> list[str]:
    """Send ``form`` as it is (its fields empty) and say what the browser says of them."""
    phone.locator(f"{form} button[type=submit]").click()
    return list(dict.fromkeys(phone.evaluate(SAID)))


@pytest.mark.parametrize(("language", "edition"), [("ru", "la_mame_ru_2015"),
                                                   ("uk", "ua_steampunk"), ("ja", "ja")])
def test_an_empty_field_speaks_the_page_s_language(new_context, playwright, language: str,
                                                   edition: str) -> None:
    voice = Voice(language)
    tablet = new_context(locale="en", **TABLET).new_page()
    tablet.goto("/")
    links = open_table(tablet, language, edition)
    ann = new_context(**{**playwright.devices["Pixel 7"], "locale": "en"}).new_page()
    ann.goto(links[0])
    assert sent_empty(ann, "form.hand-entry") == [
        voice.format("Choose the two cards you were dealt.")]
    phones = [phone_with_hand(new_context, playwright, link, cards, locale="en")
              for link, cards in zip(links[1:], list(HANDS.values())[1:], strict=True)]
    ann.locator('label.choice:has(input[name="card1"][value="duke"])').click()
    ann.locator('label.choice:has(input[name="card2"][value="captain"])').click()
    assert ann.evaluate(SAID) == [], "a choice takes the words back"
    ann.locator("form.hand-entry button[type=submit]").click()
    expect(ann.locator("#lobby [data-reveal]")).to_have_count(1)
    expect(tablet.locator("li.seat-card.ready")).to_have_count(len(HANDS))
    tablet.locator("form.start button").click()
    step_button(tablet, "tax", by="Ann").click()
    step_button(tablet, "challenge", by="Bob").click()
    expect(ann.locator("section.prompt.ask")).to_be_visible(timeout=12_000)
    ann.locator("section.prompt.ask details.secret summary").click()
    step_button(ann, "prove").click()
    bob = phones[0]
    lose = step_button(bob, "lose", card="assassin")
    expect(lose).to_have_count(1, timeout=15_000)
    bob.locator('section.prompt.ask details.secret:has(input[name="do"][value="lose"]) '
                "summary").click()
    lose.click()
    expect(ann.locator("form.draw")).to_have_count(1, timeout=15_000)
    assert sent_empty(ann, "form.draw") == [voice.format("Choose the card you drew.")]
    ann.locator("form.draw select[name=cards]").select_option("duke")
    assert ann.evaluate(SAID) == [], "a choice takes the words back"
