"""Set-ups and looks shared by the browser tests of the screens (issue 13): a started night,
one with a seat played without a phone, a Reformation night, Ann's proven Embezzle, and where
things are on the screen. The steps themselves are nightkit's."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from nightkit import Night, create_table, seat, seat_everyone, start
from playwright.sync_api import Page, expect

Shot = Callable[[Page, str], Path]
NewPhone = Callable[[], Page]

ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts"
SIZES = {"1280x800": (1280, 800), "1024x768": (1024, 768)}
GOLD = "rgb(242, 193, 78)"
TWO = {"Ann": ["duke", "captain"], "Bob": ["contessa", "assassin"]}
THREE = {**TWO, "Cy": ["ambassador", "captain"]}
FOUR = {**THREE, "Dee": ["duke", "contessa"]}


def new_night(tablet: Page, new_phone: NewPhone, hands: dict[str, list[str]],
              first: str | None = None) -> Night:
    """A started game: a phone per player, each with its hand entered."""
    create_table(tablet, list(hands))
    night = Night(tablet)
    seat_everyone(night, new_phone, hands)
    start(night, first or next(iter(hands)))
    return night


def untracked_night(tablet: Page, new_phone: NewPhone, untracked: str = "Eve") -> Night:
    """Ann, Bob, Cy, Dee with phones and one seat played without a phone."""
    create_table(tablet, [*FOUR, untracked])
    seat(tablet, untracked).get_by_role("button", name="No phone").click()
    expect(seat(tablet, untracked)).to_contain_text("No phone: untracked")
    night = Night(tablet)
    seat_everyone(night, new_phone, FOUR)
    start(night, "Ann")
    return night


def reformation_night(tablet: Page, new_phone: NewPhone,
                      names: list[str] | None = None) -> Night:
    """A Reformation table of three with phones, or of ``names`` with no phones."""
    tablet.goto("/")
    tablet.locator("details.settings > summary").first.click()
    tablet.locator("select[name=reformation]").select_option("true")
    tablet.locator("textarea[name=players]").fill("\n".join(names or ["Ann", "Bob", "Cy"]))
    tablet.get_by_role("button", name="Create the table").click()
    expect(tablet.get_by_role("heading", name="Seat the players")).to_be_visible()
    night = Night(tablet)
    if names:
        for name in names:
            seat(tablet, name).get_by_role("button", name="No phone").click()
            expect(seat(tablet, name)).to_contain_text("No phone: untracked")
        start(night, names[0])
        return night
    seat_everyone(night, new_phone, {"Ann": ["captain", "contessa"],
                                     "Bob": ["contessa", "assassin"],
                                     "Cy": ["ambassador", "captain"]})
    start(night, "Ann")
    return night


def embezzle_proven(tablet: Page, new_phone: NewPhone) -> Night:
    """Reformation: Ann's Embezzle (she holds no Duke) is challenged by Bob and proven, so Bob
    must lose a card while Ann enters the card she draws."""
    night = reformation_night(tablet, new_phone)
    night.declare("Embezzle")
    night.tap("Bob challenges")
    night.phone_open("Ann", "Tap to see your options")
    night.phone_tap("Ann", "Show all my cards")
    night.expect_phone("Bob", "choose the card to turn face up")
    night.expect_phone("Ann", "Card drawn")
    night.sync()
    return night


def ann_shows_the_duke(night: Night) -> None:
    """Ann (who holds the Duke) claims it for Tax, Bob challenges, Ann shows it."""
    night.declare("Tax")
    night.tap("Bob challenges")
    night.phone_open("Ann", "Tap to see your options")
    night.phone_tap("Ann", "Show the Duke")


def ann_keeps_one_of_two(night: Night) -> Page:
    """Ann's Exchange, unchallenged: she draws two Captains and ticks one card of the four to
    keep (her phone's keep form, one short of the two she must keep, not sent yet)."""
    night.declare("Exchange")
    night.tap("Nobody challenges")
    ann = night.phone("Ann")
    selects = ann.locator("#phone select[name=cards]")
    selects.nth(0).select_option("captain")
    selects.nth(1).select_option("captain")
    night.sync()
    ann.locator("#phone").get_by_role("button", name="Done").click()
    night.expect_phone("Ann", "Keep 2 cards")
    night.phone_open("Ann", "Your cards and the cards drawn")
    ann.locator("#phone input[name=cards]").nth(0).check()
    return ann


def phone_with_hand(new_context: Any, playwright: Any, link: str, cards: list[str],
                    **options: Any) -> Page:
    """A phone (a Pixel 7; ``options`` go to its browser context) that opened its seat's link
    and entered its hand, tapping by the form's values only, so in any language."""
    phone = new_context(**{**playwright.devices["Pixel 7"], **options}).new_page()
    phone.goto(link)
    for slot, card in enumerate(cards, start=1):
        phone.locator(f'label.choice:has(input[name="card{slot}"][value="{card}"])').click()
    phone.locator("form.hand-entry button[type=submit]").click()
    expect(phone.locator("#lobby [data-reveal]")).to_have_count(1)
    return phone


def in_view(page: Page, selector: str) -> bool:
    """Whether the element is wholly inside the viewport as the page first shows it."""
    return bool(page.evaluate("""s => { const e = document.querySelector(s);
        if (!e) return false; const r = e.getBoundingClientRect();
        return r.top >= 0 && r.bottom <= window.innerHeight && r.height > 0; }""", selector))


def viewport_shot(page: Page, name: str) -> Path:
    """A screenshot of what the viewport shows (not the whole page), into tests/artifacts."""
    path = ARTIFACTS / f"{name}.png"
    path.parent.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(path))
    return path


RECORD_TOO_SOON = """() => {
    window.__tooSoon = [];
    new MutationObserver(changes => changes.forEach(c => {
        const b = c.target;
        if (b.hasAttribute('data-too-soon')) window.__tooSoon.push(b.textContent.trim());
    })).observe(document.body, {subtree: true, attributeFilter: ['data-too-soon']});
}"""
"""Each button that flashes "too soon" (data-too-soon set), by its words, as the page records
it in ``window.__tooSoon``."""
