"""RPC endpoints under /v1/admin/rpc: create, read, change, delete, filter; URLs masked."""

from datetime import timedelta

import pytest
from django.utils import timezone

from registry.models import ProviderHealth, RpcEndpoint
from tests.conftest import assert_problem
from tests.factories import ChainFactory, ProviderHealthFactory, RpcEndpointFactory

pytestmark = pytest.mark.django_db

ALCHEMY_KEY = "k3yAbCdEfGhIjKlMnOpQrStUvWxYz012"
ALCHEMY_URL = f"https://eth-mainnet.g.alchemy.com/v2/{ALCHEMY_KEY}"
INFURA_ID = "0123456789abcdef0123456789abcdef"
INFURA_URL = f"https://mainnet.infura.io/v3/{INFURA_ID}"


def create(admin, chain, **fields):
    return admin.post("/v1/admin/rpc", {"chainId": chain.chain_id, "url": ALCHEMY_URL, **fields},
                      format="json")


def error_attrs(body) -> set:
    return {error["attr"] for error in body["errors"]}


# --- Create -------------------------------------------------------------------------------


def test_creating_an_endpoint_stores_the_full_url_and_answers_with_it_masked(admin):
    chain = ChainFactory()

    response = create(admin, chain, priority=2)

    assert response.status_code == 201, response.content
    body = response.json()
    assert body["url"] == "https://eth-mainnet.g.alchemy.com/v2/***"
    assert ALCHEMY_KEY not in response.content.decode()
    stored = RpcEndpoint.objects.get(pk=body["id"])
    assert stored.url == ALCHEMY_URL
    assert stored.chain == chain
    assert stored.priority == 2


def test_a_new_endpoint_has_default_monitoring_and_no_measurements_yet(admin):
    body = create(admin, ChainFactory()).json()

    assert body["monitoring"] == {"enabled": True, "intervalSeconds": 30, "timeoutMs": 2000}
    assert body["status"] == "unknown"
    assert body["probeStatus"] == "unknown"
    assert body["override"] is None
    for field in ("latencyMs", "headBlock", "lagBlocks", "lastCheckedAt"):
        assert body[field] is None
    assert body["consecutiveFailures"] == 0
    assert body["lastError"] == ""
    assert body["createdAt"].endswith("Z")


def test_the_location_of_a_new_endpoint_is_its_record_not_the_rpc_url(admin):
    response = create(admin, ChainFactory())

    assert response["Location"].endswith(f"/v1/admin/rpc/{response.json()['id']}")
    assert ALCHEMY_KEY not in response["Location"]


@pytest.mark.parametrize(
    ("url", "provider"),
    [
        (ALCHEMY_URL, "alchemy"),
        (INFURA_URL, "infura"),
        ("wss://young-wild-sun.quiknode.pro/a1b2c3d4e5f60718293a4b5c6d7e8f90/", "quiknode"),
        ("https://RPC.Ankr.com/eth", "ankr"),
        ("http://localhost:8545", "localhost"),
        ("http://127.0.0.1:8545", "127.0.0.1"),
    ],
)
def test_the_provider_defaults_to_the_second_level_label_of_the_host(admin, url, provider):
    response = create(admin, ChainFactory(), url=url)

    assert response.status_code == 201, response.content
    assert response.json()["provider"] == provider
    assert RpcEndpoint.objects.get().provider == provider


def test_a_given_provider_wins_over_the_host_and_is_stored_lowercase(admin):
    response = create(admin, ChainFactory(), provider="My-Node_1")

    assert response.status_code == 201, response.content
    assert response.json()["provider"] == "my-node_1"
    assert RpcEndpoint.objects.get().provider == "my-node_1"


def test_an_empty_provider_means_the_default_one(admin):
    response = create(admin, ChainFactory(), provider="")

    assert response.json()["provider"] == "alchemy"


def test_a_provider_with_other_characters_is_refused(admin):
    body = assert_problem(create(admin, ChainFactory(), provider="al chemy!"), 400, "validation_error")

    assert error_attrs(body) == {"provider"}
    assert not RpcEndpoint.objects.exists()


