"""Steps of a game night in a real browser: a tablet page and one page per phone.

Selectors follow what people see (button and heading text, roles) plus the stable hooks the
brief names: the ids ``#tablet``, ``#phone`` and ``#hand`` and the form fields' names. Every wait
is a Playwright ``expect`` with a timeout, never a sleep: a screen that should change live must
change within :data:`LIVE_MS`, well under the 10 s polling fallback.
"""

from __future__ import annotations

import re
import time
import xml.etree.ElementTree as ET
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from handkit import LABEL, assert_tablet_private
from playwright.sync_api import Locator, Page, expect

Shot = Callable[[Page, str], Path]
NewPhone = Callable[[], Page]

LIVE_MS = 5_000
"""How long a live (SSE-driven) update may take. The polling fallback is every 10 s, so a
screen that updates within this time was updated by the push, not by the poll."""

HANDS = {"Ann": ["duke", "captain"], "Bob": ["contessa", "assassin"],
         "Cy": ["ambassador", "captain"]}
"""Three players' hands, entered by hand as with a real deck: every game is deterministic."""

# Counts the SSE stream openings of each page load (htmx's sse extension fires htmx:sseOpen on
# the element with sse-connect; app.js refetches the view on it). Injected by Playwright, so the
# page's content security policy (no inline script) does not apply to it.
SSE_PROBE = """
if (window.__coupSseOpen === undefined) {
  window.__coupSseOpen = 0;
  document.addEventListener("htmx:sseOpen", function () { window.__coupSseOpen += 1; });
}
"""

# (version shown, request in flight?) of a page. A function: the page's content security policy
# forbids eval, and Playwright compiles a function without it.
SCREEN_STATE = """() => {
  const region = document.querySelector("#tablet, #phone");
  return [region ? Number(region.dataset.version) : -1,
          document.querySelector(".htmx-request") !== null];
}"""



def turn(name: str) -> re.Pattern[str]:
    """The heading of a player's turn (the apostrophe is typographic: ``Ann’s turn``). The name
    starts the text or a word: not ``\\b``, which the browser's regular expressions know only
    for Latin letters (``Борис’s turn`` would never match)."""
    return re.compile(rf"(?:^|\s){re.escape(name)}[’']s turn")


# -- liveness ------------------------------------------------------------------------------


def watch(page: Page) -> None:
    """Count the event-stream openings of every page load in this page's context."""
    page.context.add_init_script(SSE_PROBE)


def settle(page: Page) -> None:
    """Wait until the page's event stream is open and its buttons are no longer held (a page
    just loaded holds them 0.6 s, and a tap in that moment only flashes: app.js), then mark
    the page so that :func:`assert_not_reloaded` can tell it was never reloaded."""
    wait_stream(page, 1)
    page.wait_for_function("() => !document.querySelector('[data-settling]')")
    page.evaluate("window.__coupSamePage = true")


def open_live(page: Page, url: str) -> None:
    watch(page)
    page.goto(url)
    settle(page)


def wait_stream(page: Page, openings: int, timeout: float = LIVE_MS) -> None:
    # A function, not an expression: Playwright evals a bare expression inside the page,
    # which the page's content security policy (no 'unsafe-eval') refuses.
    page.wait_for_function(
        "n => (window.__coupSseOpen || 0) >= n", arg=openings, timeout=timeout
    )


def stream_openings(page: Page) -> int:
    return int(page.evaluate("window.__coupSseOpen || 0"))


def assert_not_reloaded(*pages: Page) -> None:
    for page in pages:
        assert page.evaluate("window.__coupSamePage === true"), f"{page.url} was reloaded"


def region(page: Page) -> Locator:
    """The live region of a page: ``#tablet`` or ``#phone``, swapped whole on every update."""
    return page.locator("#tablet, #phone")


def step_button(page: Page, do: str, **fields: str) -> Locator:
    """The button of the step form whose hidden fields are ``do`` and ``fields``: taps found by
    the form's values, never by the words on screen, so the same steps drive every language."""
    selector = f'form.step:has(input[name="do"][value="{do}"])'
    for key, value in fields.items():
        selector += f':has(input[name="{key}"][value="{value}"])'
    return page.locator(selector).locator("button")



# -- the lobby -----------------------------------------------------------------------------


def create_table(tablet: Page, names: list[str], home: str = "/") -> None:
    """Fill in the home page's form and open the table's referee screen."""
    watch(tablet)
    tablet.goto(home)
    tablet.locator("textarea[name=players]").fill("\n".join(names))
    tablet.get_by_role("button", name="Create the table").click()
    expect(tablet.get_by_role("heading", name="Seat the players")).to_be_visible()
    settle(tablet)


def seat(tablet: Page, name: str) -> Locator:
    """A player's seat in the tablet's lobby (the list item headed with their name)."""
    return tablet.locator("#tablet li").filter(
        has=tablet.get_by_role("heading", name=name, exact=True)
    )


def seat_link(tablet: Page, name: str) -> str:
    """The link printed under a seat's QR code."""
    text = seat(tablet, name).get_by_text(re.compile(r"/s/[A-Za-z0-9_-]{20,}")).inner_text()
    return text.strip()


def seat_qr_svg(tablet: Page, name: str) -> str:
    code = seat(tablet, name).get_by_role("img", name=f"Seat code for {name}")
    return code.locator("svg").evaluate("svg => svg.outerHTML")


def svg_shape(svg: str) -> tuple[str | None, list[str]]:
    """An SVG's view box and path data: what the code looks like, whatever the serialization."""
    root = ET.fromstring(svg)
    paths = [el.get("d", "") for el in root.iter() if el.tag.rsplit("}", 1)[-1] == "path"]
    return root.get("viewBox"), paths


