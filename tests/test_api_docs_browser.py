"""The API's docs in a real browser (Debian's Chromium driven by Playwright, as the public
page's tests do): `/v1/docs` (Redoc) and `/v1/docs/try` (Swagger UI) render the schema and
ask nothing of the internet, neither fonts nor the Redocly logo (issue 37 item 7): every
request the page sends goes to the service."""

from urllib.parse import urlsplit

import pytest

from tests.browser import chromium

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(scope="module")
def browser():
    with chromium() as launched:
        yield launched


def visit(browser, url: str, ready: str) -> tuple[list[str], list[str]]:
    """Open `url` until `ready` (a selector) shows; (the URLs asked of any other host than
    the service's, never sent; the console's errors)."""
    context = browser.new_context()
    page = context.new_page()
    elsewhere, errors = [], []
    here = urlsplit(url).netloc

    def route(request_route):
        target = urlsplit(request_route.request.url)
        if target.scheme in ("http", "https") and target.netloc != here:
            elsewhere.append(request_route.request.url)
            request_route.abort()  # the tests reach nothing but this machine
        else:
            request_route.continue_()

    page.route("**/*", route)
    page.on("console", lambda message: message.type == "error" and errors.append(message.text))
    try:
        page.goto(url)
        page.wait_for_selector(ready, timeout=60_000)
        page.wait_for_load_state("networkidle")
    finally:
        context.close()
    return elsewhere, errors


def test_redoc_renders_the_schema_from_the_service_alone(browser, live_server):
    elsewhere, errors = visit(browser, f"{live_server.url}/v1/docs",
                              "text=Chain registry and document verification API")
    assert elsewhere == []
    # Redoc's footer asks for the Redocly logo from its CDN (no setting leaves it out): the
    # page's Content-Security-Policy keeps the browser from sending that request at all.
    logo = "https://cdn.redoc.ly/redoc/logo-mini.svg"
    assert [error for error in errors if f"'{logo}' violates" not in error] == []


def test_swagger_ui_renders_the_schema_from_the_service_alone(browser, live_server):
    elsewhere, errors = visit(browser, f"{live_server.url}/v1/docs/try", ".opblock")
    assert elsewhere == []
    assert errors == []


def test_the_docs_page_names_no_other_host(anon):
    page = anon.get("/v1/docs").content.decode()
    assert "fonts.googleapis.com" not in page and "https://" not in page
    assert "default-src 'self'" in anon.get("/v1/docs")["Content-Security-Policy"]
