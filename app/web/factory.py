"""The Flask app factory. Blueprints for the table, the seats and live updates plug in here.

The top-level ``templates/`` and ``static/`` folders sit beside ``app/`` (a project requirement),
so the factory passes their absolute paths. The instance folder holds the database and the
secret key; by default it is the top-level ``instance/``.
"""

from __future__ import annotations

import gzip
import sqlite3
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path
from typing import Any, Final

from flask import Flask, Request, Response, make_response, render_template, request
from flask.sessions import SessionInterface, SessionMixin
from flask.typing import ResponseReturnValue
from flask_compress import Compress
from werkzeug.datastructures import Headers
from werkzeug.exceptions import HTTPException
from werkzeug.http import parse_accept_header

from app.i18n import TRANSLATIONS, compile_catalogs
from app.live import Broker
from app.secret import secret_key
from app.store import init_db
from app.web import (
    home,
    i18n,
    links,
    loglines,
    minified,
    night,
    phone,
    pieces,
    players,
    security,
    tablet,
    tabletframe,
)
from app.web.answered import Answered
from app.web.fragments import Fragments
from app.web.i18n import _
from app.web.phone import SEAT_LINKS, seat_link_methods
from app.web.pool import StorePool
from app.web.screens import speak_the_table_s_language, whole_page
from app.web.service import Tables
from app.web.templating import ScreensEnvironment

PACKAGE = Path(__file__).resolve().parents[1]
PROJECT_ROOT = PACKAGE.parent
# An installed wheel carries templates/ and static/ inside the package (pyproject.toml).
TEMPLATES = next((p for p in (PACKAGE / "templates", PROJECT_ROOT / "templates") if p.is_dir()),
                 PROJECT_ROOT / "templates")
STATIC = next((p for p in (PACKAGE / "static", PROJECT_ROOT / "static") if p.is_dir()),
              PROJECT_ROOT / "static")
DEFAULT_INSTANCE = PROJECT_ROOT / "instance"
GONE: Final = (403, 404)
"""An error page that ends a screen: loaded whole, never swapped into it (:func:`whole_page`)."""


def create_app(instance_path: str | None = None, config: dict[str, Any] | None = None) -> Flask:
    """Build the app. ``config`` overrides the defaults (tests pass ``TESTING`` and so on).

    Config keys of ours: ``DATABASE`` (path; default ``<instance>/coup.sqlite``) and
    ``PUBLIC_URL`` (the URL phones can open, set by ``coup-referee serve``; None means use the
    request's own host). The app's service, with its connection pool and its live-update
    broker, is ``app.extensions["tables"]``.
    """
    instance = Path(instance_path or DEFAULT_INSTANCE).resolve()
    instance.mkdir(parents=True, exist_ok=True)
    app = RefereeApp(__name__, instance_path=str(instance), template_folder=str(TEMPLATES),
                     static_folder=str(STATIC), static_url_path="/static")
    app.jinja_environment = ScreensEnvironment  # before app.jinja_env is first made
    app.config.from_mapping(
        DATABASE=str(instance / "coup.sqlite"),
        MAX_CONTENT_LENGTH=64 * 1024,
        PUBLIC_URL=None,
    )
    if config:
        app.config.from_mapping(config)
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = _instance_secret(instance)

    app.session_interface = NoSessions()
    compile_catalogs(TRANSLATIONS)  # .mo files are built, not kept in git
    i18n.install(app)
    links.install(app)
    pieces.install(app)
    app.jinja_env.globals["log_html"] = loglines.log_html
    app.jinja_env.globals["remembered"] = tabletframe.remembered
    init_db(app.config["DATABASE"])
    app.extensions["tables"] = Tables(StorePool(app.config["DATABASE"]), Broker())
    app.extensions["fragments"] = Fragments()
    app.extensions["answered"] = Answered()
    minified.install(app)
    _compress(app)

    @app.get("/healthz")
    def healthz() -> tuple[str, int, dict[str, str]]:
        return "ok", 200, {"Content-Type": "text/plain; charset=utf-8"}

    app.register_blueprint(home.bp)
    app.register_blueprint(tablet.bp)
    app.register_blueprint(phone.bp)
    app.register_blueprint(night.bp)
    app.register_blueprint(players.bp)
    security.install(app)
    _error_pages(app)
    return app


