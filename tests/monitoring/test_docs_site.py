"""The docs as a site (mkdocs.yml): it builds with --strict, and a broken link fails the
build; its navigation has the sections operators look for, search, the runbook's anchors,
the OpenAPI reference; nothing is loaded from another host; the README links into it."""

import json
import os
import re
import shutil
import subprocess
import sys

import pytest
import yaml

from tests.monitoring.promql import ROOT, alert_rules

SECTIONS = ["Home", "Getting started", "Operating", "API", "Webhooks", "Verify it yourself",
            "Scaling", "Security", "Decisions", "Benchmarks"]


def build(config, site) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-f", str(config), "-d", str(site)],
        capture_output=True, text=True, timeout=300,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"})


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    site = tmp_path_factory.mktemp("site")
    done = build(ROOT / "mkdocs.yml", site)
    assert done.returncode == 0, done.stderr
    return site


def test_the_navigation_has_each_section(site):
    nav = yaml.safe_load((ROOT / "mkdocs.yml").read_text())["nav"]
    assert [next(iter(item)) for item in nav] == SECTIONS
    home = (site / "index.html").read_text()
    for title in SECTIONS:
        assert title in home, title


def test_search_indexes_every_page_with_its_sections(site):
    index = json.loads((site / "search" / "search_index.json").read_text())
    locations = {doc["location"] for doc in index["docs"]}
    for page in ("runbook/", "monitoring/", "decisions/", "api/", "operating/",
                 "getting-started/"):
        assert page in locations, page
    # Long pages are searchable by section: decisions.md's headings each have an entry.
    assert any(location.startswith("decisions/#") for location in locations)


def test_each_alert_links_to_an_anchor_of_the_runbook_page(site):
    page = (site / "runbook" / "index.html").read_text()
    for rule in alert_rules():
        anchor = rule["annotations"]["runbook"].partition("#")[2]
        assert f'id="{anchor}"' in page, anchor


def test_the_openapi_reference_renders_the_clients_schema_with_swagger_ui_from_the_site(site):
    assert json.loads((site / "openapi.json").read_text()) == json.loads(
        (ROOT / "clients" / "openapi.json").read_text())
    [frame] = (site / "openapi").glob("swagger-*.html")
    html = frame.read_text()
    assert 'url = "../openapi.json"' in html
    assert (site / "assets" / "javascripts" / "swagger-ui-bundle.js").is_file()


def test_nothing_is_loaded_from_another_host(site):
    external = re.compile(r'<(?:script|link|img|iframe)[^>]+(?:src|href)="(?:https?:)?//')
    found = [path.relative_to(site) for path in site.rglob("*.html")
             if external.search(path.read_text())]
    assert found == []


def test_readme_sections_are_included_with_their_links_into_the_site(site):
    operating = (site / "operating" / "index.html").read_text()
    assert 'id="operations"' in operating and "PROMETHEUS_MULTIPROC_DIR" in operating
    # The README's `docs/scaling.md` link, rewritten to the site's page.
    assert 'href="../scaling/"' in operating
    started = (site / "getting-started" / "index.html").read_text()
    assert "./scripts/test.sh" in started and 'id="running-the-stack-docker"' in started


def test_the_readme_links_into_the_site():
    readme = (ROOT / "README.md").read_text()
    assert "./scripts/docs.sh" in readme
    for page in ("docs/index.md", "docs/monitoring.md", "docs/runbook.md"):
        assert f"]({page})" in readme


def test_a_broken_link_fails_the_build(tmp_path):
    for name in ("mkdocs.yml", "README.md"):
        shutil.copy(ROOT / name, tmp_path / name)
    shutil.copytree(ROOT / "docs", tmp_path / "docs", symlinks=False)
    (tmp_path / "clients").mkdir()
    shutil.copy(ROOT / "clients" / "openapi.json", tmp_path / "clients")
    runbook = tmp_path / "docs" / "runbook.md"
    runbook.write_text(runbook.read_text() + "\nSee [the old page](no-such-page.md).\n")
    done = build(tmp_path / "mkdocs.yml", tmp_path / "site")
    assert done.returncode != 0
    assert "no-such-page.md" in done.stderr
