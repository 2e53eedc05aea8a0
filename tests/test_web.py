"""The app factory: health check, placeholder page, static vendor files, instance folder."""

from __future__ import annotations

from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

from app.web import create_app
from app.web.db import get_store


@pytest.fixture
def app(tmp_path: Path) -> Flask:
    return create_app(str(tmp_path / "instance"), {"TESTING": True})


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


def test_healthz(client: FlaskClient) -> None:
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.text == "ok"


def test_index_loads_vendored_htmx(client: FlaskClient) -> None:
    response = client.get("/")
    assert response.status_code == 200
    assert '<script src="/static/vendor/htmx.min.js" defer>' in response.text
    assert "Coup referee" in response.text
    assert '<html lang="en">' in response.text


def test_vendored_htmx_is_served(client: FlaskClient) -> None:
    response = client.get("/static/vendor/htmx.min.js")
    assert response.status_code == 200
    assert len(response.data) == 52182
    response.close()


def test_instance_folder_holds_database_and_secret(app: Flask, tmp_path: Path) -> None:
    instance = tmp_path / "instance"
    assert Path(app.config["DATABASE"]) == instance / "coup.sqlite"
    assert (instance / "coup.sqlite").exists()
    again = create_app(str(instance))
    assert again.config["SECRET_KEY"] == app.config["SECRET_KEY"]


def test_one_store_per_request_from_a_pool(app: Flask) -> None:
    with app.app_context():
        store = get_store()
        assert get_store() is store
        table = store.create_table({"players": ["A", "B"]})
        with app.app_context():  # a request at the same time gets a store of its own
            assert get_store() is not store
    with app.app_context():  # the next request reuses an open one: no close, no checkpoint
        assert get_store() is store
        assert get_store().get_table(table.id) == table
