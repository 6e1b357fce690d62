"""mask_url: what every response and log shows of an RPC URL."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.masking import MASK, mask_text, mask_url

ALCHEMY_KEY = "k3yAbCdEfGhIjKlMnOpQrStUvWxYz012"
INFURA_ID = "0123456789abcdef0123456789abcdef"
QUICKNODE_TOKEN = "a1b2c3d4e5f60718293a4b5c6d7e8f9012345678"
LOWERCASE_KEY = "abcdefghijklmnopqrstuvwxyzabcdef"  # 32 letters, no digit, no capital
JWT = ("eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJub2RlLTEiLCJleHAiOjE3MDAwMDAwMDB9"
       ".c2lnbmF0dXJlLWJ5dGVzLWhlcmU")

# URLs and what mask_url shows of them, by what each group is about.
MASKED_URLS = {
    "userinfo-as-a-whole": [
        ("https://user:pass@rpc.example.com/rpc", "https://***@rpc.example.com/rpc"),
        ("https://user@rpc.example.com/", "https://***@rpc.example.com/"),
        ("https://:s3cret@rpc.example.com/", "https://***@rpc.example.com/"),
        # An unencoded "@" in the password: everything before the last "@" is userinfo.
        ("https://user:p@ss@rpc.example.com/", "https://***@rpc.example.com/"),
    ],
    "provider-key-in-the-path": [
        (f"https://eth-mainnet.g.alchemy.com/v2/{ALCHEMY_KEY}",
         "https://eth-mainnet.g.alchemy.com/v2/***"),
        (f"https://mainnet.infura.io/v3/{INFURA_ID}", "https://mainnet.infura.io/v3/***"),
        (f"https://young-wild-sun.quiknode.pro/{QUICKNODE_TOKEN}/",
         "https://young-wild-sun.quiknode.pro/***/"),
        (f"https://rpc.ankr.com/eth/{INFURA_ID}{INFURA_ID}", "https://rpc.ankr.com/eth/***"),
    ],
    "websocket-like-http": [
        (f"wss://eth-mainnet.g.alchemy.com/v2/{ALCHEMY_KEY}", "wss://eth-mainnet.g.alchemy.com/v2/***"),
        (f"ws://mainnet.infura.io/ws/v3/{INFURA_ID}", "ws://mainnet.infura.io/ws/v3/***"),
        ("ws://user:pass@127.0.0.1:8546", "ws://***@127.0.0.1:8546"),
    ],
    "ipv6-keeps-brackets-and-port": [
        ("http://[::1]:8545", "http://[::1]:8545"),
        ("http://user:pw@[::1]:8545/", "http://***@[::1]:8545/"),
        ("https://[2001:db8::1]:8545/?apikey=abc", "https://[2001:db8::1]:8545/?apikey=***"),
    ],
    # What a log line may carry (issue 17).
    "lowercase-keys-jwts-every-query-value": [
        (f"https://eth-mainnet.g.alchemy.com/v2/{LOWERCASE_KEY}", "https://eth-mainnet.g.alchemy.com/v2/***"),
        (f"https://mainnet.infura.io/v3/{LOWERCASE_KEY}", "https://mainnet.infura.io/v3/***"),
        ("https://mainnet.infura.io/v3/abcdefabcdefabcdefabcdefabcdefab", "https://mainnet.infura.io/v3/***"),
        (f"https://rpc.example.com/node/{JWT}/", "https://rpc.example.com/node/***/"),
        ("https://rpc.example.com/?chain=1&x=lowercase&flag", "https://rpc.example.com/?chain=***&x=***&flag"),
    ],
    # Without secrets (slugs and ordinary words included) a URL comes back unchanged.
    "unchanged": [(url, url) for url in [
        "http://127.0.0.1:8545",
        "http://localhost:8545/",
        "ws://localhost:8546",
        "https://rpc.ankr.com/eth",
        "https://eth.llamarpc.com",
        "https://cloudflare-eth.com/v1/mainnet",
        "https://rpc.ankr.com/ethereum-mainnet-archive",
        "https://ethereum-sepolia-rpc.publicnode.com",
        "https://rpc.example.com:8443/x/y/",
        "https://example.com/site-packages/pythonjsonlogger/x.py",
    ]],
}

# Messages and what mask_text shows of them.
MASKED_TEXTS = {
    # urllib3 names the request target without scheme and host.
    "what-is-left-of-a-url": [
        ("Max retries exceeded with url: /?apikey=S3cr3t (Caused by X)",
         "Max retries exceeded with url: /?apikey=*** (Caused by X)"),
        ("url: /rpc?chain=1&token=S3cr3t&x=2", "url: /rpc?chain=***&token=***&x=***"),
        (f"url: /v2/{ALCHEMY_KEY}?n=1", "url: /v2/***?n=***"),
        ("POST https://user:pw@rpc.example.com/?key=S3cr3t failed",
         "POST https://***@rpc.example.com/?key=*** failed"),
        ("nothing to hide: a?b&d", "nothing to hide: a?b&d"),
    ],
    "key-value-pairs-bearer-tokens-jwts": [
        (f"connecting with apikey={LOWERCASE_KEY} now", "connecting with apikey=*** now"),
        (f"api_key={LOWERCASE_KEY}&chain=1", "api_key=***&chain=***"),  # a query pair, too
        (f'{{"rpc_token": "{LOWERCASE_KEY}", "n": 1}}', '{"rpc_token": "***", "n": 1}'),
        ("password: hunter2 and more", "password: *** and more"),
        (f"Authorization: Bearer {LOWERCASE_KEY}", "Authorization: Bearer ***"),
        (f"a token {JWT} in prose", "a token *** in prose"),
        (f"url: /v3/{LOWERCASE_KEY}", "url: /v3/***"),
        ("key=crk_0123456789ab.Zm9vYmFyYmF6cXV4Zm9vYmFyYmF6cXV4Zm9vYmFyYmF6cXU",
         "key=crk_0123456789ab.***"),
        ("GET /x 200 1.0ms key=crk_0123456789ab", "GET /x 200 1.0ms key=crk_0123456789ab"),
    ],
}


def cases(table: dict) -> list:
    return [pytest.param(*case, id=f"{group}-{n}")
            for group, group_cases in table.items() for n, case in enumerate(group_cases)]


@pytest.mark.parametrize(("url", "masked"), cases(MASKED_URLS))
def test_mask_url_shows_what_the_table_says(url, masked):
    assert mask_url(url) == masked


@pytest.mark.parametrize(("text", "masked"), cases(MASKED_TEXTS))
def test_mask_text_shows_what_the_table_says(text, masked):
    assert mask_text(text) == masked


def test_the_mask_is_three_asterisks():
    assert MASK == "***"


def test_masking_userinfo_keeps_the_host_spelling_and_the_port():
    assert mask_url("https://USER:PW@Node.Example.com:8443/x") == "https://***@Node.Example.com:8443/x"


@pytest.mark.parametrize(
    "name", ["apikey", "apiKey", "api_key", "x-api-key", "key", "token", "access_token",
             "secret", "client_secret", "password", "auth", "signature", "credential"],
)
def test_a_key_like_query_parameter_is_masked(name):
    masked = mask_url(f"https://rpc.example.com/rpc?chain=1&{name}=S3cr3tValue&x=2")
    assert masked == f"https://rpc.example.com/rpc?chain=***&{name}=***&x=***"
    assert "S3cr3tValue" not in masked


def test_a_percent_encoded_parameter_name_is_recognised():
    assert mask_url("https://rpc.example.com/?api%5Fkey=abc") == "https://rpc.example.com/?api%5Fkey=***"


def test_a_key_parameter_without_value_is_still_masked():
    assert mask_url("https://rpc.example.com/?token") == "https://rpc.example.com/?token=***"


def test_every_repetition_of_a_secret_parameter_is_masked():
    assert mask_url("https://rpc.example.com/?key=a1&key=b2") == "https://rpc.example.com/?key=***&key=***"


def test_a_path_key_without_any_digit_is_masked_too():
    # Alchemy keys are 32 characters of [A-Za-z0-9_-]: about one in 250 has no digit.
    assert mask_url("https://eth-mainnet.g.alchemy.com/v2/abcDEFghiJKLmnoPQRstuVWXyzAB_-cd") == (
        "https://eth-mainnet.g.alchemy.com/v2/***"
    )


def test_a_path_key_keeps_the_query_around_it():
    assert mask_url(f"https://mainnet.infura.io/v3/{INFURA_ID}?source") == (
        "https://mainnet.infura.io/v3/***?source"
    )


def test_every_kind_of_secret_in_one_url_is_masked():
    url = f"wss://me:pw@eth-mainnet.g.alchemy.com:443/v2/{ALCHEMY_KEY}?token=t0k&net=main"
    assert mask_url(url) == "wss://***@eth-mainnet.g.alchemy.com:443/v2/***?token=***&net=***"


def test_the_fragment_is_dropped_since_it_could_hold_anything():
    assert mask_url("https://rpc.example.com/#s3cret") == "https://rpc.example.com/"


def test_an_unparseable_url_is_masked_entirely():
    assert mask_url("http://user:pa/ss@rpc.example.com/") == MASK  # "pa" read as a port
    assert mask_url("http://rpc.example.com:99999/") == MASK


_PIECES = ["https://", "wss://", "?", "&", "=", "/", ":", " ", "key", "Token", "eyJ", "Bearer ",
           "pass", "auth", "crk_", ".", "-", "_", "abc", "Z9", "0123456789abcdef", "\n", '"']


@given(st.lists(st.sampled_from(_PIECES) | st.text(max_size=6), max_size=14).map("".join))
@settings(max_examples=400, deadline=None)
def test_text_the_quick_check_passes_over_is_text_no_pattern_would_change(text):
    from core.masking import _mask_every_pattern

    assert mask_text(text) == _mask_every_pattern(text)
