"""Warm-up at start: compile every template, load every catalogue and find what each screen
region reads before the first tap.

Jinja compiles a template the first time it is rendered, and an included partial the first
time its ``include`` is reached. Most partials of a game's screens are first reached on the
game's first taps (a challenge window, a block, the first ruling of the log), so the first
tap of an evening paid 60-90 ms of compiling on top of its own work (docs/PERFORMANCE-HISTORY.md).
``coup-referee serve`` runs :func:`warm_up` in a greenlet of its own once it listens: the
banner and the first page are not held back, and ``pause`` between two templates lets a
request that comes meanwhile go first.
"""

from __future__ import annotations

from collections.abc import Callable

from flask import Flask

from app.i18n import LANGUAGES, catalog
from app.web.regions import reads
from app.web.screenregions import PHONE, TABLET
from app.web.templating import ScreensEnvironment


def templates_of(app: Flask) -> list[str]:
    """The names of the app's own templates (the HTML under ``templates/``)."""
    return [name for name in app.jinja_env.list_templates() if name.endswith(".html")]


def warm_up(app: Flask, pause: Callable[[], object] = lambda: None,
            then: Callable[[], object] = lambda: None) -> int:
    """Compile each template into Jinja's cache, load each language's catalogue and find what
    each screen region reads (:func:`app.web.regions.reads`: its partials parsed), calling
    ``pause`` after each, and ``then`` once all is loaded (``serve`` sets what start-up made
    aside from the garbage collector: :func:`app.server.collect_less`); returns the number of
    templates compiled."""
    names = templates_of(app)
    for name in names:
        app.jinja_env.get_template(name)
        pause()
    for language in LANGUAGES:
        catalog(language)
        pause()
    env = app.jinja_env
    assert isinstance(env, ScreensEnvironment)
    for template in {region.template for region in (*TABLET.values(), *PHONE.values())}:
        reads(env, template)  # what each screen region reads: its partials parsed
        pause()
    then()
    return len(names)
