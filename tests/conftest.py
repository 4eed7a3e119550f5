"""Property tests explore the same games on every run, so a failure in CI is a failure on every machine."""

import shutil
from collections.abc import Iterator

import pytest
from chromium import CHROMIUM, FLAGS, OUTPUT, PHONE
from hypothesis import settings
from playwright.sync_api import Browser, Page, sync_playwright

from tabletop.lab.tablesim import register_source

settings.register_profile("tabletop", derandomize=True, print_blob=True)
settings.load_profile("tabletop")

# The command line registers the table simulator as the camera source "sim:SEED"; tests that run the service
# or the doctor without it do the same.
register_source()

NEEDS = {"browser": ("chromium",), "tools": ("openscad", "systemd-analyze"), "speech": ("espeak-ng",)}
"""The programs each marker's tests run; tests/run installs them all, so CI runs every test."""


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Skip, saying why, a test whose programs this machine lacks, rather than fail it."""
    for item in items:
        for marker, programs in NEEDS.items():
            missing = [program for program in programs if shutil.which(program) is None]
            if item.get_closest_marker(marker) and missing:
                item.add_marker(pytest.mark.skip(reason=f"needs {', '.join(missing)}: tests/run installs it"))


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    """Chromium, headless, for one test module's pages."""
    OUTPUT.mkdir(exist_ok=True)
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        yield launched
        launched.close()


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    """A phone's page, in a context of its own (its cookies, storage and downloads)."""
    context = browser.new_context(viewport=PHONE, accept_downloads=True)
    yield context.new_page()
    context.close()
