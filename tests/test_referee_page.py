"""The referee page in a real headless Chromium, driven through chromedriver (selenium).

Types words as a referee would and reads the verdicts the page shows; saves a screenshot
to test-artifacts/referee.png. Outside CI a machine without Chromium skips this test; in CI
(CI set) a missing browser is a failure, so the page is never silently untested there.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.query_data import publish_all, running_server

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
CHROMEDRIVER = shutil.which("chromedriver")
ARTIFACTS = Path(__file__).resolve().parent.parent / "test-artifacts"

if not (CHROMIUM and CHROMEDRIVER) and not os.environ.get("CI"):
    pytest.skip("chromium and chromium-driver are not installed (apt-get install chromium "
                "chromium-driver)", allow_module_level=True)

if not os.environ.get("CI"):
    pytest.importorskip("selenium")
from selenium import webdriver  # noqa: E402  (after the skip above)
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support import expected_conditions as ec  # noqa: E402
from selenium.webdriver.support.select import Select  # noqa: E402
from selenium.webdriver.support.wait import WebDriverWait  # noqa: E402


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    home = publish_all(tmp_path_factory.mktemp("referee-home"))
    with running_server(home) as url:
        yield url


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[webdriver.Chrome]:
    assert CHROMIUM and CHROMEDRIVER, "CI must install chromium and chromium-driver"
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                 "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync",
                 "--disable-dev-shm-usage", "--window-size=420,900",
                 f"--user-data-dir={tmp_path_factory.mktemp('chromium-profile')}"):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    driver.set_page_load_timeout(30)
    try:
        yield driver
    finally:
        driver.quit()


def ask(driver: webdriver.Chrome, game: str, word: str) -> dict[str, str]:
    """Choose the game, type the word, press Enter; return what the page shows."""
    Select(driver.find_element(By.ID, "game")).select_by_value(game)
    driver.execute_script("document.getElementById('verdict').textContent = ''")
    box = driver.find_element(By.ID, "word")
    box.clear()
    box.send_keys(word + "\n")
    WebDriverWait(driver, 10).until(
        lambda d: d.find_element(By.ID, "verdict").text.strip() != "")
    return {key: driver.find_element(By.ID, key).text for key in (
        "verdict", "shown-word", "reason", "tiles", "score", "analyses", "alternatives",
        "fillings", "release")}


def test_referee_types_words_and_reads_verdicts(base: str, browser: webdriver.Chrome) -> None:
    browser.get(base + "/")
    WebDriverWait(browser, 10).until(ec.presence_of_element_located(
        (By.CSS_SELECTOR, "#game option[value=kvizovka]")))

    seen = ask(browser, "osps", "zażółć")
    assert seen["verdict"] == "VALID"
    assert "zażółcić" in seen["analyses"] and "score 21" in seen["score"]
    assert seen["release"].startswith("osps-")

    seen = ask(browser, "osps", "ok")
    assert seen["verdict"] == "INVALID" and "abbreviation" in seen["reason"]

    seen = ask(browser, "kvizovka", "ЉУБАВ")           # Cyrillic typed, Latin shown
    assert seen["verdict"] == "VALID" and seen["shown-word"] == "ljubav"
    assert seen["tiles"].split()[0] == "LJ" and seen["release"].startswith("kvizovka-")

    seen = ask(browser, "kvizovka", "kući")
    assert seen["verdict"] == "INVALID" and "dative" in seen["reason"]

    seen = ask(browser, "krizemkrazem", "KA?IN")         # joker fillings
    assert seen["verdict"] == "VALID" and "4 words fit" in seen["reason"]
    for name in ("Kacin", "kalin", "Kanin", "Karin"):
        assert name in seen["fillings"]

    seen = ask(browser, "kvizovka", "?ubav")             # one '?' is one tile: LJ too
    assert "ljubav" in seen["fillings"] and "LJ" in seen["fillings"]

    seen = ask(browser, "osps", "k[o")                   # a bad request is shown, not thrown
    assert seen["verdict"] == "Cannot check"

    ARTIFACTS.mkdir(exist_ok=True)
    ask(browser, "osps", "zażółć")
    browser.save_screenshot(str(ARTIFACTS / "referee.png"))
    assert (ARTIFACTS / "referee.png").stat().st_size > 1000
