"""The warm-up `coup-referee serve` runs once it listens (app/web/warm.py): every template is
compiled and every catalogue loaded before the first tap needs them."""

from __future__ import annotations

from pathlib import Path

import pytest
from tablekit import make_app

from app.i18n import LANGUAGES, catalog
from app.web.screenregions import PHONE, TABLET
from app.web.warm import templates_of, warm_up


def test_every_template_is_compiled_once_warmed_and_none_is_read_again(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    app = make_app(tmp_path)
    names = templates_of(app)
    assert {"tablet/_prompt.html", "phone/_answer.html", "_macros.html"} <= set(names)
    pauses: list[None] = []
    assert warm_up(app, lambda: pauses.append(None)) == len(names)
    regions = {region.template for region in (*TABLET.values(), *PHONE.values())}
    # a request may go first between two
    assert len(pauses) == len(names) + len(LANGUAGES) + len(regions)

    loader = app.jinja_env.loader
    assert loader is not None
    read: list[str] = []
    original = loader.get_source

    def counted(environment: object, name: str) -> object:
        read.append(name)
        return original(environment, name)  # type: ignore[arg-type]

    monkeypatch.setattr(loader, "get_source", counted)
    for name in names:
        app.jinja_env.get_template(name)
    assert read == []


def test_every_catalogue_is_loaded_once_warmed(tmp_path: Path) -> None:
    catalog.cache_clear()
    warm_up(make_app(tmp_path))
    assert catalog.cache_info().currsize == len(LANGUAGES)



def test_warm_up_calls_then_once_after_everything_is_loaded(tmp_path: Path) -> None:
    """``then`` (serve sets start-up's objects aside from the collector) comes last, once."""
    seen: list[str] = []
    warm_up(make_app(tmp_path), lambda: seen.append("pause"), lambda: seen.append("then"))
    assert seen.count("then") == 1 and seen[-1] == "then" and len(seen) > 1


def test_warm_up_finds_what_every_region_reads(tmp_path: Path) -> None:
    """Each region's partials are parsed at warm-up, not on the first tap that places it."""
    app = make_app(tmp_path)
    names_read = app.jinja_env.names_read  # type: ignore[attr-defined]
    assert names_read == {}
    warm_up(app)
    assert {region.template for region in (*TABLET.values(), *PHONE.values())} <= set(names_read)
    other = make_app(tmp_path / "other")
    assert other.jinja_env.names_read == {}  # type: ignore[attr-defined]  # each app its own
