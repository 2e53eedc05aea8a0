"""A screen's regions, each drawn again only when what it shows changed.

A tap changes some regions of each screen (whose turn it is, the coins, the questions) and
leaves the others as they were (an idle seat's questions, the night's tools, the referee's
tools). Each region is a partial template drawn from what it reads of the screen's view and
nothing else, and remembered by exactly that (:meth:`app.web.fragments.Fragments.alike`): the
names the partial reads are found in its source (and the partials it includes), so anything it
shows is in its key and a region can never be stale. A view read only in part (the engine's
view, which has every player and ruling) names the keys the region reads (``narrow``), and a
region that reads less in some cases says what (``cut``); either one leaving out something the
partial reads would draw it differently, which tests/web/test_regions_never_stale.py checks.

A region is drawn with :data:`~app.web.fragments.VERSION_SLOT` and
:data:`~app.web.fragments.CSRF_SLOT` in its forms; :meth:`Placed.place` fills in the screen's
version, and the form token when the screen is not itself remembered with its slot.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from itertools import chain
from typing import Any, Final

from flask.globals import _cv_app, _cv_request
from jinja2 import Environment, meta, nodes
from markupsafe import Markup

from app.web.fragments import CSRF_SLOT, VERSION_SLOT
from app.web.i18n import language
from app.web.screens import fragments
from app.web.templating import ScreensEnvironment

SLOTS: Final = frozenset({"csrf", "version"})
"""Filled in when the screen is placed, not part of what a region shows."""

MADE_BY: Final[Mapping[str, tuple[str, ...]]] = {
    "card": ("voice",), "act": ("voice",), "faction": ("voice",), "ruling": ("voice",),
    "brief": ("voice",), "card_list": ("voice",), "claim_of": ("rules",),
    "claim_words": ("rules",), "yours": ("voice", "name"), "waiting_to_you": ("voice", "name"),
}
"""The view's helpers (:func:`app.web.views.common`, :func:`app.web.views.phone`), each
made from the names it is keyed by instead: a function is never equal to the last one."""

SPOKEN_IN: Final = "voice"
"""What every partial reads without naming it: ``_()``, ``ngettext()`` and the face-down
card's label speak the screen's voice (:func:`app.web.i18n.voice_of`), the box's words."""


@dataclass(frozen=True)
class Region:
    """A partial of a screen, remembered by what it reads of the screen's view."""

    template: str
    narrow: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    cut: Callable[[dict[str, Any]], dict[str, Any]] | None = None
    """What of its names the partial reads in the case at hand (those it would not read are
    left out of its key), when that is less than all of them."""
    python: Callable[[Mapping[str, Any]], str] | None = None
    """What draws the partial's bytes from its scope in Python, where one is cheaper than the
    template run (the partial stays the reference, and what it reads the key)."""
    kept: int = 1
    """How many of its drawings are remembered: more than the newest only for a region that
    comes back to what it showed (a seat's answers, the coins of a seat's row); for the others
    an older drawing is never asked for again, and kept it holds its key's values."""

    def scope(self, env: ScreensEnvironment, view: Mapping[str, Any]) -> dict[str, Any]:
        """What the partial is drawn from: the names it reads (narrowed views cut down)."""
        scope = {name: view[name] for name in reads(env, self.template) if name in view}
        for name, keys in self.narrow.items():
            if name in scope:
                scope[name] = {key: scope[name][key] for key in keys if key in scope[name]}
        return scope if self.cut is None else self.cut(scope)

    def shows(self, scope: Mapping[str, Any]) -> tuple[Any, ...]:
        """The key the region is remembered by: every name of ``scope`` and its value, but the
        helpers (made from values that are in it), in one flat tuple (name, value, name, ...):
        one object kept per drawing rather than a pair per name, for every region of every
        screen remembered (and walked by the garbage collector until it is old)."""
        return tuple(chain.from_iterable(
            [item for item in scope.items() if item[0] not in MADE_BY]))

    def keyable(self, shown: tuple[Any, ...]) -> None:
        """Refuse a key (:meth:`shows`) holding a function: it can't say what it shows.
        Checked where the region is drawn, not at each look-up (~80 Python calls a tap): a
        key with a function in it is never found before its first drawing, so a region that
        reads one fails the first time it is placed."""
        for name, value in zip(shown[::2], shown[1::2], strict=True):
            if callable(value):
                raise TypeError(f"{self.template} reads {name}, a function it can't be keyed by")


