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
"""

from __future__ import annotations

from collections.abc import MutableMapping
from typing import Any, Final

from flask.templating import Environment

DICT_ATTRIBUTES: Final = frozenset(dir(dict))


class ScreensEnvironment(Environment):
    """Flask's environment with plain-dict globals and direct dict lookups."""

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
