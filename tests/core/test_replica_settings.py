"""DATABASE_REPLICA_URLS read into database aliases (config/env.py), and the embedded
default without replicas unchanged (the replicas themselves: test_read_replicas.py)."""

import pytest
from django.apps import apps
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.db import DEFAULT_DB_ALIAS
from django.urls import get_resolver

from config.env import Env
from core import replicas

PRIMARY = {"ENGINE": "django.db.backends.postgresql", "CONN_MAX_AGE": 60,
           "CONN_HEALTH_CHECKS": True}


def replica_databases(monkeypatch, urls: str, primary=PRIMARY, prepared=True) -> dict:
    monkeypatch.setenv("DATABASE_REPLICA_URLS", urls)
    return Env().replica_databases("DATABASE_REPLICA_URLS", primary,
                                   prepared_statements=prepared)


def test_each_replica_url_is_an_alias_configured_as_the_primary(monkeypatch):
    found = replica_databases(monkeypatch, "postgres://app@replica-a:5432/registry,"
                              "postgres://app@replica-b:6432/registry?connect_timeout=5")
    assert list(found) == ["replica1", "replica2"]
    first, second = found["replica1"], found["replica2"]
    assert (first["HOST"], second["HOST"], second["PORT"]) == ("replica-a", "replica-b", 6432)
    assert (first["CONN_MAX_AGE"], first["CONN_HEALTH_CHECKS"]) == (60, True)
    # Prepared statements per connection, as on the primary; a short connect timeout unless
    # the URL says otherwise; tests read their test database through it.
    assert first["OPTIONS"] == {"connect_timeout": 2, "prepare_threshold": 0}
    assert second["OPTIONS"]["connect_timeout"] == 5
    assert first["TEST"] == {"MIRROR": "default"}


def test_without_prepared_statements_the_replicas_prepare_none_either(monkeypatch):
    found = replica_databases(monkeypatch, "postgres://app@replica:5432/registry",
                              prepared=False)
    assert "prepare_threshold" not in found["replica1"]["OPTIONS"]


@pytest.mark.parametrize("primary, url", [
    ({"ENGINE": "django.db.backends.sqlite3"}, "postgres://app@replica:5432/registry"),
    (PRIMARY, "sqlite:///replica.sqlite3"),
])
def test_replicas_are_postgresql_replicas_of_postgresql(monkeypatch, primary, url):
    with pytest.raises(ImproperlyConfigured, match="PostgreSQL streaming replicas"):
        replica_databases(monkeypatch, url, primary)


def test_no_urls_no_replicas(monkeypatch):
    assert replica_databases(monkeypatch, "") == {}


@pytest.mark.django_db
def test_without_replicas_the_primary_answers_every_read(api, anon):
    assert (settings.DATABASE_REPLICAS, settings.DATABASE_ROUTERS) == ([], [])
    assert settings.DATABASE_REPLICA_MAX_LAG_SECONDS == 5
    assert replicas.choose() is None
    assert replicas.reading_alias() == DEFAULT_DB_ALIAS
    response = api.post("/v1/verify", {"documentHash": "0x" + "ab" * 32}, format="json")
    assert response.status_code == 200 and response.json()["reason"] == "not_found"
    check = anon.get("/readyz").json()["checks"]["replicas"]
    assert check == {"status": "ok", "detail": "no replicas: the primary answers every read",
                     "replicas": [], "latencyMs": check["latencyMs"]}


def test_the_routes_and_models_read_on_replicas_are_named_in_settings_and_exist():
    """core/replicas.py names no app: the routes a replica answers and the models always
    read on the primary are settings, and each name there is a real route or model (a typo
    would silently send a read to the primary, or an API key's to a replica)."""
    assert not {name for name in vars(replicas) if "READ" in name or "PRIMARY" in name}
    route_names = {name for name in get_resolver().reverse_dict if isinstance(name, str)}
    routes = set(settings.REPLICA_READ_ROUTES)
    assert ("verify-list", "POST") in routes and len(routes) == 12
    assert {name for name, _ in routes} <= route_names
    assert {method for _, method in routes} <= {"GET", "POST"}
    assert [apps.get_model(label)._meta.label for label in settings.PRIMARY_READ_MODELS] == [
        "registry.ApiKey"]


def test_the_router_reads_the_settings(settings):
    """Outside a transaction (the test has none), inside a routed read."""
    router = replicas.ReplicaRouter()
    api_key, chain = apps.get_model("registry.ApiKey"), apps.get_model("registry.Chain")
    token = replicas._reading.set("replica1")
    try:
        assert (router.db_for_read(api_key), router.db_for_read(chain)) == (
            DEFAULT_DB_ALIAS, "replica1")
        settings.PRIMARY_READ_MODELS = frozenset({"registry.Chain"})
        assert (router.db_for_read(api_key), router.db_for_read(chain)) == (
            "replica1", DEFAULT_DB_ALIAS)
    finally:
        replicas._reading.reset(token)
