"""Who may do what: the referee's tablet, a seat's phone, and forms no other site can send.

- The tablet that creates a table gets a cookie holding the table's referee token.
- A phone is a device: a random id in a cookie. The first device to open a seat link claims
  that seat; the same link on another device is refused until the referee re-issues it.
- Every form carries a token derived from the secret key and the device or referee token, so
  a page on another site cannot submit it; browsers' Sec-Fetch-Site is checked as well.
- Responses carry a content security policy with no inline script, and private pages are
  never cached. A request naming a public host name is refused (421): the laptop is reached
  by its address or local name, so such a request comes from DNS rebinding.
"""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import re
import secrets
from collections.abc import Iterable
from functools import lru_cache
from typing import TYPE_CHECKING, Final
from urllib.parse import urlsplit

from flask import Flask, Response, current_app, g, request
from werkzeug.sansio.utils import get_current_url
from werkzeug.wrappers import Response as BaseResponse

from app.store import Table, same_secret
from app.web.i18n import _

if TYPE_CHECKING:
    from _typeshed.wsgi import StartResponse, WSGIApplication, WSGIEnvironment

DEVICE_COOKIE: Final = "coup_device"
COOKIE_AGE: Final = 60 * 60 * 24 * 30
DEVICE_ID: Final = re.compile(r"[A-Za-z0-9_-]{20,64}")
"""What a device id of ours looks like; any other cookie value is replaced by a new id."""

CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; font-src 'self'; frame-ancestors 'none'; base-uri 'none'; "
    "form-action 'self'; object-src 'none'"
)


def referee_cookie(table_id: str) -> str:
    return f"coup_ref_{table_id}"


def is_referee(table: Table) -> bool:
    token = request.cookies.get(referee_cookie(table.id), "")
    return bool(token) and same_secret(token, table.referee_token)


def grant_referee(response: BaseResponse, table: Table) -> None:
    response.set_cookie(referee_cookie(table.id), table.referee_token, max_age=COOKIE_AGE,
                        httponly=True, samesite="Strict")


def device_id() -> str:
    """This browser's device id, made on first use (and set as a cookie on the response). A
    cookie that is not one of our ids (too short, odd characters) is replaced, never stored."""
    if "device" not in g:
        value = request.cookies.get(DEVICE_COOKIE, "")
        if not DEVICE_ID.fullmatch(value):
            value = secrets.token_urlsafe(24)
            g.new_device = True
        g.device = value
    return str(g.device)


def csrf_token(scope: str) -> str:
    """The form token of ``scope`` for this device, made once per request (a tap checks the
    one it was sent, then fills it into the screen it answers with)."""
    made: dict[str, str] = g.setdefault("csrf_tokens", {})
    token = made.get(scope)
    if token is None:
        key = str(current_app.config["SECRET_KEY"]).encode()
        token = hmac.new(key, f"{scope}|{device_id()}".encode(), hashlib.sha256).hexdigest()[:32]
        made[scope] = token
    return token


def same_origin() -> bool:
    """Whether the browser says this request came from one of our own pages.

    Current browsers send Sec-Fetch-Site; older ones (Safari before 16.4) still send Origin
    on a POST. Either naming another site (or "null": a sandboxed frame, a redirect from
    elsewhere) means another page sent the form. Neither header: not a browser, so the form
    token alone decides.
    """
    environ = request.environ  # the headers read as request.headers.get reads them
    site = environ.get("HTTP_SEC_FETCH_SITE")
    if site not in (None, "same-origin", "none"):
        return False
    origin = environ.get("HTTP_ORIGIN")
    return origin is None or origin == own_origin(request.scheme, request.host)


def csrf_ok(scope: str) -> bool:
    if not same_origin():
        return False
    sent = request.form.get("csrf", "")
    return isinstance(sent, str) and same_secret(sent, csrf_token(scope))


LOCAL_SUFFIXES: Final = (".local", ".lan", ".home", ".internal", ".home.arpa")


def _name_of(host: str) -> str:
    """A Host header's name: without its port, an IPv6 address without its brackets."""
    name = host.rsplit(":", 1)[0] if not host.endswith("]") else host
    return name.strip("[]")


HOSTS_KEPT: Final = 256
"""Host headers whose checks are remembered: a table's devices send one or two (the laptop's
address, its name), and each check costs 5-15 µs, on every request."""


@lru_cache(maxsize=HOSTS_KEPT)
def own_origin(scheme: str, host: str) -> str:
    """``request.host_url`` without its slash, as a browser's Origin names this server: worked
    out once per scheme and Host (werkzeug builds it anew each time, ~100 Python calls, on
    every form a browser posts: a browser sends Origin with each)."""
    return get_current_url(scheme, host).rstrip("/")


