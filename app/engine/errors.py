"""The one error a person sees when a step does not fit the rules or the moment."""

from __future__ import annotations

from .rulings import render


class RuleError(Exception):
    """An illegal step. Raised before anything changes, so the game stays as it was.

    `text` is an English message template (marked for translation) and `params` its values;
    `str(error)` is the English sentence, and the web layer translates the template.
    """

    def __init__(self, text: str, **params: object) -> None:
        self.text = text
        self.params = params
        super().__init__(render(text, params))
