"""A stream draws each event in a request context made once for the stream (app/web/screens.py):
each event is drawn as it is at its own version, nothing a draw sets (the language, in ``g``)
is carried over to the next, and nothing is drawn for a device that lost its seat."""

from __future__ import annotations

import re
from typing import Any

import pytest
from flask import request, url_for
from tablekit import Table, csrf_of, version_of
from test_screens_in_events import screen_in
from werkzeug.exceptions import NotFound
from werkzeug.routing import MapAdapter

from app.web.screens import StreamContext


def plain_language(t: Table, name: str, language: str) -> None:
    """A seat's language chosen with a plain form (no htmx): its answer is a redirect, so the
    seat's own stream brings the new screen."""
    html = t.phone_page(name)
    form = {"csrf": csrf_of(html), "version": version_of(html), "language": language}
    answer = t.phones[name].post(t.link(name) + "/language", data=form)
    assert answer.status_code in (302, 303), answer.status_code


def test_each_event_of_one_stream_is_drawn_afresh(started: Table) -> None:
    version = version_of(started.page())
    stream = started.phone("Bob").get(f"{started.link('Bob')}/events?since={version}",
                                      buffered=False)
    chunks = iter(stream.response)
    assert next(chunks).startswith(b":")
    plain_language(started, "Bob", "ru")
    russian = screen_in(next(chunks))
    assert "Язык" in russian and version_of(russian) == str(int(version) + 1)
    assert started.phone_post("Ann", "/language", {"language": "uk"}).status_code == 200
    still_russian = screen_in(next(chunks))  # Ann's language is hers: Bob's screen stays ru
    assert "Язык" in still_russian and version_of(still_russian) == str(int(version) + 2)
    plain_language(started, "Bob", "en")
    english = screen_in(next(chunks))  # what the last draw set is not kept for the next
    assert "Язык" not in english and re.search(r"Language", english)
    assert version_of(english) == str(int(version) + 3)
    stream.close()


def test_a_streams_context_matches_its_url_once_and_keeps_what_it_matched(
        started: Table, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each event pushes the stream's context again; its route is matched at the first push
    only, and every later push sees the same route, arguments and blueprint (links drawn
    relative to the blueprint stay right)."""
    path = f"{started.link('Ann')}/events"
    with started.app.test_request_context(path):
        context = StreamContext(started.app, request.environ)
    matched: list[str] = []
    match = MapAdapter.match

    def counted(self: MapAdapter, *args: Any, **kwargs: Any) -> Any:
        matched.append(self.path_info)
        return match(self, *args, **kwargs)

    monkeypatch.setattr(MapAdapter, "match", counted)
    seen = []
    for _ in range(3):
        with context:
            seen.append((request.endpoint, request.view_args, request.blueprint,
                         url_for(".rules", token=request.view_args["token"])))
    assert len(matched) == 1
    token = started.link("Ann").rsplit("/", 1)[1]
    assert seen == [("phone.events", {"token": token}, "phone", f"/s/{token}/rules")] * 3


def test_a_stream_context_for_no_route_keeps_its_routing_error(started: Table) -> None:
    with started.app.test_request_context("/no/such/page"):
        context = StreamContext(started.app, request.environ)
    for _ in range(2):
        with context:
            assert request.url_rule is None and isinstance(request.routing_exception, NotFound)