def expected_qr_svg(link: str) -> str:
    import qrcode
    import qrcode.image.svg

    image = qrcode.make(link, image_factory=qrcode.image.svg.SvgPathImage, border=2)
    return image.to_string(encoding="unicode")


def enter_hand(phone: Page, cards: list[str]) -> None:
    phone.locator(f"input[name=card1][value={cards[0]}]").check()
    phone.locator(f"input[name=card2][value={cards[1]}]").check()
    phone.get_by_role("button", name="Save my hand").click()
    expect(phone.get_by_text("Your hand is in.")).to_be_visible()


@dataclass
class Night:
    """One table: the tablet page and each player's phone page."""

    tablet: Page
    phones: dict[str, Page] = field(default_factory=dict)
    links: dict[str, str] = field(default_factory=dict)

    @property
    def pages(self) -> list[Page]:
        return [self.tablet, *self.phones.values()]

    def sync(self, timeout: float = LIVE_MS) -> None:
        """Wait until every screen shows the same version of the table, with no request on
        its way.

        A tap on a screen that is one version behind is refused (409, "The table moved on
        before your tap"), and if the live refresh replaces the screen while that request is
        in flight, the refusal is swapped into the old, detached screen and the tap is lost
        without a word (see the report). People wait for their screen to settle; the tests do
        the same before each tap, so that they test the flow and not that race."""
        deadline = time.monotonic() + timeout / 1000
        while True:
            states = [page.evaluate(SCREEN_STATE) for page in self.pages]
            versions = {v for v, _busy in states}
            if len(versions) == 1 and not any(busy for _v, busy in states):
                return
            if time.monotonic() > deadline:
                shown = {page.url: state for page, state in zip(self.pages, states, strict=True)}
                raise AssertionError(f"the screens did not settle on one version: {shown}")
            self.tablet.wait_for_timeout(25)

    # tablet taps ---------------------------------------------------------------------------

    def tap(self, label: str | re.Pattern[str], exact: bool = True) -> None:
        """Tap a button on the tablet."""
        self.sync()
        self.tablet.locator("#tablet").get_by_role("button", name=label, exact=exact).click()

    def declare(self, action: str, target: str | None = None) -> None:
        """The current player's declaration on the tablet (a target is chosen in a drop-down
        of names under the action's button)."""
        self.sync()
        declare = self.tablet.locator("#tablet .prompt.declare")
        if target is None:
            declare.get_by_role("button", name=re.compile(rf"^{re.escape(action)}\b")).click()
            return
        declare.locator("summary", has_text=action).click()
        declare.get_by_role("button", name=target, exact=True).click()

    def expect_tablet(self, text: str | re.Pattern[str], timeout: float = LIVE_MS) -> None:
        expect(self.tablet.locator("#tablet")).to_contain_text(text, timeout=timeout)

    # phones --------------------------------------------------------------------------------

    def phone(self, name: str) -> Page:
        return self.phones[name]

    def expect_phone(
        self, name: str, text: str | re.Pattern[str], timeout: float = LIVE_MS
    ) -> None:
        expect(self.phones[name].locator("#phone")).to_contain_text(text, timeout=timeout)

    def phone_tap(self, name: str, label: str | re.Pattern[str], exact: bool = True) -> None:
        self.sync()
        page = self.phones[name]
        page.locator("#phone").get_by_role("button", name=label, exact=exact).click()

    def phone_open(self, name: str, summary: str) -> None:
        """Open a phone's folded secret ("Tap to see your options", "Tap to choose")."""
        self.sync()
        page = self.phones[name]
        page.locator("#phone details.secret > summary", has_text=summary).click()

    def lose(self, name: str, card: str) -> None:
        """The player chooses on their phone which card to turn face up."""
        self.expect_phone(name, "choose the card to turn face up")
        self.phone_open(name, "Tap to choose")
        self.phone_tap(name, LABEL[card])

    def draw(self, name: str, card: str) -> None:
        """The player enters on their phone the card drawn from the court deck."""
        self.sync()
        page = self.phones[name]
        form = page.locator("#phone form").filter(has=page.locator("select[name=cards]"))
        form.locator("select[name=cards]").select_option(card)
        form.get_by_role("button", name="Done").click()


def seat_everyone(
    night: Night, new_phone, hands: dict[str, list[str]], check_tablet: bool = False
) -> None:
    """Open every seat's link on its own phone and enter the hands; ``check_tablet`` watches
    the tablet's lobby follow each phone live."""
    tablet = night.tablet
    for name in hands:
        night.links[name] = seat_link(tablet, name)
    for name, cards in hands.items():
        phone = new_phone()
        open_live(phone, night.links[name])
        night.phones[name] = phone
        expect(phone.get_by_role("heading", name=name, exact=True)).to_be_visible()
        expect(phone.get_by_text("Enter the two cards you were dealt")).to_be_visible()
        if check_tablet:
            expect(seat(tablet, name)).to_contain_text("phone connected", timeout=LIVE_MS)
        enter_hand(phone, cards)
        if check_tablet:
            expect(seat(tablet, name)).to_contain_text("hand entered", timeout=LIVE_MS)
            assert_tablet_private(tablet, {})


def start(night: Night, first: str) -> None:
    night.tap("Start the game")
    expect(night.tablet.get_by_role("heading", name=turn(first))).to_be_visible()
    for name in night.phones:
        night.expect_phone(name, turn(first))


def new_night(tablet: Page, new_phone: NewPhone, hands: dict[str, list[str]]) -> Night:
    """A table of these players, every seat on its own phone with its hand, the game started
    (the first player begins)."""
    create_table(tablet, list(hands))
    night = Night(tablet)
    seat_everyone(night, new_phone, hands)
    start(night, next(iter(hands)))
    return night
