import logging

import pytest

from core.log import MaskSecretsFilter

SECRET_URL = "https://eth-mainnet.g.alchemy.com/v2/AbCdEf0123456789AbCdEf0123456789"


def record(msg, *args) -> logging.LogRecord:
    return logging.LogRecord("web3.providers.HTTPProvider", logging.DEBUG, __file__, 1, msg, args, None)


def test_a_url_with_a_key_is_masked_in_a_log_line():
    line = record("Making request HTTP. URI: %s, Method: %s", SECRET_URL, "eth_chainId")

    assert MaskSecretsFilter().filter(line) is True
    assert line.getMessage() == (
        "Making request HTTP. URI: https://eth-mainnet.g.alchemy.com/v2/***, Method: eth_chainId"
    )


def test_a_key_left_in_a_path_without_its_host_is_masked_too():
    line = record("Max retries exceeded with url: /v2/AbCdEf0123456789AbCdEf0123456789")
    MaskSecretsFilter().filter(line)
    assert "AbCdEf0123456789" not in line.getMessage()


def test_a_line_without_secrets_is_left_as_it_was():
    line = record("probed %d endpoints", 3)
    MaskSecretsFilter().filter(line)
    assert (line.msg, line.args, line.getMessage()) == ("probed %d endpoints", (3,), "probed 3 endpoints")


def test_the_console_handler_masks_what_web3_logs_at_debug(caplog):
    handler = next(h for h in logging.getLogger().handlers if h.get_name() == "console"
                   or isinstance(h, logging.StreamHandler))
    assert any(isinstance(f, MaskSecretsFilter) for f in handler.filters)


# --- Both formats, tracebacks and extra fields included (issue 17) ---------------------------

LOWERCASE_KEY = "abcdefghijklmnopqrstuvwxyzabcdef"


def console_formatter(name: str) -> logging.Formatter:
    """The formatter named `name`, built from settings.LOGGING as the console handler's is."""
    from logging.config import DictConfigurator

    from django.conf import settings

    return DictConfigurator({}).configure_formatter(dict(settings.LOGGING["formatters"][name]))


@pytest.mark.parametrize("fmt", ["text", "json"])
def test_a_key_in_a_traceback_and_in_extra_fields_is_masked_in_both_formats(caplog, fmt):
    import requests

    from tests.anvil import closed_url

    url = f"{closed_url()}/v2/{LOWERCASE_KEY}?apikey={LOWERCASE_KEY}"
    logger = logging.getLogger("tests.rpc")
    with caplog.at_level(logging.ERROR, logger="tests.rpc"):
        try:
            requests.post(url, timeout=1)
        except requests.ConnectionError:
            logger.exception("RPC call to %s failed", url,
                             extra={"target": f"https://mainnet.infura.io/v3/{LOWERCASE_KEY}"})
    (record,) = caplog.records
    assert LOWERCASE_KEY in "".join(__import__("traceback").format_exception(*record.exc_info))

    record.request_id = "-"
    MaskSecretsFilter().filter(record)
    line = console_formatter(fmt).format(record)

    assert LOWERCASE_KEY not in line
    assert "Max retries exceeded" in line  # the traceback is there, masked
    if fmt == "json":
        import json

        fields = json.loads(line)
        assert fields["target"] == "https://mainnet.infura.io/v3/***"
        assert "/v2/***?apikey=***" in fields["message"]


def test_the_console_handler_masks_a_key_value_pair_and_a_jwt(caplog):
    jwt = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJub2RlIn0.c2lnbmF0dXJl"
    line = record("node said token=%s, Authorization: Bearer %s", LOWERCASE_KEY, jwt)
    MaskSecretsFilter().filter(line)
    assert line.getMessage() == "node said token=***, Authorization: Bearer ***"
