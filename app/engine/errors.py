"""The one error a person sees when a step does not fit the rules or the moment."""

from __future__ import annotations

from .rulings import render


class RuleError(Exception):
    """An illegal step or set-up. Raised before anything changes, so the game stays as it was.

    `code` says what kind of problem it is, for code that must react to one kind (a screen
    that words "too many copies" without naming whose hand, say); never match the text.
    `text` is an English message template (marked for translation) and `params` its values;
    `str(error)` is the English sentence, and the web layer translates the template.
    `brief` is an optional short template with the same values, for a disabled button.
    """

    def __init__(
        self,
        code: str,
        text: str | tuple[str, str],
        brief: str | tuple[str, str] | None = None,
        count: str | None = None,
        **params: object,
    ) -> None:
        self.code = code
        self.text = text
        self.brief = brief  # a few words for a disabled button ("needs 7 coins"), if any
        self.count = count  # the value that picks a plural form, for (singular, plural) texts
        self.params = params
        super().__init__(render(text, params, count=count))


# Codes other modules react to.
CARD_ACCOUNTED_FOR = "card_accounted_for"  # every copy of the card is seen elsewhere
TOO_MANY_COPIES = "too_many_copies"  # the hands hold more copies than the deck has
