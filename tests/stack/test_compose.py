"""docker-compose.yml, the Dockerfile and .dockerignore read as files (no docker engine here):
the invariants an operator relies on. tests/stack/test_stack.py runs the services."""

import re

import pytest
import yaml

from tests.stack.compose import (
    COMPOSE,
    ROOT,
    command,
    default_services,
    environment,
    interpolate,
    one_shots,
    start_order,
)

FILE = yaml.safe_load(COMPOSE.read_text())
SERVICES = FILE["services"]
LONG_RUNNING = [name for name in SERVICES if name not in one_shots(SERVICES)]
# What `docker compose up` starts (the executor is of a profile: `--profile executor`).
STARTED = default_services(SERVICES)
PRIVATE_KEY = re.compile(r"(0x)?[0-9a-fA-F]{64}")


def test_one_shot_migrate_runs_first_and_every_app_service_waits_for_it():
    assert one_shots(SERVICES) == {"migrate"}
    order = start_order(SERVICES)
    assert order.index("migrate") < min(order.index(name) for name in ("web", "worker", "beat"))
    assert order.index("web") < order.index("nginx")
    assert command(SERVICES["migrate"])[1:] == ["manage.py", "migrate", "--no-input"]


def test_migrate_alone_runs_without_the_statement_timeout():
    # An index built on a large table outlasts the service's timeout (config/settings.py).
    assert SERVICES["migrate"]["environment"]["DB_STATEMENT_TIMEOUT_SECONDS"] == "0"
    assert SERVICES["migrate"]["environment"]["DATABASE_URL"] == (
        SERVICES["web"]["environment"]["DATABASE_URL"])  # the rest of the app's environment
    for name in LONG_RUNNING:
        assert "DB_STATEMENT_TIMEOUT_SECONDS" not in SERVICES[name].get("environment", {}), name


def test_every_long_running_service_restarts_unless_stopped():
    assert set(LONG_RUNNING) >= {"web", "worker", "beat", "nginx", "postgres", "redis"}
    for name in LONG_RUNNING:
        assert SERVICES[name].get("restart") == "unless-stopped", name


def test_no_signing_key_is_in_any_services_environment():
    """The executor signs through a remote signer or a key file (a Docker secret): no
    variable of any service holds a key, or names one (EXECUTOR_PRIVATE_KEY is retired and
    refused), whatever the operator's variables say."""
    variables = {"SECRET_KEY": "s" * 50, "EXECUTOR_KEY_FILE": "/run/secrets/executor_key",
                 "EXECUTOR_SIGNER_URL": "http://web3signer:9000"}
    for name, service in SERVICES.items():
        env = environment(service, variables)
        assert not [key for key in env if "PRIVATE" in key], name
        assert not [key for key, value in env.items() if PRIVATE_KEY.fullmatch(value)], name
    text = COMPOSE.read_text()
    assert "EXECUTOR_PRIVATE_KEY" not in text and not PRIVATE_KEY.search(text)


def test_the_executor_is_a_service_of_its_own_profile_with_its_key_as_a_secret():
    executor = SERVICES["executor"]
    assert executor["profiles"] == ["executor"] and "executor" not in STARTED
    assert command(executor)[1:] == ["manage.py", "run_executor"]
    assert executor["secrets"] == ["executor_key"] and "file" in FILE["secrets"]["executor_key"]
    assert interpolate(FILE["secrets"]["executor_key"]["file"], {}) == "/dev/null"  # none given
    env = environment(executor, {"SECRET_KEY": "s" * 50})
    assert env["EXECUTOR_KEY_FILE"] == "" and env["EXECUTOR_SIGNER_URL"] == ""  # the operator's
    assert env["SERVICE_URL"] == "http://nginx:8080"
    journal = env["EXECUTOR_JOURNAL"]
    assert any(journal.startswith(volume.split(":")[1]) for volume in executor["volumes"])
    assert executor["restart"] == "unless-stopped"


def test_workers_beat_and_the_follower_have_health_checks_of_their_own():
    # The executor's health is its heartbeats: the registry marks it stale, then offline.
    tests = {name: SERVICES[name]["healthcheck"]["test"] for name in LONG_RUNNING
             if name != "executor"}
    assert "healthcheck" not in SERVICES["executor"]
    assert "inspect ping -d celery@$$HOSTNAME" in " ".join(tests["worker"])
    assert "inspect ping -d indexer@$$HOSTNAME" in " ".join(tests["indexer"])
    assert "--hostname indexer@%h" in SERVICES["indexer"]["command"]
    assert "inspect ping -d webhooks@$$HOSTNAME" in " ".join(tests["webhooks"])
    assert "--hostname webhooks@%h" in SERVICES["webhooks"]["command"]
    assert tests["beat"][-2:] == ["manage.py", "check_beat"]
    assert tests["follower"][-3:] == ["manage.py", "follow_chains", "--check"]
    assert len({str(test) for test in tests.values()}) == len(tests)  # none borrows another's