def test_monitoring_settings_are_stored(admin):
    response = create(admin, ChainFactory(),
                      monitoring={"enabled": False, "intervalSeconds": 5, "timeoutMs": 60_000})

    assert response.status_code == 201, response.content
    assert response.json()["monitoring"] == {"enabled": False, "intervalSeconds": 5, "timeoutMs": 60_000}
    stored = RpcEndpoint.objects.get()
    assert (stored.monitoring_enabled, stored.probe_interval_seconds, stored.probe_timeout_ms) == (
        False, 5, 60_000
    )


@pytest.mark.parametrize(
    ("monitoring", "attr"),
    [
        ({"intervalSeconds": 4}, "monitoring.intervalSeconds"),
        ({"intervalSeconds": 86_401}, "monitoring.intervalSeconds"),
        ({"timeoutMs": 99}, "monitoring.timeoutMs"),
        ({"timeoutMs": 60_001}, "monitoring.timeoutMs"),
        ({"enabled": "yes"}, "monitoring.enabled"),
        ({"intervalSeconds": "30"}, "monitoring.intervalSeconds"),
        ({"retries": 3}, "monitoring.retries"),
    ],
)
def test_monitoring_settings_out_of_range_or_of_the_wrong_type_are_refused(admin, monitoring, attr):
    body = assert_problem(create(admin, ChainFactory(), monitoring=monitoring), 400, "validation_error")

    assert error_attrs(body) == {attr}
    assert not RpcEndpoint.objects.exists()


def test_monitoring_bounds_are_inclusive(admin):
    chain = ChainFactory()

    low = create(admin, chain, monitoring={"intervalSeconds": 5, "timeoutMs": 100})
    high = create(admin, chain, url=INFURA_URL, monitoring={"intervalSeconds": 86_400, "timeoutMs": 60_000})

    assert low.status_code == high.status_code == 201
    assert high.json()["monitoring"]["intervalSeconds"] == 86_400


@pytest.mark.parametrize(
    "url", ["http://localhost:8545", "https://rpc.example.com/", "ws://localhost:8546",
            "wss://rpc.example.com/ws"],
)
def test_http_and_websocket_urls_are_accepted(admin, url):
    response = create(admin, ChainFactory(), url=url)

    assert response.status_code == 201, response.content
    assert RpcEndpoint.objects.get().url == url


@pytest.mark.parametrize(
    "url",
    ["ftp://rpc.example.com/", "file:///etc/passwd", "rpc.example.com", "https://", "http:///path",
     "https://rpc.example.com/a b", "javascript:alert(1)", "https://rpc.example.com:notaport/", ""],
)
def test_a_url_that_is_not_http_or_websocket_with_a_host_is_refused(admin, url):
    body = assert_problem(create(admin, ChainFactory(), url=url), 400, "validation_error")

    assert error_attrs(body) == {"url"}
    assert not RpcEndpoint.objects.exists()


def test_the_error_for_a_bad_url_does_not_quote_its_credentials(admin):
    # urlsplit reads "pa55word" as a port here; its own message would quote it.
    response = create(admin, ChainFactory(), url="https://user:pa55word/x@rpc.example.com/")

    assert_problem(response, 400, "validation_error")
    assert "pa55word" not in response.content.decode()


def test_a_url_longer_than_1000_characters_is_refused(admin):
    url = "https://rpc.example.com/" + "a" * 1000

    body = assert_problem(create(admin, ChainFactory(), url=url), 400, "validation_error")

    assert error_attrs(body) == {"url"}


def test_an_unknown_chain_is_refused_naming_chain_id(admin):
    body = assert_problem(admin.post("/v1/admin/rpc", {"chainId": 999_999_999, "url": ALCHEMY_URL},
                                     format="json"), 400, "validation_error")

    assert error_attrs(body) == {"chainId"}
    assert "999999999" in body["errors"][0]["detail"]
    assert body["detail"].startswith("chainId:")
    assert not RpcEndpoint.objects.exists()


def test_chain_id_and_url_are_required(admin):
    body = assert_problem(admin.post("/v1/admin/rpc", {}, format="json"), 400, "validation_error")

    assert error_attrs(body) == {"chainId", "url"}


def test_the_same_url_twice_on_a_chain_is_a_conflict(admin):
    chain = ChainFactory()
    create(admin, chain)

    body = assert_problem(create(admin, chain, provider="other"), 409, "duplicate")

    assert error_attrs(body) == {"url"}
    assert ALCHEMY_KEY not in str(body)
    assert RpcEndpoint.objects.count() == 1


