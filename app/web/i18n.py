"""The gettext catalogues: kept as .po files in git, compiled when the app starts.

``app/translations/messages.pot`` is extracted from the code and templates (``babel.cfg``);
``app/translations/<lang>/LC_MESSAGES/messages.po`` holds each language. Only the ``.po``
files are in the repository: :func:`compile_catalogs` builds the ``.mo`` files Flask-Babel reads
whenever one is missing or older than its ``.po``, so a fresh clone works without a build step.

``python3 tasks.py catalogs`` (that is, ``python -m app.web.i18n``) re-extracts the strings,
updates every catalogue (keeping its translations; a changed string keeps its old translation
marked fuzzy), fills the English one from the source, and lists what is left to translate.
The tests in ``tests/i18n`` check the same things against a fresh extraction.
"""

from __future__ import annotations

import gettext
import io
import os
import re
import sys
import tempfile
from pathlib import Path
from typing import Any

from babel.messages.catalog import Catalog, Message
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

PROJECT_ROOT = Path(__file__).resolve().parents[2]
TRANSLATIONS = PROJECT_ROOT / "app" / "translations"
SOURCE_LANGUAGE = "en"
DOMAIN = "messages"
PROJECT = "Coup referee"
# The same keywords as babel.cfg and the documented `pybabel extract -k ...` command.
EXTRA_KEYWORDS = ("_", "N_", "gettext", "ngettext", "lazy_gettext")


def compile_catalogs(path: str | Path) -> list[Path]:
    """Compile every ``<lang>/LC_MESSAGES/*.po`` under ``path`` whose ``.mo`` is out of date.

    Returns the ``.mo`` files written. Fuzzy entries are left out, as ``msgfmt`` does. Each file
    is written beside its target and renamed into place, so a second process starting at the
    same moment never reads half a catalogue. A folder that can't be written (a read-only
    install) is left as it is.
    """
    written = []
    for po in sorted(Path(path).glob("*/LC_MESSAGES/*.po")):
        mo = po.with_suffix(".mo")
        if mo.exists() and mo.stat().st_mtime >= po.stat().st_mtime:
            continue
        with po.open("rb") as source:
            catalog = read_po(source, locale=po.parent.parent.name, domain=po.stem)
        try:
            handle, temporary = tempfile.mkstemp(prefix=f".{mo.name}.", dir=mo.parent)
        except OSError:  # a read-only install: use the .mo it shipped with, if any
            continue
        try:
            with os.fdopen(handle, "wb") as target:
                write_mo(target, catalog, use_fuzzy=False)
            os.replace(temporary, mo)
        except BaseException:
            Path(temporary).unlink(missing_ok=True)
            raise
        written.append(mo)
    return written


# -- extraction and checks (used by tasks.py and the tests; Babel's Python API) -------------


def extract(root: Path = PROJECT_ROOT) -> Catalog:
    """A fresh template of every marked string under ``root``, as ``pybabel extract`` makes it."""
    # Imported here, not above: only the catalogs tool and the tests extract, and the server,
    # which compiles catalogues at every start, would pay for these imports each time.
    from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
    from babel.messages.frontend import parse_keywords, parse_mapping_cfg

    with (root / "babel.cfg").open(encoding="utf-8") as config:
        method_map, options_map = parse_mapping_cfg(config)  # type: ignore[no-untyped-call]
    # Babel's defaults know ngettext's two forms; a bare `ngettext` in babel.cfg (or `-k
    # ngettext` on the command line) would drop the plural, so a spec never loses to None.
    def merged(named: dict[str, Any]) -> dict[str, Any]:
        return {k: v for k, v in named.items() if v is not None or k not in DEFAULT_KEYWORDS}

    keywords = {**DEFAULT_KEYWORDS, **merged(parse_keywords(EXTRA_KEYWORDS))}
    for options in options_map.values():
        if isinstance(options.get("keywords"), dict):
            options["keywords"] = merged(options["keywords"])
    catalog = Catalog(project=PROJECT, charset="utf-8", fuzzy=False)
    found = extract_from_dir(str(root), method_map, options_map, keywords=keywords,
                             comment_tags=("TRANSLATORS:",), strip_comment_tags=True)
    for filename, lineno, message, comments, context in found:
        location = (Path(filename).as_posix(), lineno)
        catalog.add(message, None, [location], auto_comments=comments, context=context)
    return catalog


def po_path(language: str, translations: Path = TRANSLATIONS) -> Path:
    return translations / language / "LC_MESSAGES" / f"{DOMAIN}.po"


def languages(translations: Path = TRANSLATIONS) -> list[str]:
    """Every language with a catalogue, the source language first."""
    found = sorted(p.parent.parent.name for p in translations.glob(f"*/LC_MESSAGES/{DOMAIN}.po"))
    return sorted(found, key=lambda code: code != SOURCE_LANGUAGE)


def load(path: Path) -> Catalog:
    with path.open("rb") as source:
        return read_po(source, locale=path.parent.parent.name, domain=DOMAIN)


def dump(catalog: Catalog, **options: Any) -> bytes:
    out = io.BytesIO()
    write_po(out, catalog, width=100, include_lineno=False, **options)
    return out.getvalue()


PLACEHOLDER = re.compile(r"%\((\w+)\)[#0 +-]*\d*(?:\.\d+)?[diouxXeEfFgGcrsa]")


