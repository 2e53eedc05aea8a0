"""The screens in every language in a real browser: a tablet and a phone per language and per
box in it (Russian twice: La Mame and Mosigra), with screenshots in
tests/artifacts/i18n-<lang>[-<box>]-*.png, and no text running out of its box.

Selectors use form field names and values only, never the words on screen, so the same steps
drive every language.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

# Skip (not crash) at collection where playwright is missing; conftest.py explains the reason.
pytest.importorskip("playwright.sync_api", reason="the playwright package is not installed")
from nightkit import step_button  # noqa: E402
from playwright.sync_api import Page, expect  # noqa: E402
from screenkit import phone_with_hand  # noqa: E402

from app.i18n import LANGUAGES  # noqa: E402

Shot = Callable[[Page, str], Path]
NATIVE_EDITION = {"en": "official", "ru": "la_mame_ru_2015", "uk": "ua_steampunk",
                  "pt-BR": "bga_pt", "ja": "ja"}
# Each box in the language of its rulebook (app/editions.py): its own words on every screen.
BOXES = [(language, edition) for language, edition in NATIVE_EDITION.items()] + [
    ("ru", "mosigra_ru")]
HANDS = {"Ann": ["duke", "captain"], "Bob": ["contessa", "assassin"],
         "Cy": ["ambassador", "captain"]}
TABLET = {"viewport": {"width": 1280, "height": 800}, "device_scale_factor": 1,
          "has_touch": True}

# Elements whose text overflows their own box (a word too long for a button, a heading wider
# than the screen), and whether the page scrolls sideways.
OVERFLOW = """() => {
  const out = [];
  if (document.documentElement.scrollWidth > window.innerWidth + 1) {
    out.push("page scrolls sideways: " + document.documentElement.scrollWidth + "px");
  }
  for (const el of document.querySelectorAll("button, summary, h1, h2, h3, p, label, li, .card")) {
    const style = getComputedStyle(el);
    if (style.display === "none" || el.offsetParent === null) continue;
    if (el.scrollWidth > el.clientWidth + 2 && style.overflowX !== "auto") {
      out.push(el.tagName + "." + el.className + ": " + el.textContent.trim().slice(0, 60));
    }
  }
  return out;
}"""


def fits(page: Page, what: str) -> None:
    problems = page.evaluate(OVERFLOW)
    assert not problems, f"{what}: text out of its box: {problems}"


def test_every_language_is_shown():
    assert {language for language, _edition in BOXES} == set(LANGUAGES)


def open_table(tablet: Page, language: str, edition: str) -> list[str]:
    """A new table in this language and box from the start page; its seats' links."""
    tablet.fill('textarea[name="players"]', "\n".join(HANDS))
    tablet.select_option('select[name="language"]', language)
    tablet.select_option('select[name="edition"]', edition)
    tablet.locator("form.new-table button[type=submit]").click()
    expect(tablet.locator("ol.lobby")).to_be_visible()
    links = tablet.locator("ol.lobby .link small").all_inner_texts()
    assert len(links) == len(HANDS)
    return links


@pytest.mark.parametrize(("language", "edition"), BOXES)
def test_tablet_and_phone_screens_in_every_language(
    language: str, edition: str, new_context, playwright, screenshot: Shot
) -> None:
    shot = language if NATIVE_EDITION[language] == edition else f"{language}-{edition}"
    tablet = new_context(locale=language, **TABLET).new_page()
    tablet.goto("/")
    expect(tablet.locator("html")).to_have_attribute("lang", language)
    tablet.locator("details.settings summary").click()
    screenshot(tablet, f"i18n-{shot}-home")
    fits(tablet, "home")

    links = open_table(tablet, language, edition)
    # The phones in English: the table's language is the tablet's.
    phones = {name: phone_with_hand(new_context, playwright, link, cards, locale="en")
              for (name, cards), link in zip(HANDS.items(), links, strict=True)}
    expect(tablet.locator("li.seat-card.ready")).to_have_count(len(HANDS))
    screenshot(tablet, f"i18n-{shot}-tablet-lobby")
    fits(tablet, "tablet lobby")
    screenshot(phones["Ann"], f"i18n-{shot}-phone-lobby")
    fits(phones["Ann"], "phone lobby")

    tablet.locator("form.start button").click()
    step_button(tablet, "tax", by="Ann").click()
    step_button(tablet, "pass").click()
    tablet.locator('details.targets:has(input[name="do"][value="steal"]) summary').click()
    step_button(tablet, "steal", by="Bob", target="Ann").click()
    step_button(tablet, "challenge", by="Ann").click()
    expect(tablet.locator(".log li")).to_have_count(5)
    screenshot(tablet, f"i18n-{shot}-tablet-game")
    fits(tablet, "tablet mid-game")

    bob = phones["Bob"]
    expect(bob.locator("section.prompt.ask")).to_be_visible(timeout=12_000)
    bob.locator("section.prompt.ask details.secret summary").click()
    expect(step_button(bob, "concede")).to_be_visible()
    screenshot(bob, f"i18n-{shot}-phone-prompt")
    fits(bob, "phone prompt")
    expect(bob.locator("html")).to_have_attribute("lang", language)

    # The block window: its buttons carry the box's longest words (Mosigra's «накладывает
    # вето»), a player's name and a card name each.
    step_button(bob, "concede").click()
    # Wait for the new prompt (the card to lose), not the one just answered, then unfold it.
    lose = step_button(bob, "lose", card="assassin")
    expect(lose).to_have_count(1, timeout=15_000)
    bob.locator('section.prompt.ask details.secret:has(input[name="do"][value="lose"]) '
                "summary").click()
    lose.click()
    step_button(tablet, "foreign_aid", by="Cy").click()
    expect(step_button(tablet, "block", by="Ann", **{"as": "duke"})).to_be_visible()
    screenshot(tablet, f"i18n-{shot}-tablet-block")
    fits(tablet, "tablet block window")

    tablet.goto(tablet.url.split("?")[0] + "/rules")
    screenshot(tablet, f"i18n-{shot}-rules")
    fits(tablet, "rules")
