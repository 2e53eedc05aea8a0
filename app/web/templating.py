"""Flask's Jinja environment, with two of Jinja's general paths made direct for our screens
(what they give is unchanged).

- **Each template's globals are one plain dict.** Jinja keeps them as a ``ChainMap`` over the
  environment's, so that globals added after a template was loaded still reach it. The app
  adds all of its globals while it is built (:func:`app.web.factory.create_app`), before any
  template is loaded, and the ``ChainMap`` costs every render: each ``{% from ... import %}``
  compares the screen's globals with the macros' key by key through it (some 200 Python
  calls), and each render copies it.
- **``p.coins`` on a dict is the item at once.** Jinja first tries the attribute, and a dict
  has none by that name, so each such lookup raised and caught an ``AttributeError`` before
  the item was read; the engine's views are dicts, and a tap's screens read a few hundred of
  them. A name that is an attribute of every dict (``items``, ``get``...) still goes Jinja's
  way, so what a template gets is the same.
- **A screen's part is drawn without ``render_template``'s per-draw work.** It runs the
  context processors (which add ``g``, ``request`` and ``session``: the environment's globals
  already), merges them into the context and sends two signals, some 20 µs a draw.
  :func:`draw` renders the template directly, and sends the signals only when something
  listens (the tests that count draws).
- **A call from a template goes straight to a plain function.** Jinja compiles ``f(x)`` to
  ``Context.call``, which asks twice whether ``f`` (or its ``__call__``) wants the context, and
  drops the loop's and block's variables from the arguments, some eight Python calls before
  ``f``'s own; a tap's screens make a few hundred such calls (``_()``, ``card()``, the pieces
  of :mod:`app.web.pieces`). For a function, a method or a macro it now reads the mark once
  and calls; anything else (a callable object, a function that wants the environment) goes
  Jinja's way, and what each call gets is the same.
"""

from __future__ import annotations

from collections.abc import MutableMapping
from types import BuiltinFunctionType, FunctionType, MethodType
from typing import Any, Final

from flask import before_render_template, current_app, template_rendered
from flask.templating import Environment
from jinja2.runtime import Context, Macro
from jinja2.utils import _PassArg

DICT_ATTRIBUTES: Final = frozenset(dir(dict))
#: What Jinja's ``Context.call`` would call as it is, or with the context first when marked.
DIRECT_CALLABLES: Final = frozenset({FunctionType, BuiltinFunctionType, MethodType, Macro})
SCOPES: Final = ("_loop_vars", "_block_vars")


class ScreensContext(Context):
    """Jinja's context, with a direct call of a plain function from a template."""

    def call(__self, __obj: Any, *args: Any, **kwargs: Any) -> Any:  # noqa: N805
        """``__obj(*args, **kwargs)`` as Jinja's ``Context.call`` makes it."""
        wants = getattr(__obj, "jinja_pass_arg", None)
        if type(__obj) not in DIRECT_CALLABLES or wants not in (None, _PassArg.context):
            return super().call(__obj, *args, **kwargs)
        for scope in SCOPES:
            if scope in kwargs:
                if kwargs[scope] and wants is not None:  # variables set in a loop or block
                    return super().call(__obj, *args, **kwargs)
                del kwargs[scope]
        if wants is not None:
            args = (__self, *args)
        try:
            return __obj(*args, **kwargs)
        except StopIteration:
            return __self.environment.undefined(
                "value was undefined because a callable raised a StopIteration exception")


class ScreensEnvironment(Environment):
    """Flask's environment with plain-dict globals, direct dict lookups and direct calls."""

    context_class = ScreensContext

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.names_read: dict[str, tuple[str, ...]] = {}
        """What each screen region's template reads, found once per environment
        (:func:`app.web.regions.reads`)."""

    def make_globals(self, d: MutableMapping[str, Any] | None) -> MutableMapping[str, Any]:
        """Each template's globals: the environment's at the time it was loaded, then its
        own."""
        return {**self.globals, **(d or {})}

    def getattr(self, obj: Any, attribute: str) -> Any:
        """``obj.attribute`` in a template: Jinja's answer, for a dict without the detour."""
        if type(obj) is dict and attribute not in DICT_ATTRIBUTES:
            try:
                return obj[attribute]
            except KeyError:
                pass
        return super().getattr(obj, attribute)


def draw(name: str, **context: Any) -> str:
    """``render_template(name, **context)``: the same text (the request's names are globals),
    without the context processors; the signals are sent only when something listens."""
    app = current_app._get_current_object()  # type: ignore[attr-defined]
    template = app.jinja_env.get_template(name)
    listened = bool(before_render_template.receivers or template_rendered.receivers)
    if listened:
        before_render_template.send(app, _async_wrapper=app.ensure_sync, template=template,
                                    context=context)
    html: str = template.render(context)
    if listened:
        template_rendered.send(app, _async_wrapper=app.ensure_sync, template=template,
                               context=context)
    return html
