"""The OpenAPI 3 schema at /v1/openapi.json and its docs page at /v1/docs (SPEC section 1)."""

import re

import pytest
from openapi_spec_validator import validate
from rest_framework.test import APIClient

from tests.routes import scoped_routes

pytestmark = pytest.mark.django_db

PROBLEM_REF = "#/components/schemas/Problem"


@pytest.fixture(scope="module")
def schema() -> dict:
    # Built once for the module: generating it takes a while, and it reads no database.
    response = APIClient().get("/v1/openapi.json")
    assert response.status_code == 200
    return response.json()


def operation(schema, route) -> dict:
    # drf-spectacular names a primary key {id}; other lookups keep their name.
    template = route.template.replace("{pk}", "{id}")
    assert template in schema["paths"], f"{template} is missing from the schema"
    operations = schema["paths"][template]
    assert route.method in operations, f"{route} is missing from the schema"
    return operations[route.method]


def test_the_schema_is_json_served_without_a_key(anon):
    response = anon.get("/v1/openapi.json", HTTP_ACCEPT="application/yaml")
    assert response.status_code == 200
    assert "json" in response["Content-Type"]
    assert response.json()["openapi"].startswith("3.")


def test_the_schema_is_valid_openapi_3(schema):
    validate(schema)  # raises on the first error


def test_the_schema_describes_the_service(schema):
    assert schema["info"]["title"] and schema["info"]["version"]
    assert "RFC 9457" in schema["info"]["description"]


@pytest.mark.parametrize("route", scoped_routes(), ids=str)
def test_every_route_is_in_the_schema_with_its_key_and_problem_responses(schema, route):
    op = operation(schema, route)
    scheme = "AdminBearer" if route.uses_bearer else "ApiKey"
    assert op["security"] == [{scheme: []}]
    for status in ("401", "403"):
        assert op["responses"][status]["content"]["application/problem+json"]["schema"] == {
            "$ref": PROBLEM_REF
        }
    if route.method in ("post", "patch"):
        assert {"400", "413", "415"} <= set(op["responses"])
    if "{" in route.template:
        assert "404" in op["responses"]


def test_the_key_schemes_say_how_to_send_a_key(schema):
    # What a generator needs to build the auth of each operation without a hand setting.
    schemes = schema["components"]["securitySchemes"]
    assert schemes["AdminBearer"]["type"] == "http" and schemes["AdminBearer"]["scheme"] == "bearer"
    assert "Authorization: Bearer" in schemes["AdminBearer"]["description"]
    assert schemes["ApiKey"]["type"] == "apiKey" and schemes["ApiKey"]["in"] == "header"
    assert schemes["ApiKey"]["name"] == "X-API-Key" and "scope" in schemes["ApiKey"]["description"]


def test_the_problem_schema_has_the_rfc_9457_fields(schema):
    problem = schema["components"]["schemas"]["Problem"]
    assert {"type", "title", "status", "detail", "code", "errors"} <= set(problem["properties"])
    error = schema["components"]["schemas"]["ProblemError"]
    assert set(error["properties"]) == {"attr", "code", "detail"}


def test_property_names_are_camel_case(schema):
    chain = schema["components"]["schemas"]["Chain"]["properties"]
    assert {"chainId", "shortName", "nativeCurrency", "isTestnet", "createdAt"} <= set(chain)
    snake = [
        f"{name}.{prop}"
        for name, component in schema["components"]["schemas"].items()
        for prop in component.get("properties", {})
        if "_" in prop
    ]
    assert snake == []


def test_query_parameters_are_documented_for_lists(schema):
    names = {p["name"] for p in schema["paths"]["/v1/admin/chains"]["get"]["parameters"]}
    assert {"limit", "offset"} <= names


def test_serializers_do_not_inherit_the_description_of_their_base_class(schema):
    # drf-spectacular publishes an inherited docstring; the strict bases have none to give.
    descriptions = {c.get("description") for c in schema["components"]["schemas"].values()}
    assert not any(d and "immutable_fields" in d for d in descriptions)
    assert not any(d and "wrong JSON type" in d for d in descriptions)


def test_the_docs_page_is_html_served_without_a_key(anon):
    response = anon.get("/v1/docs")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/html")
    assert "/v1/openapi.json" in response.content.decode()


@pytest.mark.parametrize("page", ["/v1/docs", "/v1/docs/try"])
def test_the_docs_pages_load_their_scripts_from_this_service_not_a_cdn(anon, page):
    html = anon.get(page).content.decode()
    scripts = re.findall(r'<script[^>]+src="([^"]+)"', html)
    assert scripts and all(src.startswith("/static/") for src in scripts), scripts
    assert all(anon.get(src).status_code == 200 for src in scripts)


def test_swagger_ui_tries_operations_against_the_schema(anon):
    response = anon.get("/v1/docs/try")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/html")
    assert "/v1/openapi.json" in response.content.decode()


def test_the_schema_generates_without_a_single_warning(tmp_path):
    from django.core.management import call_command

    # --fail-on-warn: an ambiguous enum or an unresolvable field would end in SystemExit.
    call_command("spectacular", "--validate", "--fail-on-warn", "--file", str(tmp_path / "s.yaml"))
    assert (tmp_path / "s.yaml").read_text().startswith("openapi: 3")
