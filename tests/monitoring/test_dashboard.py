"""deploy/grafana: the dashboards parse, every panel query parses in promtool (each checked as
a recording rule), and the provisioning points Grafana at the profile's Prometheus and at
the dashboards' folder. Their metric names: test_metric_names.py."""

import json
import re

import yaml

from tests.monitoring.promql import DASHBOARDS, GRAFANA, panel_queries, panels, promtool

DATASOURCE = {"type": "prometheus", "uid": "${datasource}"}


def test_each_dashboard_parses_with_unique_panels_on_the_datasource_variable():
    assert DASHBOARDS
    for path in DASHBOARDS:
        dashboard = json.loads(path.read_text())
        assert dashboard["uid"] and dashboard["title"] and dashboard["schemaVersion"] >= 39
        found = panels(dashboard)
        assert len({panel["id"] for panel in found}) == len(found)
        for panel in found:
            if panel["type"] == "row":
                continue
            assert panel["targets"], panel["title"]
            assert panel["datasource"] == DATASOURCE, panel["title"]
            assert {t["refId"] for t in panel["targets"]} == {
                chr(65 + i) for i in range(len(panel["targets"]))}
            grid = panel["gridPos"]
            assert grid["x"] + grid["w"] <= 24, panel["title"]


def test_every_panel_query_parses_in_promtool(tmp_path):
    queries = panel_queries()
    assert len(queries) >= 15
    rules = [{"record": f"dashboard:query_{n}", "expr": expr} for n, (_, expr) in
             enumerate(queries)]
    path = tmp_path / "panels.yml"
    path.write_text(yaml.safe_dump({"groups": [{"name": "panels", "rules": rules}]}))
    done = promtool("check", "rules", str(path))
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"SUCCESS: {len(rules)} rules found" in done.stdout


def test_a_query_that_does_not_parse_fails_promtool(tmp_path):
    path = tmp_path / "panels.yml"
    path.write_text(yaml.safe_dump({"groups": [{"name": "panels", "rules": [
        {"record": "dashboard:query_0", "expr": "sum by (chain_id (registry_executors)"}]}]}))
    assert promtool("check", "rules", str(path)).returncode != 0


def test_the_provisioning_reads_the_profiles_prometheus_and_the_dashboards_folder():
    [source] = yaml.safe_load(
        (GRAFANA / "provisioning/datasources/prometheus.yml").read_text())["datasources"]
    assert source["type"] == "prometheus" and source["url"] == "http://prometheus:9090"
    for path in DASHBOARDS:
        variables = {v["name"]: v for v in json.loads(path.read_text())["templating"]["list"]}
        # The datasource variable starts on the provisioned source.
        assert variables["datasource"]["current"]["value"] == source["uid"]
        assert variables["chain"]["datasource"] == DATASOURCE
    [provider] = yaml.safe_load(
        (GRAFANA / "provisioning/dashboards/chain-registry.yml").read_text())["providers"]
    assert provider["type"] == "file" and provider["allowUiUpdates"] is False
    assert re.fullmatch(r"/etc/grafana/dashboards", provider["options"]["path"])