def _error_pages(app: Flask) -> None:
    """Every error is a page a person can read, with a 4xx status: never a bare 500."""
    messages = {
        400: lambda: _("That request was not understood."),
        403: lambda: _("This screen belongs to someone else. The referee’s screen opens on the "
                       "tablet that created the table; a seat opens on its player’s phone."),
        404: lambda: _("There is nothing here. The link may be old: ask the referee for a new "
                       "one."),
        405: lambda: _("That can’t be done from here."),
        413: lambda: _("That was too much to send."),
    }

    @app.errorhandler(HTTPException)
    def http_error(error: HTTPException) -> ResponseReturnValue:
        if error.response is not None:
            return error.response
        code = error.code or 500
        speak_the_table_s_language()
        text = messages.get(code, lambda: _("Something went wrong; please try again."))()
        # The error's own headers but its page's type: a 405's Allow (which HTTP requires).
        kept = [(name, value) for name, value in error.get_headers()
                if name.lower() != "content-type"]
        page = make_response(render_template("message.html", message=text), code, kept)
        return whole_page(page) if code in GONE else page

    @app.errorhandler(sqlite3.OperationalError)
    def database_trouble(error: sqlite3.OperationalError) -> ResponseReturnValue:
        """Another program holding the database, or a database this user can't write: the
        laptop's trouble, said in one log line, never a 500 (nothing was written)."""
        app.logger.warning("database: %s", error)
        if "readonly" in str(error) or "read-only" in str(error):
            text = _("The referee’s laptop can’t write its database (it is read-only): the game "
                     "is as it was. The referee must give the database file back its write "
                     "permission and start the referee again.")
        else:
            text = _("The referee’s laptop is busy (another program holds its database): the "
                     "game is as it was. Try again in a moment.")
        return render_template("message.html", message=text), 503

    @app.errorhandler(Exception)
    def crash(error: Exception) -> ResponseReturnValue:
        app.logger.exception("unexpected error")
        text = _("Something went wrong on the referee’s laptop; the game is safe. Try again.")
        return render_template("message.html", message=text), 500


def _compress(app: Flask) -> None:
    """Pages, fragments and static files go out compressed when the browser accepts it (about a
    third of the bytes: docs/PERFORMANCE-HISTORY.md). The SSE stream must not be: a compressor
    would hold events back. So no streamed response is ever compressed, and text/event-stream
    is not in the list either; static files are read into memory first (they are small) so
    that they are compressed like pages, and their file is closed as usual."""
    app.config.setdefault("COMPRESS_MIMETYPES", [
        "text/html", "text/css", "text/javascript", "application/javascript",
        "application/json", "image/svg+xml", "text/plain"])
    app.config.setdefault("COMPRESS_STREAMS", False)
    app.config["COMPRESS_REGISTER"] = False  # its hook is called by ours, below
    compress = Compress(app)

    @app.after_request
    def compressed(response: Response) -> Response:
        """A screen htmx asked for gzipped quickly, before Compress: at level 1 it costs half
        of level 6's CPU for ~10% more bytes (docs/PERFORMANCE-HISTORY.md, round nine), on a LAN
        where bytes are cheap and an old laptop's CPU is not; a tap's answer is one. Pages
        and static files keep Compress's level (their bytes are the first load's weight),
        and a browser that prefers zstd or br gets Compress's choice. One hook, not three:
        a gzipped screen needs only Compress's Vary header (its hook would parse the
        Accept-Encoding and read the headers again to find the answer compressed: ~60
        Python calls a tap)."""
        if _screen_to_gzip(response):
            response.set_data(gzip.compress(response.get_data(), SCREEN_GZIP_LEVEL))
            response.headers.add("Content-Encoding", "gzip")  # it had none: appended
            _vary_by_encoding(response.headers)
            return response
        if request.endpoint == "static" and response.is_streamed:
            response.direct_passthrough = False
            response.make_sequence()
        return compress.after_request(response)


