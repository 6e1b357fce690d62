"""What the tests read of deploy/: the alert rules and the dashboards' panel queries, the
metric names and label matchers of their PromQL (promql-parser), and promtool (Debian's
`prometheus` package, installed by scripts/client_tools.sh)."""

import json
import shutil
import subprocess
from pathlib import Path

import promql_parser
import yaml

from tests.conftest import missing

ROOT = Path(__file__).resolve().parents[2]
PROMETHEUS = ROOT / "deploy" / "prometheus"
ALERTS = PROMETHEUS / "alerts.yml"
RULE_TESTS = sorted((PROMETHEUS / "tests").glob("*.yml"))
GRAFANA = ROOT / "deploy" / "grafana"
DASHBOARDS = sorted((GRAFANA / "dashboards").glob("*.json"))
RUNBOOK = ROOT / "docs" / "runbook.md"

# Grafana's variables as a query sends them (a range, every chain).
GRAFANA_VARIABLES = {"$__rate_interval": "5m", "$__interval": "1m", "$__range": "1h",
                     "${chain}": ".*", "$chain": ".*"}


def alert_rules() -> list[dict]:
    groups = yaml.safe_load(ALERTS.read_text())["groups"]
    return [rule for group in groups for rule in group["rules"] if "alert" in rule]


def panels(dashboard: dict) -> list[dict]:
    """Every panel, those inside rows included."""
    found = []
    for panel in dashboard["panels"]:
        found.append(panel)
        found.extend(panel.get("panels", []))
    return found


def panel_queries() -> list[tuple[str, str]]:
    """(where, expression) of every panel target of every dashboard, variables filled in."""
    queries = []
    for path in DASHBOARDS:
        for panel in panels(json.loads(path.read_text())):
            for target in panel.get("targets", []):
                expr = target["expr"]
                for variable, value in GRAFANA_VARIABLES.items():
                    expr = expr.replace(variable, value)
                queries.append((f"{path.name}: {panel['title']} ({target['refId']})", expr))
    return queries


def selectors(expr: str) -> list[tuple[str, set[str]]]:
    """Each series selector of `expr`: (metric name, the label names it matches on)."""
    found = []
    for node in _nodes(promql_parser.parse(expr)):
        if isinstance(node, promql_parser.VectorSelector):
            labels = {matcher.name for matcher in node.matchers.matchers}
            name = node.name or next((m.value for m in node.matchers.matchers
                                      if m.name == "__name__"), None)
            found.append((name, labels - {"__name__"}))
    return found


def grouping_labels(expr: str) -> set[str]:
    """The label names of `expr`'s `by (...)` and `on (...)` clauses."""
    found = set()
    for node in _nodes(promql_parser.parse(expr)):
        modifier = getattr(node, "modifier", None)
        if isinstance(node, promql_parser.AggregateExpr) and modifier is not None:
            if modifier.type == promql_parser.AggModifierType.By:
                found.update(modifier.labels)
        elif isinstance(node, promql_parser.BinaryExpr) and modifier is not None:
            matching = modifier.matching
            if matching is not None and matching.type == promql_parser.LabelModifierType.Include:
                found.update(matching.labels)
    return found


def _nodes(node):
    yield node
    for attribute in ("lhs", "rhs", "expr", "param", "vector_selector"):
        child = getattr(node, attribute, None)
        if child is not None and not isinstance(child, (int, float, str)):
            yield from _nodes(child)
    for argument in getattr(node, "args", None) or ():
        yield from _nodes(argument)


def promtool(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    tool = shutil.which("promtool")
    if not tool:
        missing("promtool is not installed", "apt-get install prometheus; scripts/client_tools.sh "
                "does it as root")
    return subprocess.run([tool, *args], cwd=cwd, capture_output=True, text=True, timeout=120)