@lru_cache(maxsize=HOSTS_KEPT)
def local_host(host: str, public_url: str | None) -> bool:
    """Whether a request's Host names this laptop as the table knows it: an address, a name
    with no dot (the laptop's own), a local network's name, or the public URL's host. A
    public domain name that resolves here (DNS rebinding: a web page turning a player's
    browser against the laptop) is not one."""
    name = _name_of(host).lower().rstrip(".")
    if not name:
        return False
    try:
        ipaddress.ip_address(name)
        return True
    except ValueError:
        pass
    if "." not in name or name == "localhost" or name.endswith(LOCAL_SUFFIXES):
        return True
    return public_url is not None and urlsplit(public_url).hostname == name


# Programs that fetch a pasted link to draw its preview (iMessage says it is facebookexternalhit
# and Twitterbot; WhatsApp, Telegram, Slack, Discord... name themselves). Such a fetch must not
# claim a seat: the player would then find it taken. In-app browsers (LINE, Facebook's FBAV)
# name themselves otherwise and open the seat as any browser does.
LINK_PREVIEWERS: Final = re.compile(
    r"facebookexternalhit|Facebot|Twitterbot|Slackbot|Slack-ImgProxy|WhatsApp/|TelegramBot|"
    r"Discordbot|LinkedInBot|SkypeUriPreview|Applebot|Googlebot|bingbot|redditbot|"
    r"Mattermost-Bot|vkShare|Iframely|Embedly|Pinterestbot", re.IGNORECASE)


def link_previewer(user_agent: str) -> bool:
    """Whether a request comes from a program drawing a link's preview, not a person."""
    return bool(LINK_PREVIEWERS.search(user_agent))


MAX_HOST = 255


def well_formed_host(host: str) -> bool:
    """Whether a Host header can be a host name at all (werkzeug's router encodes it with
    IDNA, which fails on a label over 63 characters or odd text, before any check of ours)."""
    return len(host) <= MAX_HOST and _idna_name(host)


@lru_cache(maxsize=HOSTS_KEPT)
def _idna_name(host: str) -> bool:
    try:
        _name_of(host).encode("idna")
    except UnicodeError:
        return False
    return True


class HostGuard:
    """WSGI: a request whose Host can't be a host name is answered 400 before Flask routes it
    (it would otherwise end in a 500 and a traceback on the laptop's terminal)."""

    def __init__(self, app: WSGIApplication) -> None:
        self.app = app

    def __call__(self, environ: WSGIEnvironment, start_response: StartResponse
                 ) -> Iterable[bytes]:
        if well_formed_host(environ.get("HTTP_HOST", "")):
            return self.app(environ, start_response)
        start_response("400 Bad Request", [("Content-Type", "text/plain; charset=utf-8")])
        return [b"That request was not understood (its Host header is not a host name).\n"]


def install(app: Flask) -> None:
    app.wsgi_app = HostGuard(app.wsgi_app)  # type: ignore[method-assign]

    @app.before_request
    def known_host() -> Response | None:
        if local_host(request.host, app.config.get("PUBLIC_URL")):
            return None
        return Response(_("This address is not the referee’s: open the one the referee’s "
                          "laptop shows."), 421, {"Content-Type": "text/plain; charset=utf-8"})

    app.after_request(secured)


FIXED_HEADERS: Final = (
    ("X-Frame-Options", "x-frame-options", "DENY"),
    ("X-Content-Type-Options", "x-content-type-options", "nosniff"),
    # same-origin, not no-referrer: with no-referrer a browser sends "Origin: null" on our
    # own form posts. Seat links still never leave this server (no third-party assets).
    ("Referrer-Policy", "referrer-policy", "same-origin"))
"""(name, its lower case, value) of the headers every response gets, replacing any of its own."""
NOT_STORED: Final = ("Cache-Control", "cache-control", "no-store")  # all but static files


def secured(response: Response) -> Response:
    """``response`` with the headers above, the content security policy unless it has its own,
    and a new device's cookie. The names it already has are read in one pass, and a header it
    lacks (the usual case) is appended: a header set by name scans and lowers every header
    the response has, each time (~50 Python calls a tap, for the same bytes)."""
    held = response.headers
    named = {name.lower() for name, _value in held}
    if "content-security-policy" not in named:
        held.add("Content-Security-Policy", CSP)
    fixed = FIXED_HEADERS if request.path.startswith("/static/") else (*FIXED_HEADERS, NOT_STORED)
    for name, lowered, value in fixed:
        if lowered in named:
            held.set(name, value)  # replaces the first, drops the others
        else:
            held.add(name, value)
    if g.get("new_device"):
        response.set_cookie(DEVICE_COOKIE, str(g.device), max_age=COOKIE_AGE,
                            httponly=True, samesite="Lax")
    return response
