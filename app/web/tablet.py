"""The referee's screen: set up a table, seat the phones, play, undo, download the record."""

from __future__ import annotations

import hmac
import json
from typing import Any

from flask import (
    Blueprint,
    Response,
    abort,
    current_app,
    g,
    make_response,
    redirect,
    render_template,
    request,
    url_for,
)
from flask_babel import gettext as _

from app.engine import RuleError, parse_rules, table_view
from app.engine.rules import CHOICES, PRESETS
from app.live import SSE_HEADERS
from app.web import views, words
from app.web.db import get_store
from app.web.names import EDITIONS
from app.web.security import csrf_ok, csrf_token, grant_referee, is_referee, referee_cookie
from app.web.service import Live, Refused, Tables
from app.web.steps import step_from_form

bp = Blueprint("tablet", __name__)

MAX_NAME = 24


def tables() -> Tables:
    return current_app.extensions["tables"]


def scope(live: Live) -> str:
    return f"table:{live.table.id}"


def load_for_referee(table_id: str) -> Live:
    live = tables().load(get_store(), table_id)
    if live is None:
        abort(404)
    if not is_referee(live.table):
        abort(403)
    g.language = live.table.language
    return live


# -- a new table ---------------------------------------------------------------------------


@bp.get("/")
def home() -> str:
    store = get_store()
    mine = []
    for name in request.cookies:
        if name.startswith(referee_cookie("")):
            live = tables().load(store, name[len(referee_cookie("")):])
            if live is not None and is_referee(live.table):
                mine.append(live)
    mine.sort(key=lambda live: live.table.created, reverse=True)
    return render_template("home.html", mine=mine, form={}, message=None, **setup_context())


def setup_context() -> dict[str, Any]:
    from app.web.words import PRESET_TITLES, SETTINGS

    return {"editions": EDITIONS, "presets": PRESETS, "preset_titles": PRESET_TITLES,
            "settings": SETTINGS, "choices": CHOICES, "csrf": csrf_token("home"),
            "languages": views.languages()}


@bp.post("/tables")
def create():
    form = request.form
    if not csrf_ok("home"):
        return refuse_page(_("This form has expired; please try again."), 400)
    try:
        settings = settings_from_form(form)
    except Refused as e:
        return render_template("home.html", mine=[], form=form, message=e.message,
                               **setup_context()), 422
    store = get_store()
    table = store.create_table(settings, seats=settings.pop("players"),
                               language=table_language(form.get("language")))
    store.update_table(table.id, setup=settings)
    response = redirect(url_for("tablet.page", table_id=table.id), 303)
    grant_referee(response, table)
    return response


def table_language(chosen: str | None) -> str:
    """The language chosen on the form, else the one this page was shown in."""
    from flask_babel import get_locale

    from app.web import LANGUAGES

    if chosen in LANGUAGES:
        return str(chosen)
    return str(get_locale() or LANGUAGES[0])


def settings_from_form(form) -> dict[str, Any]:
    names = [n.strip() for n in form.get("players", "").splitlines() if n.strip()]
    if not 2 <= len(names) <= 10:
        raise Refused(_("Enter 2 to 10 player names, one per line, in seat order."))
    if len(set(n.casefold() for n in names)) != len(names):
        raise Refused(_("Two players have the same name; add an initial to tell them apart."))
    if any(len(n) > MAX_NAME for n in names):
        raise Refused(_("Keep names to %(n)s letters.", n=MAX_NAME))
    first = form.get("first") or names[0]
    if first not in names:
        first = names[0]
    edition = form.get("edition", "official")
    if edition not in EDITIONS:
        raise Refused(_("Unknown edition."))
    rules: dict[str, Any] = {}
    preset = form.get("preset") or EDITIONS[edition].preset
    if preset not in PRESETS:
        raise Refused(_("Unknown rule preset."))
    if preset != "official":
        rules["preset"] = preset
    for key, values in CHOICES.items():
        raw = form.get(key)
        if raw is None or raw == "":
            continue
        value = next((v for v in values if str(v).lower() == raw.lower()), None)
        if value is None:
            raise Refused(_("Unknown value for a rule setting."))
        if value != PRESETS[preset].get(key, values[0]):
            rules[key] = value
    if form.get("coins_in_box"):
        try:
            rules["coins_in_box"] = int(form["coins_in_box"])
        except ValueError:
            raise Refused(_("Coins in the box must be a number.")) from None
    if rules.get("two_player_setup") == "choose_hand" and len(names) != 2:
        raise Refused(_("Choosing hands from sets of five is for two players only."))
    try:
        parse_rules(rules)
    except RuleError as e:
        raise Refused(words.say(e.text, e.params, None, e.count)) from None
    return {"players": names, "first": first, "rules": rules, "edition": edition}