def placeholders(text: str) -> tuple[set[str], int]:
    """The ``%(name)s`` names in a string, and how many other ``%`` signs it has."""
    names = set(PLACEHOLDER.findall(text))
    return names, PLACEHOLDER.sub("", text).count("%")


def _strings(message: Message) -> list[str]:
    if isinstance(message.string, tuple | list):
        return list(message.string)
    return [message.string or ""]


def problems(catalog: Catalog, template: Catalog) -> list[str]:
    """What keeps ``catalog`` from matching ``template`` completely, one line per message."""
    out = []
    ids = {m.id if isinstance(m.id, str) else m.id[0] for m in template if m.id}
    for message in template:
        if not message.id:
            continue
        key = message_key(message)
        if catalog.get(key, message.context) is None:
            out.append(f"missing: {key!r}")
    for obsolete in catalog.obsolete:
        out.append(f"obsolete: {obsolete!r}")
    for message in catalog:
        if not message.id:
            continue
        key = message_key(message)
        if key not in ids:
            out.append(f"not in the code: {key!r}")
            continue
        if message.fuzzy:
            out.append(f"fuzzy: {key!r}")
        strings = _strings(message)
        if not all(strings):
            out.append(f"untranslated: {key!r}")
            continue
        plural = isinstance(message.id, tuple | list)
        if plural and len(strings) != catalog.num_plurals:
            out.append(f"needs {catalog.num_plurals} plural forms: {key!r}")
            continue
        for index, string in enumerate(strings):
            allowed = _allowed_placeholders(message, catalog, index)
            if placeholders(string) not in allowed:
                out.append(f"placeholders differ from the English: {key!r} -> {string!r}")
    return out


def message_key(message: Message) -> str:
    """A message's id: its text, or its singular for a plural message."""
    return message.id if isinstance(message.id, str) else str(message.id[0])


def _allowed_placeholders(message: Message, catalog: Catalog, index: int
                          ) -> list[tuple[set[str], int]]:
    """What plural form ``index`` (or a simple message) may hold: the English plural's
    placeholders, or the singular's when only the number 1 takes this form (English "a card"
    leaves the count out; Russian "1 карта" must not, since 21 takes the same form)."""
    if not isinstance(message.id, tuple | list):
        return [placeholders(message.id)]
    allowed = [placeholders(message.id[1])]
    form = gettext.c2py(catalog.plural_expr)
    numbers = [n for n in range(1000) if form(n) == index]
    if numbers == [1]:
        allowed.append(placeholders(message.id[0]))
    return allowed


def _fill_source(catalog: Catalog) -> None:
    """English is the source: each English string is its own translation."""
    for message in catalog:
        if not message.id:
            continue
        if message.fuzzy or not all(_strings(message)):
            message.string = tuple(message.id) if isinstance(message.id, tuple | list) \
                else message.id
            message.flags.discard("fuzzy")


def _fit_plurals(catalog: Catalog) -> None:
    """A plural message of a new catalogue gets as many (empty) forms as its language has."""
    for message in catalog:
        if message.id and isinstance(message.id, tuple | list):
            strings = _strings(message)
            if len(strings) != catalog.num_plurals and not any(strings):
                message.string = ("",) * catalog.num_plurals


def _same_but_dates(old: bytes, new: bytes) -> bool:
    dates = re.compile(rb'^"(POT-Creation-Date|PO-Revision-Date): .*$', re.M)
    return dates.sub(b"", old) == dates.sub(b"", new)


def _write(path: Path, content: bytes) -> bool:
    """Write unless only the dates in the header would change (no churn in git)."""
    if path.exists() and _same_but_dates(path.read_bytes(), content):
        return False
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(content)
    return True


def update_catalogs(root: Path = PROJECT_ROOT, wanted: list[str] | None = None,
                    ) -> dict[str, list[str]]:
    """Re-extract, update every catalogue (and create those in ``wanted`` that are missing),
    and return each language's problems. Obsolete entries are dropped: a changed string has
    already kept its old translation as a fuzzy one."""
    translations = root / "app" / "translations"
    template = extract(root)
    pot = dump(template)
    _write(translations / f"{DOMAIN}.pot", pot)
    report = {}
    for language in dict.fromkeys([*languages(translations), *(wanted or [])]):
        path = po_path(language, translations)
        if path.exists():
            catalog = load(path)
        else:
            catalog = Catalog(locale=language, domain=DOMAIN, project=PROJECT,
                              charset="utf-8", fuzzy=False)
        # Catalog.update adopts the template's new Message objects as they are: each
        # catalogue gets its own copy, or filling one language would fill them all.
        catalog.update(read_po(io.BytesIO(pot)), update_creation_date=True)
        catalog.obsolete.clear()
        _fit_plurals(catalog)
        if language == SOURCE_LANGUAGE:
            _fill_source(catalog)
        _write(path, dump(catalog, ignore_obsolete=True))
        report[language] = problems(load(path), template)
    return report


def main(argv: list[str]) -> int:
    """``python -m app.web.i18n [lang ...]``: update the catalogues (creating any language
    named), then list what is untranslated or fuzzy. Exit 1 if anything is."""
    report = update_catalogs(PROJECT_ROOT, argv)
    failed = False
    for language, found in report.items():
        print(f"{language}: {'complete' if not found else f'{len(found)} to fix'}")
        for line in found:
            print(f"  {line}")
        failed = failed or bool(found)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
