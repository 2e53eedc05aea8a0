"""The start page: a new table from the set-up form, or one loaded from a game record."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue
from werkzeug.datastructures import MultiDict

from app.editions import EDITIONS
from app.engine import PRESETS, Answers
from app.engine.rules import CHOICES
from app.engine.table import look_alike
from app.i18n import LANGUAGES
from app.records import RecordError
from app.store import Table
from app.web import setting_words, words
from app.web.i18n import _, language, voice
from app.web.importer import NestedTooDeeply, record_from_upload
from app.web.refusals import Refusal
from app.web.screens import languages, message_page, tables
from app.web.security import csrf_ok, csrf_token, grant_referee, is_referee, referee_cookie

bp = Blueprint("home", __name__)


class FormProblem(Exception):
    """A set-up form that can't be read; the message is for the person who sent it, shown
    beside ``field`` when it is about one field, else above the form."""

    def __init__(self, message: str, field: str | None = None) -> None:
        super().__init__(message)
        self.field = field


@bp.get("/")
def page() -> ResponseReturnValue:
    return home_page()


def home_page(form: MultiDict[str, str] | None = None, message: str | None = None,
              status: int = 200, field: str | None = None) -> ResponseReturnValue:
    chosen = form.get("edition") if form else None
    # The explanations name cards as the box the form shows chosen.
    page_voice = voice(chosen if chosen in EDITIONS else None)
    return render_template("home.html", mine=mine(), form=form or {}, message=message,
                           problem_field=field,
                           editions=EDITIONS, presets=PRESETS,
                           preset_titles=setting_words.preset_titles(page_voice),
                           settings=setting_words.settings(page_voice), voice=page_voice,
                           choices=CHOICES, csrf=csrf_token("home"),
                           languages=languages()), status


def mine() -> list[tuple[str, list[str]]]:
    """The tables this device referees, newest first: (id, the players' names)."""
    prefix = referee_cookie("")
    found = []
    for name in request.cookies:
        if name.startswith(prefix):
            state = tables().load(name[len(prefix):])
            if state is not None and is_referee(state.table):
                found.append((state.table.created, state.table.id, [s.name for s in state.seats]))
    return [(table_id, names) for _created, table_id, names in sorted(found, reverse=True)]


def to_the_table(table: Table) -> ResponseReturnValue:
    response = redirect(url_for("tablet.page", table_id=table.id), 303)
    grant_referee(response, table)
    return response


@bp.post("/tables")
def create() -> ResponseReturnValue:
    form = request.form
    if not csrf_ok("home"):
        return message_page(_("This form has expired; please try again."), 400)
    try:
        names, settings = settings_from_form(form)
        table = tables().create(settings, names, table_language(form.get("language")),
                                client=request.remote_addr or "")
    except FormProblem as problem:
        return home_page(form, str(problem), 422, problem.field)
    except Refusal as refusal:
        return home_page(form, words.refusal(refusal, None), refusal.status)
    return to_the_table(table)


@bp.post("/tables/import")
def load_record() -> ResponseReturnValue:
    """Start a table from a game record: to continue a game or replay a dispute."""
    if not csrf_ok("home"):
        return message_page(_("This form has expired; please try again."), 400)
    upload = request.files.get("record")
    try:
        record = record_from_upload(upload.read() if upload else b"")
        table = tables().import_record(record, table_language(None),
                                       client=request.remote_addr or "")
    except RecordError as e:
        reason = words.sentence(e.text, e.params, None, e.count)
        # TRANSLATORS: error on the start page. reason: why, a sentence of its own.
        return home_page(message=_("That file is not a game record we can load: %(reason)s",
                                   reason=reason), status=422)
    except NestedTooDeeply:
        return home_page(message=_("That file is not a game record we can load: it is nested "
                                   "too deeply."), status=422)
    except ValueError:  # not UTF-8 text, or not JSON
        return home_page(message=_("That file is not a game record we can load: it is not "
                                   "JSON."), status=422)
    except Refusal as refusal:
        return home_page(message=words.refusal(refusal, None), status=refusal.status)
    return to_the_table(table)


def table_language(chosen: str | None) -> str:
    """The language chosen on the form, else the one this page was shown in."""
    if chosen in LANGUAGES:
        return str(chosen)
    return language()


def settings_from_form(form: MultiDict[str, str]) -> tuple[list[str], dict[str, Any]]:
    """The players' names and the table's settings (FORMAT.md ``rules``, the edition, who
    starts) as the set-up form gives them. The service checks them against the rules."""
    names = [n.strip() for n in form.get("players", "").splitlines() if n.strip()]
    first = starter(form.get("first", "").strip(), names)
    edition = form.get("edition", "official")
    if edition not in EDITIONS:
        raise FormProblem(_("Unknown edition."))
    preset = form.get("preset") or EDITIONS[edition].preset
    if preset not in PRESETS:
        raise FormProblem(_("Unknown rule preset."))
    rules: dict[str, Any] = {} if preset == "official" else {"preset": preset}
    for key, values in CHOICES.items():
        raw = form.get(key) or ""
        value = next((v for v in values if str(v).lower() == raw.lower()), None) if raw else None
        if raw and value is None:
            raise FormProblem(_("Unknown value for a rule setting."))
        if raw and value != PRESETS[preset].get(key, values[0]):
            rules[key] = value
    if form.get("coins_in_box"):
        try:
            rules["coins_in_box"] = int(form["coins_in_box"])
        except ValueError:
            raise FormProblem(_("Coins in the box must be a number.")) from None
    answers = form.get("answers") or Answers.BOTH.value
    if answers not in {a.value for a in Answers}:
        raise FormProblem(_("Unknown choice of who answers."))
    return names, {"first": first, "rules": rules, "edition": edition, "answers": answers}


def starter(typed: str, names: list[str]) -> str:
    """Who starts: the player whose name was typed in "Who starts" (as the eye reads it:
    "ann" is Ann), the first player if nothing was typed; a name that is no player's (a
    typo) is refused."""
    if not typed:
        return names[0] if names else ""
    if not names:  # the service says what is missing
        return typed
    same = [n for n in names if look_alike(n) == look_alike(typed)]  # "ann" is Ann
    if same:
        return same[0]
    # TRANSLATORS: beside "Who starts" on the start page. name: what was typed; players: the
    # players' names joined with commas.
    raise FormProblem(_("“%(name)s” is not one of the players. Who starts must be one of: "
                        "%(players)s.", name=typed, players=", ".join(names)), field="first")