@bp.post("/tables/import")
def import_():
    """Start a table from a game record: to continue a game or replay a dispute."""
    from app.records import RecordError, parse
    from app.web.importer import import_record

    if not csrf_ok("home"):
        return refuse_page(_("This form has expired; please try again."), 400)
    upload = request.files.get("record")
    try:
        data = json.loads(upload.read().decode("utf-8")) if upload else None
        table = import_record(get_store(), parse(data), table_language(None))
    except RecordError as e:
        reason = words.say(e.text, e.params, None, e.count)
        message = _("That file is not a game record we can load: %(reason)s", reason=reason)
        return render_template("home.html", mine=[], form={}, message=message,
                               **setup_context()), 422
    except ValueError:  # not UTF-8 text, or not JSON
        message = _("That file is not a game record we can load: it is not JSON.")
        return render_template("home.html", mine=[], form={}, message=message,
                               **setup_context()), 422
    response = redirect(url_for("tablet.page", table_id=table.id), 303)
    grant_referee(response, table)
    return response


# -- the tablet ----------------------------------------------------------------------------


@bp.get("/t/<table_id>")
def page(table_id: str):
    key = request.args.get("key")
    if key is not None:  # the link printed by `coup-referee import` makes this the referee
        table = get_store().get_table(table_id)
        if table is None or not hmac.compare_digest(key, table.referee_token):
            abort(403)
        response = redirect(url_for("tablet.page", table_id=table_id), 303)
        grant_referee(response, table)
        return response
    live = load_for_referee(table_id)
    return render_template("tablet.html", csrf=csrf_token(scope(live)), message=None,
                           **views.tablet(live))


@bp.get("/t/<table_id>/view")
def fragment(table_id: str):
    store = get_store()
    table = store.get_table(table_id)
    if table is None:
        abort(404)
    if not is_referee(table):
        abort(403)
    if request.args.get("since") == str(store.version(table_id)):
        return Response(status=204)  # the usual answer to a poll: nothing to load or render
    live = load_for_referee(table_id)
    return render_template("_tablet.html", csrf=csrf_token(scope(live)), message=None,
                           **views.tablet(live))


def answer(live_before: Live, message: str | None = None, status: int = 200):
    """The fresh tablet: a fragment for htmx, or the whole page after a plain form post."""
    live = tables().load(get_store(), live_before.table.id)
    assert live is not None
    if request.headers.get("HX-Request") != "true":
        if message is None:
            return redirect(url_for("tablet.page", table_id=live.table.id), 303)
        return render_template("tablet.html", csrf=csrf_token(scope(live)), message=message,
                               **views.tablet(live)), status
    return render_template("_tablet.html", csrf=csrf_token(scope(live)), message=message,
                           **views.tablet(live)), status


def guarded(table_id: str, action) -> Any:
    live = load_for_referee(table_id)
    if not csrf_ok(scope(live)):
        return answer(live, _("This screen was out of date; please try again."), 400)
    try:
        action(live)
    except Refused as e:
        return answer(live, e.message, e.status)
    return answer(live)


@bp.post("/t/<table_id>/step")
def step(table_id: str):
    def act(live: Live) -> None:
        s = step_from_form(request.form, live, request.form.get("by"))
        tables().submit(get_store(), live, request.form.get("version"), s)

    return guarded(table_id, act)


@bp.post("/t/<table_id>/undo")
def undo(table_id: str):
    return guarded(table_id, lambda live: tables().undo(get_store(), live,
                                                        request.form.get("version")))


@bp.post("/t/<table_id>/start")
def start(table_id: str):
    return guarded(table_id, lambda live: tables().start(get_store(), live,
                                                         request.form.get("version")))


