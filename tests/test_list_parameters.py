"""Query parameters of the lists: unknown ones are a 400 naming them, multi-value filters
(`status=active,inactive`), and `ordering`."""

import pytest
from django.utils import timezone

from bindings.models import Workflow
from tests.conftest import assert_problem
from tests.factories import ChainFactory, DeploymentFactory, ExecutorFactory
from tests.routes import scoped_routes

pytestmark = pytest.mark.django_db

LISTS = [route for route in scoped_routes() if route.method == "get" and "{" not in route.template]


@pytest.fixture
def client_for(admin, api):
    return lambda route: admin if route.uses_bearer else api


def test_every_list_is_walked():
    # The routes come from the schema: a floor, so that an empty walk cannot pass.
    assert len(LISTS) >= 15


@pytest.mark.parametrize("route", LISTS, ids=str)
def test_a_list_answers_unknown_query_parameters_with_a_400_naming_each(client_for, route):
    response = client_for(route).get(route.path, {"bogus": "1", "limit": "5", "pageSize": "2"})

    body = assert_problem(response, 400, "validation_error")
    assert [(e["attr"], e["code"]) for e in body["errors"]] == [
        ("bogus", "unknown_parameter"), ("pageSize", "unknown_parameter")]
    assert "limit" in body["errors"][0]["detail"]  # the parameters it does take


@pytest.mark.parametrize("route", LISTS, ids=str)
def test_a_list_takes_its_page_size(client_for, route):
    assert client_for(route).get(route.path, {"limit": "1"}).status_code == 200


@pytest.mark.parametrize("route", LISTS, ids=str)
@pytest.mark.parametrize("limit", ["0", "-1", "x", "²", "0000", "501", "9" * 5000])
def test_a_bad_page_size_is_a_400_giving_the_range_the_list_serves(client_for, route, limit):
    # Not "from 1 to 1000000000000" while 501 was cut to 500 (issue 37 item 6).
    body = assert_problem(client_for(route).get(route.path, {"limit": limit}), 400,
                          "validation_error")
    assert body["errors"] == [{"attr": "limit", "code": "invalid",
                               "detail": "Expected an integer from 1 to 500."}]


@pytest.mark.parametrize("route", LISTS, ids=str)
def test_a_list_takes_the_largest_page_size(client_for, route):
    assert client_for(route).get(route.path, {"limit": "500"}).status_code == 200


def test_the_schema_gives_the_page_sizes_the_lists_serve(api):
    schema = api.get("/v1/openapi.json").json()
    for route in LISTS:
        parameters = schema["paths"][route.template]["get"]["parameters"]
        limit = next(p for p in parameters if p["name"] == "limit")
        assert (limit["schema"]["minimum"], limit["schema"]["maximum"]) == (1, 500), route


def test_an_unknown_parameter_is_named_as_written_with_the_one_meant(api):
    body = assert_problem(api.get("/chains", {"is_testnet": "true"}), 400)
    assert body["errors"][0]["attr"] == "is_testnet"  # not camelCased into a valid name
    assert "(did you mean isTestnet?)" in body["errors"][0]["detail"]


def test_an_item_read_keeps_its_own_parameters(api):
    chain = ChainFactory()
    assert api.get(f"/chains/{chain.chain_id}").status_code == 200


def test_chain_id_filters_the_chain_lists(admin, api):
    for chain_id in (1, 10, 56):
        ChainFactory(chain_id=chain_id)

    assert ids(api.get("/chains", {"chainId": "1"})) == [1]
    assert ids(admin.get("/v1/admin/chains", {"chainId": "1,10"})) == [1, 10]
    assert_problem(api.get("/chains", {"chainId": "x"}), 400)


def test_name_filters_the_chain_lists_exactly(admin, api):
    ChainFactory(chain_id=1, name="Ethereum Mainnet")
    ChainFactory(chain_id=2, name="Ethereum Mainnet Fork")

    assert ids(api.get("/chains", {"name": "Ethereum Mainnet"})) == [1]
    assert ids(admin.get("/v1/admin/chains", {"name": "Ethereum Mainnet"})) == [1]


def test_a_multi_value_filter_takes_a_comma_list_or_the_parameter_repeated(admin):
    ChainFactory(chain_id=1, status="active")
    ChainFactory(chain_id=2, status="inactive")

    assert ids(admin.get("/v1/admin/chains", {"status": "active,inactive"})) == [1, 2]
    assert ids(admin.get("/v1/admin/chains", {"status": "inactive"})) == [2]
    assert ids(admin.get("/v1/admin/chains?status=active&status=inactive")) == [1, 2]
    body = assert_problem(admin.get("/v1/admin/chains", {"status": "active,retired"}), 400)
    assert body["errors"][0]["attr"] == "status"


def test_executors_filter_on_several_shown_statuses(admin):
    chain = ChainFactory()
    healthy = ExecutorFactory(chain=chain)
    lapsed = ExecutorFactory(chain=chain, lease_expires_at=timezone.now())  # shows as stale
    ExecutorFactory(chain=chain, status="deregistered")

    response = admin.get("/v1/admin/executors", {"status": "healthy,stale"})
    assert response.status_code == 200, response.content
    shown = {row["executorId"] for row in response.json()["results"]}
    assert shown == {str(healthy.pk), str(lapsed.pk)}


def test_workflows_filter_on_several_states(api, api_key):
    chain = ChainFactory()
    for state in ("queued", "failed", "confirmed"):
        Workflow.objects.create(chain=chain, document_hash="0x" + "d0" * 32, state=state,
                                schema_uid="0x" + "5c" * 32, deadline=timezone.now(),
                                created_by=api_key.partition(".")[0])

    response = api.get("/workflows", {"state": "queued,failed"})
    assert response.status_code == 200, response.content
    assert sorted(row["state"] for row in response.json()["results"]) == ["failed", "queued"]


def test_ordering_sorts_the_list_either_way(admin, api):
    for chain_id, name in ((5, "b"), (7, "a"), (6, "c")):
        ChainFactory(chain_id=chain_id, name=name)

    assert ids(admin.get("/v1/admin/chains", {"ordering": "-chainId"})) == [7, 6, 5]
    assert ids(admin.get("/v1/admin/chains", {"ordering": "name"})) == [7, 5, 6]
    assert ids(api.get("/chains", {"ordering": "-name"})) == [6, 5, 7]
    body = assert_problem(admin.get("/v1/admin/chains", {"ordering": "status"}), 400)
    assert body["errors"][0]["attr"] == "ordering"


def test_rows_that_tie_on_the_ordering_keep_one_order_across_pages(admin):
    chains = [ChainFactory(), ChainFactory()]
    rows = [DeploymentFactory(chain=chains[n % 2]) for n in range(6)]

    seen = []
    for offset in range(0, 6, 2):
        page = admin.get("/v1/admin/deployments",
                         {"ordering": "-chainId", "limit": "2", "offset": str(offset)})
        seen += [row["id"] for row in page.json()["results"]]

    expected = sorted(rows, key=lambda row: (-row.chain_id, row.pk))
    assert seen == [row.pk for row in expected]


def test_a_trpc_query_names_an_unknown_input_field(api):
    response = api.get("/trpc/chains.list", {"input": '{"bogus": 1}'})
    assert response.status_code == 400
    assert response.json()["error"]["data"]["problem"]["errors"][0]["attr"] == "bogus"


def ids(response) -> list[int]:
    assert response.status_code == 200, response.content
    return [row["chainId"] for row in response.json()["results"]]