def consumed_queues() -> dict[str, list[str]]:
    """The queues each Celery worker service of the file consumes (-Q)."""
    queues = {}
    for name, service in SERVICES.items():
        args = command(service) if "command" in service else []
        if args[1:2] == ["-A"] and "worker" in args:
            queues[name] = args[args.index("-Q") + 1].split(",")
    return queues


def test_every_queue_the_tasks_are_routed_to_has_a_worker_and_the_follower_runs():
    from django.conf import settings

    routed = {route["queue"] for route in settings.CELERY_TASK_ROUTES.values()}
    consumed = consumed_queues()
    assert consumed == {"worker": ["default"], "indexer": ["index", "probe"],
                        "webhooks": ["webhooks"]}
    assert routed | {settings.CELERY_TASK_DEFAULT_QUEUE} == {q for qs in consumed.values()
                                                             for q in qs}
    assert command(SERVICES["follower"])[1:] == ["manage.py", "follow_chains"]


def test_only_nginx_is_published_and_it_serves_the_repositorys_config():
    published = [name for name, service in default_services(SERVICES).items()
                 if service.get("ports")]
    assert published == ["nginx"]
    # The monitoring profile's Grafana, to this host only.
    assert SERVICES["grafana"]["ports"] == ["127.0.0.1:3000:3000"]
    assert not SERVICES["prometheus"].get("ports")
    assert "./deploy/nginx.conf:/etc/nginx/nginx.conf:ro" in SERVICES["nginx"]["volumes"]
    assert SERVICES["web"]["command"] == "gunicorn config.wsgi:application"


def pinned(image: str) -> bool:
    name, _, tag = image.partition(":")
    return bool(re.match(r"v?\d", tag)) and "latest" not in tag


def test_images_are_pinned_to_a_version():
    for service in SERVICES.values():
        if "image" in service:
            assert pinned(service["image"]), service["image"]
    postgres, redis = SERVICES["postgres"]["image"], SERVICES["redis"]["image"]
    assert postgres.startswith("postgres:17") and redis.startswith("redis:7.")
    stages = re.findall(r"^FROM (\S+)", (ROOT / "Dockerfile").read_text(), re.M)
    assert stages and all(pinned(image) for image in stages)
    # npm only in the build stage of the verification page's library, never in what runs.
    assert [image for image in stages if image.startswith("node")] == ["node:24-bookworm-slim"]
    assert not stages[-1].startswith("node")
    assert "COPY --from=web-assets /src/verification/static/verification/vendor" in (
        ROOT / "Dockerfile").read_text()


def test_the_image_leaves_out_tests_benchmarks_docs_and_local_state():
    ignored = (ROOT / ".dockerignore").read_text().split()
    assert {"tests", "bench", "docs", ".git", ".venv", ".tools", ".env"} <= set(ignored)
    dockerfile = (ROOT / "Dockerfile").read_text()
    assert ".tools" not in dockerfile
    assert 'CMD ["gunicorn", "config.wsgi:application"]' in dockerfile


@pytest.mark.parametrize("text, expected", [
    ("${A}", "1"), ("${MISSING:-x}", "x"), ("${EMPTY:-x}", "x"), ("${A:-x}", "1"),
    ("celery@$$HOSTNAME", "celery@$HOSTNAME"),
])
def test_interpolation_follows_compose(text, expected):
    assert interpolate(text, {"A": "1", "EMPTY": ""}) == expected


def test_interpolation_refuses_a_required_variable_that_is_unset():
    with pytest.raises(ValueError, match="SECRET_KEY"):
        interpolate("${SECRET_KEY:?set SECRET_KEY}", {})


def test_the_nginx_front_forwards_limits_and_keeps_upstream_connections():
    conf = (ROOT / "deploy" / "nginx.conf").read_text()
    for directive in ("proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;",
                      "proxy_set_header X-Forwarded-Proto $scheme;",
                      "proxy_request_buffering on;", "proxy_buffering on;",
                      "proxy_intercept_errors off;", 'proxy_set_header Connection "";'):
        assert directive in conf, directive
    assert re.search(r"upstream web \{[^}]*keepalive \d+;", conf)
    # The app's own limit (MAX_REQUEST_BODY_BYTES' default), so both refuse alike.
    assert "client_max_body_size 1m;" in conf
    for status in (400, 413, 414, 502, 503, 504):
        assert f"error_page {status} /_problem/{status}.json;" in conf
    assert "error_page 494 =431 /_problem/431.json;" in conf
