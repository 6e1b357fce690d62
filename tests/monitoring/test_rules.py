"""deploy/prometheus: the configuration and the alert rules pass promtool's checks, each
alert has unit tests (promtool test rules) that fire it and keep it quiet, and that fail when
the rule is broken; each alert says what it is, how bad, and where its runbook section is."""

import re
import shutil

import pytest
import yaml

from tests.monitoring.promql import ALERTS, PROMETHEUS, RULE_TESTS, RUNBOOK, alert_rules, promtool

SEVERITIES = {"critical", "warning"}


def ok(done) -> str:
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def test_the_configuration_and_its_rule_files_pass_promtool_check():
    out = ok(promtool("check", "config", str(PROMETHEUS / "prometheus.yml")))
    assert f"SUCCESS: {len(alert_rules())} rules found" in out


def test_the_unit_tests_of_the_rules_pass():
    assert RULE_TESTS
    out = ok(promtool("test", "rules", *map(str, RULE_TESTS)))
    assert out.count("SUCCESS") == len(RULE_TESTS)


def unit_tests() -> list[dict]:
    return [case for path in RULE_TESTS for group in yaml.safe_load(path.read_text())["tests"]
            for case in group.get("alert_rule_test", [])]


@pytest.mark.parametrize("rule", alert_rules(), ids=lambda rule: rule["alert"])
def test_each_alert_has_a_test_that_fires_it_and_one_that_keeps_it_quiet(rule):
    cases = [case for case in unit_tests() if case["alertname"] == rule["alert"]]
    assert any(case.get("exp_alerts") for case in cases), "no test fires it"
    assert any(not case.get("exp_alerts") for case in cases), "no test keeps it quiet"


def mutant(tmp_path, name: str, expr: str) -> list[str]:
    """A copy of deploy/prometheus whose alert `name` has `expr`: its unit test files that
    test that alert."""
    shutil.copytree(PROMETHEUS, tmp_path / "prometheus")
    groups = yaml.safe_load(ALERTS.read_text())
    for group in groups["groups"]:
        for rule in group["rules"]:
            if rule.get("alert") == name:
                rule["expr"] = expr
    (tmp_path / "prometheus" / "alerts.yml").write_text(yaml.safe_dump(groups))
    return [str(tmp_path / "prometheus" / "tests" / path.name) for path in RULE_TESTS
            if f"alertname: {name}\n" in path.read_text()]


@pytest.mark.parametrize("rule", alert_rules(), ids=lambda rule: rule["alert"])
def test_the_unit_tests_fail_when_an_alert_never_fires_or_always_does(tmp_path, rule):
    never = mutant(tmp_path / "never", rule["alert"], "vector(1) == 0")
    assert never and promtool("test", "rules", *never).returncode != 0
    always = mutant(tmp_path / "always", rule["alert"], "vector(1)")
    assert promtool("test", "rules", *always).returncode != 0


def runbook_sections() -> list[str]:
    return re.findall(r"^## (\w+)$", RUNBOOK.read_text(), re.M)


@pytest.mark.parametrize("rule", alert_rules(), ids=lambda rule: rule["alert"])
def test_each_alert_has_a_severity_a_summary_and_a_runbook_section(rule):
    assert rule["labels"]["severity"] in SEVERITIES
    annotations = rule["annotations"]
    assert annotations["summary"] and len(annotations["description"]) > 60
    # The section's anchor as mkdocs (and GitHub) make it from the heading `## <alert>`.
    assert annotations["runbook"] == f"docs/runbook.md#{rule['alert'].lower()}"
    assert rule["alert"] in runbook_sections()


def test_the_runbook_has_a_section_for_each_alert_and_no_other():
    names = [rule["alert"] for rule in alert_rules()]
    assert len(set(names)) == len(names)
    assert sorted(runbook_sections()) == sorted(names)
