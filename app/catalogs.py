"""``python3 tasks.py catalogs``: the catalogues kept up to date with Babel's own ``pybabel``,
then checked.

1. ``pybabel extract`` (babel.cfg) writes ``app/translations/messages.pot``: sorted, without
   line locations, so that two branches adding strings rarely touch the same lines;
   ``# TRANSLATORS:`` comments in the code and ``{# TRANSLATORS: #}`` in templates go with
   their message. The file is replaced only when more than its date changed.
2. ``pybabel init`` makes a catalogue for each new language named; ``pybabel update`` brings
   every catalogue in line with the template (a changed string keeps its old translation,
   marked fuzzy; strings gone from the code are dropped).
3. English is the source: each English message is its own translation.
4. What is left to do is listed per language (:func:`problems`): missing, fuzzy or
   untranslated messages, wrong plural forms, placeholders that differ from the English, and
   ``{term}`` slots the language's glossary lacks (app/glossary.py). The tests in tests/i18n
   check the same.
"""

from __future__ import annotations

import gettext
import re
import shutil
import sys
import tempfile
from pathlib import Path

from babel.messages.catalog import Catalog, Message
from babel.messages.frontend import CommandLineInterface
from babel.messages.pofile import read_po, write_po

from app.glossary import TERMS
from app.i18n import DOMAIN, SOURCE_LANGUAGE, TERM, folder

PROJECT_ROOT = Path(__file__).resolve().parents[1]
PROJECT = "Coup referee"
WIDTH = "100"
# Besides pybabel's own (_, gettext, ngettext...): the markers of templates translated later.
KEYWORDS = ("-k", "N_", "-k", "NP_:1,2")


def pybabel(*args: str | Path) -> None:
    """One ``pybabel`` command, run in this process (errors only on the console)."""
    CommandLineInterface().run(  # type: ignore[no-untyped-call]
        ["pybabel", "--quiet", *map(str, args)])


def extract(root: Path = PROJECT_ROOT) -> Catalog:
    """A fresh template of every marked string under ``root``, by ``pybabel extract``."""
    with tempfile.TemporaryDirectory() as scratch:
        pot = Path(scratch) / f"{DOMAIN}.pot"
        _extract(root, pot)
        return load(pot)


def _extract(root: Path, pot: Path) -> None:
    pybabel("extract", "--mapping-file", root / "babel.cfg", *KEYWORDS,
            "--add-comments", "TRANSLATORS:", "--strip-comments", "--no-location",
            "--sort-output", "--width", WIDTH, "--project", PROJECT, "--output-file", pot, root)


def po_path(language: str, translations: Path) -> Path:
    """A catalogue, by language tag (pt-BR) or folder (pt_BR)."""
    return translations / folder(language) / "LC_MESSAGES" / f"{DOMAIN}.po"


def languages(translations: Path) -> list[str]:
    """The language tags (pt-BR) of the catalogues under ``translations``."""
    return sorted(p.parent.parent.name.replace("_", "-")
                  for p in translations.glob(f"*/LC_MESSAGES/{DOMAIN}.po"))


def load(path: Path) -> Catalog:
    locale = path.parent.parent.name if path.suffix == ".po" else None
    with path.open("rb") as source:
        return read_po(source, locale=locale, domain=DOMAIN)


def update_catalogs(root: Path = PROJECT_ROOT, wanted: list[str] | None = None
                    ) -> dict[str, list[str]]:
    """Steps 1 to 3 above, then each language's problems."""
    translations = root / "app" / "translations"
    pot = translations / f"{DOMAIN}.pot"
    with tempfile.TemporaryDirectory() as scratch:
        fresh = Path(scratch) / pot.name
        _extract(root, fresh)
        template = load(fresh)
        if not pot.exists() or _changed(load(pot), template):
            shutil.copyfile(fresh, pot)
    for language in wanted or []:
        if not po_path(language, translations).exists():
            pybabel("init", "--input-file", pot, "--output-dir", translations,
                    "--locale", language, "--width", WIDTH)
    pybabel("update", "--input-file", pot, "--output-dir", translations, "--width", WIDTH,
            "--ignore-obsolete", "--ignore-pot-creation-date")
    english = po_path(SOURCE_LANGUAGE, translations)
    if english.exists():
        _fill_source(english)
    return {language: problems(load(po_path(language, translations)), template)
            for language in languages(translations)}