@bp.post("/t/<table_id>/rematch")
def rematch(table_id: str):
    return guarded(table_id, lambda live: tables().rematch(get_store(), live,
                                                           request.form.get("version")))


@bp.post("/t/<table_id>/seat/<int:seat_no>/tracked")
def tracked(table_id: str, seat_no: int):
    def act(live: Live) -> None:
        if not any(s.seat == seat_no for s in live.seats):
            raise Refused(_("There is no such seat."), 404)
        tables().set_tracked(get_store(), live, request.form.get("version"), seat_no,
                             request.form.get("tracked") == "1")

    return guarded(table_id, act)


@bp.post("/t/<table_id>/seat/<int:seat_no>/reissue")
def reissue(table_id: str, seat_no: int):
    def act(live: Live) -> None:
        if not any(s.seat == seat_no for s in live.seats):
            raise Refused(_("There is no such seat."), 404)
        get_store().reissue_seat_token(live.table.id, seat_no)
        tables().touch(get_store(), live)

    response = guarded(table_id, act)
    if request.form.get("back") == "phones" and getattr(response, "status_code", 0) == 303:
        return redirect(url_for("tablet.phones", table_id=table_id), 303)
    return response


@bp.post("/t/<table_id>/join-code")
def join_code(table_id: str):
    return guarded(table_id, lambda live: tables().new_join_code(live.table.id))


@bp.route("/t/<table_id>/join", methods=["GET", "POST"])
def join(table_id: str):
    """Another device becomes a referee of this table with the code shown on the tablet."""
    table = get_store().get_table(table_id)
    if table is None:
        abort(404)
    message = None
    if request.method == "POST":
        if csrf_ok(f"join:{table_id}") and tables().redeem(table_id, request.form.get("code", "")):
            response = redirect(url_for("tablet.page", table_id=table_id), 303)
            grant_referee(response, table)
            return response
        message = _("That code is not right or has expired. Ask for a new one on the tablet.")
    return render_template("join.html", table_id=table_id, message=message,
                           csrf=csrf_token(f"join:{table_id}")), (422 if message else 200)


@bp.get("/t/<table_id>/phones")
def phones(table_id: str):
    """Mid-game, a phone that died or was swapped gets its seat back with a new code."""
    live = load_for_referee(table_id)
    ctx = views.tablet(live)
    ctx["qr"] = {s.seat: views.qr_svg(ctx["seat_links"][s.seat]) for s in live.seats}
    return render_template("phones.html", csrf=csrf_token(scope(live)), message=None, **ctx)


@bp.get("/t/<table_id>/record.json")
def record(table_id: str):
    live = load_for_referee(table_id)
    try:
        data = tables().record(live)
    except Refused as e:
        return refuse_page(e.message, e.status)
    response = make_response(json.dumps(data, ensure_ascii=False, indent=1))
    response.headers["Content-Type"] = "application/json; charset=utf-8"
    response.headers["Content-Disposition"] = f'attachment; filename="coup-{table_id[:8]}.json"'
    return response


@bp.get("/t/<table_id>/log")
def log(table_id: str):
    """Every ruling of the game so far, oldest first, to settle a dispute."""
    live = load_for_referee(table_id)
    rulings = table_view(live.game)["log"] if live.game else []
    return render_template("log.html", back=url_for("tablet.page", table_id=table_id),
                           rulings=rulings, **views.common(live))


@bp.get("/t/<table_id>/rules")
def rules(table_id: str):
    live = load_for_referee(table_id)
    return render_template("rules.html", back=url_for("tablet.page", table_id=table_id),
                           rows=views.rules_summary(live), **views.common(live))


@bp.get("/t/<table_id>/events")
def events(table_id: str):
    live = load_for_referee(table_id)
    return stream(live)


def stream(live: Live) -> Response:
    from app.live import stream as sse
    from app.store import Store

    database = current_app.config["DATABASE"]

    def current() -> int:
        with Store.open(database) as store:
            return store.version(live.table.id)

    # No request context is kept for the stream: it would hold this request's database
    # connection open for as long as the phone listens.
    body = sse(live.table.id, live.version, current)
    return Response(body, headers=SSE_HEADERS)


def refuse_page(message: str, status: int):
    return render_template("message.html", message=message), status