def reads(env: ScreensEnvironment, template: str) -> tuple[str, ...]:
    """The names ``template`` (and every partial it includes) reads from its context in the
    app whose environment is ``env``, with those its helpers are made from, in one order;
    found once per app (the environment's ``names_read``)."""
    found = env.names_read.get(template)
    if found is None:
        read = (_context_names(env, template) | {SPOKEN_IN}) - set(env.globals) - SLOTS
        found = tuple(sorted(read | {made for name in read for made in MADE_BY.get(name, ())}))
        env.names_read[template] = found
    return found


def _context_names(env: Environment, template: str) -> set[str]:
    """The names ``template`` reads from its context: its own, and those of each partial it
    includes that it does not set itself first."""
    source = env.loader.get_source(env, template)[0] if env.loader else ""
    tree = env.parse(source)
    read = set(meta.find_undeclared_variables(tree))
    stored = {name.name for name in tree.find_all(nodes.Name) if name.ctx == "store"}
    for include in tree.find_all(nodes.Include):
        if isinstance(include.template, nodes.Const):
            read |= _context_names(env, include.template.value) - stored
    return read


class Placed:
    """The regions of one screen as it is placed: its table, audience (the tablet, or one
    seat's link), version, form token (or :data:`CSRF_SLOT`) and view. Made once per screen
    drawn, in its request: the language and the links' base are the request's."""

    def __init__(self, regions: Mapping[str, Region], table_id: str, audience: str,
                 version: int, csrf: str, view: Mapping[str, Any]) -> None:
        # A copy: the screen's view then holds this placer (its ``place``) without the placer
        # holding that view, a reference cycle that kept every view drawn until the garbage
        # collector came (tests/web/test_no_garbage_cycles.py).
        self.regions, self.table_id, self.view = regions, table_id, dict(view)
        self.version, self.csrf = str(version), csrf
        # Flask's context variables read directly: ``request`` and ``current_app`` are proxies,
        # two more Python calls each, and a tap places some 14 screens' regions.
        self.audience = (audience, language(), _cv_request.get().request.script_root)
        env = _cv_app.get().app.jinja_env
        assert isinstance(env, ScreensEnvironment)
        self.fragments, self.env = fragments(), env

    def place(self, name: str, part: str = "", **given: Any) -> Markup:
        """The region ``name`` (``part`` of it, drawn from the values ``given``: one seat of
        several), drawn only if what it shows changed, with this screen's version (and form
        token) in its forms: as markup, for a template."""
        return Markup(self.html(name, part, **given))

    def html(self, name: str, part: str = "", **given: Any) -> str:
        """:meth:`place` as a string, for a screen put together in Python (a ``Markup`` made
        for each region placed was three Python calls)."""
        region = self.regions[name]
        scope = region.scope(self.env, {**self.view, **given} if given else self.view)
        shown = region.shows(scope)
        html = self.fragments.alike(self.table_id, (name, *self.audience, part), shown,
                                    lambda: self._keyed(region, scope, shown), region.kept)
        html = html.replace(VERSION_SLOT, self.version)
        return html if self.csrf == CSRF_SLOT else html.replace(CSRF_SLOT, self.csrf)

    def _keyed(self, region: Region, scope: Mapping[str, Any], shown: tuple[Any, ...]) -> str:
        """:meth:`draw`, once ``region``'s key ``shown`` is found keyable."""
        region.keyable(shown)
        return self.draw(region, scope)

    def draw(self, region: Region, scope: Mapping[str, Any]) -> str:
        """``region``'s partial drawn from ``scope`` alone, with the slots in its forms (in
        Python, where the region has a drawer)."""
        if region.python is not None:
            return region.python(scope)
        return self.env.get_template(region.template).render(scope, csrf=CSRF_SLOT,
                                                             version=VERSION_SLOT)