def _changed(old: Catalog, new: Catalog) -> bool:
    def content(catalog: Catalog) -> list[tuple[object, ...]]:
        return [(m.id, m.context, tuple(m.auto_comments)) for m in catalog]
    return content(old) != content(new)


def _fill_source(path: Path) -> None:
    """English is the source: each English message is its own translation (a stale one, left
    from an older wording of the same message, is replaced too)."""
    catalog = load(path)
    changed = False
    for message in catalog:
        if not message.id:
            continue
        own = tuple(message.id) if isinstance(message.id, tuple | list) else message.id
        if message.fuzzy or message.string != own:
            message.string = own
            message.flags.discard("fuzzy")
            changed = True
    if changed:
        with path.open("wb") as out:
            write_po(out, catalog, width=int(WIDTH))


# -- checks (the catalogs command and tests/i18n) -------------------------------------------

PLACEHOLDER = re.compile(r"%\((\w+)\)[#0 +-]*\d*(?:\.\d+)?[diouxXeEfFgGcrsa]")


def placeholders(text: str) -> tuple[set[str], int]:
    """The ``%(name)s`` names in a string, and how many other ``%`` signs it has."""
    names = set(PLACEHOLDER.findall(text))
    return names, PLACEHOLDER.sub("", text).count("%")


def unknown_terms(text: str, language: str) -> list[str]:
    """The ``{term}`` slots of a translation that the language's glossary lacks."""
    known = TERMS.get(language, {})
    return [key for key in TERM.findall(text) if (key[:1].lower() + key[1:]) not in known]


def strings(message: Message) -> list[str]:
    if isinstance(message.string, tuple | list):
        return list(message.string)
    return [message.string or ""]


def key(message: Message) -> str:
    """A message's id: its text, or its singular for a plural message."""
    return message.id if isinstance(message.id, str) else str(message.id[0])


def problems(catalog: Catalog, template: Catalog) -> list[str]:
    """What keeps ``catalog`` from matching ``template`` completely, one line per message."""
    language = str(catalog.locale).replace("_", "-")
    wanted = {key(m) for m in template if m.id}
    out = [f"missing: {k!r}" for k in sorted(wanted - {key(m) for m in catalog if m.id})]
    out += [f"obsolete: {k!r}" for k in catalog.obsolete]
    for message in catalog:
        if not message.id:
            continue
        if key(message) not in wanted:
            out.append(f"not in the code: {key(message)!r}")
        elif message.fuzzy:
            out.append(f"fuzzy: {key(message)!r}")
        elif not all(strings(message)):
            out.append(f"untranslated: {key(message)!r}")
        elif isinstance(message.id, tuple | list) and len(strings(message)) != catalog.num_plurals:
            out.append(f"needs {catalog.num_plurals} plural forms: {key(message)!r}")
        else:
            out += _form_problems(message, catalog, language)
    return out


def _form_problems(message: Message, catalog: Catalog, language: str) -> list[str]:
    out = []
    for index, string in enumerate(strings(message)):
        if placeholders(string) not in allowed_placeholders(message, catalog, index):
            out.append(f"placeholders differ from the English: {key(message)!r} -> {string!r}")
        for term in unknown_terms(string, language):
            out.append(f"no {{{term}}} in the {language} glossary: {key(message)!r}")
    return out


def allowed_placeholders(message: Message, catalog: Catalog, index: int
                         ) -> list[tuple[set[str], int]]:
    """What plural form ``index`` (or a simple message) may hold: the English plural's
    placeholders, or the singular's when only the number 1 takes this form (English "a card"
    leaves the count out; Russian "1 карта" must not, since 21 takes the same form)."""
    if not isinstance(message.id, tuple | list):
        return [placeholders(message.id)]
    allowed = [placeholders(message.id[1])]
    form = gettext.c2py(catalog.plural_expr)
    if [n for n in range(1000) if form(n) == index] == [1]:
        allowed.append(placeholders(message.id[0]))
    return allowed


def main(argv: list[str]) -> int:
    """``python -m app.catalogs [lang ...]``: update the catalogues (creating any language
    named), then list what is left to translate. Exit 1 if anything is."""
    report = update_catalogs(PROJECT_ROOT, argv)
    for language, found in report.items():
        print(f"{language}: {'complete' if not found else f'{len(found)} to fix'}")
        for line in found:
            print(f"  {line}")
    return 1 if any(report.values()) else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
