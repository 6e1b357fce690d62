"""No alert, and no dashboard panel, on a metric that does not exist: every series the rules
and the panels select is one that /metrics exports (scraped from a service at work), with the
labels they match and group on."""

import json

import pytest

from tests.monitoring.promql import (
    DASHBOARDS,
    alert_rules,
    grouping_labels,
    panel_queries,
    selectors,
)

pytestmark = pytest.mark.django_db

# Series Prometheus makes itself: `up` is 0 when the scrape of /metrics fails.
PROMETHEUS_SERIES = {"up": {"job", "instance"}}
# Labels Prometheus adds to every series it scrapes (prometheus.yml).
TARGET_LABELS = {"job", "instance"}
# The read replicas' gauges have series only when DATABASE_REPLICA_URLS names one: their
# labels as tests/core/test_read_replicas.py scrapes them from a real replica.
WITHOUT_SERIES_HERE = {"database_replica_lag_seconds": {"replica"},
                       "database_replica_usable": {"replica"}}
SUFFIXES = {"counter": ("_total", "_created"), "histogram": ("_bucket", "_sum", "_count", "_created"),
            "summary": ("", "_sum", "_count", "_created")}


def exported(families: dict) -> dict[str, set[str] | None]:
    """{series name: its label names (None: no series to read them from)} of a scrape."""
    names = {**PROMETHEUS_SERIES}
    for family in families.values():
        for suffix in SUFFIXES.get(family.type, ("",)):
            names.setdefault(family.name + suffix, None)
        for sample in family.samples:
            names[sample.name] = (names.get(sample.name) or set()) | set(sample.labels)
    return names


def queries() -> list[tuple[str, str]]:
    return [(f"alert {rule['alert']}", rule["expr"]) for rule in alert_rules()] + panel_queries()


@pytest.fixture
def names(busy_service, scrape) -> dict:
    return exported(scrape())


def test_the_rules_and_panels_select_only_exported_series_by_their_labels(names):
    assert len(queries()) >= 25
    unknown, unmatched, unseen = [], [], []
    for where, expr in queries():
        for name, labels in selectors(expr):
            if name not in names:
                unknown.append((where, name))
            elif names[name] is None and name not in WITHOUT_SERIES_HERE:
                unseen.append((where, name))
            elif labels - (WITHOUT_SERIES_HERE.get(name) or names[name]) - TARGET_LABELS:
                unmatched.append((where, name, labels))
    assert unknown == [], "no such metric in /metrics"
    assert unmatched == [], "no such label on the metric"
    assert unseen == [], "the service at work exported no series of it (add it to busy_service)"


def test_the_rules_and_panels_group_and_match_on_labels_their_series_have(names):
    wrong = []
    for where, expr in queries():
        known = TARGET_LABELS | {"le"}
        for name, _ in selectors(expr):
            known |= WITHOUT_SERIES_HERE.get(name) or names.get(name) or set()
        if grouping_labels(expr) - known:
            wrong.append((where, grouping_labels(expr) - known))
    assert wrong == []


def test_the_chain_variable_reads_an_exported_label(names):
    for path in DASHBOARDS:
        variables = {v["name"]: v for v in json.loads(path.read_text())["templating"]["list"]}
        assert variables["chain"]["definition"] == "label_values(registry_chain_active, chain_id)"
        assert "chain_id" in names["registry_chain_active"]


def test_a_misspelt_metric_or_label_is_caught():
    names = {"registry_executors": {"chain_id", "status"}}
    [(name, labels)] = selectors('sum by (chain) (registry_executor{state="offline"})')
    assert name not in names
    [(name, labels)] = selectors('registry_executors{state="offline"}')
    assert labels - names[name] == {"state"}
    assert grouping_labels('sum by (chain) (registry_executors)') == {"chain"}
