"""The API's documentation page in a real headless Chromium (see test_referee_page.py):
``/docs`` renders the service's own OpenAPI description with every resource taken from
the service, as in a hall with no internet: the browser can resolve no host
name at all, so a page that needs another host fails here whether or not this machine has
a network."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from selenium import webdriver
from selenium.webdriver.common.by import By
from selenium.webdriver.support.wait import WebDriverWait

from tests.conftest import SmallHomes
from tests.page.test_referee_page import chromium
from tests.query_data import running_server


@pytest.fixture(scope="module")
def base(small_homes: SmallHomes) -> Iterator[str]:
    with running_server(small_homes("osps")) as url:
        yield url


@pytest.fixture(scope="module")
def offline_browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[webdriver.Chrome]:
    """Chromium that reaches 127.0.0.1 and nothing else: every other host name resolves to
    nothing, and no proxy is used."""
    driver = chromium(tmp_path_factory.mktemp("chromium-offline"), "--no-proxy-server",
                      "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1")
    try:
        yield driver
    finally:
        driver.quit()


def test_the_api_docs_render_with_no_network(base: str,
                                             offline_browser: webdriver.Chrome) -> None:
    driver = offline_browser
    driver.get(base + "/docs")
    WebDriverWait(driver, 30).until(     # Swagger UI: one block per operation
        lambda d: len(d.find_elements(By.CSS_SELECTOR, ".opblock")) > 5)
    assert "/v1/games/{game}/words/{word}" in driver.find_element(By.TAG_NAME, "body").text
    resources = driver.execute_script(
        "return performance.getEntriesByType('resource').map(e => e.name)")
    assert resources and all(u.startswith(base + "/") for u in resources), resources
    icon = driver.find_element(By.CSS_SELECTOR, "link[rel~=icon]").get_attribute("href")
    assert icon == base + "/static/icon.svg"
