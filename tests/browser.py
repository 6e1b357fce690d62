"""Debian's Chromium driven by Playwright (no browser of Playwright's own), for the tests of
pages in a real browser."""

import shutil
from contextlib import contextmanager

import pytest

from tests.conftest import missing


@contextmanager
def chromium():
    """A launched Chromium; the test is skipped without it (failed in CI)."""
    executable = shutil.which("chromium")
    if executable is None:
        missing("chromium is not installed", "run scripts/client_tools.sh as root")
    from playwright.sync_api import sync_playwright

    # Playwright's sync API keeps an event loop running in this thread, which Django takes
    # for async code and refuses the ORM in; there is no async code of ours here.
    patch = pytest.MonkeyPatch()
    patch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    try:
        with patch.context(), sync_playwright() as playwright:
            launched = playwright.chromium.launch(executable_path=executable,
                                                  args=["--no-sandbox", "--disable-gpu"])
            try:
                yield launched
            finally:
                launched.close()
    finally:
        patch.undo()