def test_the_same_url_on_another_chain_is_allowed(admin):
    create(admin, ChainFactory())

    response = create(admin, ChainFactory())

    assert response.status_code == 201
    assert RpcEndpoint.objects.filter(url=ALCHEMY_URL).count() == 2


def test_probe_measurements_cannot_be_written_by_a_client(admin):
    response = create(admin, ChainFactory(), status="healthy", latencyMs=1.5, headBlock=10,
                      consecutiveFailures=3, lastError="x")

    assert response.status_code == 201, response.content
    stored = RpcEndpoint.objects.get()
    assert (stored.status, stored.latency_ms, stored.head_block) == ("unknown", None, None)
    assert (stored.consecutive_failures, stored.last_error) == (0, "")


def test_an_unknown_field_is_refused(admin):
    body = assert_problem(create(admin, ChainFactory(), weight=3), 400, "validation_error")

    assert error_attrs(body) == {"weight"}
    assert not RpcEndpoint.objects.exists()


# --- Read ---------------------------------------------------------------------------------


def test_reading_an_endpoint_shows_its_url_masked(admin):
    endpoint = RpcEndpointFactory(url=f"https://user:pw@rpc.example.com/v3/{INFURA_ID}?apikey=abc")

    response = admin.get(f"/v1/admin/rpc/{endpoint.pk}")

    assert response.status_code == 200
    body = response.json()
    assert body["url"] == "https://***@rpc.example.com/v3/***?apikey=***"
    assert body["id"] == endpoint.pk
    assert body["chainId"] == endpoint.chain_id
    assert INFURA_ID not in response.content.decode()


def test_the_list_shows_every_url_masked(admin):
    RpcEndpointFactory(url=ALCHEMY_URL)
    RpcEndpointFactory(url=INFURA_URL)
    RpcEndpointFactory(url="wss://rpc.example.com/?token=t0ken")

    response = admin.get("/v1/admin/rpc")

    assert response.status_code == 200
    text = response.content.decode()
    assert ALCHEMY_KEY not in text and INFURA_ID not in text and "t0ken" not in text
    assert sorted(e["url"] for e in response.json()["results"]) == [
        "https://eth-mainnet.g.alchemy.com/v2/***",
        "https://mainnet.infura.io/v3/***",
        "wss://rpc.example.com/?token=***",
    ]


def test_the_list_shows_what_the_probes_measured(admin):
    checked = timezone.now().replace(microsecond=0)
    RpcEndpointFactory(status="degraded", latency_ms=120.5, head_block=1000, lag_blocks=3,
                       consecutive_failures=1, last_checked_at=checked, last_error="slow")

    result = admin.get("/v1/admin/rpc").json()["results"][0]

    assert result["status"] == result["probeStatus"] == "degraded"
    assert (result["latencyMs"], result["headBlock"], result["lagBlocks"]) == (120.5, 1000, 3)
    assert result["consecutiveFailures"] == 1
    assert result["lastError"] == "slow"
    assert result["lastCheckedAt"] == checked.strftime("%Y-%m-%dT%H:%M:%SZ")


def test_the_list_is_paginated_with_limit_and_offset(admin):
    RpcEndpointFactory.create_batch(3)

    body = admin.get("/v1/admin/rpc?limit=2").json()

    assert len(body["results"]) == 2
    assert body["previous"] is None
    assert "offset=2" in body["next"]


def test_an_unknown_endpoint_is_not_found(admin):
    assert_problem(admin.get("/v1/admin/rpc/999999"), 404)


def test_listing_endpoints_with_overrides_costs_the_same_queries_for_many(admin, django_assert_max_num_queries):
    for _ in range(2):
        ProviderHealthFactory(rpc_endpoint=RpcEndpointFactory(provider="local"), provider="",
                              status="down")
    admin.get("/v1/admin/rpc")  # the key's lastUsedAt is written on first use only
    with django_assert_max_num_queries(5) as few:
        admin.get("/v1/admin/rpc")
    for _ in range(10):
        ProviderHealthFactory(rpc_endpoint=RpcEndpointFactory(provider="local"), provider="",
                              status="down")

    with django_assert_max_num_queries(len(few.captured_queries)):
        response = admin.get("/v1/admin/rpc")

    assert [e["status"] for e in response.json()["results"]] == ["down"] * 12


