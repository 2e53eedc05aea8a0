"""Flask's Jinja environment with each template's globals one plain dict.

Jinja keeps a template's globals as a ``ChainMap`` over the environment's, so that globals
added after a template was loaded still reach it. The app adds all of its globals while it is
built (:func:`app.web.factory.create_app`), before any template is loaded, and the ``ChainMap``
costs every render: each ``{% from ... import %}`` compares the screen's globals with the
macros' key by key through it (some 200 Python calls), and each render copies it. A plain dict,
made when a template is loaded, gives the same names.
"""

from __future__ import annotations

from collections.abc import MutableMapping
from typing import Any

from flask.templating import Environment


class FlatGlobalsEnvironment(Environment):
    """Each template's globals: the environment's at the time it was loaded, then its own."""

    def make_globals(self, d: MutableMapping[str, Any] | None) -> MutableMapping[str, Any]:
        return {**self.globals, **(d or {})}
