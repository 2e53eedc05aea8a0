"""A Russian or Ukrainian tablet's decision (its headline and every button) on screen at both
tablet sizes, for four and six seats: the challenge of a Steal, an Assassination and an
Exchange, the block of each and of a Foreign Aid, and a blocked Steal's challenge answered
without a phone. An outside tester's La Mame table had the block's headline run to five lines
(«…, заявляя, что имеет влияние на персонажа «Губернатор»») and its challenge buttons end at
y = 832 on a 1280x800 screen.

Seats play without phones (the tablet asks their private steps) and every tap is found by
the form's values, never by the words on screen, so the same steps drive both languages."""

from __future__ import annotations

import pytest

pytest.importorskip("playwright.sync_api", reason="the playwright package is not installed")
from nightkit import settle, step_button, watch  # noqa: E402
from playwright.sync_api import Page, expect  # noqa: E402
from screenkit import SIZES, viewport_shot  # noqa: E402

NAMES = {"ru": ["Борис", "Дмитрий", "Клеопатра", "Александра", "Святослав", "Ян"],
         "uk": ["Богдан", "Дмитро", "Олександра", "Катерина", "Святослав", "Ян"]}
BOXES = [("ru", "la_mame_ru_2015"), ("ru", "mosigra_ru"), ("uk", "ua_steampunk")]

# Each part of the decision (its headline, question and every button or drop-down) that is
# not wholly inside the viewport as the page first shows it, with where it is.
OFF_SCREEN = """() => Array.from(document.querySelectorAll(
    '#prompt .claim, #prompt h3, #prompt button, #prompt summary'))
  .filter(e => e.offsetParent !== null && !e.closest('details:not([open]) .choices'))
  .map(e => [e, e.getBoundingClientRect()])
  .filter(([, r]) => r.top < 0 || r.left < 0 || r.bottom > window.innerHeight
                     || r.right > window.innerWidth)
  .map(([e, r]) => e.textContent.trim().slice(0, 50) + ' @ ' + Math.round(r.bottom))"""


def no_phone_table(tablet: Page, language: str, edition: str, names: list[str]) -> None:
    """A started table in this language and box, every seat played without a phone."""
    watch(tablet)
    tablet.goto("/")
    tablet.fill('textarea[name="players"]', "\n".join(names))
    tablet.select_option('select[name="language"]', language)
    tablet.select_option('select[name="edition"]', edition)
    tablet.locator("form.new-table button[type=submit]").click()
    untracked = tablet.locator("ol.lobby li.untracked")
    settle(tablet)
    for seated in range(1, len(names) + 1):
        tablet.locator('ol.lobby form:has(input[name="tracked"][value="0"]) button').first.click()
        expect(untracked).to_have_count(seated)
    tablet.locator("form.start button").click()
    expect(step_button(tablet, "income", by=names[0])).to_be_visible()


def tap(tablet: Page, do: str, **fields: str) -> None:
    """Tap the step (a target's button is in its action's drop-down, opened first)."""
    if "target" in fields:
        tablet.locator(f'details.targets:has(input[name="do"][value="{do}"]) summary').click()
    button = step_button(tablet, do, **fields)
    version = tablet.locator("#tablet").get_attribute("data-version")
    button.click()
    expect(tablet.locator("#tablet")).not_to_have_attribute("data-version", version or "")


def off_screen(tablet: Page, name: str) -> list[str]:
    """At each tablet size, as the page first shows it, the parts of the decision that are
    not wholly on screen (a screenshot of each)."""
    found = []
    for size, (width, height) in SIZES.items():
        tablet.set_viewport_size({"width": width, "height": height})
        tablet.evaluate("() => window.scrollTo(0, 0)")
        viewport_shot(tablet, f"claim-fits-{name}-{size}")
        found += [f"{name} {size}: {part}" for part in tablet.evaluate(OFF_SCREEN)]
    return found


@pytest.mark.parametrize("seats", [4, 6])
@pytest.mark.parametrize(("language", "edition"), BOXES)
def test_the_tablet_s_decision_stays_on_screen(tablet: Page, language: str, edition: str,
                                                seats: int) -> None:
    names = NAMES[language][:seats]
    first, second, third, fourth = names[:4]
    no_phone_table(tablet, language, edition, names)
    shot = f"{edition}-{seats}"
    problems: list[str] = []
    tap(tablet, "tax", by=first)
    problems += off_screen(tablet, f"{shot}-tax-challenge")
    tap(tablet, "pass")
    tap(tablet, "steal", by=second, target=third)
    problems += off_screen(tablet, f"{shot}-steal-challenge")
    tap(tablet, "pass")
    problems += off_screen(tablet, f"{shot}-steal-block")
    tap(tablet, "block", by=third, **{"as": "captain"})
    problems += off_screen(tablet, f"{shot}-steal-blocked")
    tap(tablet, "challenge", by=second)
    problems += off_screen(tablet, f"{shot}-block-challenged")
    tap(tablet, "prove", by=third)
    tap(tablet, "lose", by=second, card="duke")
    tap(tablet, "draw", by=third)
    tap(tablet, "foreign_aid", by=third)
    problems += off_screen(tablet, f"{shot}-aid-block")
    tap(tablet, "block", by=fourth, **{"as": "duke"})
    problems += off_screen(tablet, f"{shot}-aid-blocked")
    tap(tablet, "pass")
    for name in names[3:]:
        tap(tablet, "income", by=name)
    tap(tablet, "assassinate", by=first, target=third)
    problems += off_screen(tablet, f"{shot}-assassinate-challenge")
    tap(tablet, "pass")
    tap(tablet, "block", by=third, **{"as": "contessa"})
    problems += off_screen(tablet, f"{shot}-assassinate-blocked")
    tap(tablet, "pass")
    tap(tablet, "exchange", by=second)
    problems += off_screen(tablet, f"{shot}-exchange-challenge")
    tap(tablet, "pass")
    problems += off_screen(tablet, f"{shot}-exchange-draw")
    assert not problems, "\n".join(problems)