# --- Filters and ordering -----------------------------------------------------------------


def ids(response) -> list[int]:
    assert response.status_code == 200, response.content
    return [e["id"] for e in response.json()["results"]]


def test_the_list_filters_by_chain_id(admin):
    mine = RpcEndpointFactory()
    RpcEndpointFactory()

    assert ids(admin.get(f"/v1/admin/rpc?chainId={mine.chain_id}")) == [mine.pk]


def test_the_list_filters_by_provider(admin):
    alchemy = RpcEndpointFactory(provider="alchemy")
    RpcEndpointFactory(provider="infura")

    assert ids(admin.get("/v1/admin/rpc?provider=alchemy")) == [alchemy.pk]


def test_the_provider_filter_ignores_case(admin):
    alchemy = RpcEndpointFactory(provider="alchemy")

    assert ids(admin.get("/v1/admin/rpc?provider=Alchemy")) == [alchemy.pk]


def test_the_list_filters_by_probe_status(admin):
    down = RpcEndpointFactory(status="down")
    RpcEndpointFactory(status="healthy")

    assert ids(admin.get("/v1/admin/rpc?probeStatus=down")) == [down.pk]


def test_an_unknown_probe_status_filter_is_refused(admin):
    assert_problem(admin.get("/v1/admin/rpc?probeStatus=sleepy"), 400)


def test_the_list_filters_by_monitoring(admin):
    RpcEndpointFactory(monitoring_enabled=True)
    unmonitored = RpcEndpointFactory(monitoring_enabled=False)

    assert ids(admin.get("/v1/admin/rpc?monitored=false")) == [unmonitored.pk]


def test_a_monitoring_filter_that_is_not_true_or_false_is_refused(admin):
    RpcEndpointFactory(monitoring_enabled=False)

    assert_problem(admin.get("/v1/admin/rpc?monitored=maybe"), 400)


def test_an_unknown_ordering_is_refused(admin):
    assert_problem(admin.get("/v1/admin/rpc?ordering=url"), 400)


def test_the_list_is_ordered_by_chain_then_priority_by_default(admin):
    chain = ChainFactory()
    second = RpcEndpointFactory(chain=chain, priority=5)
    first = RpcEndpointFactory(chain=chain, priority=1)

    assert ids(admin.get("/v1/admin/rpc")) == [first.pk, second.pk]


def test_the_list_can_be_ordered_by_latency(admin):
    slow = RpcEndpointFactory(latency_ms=300)
    fast = RpcEndpointFactory(latency_ms=20)

    assert ids(admin.get("/v1/admin/rpc?ordering=latencyMs")) == [fast.pk, slow.pk]
    assert ids(admin.get("/v1/admin/rpc?ordering=-latencyMs")) == [slow.pk, fast.pk]


def test_the_list_can_be_ordered_by_priority_descending(admin):
    low = RpcEndpointFactory(priority=1)
    high = RpcEndpointFactory(priority=9)

    assert ids(admin.get("/v1/admin/rpc?ordering=-priority")) == [high.pk, low.pk]


# --- Change -------------------------------------------------------------------------------


def test_patching_priority_and_monitoring_changes_only_those(admin):
    endpoint = RpcEndpointFactory(url=ALCHEMY_URL, provider="alchemy", probe_timeout_ms=5000)

    response = admin.patch(f"/v1/admin/rpc/{endpoint.pk}",
                           {"priority": 7, "monitoring": {"intervalSeconds": 60}}, format="json")

    assert response.status_code == 200, response.content
    assert response.json()["monitoring"] == {"enabled": True, "intervalSeconds": 60, "timeoutMs": 5000}
    endpoint.refresh_from_db()
    assert (endpoint.priority, endpoint.probe_interval_seconds, endpoint.probe_timeout_ms) == (7, 60, 5000)
    assert endpoint.url == ALCHEMY_URL
    assert endpoint.provider == "alchemy"


def test_patching_the_url_stores_the_new_one_and_answers_masked(admin):
    endpoint = RpcEndpointFactory(url="http://localhost:8545", provider="self")

    response = admin.patch(f"/v1/admin/rpc/{endpoint.pk}", {"url": INFURA_URL}, format="json")

    assert response.status_code == 200, response.content
    assert response.json()["url"] == "https://mainnet.infura.io/v3/***"
    endpoint.refresh_from_db()
    assert endpoint.url == INFURA_URL
    assert endpoint.provider == "self"  # a provider once set stays until changed


