"""The PostgreSQL connections' bounds as configured (core/postgresql/base.py): what is sent to
the server, and a live server's own statement timeout answering first (the hung server:
tests/test_hung_dependencies.py)."""

import time

import pytest
from django.conf import settings
from django.db import OperationalError, connection
from django.db.utils import ConnectionHandler

from core.postgresql.base import breaker, statement_deadline

pytestmark = pytest.mark.skipif(connection.vendor != "postgresql",
                                reason="PostgreSQL's bounds (SQLite waits on a file)")


def fresh(**options):
    """A new connection configured as the test database's (alias `bounded`)."""
    config = {**settings.DATABASES["default"], "NAME": connection.settings_dict["NAME"]}
    config["OPTIONS"] = {**config.get("OPTIONS", {}), **options}
    return ConnectionHandler({"default": dict(config), "bounded": config})["bounded"]


def test_every_postgresql_alias_has_the_bounded_engine():
    assert all(database["ENGINE"] == "core.postgresql"
               for database in settings.DATABASES.values())


def test_the_timeouts_are_sent_at_connect(settings):
    settings.DB_STATEMENT_TIMEOUT_SECONDS, settings.DB_CONNECT_TIMEOUT_SECONDS = 7, 4
    params = fresh().get_connection_params()
    assert params["connect_timeout"] == 4
    assert params["options"] == "-c statement_timeout=7000"
    assert statement_deadline() == 8  # the client waits a second more


@pytest.mark.django_db
def test_the_urls_own_options_come_after_and_win():
    db = fresh(options="-c statement_timeout=0 -c search_path=public", connect_timeout=9)
    params = db.get_connection_params()
    assert params["options"] == ("-c statement_timeout=10000 -c statement_timeout=0 "
                                 "-c search_path=public")
    assert params["connect_timeout"] == 9  # a replica's own 2 s stays too
    try:
        with db.cursor() as cursor:
            cursor.execute("SHOW statement_timeout")
            assert cursor.fetchone() == ("0",)
    finally:
        db.close()


@pytest.mark.parametrize("overrides", [{"DB_SERVER_STATEMENT_TIMEOUT": False},
                                       {"DB_STATEMENT_TIMEOUT_SECONDS": 0}])
def test_no_startup_option_behind_pgbouncer_or_without_a_timeout(settings, overrides):
    for name, value in overrides.items():
        setattr(settings, name, value)
    assert "options" not in fresh().get_connection_params()
    expected = None if overrides.get("DB_STATEMENT_TIMEOUT_SECONDS") == 0 else 11
    assert statement_deadline() == expected  # behind PgBouncer the client still bounds it


@pytest.mark.django_db
def test_a_live_servers_own_timeout_answers_first_and_keeps_the_connection(settings):
    settings.DB_STATEMENT_TIMEOUT_SECONDS = 1
    db = fresh()
    try:
        started = time.monotonic()
        with pytest.raises(OperationalError, match="statement timeout"):
            with db.cursor() as cursor:
                cursor.execute("SELECT pg_sleep(5)")
        assert 1 <= time.monotonic() - started < 2  # before the client's deadline
        with db.cursor() as cursor:  # the same connection serves on
            cursor.execute("SELECT 1")
            assert cursor.fetchone() == (1,)
        assert breaker("bounded").current_state == "closed"  # a slow statement is no outage
    finally:
        db.close()
