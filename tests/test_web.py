"""The app factory: health check, placeholder page, static vendor files, instance folder."""

from __future__ import annotations

from pathlib import Path

from flask import Flask
from flask.testing import FlaskClient

from app.store import NewSeat
from app.web.factory import create_app
from app.web.pool import StorePool


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
    pool = StorePool(app.config["DATABASE"])
    with pool.store() as store:
        table = store.create_table({"first": "A"}, [NewSeat("A"), NewSeat("B")], "en")
        with pool.store() as other:  # a request at the same time gets a store of its own
            assert other is not store
    with pool.store() as again:  # the next request reuses an open one: no close, no checkpoint
        assert again is store
        snapshot = again.read(table.id)
        assert snapshot is not None and snapshot.table == table
    pool.close()


def test_each_app_has_its_own_service_pool_and_broker(tmp_path: Path) -> None:
    one = create_app(str(tmp_path / "one"), {"TESTING": True}).extensions["tables"]
    two = create_app(str(tmp_path / "two"), {"TESTING": True}).extensions["tables"]
    assert one.pool is not two.pool and one.broker is not two.broker
    assert one.pool.database != two.pool.database
