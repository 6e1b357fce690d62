import logging

from config.log import MaskSecretsFilter

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