def test_sending_back_the_masked_url_keeps_the_stored_one(admin):
    endpoint = RpcEndpointFactory(url=ALCHEMY_URL)
    shown = admin.get(f"/v1/admin/rpc/{endpoint.pk}").json()

    response = admin.patch(f"/v1/admin/rpc/{endpoint.pk}", {"url": shown["url"], "priority": 3},
                           format="json")

    assert response.status_code == 200, response.content
    endpoint.refresh_from_db()
    assert endpoint.url == ALCHEMY_URL
    assert endpoint.priority == 3


def test_patching_the_provider_to_empty_restores_the_default(admin):
    endpoint = RpcEndpointFactory(url=ALCHEMY_URL, provider="custom")

    response = admin.patch(f"/v1/admin/rpc/{endpoint.pk}", {"provider": ""}, format="json")

    assert response.json()["provider"] == "alchemy"
    endpoint.refresh_from_db()
    assert endpoint.provider == "alchemy"


def test_patching_the_url_to_one_of_another_endpoint_of_the_chain_is_a_conflict(admin):
    chain = ChainFactory()
    RpcEndpointFactory(chain=chain, url=ALCHEMY_URL)
    endpoint = RpcEndpointFactory(chain=chain, url=INFURA_URL)

    assert_problem(admin.patch(f"/v1/admin/rpc/{endpoint.pk}", {"url": ALCHEMY_URL}, format="json"),
                   409, "duplicate")
    endpoint.refresh_from_db()
    assert endpoint.url == INFURA_URL


def test_patching_the_url_to_its_own_value_is_fine(admin):
    endpoint = RpcEndpointFactory(url=ALCHEMY_URL)

    response = admin.patch(f"/v1/admin/rpc/{endpoint.pk}", {"url": ALCHEMY_URL}, format="json")

    assert response.status_code == 200, response.content


def test_the_chain_of_an_endpoint_cannot_change(admin):
    endpoint = RpcEndpointFactory()
    other = ChainFactory()

    body = assert_problem(admin.patch(f"/v1/admin/rpc/{endpoint.pk}", {"chainId": other.chain_id},
                                      format="json"), 400, "validation_error")

    assert body["errors"][0] == {"attr": "chainId", "code": "immutable",
                                 "detail": "This field cannot change once created."}
    endpoint.refresh_from_db()
    assert endpoint.chain_id != other.chain_id


def test_a_bad_url_in_a_patch_changes_nothing(admin):
    endpoint = RpcEndpointFactory(url=ALCHEMY_URL, priority=1)

    assert_problem(admin.patch(f"/v1/admin/rpc/{endpoint.pk}", {"url": "ftp://x.example", "priority": 4},
                               format="json"), 400, "validation_error")

    endpoint.refresh_from_db()
    assert (endpoint.url, endpoint.priority) == (ALCHEMY_URL, 1)


def test_put_is_not_allowed(admin):
    endpoint = RpcEndpointFactory()

    response = admin.put(f"/v1/admin/rpc/{endpoint.pk}", {"chainId": endpoint.chain_id,
                                                          "url": ALCHEMY_URL}, format="json")

    assert_problem(response, 405)


# --- Delete -------------------------------------------------------------------------------


def test_deleting_an_endpoint_removes_it(admin):
    endpoint = RpcEndpointFactory()

    response = admin.delete(f"/v1/admin/rpc/{endpoint.pk}")

    assert response.status_code == 204
    assert not RpcEndpoint.objects.filter(pk=endpoint.pk).exists()
    assert_problem(admin.get(f"/v1/admin/rpc/{endpoint.pk}"), 404)


def test_deleting_an_endpoint_keeps_the_reports_about_its_provider(admin):
    endpoint = RpcEndpointFactory(provider="local")
    RpcEndpointFactory(provider="local")
    report = ProviderHealthFactory(provider="local", until=timezone.now() + timedelta(hours=1))

    admin.delete(f"/v1/admin/rpc/{endpoint.pk}")

    assert ProviderHealth.objects.filter(pk=report.pk).exists()