def _vary_by_encoding(headers: Headers) -> None:
    """What Flask-Compress's hook adds to every response it sees: Vary names Accept-Encoding
    (tests/test_response_hooks.py compares the headers with its own). The headers are read in
    one pass: a missing one looked up by name raises and catches a KeyError inside."""
    vary = [value for name, value in headers if name.lower() == "vary"]
    if not vary:
        headers.add("Vary", "Accept-Encoding")
    elif "accept-encoding" not in vary[0].lower():
        headers.set("Vary", f"{vary[0]}, Accept-Encoding")


SCREEN_GZIP_LEVEL: Final = 1
SCREEN_MIN_BYTES: Final = 500  # Compress's own threshold: below it, gzip saves nothing


def _screen_to_gzip(response: Response) -> bool:
    """Whether ``response`` is a screen htmx asked for (a tap's answer, a fetch: a whole
    page, the first load, keeps Compress's level for its weight), whole and big enough, for
    a browser whose first choice of Compress's encodings is gzip."""
    environ = request.environ  # "HX-Request" in request.headers, without its KeyError inside
    return ("HTTP_HX_REQUEST" in environ and response.status_code == 200
            and response.mimetype == "text/html" and not response.is_streamed
            and (response.content_length or 0) >= SCREEN_MIN_BYTES
            and "Content-Encoding" not in response.headers
            and _gzip_first(environ.get("HTTP_ACCEPT_ENCODING", "")))


@lru_cache(maxsize=64)
def _gzip_first(accept_encoding: str) -> bool:
    """Whether gzip is a browser's first choice of Compress's encodings, by its
    Accept-Encoding header (as ``request.accept_encodings`` reads it): parsed once per header,
    not on every tap (a table's devices send one or two; 64 are kept)."""
    return parse_accept_header(accept_encoding).best_match(("zstd", "br", "gzip")) == "gzip"


SYNC_KEPT: Final = 256
"""Functions whose sync check :class:`RefereeApp` remembers: the app's views and hooks (a few
dozen). Beyond it (a function made per request, which none of ours is) each is checked anew."""


class RefereeApp(Flask):
    """Flask, with each view's and hook's check for ``async def`` made once. Flask asks
    :meth:`ensure_sync` of every hook and the view on every request (six times a tap), and
    each answer was ~9 Python calls through :mod:`inspect`; what it answers for a function
    can't change (its code's flags are fixed once it is defined)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._sync: dict[Callable[..., Any], Callable[..., Any]] = {}

    def ensure_sync(self, func: Callable[..., Any]) -> Callable[..., Any]:
        sync = self._sync.get(func)
        if sync is None:
            sync = super().ensure_sync(func)
            if len(self._sync) < SYNC_KEPT:
                self._sync[func] = sync
        return sync

    def make_default_options_response(self) -> Response:
        """OPTIONS as Flask answers it, but a seat link's: it refuses HEAD (a link previewer's
        HEAD claims nothing: :func:`app.web.phone.opened`), so its Allow doesn't list HEAD."""
        response = super().make_default_options_response()
        if request.path.startswith(SEAT_LINKS):
            response.headers["Allow"] = ", ".join(seat_link_methods())
        return response


class NoSessions(SessionInterface):
    """No page uses Flask's session (the app's cookies are its own: security.py), so none is
    opened: that was a signing serializer built on every request. Writing to it would fail."""

    def open_session(self, app: Flask, request: Request) -> SessionMixin:
        return self.make_null_session(app)

    def save_session(self, app: Flask, session: SessionMixin, response: Response) -> None:
        return None


def _instance_secret(instance: Path) -> str:
    """A secret key kept in the instance folder, so sessions survive a restart of the laptop.

    Never empty: :func:`app.secret.secret_key` makes it, replaces an empty one and refuses
    a bad one with :class:`app.instance.InstanceProblem` (one line for the command line)."""
    return secret_key(instance)
