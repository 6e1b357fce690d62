"""docker-compose.yml's `monitoring` profile, read as a file (no docker engine here): Prometheus
and Grafana from pinned images, mounting deploy/, scraping a web whose Host Django allows,
started only with `--profile monitoring`."""

import pytest
import yaml

from tests.stack.compose import COMPOSE, ROOT, default_services, environment, start_order

SERVICES = yaml.safe_load(COMPOSE.read_text())["services"]
PROFILE = {name for name, service in SERVICES.items() if "monitoring" in
           service.get("profiles", [])}


def mounts(service: dict) -> dict[str, str]:
    """{path in the container: path in the repository} of its bind mounts."""
    found = {}
    for volume in service["volumes"]:
        source, target, *_ = volume.split(":")
        if source.startswith("./"):
            found[target] = source
    return found


def test_the_profile_is_prometheus_and_grafana_from_their_images_after_web():
    assert PROFILE == {"prometheus", "grafana"}
    assert not PROFILE & set(default_services(SERVICES))
    assert SERVICES["prometheus"]["image"].startswith("prom/prometheus:v3.")
    assert SERVICES["grafana"]["image"].startswith("grafana/grafana:12.")
    order = start_order(SERVICES)
    assert order.index("web") < order.index("prometheus") < order.index("grafana")


def test_prometheus_reads_the_repositorys_configuration_and_scrapes_web():
    service = SERVICES["prometheus"]
    assert mounts(service)["/etc/prometheus"] == "./deploy/prometheus"
    assert "--config.file=/etc/prometheus/prometheus.yml" in service["command"]
    config = yaml.safe_load((ROOT / "deploy/prometheus/prometheus.yml").read_text())
    assert config["rule_files"] == ["alerts.yml"]
    [job] = config["scrape_configs"]
    assert job["job_name"] == "chain-registry" and job["metrics_path"] == "/metrics"
    [target] = [t for group in job["static_configs"] for t in group["targets"]]
    host, port = target.split(":")
    assert host == "web" and f"{port}" in SERVICES["web"]["expose"]


@pytest.mark.django_db
@pytest.mark.parametrize("variables", [{"SECRET_KEY": "k"},
                                       {"SECRET_KEY": "k", "ALLOWED_HOSTS": "registry.example"}])
def test_django_answers_the_scrape_of_web_8000(anon, settings, variables):
    allowed = environment(SERVICES["web"], variables)["ALLOWED_HOSTS"].split(",")
    settings.ALLOWED_HOSTS = allowed
    assert "web" in allowed
    response = anon.get("/metrics", HTTP_HOST="web:8000")
    assert response.status_code == 200, response.content
    # Without it, Django refuses the scrape: the setting is what lets it through.
    settings.ALLOWED_HOSTS = [host for host in allowed if host != "web"]
    assert anon.get("/metrics", HTTP_HOST="web:8000").status_code == 400


def test_grafana_is_provisioned_from_the_repository_and_opens_on_the_dashboard():
    service = SERVICES["grafana"]
    found = mounts(service)
    assert found["/etc/grafana/provisioning"] == "./deploy/grafana/provisioning"
    assert found["/etc/grafana/dashboards"] == "./deploy/grafana/dashboards"
    home = environment(service, {})["GF_DASHBOARDS_DEFAULT_HOME_DASHBOARD_PATH"]
    assert (ROOT / "deploy/grafana/dashboards" / home.removeprefix("/etc/grafana/dashboards/")
            ).is_file()
    assert service["ports"] == ["127.0.0.1:3000:3000"]
